"""Raw run logs -> one tidy CSV per study: a row per (run, metric), each
with the place it was read from (`log:line` of lsmbench's log, or
`report#field` of the cgroup runner's report), so every number in a figure,
table or verdict traces back to a raw file. A pure function of those files.

    python -m lsmrepro.aggregate --out results/local/tidy/baseline.csv \
        RUN.jsonl [RUN.limits.json] ...
"""
import argparse
import csv
import json
import sys
from pathlib import Path

from lsmrepro import runlog
from lsmrepro.atomic import atomic_path
from lsmrepro.errors import InputError, cli

COLUMNS = ["study", "experiment", "scale", "engine", "dataset", "repetition", "run",
           "metric", "op", "subset", "value", "unit", "source", "build_id", "fingerprint",
           "node", "image"]

LATENCY_STATS = ["mean", "min", "p50", "p90", "p99", "p999", "max", "count"]


def _factors(log):
    run = log.run
    meta = run["meta"]
    missing = [k for k in ("study", "experiment", "scale", "dataset", "repetition") if k not in meta]
    if missing:
        raise InputError(log.path, "line 1: run.meta", f"keys {', '.join(missing)} expected (lsmbench --meta)")
    fingerprint = run["attached"].get("fingerprint", {}) or {}
    return {
        "study": meta["study"],
        "experiment": meta["experiment"],
        "scale": meta["scale"],
        "engine": run["engine"],
        "dataset": meta["dataset"],
        "repetition": int(meta["repetition"]),
        "run": Path(log.path).stem,
        "build_id": (run.get("build_id") or {}).get("id", ""),
        "fingerprint": fingerprint.get("id", ""),
        # where and in what the number was measured (hardware/fingerprint.py)
        "node": (fingerprint.get("node") or {}).get("name") or fingerprint.get("host", ""),
        "image": ((fingerprint.get("stable") or {}).get("container") or {}).get("image_id") or "",
    }


def rows_of(log):
    """Every metric of one run log as tidy rows."""
    base = _factors(log)

    def row(rec, metric, value, unit, op="", subset=""):
        return {**base, "metric": metric, "op": op, "subset": subset, "value": value,
                "unit": unit, "source": f"{log.path}:{rec.line}"}

    out = []
    for rec in log.records:
        d = rec.data
        kind = d["type"]
        if kind == "phase":
            out.append(row(rec, f"{d['phase']}_seconds", d["seconds"], "s"))
            if d["ops"]:
                out.append(row(rec, f"{d['phase']}_throughput", d["ops_per_sec"], "ops/s"))
        elif kind == "latency" and d["count"]:
            for stat in LATENCY_STATS:
                unit = "ops" if stat == "count" else "ns"
                out.append(row(rec, f"latency_{stat}", d[stat], unit, d["op"], d["subset"]))
        elif kind == "breakdown":
            for step, value in d["per_op"].items():
                out.append(row(rec, f"{d['scope']}_{step}_per_op", value, "ns"))
        elif kind == "engine":
            for key, value in d.items():
                if isinstance(value, (int, float)) and not isinstance(value, bool) and key != "type":
                    unit = "bytes" if key.endswith("bytes") else "s" if key.endswith("seconds") else ""
                    out.append(row(rec, key, value, unit))
        elif kind == "check":
            out.append(row(rec, "answers_verified", d["verified"], "ops"))
            out.append(row(rec, "answers_wrong", d["wrong"], "ops"))
    return out


# The cgroup runner's report fields that become tidy metrics.
LIMIT_FIELDS = {"limit_bytes": "bytes", "peak_bytes": "bytes", "oom_kills": "",
                "enforced": "", "wall_seconds": "s"}


def limit_rows(log, report_path):
    base = _factors(log)
    try:
        with open(report_path) as f:
            report = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        raise InputError(report_path, "", f"the cgroup runner's JSON report expected ({e})") from None
    rows = []
    for key, unit in LIMIT_FIELDS.items():
        value = report.get(key)
        if isinstance(value, bool):
            value = int(value)
        if isinstance(value, (int, float)):
            rows.append({**base, "metric": f"memory_{key}" if not key.startswith("wall") else "job_wall_seconds",
                         "op": "", "subset": "", "value": value, "unit": unit,
                         "source": f"{report_path}#{key}"})
    return rows


def aggregate(paths, out):
    """`paths`: run logs (*.jsonl) and, optionally, the runner report of each
    (<same stem>.limits.json)."""
    paths = sorted(map(str, paths))
    reports = {p[: -len(".limits.json")]: p for p in paths if p.endswith(".limits.json")}
    rows = []
    for path in paths:
        if not path.endswith(".jsonl"):
            continue
        log = runlog.read(path)
        rows += rows_of(log)
        report = reports.pop(path[: -len(".jsonl")], None)
        if report:
            rows += limit_rows(log, report)
    if reports:
        orphan = next(iter(reports.values()))
        raise InputError(orphan, "", "a run log with the same name (.jsonl) expected beside it")
    with atomic_path(out) as tmp:
        with open(tmp, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=COLUMNS)
            w.writeheader()
            w.writerows(rows)
    return rows


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("files", nargs="+", help="run logs and their runner reports")
    args = ap.parse_args(argv)
    rows = aggregate(args.files, args.out)
    print(f"aggregate: {len(args.files)} files, {len(rows)} rows -> {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
