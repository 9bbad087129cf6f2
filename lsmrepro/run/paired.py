"""Engines' lsmbench side by side on one dataset, in one process (the tool
lsmbench_pairs of lsmrepro/plan/tools.py, run by lsmrepro/run/tool.py):
rounds of every variant in turn, the order rotated each round so drift on
a shared machine hits each alike, every variant of a round from the round's
seed (the same keys, order and request stream). `--loads each_round`: each
variant loads afresh every round (what a table's creation costs);
`--loads once`: each loads its database once and the rounds read it (one
LSM shape for all rounds). One CSV row per variant and round, the numbers
lsmbench's log gave it; the databases are removed at the end.

    python -m lsmrepro.run.paired --dataset D --work DIR --lsmbench=rocksdb=BIN ... \\
        --rounds 3 --loads each_round --variants JSON --csv OUT.csv

JSON: name -> {engine, args}, args lsmbench's without --db, --dataset and
--log (with --seed, the first round's). Any other table A/B (e.g. two
builds of one engine) runs the same way with --lsmbench naming the builds.
"""
import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

from base.atomic import write_csv
from base.errors import InputError, cli

COLUMNS = ("variant", "engine", "round", "order", "seed", "get_mean_ns", "get_p50_ns", "get_p99_ns",
           "run_ops_per_sec", "index_bytes", "creation_seconds", "creation_cpu_seconds", "creation_bytes_written",
           "tables", "search_ns_per_get", "blocks_per_get", "model_blocks_per_lookup")


def _records(log):
    try:
        return [json.loads(x) for x in Path(log).read_text().splitlines()]
    except (OSError, json.JSONDecodeError) as e:
        raise InputError(log, "", f"lsmbench's JSON lines expected ({e})") from None


def _one(recs, log, kind, **match):
    for r in recs:
        if r.get("type") == kind and all(r.get(k) == v for k, v in match.items()):
            return r
    raise InputError(log, kind, f"a {kind} record {match or ''} expected in lsmbench's log")


def steps_per_get(steps, gets):
    """From the engine's PerfContext steps (-o perf_steps=true), per get:
    the index and in-block search (a learned table's model, s_block_ns, and
    last mile, s_kv_ns; the block-based table's index and data-block seeks,
    s_block_plus_s_kv_ns: rocksdb-doblix's README, "Step counters"), the
    blocks a get touched, and the blocks a model lookup loaded."""
    if not steps or not gets:
        return {}
    learned = bool(steps.get("model_lookups"))
    search = steps["s_block_ns"] + steps["s_kv_ns"] if learned else steps.get("s_block_plus_s_kv_ns")
    out = {"search_ns_per_get": search / gets if search is not None else "",
           "blocks_per_get": (steps.get("block_read_count", 0) + steps.get("block_cache_hit_count", 0)) / gets}
    if learned and "blocks_loaded" in steps:
        out["model_blocks_per_lookup"] = steps["blocks_loaded"] / steps["model_lookups"]
    return out


def measured(log):
    """One lsmbench run's numbers (COLUMNS), from its log."""
    recs = _records(log)
    eng = _one(recs, log, "engine")
    row = {"index_bytes": eng.get("index_bytes"), "creation_seconds": eng.get("compaction_seconds"),
           "creation_cpu_seconds": eng.get("compaction_cpu_seconds"),
           "creation_bytes_written": eng.get("compaction_bytes_written"), "tables": eng.get("tables")}
    gets = [r for r in recs if r.get("type") == "latency" and r.get("op") == "get" and r.get("subset") == "all"]
    if gets:
        g = gets[0]
        row.update(get_mean_ns=g["mean"], get_p50_ns=g["p50"], get_p99_ns=g["p99"])
        row.update(steps_per_get(eng.get("steps"), g["count"]))
    runs = [r for r in recs if r.get("type") == "phase" and r.get("phase") == "run"]
    if runs:
        row["run_ops_per_sec"] = runs[0]["ops_per_sec"]
    return {k: ("" if v is None else v) for k, v in row.items()}


def lsmbench(binary, args, dataset, db, log, phase, seed):
    """One lsmbench process; `phase` all (load and run), load, or run (on db, kept)."""
    cmd = [str(binary), "--db", str(db), "--dataset", str(dataset), "--log", str(log),
           *_with(_with(args, "--phase", phase), "--seed", seed)] + (["--keep-db"] if phase == "run" else [])
    if phase != "run":
        shutil.rmtree(db, ignore_errors=True)
    r = subprocess.run(cmd, capture_output=True, text=True)  # cwd: the repository (workload spec paths)
    if r.returncode != 0:
        raise InputError(binary, "exit status", f"0 expected, got {r.returncode}: {' '.join(cmd)}\n{r.stderr[-2000:]}")


def _with(args, flag, value):
    i = args.index(flag)
    return args[:i + 1] + [str(value)] + args[i + 2:]


def run(variants, binaries, dataset, work, rounds, loads, out_csv):
    work = Path(work)
    work.mkdir(parents=True, exist_ok=True)
    names = list(variants)
    for name, v in variants.items():
        if v["engine"] not in binaries:
            raise InputError("--lsmbench", v["engine"], f"the binary of variant {name}'s engine expected")
    seed0 = {n: int(v["args"][v["args"].index("--seed") + 1]) for n, v in variants.items()}
    if loads == "once":
        for n in names:
            lsmbench(binaries[variants[n]["engine"]], variants[n]["args"], dataset, work / f"db-{n}",
                     work / f"load-{n}.jsonl", "load", seed0[n])
    rows = []
    try:
        for r in range(rounds):
            k = r % len(names)
            for order, n in enumerate(names[k:] + names[:k]):
                v, log = variants[n], work / f"{n}-r{r}.jsonl"
                seed = seed0[n] + r
                if loads == "once":
                    lsmbench(binaries[v["engine"]], v["args"], dataset, work / f"db-{n}", log, "run", seed)
                else:
                    lsmbench(binaries[v["engine"]], v["args"], dataset, work / "db", log, "all", seed)
                got = measured(log)
                if loads == "once":  # the database's numbers are its load's
                    load = measured(work / f"load-{n}.jsonl")
                    got.update({c: load[c] for c in ("creation_seconds", "creation_cpu_seconds",
                                                     "creation_bytes_written") if c in load})
                rows.append({"variant": n, "engine": v["engine"], "round": r, "order": order, "seed": seed, **got})
                print(f"round {r} {n}: {got}", file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    write_csv(out_csv, COLUMNS, rows)


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dataset", required=True)
    ap.add_argument("--work", required=True, help="a folder for the databases (removed at the end)")
    ap.add_argument("--lsmbench", action="append", default=[], metavar="ENGINE=BINARY")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--loads", choices=("each_round", "once"), default="each_round")
    ap.add_argument("--variants", required=True, help="name -> {engine, args} as JSON")
    ap.add_argument("--csv", required=True)
    args = ap.parse_args(argv)
    binaries = {}
    for item in args.lsmbench:
        engine, eq, binary = item.partition("=")
        if not eq or not engine or not binary:
            raise InputError("--lsmbench", item, "ENGINE=BINARY expected")
        binaries[engine] = binary
    try:
        variants = json.loads(args.variants)
    except json.JSONDecodeError as e:
        raise InputError("--variants", "", f"JSON name -> {{engine, args}} expected ({e})") from None
    run(variants, binaries, args.dataset, args.work, args.rounds, args.loads, args.csv)


if __name__ == "__main__":
    main()
