"""Where a point lookup's time goes, per get, for both tables side by side
(issue 12's read-throughput target): bench.py's runs with `-o
perf_steps=true`, repetitions interleaved, then each PerfContext step per
get, the share a learned index can remove (the index and in-block search),
and the Amdahl bound on DobLIX's speedup that share sets. A diagnosis, not
the benchmark: step timers add their own cost to every get.

    .venv/bin/python engines/rocksdb-doblix/steps.py --scale local \
        --datasets AMZN,FB,WIKI --repetitions 2 [--out results/local/doblix_steps.json]
"""
import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402

from base.atomic import write_text  # noqa: E402
from base.errors import InputError, cli  # noqa: E402


def per_get(log, table):
    recs = [json.loads(x) for x in log.read_text().splitlines()]
    eng = next(x for x in recs if x["type"] == "engine")
    get = next(x for x in recs if x["type"] == "latency" and x["op"] == "get" and x["subset"] == "all")
    phase = {x["phase"]: x for x in recs if x["type"] == "phase"}
    st, n = eng["steps"], get["count"]
    # The index and in-block search: the block-based table's index and
    # data-block seeks (block_seek_nanos); DobLIX's model and last mile (its
    # last mile is also in block_seek_nanos, its model is not).
    search = st["s_block_ns"] + st["s_kv_ns"] if table == "doblix" else st["s_block_plus_s_kv_ns"]
    files = st["get_from_output_files_ns"]
    row = {
        "get_mean": get["mean"], "get_p50": get["p50"],
        "snapshot": st["get_snapshot_ns"] / n, "memtable": st["get_from_memtable_ns"] / n,
        "post_process": st["get_post_process_ns"] / n, "tables": files / n,
        "find_table": st["s_file_ns"] / n, "block_read": st["l_block_ns"] / n,
        "checksum": st["block_checksum_ns"] / n, "search": search / n,
        "blocks_per_get": (st["block_read_count"] + st["block_cache_hit_count"]) / n,
        "block_reads_per_get": st["block_read_count"] / n,
        "read_bytes_per_block": st["block_read_bytes"] / max(st["block_read_count"], 1),
        "files_per_level": eng["files_per_level"],
        "level_ns": {k[len("get_from_table_"):-3]: v / n for k, v in st.items()
                     if k.startswith("get_from_table_l")},
        "read_ops_per_sec": phase["run"]["ops_per_sec"],
    }
    if table == "doblix":
        row["model"] = st["s_block_ns"] / n
        row["last_mile"] = st["s_kv_ns"] / n
    # What the tables' part holds besides the timed steps: the block cache,
    # buffers, parsing, the file picker, GetContext and the value's copy.
    row["tables_rest"] = files / n - row["find_table"] - row["block_read"] - row["checksum"] - search / n
    row["outside_tables"] = get["mean"] - files / n
    return row


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", default="local")
    ap.add_argument("--datasets", default="AMZN,FB,WIKI")
    ap.add_argument("--lookups", type=int, default=300000)
    ap.add_argument("--repetitions", type=int, default=2)
    ap.add_argument("--out")
    bench.add_setup_arguments(ap)
    args = ap.parse_args(argv)
    labels = args.datasets.split(",")
    names = bench.datasets()
    for label in labels:
        if label not in names:
            raise InputError("--datasets", label, f"one of {', '.join(names)}")
    files = {label: bench.REPO / "results" / args.scale / "datasets" /
             f"{names[label]}_uint64" for label in labels}
    bench.snakemake(["build/engines/rocksdb/bin/lsmbench", "build/engines/rocksdb-doblix/bin/lsmbench",
                     *[str(f.relative_to(bench.REPO)) for f in files.values()]])
    tables = {"rocksdb": "block", "rocksdb-doblix": "doblix"}
    result = {"scale": args.scale, "lookups": args.lookups, "repetitions": args.repetitions,
              "datasets": {}}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for label, f in files.items():
            rows = {e: [] for e in tables}
            study = bench.study_args(args.scale, label, args.lookups)
            for rep in range(args.repetitions):
                for e, table in tables.items():
                    bench.run(e, f, args, study, rep, [], work, options={"perf_steps": "true"})
                    log = max(work.glob(f"{e}-*.jsonl"), key=lambda p: p.stat().st_mtime)
                    rows[e].append(per_get(log, table))
            med = {}
            for e, rs in rows.items():
                med[e] = {k: statistics.median(r[k] for r in rs) for k in rs[0]
                          if isinstance(rs[0][k], (int, float))}
            base, ours = med["rocksdb"], med["rocksdb-doblix"]
            # A learned index can remove only the search; the rest of a
            # block-based get stays (Amdahl).
            share = base["search"] / base["get_mean"]
            result["datasets"][label] = {
                "runs": rows, "median": med, "search_share": share,
                "amdahl_bound_search_free": 1 / (1 - share),
                "bound_with_doblix_search": base["get_mean"] /
                (base["get_mean"] - base["search"] + ours["search"]),
                "mean_speedup": base["get_mean"] / ours["get_mean"],
                "p50_speedup": base["get_p50"] / ours["get_p50"],
            }
            d = result["datasets"][label]
            print(f"{label}: search {share:.1%} of a block-based get; bound x{d['amdahl_bound_search_free']:.2f} "
                  f"(with DobLIX's own search x{d['bound_with_doblix_search']:.2f}); "
                  f"measured mean x{d['mean_speedup']:.2f}, p50 x{d['p50_speedup']:.2f}", file=sys.stderr)
            for e in tables:
                m = med[e]
                print(f"  {e:15s} " + " ".join(f"{k}={m[k]:.0f}" if m[k] > 10 else f"{k}={m[k]:.2f}"
                                               for k in m), file=sys.stderr)
                print(f"  {'':15s} files_per_level " +
                      " ".join(str(r["files_per_level"]) for r in rows[e]) +
                      "  level_ns " + " ".join(json.dumps({k: round(v) for k, v in r["level_ns"].items()})
                                               for r in rows[e]), file=sys.stderr)
    text = json.dumps(result, indent=2) + "\n"
    if args.out:
        write_text(args.out, text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
