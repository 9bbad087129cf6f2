"""Ship a finished run as the reference others compare with.

    python -m lsmrepro.publish.ship --scale local --to results/reference/local \\
        --snakemake-log .snakemake/log/<first>.snakemake.log [<resumed>.snakemake.log ...]

copies what a run measured and what it concluded (claims, tidy tables
gzipped, figure and regime tables, Snakemake's job times, the machine's
fingerprint and fio calibration, every job's time split: timing.csv) and
writes `run.json`: the commit and the build ids the run used, its Snakemake
invocations (a run stopped and resumed is several), their wall time and
jobs, where the jobs' time went (lsmrepro.publish.timing), and the load the runs
saw (the runner's load average at each job's start, and the CPU share of
other processes while it ran: median and max). The study READMEs' verdict
blocks read it (lsmrepro.publish.readme_verdicts). Raw logs stay behind; the tidy
`source` column still names them. Paths inside this checkout are written
relative to it (`portable`): nothing committed names the machine's directories.

It refuses a run that is not one commit's: a dirty working tree, a tidy row
whose build id is not the engine's current build, a study without claims.

    python -m lsmrepro.publish.ship ... --studies lsm-eval slr baseline

ships a part: a run of some studies (`./reproduce lsm-eval slr baseline`)
into the reference beside the parts already shipped there, when a whole
run does not fit one machine's session (paper/measurements.md, "The
design's price at local"). It replaces those studies' files and keeps the
others'; it refuses a part whose code differs from the shipped parts'
(anything changed between their commits that NOT_CODE does not name). run.json's `parts`
lists each part (its studies, commit, builds, invocations, wall, jobs and
machine; `hardware/` is the first part's machine, a later part's files
under hardware/parts/<its studies>/); its top-level fields sum them.

    python -m lsmrepro.publish.ship ... --figures lsm-eval/fig8 slr/fig11 --to results/reference/<name>

ships a run of figure targets (`./reproduce lsm-eval/fig8 slr/fig11`): each
figure's verdicts (claims/<study>/<figure>.csv), the tidy tables of the
experiments they read (tidy/<study>/<experiment>.csv.gz) and its figure
table, into a folder of its own (an A/A pair of runs is two such folders:
paper/README.md, "A/A"); it merges with no shipped part.
"""
import argparse
import gzip
import json
import re
import shutil
import subprocess
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path

import pandas as pd

from base.atomic import atomic_path, write_text
from base.errors import InputError, cli
from lsmrepro.plan import studies
from lsmrepro.publish import timing

REPO = studies.REPO
HARDWARE_FILES = ("fingerprint.json", "calibration.csv", "calibration.json", "system.csv", "system.md")
LIMIT_BYTES = 50 * 1024 * 1024  # what the repository carries for one reference run
HOST_METRICS = ("host_loadavg_start", "host_other_cpu_share")


def _git(*args):
    return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, check=True).stdout.strip()


def commit_of_checkout(allow_dirty=False):
    commit = _git("rev-parse", "HEAD")
    dirty = bool(_git("status", "--porcelain", "--untracked-files=no"))
    if dirty and not allow_dirty:
        raise InputError(REPO, "git status", "a clean working tree (the run must be one commit's; "
                         "commit or stash first, or pass --allow-dirty for a trial)")
    return commit, dirty


def current_builds(build_dir):
    """engine -> build id of what build/engines holds now."""
    out = {}
    for p in sorted(Path(build_dir).glob("*/build_id.json")):
        try:
            out[p.parent.name] = json.loads(p.read_text())["id"]
        except (OSError, ValueError, KeyError) as e:
            raise InputError(p, "id", f"a build id written by engines/build_engine.py ({e})")
    return out


def portable(text):
    """text with this checkout's absolute path made relative to it: what is
    committed names no directory of the machine that ran it."""
    for root in {str(REPO), str(REPO.resolve())}:
        text = text.replace(root + "/", "")
    return text


_DATE = re.compile(r"^\s*Date: (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)", re.M)
_COMMAND = re.compile(r"^\s*Command: (.*)$", re.M)
_STEPS = re.compile(r"^(\d+) of (\d+) steps", re.M)
_ELAPSED = re.compile(r"^Elapsed time: (?:(\d+) days?, )?(\d+):(\d\d):(\d\d(?:\.\d+)?)", re.M)


def invocation(log):
    """One Snakemake invocation from its log: start, end, wall, jobs done.
    A killed invocation has no 'Elapsed time': its log's last write ends it."""
    path = Path(log)
    try:
        text = path.read_text()
    except OSError as e:
        raise InputError(path, None, f"a Snakemake log (.snakemake/log/*.snakemake.log) ({e})")
    date = _DATE.search(text)
    if not date:
        raise InputError(path, "Date", "a Snakemake log's header with the invocation's start")
    start = datetime.strptime(date.group(1), "%Y-%m-%d %H:%M:%S")
    elapsed = _ELAPSED.search(text)
    if elapsed:
        d, h, m, s = elapsed.groups()
        wall = timedelta(days=int(d or 0), hours=int(h), minutes=int(m), seconds=float(s)).total_seconds()
    else:
        wall = datetime.fromtimestamp(path.stat().st_mtime).timestamp() - start.timestamp()
    steps = _STEPS.findall(text)
    done, total = (int(steps[-1][0]), int(steps[-1][1])) if steps else (0, None)
    command = _COMMAND.search(text)
    return {"log": path.name, "command": portable(command.group(1)) if command else None,
            "start": start.isoformat(), "wall_seconds": round(wall, 1), "jobs_done": done,
            "jobs_planned": total, "finished": bool(elapsed) and done == total}


def _copy(src, dst):
    dst.parent.mkdir(parents=True, exist_ok=True)
    write_text(dst, portable(Path(src).read_text()))


def _gzip(src, dst):
    dst.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(dst) as tmp, open(src, "rb") as f, open(tmp, "wb") as raw:
        # mtime 0: the same table gives the same bytes, so a re-ship is no diff
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as z:
            shutil.copyfileobj(f, z)


def check_builds(tidy, builds, path):
    """Every row's build id is its engine's current build."""
    if "build_id" not in tidy.columns:
        raise InputError(path, "build_id", "the column of a tidy table of lsmrepro.tidy.aggregate")
    rows = tidy.dropna(subset=["build_id"])
    used = rows.groupby("engine")["build_id"].unique()
    for engine, ids in used.items():
        stale = sorted(set(map(str, ids)) - {builds.get(engine)})
        if stale:
            raise InputError(path, f"build_id of {engine}", f"only its current build {builds.get(engine)} "
                             f"(rows from builds {', '.join(stale)}: results of another commit; rerun them)")
    return {e: sorted(set(map(str, ids))) for e, ids in used.items()}


def host_load(tidy):
    """Median and max of the load the runs saw (the runner's samples)."""
    out = {}
    for metric in HOST_METRICS:
        v = pd.to_numeric(tidy.loc[tidy["metric"] == metric, "value"], errors="coerce").dropna()
        if len(v):
            out[metric] = {"median": round(float(v.median()), 3), "max": round(float(v.max()), 3), "runs": int(len(v))}
    return out


@contextmanager
def _fresh(final):
    """A new folder that replaces `final` when the block ends well (no file
    of an earlier ship, e.g. of a point since renamed, stays beside this
    one) and is removed when it does not."""
    stage = final.with_name(f".{final.name}.shipping")
    shutil.rmtree(stage, ignore_errors=True)
    try:
        yield stage
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    shutil.rmtree(final, ignore_errors=True)
    stage.rename(final)


def ship(scale, results, to, logs, build_dir, allow_dirty=False, only=None, figures=None):
    """Ship results/<scale> as the reference at `to`: the whole run, or
    (`only`: some studies) a part of it beside the parts shipped there, or
    (`figures`: study/figure ids) a run of figure targets on its own."""
    commit, dirty = commit_of_checkout(allow_dirty)
    names = list(studies.studies_with_specs())
    if figures is not None:
        targets = figure_targets(figures, names)
        with _fresh(Path(to)) as stage:
            return _ship_into(stage, Path(results, scale), Path(to), commit, dirty, logs, build_dir, scale,
                              list(dict.fromkeys(s for s, _ in targets)), [], targets)
    part = names if only is None else [s for s in names if s in only]
    unknown = sorted(set(only or ()) - set(names))
    if unknown:
        raise InputError("--studies", None, f"studies with specs ({', '.join(names)}), got {', '.join(unknown)}")
    earlier = _earlier_parts(Path(to), part, commit) if only is not None else []
    with _fresh(Path(to)) as stage:
        if earlier:
            _keep_other_studies(Path(to), stage, part, earlier)
        return _ship_into(stage, Path(results, scale), Path(to), commit, dirty, logs, build_dir, scale, part,
                          earlier)


def figure_targets(ids, names):
    """[(study, figure)] of `--figures` ids, each a figure of a study with a spec."""
    out = []
    for fid in ids:
        study, _, figure = fid.partition("/")
        if study not in names or figure not in studies.figures(study):
            raise InputError("--figures", fid, "<study>/<figure> of a study with a spec, as ./reproduce takes it"
                             f" (studies: {', '.join(names)})")
        out.append((study, figure))
    return out


def _verdict_files(src, study, targets):
    """(claims source, its name under claims/, the tidy tables it reads):
    the study's, or in a run of figure targets each figure's."""
    if targets is None:
        return [(src / "claims" / f"{study}.csv", f"{study}.csv", "the study's verdicts (its claims target)",
                 [(src / "tidy" / f"{study}.csv", f"{study}.csv.gz")])]
    out = []
    for s, figure in targets:
        if s != study:
            continue
        read = studies.figure_experiments(study, figure)
        claims = src / "claims" / study / f"{figure}.csv"
        if claims.exists():  # the experiments its claims read, beyond the figure's own
            runs = pd.read_csv(claims, keep_default_na=False).get("runs", pd.Series([], dtype=str))
            read += [x.split("/")[0] for r in runs for x in str(r).split(";") if "/" in x]
        out.append((claims, f"{study}/{figure}.csv", f"the figure's verdicts (./reproduce {study}/{figure})",
                    [(src / "tidy" / study / f"{e}.csv", f"{study}/{e}.csv.gz") for e in dict.fromkeys(read)]))
    return out


# What a part's code is: everything that makes or judges its results. Not
# the results and the Markdown (the study READMEs' verdict blocks are
# regenerated from each part as it ships), nor what only copies, compares or
# renders a shipped run (this file, readme_verdicts.py, compare.py, report.py
# and aa.py) and the tests: a fix there must not cost the hours of parts
# already shipped.
NOT_CODE = (":(exclude)results", ":(exclude,glob)**/*.md", ":(exclude)tests",
            *(f":(exclude)lsmrepro/publish/{f}.py" for f in ("ship", "readme_verdicts", "compare", "report", "aa")))


def _earlier_parts(to, part, commit):
    """The parts shipped at `to` that this one does not replace, each of the
    code this commit has (nothing but results/ and Markdown changed between
    them: NOT_CODE)."""
    try:
        run = json.loads((to / "run.json").read_text())
    except OSError:
        return []
    except ValueError as e:
        raise InputError(to / "run.json", None, f"a shipped run's run.json ({e})")
    kept = [p for p in run.get("parts", []) if not set(p["studies"]) & set(part)]
    for p in kept:
        changed = _git("diff", "--name-only", p["commit"], commit, "--", ".", *NOT_CODE)
        if changed:
            raise InputError(to / "run.json", f"parts ({', '.join(p['studies'])}): commit {p['commit'][:12]}",
                             f"the code of this commit (changed since: {', '.join(changed.splitlines()[:5])}); "
                             "rerun those studies at this commit, or ship them all again")
    return kept


def _keep_other_studies(to, stage, part, kept):
    """Copies a shipped reference into `stage` without the files of the
    studies in `part` (this part's replace them) and without the machine
    files of the parts it replaces."""
    mine, machines = set(part), {p["hardware"] for p in kept}
    for p in sorted(to.rglob("*")):
        rel = p.relative_to(to)
        if not p.is_file() or rel.name in ("run.json", "timing.csv"):
            continue
        first = rel.parts[1] if len(rel.parts) > 1 else ""
        if rel.parts[0] in ("claims", "tidy") and first.split(".")[0] in mine:
            continue
        if rel.parts[0] in ("tables", "benchmarks") and first in mine:
            continue
        if rel.parts[0] == "hardware" and str(rel.parent) not in machines:
            continue
        (stage / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(p, stage / rel)


def _ship_into(to, src, final, commit, dirty, logs, build_dir, scale, names, earlier, targets=None):
    builds = current_builds(build_dir)
    used_builds, tidies, shipped = {}, [], set()
    for study in names:
        for claims, name, what, tidy_paths in _verdict_files(src, study, targets):
            for p, said in ((claims, what), *((t, "a tidy table its claims read") for t, _ in tidy_paths)):
                if not p.exists():
                    raise InputError(p, None, f"missing: {said}; the run is not complete")
            for tidy_path, tidy_name in tidy_paths:
                if tidy_name in shipped:  # an experiment two figures read
                    continue
                shipped.add(tidy_name)
                tidy = pd.read_csv(tidy_path, low_memory=False)
                used_builds.update(check_builds(tidy, builds, tidy_path))
                tidies.append(tidy[tidy["metric"].isin(HOST_METRICS)])
                _gzip(tidy_path, to / "tidy" / tidy_name)
            verdicts = pd.read_csv(claims, keep_default_na=False)
            verdicts.insert(0, "commit", commit)
            with atomic_path(to / "claims" / name) as tmp:
                verdicts.to_csv(tmp, index=False)
            shipped.add(name)
    mine = set(names)
    # beside them: the studies' other verdict files (a figure target's, the .md), or only the figures'
    figure_files = None if targets is None else {f"{s}/{f}{ext}" for s, f in targets for ext in (".csv", ".md")}
    for p in sorted((src / "claims").rglob("*")):
        rel = p.relative_to(src / "claims")
        if p.suffix in (".md", ".csv") and str(rel) not in shipped and rel.parts[0].split(".")[0] in mine \
                and (figure_files is None or str(rel) in figure_files):
            _copy(p, to / "claims" / rel)
    for p in sorted((src / "tables").rglob("*")):
        rel = p.relative_to(src / "tables")
        if p.suffix in (".csv", ".md") and rel.parts[0] in mine \
                and (figure_files is None or str(rel) in figure_files or rel.name.startswith("regime.")):
            _copy(p, to / "tables" / rel)
    table = timing.jobs(src)
    # a part's loads are those its studies read (timing's owner: a study, or "shared")
    table = table[table["study"].isin(mine | {"shared"})] if len(table) else table
    ours = set(table["job"]) if len(table) else set()
    for p in sorted((src / "benchmarks").rglob("*")):
        rel = p.relative_to(src / "benchmarks")
        if p.is_file() and (rel.parts[0] in mine or str(rel.with_suffix("")) in ours):
            _copy(p, to / "benchmarks" / rel)
    # hardware/ is the first part's machine (what --compare and the report show); a later part's beside it
    owned = any(p["hardware"] == "hardware" for p in earlier)
    machine = Path("hardware", "parts", "+".join(names)) if owned else Path("hardware")
    for name in HARDWARE_FILES:
        p = src / "hardware" / name
        if not p.exists():
            raise InputError(p, None, "missing: the machine's fingerprint and fio calibration (rule hardware)")
        _copy(p, to / machine / name)
    if earlier and (final / "timing.csv").exists():
        kept = pd.read_csv(final / "timing.csv")
        table = pd.concat([kept[~kept["study"].isin(mine) & ~kept["job"].isin(table["job"])], table],
                          ignore_index=True)
    with atomic_path(to / "timing.csv") as tmp:
        table.to_csv(tmp, index=False)
    split = timing.summary(table)
    runs = sorted((invocation(log) for log in logs), key=lambda r: r["start"])
    this = {"studies": names, **({"figures": [f"{s}/{f}" for s, f in targets]} if targets else {}),
            "commit": commit, "dirty": dirty, "build_ids": used_builds,
            "started": runs[0]["start"], "invocations": runs,
            "wall_seconds": round(sum(r["wall_seconds"] for r in runs), 1),
            "jobs": sum(r["jobs_done"] for r in runs), "machine": _fingerprint_id(src / "hardware"),
            "hardware": str(machine),
            "shipped": datetime.now().astimezone().isoformat(timespec="seconds")}
    parts = sorted([*earlier, this], key=lambda p: p["started"])
    for p in earlier:  # their host load is in their tidy tables, kept beside this part's
        for study in p["studies"]:
            with gzip.open(to / "tidy" / f"{study}.csv.gz", "rt") as f:
                t = pd.read_csv(f, low_memory=False)
            tidies.append(t[t["metric"].isin(HOST_METRICS)])
    builds_used = {}
    for p in parts:
        for engine, ids in p["build_ids"].items():
            builds_used[engine] = sorted(set(builds_used.get(engine, [])) | set(ids))
    run = {"scale": scale, "commit": parts[0]["commit"], "dirty": any(p["dirty"] for p in parts),
           "build_ids": builds_used, "started": parts[0]["started"],
           "invocations": [i for p in parts for i in p["invocations"]],
           "wall_seconds": round(sum(p["wall_seconds"] for p in parts), 1),
           "jobs": sum(p["jobs"] for p in parts),
           "benchmark_jobs": sum(1 for p in (to / "benchmarks").rglob("*") if p.is_file()),
           "host_load": host_load(pd.concat(tidies, ignore_index=True)),
           # where the jobs' wall went (lsmrepro/publish/timing.py; every job's row in timing.csv)
           "time_split": ({k: round(float(v), 4) for k, v in split.set_index("study").loc["all", timing.PARTS].items()}
                          | {"job_seconds": round(float(split.set_index("study").loc["all", "job_s"]), 1)})
                         if len(split) else None,
           "parts": parts, "shipped": this["shipped"]}
    write_text(to / "run.json", json.dumps(run, indent=1) + "\n")
    size = sum(p.stat().st_size for p in to.rglob("*") if p.is_file())
    if size > LIMIT_BYTES:
        raise InputError(final, None, f"at most {LIMIT_BYTES >> 20} MiB to commit ({size >> 20} MiB shipped)")
    return run, size


def _fingerprint_id(hardware):
    try:
        return json.loads((hardware / "fingerprint.json").read_text()).get("id")
    except (OSError, ValueError, AttributeError):
        return None


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scale", default="local")
    ap.add_argument("--results", default="results")
    ap.add_argument("--to", default="results/reference/local")
    ap.add_argument("--build-dir", default="build/engines")
    ap.add_argument("--snakemake-log", nargs="+", required=True, dest="logs",
                    help="the run's Snakemake logs, one per invocation (a resumed run has several)")
    ap.add_argument("--allow-dirty", action="store_true", help="a trial ship from a dirty tree (run.json says so)")
    which = ap.add_mutually_exclusive_group()
    which.add_argument("--studies", nargs="+", help="ship a part: these studies' run, beside the parts shipped at --to")
    which.add_argument("--figures", nargs="+", metavar="STUDY/FIGURE",
                       help="ship a run of these figure targets, into --to on its own")
    a = ap.parse_args(argv)
    run, size = ship(a.scale, a.results, a.to, a.logs, a.build_dir, a.allow_dirty, a.studies, a.figures)
    print(f"{a.to}: commit {run['commit'][:12]}, {len(run['invocations'])} invocation(s), "
          f"{run['wall_seconds'] / 3600:.2f} h wall, {run['jobs']} jobs, {size / 2**20:.1f} MiB")


if __name__ == "__main__":
    main()
