"""Side-by-side benchmark of leveldb-learned (not a test: it measures).

Two comparisons, each run in one invocation with repetitions interleaved
(A B C A B C ...) on the same dataset, seed and lookup stream:
  indexes  FP vs PGM, RS, RMI, PLEX at position boundary 16: point-lookup
           latency (mean, p50, p99 of lsmbench's get histogram) and index
           memory (the engine record's index_bytes, every live table);
           ratios against FP (the paper's: LevelDB's tables with 16-entry
           blocks, their index block the fence pointers; README, "Fence
           pointers").
  slr      LevelDB's index-block search (slr=off), the same search in our
           reader (slr=binary) and SLR (eq, ea): latency and comparisons per
           lookup; ratios against off and binary.

    .venv/bin/python engines/leveldb-learned/bench.py --part indexes \\
        --dataset results/local/datasets/fb_uint64 --out results/bench-learned [--reps 3]
    .venv/bin/python engines/leveldb-learned/bench.py --part slr \\
        --dataset results/local/datasets/osm_uint64 --out results/bench-learned

The engine must be built (build/engines/leveldb-learned/bin/lsmbench).
Writes <out>/<part>.json (every run's numbers and the ratios) and prints a table.
"""
import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from base.atomic import write_text  # noqa: E402

PARTS = {
    "indexes": {
        "common": ["value_bytes=8"],
        "configs": {
            "fp": ["index=fp", "position_boundary=16"],
            "pgm": ["index=pgm", "position_boundary=16"],
            "rs": ["index=rs", "position_boundary=16"],
            "rmi": ["index=rmi", "position_boundary=16"],
            "plex": ["index=plex", "position_boundary=16"],
        },
        "baseline": "fp",
    },
    "slr": {
        # The paper's 64 MiB tables: large memtables, so a sorted load's
        # flushes are table-sized (LevelDB cuts flushes at the memtable).
        "common": ["value_bytes=64", "max_file_size=67108864", "write_buffer_size=67108864"],
        "configs": {
            "off": ["index=native", "slr=off"],
            "binary": ["index=native", "slr=binary"],
            "eq": ["index=native", "slr=eq"],
            "ea": ["index=native", "slr=ea"],
            # Sensitivity: the index block's model only (no data-block
            # models), and an error-aware budget of 200 segments.
            "ea_index_only": ["index=native", "slr=ea", "slr_min_pairs=1000000000"],
            "ea_200_segments": ["index=native", "slr=ea", "slr_min_pairs=1000000000",
                                "slr_max_segments=200"],
        },
        "baseline": "off",
    },
}


def run(binary, dataset, opts, value_bytes, ops, seed, work, timers):
    log = work / "run.jsonl"
    cmd = [str(binary), "--db", str(work / "db"), "--dataset", dataset, "--log", str(log),
           "--ops", str(ops), "--seed", str(seed), "--value-bytes", str(value_bytes),
           "--load-order", "sorted", "--progress", "never", "-o", f"timers={timers}"]
    for o in opts:
        cmd += ["-o", o]
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    recs = [json.loads(x) for x in log.read_text().splitlines()]
    get = next(r for r in recs if r["type"] == "latency" and r["op"] == "get" and r["subset"] == "all")
    eng = next(r for r in recs if r["type"] == "engine")
    look = next((r for r in recs if r["type"] == "breakdown" and r["scope"] == "lookup"), None)
    out = {"mean_ns": get["mean"], "p50_ns": get["p50"], "p99_ns": get["p99"],
           "index_bytes": eng["index_bytes"], "tables": eng["tables"]}
    if look:
        out["comparisons_per_lookup"] = look["counters"]["comparisons_per_lookup"]
        out["index_search_ns"] = look["per_op"]["index_search"]
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--part", choices=sorted(PARTS), required=True)
    ap.add_argument("--dataset", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--ops", type=int, default=300000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--build-dir", default=str(REPO / "build"))
    args = ap.parse_args(argv)
    binary = Path(args.build_dir) / "engines" / "leveldb-learned" / "bin" / "lsmbench"
    part = PARTS[args.part]
    value_bytes = int(next(o for o in part["common"] if o.startswith("value_bytes=")).split("=")[1])
    common = [o for o in part["common"] if not o.startswith("value_bytes=")]
    runs = {name: [] for name in part["configs"]}
    with tempfile.TemporaryDirectory(prefix="bench-learned-") as tmp:
        for rep in range(args.reps):
            for name, opts in part["configs"].items():
                # Timers off for latency; one run with them on for the counters.
                # A configuration may set its own value size (value_bytes=N).
                vb = next((int(o.split("=")[1]) for o in opts if o.startswith("value_bytes=")),
                          value_bytes)
                opts = [o for o in opts if not o.startswith("value_bytes=")]
                r = run(binary, args.dataset, common + opts, vb, args.ops, args.seed,
                        Path(tmp), "off")
                if rep == 0:
                    t = run(binary, args.dataset, common + opts, vb, args.ops // 3,
                            args.seed, Path(tmp), "on")
                    r["comparisons_per_lookup"] = t.get("comparisons_per_lookup")
                    r["index_search_ns_traced"] = t.get("index_search_ns")
                runs[name].append(r)
                print(f"rep {rep} {name}: {r}", file=sys.stderr)
    base = part["baseline"]
    med = {n: {k: statistics.median(x[k] for x in rs) for k in ("mean_ns", "p50_ns", "p99_ns",
                                                                  "index_bytes")}
           for n, rs in runs.items()}
    for n in med:
        med[n]["comparisons_per_lookup"] = runs[n][0].get("comparisons_per_lookup")
        med[n]["latency_ratio_vs_" + base] = med[n]["mean_ns"] / med[base]["mean_ns"]
        med[n]["p50_ratio_vs_" + base] = med[n]["p50_ns"] / med[base]["p50_ns"]
        med[n]["index_bytes_ratio_vs_" + base] = (med[n]["index_bytes"] / med[base]["index_bytes"]
                                                  if med[base]["index_bytes"] else None)
        if "binary" in med:
            med[n]["latency_ratio_vs_binary"] = med[n]["mean_ns"] / med["binary"]["mean_ns"]
    result = {"part": args.part, "dataset": args.dataset, "reps": args.reps, "ops": args.ops,
              "seed": args.seed, "common": part["common"], "configs": part["configs"],
              "runs": runs, "median": med}
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    write_text(out / f"{args.part}.json", json.dumps(result, indent=2) + "\n")
    for n, m in med.items():
        print(f"{n:8s} mean {m['mean_ns']:8.0f} ns  p50 {m['p50_ns']:6.0f}  "
              f"index {m['index_bytes']:>10}  lat/{base} {m['latency_ratio_vs_' + base]:.3f}  "
              f"mem/{base} {m['index_bytes_ratio_vs_' + base] or 0:.3f}  "
              f"cmp/lookup {m['comparisons_per_lookup']}")


if __name__ == "__main__":
    main()
