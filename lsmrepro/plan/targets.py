"""What ./reproduce can make, its state, and what it will cost.

    python -m lsmrepro.plan.targets list --scale local [--results results]
        each study/figure: done | missing | stale (an input is newer than the
        figure), and the summed wall time of its loads and runs last time
        (the cgroup runner's reports);
    python -m lsmrepro.plan.targets pilot --scale local [--results results]
        the raw logs of a few jobs the reference run timed at that scale
        (per study the two runs, each with its load, of median cost there):
        run them (./reproduce --pilot), and the estimate scales the
        reference's other jobs by how much slower or faster they ran here;
    python -m lsmrepro.plan.targets estimate --scale paper [--results results]
        wall time and disk of every figure at a scale, from the job times
        measured on this machine (Snakemake `benchmark:` files of the load
        and run jobs, any scale), scaled by keys (loads) and ops (runs); says
        which figures have no measurement yet. Where this machine has no
        time for a job, the reference run's (results/reference/<scale>/
        benchmarks, shipped with the repository) is used, scaled by this
        machine's speed: the median ratio of the jobs both machines ran
        (machine_ratios; a pilot of a few of them: `pilot`), else its I/O
        share by the two machines' fio calibrations (device_ratios,
        reference_note). A run's measured phase scales
        with its ops (a run a time limit stopped: up to what it measured,
        the limit being the figure's at every scale), a load and the rest of
        a run (reading the dataset, copying the database) with the keys; the
        start-up of a job does not.
"""
import argparse
import json
import re
import statistics
from functools import lru_cache
from pathlib import Path

import humanfriendly
import pandas as pd

from lsmrepro.plan import studies
from base.yamlio import load_yaml
from base.errors import InputError, cli

SCALES = ("smoke", "local", "paper")


def _run_stem(results, scale, r):
    return Path(results, scale, "raw", r.study, r.figure, r.point, f"r{r.rep}")


def _load_stem(results, scale, load):
    return Path(results, scale, "raw", "loads", load)


def _wall(path):
    try:
        return float(json.loads(Path(path).read_text()).get("wall_seconds") or 0)
    except (OSError, ValueError):
        return 0.0


def state(results, scale):
    """One row per study/figure: the paper's figure or table it is, its
    state and the last wall time of its jobs."""
    scale_cfg = studies.load_scale(scale)
    runs, tool_runs = studies.runs(scale_cfg), studies.tool_runs(scale_cfg)
    out = []
    for study, fig, spec in studies.all_figures():
        # what marks the target made: its PNG, or a table-only target's CSV
        png = (Path(results, scale, "tables", study, f"{fig}.csv") if studies.is_table(study, fig)
               else Path(results, scale, "figures", study, f"{fig}.png"))
        rows = runs[(runs["study"] == study) & (runs["figure"] == fig)] if len(runs) else runs
        raw = [Path(f"{_run_stem(results, scale, r)}.jsonl") for r in rows.itertuples()]
        loads = sorted(set(rows["load"])) if len(rows) else []
        inputs = raw + [studies.spec_path(study), studies.DATASETS]
        inputs += [studies.REPO / f for f in studies.figure_code(study, fig)]
        # an interleaved job's runs each carry its wall: counted once per job
        jobs = {(r.group, r.rep) if r.group else (r.point, r.rep): r for r in rows.itertuples()}
        seconds = sum(_wall(f"{_run_stem(results, scale, r)}.limits.json") for r in jobs.values())
        seconds += sum(_wall(f"{_load_stem(results, scale, ld)}.limits.json") for ld in loads)
        # a tool's runs (a microbenchmark): each record holds its wall
        mine = tool_runs[(tool_runs["study"] == study) & (tool_runs["figure"] == fig)] if len(tool_runs) else tool_runs
        records = [Path(f"{_run_stem(results, scale, r)}.tool.json") for r in mine.itertuples()]
        raw, inputs = raw + records, inputs + records
        seconds += sum(_wall(p) for p in records)
        if not png.exists() or any(not p.exists() for p in raw):
            st = "missing"
        elif any(p.stat().st_mtime > png.stat().st_mtime for p in inputs if p.exists()):
            st = "stale"
        else:
            st = "done"
        last = humanfriendly.format_timespan(seconds) if seconds else "—"
        made = pd.Timestamp(png.stat().st_mtime, unit="s").strftime("%Y-%m-%d %H:%M") if png.exists() else "—"
        out.append({"target": f"{study}/{fig}", "paper": spec["paper_figure"], "state": st, "runs": len(rows) + len(records), "loads": len(loads),
                    "last run time": last, "made": made})
    return pd.DataFrame(out)


@lru_cache(maxsize=None)
def _keys(scale, dataset):
    """A dataset's keys at a scale (read once: the estimate asks per load)."""
    return load_yaml(studies.DATASETS)["datasets"][dataset]["size"][scale]


def _benchmark_seconds(path):
    try:
        return float(pd.read_csv(path, sep="\t")["s"].iloc[0])
    except (OSError, ValueError, KeyError, IndexError):
        return None


def _phase_seconds(log, phases):
    """(seconds of these phases, ops its run phase did or None, whether a
    time limit stopped it) in an lsmbench log; None when there is no log."""
    total, ops, limited = 0.0, None, False
    try:
        for line in Path(log).read_text().splitlines():
            rec = json.loads(line)
            if rec.get("type") == "phase" and rec["phase"] in phases:
                total += rec["seconds"]
                if rec["phase"] == "run":
                    ops, limited = rec.get("ops"), bool(rec.get("time_limited"))
    except OSError:
        return None
    except (ValueError, KeyError):
        return 0.0, None, False
    return total, ops, limited


def interleaved(log):
    """Whether a run log is one database's of an interleaved job (lsmbench
    --interleave: its run record's workload.interleave)."""
    try:
        with open(log) as f:
            return bool(json.loads(f.readline()).get("workload", {}).get("interleave"))
    except (OSError, ValueError, AttributeError):
        return False


TIDY_PHASES = {"run_seconds", "setup_ops", "setup_interleave_members", "load_seconds", "settle_seconds",
               "run_time_limited", "run_ops"}


def _tidy_phases(results, scale):
    """What _phase_seconds reads, from a run's tidy tables where its raw
    logs stayed behind (a shipped reference run): (kind, job id) ->
    (seconds, ops, time-limited). A run's: its run_seconds and setup_ops
    (a time-limited run's: the run_ops it did); a load's: its load and
    settle seconds, named by their source (the load's log)."""
    frames = []
    for path in sorted(Path(results, scale, "tidy").glob("*.csv*")):
        t = pd.read_csv(path, usecols=["study", "experiment", "point", "repetition", "metric", "value", "source"],
                        low_memory=False)
        frames.append(t[t["metric"].isin(TIDY_PHASES)])
    out = {}
    if not frames:
        return out
    t = pd.concat(frames, ignore_index=True)
    runs = t[t["metric"].isin(TIDY_PHASES - {"load_seconds", "settle_seconds"})].drop_duplicates(
        ["study", "experiment", "point", "repetition", "metric"])
    for (study, experiment, point, rep), g in runs.groupby(["study", "experiment", "point", "repetition"]):
        v = dict(zip(g["metric"], pd.to_numeric(g["value"], errors="coerce")))
        # a blank elsewhere in the column reads repetitions as floats
        kind = "member" if v.get("setup_interleave_members") else "run"
        limited = bool(v.get("run_time_limited"))
        out[(kind, f"{study}/{experiment}/{point}/r{int(rep)}")] = (
            float(v.get("run_seconds", 0.0)), v.get("run_ops") if limited else v.get("setup_ops"), limited)
    loads = t[t["metric"].isin({"load_seconds", "settle_seconds"})].drop_duplicates(["source", "metric"])
    ids = loads["source"].astype(str).str.rsplit(":", n=1).str[0].map(lambda x: Path(x).name.removesuffix(".jsonl"))
    for load, g in loads.assign(load=ids).groupby("load"):
        out[("load", load)] = (float(pd.to_numeric(g["value"], errors="coerce").sum()), None, False)
    return out


def _cpu_seconds(path):
    """The CPU seconds of a Snakemake benchmark file (None when it has none)."""
    try:
        return float(pd.read_csv(path, sep="\t")["cpu_time"].iloc[0])
    except (OSError, ValueError, KeyError, IndexError):
        return None


def _measured(results, io_ratio=None, wall_ratio=None):
    """Every measured load and run job: (kind, id) -> [(scale, job seconds,
    seconds of its measured phase, the ops it ran or None, whether a time
    limit stopped it)]. A run's phase scales with its ops, a load's with its keys; the rest of a job (reading
    the dataset, copying the database) with keys too, except the start-up
    every job pays. The phase comes from the job's raw log, else from the
    run's tidy tables (a shipped reference keeps no raw logs).
    An interleaved job (rule bench_group) is ("group", study/figure/group),
    its phase unknown here; each of its runs is ("member", study/figure/point)
    with its own run phase and no job time (its job only copies the log).
    io_ratio {kind: r} stretches each job's I/O share (its wall minus its
    CPU time) by r: another machine's device (device_ratios). wall_ratio
    {kind: r} instead stretches each job, and each phase no time limit
    stopped, by r: another machine's measured speed (machine_ratios)."""
    seen = {}
    for scale in SCALES:
        tidy = None
        base = Path(results, scale, "benchmarks")
        for path in base.rglob("*.tsv"):
            rel = path.relative_to(base).with_suffix("")
            s = _benchmark_seconds(path)
            if s is None:
                continue
            kind = "load" if rel.parts[0] == "loads" else "group" if rel.parts[2:3] == ("interleaved",) else "run"
            factor = wall_ratio["load" if kind == "load" else "run"] if wall_ratio else 1.0
            if wall_ratio:
                s *= factor
            elif io_ratio and (cpu := _cpu_seconds(path)) is not None:
                s = min(cpu, s) + max(0.0, s - cpu) * io_ratio["run" if kind == "group" else kind]
            if kind == "group":
                seen.setdefault((kind, "/".join(rel.parts[:2] + rel.parts[3:4])), []).append((scale, s, 0.0, None, False))
                continue
            raw = Path(results, scale, "raw", *rel.parts).with_suffix(".jsonl")
            if kind == "run" and not raw.exists():  # a shipped reference: its tidy tables say
                tidy = _tidy_phases(results, scale) if tidy is None else tidy
                if ("member", "/".join(rel.parts)) in tidy:
                    phase = _stretched(tidy[("member", "/".join(rel.parts))], factor)
                    seen.setdefault(("member", "/".join(rel.parts[:3])), []).append((scale, 0.0, *phase))
                    continue
            if kind == "run" and interleaved(raw):
                phase = _stretched(_phase_seconds(raw, {"run"}), factor)
                seen.setdefault(("member", "/".join(rel.parts[:3])), []).append((scale, 0.0, *phase))
                continue
            phase = _phase_seconds(raw, {"run"} if kind == "run" else {"load", "settle"})
            if phase is None:
                tidy = _tidy_phases(results, scale) if tidy is None else tidy
                phase = tidy.get((kind, rel.parts[1] if kind == "load" else "/".join(rel.parts)), (0.0, None, False))
            phase = _stretched(phase, factor)
            key = rel.parts[1] if kind == "load" else "/".join(rel.parts[:3])
            seen.setdefault((kind, key), []).append((scale, s, min(phase[0], s), *phase[1:]))
    return seen


def _stretched(phase, factor):
    """A measured phase (seconds, ops, time-limited) on a machine `factor`
    times slower: a phase a time limit stopped takes its limit anywhere."""
    if phase is None or factor == 1.0 or phase[2]:
        return phase
    return (phase[0] * factor, *phase[1:])


def reference_dir(results):
    """The shipped reference run's results, laid out as results/ is."""
    return Path(results, "reference")


# The fio measurement each kind of job's I/O is most like, and its quantity
# (more is faster): a run's gets read 4 KiB blocks one at a time, a load
# writes tables and logs sequentially.
DEVICE_MEASURE = {"run": ("randread-4k-qd1", "iops"), "load": ("seqwrite-1m", "bandwidth_MiBps")}


def _calibration(folder):
    """fio measurement -> row of a calibration.csv (hardware.calibration_plot); {} when absent."""
    path = Path(folder, "hardware", "calibration.csv")
    try:
        return {r["measurement"]: r for _, r in pd.read_csv(path).iterrows()}
    except (OSError, ValueError, KeyError):
        return {}


def device_ratios(results, scale):
    """{kind: reference's speed / this machine's} for DEVICE_MEASURE, from
    the fio calibrations of the reference run and of this machine, both at
    `scale`; None when either has none there. A scale's calibration is its
    own fio job (file size, runtime): this machine's smoke and local
    calibrations measured 4 KiB random reads 1.58x apart on one device."""
    ref = _calibration(reference_dir(results) / scale)
    mine = _calibration(Path(results, scale))
    ratios = {}
    for kind, (measurement, quantity) in DEVICE_MEASURE.items():
        try:
            a, b = float(ref[measurement][quantity]), float(mine[measurement][quantity])
        except (KeyError, ValueError, TypeError):
            return None
        if not (a > 0 and b > 0):
            return None
        ratios[kind] = a / b
    return ratios


# A speed ratio needs this many jobs both machines ran (of its kind, else
# of both kinds pooled); a job under MIN_TIMED_S on the reference (an
# interleaved member's copy of its log) measures start-up, not speed.
PILOT_MIN = 3
MIN_TIMED_S = 1.0


def machine_ratios(results, scale):
    """{"load" | "run": (this machine's wall / the reference's, jobs)}: the
    median over the jobs at `scale` both ran (one benchmark file path in
    both), per kind where it has PILOT_MIN of them, else both kinds pooled;
    None with fewer. The same job on another VM of the same CPU model took
    1.05-4.25x the reference's wall and 1.05-3.49x its CPU seconds
    (2026-12-02, paper/measurements.md "Another machine"), where the fio
    calibrations alone predicted 55% too little: neither the CPU's share
    nor a many-threaded load's I/O is what fio measures."""
    mine, ref = Path(results, scale, "benchmarks"), reference_dir(results) / scale / "benchmarks"
    pairs = {"load": [], "run": []}
    for path in sorted(mine.rglob("*.tsv")) if mine.is_dir() else []:
        rel = path.relative_to(mine)
        other = _as_timed(ref, rel)
        a, b = _benchmark_seconds(path), _benchmark_seconds(other) if other.is_file() else None
        if a and b and b >= MIN_TIMED_S:
            pairs["load" if rel.parts[0] == "loads" else "run"].append(a / b)
    pooled = pairs["load"] + pairs["run"]
    if len(pooled) < PILOT_MIN:
        return None
    return {kind: (statistics.median(v if len(v) >= PILOT_MIN else pooled), len(v if len(v) >= PILOT_MIN else pooled))
            for kind, v in pairs.items()}


def _as_timed(ref, rel):
    """A job's benchmark file under a reference's benchmarks/: its own, else
    (a run of an A/A replica's point, `+replica=N`) the point's before the
    design replicated it, which ran the same work."""
    if len(rel.parts) == 4 and not (ref / rel).is_file():
        return ref / Path(*rel.parts[:2], unreplicated(rel.parts[2]), rel.parts[3])
    return ref / rel


def pilot_targets(results, scale):
    """The raw logs of a pilot at `scale`: per study, the two runs of median
    cost (the run and its load, as the reference timed them) among those
    this design still has and the reference timed there, each with its load;
    an interleaved job's members left out, and an A/A replica's point is
    replica 0's, which the reference timed as the point before it was
    replicated. Median, not cheapest: start-up is a larger share of a short
    job."""
    runs = studies.runs(studies.load_scale(scale))
    ref = reference_dir(results) / scale / "benchmarks"
    out = []
    for _, mine in runs[(runs["group"] == "") & (runs["replica"] == 0)].groupby("study", sort=False):
        timed = []
        for r in mine.itertuples():
            load, run = (_benchmark_seconds(p) if p.is_file() else None for p in (
                ref / "loads" / f"{r.load}.tsv", _as_timed(ref, Path(r.study, r.figure, r.point, f"r{r.rep}.tsv"))))
            if load and run and run >= MIN_TIMED_S:
                timed.append((load + run, r.figure, r.point, r.rep, r))
        timed.sort(key=lambda x: x[:4])
        middle = len(timed) // 2
        out += [f"{_run_stem(results, scale, x[-1])}.jsonl" for x in timed[max(0, middle - 1):middle + 1]]
    return out


def job_times(results, scale="local"):
    """_measured of this machine, with the reference run's times of a job
    where this machine has none at `scale` and the reference has (a smoke
    run's 20k-op time is no estimate of a 1M-op run the reference timed),
    scaled by machine_ratios where this machine ran some of the
    reference's jobs, else its I/O share by device_ratios: (times, how many
    of the reference's job times were used)."""
    mine = _measured(results)
    speed = machine_ratios(results, scale)
    ref = _measured(reference_dir(results), None if speed else device_ratios(results, scale),
                    {kind: r for kind, (r, _) in speed.items()} if speed else None)
    out, used = dict(mine), 0
    for key, jobs in ref.items():
        here = mine.get(key, [])
        if not here or (not any(j[0] == scale for j in here) and any(j[0] == scale for j in jobs)):
            out[key] = jobs
            used += len(jobs)
    return out, used


def reference_note(results, used, scale="local"):
    """What the estimate says when it used reference job times: scaled whole
    by the machines' measured speed ratio (machine_ratios), else only their
    I/O share (wall minus CPU time, both in Snakemake's benchmark file) by
    the two machines' fio calibrations; with neither (a fresh clone)
    nothing is scaled."""
    if not used:
        return None
    base = reference_dir(results)
    fp = next(iter(sorted(base.glob("*/hardware/fingerprint.json"))), None)
    try:
        cpu = json.loads(fp.read_text())["stable"]["cpu"]["model"] if fp else None
    except (OSError, ValueError, KeyError, TypeError):
        cpu = None
    speed = machine_ratios(results, scale)
    ratios = device_ratios(results, scale)
    if speed:
        how = (f"each scaled by this machine's wall time over the reference's, the median over the jobs at {scale} "
               "both ran: " + ", ".join(f"{kind}s x{r:.2f} ({n} jobs)" for kind, (r, n) in speed.items()))
    elif ratios:
        how = ("each job's I/O share (wall minus CPU time) scaled by the two machines' fio calibrations: "
               + ", ".join(f"{k}s x{r:.2f} ({' '.join(DEVICE_MEASURE[k])})" for k, r in ratios.items())
               + f"; the CPU share unscaled: ./reproduce --pilot {scale} times a few of the reference's jobs "
               "here, which scales them whole")
    else:
        how = (f"unscaled: this machine has run none of the reference's jobs at {scale} and it or the reference "
               f"has no fio calibration there yet (./reproduce --pilot {scale} times a few jobs of the reference "
               "here, which scales them all)")
    return (f"Jobs not yet measured here are estimated from the reference run's job times, "
            f"measured on {cpu or 'an unrecorded CPU'} ({used} job times, {how}); jobs measured here replace them")


def _library_owner(engine, variants):
    """The engine whose library `engine` links (engines.yaml library_from),
    else itself."""
    return variants.get(engine, {}).get("library_from", engine)


def _by_library(measured, variants):
    """Job times keyed by ids whose engine is the library's owner: a job of
    rocksdb-doblix with the same options and data as one of rocksdb (the
    library it links) does the same work, so either's time prices both
    (the doblix study ran RocksDB's block-based table as engine rocksdb
    before its four systems shared rocksdb-doblix's lsmbench)."""
    out = {}
    for (kind, job), times in measured.items():
        out.setdefault((kind, _library_id(job, variants)), []).extend(times)
    return out


def _library_id(job, variants):
    """`job` (a run, group or load id, or study/figure/<one of those>) with
    its engine=<id> replaced by engine=<the library's owner>."""
    head, sep, tail = job.rpartition("/")
    first, plus, rest = tail.partition(studies.ID_SEP)
    if first.startswith("engine="):
        first = "engine=" + _library_owner(first[len("engine="):], variants)
    return head + sep + first + plus + rest


def _startup(measured):
    """The smallest non-phase part of any job: what every job pays whatever its size."""
    rest = [j[1] - j[2] for (kind, _), jobs in measured.items() if kind in ("run", "load") for j in jobs]
    return max(0.0, min(rest)) if rest else 0.0


def estimate(results, scale, select=None, scale_cfg=None, times=None):
    """Estimated wall seconds and disk bytes at `scale` (of the runs `select`
    keeps, as --config select= does): (per figure, per study). A figure's
    row is what running it alone costs, every load it reads included; a
    study's counts each load once, as one Snakemake run of the study makes
    it once for every figure that reads it. `scale_cfg`: the scale's
    settings to price instead of config/scales/<scale>.yaml's (other counts).
    `times`: job_times(results, scale)'s result, for a caller that prices
    several designs from one reading of the thousands of job files."""
    return pricer(results, scale, select, scale_cfg, times)()


def pricer(results, scale, select=None, scale_cfg=None, times=None):
    """estimate's work, the job times read once: a function of a set of
    "study/figure" experiments (None: all) to (per figure, per study), each
    load counted once in a study's total, as one Snakemake run of those
    figures makes it once."""
    runs = studies.runs(scale_cfg or studies.load_scale(scale), select=select)
    from engines.registry import load_variants
    variants = load_variants()
    canon = lambda job: _library_id(job, variants)  # noqa: E731
    measured = _by_library((times or job_times(results, scale))[0], variants)
    startup = _startup(measured)
    per_scale_runs = {}  # scale -> its runs, expanded only where a log lacks its ops
    loads = {}  # load id -> (seconds or None when unmeasured, disk bytes)

    def load_cost(load, r):
        if load not in loads:
            disk = _keys(scale, r["dataset_name"]) * (8 + int(r["value_bytes"])) * 1.1
            hits = [j for k, v in measured.items() if k[0] == "load" and _same_load(k[1], canon(load)) for j in v]
            seconds = None
            if hits:
                src_scale, s = _closest(hits, scale)[:2]
                keys = _keys(scale, r["dataset_name"]) / _keys(src_scale, r["dataset_name"])
                seconds = startup + (s - startup) * keys
            loads[load] = (seconds, disk)
        return loads[load]

    def measured_key(kind, r):
        """The job times' key of a run: its own, else (an A/A replica never
        timed) its point's (unreplicated)."""
        key = (kind, canon(f"{r.study}/{r.figure}/{r.point}"))
        plain = (kind, canon(f"{r.study}/{r.figure}/{unreplicated(r.point)}"))
        return key if key in measured or plain not in measured else plain

    def scaled(key, r):
        """(the measured job's seconds, its phase at this scale's ops,
        the keys' ratio of this scale to the measured one). A phase a time
        limit stopped is priced as measured, or less where this scale's ops
        end it sooner: the limit is the figure's at every scale."""
        src_scale, s, phase, src_ops, limited = _closest(measured[key], scale)
        if not src_ops:  # a log without its ops: the scale's configured ops
            if src_scale not in per_scale_runs:
                per_scale_runs[src_scale] = studies.runs(studies.load_scale(src_scale))
            src = per_scale_runs[src_scale]
            src_ops = src[(src["study"] == r.study) & (src["figure"] == r.figure)]["ops"].iloc[0]
        phase_here = phase * r.ops / src_ops
        if limited:
            phase_here = min(phase_here, phase)
        return s, phase, phase_here, _keys(scale, r.dataset_name) / _keys(src_scale, r.dataset_name)

    def run_cost(r):
        key = measured_key("run", r)
        if key not in measured:
            return None
        s, phase, phase_here, keys = scaled(key, r)
        return startup + phase_here + (s - phase - startup) * keys

    def like_run_cost(r):
        """A run never timed as itself: timed as an interleaved job's
        member (its phase measured, the rest of its job that member's share
        of its group job's), else as the mean of its figure's timed runs at
        its own ops: a figure's runs differ in options, not in kind."""
        member = measured_key("member", r)
        rest = _figure_rests(measured, canon(f"{r.study}/{r.figure}"), startup, scale)
        if member in measured and rest is not None:
            _, _, phase_here, keys = scaled(member, r)
            return startup + phase_here + rest * keys
        siblings = _figure_keys(measured, "run", canon(f"{r.study}/{r.figure}"))
        if not siblings:
            return None
        costs = []
        for k in siblings:
            s, phase, phase_here, keys = scaled(k, r)
            costs.append(startup + phase_here + (s - phase - startup) * keys)
        return sum(costs) / len(costs)

    def group_cost(rows):
        """An interleaved job: its runs' phases and the rest of the job,
        scaled; where it was never measured, the runs' own jobs, run apart
        (an earlier run of the figure), less the start-ups it shares."""
        r0 = rows[0]
        group = ("group", canon(f"{r0.study}/{r0.figure}/{r0.group}"))
        members = [measured_key("member", r) for r in rows]
        if group in measured and all(m in measured for m in members):
            parts = [scaled(m, r) for m, r in zip(members, rows)]
            src_scale, s = _closest(measured[group], scale)[:2]
            keys = _keys(scale, r0.dataset_name) / _keys(src_scale, r0.dataset_name)
            return startup + sum(p[2] for p in parts) + (s - sum(p[1] for p in parts) - startup) * keys
        apart = [run_cost(r) for r in rows]
        return None if None in apart else startup + sum(c - startup for c in apart)

    parts = {}  # (study, figure) -> (its row, its runs' seconds, runs unmeasured, its loads)

    def figure_part(study, fig):
        if (study, fig) in parts:
            return parts[(study, fig)]
        mine = runs[(runs["study"] == study) & (runs["figure"] == fig)] if len(runs) else runs
        seconds, missing, disk, run_seconds = 0.0, 0, 0.0, 0.0
        jobs = {}  # an interleaved job's runs, else a run alone
        for r in mine.itertuples():
            jobs.setdefault((r.group, r.rep) if r.group else (r.point, r.rep, "alone"), []).append(r)
        like = 0  # jobs priced by like jobs (like_run_cost, like_load_cost)
        for job in jobs.values():
            cost = group_cost(job) if job[0].group else run_cost(job[0])
            if cost is None and not job[0].group:
                cost = like_run_cost(job[0])
                like += cost is not None
            if cost is None:
                missing += len(job)
                continue
            seconds += cost
        run_seconds, run_missing, fig_loads = seconds, missing, set()
        own = {load: load_cost(load, group.iloc[0]) for load, group in mine.groupby("load")} if len(mine) else {}
        timed = [c[0] for c in own.values() if c[0] is not None]
        for load, (load_seconds, load_disk) in own.items():
            fig_loads.add(load)
            disk += load_disk
            if load_seconds is None and timed:
                # A load never timed: its figure's timed loads' mean (the
                # figure's loads differ in tree options and seed, not in keys).
                load_seconds = sum(timed) / len(timed)
                loads[load] = (load_seconds, load_disk)
                like += 1
            if load_seconds is None:
                missing += 1
                continue
            seconds += load_seconds
        interleaved_jobs = sum(1 for job in jobs.values() if job[0].group)
        row = {"target": f"{study}/{fig}",
               # the design a point runs: its loads (k) x its repetitions (r), replica 0's
               "loads x runs a point": _design(mine),
               "jobs": len(mine) + interleaved_jobs + (mine["load"].nunique() if len(mine) else 0),
               "estimated wall": humanfriendly.format_timespan(seconds) if seconds else "—",
               "seconds": round(seconds, 1), "peak disk (loads, upper bound)": humanfriendly.format_size(disk, binary=True),
               "unmeasured jobs": missing, "priced by like jobs": like}
        parts[(study, fig)] = (row, run_seconds, run_missing, fig_loads)
        return parts[(study, fig)]

    def price(figures=None):
        rows, per_study = [], {}
        for study, fig, spec in studies.all_figures():
            if figures is not None and f"{study}/{fig}" not in figures:
                continue
            row, run_seconds, run_missing, fig_loads = figure_part(study, fig)
            rows.append(row)
            entry = per_study.setdefault(study, {"runs": 0.0, "loads": set(), "missing": 0})
            entry["runs"] += run_seconds
            entry["missing"] += run_missing
            entry["loads"] |= fig_loads
        totals = []
        for study, e in per_study.items():
            costs = [loads[x] for x in sorted(e["loads"])]
            seconds = e["runs"] + sum(c[0] for c in costs if c[0] is not None)
            totals.append({"study": study, "loads": len(costs),
                           "estimated wall": humanfriendly.format_timespan(seconds) if seconds else "—",
                           "seconds": round(seconds, 1),
                           "disk of loads (upper bound)": humanfriendly.format_size(sum(c[1] for c in costs), binary=True),
                           "unmeasured jobs": e["missing"] + sum(c[0] is None for c in costs)})
        return pd.DataFrame(rows), pd.DataFrame(totals)

    return price


def _design(rows):
    """"k x r" of a figure's runs: the most loads and repetitions one point
    of replica 0 has ("—" without runs)."""
    if not len(rows):
        return "—"
    points = rows[rows["replica"] == 0].groupby("point")
    return f"{points['load'].nunique().max()} x {points['rep'].nunique().max()}"


def _figure_keys(measured, kind, figure):
    """The measured keys of `kind` of one "study/figure"."""
    return [k for k in measured if k[0] == kind and k[1].startswith(figure + "/")]


def _figure_rests(measured, figure, startup, scale):
    """A run's job less its phase and start-up, in a figure timed as
    interleaved jobs: the figure's group jobs' time less their members'
    phases and start-ups, per member (None when it has none)."""
    groups = _figure_keys(measured, "group", figure)
    members = _figure_keys(measured, "member", figure)
    if not groups or not members:
        return None
    total = (sum(_closest(measured[g], scale)[1] - startup for g in groups)
             - sum(_closest(measured[m], scale)[2] for m in members))
    return max(0.0, total / len(members))


def _closest(jobs, scale):
    """(scale, job s, phase s, ops or None, time-limited): the mean over the
    repetitions measured at the same scale when there are some, else at the
    largest measured scale; time-limited if any of them was."""
    src = scale if any(j[0] == scale for j in jobs) else max((j[0] for j in jobs), key=SCALES.index)
    mine = [j for j in jobs if j[0] == src]
    ops = [j[3] for j in mine if j[3]]
    return (src, sum(j[1] for j in mine) / len(mine), sum(j[2] for j in mine) / len(mine),
            sum(ops) / len(ops) if ops else None, any(j[4] for j in mine))


def unreplicated(point):
    """A point's id without its A/A replica (a scale's `replicas`): every
    replica runs the point's work, so its measured job times price them all."""
    return re.sub(rf"\{studies.ID_SEP}replica=\d+$", "", point)


def _same_load(a, b):
    """Load ids are equal up to the seed (the repetition)."""
    strip = lambda x: [p for p in x.split(studies.ID_SEP) if not p.startswith("seed=")]  # noqa: E731
    return strip(a) == strip(b)


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("command", choices=["list", "estimate", "pilot"])
    ap.add_argument("--scale", required=True, choices=SCALES)
    ap.add_argument("--results", default="results")
    ap.add_argument("--select", help='estimate: only these runs ("engine=leveldb rep=0")')
    args = ap.parse_args(argv)
    if args.command == "list":
        print(state(args.results, args.scale).to_markdown(index=False))
        return
    if args.command == "pilot":
        pilot = pilot_targets(args.results, args.scale)
        if not pilot:
            raise InputError(reference_dir(args.results) / args.scale / "benchmarks", "*.tsv",
                             f"job times of loads and runs this design still has at {args.scale} "
                             "(a shipped reference run at that scale)")
        print("\n".join(pilot))
        return
    table, by_study = estimate(args.results, args.scale, args.select)
    print(f"Estimate at scale {args.scale} from the job times measured under {args.results}/*/benchmarks;"
          " a figure alone, every load it reads included:")
    print(table.to_markdown(index=False))
    print("\nA whole study, each load counted once (figures share loads):")
    print(by_study.to_markdown(index=False))
    total = by_study["seconds"].sum()
    print(f"\ntotal: {humanfriendly.format_timespan(total) if total else '—'} of benchmark jobs"
          " (builds, dataset generation and calibration not included)")
    note = reference_note(args.results, job_times(args.results, args.scale)[1], args.scale)
    if note:
        print(note + ".")
    unmeasured = table[table["unmeasured jobs"] > 0]["target"].tolist()
    if unmeasured:
        print("no measurement yet for some jobs of: " + ", ".join(unmeasured)
              + " (run them at any scale first, e.g. ./reproduce smoke)")


if __name__ == "__main__":
    main()
