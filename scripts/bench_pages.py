"""What sharing pages costs an interleaved job (not a test: it measures).

lsm-eval fig8's runs take turns in one process (lsmrepro/run/bench_group.py):
FP reads its own load, the learned indexes one load they share. This runs
that job as the pipeline does at `local` (its run arguments, `--cache warm
--memory 586%db`), with `--pages shared` (every member of the shared load
on hard links of it: the learned members warm one set of pages) and
`--pages own` (a copy each) alternating, and prints each member's mean get
and step times and its ratio to FP, medians over the jobs of each mode.

    .venv/bin/python scripts/bench_pages.py --dataset DIR/fb_uint64 \\
        --work /tmp/pages [--order shared,own,own,shared,shared,own] [--members pgm,rmi,rs]

DIR/fb_uint64: e.g. `build/workloads/datagen gen --generator fb_like --count
5000000 --seed 42 --out DIR/fb_uint64`. Loads FP and PGM (boundary 16,
settled) into --work unless there. Member `rmi1024` is rmi with
rmi_leaves=1024, `rmisized` rmi-sized; the others are index ids.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LSMBENCH = REPO / "build/engines/leveldb-learned/bin/lsmbench"
sys.path.insert(0, str(REPO))
from lsmrepro.run.bench import LOADED_MARK  # noqa: E402  (the repository's, after its path)
SETUP = ["block_cache_bytes=8388608", "bloom_bits=10", "fill_cache=false", "keep_keys=false", "read_mode=pread",
         "position_boundary=16"]
RUN = ["retrain=true", "seek_compaction=false", "timers=on"]
STEPS = ("index_search", "load_data", "search_data", "load_index")


def _o(items):
    return [x for item in items for x in ("-o", item)]


def _dataset_args(dataset):
    return ["--dataset", str(dataset), "--load-order", "shuffled", "--key-encoding", "be64", "--seed", "1000",
            "--settle", "full", "--value-bytes", "8"]


def ensure_load(work, dataset, index):
    db = work / f"load-{index}"
    if (db / LOADED_MARK).exists():
        return db
    subprocess.run([sys.executable, "-m", "lsmrepro.run.bench", "load", "--db", str(db), "--log", f"{db}.jsonl",
                    "--limits", f"{db}.limits.json", "--memory", "70%", "--", str(LSMBENCH), *_dataset_args(dataset),
                    "--phase", "load", *_o([*SETUP, f"index={index}"])], cwd=REPO, check=True)
    return db


def member_options(name):
    return {"rmi1024": ["index=rmi", "rmi_leaves=1024"], "rmisized": ["index=rmi-sized"]}.get(name, [f"index={name}"])


def read_log(path):
    out = {}
    for line in open(path):
        r = json.loads(line)
        if r["type"] == "latency" and "mean" not in out:
            out["mean"], out["p50"] = r["mean"], r["p50"]
        elif r["type"] == "breakdown" and r.get("scope") == "lookup":
            out.update({k: r["per_op"][k] for k in STEPS})
        elif r["type"] == "engine":
            out["index_bytes"] = r.get("index_bytes")
            out["rchar"] = r.get("read_io", {}).get("rchar_per_lookup")
    return out


def run_job(work, dataset, members, pages, i, ops):
    out = work / f"job{i}-{pages}"
    cmd = [sys.executable, "-m", "lsmrepro.run.bench_group", "run", "--out", str(out), "--members", json.dumps(members),
           "--db", str(work / "runs"), "--cache", "warm", "--memory", "586%db", "--open-memory", "70%",
           "--pages", pages, "--", str(LSMBENCH), *_dataset_args(dataset), "--phase", "run", "--workload", "point",
           "--negative-share", "0", "--ops", str(ops), *_o([*SETUP, *RUN])]
    subprocess.run(cmd, cwd=REPO, check=True, capture_output=True)
    limits = json.loads((out / "fp.limits.json").read_text())
    print(f"# job {i} {pages}: load average {limits.get('loadavg_start')}-{limits.get('loadavg_end')}, "
          f"others' CPU share {limits.get('other_cpu_share')}", flush=True)
    return {m["point"]: read_log(out / f"{m['point']}.jsonl") for m in members}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dataset", required=True, type=Path)
    ap.add_argument("--work", required=True, type=Path)
    ap.add_argument("--order", default="shared,own,own,shared,shared,own")
    ap.add_argument("--members", default="pgm,rmi,rmi1024,rs,plr,ft,plex")
    ap.add_argument("--ops", type=int, default=100000)
    args = ap.parse_args()
    if not LSMBENCH.exists():
        sys.exit(f"error: {LSMBENCH}: build leveldb-learned first (./reproduce engines)")
    args.work.mkdir(parents=True, exist_ok=True)
    fp, learned = ensure_load(args.work, args.dataset, "fp"), ensure_load(args.work, args.dataset, "pgm")
    members = [{"point": "fp", "from": str(fp), "load_log": f"{fp}.jsonl", "manifest": {"factors": {"index": "fp"}},
                "options": ["index=fp"], "meta": ["point=fp"]}]
    for name in args.members.split(","):
        members.append({"point": name, "from": str(learned), "load_log": f"{learned}.jsonl",
                        "manifest": {"factors": {"index": name}}, "options": member_options(name),
                        "meta": [f"point={name}"]})
    runs = {}
    for i, pages in enumerate(args.order.split(",")):
        job = run_job(args.work, args.dataset, members, pages, i, args.ops)
        for point, d in job.items():
            d["to_fp"] = d["mean"] / job["fp"]["mean"]
            runs.setdefault((pages, point), []).append(d)
    cols = ("mean", "p50", "to_fp", *STEPS, "rchar", "index_bytes")
    print("| pages | member | jobs | " + " | ".join(cols) + " |\n|" + "---|" * (len(cols) + 3))
    for (pages, point), ds in sorted(runs.items()):
        med = [statistics.median(d[c] for d in ds) for c in cols]
        print(f"| {pages} | {point} | {len(ds)} | " + " | ".join(f"{v:.3f}" if c == "to_fp" else f"{v:,.0f}"
                                                           for c, v in zip(cols, med)) + " |")
    (args.work / "pages.json").write_text(json.dumps({f"{p}/{m}": v for (p, m), v in runs.items()}, indent=1) + "\n")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    main()
