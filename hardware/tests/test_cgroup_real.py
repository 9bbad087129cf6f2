"""The runner against this machine's real memory cgroup (v1 or v2).

Needs root and a memory cgroup the runner may create children in; skipped with
the reason elsewhere. On the project's machines (cgroup v1 memory controller,
root) these run: the limit must really hold there.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hardware.cgroups import NotPermitted, choose_backend
from conftest import REPO, one_error_line, run_module

MIB = 1 << 20
LIMIT = 48 * MIB


def _backend_or_reason():
    if os.geteuid() != 0:
        return None, "needs root to create memory cgroups"
    try:
        b = choose_backend()
    except OSError as e:
        return None, f"cannot read /proc cgroup information: {e}"
    if b is None:
        return None, "no memory cgroup (v1 memory hierarchy or v2 memory controller) mounted"
    try:
        b.create(None).remove()
        b.remove_parent_if_empty()
    except (NotPermitted, OSError) as e:
        return None, f"cannot create a memory cgroup here: {e}"
    return b, None


BACKEND, REASON = _backend_or_reason()
pytestmark = pytest.mark.skipif(BACKEND is None, reason=f"real cgroup tests: {REASON}")


def _fstype(path):
    best, fstype = "", None
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        f = line.split(" - ")
        mp = f[0].split()[4]
        if (str(path) + "/").startswith(mp.rstrip("/") + "/") and len(mp) >= len(best):
            best, fstype = mp, f[1].split()[0]
    return fstype


@pytest.fixture
def disk_dir(disk_tmp_path):
    """A directory whose page cache can be evicted (not tmpfs)."""
    d = Path(os.environ.get("LSMBENCH_TEST_DIR", disk_tmp_path))
    if _fstype(d.resolve()) in ("tmpfs", "ramfs", None):
        pytest.skip(f"{d} is on {_fstype(d)}; set LSMBENCH_TEST_DIR to a disk directory")
    d = d / f"cgroup-test-{os.getpid()}"
    d.mkdir(parents=True, exist_ok=True)
    yield d
    shutil.rmtree(d, ignore_errors=True)


def resident_bytes(path):
    """Bytes of `path` in the page cache (mincore via util-linux fincore)."""
    if not shutil.which("fincore"):
        pytest.skip("fincore (util-linux) is needed to measure resident page cache")
    out = subprocess.run(["fincore", "--bytes", "--noheadings", "--output", "RES", str(path)],
                         capture_output=True, text=True, check=True).stdout
    return int(out.split()[0])


def job_cgroups(runner_pid):
    return [p for p in BACKEND.parent.glob(f"{runner_pid}-*")] if BACKEND.parent.exists() else []


def test_reader_page_cache_stays_under_the_limit(disk_dir):
    big = disk_dir / "big.bin"
    block = os.urandom(MIB)
    with open(big, "wb") as f:
        for _ in range(160):
            f.write(block)
    size = big.stat().st_size
    report = disk_dir / "limited.json"
    # two passes over a 160 MiB file under a 48 MiB limit, page cache evicted first
    p = run_module("cgroup_run", "--memory", "48MiB", "--evict", big, "--report", report,
                   "--", "sh", "-c", f"cat {big} {big} > /dev/null")
    assert p.returncode == 0, p.stderr
    r = json.loads(report.read_text())
    assert r["enforced"] and r["mechanism"] in ("cgroup-v1", "cgroup-v2")
    assert r["limit_bytes"] == LIMIT
    assert r["swap_limited"] and r["oom_kills"] == 0 and not r["oom_killed"]
    assert 0 < r["peak_bytes"] <= LIMIT
    limited = resident_bytes(big)
    assert limited <= LIMIT, f"{limited} bytes of the file resident under a {LIMIT} limit"
    # the same read without a limit keeps (nearly) the whole file cached
    p = run_module("cgroup_run", "--memory", "none", "--evict", big, "--report", report,
                   "--", "sh", "-c", f"cat {big} > /dev/null")
    assert p.returncode == 0, p.stderr
    r = json.loads(report.read_text())
    assert r["limit_bytes"] is None and r["enforced"]
    assert resident_bytes(big) > 0.9 * size
    assert r["peak_bytes"] > 0.9 * size     # page cache counted in the peak


def test_allocator_past_the_limit_is_oom_killed(tmp_path):
    report = tmp_path / "r.json"
    p = run_module("cgroup_run", "--memory", "48MiB", "--report", report, "--",
                   sys.executable, "-c", "x = b'x' * (256 << 20); print('survived')")
    assert p.returncode == 137, p.stderr
    assert "survived" not in p.stdout
    assert "OOM-killed" in p.stderr
    r = json.loads(report.read_text())
    assert r["oom_killed"] is True and r["oom_kills"] >= 1
    assert r["exit_status"] == 137 and r["signal"] == "SIGKILL"
    assert r["peak_bytes"] <= LIMIT
    assert not Path(r["cgroup"]).exists()


def _start_runner(tmp_path, *extra):
    info = tmp_path / "job.txt"
    report = tmp_path / "r.json"
    runner = subprocess.Popen(
        [sys.executable, "-m", "hardware.cgroup_run", "--memory", "64MiB", *extra,
         "--report", str(report), "--",
         "sh", "-c", f'echo "$LSMBENCH_CGROUP" > {info}.tmp; echo $$ >> {info}.tmp; '
                     f'mv {info}.tmp {info}; exec sleep 60'],
        cwd=REPO, env=dict(os.environ, PYTHONPATH=str(REPO)),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    end = time.monotonic() + 20
    while not info.exists():
        assert runner.poll() is None, runner.communicate()
        assert time.monotonic() < end, "the job did not start"
        time.sleep(0.02)
    cgroup, pid = info.read_text().split()
    assert Path(cgroup).is_dir()
    assert str(pid) in Path(cgroup, "cgroup.procs").read_text().split()
    return runner, Path(cgroup), int(pid), report


def _gone(path, pid, within=10.0):
    end = time.monotonic() + within
    while time.monotonic() < end:
        alive = True
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            alive = False
        if not path.exists() and not alive:
            return True
        time.sleep(0.05)
    return False


def test_sigkill_of_the_runner_leaves_no_cgroup(tmp_path):
    runner, cgroup, job_pid, _ = _start_runner(tmp_path)
    os.kill(runner.pid, signal.SIGKILL)
    runner.wait()
    assert _gone(cgroup, job_pid), f"{cgroup} or job {job_pid} survived SIGKILL of the runner"


def test_sigterm_of_the_runner_stops_the_job_and_reports(tmp_path):
    runner, cgroup, job_pid, report = _start_runner(tmp_path)
    runner.send_signal(signal.SIGTERM)
    runner.communicate(timeout=20)
    assert runner.returncode == 128 + signal.SIGTERM
    assert _gone(cgroup, job_pid)
    r = json.loads(report.read_text())
    assert r["signal"] == "SIGTERM" and r["exit_status"] == 143


def test_timeout_kills_the_job_and_removes_the_cgroup(tmp_path):
    report = tmp_path / "r.json"
    t0 = time.monotonic()
    p = run_module("cgroup_run", "--memory", "64MiB", "--timeout", "0.5", "--report", report,
                   "--", "sleep", "30")
    assert p.returncode == 124 and time.monotonic() - t0 < 15
    r = json.loads(report.read_text())
    assert r["timed_out"] and not Path(r["cgroup"]).exists()


def test_job_killed_by_sigkill_fails_and_its_cgroup_goes(tmp_path):
    report = tmp_path / "r.json"
    p = run_module("cgroup_run", "--memory", "64MiB", "--report", report,
                   "--", "sh", "-c", "kill -9 $$")
    assert p.returncode == 137
    r = json.loads(report.read_text())
    assert r["signal"] == "SIGKILL" and r["oom_killed"] is False
    assert not Path(r["cgroup"]).exists()


def test_stale_cgroup_of_a_dead_runner_is_removed(tmp_path):
    dead = subprocess.Popen(["true"])
    dead.wait()
    BACKEND.parent.mkdir(exist_ok=True)
    stale = BACKEND.parent / f"{dead.pid}-deadbeef"
    stale.mkdir()
    p = run_module("cgroup_run", "--memory", "64MiB", "--", "true")
    assert p.returncode == 0, p.stderr
    assert not stale.exists()


def test_missing_command_is_one_line_and_leaves_nothing():
    p = subprocess.Popen([sys.executable, "-m", "hardware.cgroup_run", "--memory", "64MiB",
                          "--", "/nonexistent/lsmbench"], cwd=REPO,
                         env=dict(os.environ, PYTHONPATH=str(REPO)),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = p.communicate(timeout=30)
    assert "an executable on PATH" in one_error_line(
        subprocess.CompletedProcess(p.args, p.returncode, out, err))
    assert job_cgroups(p.pid) == []


def test_cache_after_open_keeps_the_budget_above_the_jobs_own_memory(disk_dir):
    # The job reads a 96 MiB file (its page cache), holds 32 MiB of its own,
    # says its open is done and waits; the runner then sets the limit to its
    # own memory plus a 16 MiB page-cache budget, and the kernel reclaims the
    # cache down to it before the job goes on.
    big = disk_dir / "db.bin"
    block = os.urandom(MIB)
    with open(big, "wb") as f:
        for _ in range(96):
            f.write(block)
    report = disk_dir / "r.json"
    job = (f"import os, time\n"
           f"own = bytearray(os.urandom(32 << 20))\n"
           f"open({str(big)!r}, 'rb').read()\n"
           f"ready = os.environ['LSMBENCH_READY_FILE']\n"
           f"open(ready, 'w').close()\n"
           f"while os.path.exists(ready): time.sleep(0.005)\n"
           f"print(len(own))\n")
    p = run_module("cgroup_run", "--memory", "1GiB", "--evict", big, "--cache-after-open", 16 * MIB,
                   "--db-bytes", 96 * MIB, "--report", report, "--", sys.executable, "-c", job)
    assert p.returncode == 0, p.stderr
    r = json.loads(report.read_text())
    assert r["enforced"] and r["limit_initial_bytes"] == 1 << 30
    assert r["own_bytes_at_open"] >= 32 * MIB
    assert r["limit_bytes"] <= r["own_bytes_at_open"] + 16 * MIB
    assert r["cache_bytes_at_run"] <= 16 * MIB + 4 * MIB
    assert r["db_bytes"] == 96 * MIB and r["cache_budget_bytes"] == 16 * MIB
