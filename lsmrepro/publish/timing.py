"""Where a run's time went, from the run's own files:

    python -m lsmrepro.publish.timing results/<scale> [--csv timing.csv]

One row per benchmark job (a load or a run) that finished: Snakemake's wall
for the job (benchmarks/**.tsv, `s`), the cgroup runner's wall for lsmbench
(raw/**.limits.json, `wall_seconds`) and lsmbench's own split of it (its log's
end record, `driver_seconds`). A job's wall is then

    outside the runner   Python's start, the database's links or copy,
                         page-cache eviction, cgroup set-up, the job's files
  + runner start-up      lsmbench's exec and everything before its clock
  + open                 DB::Open (a learned table's retrain included)
  + measured phases      the load, settle or run phase the figures use
  + other lsmbench work  reading the dataset, making the ops, stats, removing the copy

It prints the sums per study and kind (a load is its study's when one study
reads it, else "shared"). Jobs that are not benchmarks (datasets, tidy
tables, figures) and Snakemake's own time are not here: a shipped run's
run.json has each invocation's wall beside its job count."""
import argparse
import json
from pathlib import Path

import pandas as pd

from base.atomic import atomic_path
from base.errors import InputError, cli
from lsmrepro.plan import studies
from lsmrepro.plan.targets import interleaved

PARTS = ["outside_runner_s", "runner_start_s", "open_s", "phases_s", "other_lsmbench_s"]


def _benchmark_seconds(path):
    try:
        return float(pd.read_csv(path, sep="\t")["s"].iloc[0])
    except (OSError, ValueError, KeyError, IndexError):
        return None


def _runner_seconds(path):
    try:
        return float(json.loads(Path(path).read_text())["wall_seconds"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _driver_seconds(log):
    """lsmbench's split of its own wall: the end record's driver_seconds."""
    try:
        for line in reversed(Path(log).read_text().splitlines()):
            rec = json.loads(line)
            if rec.get("type") == "end":
                return rec.get("driver_seconds") or {}
    except (OSError, ValueError):
        pass
    return {}


def _load_owners(scale):
    """load id -> the study that reads it, or "shared"."""
    try:
        runs = studies.runs(studies.load_scale(scale))
    except InputError:
        return {}
    owners = runs.groupby("load")["study"].agg(lambda s: s.iloc[0] if s.nunique() == 1 else "shared")
    return owners.to_dict()


def jobs(results):
    """One row per finished benchmark job under results/<scale>."""
    base = Path(results)
    owners = _load_owners(base.name)
    rows = []
    for tsv in sorted((base / "benchmarks").rglob("*.tsv")):
        rel = tsv.relative_to(base / "benchmarks").with_suffix("")
        job_s = _benchmark_seconds(tsv)
        raw = base / "raw" / rel
        log, limits = raw.with_suffix(".jsonl"), raw.with_suffix(".limits.json")
        if rel.parts[2:3] == ("interleaved",):
            # one lsmbench for several runs: each member's files hold the job's
            log, limits = (next(iter(sorted(raw.glob(f"*{ext}"))), raw / "none") for ext in (".jsonl", ".limits.json"))
        elif interleaved(log):
            continue  # a run of an interleaved job: its job only copied the log
        runner_s = _runner_seconds(limits)
        if job_s is None or runner_s is None:
            continue  # a job stopped before its runner reported: not a finished job
        driver = _driver_seconds(log)
        kind = "load" if rel.parts[0] == "loads" else "run"
        total = float(driver.get("total", runner_s))
        open_s, phases_s = float(driver.get("open", 0.0)), float(driver.get("phases", 0.0))
        rows.append({
            "study": owners.get(rel.parts[1], "shared") if kind == "load" else rel.parts[0],
            "figure": "" if kind == "load" else rel.parts[1], "kind": kind, "job": str(rel),
            "job_s": job_s, "outside_runner_s": max(job_s - runner_s, 0.0),
            "runner_start_s": max(runner_s - total, 0.0), "open_s": open_s, "phases_s": phases_s,
            "other_lsmbench_s": max(total - open_s - phases_s, 0.0)})
    return pd.DataFrame(rows, columns=["study", "figure", "kind", "job", "job_s", *PARTS])


def _share(part):
    return part.removesuffix("_s") + "_share"


def summary(table):
    """Sums per study and kind, each part also as a share of the jobs' wall."""
    if table.empty:
        return table
    g = table.groupby(["study", "kind"])
    out = g[["job_s", *PARTS]].sum()
    out.insert(0, "jobs", g.size())
    out.loc[("all", ""), :] = [len(table), *table[["job_s", *PARTS]].sum()]
    for p in PARTS:
        out[_share(p)] = out[p] / out["job_s"]
    return out.reset_index()


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results", help="a run's results/<scale>")
    ap.add_argument("--csv", help="write every job's row here")
    ap.add_argument("--summary-csv", help="write the sums per study and kind here")
    args = ap.parse_args(argv)
    if not Path(args.results, "benchmarks").is_dir():
        raise InputError(args.results, "benchmarks", "a run's results/<scale> with Snakemake's benchmark files")
    table = jobs(args.results)
    if args.csv:
        with atomic_path(args.csv) as tmp:
            table.to_csv(tmp, index=False)
    s = summary(table)
    if args.summary_csv:
        with atomic_path(args.summary_csv) as tmp:
            s.to_csv(tmp, index=False)
    pd.set_option("display.width", 200)
    cols = ["study", "kind", "jobs", "job_s", *map(_share, PARTS)]
    print(s[cols].to_string(index=False, float_format=lambda v: f"{v:.3g}") if len(s) else "no finished jobs")


if __name__ == "__main__":
    main()
