"""DobLIX's performance targets (issue 12, seed 002 §IV) at one scale, side by
side in one run: a benchmark, not a test (nothing here passes or fails).

For each dataset (WIKI, AMZN, FB, OSM, LOGN, UNI; labelled stand-ins where
the real file is absent), the `doblix` study's Figure 9 read-only point on
pristine RocksDB (build/engines/rocksdb, block-based table) and on
rocksdb-doblix (the DobLIX table in the same library): the study's own
lsmbench arguments (lsmrepro.plan.studies), so the paper's setup of §IV-A holds
here as it does in the figure: no block cache, zipfian reads of loaded
keys, DobLIX with the study's error bound. Repetitions interleaved, each
loading afresh with its own seed (the same for both engines). Reports per
dataset the read throughput ratio (target >= 1.19x on at least four), the
index bytes, and the SSTable creation time (flush + compaction seconds,
target within 10%: wall, the merge threads' CPU, and per byte written, each
also pooled over every dataset's paired loads with a 95% t-interval of the
geometric mean, since one load's creation time swings by a quarter); then, on AMZN with 64-byte keys, the index size
(target: not larger than RocksDB's) and the lookup latency: `be64_pad56`
(56 zero bytes, then the integer: the table prefix leaves 8 distinguishing
bytes, one index level) and `decimal64` (zero-padded decimal strings: keys
of a table share 8-byte chunks, so the string index grows child nodes).
`--long-key-datasets` runs those two on other datasets too (issue 34's
creation target is per dataset at 8- and 64-byte keys); their creation
ratios are pooled apart from the 8-byte ones.

    .venv/bin/python engines/rocksdb-doblix/bench.py --scale local \
        --out results/local/doblix_bench.json [--datasets WIKI,LOGN] [--repetitions 1]

`--requests uniform --block-cache-bytes 8388608` measures the setting
earlier notes quote (uniform lookups, LevelDB's 8 MiB cache). Engines and
datasets are built through the workflow first (Snakemake).
"""
import argparse
import copy
import json
import math
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from lsmrepro.plan import studies  # noqa: E402
from lsmrepro.claims.stats import half_width  # noqa: E402
from base.atomic import write_text  # noqa: E402
from lsmrepro.plan.studies import load_scale  # noqa: E402
from base.errors import InputError, cli  # noqa: E402

# The study's systems compared here: the engine whose lsmbench runs each
# table. The study runs both tables as rocksdb-doblix (one lsmbench, so
# their runs can take turns); here the block-based table runs on the
# pristine `rocksdb` build's lsmbench (the same library) as issue 34 asks.
SYSTEMS = {"rocksdb": "block", "rocksdb-doblix": "doblix"}
# 64-byte keys: one index level (the table prefix leaves 8 distinguishing
# bytes), and keys sharing 8-byte chunks (the string index grows children).
LONG_KEY_ENCODINGS = ("be64_pad56", "decimal64")


def datasets():
    """The doblix study's Figure 9 datasets, label -> catalogue name."""
    return studies.figures("doblix")["fig9"]["datasets"]


def add_setup_arguments(ap):
    """The read setup's options, shared by bench.py and steps.py."""
    ap.add_argument("--requests", default="zipfian", choices=["zipfian", "uniform"],
                    help="request distribution (the paper's, §IV-A: zipfian)")
    ap.add_argument("--block-cache-bytes", type=int,
                    help="block cache of both engines (default: the study's, none)")


def study_args(scale, label, lookups):
    """lsmbench's arguments, per engine, of the doblix study's Figure 9
    read-only point on `label` at `scale` (its option sets, grid values and
    workload), one load-and-run each: what the figure measures, with
    `lookups` reads and every dataset (the scale's own selection dropped)."""
    cfg = copy.deepcopy(load_scale(scale))
    cfg.setdefault("counts", {}).setdefault("figures", {})["doblix/fig9"] = {"ops": lookups, "repetitions": 1}
    frame = studies.runs(cfg, "doblix", "fig9", f"workload=read_only dataset={label}")
    out = {}
    for engine, table in SYSTEMS.items():
        rows = frame[frame["table"] == table]
        if len(rows) != 1:
            raise InputError("paper/doblix/experiments.yaml", "figures.fig9.grid",
                             f"one read-only point with table={table} expected, found {len(rows)}")
        out[engine] = _with(list(rows.iloc[0]["run_args"]), "--phase", "all")
    return out


def _with(args, flag, value):
    """`args` with `flag`'s value replaced (lsmbench takes a flag once)."""
    i = args.index(flag)
    return args[:i + 1] + [str(value)] + args[i + 2:]


def _with_item(args, prefix, value):
    """`args` with the `-p`/`-o` item "<prefix><old>" set to "<prefix><value>"."""
    hits = [i for i, a in enumerate(args) if a.startswith(prefix)]
    if len(hits) != 1:
        raise InputError("paper/doblix/experiments.yaml", "figures.fig9", f"one {prefix}... argument expected")
    return args[:hits[0]] + [f"{prefix}{value}"] + args[hits[0] + 1:]


def snakemake(targets):
    r = subprocess.run([sys.executable, "-m", "snakemake", "--profile", "profiles/default",
                        *targets], cwd=REPO, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("error: snakemake failed:\n" + r.stderr[-3000:])


def run(engine, dataset, args, study, rep, extra, work, options=None):
    """One load-and-run of `engine`'s study arguments, repetition `rep`;
    `extra` replaces flags' values, `options` sets `-o key=value` items."""
    log = work / f"{engine}-{Path(dataset).name}-{len(list(work.glob('*.jsonl')))}.jsonl"
    cmd = study[engine]
    seed = int(cmd[cmd.index("--seed") + 1]) + rep
    cmd = _with(cmd, "--seed", seed)
    for flag, value in extra:
        cmd = _with(cmd, flag, value)
    items = {"requestdistribution": args.requests, **(options or {})}
    if args.block_cache_bytes is not None:
        items["block_cache_bytes"] = args.block_cache_bytes
    for key, value in items.items():
        cmd = _with_item(cmd, f"{key}=", value)
    cmd = [str(REPO / "build/engines" / engine / "bin/lsmbench"), "--db", str(work / "db"),
           "--dataset", str(dataset), "--log", str(log), *cmd]
    subprocess.run(["rm", "-rf", str(work / "db")], check=True)
    r = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True)  # the spec path is the repo's
    if r.returncode != 0:
        raise SystemExit(f"error: {' '.join(cmd)} failed:\n{r.stderr[-2000:]}")
    recs = [json.loads(x) for x in log.read_text().splitlines()]
    phase = {x["phase"]: x for x in recs if x["type"] == "phase"}
    eng = next(x for x in recs if x["type"] == "engine")
    get = next(x for x in recs if x["type"] == "latency" and x["op"] == "get" and x["subset"] == "all")
    doblix = eng.get("doblix") or {}
    return {"read_ops_per_sec": phase["run"]["ops_per_sec"], "get_p50_ns": get["p50"],
            "get_mean_ns": get["mean"], "index_bytes": eng["index_bytes"],
            "creation_seconds": eng["compaction_seconds"],
            "creation_cpu_seconds": eng["compaction_cpu_seconds"],
            "creation_bytes_written": eng["compaction_bytes_written"],
            "train_seconds": doblix.get("live_tables_train_seconds"),
            "serialize_seconds": doblix.get("live_tables_serialize_seconds"),
            "model_misses": doblix.get("model_misses"), "tables": eng.get("tables"),
            "index_nodes": doblix.get("live_tables_index_nodes")}


def compare(dataset, args, study, extra, work):
    runs = {e: [] for e in SYSTEMS}
    for rep in range(args.repetitions):  # interleaved: both engines see the same machine state
        for e in SYSTEMS:
            runs[e].append(run(e, dataset, args, study, rep, extra, work))
    med = {e: {k: statistics.median(r[k] for r in rs) if rs[0][k] is not None else None
               for k in rs[0]} for e, rs in runs.items()}
    base, ours = med["rocksdb"], med["rocksdb-doblix"]
    return {"runs": runs, "median": med,
            "throughput_ratio": ours["read_ops_per_sec"] / base["read_ops_per_sec"],
            # The median lookup's speedup: robust to a shared machine's stalls.
            "p50_speedup": base["get_p50_ns"] / max(ours["get_p50_ns"], 1),
            "index_ratio": ours["index_bytes"] / max(base["index_bytes"], 1),
            "creation_ratio": ours["creation_seconds"] / max(base["creation_seconds"], 1e-9),
            "creation_cpu_ratio": ours["creation_cpu_seconds"] / max(base["creation_cpu_seconds"], 1e-9),
            "bytes_written_ratio": ours["creation_bytes_written"] / max(base["creation_bytes_written"], 1)}


def pooled_ratio(results, metric, per_byte=False):
    """Geometric mean of DobLIX/RocksDB `metric` over every paired load
    (repetition r of both engines loads with the same seed), with the 95%
    t-interval: {ratio, low, high, pairs}."""
    logs = []
    for r in results:
        for base, ours in zip(r["runs"]["rocksdb"], r["runs"]["rocksdb-doblix"]):
            x, y = base[metric], ours[metric]
            if per_byte:
                x, y = x / base["creation_bytes_written"], y / ours["creation_bytes_written"]
            logs.append(math.log(y / x))
    n = len(logs)
    mean = statistics.fmean(logs) if logs else math.nan
    # 95% two-sided t interval of the mean log-ratio (2.5% in each tail)
    half = half_width(statistics.stdev(logs) / math.sqrt(n), n - 1, alpha=0.025) if n > 1 else math.nan
    low, high = mean - half, mean + half
    return {"ratio": round(math.exp(mean), 3), "low": round(math.exp(low), 3),
            "high": round(math.exp(high), 3), "pairs": n}


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", default="local")
    ap.add_argument("--out", required=True)
    ap.add_argument("--datasets", help="comma-separated labels (default: every dataset of the figure)")
    ap.add_argument("--lookups", type=int, default=1000000)
    ap.add_argument("--repetitions", type=int, default=3)
    add_setup_arguments(ap)
    ap.add_argument("--long-keys-only", action="store_true",
                    help="only the 64-byte-key comparisons")
    ap.add_argument("--long-key-datasets", default="AMZN",
                    help="comma-separated labels, among --datasets, whose 64-byte-key comparisons "
                         "(be64_pad56, decimal64) run (default AMZN, Fig. 14a's; 'none' for none)")
    args = ap.parse_args(argv)
    names = datasets()
    labels = args.datasets.split(",") if args.datasets else list(names)
    for label in labels:
        if label not in names:
            raise InputError("--datasets", label, f"one of {', '.join(names)}")
    long_labels = [] if args.long_key_datasets == "none" else args.long_key_datasets.split(",")
    for label in long_labels:
        if label not in names:
            raise InputError("--long-key-datasets", label, f"one of {', '.join(names)}, or none")
    long_labels = [x for x in long_labels if x in labels]
    files = {label: REPO / "results" / args.scale / "datasets" / f"{names[label]}_uint64"
             for label in labels}
    snakemake(["build/engines/rocksdb/bin/lsmbench", "build/engines/rocksdb-doblix/bin/lsmbench",
               *[str(f.relative_to(REPO)) for f in files.values()]])
    result = {"scale": args.scale, "lookups": args.lookups, "repetitions": args.repetitions,
              "requests": args.requests, "block_cache_bytes": args.block_cache_bytes,
              "lsmbench_args": {}, "datasets": {}}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for label, f in files.items():
            if args.long_keys_only:
                break
            manifest = json.loads(Path(str(f) + ".manifest.json").read_text())
            study = study_args(args.scale, label, args.lookups)
            result["lsmbench_args"][label] = study
            r = compare(f, args, study, [], work)
            r["stand_in"] = bool(manifest.get("stand_in"))
            r["manifest_source"] = manifest.get("source", manifest.get("kind"))
            result["datasets"][label] = r
            print(f"{label:5s} read x{r['throughput_ratio']:.2f} (p50 x{r['p50_speedup']:.2f})  "
                  f"index x{r['index_ratio']:.2f}  "
                  f"creation x{r['creation_ratio']:.2f} (cpu x{r['creation_cpu_ratio']:.2f}, "
                  f"bytes written x{r['bytes_written_ratio']:.2f})", file=sys.stderr)
        for label in long_labels:
            for encoding in LONG_KEY_ENCODINGS:
                r = compare(files[label], args, study_args(args.scale, label, args.lookups),
                            [("--key-encoding", encoding)], work)
                result[f"{label.lower()}_64_byte_keys_{encoding}"] = r
                m = r["median"]
                print(f"{label} 64-byte keys ({encoding}): index x{r['index_ratio']:.2f}  "
                      f"get p50 {m['rocksdb']['get_p50_ns']:.0f} -> "
                      f"{m['rocksdb-doblix']['get_p50_ns']:.0f} ns (x{r['p50_speedup']:.2f})  "
                      f"mean {m['rocksdb']['get_mean_ns']:.0f} -> "
                      f"{m['rocksdb-doblix']['get_mean_ns']:.0f} ns  "
                      f"creation x{r['creation_ratio']:.2f} (cpu x{r['creation_cpu_ratio']:.2f}, "
                      f"bytes written x{r['bytes_written_ratio']:.2f})  "
                      f"index nodes {m['rocksdb-doblix']['index_nodes']} over "
                      f"{m['rocksdb-doblix']['tables']} tables", file=sys.stderr)
    long_runs = {f"{x}/{e}": result[f"{x.lower()}_64_byte_keys_{e}"]
                 for x in long_labels for e in LONG_KEY_ENCODINGS}
    ratios = [d["throughput_ratio"] for d in result["datasets"].values()]
    result["summary"] = {
        "datasets_at_or_above_1_19x": sum(x >= 1.19 for x in ratios),
        "throughput_ratios": {k: round(d["throughput_ratio"], 3) for k, d in result["datasets"].items()},
        "p50_speedups": {k: round(d["p50_speedup"], 3) for k, d in result["datasets"].items()},
        "index_ratios": {k: round(d["index_ratio"], 3) for k, d in result["datasets"].items()},
        "creation_ratios": {k: round(d["creation_ratio"], 3) for k, d in result["datasets"].items()},
        "creation_cpu_ratios": {k: round(d["creation_cpu_ratio"], 3) for k, d in result["datasets"].items()},
        "bytes_written_ratios": {k: round(d["bytes_written_ratio"], 3) for k, d in result["datasets"].items()},
        "creation_pooled": {
            "wall": pooled_ratio(result["datasets"].values(), "creation_seconds"),
            "cpu": pooled_ratio(result["datasets"].values(), "creation_cpu_seconds"),
            "cpu_per_byte_written": pooled_ratio(result["datasets"].values(), "creation_cpu_seconds",
                                                 per_byte=True)},
        "index_ratio_64_byte_keys": {k: round(r["index_ratio"], 3) for k, r in long_runs.items()},
        "get_p50_speedup_64_byte_keys": {k: round(r["p50_speedup"], 3) for k, r in long_runs.items()},
        "creation_ratios_64_byte_keys": {k: round(r["creation_ratio"], 3) for k, r in long_runs.items()},
        "creation_pooled_64_byte_keys": {
            "wall": pooled_ratio(long_runs.values(), "creation_seconds"),
            "cpu": pooled_ratio(long_runs.values(), "creation_cpu_seconds"),
            "cpu_per_byte_written": pooled_ratio(long_runs.values(), "creation_cpu_seconds",
                                                 per_byte=True)},
    }
    write_text(args.out, json.dumps(result, indent=2) + "\n")
    print(json.dumps(result["summary"], indent=2))


if __name__ == "__main__":
    main()
