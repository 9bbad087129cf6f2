"""A benchmark job told to stop leaves nothing a restart would take as a
result (lsmrepro/run/bench.py, base/jobguard.py): the job itself here is a
process that only waits, as what is tested is the supervision around it."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from base.jobguard import OWNER_ENV
from lsmrepro.run import bench

REPO = Path(__file__).resolve().parent.parent
WAITS = [sys.executable, "-c", "import time; time.sleep(60)"]  # stands for lsmbench; takes its flags as argv


def _start_load(tmp_path, env):
    db, log, limits = tmp_path / "loads" / "l1", tmp_path / "raw" / "l1.jsonl", tmp_path / "raw" / "l1.limits.json"
    log.parent.mkdir(parents=True)
    # what a killed attempt left: part of a database, lsmbench's temporary log
    (db / "000005.ldb").parent.mkdir(parents=True)
    (db / "000005.ldb").write_bytes(b"half")
    Path(f"{log}.tmp").write_text('{"type": "run"}\n')
    proc = subprocess.Popen([sys.executable, "-m", "lsmrepro.run.bench", "load", "--db", str(db), "--log", str(log),
                             "--limits", str(limits), "--memory", "none", "--", *WAITS],
                            cwd=REPO, env=env, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while Path(f"{log}.tmp").exists() or (db / "000005.ldb").exists():
        assert time.monotonic() < deadline and proc.poll() is None, proc.stderr.read()
        time.sleep(0.05)  # the leftovers are gone: the job runs
    return proc, db, log, limits


def _assert_stopped(proc, tmp_path, db, log, limits):
    t0 = time.monotonic()
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 1 and "stopped before its end" in err, err
    assert time.monotonic() - t0 < 15
    assert not db.exists() and not log.exists() and not limits.exists(), err  # no failure mark either
    assert not [p for p in (tmp_path / "raw").iterdir()], list((tmp_path / "raw").iterdir())


@pytest.mark.parametrize("how", ["owner gone", "SIGTERM"])
def test_a_stopped_load_leaves_nothing(tmp_path, how):
    owner = subprocess.Popen(["sleep", "600"])
    try:
        proc, db, log, limits = _start_load(tmp_path, {**os.environ, OWNER_ENV: str(owner.pid)})
        time.sleep(2)  # the runner has started the job
        if how == "owner gone":
            owner.kill()
            owner.wait()
        else:
            proc.send_signal(signal.SIGTERM)
        _assert_stopped(proc, tmp_path, db, log, limits)
    finally:
        owner.kill()
        owner.wait()


def test_a_load_cut_short_is_never_run_from(tmp_path):
    db = tmp_path / "loads" / "l1"
    db.mkdir(parents=True)
    for name, size in (("000005.ldb", 100), ("MANIFEST-000002", 10)):
        (db / name).write_bytes(b"x" * size)
    (db / bench.LOADED_MARK).write_text(json.dumps({"files": bench.db_files(db)}))
    (db / ".snakemake_timestamp").touch()  # Snakemake's, after the load job
    bench.check_loaded(db)
    (db / "000005.ldb").unlink()  # as a Snakemake killed while deleting it leaves it
    with pytest.raises(bench.InputError, match=bench.LOADED_MARK):
        bench.check_loaded(db)
    (db / bench.LOADED_MARK).unlink()
    with pytest.raises(bench.InputError, match="cut short"):
        bench.check_loaded(db)
