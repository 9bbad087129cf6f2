"""Raw run logs -> one tidy CSV per experiment (figure): a row per (run,
metric), each with the place it was read from (`log:line` of lsmbench's log,
or `report#field` of the cgroup runner's report), so every number in a
figure, table or verdict traces back to a raw file. A pure function of those
files. A study's table is its experiments' tables joined (`--concat`).

    python -m lsmrepro.tidy.aggregate --out results/local/tidy/baseline/point.csv \
        RUN.jsonl [RUN.limits.json] ...
    python -m lsmrepro.tidy.aggregate --concat --out results/local/tidy/baseline.csv \
        results/local/tidy/baseline/point.csv ...
"""
import argparse
import csv
import json
import sys
from pathlib import Path

from lsmrepro.run import bench
from lsmrepro.run import tool as tool_run
from lsmrepro.tidy import engine_rows
from lsmrepro.tidy import regime
from lsmrepro.tidy import runlog
from lsmrepro.tidy import tool_rows
from lsmrepro.plan import studies
from base.atomic import write_csv
from base.errors import InputError, cli

COLUMNS = ["study", "experiment", "scale", "engine", "dataset", "repetition", "run", "point", "workload",
           "metric", "op", "subset", "value", "unit", "source", "note", "build_id", "fingerprint",
           "node", "image"]

LATENCY_STATS = ["mean", "min", "p50", "p90", "p99", "p999", "max", "count", "tail5_mean"]
# Facts of a run's set-up read from its `run` record, as setup_<name> rows
# (a study's deviations table compares them with its paper's): name ->
# (section of the record, field).
SETUP_FIELDS = {"loaded_keys": ("workload", "loaded_keys"), "key_bytes": ("workload", "key_bytes"),
                "value_bytes": ("workload", "value_bytes"), "ops": ("workload", "ops"),
                "max_background_jobs": ("options", "max_background_jobs"),
                "block_cache_bytes": ("options", "block_cache_bytes"),
                # an interleaved run's job ran this many databases in turns
                "interleave_members": ("workload", "interleave", "members")}
# Columns the variants' engine rows add (engines/<folder>/log.yaml), e.g.
# the DobLIX agent's state: claims may select by them.
ENGINE_COLUMNS = engine_rows.columns()
FACTOR_KEYS = ("study", "experiment", "scale", "dataset", "repetition")
# A point's id names a dimension briefly (studies.ID_NAMES: value_bytes is
# "value"); where that is a tidy column of its own the factor keeps its
# dimension's name: as `value` the row's measured number replaced it, and
# claims that select a value size found no rows.
FACTOR_COLUMNS = {short: full for full, short in studies.ID_NAMES.items() if short in COLUMNS}


def factor_column(name):
    """The tidy column of the run factor `name` (as a point's id names it)."""
    return FACTOR_COLUMNS.get(name, name)


def _factors(path, meta, manifest, engine, build_id="", fingerprint=None):
    missing = [k for k in FACTOR_KEYS if k not in meta]
    if missing:
        raise InputError(path, "line 1: run.meta", f"keys {', '.join(missing)} expected (lsmbench --meta)")
    if not isinstance(manifest, dict) or not isinstance(manifest.get("factors"), dict):
        raise InputError(path, "line 1: manifest", "the run's manifest with its factors expected "
                                                   "(lsmrepro.run.bench run --manifest attaches it)")
    point = meta.get("point", "")
    factors = {factor_column(k): v for k, v in manifest["factors"].items() if k not in ("engine", "dataset")}
    rep = int(meta["repetition"])
    return {
        **factors,
        "study": meta["study"],
        "experiment": meta["experiment"],
        "scale": meta["scale"],
        "engine": engine,
        "dataset": meta["dataset"],
        "repetition": rep,
        "run": f"{meta['experiment']}/{point}/r{rep}" if point else Path(path).stem,
        "point": point,
        "build_id": build_id,
        "fingerprint": (fingerprint or {}).get("id", ""),
        # where and in what the number was measured (hardware/fingerprint.py)
        "node": ((fingerprint or {}).get("node") or {}).get("name") or (fingerprint or {}).get("host", ""),
        "image": (((fingerprint or {}).get("stable") or {}).get("container") or {}).get("image_id") or "",
    }


def engine_of(run):
    """The variant id: the build id names it (a fork that reuses another
    variant's adapter is still itself); lsmbench's own name otherwise."""
    return (run.get("build_id") or {}).get("engine") or run["engine"]


def factors_of(log):
    run = log.run
    fingerprint = run["attached"].get("fingerprint", {}) or {}
    return _factors(log.path, run["meta"], run["attached"].get("manifest"), engine_of(run),
                    (run.get("build_id") or {}).get("id", ""), fingerprint)


def rows_of(log, base=None, prefix="", phases=None):
    """Every metric of one run log as tidy rows. `base`: the factors of the
    run they belong to (a load log's rows belong to each run started from
    it); `prefix` names the engine counters of a load; `phases` keeps those."""
    base = base or factors_of(log)

    def row(rec, metric, value, unit, op="", subset="", **extra):
        return {**base, "metric": metric, "op": op, "subset": subset, "value": value,
                "unit": unit, "source": f"{log.path}:{rec.line}", **extra}

    out = []
    for rec in log.records:
        d = rec.data
        kind = d["type"]
        if kind == "run" and phases is None:
            # the dataset's size and the device calibration (fio, hardware/),
            # and the run's set-up (options and workload shape) as setup_*
            out += run_rows(d, lambda *a, **k: row(rec, *a, **k))
            for name, value in setup_values(d).items():
                out.append(row(rec, f"setup_{name}", value, "bytes" if name.endswith("bytes") else ""))
        elif kind == "phase":
            if phases is not None and d["phase"] not in phases:
                continue
            out.append(row(rec, f"{d['phase']}_seconds", d["seconds"], "s"))
            if d["phase"] == "evict":  # its ops are files, not operations
                out.append(row(rec, "evict_files", d["ops"], "files"))
            elif d["ops"]:  # lsmbench's ops / seconds: of the ops done (a time limit may stop a run)
                out.append(row(rec, f"{d['phase']}_throughput", d["ops_per_sec"], "ops/s"))
            if "time_limited" in d:  # a run with a time limit (YCSB maxexecutiontime): whether it stopped it
                out += time_limit_rows(d, lambda *a, **k: row(rec, *a, **k))
        elif phases is not None and kind != "engine":
            continue
        elif kind == "latency" and d["count"]:
            for stat in LATENCY_STATS:
                if stat not in d:  # tail5_mean: logs of older lsmbench builds lack it
                    continue
                unit = "ops" if stat == "count" else "ns"
                out.append(row(rec, f"latency_{stat}", d[stat], unit, d["op"], d["subset"]))
        elif kind == "breakdown":
            scope = d["scope"]
            for step, value in d["per_op"].items():
                out.append(row(rec, f"{scope}_{step}_per_op", value, "ns"))
            # Step totals over the run: per_op divides by gets, so the range
            # lookups' seek and scan phases are read as totals.
            for step, value in (d.get("steps") or {}).items():
                out.append(row(rec, f"{scope}_{step}_total", value, "ns"))
            # Step counters (comparisons, bytes loaded, segments touched, ...);
            # a histogram (comparisons of one get -> gets) becomes one row per bucket.
            for name, value in (d.get("counters") or {}).items():
                if name.endswith("_histogram"):
                    for k, gets in value.items():
                        out.append(row(rec, f"{scope}_{name[:-len('_histogram')]}_gets", gets, "ops", subset=k))
                elif isinstance(value, (int, float)) and not isinstance(value, bool):
                    out.append(row(rec, f"{scope}_{name}", value, ""))
            for name, value in (d.get("timer_overhead") or {}).items():
                out.append(row(rec, f"{scope}_timer_{name}", value, "ns" if "_ns_" in name else ""))
        elif kind == "engine":
            # Its top-level numbers, then each variant's fields as that
            # variant declares them (engines/<folder>/log.yaml).
            for key, value in d.items():
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    unit = "bytes" if key.endswith("bytes") else "s" if key.endswith("seconds") else ""
                    out.append(row(rec, f"{prefix}{key}", value, unit))
            out += engine_rows.rows(d, lambda m, *a, **k: row(rec, f"{prefix}{m}", *a, **k), log.path,
                                    for_load=bool(prefix))
        elif kind == "check":
            out.append(row(rec, "answers_verified", d["verified"], "ops"))
            out.append(row(rec, "answers_wrong", d["wrong"], "ops"))
    return out


def run_rows(run, row):
    """The run record's dataset size (`dataset_keys`, its distinct keys) and
    the device calibration attached to it (`device_<fio job>_clat_mean_ns`),
    so a figure can print the device beside its numbers."""
    out = []
    if isinstance((run.get("dataset") or {}).get("distinct"), int):
        out.append(row("dataset_keys", run["dataset"]["distinct"], "keys"))
    calibration = (run.get("attached") or {}).get("calibration")
    for job, m in ((calibration or {}).get("measurements") or {}).items():
        mean = ((m or {}).get("clat_ns") or {}).get("mean")
        if isinstance(mean, (int, float)):
            out.append(row(f"device_{job.replace('-', '_')}_clat_mean_ns", mean, "ns"))
    return out


def time_limit_rows(phase, row):
    """A run phase with a time limit: `run_time_limited` (1: the limit
    stopped it before its planned ops, 0: it ran them all), the ops done
    (`run_ops`) and planned (`run_ops_planned`), so a figure or a claim's
    context can say which of its numbers come from a cut-short run."""
    return [row("run_time_limited", int(phase["time_limited"]), ""),
            row("run_ops", phase["ops"], "ops"),
            row("run_ops_planned", phase["ops_planned"], "ops")]


def run_field(metric, run):
    """The inverse of run_rows, for the trace-back tests."""
    if metric == "dataset_keys":
        return run["dataset"]["distinct"]
    job = metric[len("device_"):-len("_clat_mean_ns")]
    m = {k.replace("-", "_"): v for k, v in run["attached"]["calibration"]["measurements"].items()}
    return m[job]["clat_ns"]["mean"]


def setup_values(run):
    """The SETUP_FIELDS a run record has, as numbers."""
    out = {}
    for name, path in SETUP_FIELDS.items():
        value = run
        for key in path:
            value = value.get(key) if isinstance(value, dict) else None
        try:
            out[name] = float(value) if isinstance(value, str) else value
        except ValueError:
            continue
        if not isinstance(out[name], (int, float)) or isinstance(out[name], bool):
            out.pop(name)
    return out


# The cgroup runner's report fields that become tidy metrics: {field: (metric, unit)}.
LIMIT_FIELDS = {
    "limit_bytes": ("memory_limit_bytes", "bytes"), "peak_bytes": ("memory_peak_bytes", "bytes"),
    "oom_kills": ("memory_oom_kills", ""), "enforced": ("memory_enforced", ""),
    "wall_seconds": ("job_wall_seconds", "s"),
    # what else ran meanwhile (hardware/contention.py): explains a slow run
    "job_cpu_seconds": ("job_cpu_seconds", "s"), "other_cpu_seconds": ("host_other_cpu_seconds", "s"),
    "other_cpu_share": ("host_other_cpu_share", ""), "steal_seconds": ("host_steal_seconds", "s"),
    "loadavg_start": ("host_loadavg_start", ""), "loadavg_end": ("host_loadavg_end", ""),
    # ... and who it was: kernel workers (writeback, reclaim), other processes
    # (a neighbour, or Snakemake itself), the runner; the rest was not seen
    "other_kernel_threads_cpu_seconds": ("host_other_kernel_threads_cpu_seconds", "s"),
    "other_processes_cpu_seconds": ("host_other_processes_cpu_seconds", "s"),
    "runner_cpu_seconds": ("runner_cpu_seconds", "s"),
    "other_unattributed_cpu_seconds": ("host_other_unattributed_cpu_seconds", "s"),
}


def limit_rows(base, report_path, prefix=""):
    try:
        with open(report_path) as f:
            report = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        raise InputError(report_path, "", f"the cgroup runner's JSON report expected ({e})") from None
    rows = []
    for key, (name, unit) in LIMIT_FIELDS.items():
        value = report.get(key)
        if isinstance(value, bool):
            value = int(value)
        if isinstance(value, (int, float)):
            rows.append({**base, "metric": prefix + name, "op": "", "subset": "", "value": value,
                         "unit": unit, "source": f"{report_path}#{key}"})
    return rows


def failed_rows(path, record):
    """A failed job's one `failed` record (lsmrepro.run.bench) as one tidy row."""
    manifest = record.get("manifest")
    base = _factors(path, record.get("meta", {}), manifest, (manifest or {}).get("engine", ""))
    return [{**base, "metric": "failed", "op": "", "subset": "", "value": 1, "unit": "",
             "source": f"{path}:1", "note": record["reason"]}]


def _load_rows(base, load_log, reports):
    """The load a run started from: its load and settle phases and the
    engine's counters after the load (load_*), and its runner report."""
    log = runlog.read(load_log)
    rows = rows_of(log, base, prefix="load_", phases={"load", "settle"})
    report = load_log[: -len(".jsonl")] + ".limits.json"
    if report in reports or Path(report).exists():
        rows += limit_rows(base, report, prefix="load_")
    return rows


def _tool_run_rows(path):
    """A microbenchmark run (its record, *.tool.json, and the CSV it names)."""
    record = tool_rows.read_record(path)
    m = record["manifest"]
    meta = {**record["meta"], "study": m["study"], "experiment": m["experiment"], "point": m["point"],
            "repetition": m["repetition"], "dataset": m["factors"].get("dataset", "")}
    base = _factors(path, meta, m, m["tool"], record["build_id"], record.get("fingerprint"))
    failed = {**base, "metric": "failed", "op": "", "subset": "", "value": 0, "unit": "", "source": f"{path}#csv"}
    return [failed, *tool_rows.metric_rows(path, record, base)]


def aggregate(paths, out):
    """`paths`: run logs (*.jsonl) and, optionally, the runner report of each
    (<same stem>.limits.json), or microbenchmark runs' records (*.tool.json,
    lsmrepro/run/tool.py); load logs (raw/loads/) are read through the runs
    that name them (meta load_log)."""
    paths = sorted(map(str, paths))
    reports = {p[: -len(".limits.json")]: p for p in paths if p.endswith(".limits.json")}
    loads = {p for p in paths if "/loads/" in p}
    rows = []
    for path in paths:
        if path.endswith(tool_run.RECORD_SUFFIX):
            rows += _tool_run_rows(path)
            continue
        if not path.endswith(".jsonl") or path in loads:
            continue
        report = reports.pop(path[: -len(".jsonl")], None)
        failure = bench.read_failure(path)
        if failure:
            rows += failed_rows(path, failure)
            continue
        log = runlog.read(path)
        base = factors_of(log)
        # a run that completed is `failed` 0, so a claim that a run fails can be
        # judged not reproduced when it does not (a failed run's row is 1); its
        # source is the end record, whose status runlog.read checked is "ok"
        rows.append({**base, "metric": "failed", "op": "", "subset": "", "value": 0, "unit": "",
                     "source": f"{path}:{log.records[-1].line}"})
        rows += rows_of(log, base)
        rows += regime.run_rows(log, base, report)  # regime_* metrics (lsmrepro/tidy/regime.py)
        if report:
            rows += limit_rows(base, report)
        load_log = log.run["meta"].get("load_log")
        if load_log:
            rows += _load_rows(base, load_log, reports)
    for stem in [s for s in reports if f"{s}.jsonl" in loads]:
        reports.pop(stem)
    if reports:
        orphan = next(iter(reports.values()))
        raise InputError(orphan, "", "a run log with the same name (.jsonl) expected beside it")
    factors = sorted({k for r in rows for k in r} - set(COLUMNS))
    write_csv(out, COLUMNS + factors, rows)
    return rows


def concat(tables, out):
    """Tidy tables (of a study's experiments) -> one, every factor column of
    any of them kept (blank where a table has none), values as written."""
    header, rows = list(COLUMNS), []
    for path in tables:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            if reader.fieldnames is None or reader.fieldnames[:len(COLUMNS)] != COLUMNS:
                raise InputError(path, "header", f"a tidy table expected (columns {', '.join(COLUMNS)}, then factors)")
            header += [c for c in reader.fieldnames if c not in header]
            rows += list(reader)
    header = COLUMNS + sorted(header[len(COLUMNS):])
    write_csv(out, header, rows)
    return rows


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--concat", action="store_true", help="the files are tidy tables: join them")
    ap.add_argument("files", nargs="*", help="run logs and their runner reports (none: an experiment without runs)")
    args = ap.parse_args(argv)
    rows = (concat if args.concat else aggregate)(args.files, args.out)
    print(f"aggregate: {len(args.files)} files, {len(rows)} rows -> {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
