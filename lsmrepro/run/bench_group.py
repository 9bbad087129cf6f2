"""An interleaved benchmark job: the runs of one repetition that differ only
in a figure's `interleave` options (paper/<study>/experiments.yaml), in one
lsmbench process that takes turns between their databases (lsmbench
--interleave), each on its own copy of its load, under one memory limit.

    python -m lsmrepro.run.bench_group run --out DIR --members JSON --db DIR \\
        --cache warm|cold --memory 70%|N%db [--pages auto|shared|own] [--allow-unenforced] -- LSMBENCH ARGS...
    python -m lsmrepro.run.bench_group member --from DIR --point P --log R.jsonl --limits R.limits.json

`--members` is a JSON list, one object per run: point, from (its load's
database), load_log, manifest (lsmrepro.plan.studies.run_manifest), options
(its lsmbench -o items) and meta (its --meta items); LSMBENCH ARGS are
what the runs share. `run` leaves DIR/<point>.jsonl and
DIR/<point>.limits.json for every member; `member` copies them to the run's
own paths (rule bench_run), so every reader of run logs reads an interleaved
run as any other, and its log's `workload.interleave` says it was one.

Pages: members of one load read hard-linked copies of its tables, one set
of pages, which every member warms for all of them alike. Where members
come from more than one load (lsm-eval's FP reads its own tables, the
learned indexes one shared load), a member alone on its load keeps its
links (its pages are its own) and every member after the first of a shared
load gets a copy with inodes of its own (`interleave_pages=own` in the
meta, `db_copy=copy`): linked, the members of the shared load read pages
all ten of them warmed while FP read pages only its own reads warmed, and
FP/PGM was 2.2-2.6 where it is 1.35-1.45 on pages of their own
(engines/leveldb-learned/README.md, "Pages of their own"); the paper's
framework runs every index as its own process on its own load
(LearnedIndexInLSM benchmark_scripts/exp_pointquery.sh, `read -w` per
index). `--pages shared|own` forces one way, to measure it.

Memory: a `N%db` budget is N% of each database the members read: each
load once (its links) and each copy, so each database
keeps the cached share the paper's ratio gives; the cgroup runner's report
is the job's, copied to every member.

Failures: a member whose load failed gets its `failed` record and the rest
run (alone, as a plain run, when one is left); an engine error or the memory
limit fails every member with its reason, as one process ran them all; a
wrong answer fails the job, as in lsmrepro.run.bench. Stopping, locking and
leftovers are lsmrepro.run.bench's.
"""
import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path

from base.atomic import write_text
from base.errors import InputError, cli
from base.jobguard import exclusive
from hardware.pagecache import evict
from lsmrepro.run.bench import (FAILED_MARK, LOCK, Stopped, check_loaded, check_options, copy_db, db_bytes,
                                db_share_budget, ensure_limits_report, failed_record, make_cold, meta_of, open_limit,
                                parse_with_lsmbench, read_once, run_job)

FIELDS = ("point", "from", "load_log", "manifest", "options", "meta")
# Operations a turn: the host's noise moves within milliseconds (a turn of
# 10 gets is 20-30 us at local): the ratio of two indexes over one load had
# a log sd of 0.16-0.23 between separate runs, 0.13 taking turns every
# 10,000 gets, 0.035-0.046 every 1,000, 0.009-0.012 every 100 and
# 0.002-0.007 every 10 (paper/README.md, "Interleaved runs").
BATCH_OPS = 10


def read_members(text):
    try:
        members = json.loads(text)
    except ValueError as e:
        raise InputError("--members", "", f"a JSON list of runs expected ({e})") from None
    if not isinstance(members, list) or len(members) < 2:
        raise InputError("--members", "", "a JSON list of two or more runs expected")
    for i, m in enumerate(members):
        if not isinstance(m, dict) or set(m) != set(FIELDS):
            raise InputError("--members", f"[{i}]", f"an object with exactly {', '.join(FIELDS)} expected")
    return members


def own_copies(members, pages="auto"):
    """Per member, whether it reads a copy of its own rather than links of
    its load: every member after the first of its load, when the members
    come from more than one load (`auto`) or always (`own`); never
    (`shared`). Then no member reads pages another member's reads cached
    (module doc, Pages); a member alone on its load owns its pages linked."""
    if pages == "shared" or (pages == "auto" and len({m["from"] for m in members}) < 2):
        return [False] * len(members)
    seen = set()
    out = []
    for m in members:
        out.append(m["from"] in seen)
        seen.add(m["from"])
    return out


def _flags(flag, items):
    return [x for item in items for x in (flag, item)]


def run(args):
    members = read_members(args.members)
    check_options([*args.lsmbench, *(x for m in members for x in _flags("-o", m["options"]))])
    out = Path(args.out)
    with exclusive(Path(members[0]["from"]).parent / LOCK, "bench"):
        shutil.rmtree(out, ignore_errors=True)
        shutil.rmtree(args.db, ignore_errors=True)
        out.mkdir(parents=True)
        try:
            return _run(args, members, out)
        except Stopped as e:
            shutil.rmtree(out, ignore_errors=True)
            print(f"error: {out}: stopped before its end ({e}); nothing kept", file=sys.stderr)
            return 1


def _paths(out, m):
    return out / f"{m['point']}.jsonl", out / f"{m['point']}.limits.json"


def _meta(common, m):
    return {**common, **dict(item.partition("=")[::2] for item in m["meta"]), "load_log": m["load_log"]}


def _run(args, members, out):
    common = {**meta_of(args.lsmbench), "phase": "run", "cache": args.cache}
    live = []
    for m in members:
        log, limits = _paths(out, m)
        mark = Path(m["from"], FAILED_MARK)
        if mark.exists():
            reason = "its load failed: " + json.loads(mark.read_text())["reason"]
            failed_record(log, "run", reason, None, _meta(common, m), m["manifest"])
            ensure_limits_report(limits, reason)
            continue
        check_loaded(m["from"])
        live.append(m)
    if not live:
        return 0
    own = own_copies(live, args.pages)
    common["interleave_pages"] = "own" if any(own) else "shared"
    # the databases the members read: each load once (linked), and each copy
    read = sorted({m["from"] for m in live}) + [m["from"] for m, o in zip(live, own) if o]
    if "%db" in args.memory:
        common["memory_limit_rule"] = args.memory
        args.cache_budget = sum(db_share_budget(src, args.memory) for src in read)
        args.db_bytes = sum(db_bytes(src) for src in read)
        args.memory = open_limit(args)
    t0 = time.monotonic()
    dbs = [Path(args.db, f"m{i}") for i in range(len(live))]
    copies = [copy_db(m["from"], db, own_pages=o) for m, db, o in zip(live, dbs, own)]
    if args.cache == "warm" and args.cache_budget is None:
        for how, db in zip(copies, dbs):
            if how == "link":
                read_once(db)
    common["db_copy_seconds"] = f"{time.monotonic() - t0:.3f}"
    t0 = time.monotonic()
    os.sync()
    common["db_copy_sync_seconds"] = f"{time.monotonic() - t0:.3f}"
    if args.cache_budget is not None and args.cache == "warm":
        common["cache_evicted_files"] = str(evict(dbs))
    if args.cache == "cold":
        common.update(make_cold(*dbs))
        args.lsmbench = [*args.lsmbench, "--evict-before-run"]
    entries = []
    for i, (m, db, how) in enumerate(zip(live, dbs, copies)):
        manifest = Path(f"{db}.manifest.json")
        write_text(manifest, json.dumps(m["manifest"]) + "\n")
        entries.append({"db": str(db), "log": str(_paths(out, m)[0]), "options": m["options"],
                        "meta": [*m["meta"], f"load_log={m['load_log']}", f"db_copy={how}"],
                        "attach": [f"manifest={manifest}"]})
    if len(entries) == 1:  # the others' loads failed: a plain run
        e = entries[0]
        target = ["--db", e["db"], "--log", e["log"], *_flags("-o", e["options"]), *_flags("--meta", e["meta"]),
                  *_flags("--attach", e["attach"])]
    else:
        spec = Path(args.db, "members.json")
        write_text(spec, json.dumps({"members": entries}, indent=1) + "\n")
        target = ["--interleave", str(spec), "--interleave-batch", str(args.batch)]
    args.limits = str(out / "job.limits.json")
    try:
        status, reason = run_job(args, common, target)
    finally:
        shutil.rmtree(args.db, ignore_errors=True)
    job_report = Path(args.limits)
    for m in live:
        if job_report.exists():
            shutil.copyfile(job_report, _paths(out, m)[1])
    job_report.unlink(missing_ok=True)
    if status == 0:
        return 0
    if wrong := [str(log) for m in live if Path(f"{(log := _paths(out, m)[0])}.failed").exists()]:
        print(f"error: {', '.join(wrong)}: wrong answers; see {'.failed, '.join(wrong)}.failed", file=sys.stderr)
        return 1
    for m in live:
        log, limits = _paths(out, m)
        failed_record(log, "run", reason, status, _meta(common, m), m["manifest"])
        ensure_limits_report(limits, reason)
    print(f"bench: interleaved run failed ({reason}); marked in every member's log", file=sys.stderr)
    return 0


def member(args):
    """A run's log and limits report, copied from its interleaved job's folder
    (a copy, not a link: its time is this job's, as Snakemake expects)."""
    for name, dst in ((f"{args.point}.jsonl", args.log), (f"{args.point}.limits.json", args.limits)):
        src = Path(args.source, name)
        if not src.is_file():
            raise InputError(args.source, name, "the interleaved job's output for this run; the folder is incomplete: "
                                                "delete it to rerun the job")
        Path(dst).parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(f"{dst}.tmp")
        shutil.copyfile(src, tmp)
        tmp.replace(dst)
    return 0


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="run the members in one lsmbench")
    r.add_argument("--out", required=True, help="folder of the members' logs and limits reports")
    r.add_argument("--members", required=True, help="JSON list of the runs (module doc)")
    r.add_argument("--db", required=True, help="folder of the members' database copies")
    r.add_argument("--cache", choices=["warm", "cold"], default="warm")
    r.add_argument("--memory", required=True)
    r.add_argument("--open-memory", help="the limit until the open is done, for --memory N%%db (the scale's)")
    r.add_argument("--batch", type=int, default=BATCH_OPS, help=f"operations a turn (default {BATCH_OPS})")
    r.add_argument("--pages", choices=["auto", "shared", "own"], default="auto",
                   help="auto: a copy for every member after the first of its load when the members' loads "
                        "differ (module doc, Pages); shared: links only; own: copies also from one load")
    r.add_argument("--allow-unenforced", action="store_true")
    m = sub.add_parser("member", help="one run's log and limits from its interleaved job")
    m.add_argument("--from", dest="source", required=True)
    m.add_argument("--point", required=True)
    m.add_argument("--log", required=True)
    m.add_argument("--limits", required=True)
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["run"]:
        sys.exit(run(parse_with_lsmbench(ap, argv, "run: ")))
    args = ap.parse_args(argv)
    sys.exit(member(args))


if __name__ == "__main__":
    main()
