"""Crash test for the LevelDB family (RocksDB's db_crashtest.py blackbox in
spirit): wisckey's value log, leveldb-learned (every table index, SLR, fp,
level models), bourbon (file and level models, always and cba learning),
rocksdb-doblix (DobLIX PLA/PRA, the agent retuning, the baselines on its
format, RocksDB's own table).

Starts `crash_tool load` on a database, SIGKILLs it at a random moment
(tables are flushed and compacted every 64 KiB of writes, and bourbon's
learner trains in the background, so kills land in loads, flushes,
compactions and learning), reopens the database with `crash_tool dump`
(no repair, paranoid checks, checksums verified) and requires that every
acknowledged op is there with its value and nothing else is, and that a full
compaction then runs and keeps the same entries; repeats for --rounds rounds
on the same database, so recovery itself is also killed into and recovered
from. Each round opens the database with the next table format of the
variant's list (FORMATS), so one database holds tables of all of them.

An op is acknowledged when the tool reported it returned ("A" line): its
Put/Delete/Write returned OK, and with it the WAL and value-log records were
write()n (a process kill keeps what reached the kernel; every 16th op is also
synced). The op the tool was in when killed ("B" without "A") may or may not
be there, but never half (a two-put batch survives whole or not at all).

    python -m engines.crashtest wisckey --rounds 300       # the long runs
    python -m engines.crashtest leveldb-learned --rounds 300
    python -m engines.crashtest bourbon --rounds 300
    python -m engines.crashtest rocksdb-doblix --rounds 300
"""
import argparse
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from base.errors import InputError, cli

HERE = Path(__file__).resolve().parent
REPO = HERE.parent


def value_of(key, op):
    """Must match crash_workload.h's ValueOf()."""
    return f"{key}:{op}:" + chr(ord("a") + op % 26) * (op % 300)


# Per variant: the crash tool's format reader (crash_format.h) and the table
# format specs the rounds take in turn.
def _learned_formats():
    from indexes import registry as lidx
    return ([f"index={i},position_boundary=16" for i in lidx.table_ids()]
            + ["index=pgm,position_boundary=16,keep_keys=true", "index=native,slr=eq",
               "index=native,slr=ea", "index=pgm,position_boundary=16,granularity=level"])


FORMATS = {
    "leveldb": ("plain", lambda: [""]),
    "wisckey": ("plain", lambda: [""]),
    "leveldb-learned": ("learned", _learned_formats),
    "bourbon": ("bourbon", lambda: ["learning=always,t_wait_us=2000",
                                    "learning=cba,t_wait_us=2000",
                                    "learning=always,granularity=level,t_wait_us=2000"]),
    # rocksdb_crash_tool.cc: the DobLIX table (PLA, PRA, the agent retuning
    # at every new table, a filter) and the two baselines on its format (one
    # reader opens them all; RocksDB's block-based reader does not, so the
    # block table is not in the turn).
    "rocksdb-doblix": ("rocksdb", lambda: [
        "model=pla;error=8;max_block_size=1024", "model=pra;max_block_size=2048",
        "model=agent;agent_period=1", "model=pla;error=64;filter_policy=bloomfilter:10:false",
        "model=bourbon;error=8;max_block_size=1024", "model=tridentkv;max_block_size=4096"]),
}

# Where each family's library and sources are, under the build folder.
LIBRARY = {"rocksdb": ("rocksdb", "librocksdb.a")}


def _family(engine):
    if engine not in FORMATS:
        raise InputError("engines/crashtest.py", "engine", f"one of {', '.join(FORMATS)} expected, got {engine!r}")
    return FORMATS[engine]


def formats(engine):
    return _family(engine)[1]()


def build_tool(engine, build_dir):
    reader = _family(engine)[0]
    library_engine, library = LIBRARY.get(reader, (engine, "libleveldb.a"))
    work = (Path(build_dir) / "engines" / library_engine).resolve()
    lib = work / "lib-build" / library
    if not lib.exists():
        raise InputError(lib, "engine", f"a built {library_engine} expected (./reproduce engines)")
    out = (Path(build_dir) / "engines" / engine).resolve() / "crash-tool"
    for cmd in (["cmake", "-S", HERE / "crashtest", "-B", out, "-G", "Ninja",
                 "-DCMAKE_BUILD_TYPE=Release", f"-DENGINE_SOURCE_DIR={work / 'src'}",
                 f"-DENGINE_LIBRARY={lib}", f"-DCRASH_FORMAT={reader}",
                 f"-DLAYER_INCLUDE_DIRS={REPO / 'indexes' / 'include'}"],
                ["cmake", "--build", out]):
        r = subprocess.run(list(map(str, cmd)), capture_output=True, text=True)
        if r.returncode:
            raise SystemExit(f"error: building the crash tool failed:\n{r.stdout}{r.stderr}")
    return out / "crash_tool"


def apply(state, kind, key, op, ops):
    """The effect of one op on the expected {key: value or None}."""
    if kind == "P":
        state[key] = value_of(int(key, 16), op)
    elif kind == "D":
        state[key] = None
    else:
        state[key] = value_of(int(key, 16), op)
        key2 = f"{int(key, 16) + 100000:016x}"
        state[key2] = value_of(int(key2, 16), op)


def one_round(tool, db, seed, first_op, expected, rng, max_wait, spec=""):
    """One kill and check; returns the ops acknowledged and the next op number."""
    load = subprocess.Popen([str(tool), "load", str(db), str(seed), str(first_op)] + ([spec] if spec else []),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(rng.uniform(0, max_wait))
    load.send_signal(signal.SIGKILL)
    out, err = load.communicate()
    if load.returncode != -signal.SIGKILL:
        raise AssertionError(f"loader ended by itself ({load.returncode}): {err.decode()[-2000:]}")
    acked, pending, last_op = 0, None, first_op - 1
    for line in out.decode().splitlines():
        parts = line.split()
        if len(parts) != 4:  # the kill cut the last report short
            continue
        tag, kind, key, op = parts[0], parts[1], parts[2], int(parts[3])
        last_op = max(last_op, op)
        if tag == "B":
            pending = (kind, key, op)
        else:
            apply(expected, kind, key, op, None)
            acked += 1
            pending = None
    dump = subprocess.run([str(tool), "dump", str(db)] + ([spec] if spec else []),
                          capture_output=True, text=True)
    if dump.returncode:
        raise AssertionError(f"reopen failed after a kill ({spec or 'default format'}): {dump.stderr}")
    got = dict(line.split(" ", 1) for line in dump.stdout.splitlines())
    want_now = {k: v for k, v in expected.items() if v is not None}
    if got != want_now:
        if pending is None:
            raise AssertionError(diff(want_now, got))
        with_pending = dict(expected)
        apply(with_pending, *pending, None)
        with_pending = {k: v for k, v in with_pending.items() if v is not None}
        if got != with_pending:
            raise AssertionError(f"neither without nor with the in-flight op {pending}: "
                                 + diff(want_now, got))
        expected.clear()
        expected.update(dict(with_pending))
    return acked, last_op + 1


def diff(want, got):
    missing = [k for k in want if k not in got]
    extra = [k for k in got if k not in want]
    wrong = [k for k in want if k in got and got[k] != want[k]]
    return (f"acknowledged writes lost or changed: {len(missing)} missing (e.g. {missing[:3]}), "
            f"{len(extra)} unexpected (e.g. {extra[:3]}), {len(wrong)} wrong (e.g. {wrong[:3]})")


def run(engine, rounds, seed, build_dir, max_wait, work=None):
    """Kills `rounds` times; returns (acknowledged ops, keys live at the end)."""
    tool = build_tool(engine, build_dir)
    specs = formats(engine)
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(dir=work) as tmp:
        db = Path(tmp) / "db"
        expected, op, total = {}, 0, 0
        for r in range(rounds):
            acked, op = one_round(tool, db, rng.randrange(2**32), op, expected, rng, max_wait,
                                  specs[r % len(specs)])
            total += acked
        return total, len(expected)


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("engine")
    ap.add_argument("--rounds", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-wait", type=float, default=1.5, help="seconds before the kill, at most")
    ap.add_argument("--build-dir", default="build")
    args = ap.parse_args(argv)
    total, keys = run(args.engine, args.rounds, args.seed, args.build_dir, args.max_wait)
    print(f"crashtest {args.engine}: {args.rounds} kills, {total} acknowledged ops, "
          f"all present after every reopen and full compaction ({keys} keys live; "
          f"{len(formats(args.engine))} table formats in turn)")


if __name__ == "__main__":
    main()
