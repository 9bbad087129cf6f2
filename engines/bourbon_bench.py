"""Bourbon vs WiscKey: in-memory read-only lookups (seed 004 §5.2), side by side.

For each dataset: load the keys (16-byte keys, 64-byte values, shuffled
order) into `wisckey` and into `bourbon` (learning=offline: every table is
learned before the lookups start), compact fully (--settle full: otherwise
LevelDB's seek-triggered compactions rewrite tables during the read-only
phase, and offline models go stale), then run the same stream of
present-key lookups; repetitions are interleaved (W B W B ...) so drift on a shared
machine hits both. Both engines use the same tables (one entry per restart
point: wisckey gets -o block_restart_interval=1, which bourbon always uses).
The ratio is WiscKey's mean get latency over Bourbon's, per repetition pair.
One diagnostic pair per dataset runs with the step timers on
(timers=alternate, which also measures their overhead): bourbon with
learning=never (WiscKey's path inside the bourbon build) and bourbon offline.

Not a test: nothing here asserts a speed-up. Engines and datasets must exist:

    .venv/bin/python -m snakemake --profile profiles/default build/engines/{wisckey,bourbon}/bin/lsmbench \\
        results/local/datasets/{bourbon_linear,bourbon_seg1,bourbon_seg10,bourbon_normal,amazon_reviews,nyc_osm}_uint64
    .venv/bin/python -m engines.bourbon_bench --scale local --reps 3 --ops 1000000 --out results/bourbon_bench.json
"""
import argparse
import json
import statistics
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

from base.atomic import write_text
from base.errors import InputError, cli

DATASETS = {"linear": "bourbon_linear", "seg-1%": "bourbon_seg1", "seg-10%": "bourbon_seg10",
            "normal": "bourbon_normal", "AR": "amazon_reviews", "OSM": "nyc_osm"}
COMMON = ["--key-encoding", "be64_pad16", "--value-bytes", "64", "--load-order", "shuffled",
          "--workload", "point", "--negative-share", "0", "--progress", "never", "--settle", "full"]


def subsample(src, keys, dest):
    """Every k-th key of a SOSD uint64 file (k = count // keys), as SOSD does."""
    data = Path(src).read_bytes()
    (count,) = struct.unpack_from("<Q", data)
    k = max(1, count // keys)
    picked = [struct.unpack_from("<Q", data, 8 + 8 * i)[0] for i in range(0, count, k)][:keys]
    Path(dest).write_bytes(struct.pack("<Q", len(picked)) + struct.pack(f"<{len(picked)}Q", *picked))
    return dest


def run(binary, dataset, ops, seed, options, log, db):
    cmd = [str(binary), "--db", str(db), "--dataset", str(dataset), "--ops", str(ops),
           "--seed", str(seed), "--log", str(log), *COMMON]
    for o in options:
        cmd += ["-o", o]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"error: {' '.join(cmd)} failed: {r.stderr.strip()[-800:]}")
    recs = [json.loads(x) for x in Path(log).read_text().splitlines()]
    get = next(x for x in recs if x["type"] == "latency" and x["op"] == "get" and x["subset"] == "all")
    out = {"mean_ns": get["mean"], "p50_ns": get["p50"], "p99_ns": get["p99"], "gets": get["count"]}
    phase = next(x for x in recs if x["type"] == "phase" and x["phase"] == "run")
    out["run_ops_per_sec"] = phase["ops_per_sec"]
    engine = next((x for x in recs if x["type"] == "engine"), {})
    if "bourbon" in engine:
        b = engine["bourbon"]
        out["model_path_share"] = b["model_path_share"]
        out["files_learned"] = b["files_learned"]
        out["live_segments"] = b["live_segments"]
        out["live_model_bytes"] = b["live_model_bytes"]
        out["learn_ms_total"] = b["learn_ms_total"]
    out["breakdowns"] = [x for x in recs if x["type"] == "breakdown" and x["scope"] != "driver"]
    out["files_per_level"] = engine.get("files_per_level")
    return out


def spread(xs):
    return {"median": statistics.median(xs), "min": min(xs), "max": max(xs),
            "mean": statistics.mean(xs), "sd": statistics.stdev(xs) if len(xs) > 1 else 0.0,
            "values": xs}


def bench(args):
    build = Path(args.build_dir) / "engines"
    bins = {e: build / e / "bin" / "lsmbench" for e in ("wisckey", "bourbon")}
    for e, b in bins.items():
        if not b.exists():
            raise InputError(b, "engine", f"a built {e} expected (see this script's docstring)")
    names = [n for n in args.datasets.split(",") if n]
    report = {"scale": args.scale, "ops": args.ops, "reps": args.reps, "keys_cap": args.keys,
              "datasets": {}}
    with tempfile.TemporaryDirectory(dir=args.work) as tmp:
        tmp = Path(tmp)
        for label in names:
            if label not in DATASETS:
                raise InputError("--datasets", label, f"one of {', '.join(DATASETS)}")
            path = Path(args.results_dir) / args.scale / "datasets" / f"{DATASETS[label]}_uint64"
            if not path.exists():
                raise InputError(path, "dataset", "a materialized dataset (see the docstring)")
            if args.keys:
                path = subsample(path, args.keys, tmp / f"{DATASETS[label]}_uint64")
            wisc, bour, ratios, p50_ratios = [], [], [], []
            for rep in range(args.reps):
                seed = 1000 + rep
                w = run(bins["wisckey"], path, args.ops, seed, ["block_restart_interval=1"],
                        tmp / "w.jsonl", tmp / "db")
                b = run(bins["bourbon"], path, args.ops, seed, ["learning=offline"],
                        tmp / "b.jsonl", tmp / "db")
                wisc.append(w)
                bour.append(b)
                ratios.append(w["mean_ns"] / b["mean_ns"])
                p50_ratios.append(w["p50_ns"] / b["p50_ns"])
                print(f"{label} rep {rep}: wisckey {w['mean_ns']:.0f} ns, bourbon {b['mean_ns']:.0f} ns,"
                      f" ratio {ratios[-1]:.2f}, model share {b['model_path_share']}", file=sys.stderr)
            diag_never = run(bins["bourbon"], path, args.ops, 7, ["learning=never", "timers=alternate"],
                             tmp / "dn.jsonl", tmp / "db")
            diag = run(bins["bourbon"], path, args.ops, 7, ["learning=offline", "timers=alternate"],
                       tmp / "d.jsonl", tmp / "db")
            report["datasets"][label] = {
                "dataset": str(path),
                "wisckey_mean_ns": spread([x["mean_ns"] for x in wisc]),
                "bourbon_mean_ns": spread([x["mean_ns"] for x in bour]),
                "speedup": spread(ratios),
                "speedup_p50": spread(p50_ratios),
                "wisckey_p50_ns": spread([x["p50_ns"] for x in wisc]),
                "bourbon_p50_ns": spread([x["p50_ns"] for x in bour]),
                "bourbon": {k: bour[-1].get(k) for k in ("model_path_share", "files_learned",
                                                         "live_segments", "live_model_bytes",
                                                         "learn_ms_total", "files_per_level")},
                "breakdown_wisckey_path": diag_never["breakdowns"],
                "breakdown_bourbon": diag["breakdowns"],
            }
    return report


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", default=",".join(DATASETS))
    ap.add_argument("--scale", default="local")
    ap.add_argument("--keys", type=int, default=0, help="use every k-th key down to this many (0: all)")
    ap.add_argument("--ops", type=int, default=1000000)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--build-dir", default="build")
    ap.add_argument("--results-dir", default="results")
    ap.add_argument("--work", default=None, help="folder for the temporary databases")
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    report = bench(args)
    write_text(args.out, json.dumps(report, indent=1) + "\n")
    print(f"{'dataset':10} {'wisckey ns':>11} {'bourbon ns':>11} {'mean ratio med [min,max]':>26}"
          f" {'p50 ratio med [min,max]':>26}")
    for label, d in report["datasets"].items():
        s, p = d["speedup"], d["speedup_p50"]
        print(f"{label:10} {d['wisckey_mean_ns']['median']:11.0f} {d['bourbon_mean_ns']['median']:11.0f}"
              f"   {s['median']:.2f} [{s['min']:.2f}, {s['max']:.2f}]"
              f"        {p['median']:.2f} [{p['min']:.2f}, {p['max']:.2f}]")


if __name__ == "__main__":
    main()
