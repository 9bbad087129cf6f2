"""Interleaved A/B of lsmbench binaries on fixed databases: one database per
table, loaded once (bench.py's load), then `--phase run --keep-db` with each
binary in turn, the order rotated every repetition. A code change to a
table's read path is then compared on one LSM shape, which bench.py's fresh
loads do not give (0-3 L0 files after settling move a ratio more than the
read path does). A diagnosis, not the benchmark.

    .venv/bin/python engines/rocksdb-doblix/ab.py --dataset WIKI --work DIR --repetitions 8 \\
        block=build/engines/rocksdb/bin/lsmbench:block \\
        before=OLD_BUILD/lsmbench:doblix after=build/engines/rocksdb-doblix/bin/lsmbench:doblix

The first variant is the base of the ratios; a table's database is loaded by
the first variant naming that table, and kept in --work for later runs.
With --load-per-variant each variant loads its own database (a change of
the table's format: one binary cannot read the other's tables); the LSM
shapes may then differ, and each variant's load also reports its index
bytes and SSTable creation seconds. `--option perf_steps=true` adds the
step counters (DobLIX's blocks loaded per lookup) to every run.
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402

from base.errors import InputError, cli  # noqa: E402


def with_option(args, item):
    """`args` with the lsmbench option `item` ("key=value") set."""
    key = item.partition("=")[0] + "="
    if any(a.startswith(key) for a in args):
        return bench._with_item(args, key, item.partition("=")[2])
    return args + ["-o", item]


def lsmbench(binary, table, study, dataset, db, log, phase, options=()):
    """`binary` on bench.py's arguments for `table` (the study's Figure 9
    read-only point: RocksDB's for the block-based table, DobLIX's for the
    plugin's tables), in one phase, with `options` ("key=value") set."""
    args = study["rocksdb" if table == "block" else "rocksdb-doblix"]
    args = bench._with_item(bench._with(args, "--phase", phase), "table=", table)
    for item in options:
        args = with_option(args, item)
    cmd = [binary, "--db", str(db), "--dataset", str(dataset), "--log", str(log), *args,
           "--progress", "never"] + (["--keep-db"] if phase == "run" else [])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run(cmd, cwd=bench.REPO, capture_output=True, text=True)  # the spec path is the repo's
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        raise SystemExit(f"error: {' '.join(cmd)} failed:\n{r.stderr[-2000:]}")
    recs = [json.loads(x) for x in Path(log).read_text().splitlines()]
    return recs, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", default="local")
    ap.add_argument("--dataset", required=True)
    ap.add_argument("--work", required=True, help="directory for the databases and logs")
    ap.add_argument("--lookups", type=int, default=300000)
    ap.add_argument("--repetitions", type=int, default=5)
    ap.add_argument("--load-per-variant", action="store_true",
                    help="each variant loads its own database (a table format change)")
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                    help="an lsmbench option for every load and run (repeatable)")
    ap.add_argument("variants", nargs="+", help="NAME=LSMBENCH:TABLE, the first is the base")
    args = ap.parse_args(argv)
    names = bench.datasets()
    if args.dataset not in names:
        raise InputError("--dataset", args.dataset, f"one of {', '.join(names)}")
    variants = []
    for v in args.variants:
        name, _, spec = v.partition("=")
        binary, _, table = spec.rpartition(":")
        if not name or not binary or not table:
            raise InputError("variant", v, "NAME=LSMBENCH:TABLE")
        variants.append((name, binary, table))
    for item in args.option:
        if "=" not in item:
            raise InputError("--option", item, "KEY=VALUE")
    dataset = bench.REPO / "results" / args.scale / "datasets" / f"{names[args.dataset]}_uint64"
    bench.snakemake([str(dataset.relative_to(bench.REPO))])
    study = bench.study_args(args.scale, args.dataset, args.lookups)
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    shapes, loads = {}, {}
    db_key = (lambda name, table: name) if args.load_per_variant else (lambda name, table: table)
    for name, binary, table in variants:
        key = db_key(name, table)
        db = work / f"db-{key}-{args.dataset}"
        if key not in shapes:
            load_log = work / f"load-{key}-{args.dataset}.jsonl"
            if not db.exists():
                lsmbench(binary, table, study, dataset, db, load_log, "load", args.option)
            eng = next(r for r in map(json.loads, load_log.read_text().splitlines())
                       if r["type"] == "engine")
            shapes[key] = eng["files_per_level"]
            loads[key] = (f"index {eng['index_bytes']} B, creation {eng['compaction_seconds']:.2f} s"
                          f" wall {eng['compaction_cpu_seconds']:.2f} s merge CPU")
    rows = {name: [] for name, _, _ in variants}
    for rep in range(args.repetitions):
        k = rep % len(variants)
        print(f"repetition {rep}: load average {os.getloadavg()[0]:.2f}", flush=True)
        for name, binary, table in variants[k:] + variants[:k]:
            recs, cpu = lsmbench(binary, table, study, dataset,
                                 work / f"db-{db_key(name, table)}-{args.dataset}",
                                 work / f"run-{name}-{rep}.jsonl", "run", args.option)
            get = next(x for x in recs if x["type"] == "latency" and x["op"] == "get"
                       and x["subset"] == "all")
            phase = next(x for x in recs if x["type"] == "phase" and x["phase"] == "run")
            steps = next(x for x in recs if x["type"] == "engine").get("steps") or {}
            row = {"ops": phase["ops_per_sec"], "mean": get["mean"], "p50": get["p50"],
                   "p99": get["p99"], "tail5": get["tail5_mean"], "cpu": cpu}
            if steps.get("model_lookups") and "blocks_loaded" in steps:
                row["blocks"] = steps["blocks_loaded"] / steps["model_lookups"]
            rows[name].append(row)
    base = variants[0][0]
    print(f"{args.dataset}: tables per level {json.dumps(shapes)}")
    for key, text in loads.items():
        print(f"  load {key}: {text}")
    for name, _, table in variants:
        med = {k: statistics.median(r[k] for r in rows[name]) for k in rows[name][0]}
        line = (f"  {name:10s} ops/s {med['ops']:.0f}  mean {med['mean']:.0f} ns  "
                f"p50 {med['p50']:.0f} ns  p99 {med['p99']:.0f} ns  tail 5% mean {med['tail5']:.0f} ns"
                f"  process CPU {med['cpu']:.2f} s")
        if "blocks" in med:
            line += f"  blocks per lookup {med['blocks']:.3f}"
        if name != base:
            # Paired by repetition: each pair ran next to each other.
            pair = lambda k, inv: statistics.median(  # noqa: E731
                (b[k] / r[k]) if inv else (r[k] / b[k]) for b, r in zip(rows[base], rows[name]))
            line += (f"  vs {base}: throughput x{pair('ops', False):.3f} mean x{pair('mean', True):.3f} "
                     f"p50 x{pair('p50', True):.3f} tail 5% x{pair('tail5', True):.3f} "
                     f"CPU x{pair('cpu', True):.3f}")
        print(line)


if __name__ == "__main__":
    main()
