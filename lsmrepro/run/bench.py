"""One benchmark job of a study: a load (lsmbench --phase load leaves a
settled database) or a run (lsmbench --phase run on its own copy of a load's
database), under the cgroup runner's memory limit.

    python -m lsmrepro.run.bench load --db DIR --log L.jsonl --limits L.limits.json \\
        --memory 70% [--allow-unenforced] [--defer-fsync] -- LSMBENCH ARGS...
    python -m lsmrepro.run.bench run --from LOAD_DIR --load-log LOAD.jsonl --db COPY_DIR \\
        --cache warm|cold --log R.jsonl --limits R.limits.json --memory 70%|69.8%db [--open-memory 70%] \\
        --manifest JSON -- LSMBENCH ARGS...

A run's manifest (lsmrepro.plan.studies.run_manifest: its study, experiment,
point, repetition, engine, dataset, factors and options, as data) is
attached to its log (`attached.manifest`) and to its `failed` record, so
aggregate reads the run's factors from it, not from the run's id.

A run's `--memory N%db` is a page-cache budget of N% of its load's database
size: the run opens under the scale's limit, then the cgroup runner sets the
limit to the process's own memory at that moment plus the budget, so the
cached share of the database is N% at every scale whatever the driver and
the index hold (the run's meta keeps the rule as memory_limit_rule; the
runner's report has the bytes: own_bytes_at_open, cache_bytes_at_run).

A run's copy links the files no engine writes once they are complete (LevelDB
and RocksDB tables, WiscKey's value-log files: IMMUTABLE) and copies the rest
(MANIFEST, CURRENT, write-ahead logs, OPTIONS), so a run that compacts or
writes changes only its own names; where links fail (another filesystem) it
is a reflink (`cp --reflink=always`), else a plain copy. A linked warm copy's
files are then read once, so its pages are cached as a plain copy's are;
either is written back (sync) before the job starts, outside the measured
job. `cold` then drops the copy's cached pages (fdatasync +
POSIX_FADV_DONTNEED on every file) and, as root, the whole page cache
(/proc/sys/vm/drop_caches), and lsmbench drops the database's pages once
more after its open, so the run phase starts cold whatever the open read
(`--evict-before-run`). The run log's `meta` says what was done:
db_copy=link|reflink|copy, db_copy_seconds, db_copy_sync_seconds,
cache=warm|cold, cache_evicted_files=N, cache_dropped=yes|no (why).

A load with `--defer-fsync` (a figure whose load times nothing reads:
experiments.yaml `timed_loads`) runs lsmbench under Debian's eatmydata, so
every fsync is a no-op, and fsyncs its files once at its end: the same
data, written without waiting on each table's sync; its log's meta says
load_fsync=deferred.

A job that fails (the engine errs, the memory limit kills it, its load
failed) still leaves its log path holding one `failed` record with the
reason, so the figure marks the failure and the rest of it renders. A run
with wrong answers is no result and no failure mark: the job fails.

A job told to stop (SIGTERM/SIGINT/SIGHUP, or the Snakemake that started it
is gone: base/jobguard.py) is no result either: it stops the runner, removes
what it wrote and fails, so a restarted workflow runs it again. Each job
holds `.bench.lock` beside the loads while it runs and, once it has it,
removes what an earlier attempt may have left (a half-loaded database, a
log's temporary or `.failed` file): a restart never runs beside a leftover
job nor starts from its remains.
"""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from base.atomic import write_text
from base.errors import InputError, cli
from base.jobguard import exclusive, watch_owner
from base.sizes import parse_size
from hardware.pagecache import evict

FAILED_MARK = "FAILED.json"  # in a load's database folder when the load failed
# ... and when it is done: its files and sizes, which a run checks before it
# copies them (a kill while Snakemake deletes a load leaves part of it)
LOADED_MARK = "LOADED.json"
EATMYDATA = "eatmydata"
LOCK = ".bench.lock"  # beside the loads' databases: one benchmark job at a time
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


class Stopped(Exception):
    """The job was told to stop: neither a result nor a failure."""


def clear_outputs(log, limits, db=None):
    """Removes a job's outputs and what a killed attempt leaves beside them:
    lsmbench's `<log>.tmp` and `<log>.failed`, atomic writes' `.<name>.tmp<pid>`."""
    for path in (Path(log), Path(limits)):
        for leftover in (path, Path(f"{path}.tmp"), Path(f"{path}.failed"), *path.parent.glob(f".{path.name}.tmp*")):
            leftover.unlink(missing_ok=True)
    if db is not None:
        shutil.rmtree(db, ignore_errors=True)
# Written once, never changed after: LevelDB's and RocksDB's tables, and
# WiscKey's value logs (engines/wisckey/overlay/layers/wisckey/value_log.cc appends only
# to the file it creates at each open; an older one is only truncated after
# a crash cut its tail, which a completed load never leaves). Engines delete
# them by name, so a run's unlink leaves its load's link.
IMMUTABLE = (".ldb", ".sst", ".vlog")


def link_db(src, dst):
    """A database folder's copy that links IMMUTABLE files; False (and
    nothing left at dst) where the filesystem refuses links."""
    try:
        dst.mkdir()
        for f in Path(src).iterdir():
            if f.is_dir():
                raise OSError(f"{f}: a folder in a database (not linked)")
            if f.suffix in IMMUTABLE:
                os.link(f, dst / f.name)
            else:
                shutil.copy2(f, dst / f.name)
        return True
    except OSError:
        shutil.rmtree(dst, ignore_errors=True)
        return False


def read_once(db):
    """Reads every file of a folder, so its pages are cached."""
    for f in Path(db).iterdir():
        with open(f, "rb") as fh:
            while fh.read(1 << 20):
                pass


def copy_db(src, dst, own_pages=False):
    """Copies a database folder; returns "link" (link_db), "reflink" or "copy".
    `own_pages`: never a link, so no other copy's reads cache this one's pages
    (a reflink's files are inodes of their own, with their own page cache)."""
    dst = Path(dst)
    shutil.rmtree(dst, ignore_errors=True)
    dst.parent.mkdir(parents=True, exist_ok=True)
    if not own_pages and link_db(src, dst):
        return "link"
    r = subprocess.run(["cp", "-a", "--reflink=always", str(src), str(dst)], capture_output=True, text=True)
    if r.returncode == 0:
        return "reflink"
    shutil.rmtree(dst, ignore_errors=True)
    subprocess.run(["cp", "-a", str(src), str(dst)], check=True)
    return "copy"


def db_files(db):
    """{relative path: size} of the database folder's files: not our marks,
    nor the timestamp Snakemake puts in a directory output after its job."""
    return {str(p.relative_to(db)): p.stat().st_size for p in sorted(Path(db).rglob("*"))
            if p.is_file() and p.name not in (LOADED_MARK, FAILED_MARK, ".snakemake_timestamp")}


def db_bytes(db):
    """The database folder's size on disk."""
    return sum(db_files(db).values())


def check_loaded(db):
    """The load's database is whole: every file its load left, at its size."""
    mark = Path(db, LOADED_MARK)
    try:
        expected = json.loads(mark.read_text())["files"]
    except (OSError, ValueError, KeyError):
        expected = None
    if expected is None or db_files(db) != expected:
        raise InputError(str(db), LOADED_MARK, "a whole load's database (its files as its load left them); it was "
                         "cut short or changed: delete the folder and its load's log under raw/loads/ to load it again")


def parse_with_lsmbench(ap, argv, prefix=""):
    """Our arguments, then `--` and the lsmbench binary with its own."""
    if "--" not in argv:
        ap.error(f"{prefix}-- then the lsmbench binary and its arguments expected")
    cut = argv.index("--")
    args = ap.parse_args(argv[:cut])
    args.lsmbench = argv[cut + 1:]
    args.cache_budget = args.db_bytes = None
    return args


def open_limit(args):
    """A `%db` run's limit until its engine is open: the scale's own, which
    the rule passes (--open-memory)."""
    if not args.open_memory or "%db" in args.open_memory:
        raise InputError("bench", "--open-memory", f"the scale's memory limit (e.g. 70%) beside --memory "
                                                   f"{args.memory}, got {args.open_memory!r}")
    return args.open_memory


def db_share_budget(db, rule):
    """`N%db[+SIZE]`: the page cache a run may hold, N% of the database's size
    on disk (a paper's ratio of memory to data, e.g. 75 GB of page cache over
    100 GiB, at every scale), plus SIZE. The process's own memory is not in
    it: the cgroup runner measures that when the open is done and adds it
    (hardware/cgroup_run.py --cache-after-open)."""
    share, _, extra = rule.partition("%db")
    try:
        share = float(share) / 100
    except ValueError:
        raise InputError("--memory", rule, "N%db or N%db+SIZE, e.g. 69.85%db") from None
    extra = parse_size(extra[1:], "--memory") if extra.startswith("+") else 0
    return max(1, int(db_bytes(db) * share) + extra)


def make_cold(*dbs):
    """Evicts the databases' pages; drops the page cache too when root."""
    meta = {"cache_evicted_files": str(evict(list(dbs)))}
    try:
        os.sync()
        with open("/proc/sys/vm/drop_caches", "w") as f:
            f.write("3")
        meta["cache_dropped"] = "yes"
    except OSError as e:
        meta["cache_dropped"] = f"no ({os.strerror(e.errno) if e.errno else e}; not root?)"
    return meta


def failed_record(log, phase, reason, status, meta, manifest=None):
    record = {"type": "failed", "phase": phase, "reason": reason, "exit_status": status, "meta": meta}
    if manifest is not None:
        record["manifest"] = manifest
    write_text(log, json.dumps(record) + "\n")


def read_failure(path):
    """The `failed` record of a job's log, or None when the log is lsmbench's."""
    try:
        with open(path) as f:
            first = f.readline()
        record = json.loads(first)
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) and record.get("type") == "failed" else None


def meta_of(lsmbench_args):
    """The --meta items of an lsmbench command line, as a dict."""
    out = {}
    for flag, item in zip(lsmbench_args, lsmbench_args[1:]):
        if flag == "--meta":
            k, _, v = item.partition("=")
            out[k] = v
    return out


def check_options(lsmbench_args):
    """Every -o option must be the engine's (lsmbench --list-options): a
    typo in a spec is bad input, never a failed run."""
    given = [item.partition("=")[0] for flag, item in zip(lsmbench_args, lsmbench_args[1:]) if flag in ("-o", "--option")]
    if not given:
        return
    listing = subprocess.run([lsmbench_args[0], "--list-options"], capture_output=True, text=True, check=True).stdout
    known = [line.split()[0] for line in listing.splitlines() if line.strip()]
    for name in given:
        if name not in known:
            raise InputError("paper/<study>/experiments.yaml", f"grid or option_sets option {name!r}",
                             f"an option of {Path(lsmbench_args[0]).parent.parent.name} expected ({', '.join(known)})")


def run_job(args, extra_meta, target=None):
    """cgroup_run around lsmbench; returns (status, the reason of a failure).
    `target`: lsmbench's flags naming what it runs on (default --db and --log)."""
    cmd = [sys.executable, "-m", "hardware.cgroup_run", "--memory", args.memory, "--report", args.limits]
    if getattr(args, "cache_budget", None) is not None:
        cmd += ["--cache-after-open", str(args.cache_budget), "--db-bytes", str(args.db_bytes)]
    if args.allow_unenforced:
        cmd.append("--allow-unenforced")
    cmd += ["--", *_deferring_fsync(getattr(args, "defer_fsync", False)), *args.lsmbench,
            *(target or ["--db", args.db, "--log", args.log])]
    for k, v in extra_meta.items():
        if k in meta_of(args.lsmbench):
            continue
        cmd += ["--meta", f"{k}={v}"]
    print("bench:", " ".join(cmd), file=sys.stderr, flush=True)
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True)
    stop = []

    def stop_job(reason):
        if not stop:
            stop.append(reason)
            print(f"bench: stopping the job: {reason}", file=sys.stderr, flush=True)
            proc.send_signal(signal.SIGTERM)  # the cgroup runner stops the job and removes its cgroup

    handlers = {sig: signal.signal(sig, lambda signum, _: stop_job(f"got {signal.Signals(signum).name}"))
                for sig in STOP_SIGNALS}
    watch_owner(stop_job)
    try:
        last = ""
        for line in proc.stderr:
            sys.stderr.write(line)
            if line.strip().startswith("error:"):
                last = line.strip()[len("error:"):].strip()
        status = proc.wait()
    finally:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
    if stop:
        raise Stopped(stop[0])
    return status, last or _killed_by_limit(args.limits) or f"exit status {status}"


def _stopped(args, stopped, db=None):
    clear_outputs(args.log, args.limits, db)
    print(f"error: {args.log}: stopped before its end ({stopped}); nothing kept", file=sys.stderr)
    return 1


def _killed_by_limit(limits):
    """The reason of a job the memory limit killed (the cgroup runner's
    report says so), else None: a figure's failure mark then names it."""
    try:
        report = json.loads(Path(limits).read_text())
    except (OSError, ValueError):
        return None
    if not report.get("oom_killed"):
        return None
    return (f"killed by the memory limit of {report['limit_bytes'] / 2**20:.0f} MiB "
            f"(cgroup OOM kill, exit status {report.get('exit_status')})")


def ensure_limits_report(path, reason):
    if not Path(path).exists():
        write_text(path, json.dumps({"enforced": False, "not_enforced_reason": reason}) + "\n")


def load(args):
    check_options(args.lsmbench)
    with exclusive(Path(args.db).parent / LOCK, "bench"):
        clear_outputs(args.log, args.limits, args.db)
        try:
            return _load(args)
        except Stopped as e:
            return _stopped(args, e, args.db)


def _deferring_fsync(defer):
    """The command prefix that makes every fsync of lsmbench a no-op
    (Debian's eatmydata, an LD_PRELOAD of libeatmydata)."""
    if not defer:
        return []
    if not shutil.which(EATMYDATA):
        raise InputError(EATMYDATA, "PATH", "Debian's eatmydata for --defer-fsync (apt-get install eatmydata)")
    return [EATMYDATA]


def sync_files(db):
    """fsync every file of a folder, then the folders: a load that deferred
    its fsyncs is on the device when its job ends, as one that did not."""
    paths = sorted(Path(db).rglob("*"), key=lambda p: p.is_dir())
    for p in [*paths, Path(db)]:
        fd = os.open(p, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _load(args):
    meta = {**meta_of(args.lsmbench), "phase": "load"}
    if args.defer_fsync:
        # why: most loads only prepare the database a run measures; LevelDB
        # fsyncs every table it writes, and those waits were a third of a
        # LevelDB load's wall time here (paper/README.md, "Runs, ids and loads")
        meta["load_fsync"] = "deferred"
    status, reason = run_job(args, meta)
    if status == 0:
        if args.defer_fsync:
            t0 = time.monotonic()
            sync_files(args.db)
            print(f"bench: synced the load's files once at its end in {time.monotonic() - t0:.2f} s",
                  file=sys.stderr)
        write_text(Path(args.db, LOADED_MARK), json.dumps({"files": db_files(args.db)}) + "\n")
        return 0
    if Path(args.log + ".failed").exists():
        print(f"error: {args.log}: wrong answers during the load; see {args.log}.failed", file=sys.stderr)
        return 1
    shutil.rmtree(args.db, ignore_errors=True)
    Path(args.db).mkdir(parents=True)
    write_text(Path(args.db, FAILED_MARK), json.dumps({"reason": reason, "exit_status": status}))
    failed_record(args.log, "load", reason, status, meta)
    ensure_limits_report(args.limits, reason)
    print(f"bench: load failed ({reason}); marked in {args.log}", file=sys.stderr)
    return 0


def _manifest(text):
    try:
        manifest = json.loads(text)
    except ValueError as e:
        raise InputError("--manifest", "", f"a run manifest as JSON expected ({e})") from None
    if not isinstance(manifest, dict) or not isinstance(manifest.get("factors"), dict):
        raise InputError("--manifest", "factors", "a JSON object with a `factors` object expected")
    return manifest


def run(args):
    check_options(args.lsmbench)
    manifest = _manifest(args.manifest)
    with exclusive(Path(args.source).parent / LOCK, "bench"):
        clear_outputs(args.log, args.limits)
        try:
            return _run(args, manifest)
        except Stopped as e:
            return _stopped(args, e)


def _run(args, manifest):
    meta = {**meta_of(args.lsmbench), "phase": "run", "cache": args.cache, "load_log": args.load_log}
    mark = Path(args.source, FAILED_MARK)
    if mark.exists():
        reason = "its load failed: " + json.loads(mark.read_text())["reason"]
        failed_record(args.log, "run", reason, None, meta, manifest)
        ensure_limits_report(args.limits, reason)
        print(f"bench: {reason}; marked in {args.log}", file=sys.stderr)
        return 0
    check_loaded(args.source)
    if "%db" in args.memory:
        meta["memory_limit_rule"] = args.memory
        args.cache_budget = db_share_budget(args.source, args.memory)
        args.db_bytes = db_bytes(args.source)
        args.memory = open_limit(args)
    t0 = time.monotonic()
    meta["db_copy"] = copy_db(args.source, args.db)
    if meta["db_copy"] == "link" and args.cache == "warm" and args.cache_budget is None:
        read_once(args.db)  # cached as a plain copy's pages are (evicted below otherwise)
    meta["db_copy_seconds"] = f"{time.monotonic() - t0:.3f}"
    t0 = time.monotonic()
    os.sync()
    meta["db_copy_sync_seconds"] = f"{time.monotonic() - t0:.3f}"
    if args.cache_budget is not None and args.cache == "warm":
        # A plain copy's pages (or a link's, read by earlier jobs) are cached
        # and charged to this job, not to the run's cgroup, so no limit would
        # bound them: evict them, and
        # what the run's open reads is its own cache.
        meta["cache_evicted_files"] = str(evict([args.db]))
    if args.cache == "cold":
        meta.update(make_cold(args.db))
        # and again after open, which may read much of it (learning, log scans)
        args.lsmbench = [*args.lsmbench, "--evict-before-run"]
    # lsmbench copies an attached file into its log's run record: the
    # manifest travels inside the log, never beside it.
    attached = Path(f"{args.db}.manifest.json")
    write_text(attached, json.dumps(manifest) + "\n")
    args.lsmbench = [*args.lsmbench, "--attach", f"manifest={attached}"]
    try:
        status, reason = run_job(args, meta)
    finally:
        shutil.rmtree(args.db, ignore_errors=True)
        attached.unlink(missing_ok=True)
    if status == 0:
        return 0
    if Path(args.log + ".failed").exists():
        print(f"error: {args.log}: wrong answers; see {args.log}.failed", file=sys.stderr)
        return 1
    failed_record(args.log, "run", reason, status, meta, manifest)
    ensure_limits_report(args.limits, reason)
    print(f"bench: run failed ({reason}); marked in {args.log}", file=sys.stderr)
    return 0


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("phase", choices=["load", "run"])
    ap.add_argument("--db", required=True, help="load: the database to leave; run: where its copy goes")
    ap.add_argument("--from", dest="source", help="run: the load's database folder")
    ap.add_argument("--load-log", help="run: the load's log (named in the run's meta)")
    ap.add_argument("--manifest", help="run: the run's manifest, JSON (lsmrepro.plan.studies.run_manifest)")
    ap.add_argument("--cache", choices=["warm", "cold"], default="warm")
    ap.add_argument("--log", required=True)
    ap.add_argument("--limits", required=True)
    ap.add_argument("--memory", required=True)
    ap.add_argument("--open-memory", help="the limit until the open is done, for --memory N%%db (the scale's)")
    ap.add_argument("--allow-unenforced", action="store_true")
    ap.add_argument("--defer-fsync", action="store_true",
                    help="load: every fsync a no-op (eatmydata), the files synced once at the end; "
                         "for loads whose times nothing reads (experiments.yaml timed_loads)")
    args = parse_with_lsmbench(ap, sys.argv[1:] if argv is None else list(argv))
    if args.phase == "run" and not (args.source and args.load_log and args.manifest):
        ap.error("run needs --from, --load-log and --manifest")
    if args.phase == "run" and args.defer_fsync:
        ap.error("--defer-fsync is for loads: a run's times are what it measures")
    sys.exit(load(args) if args.phase == "load" else run(args))


if __name__ == "__main__":
    main()
