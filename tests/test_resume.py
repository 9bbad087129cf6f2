"""End to end: ./reproduce stopped and started again (issue 33, item 6).

One figure's leveldb runs at the smoke scale (4 loads, 4 runs), run without
a stop; then, from the same machine calibration and datasets: killed with
SIGTERM once a run is done and another benchmark job is in flight, started
again, killed with SIGKILL likewise, started again to the end. It ends with
the same files as the run without a stop, the datasets untouched, every raw
log whole (lsmbench's end record, verified answers, its runner's report of a
clean exit), the same tidy rows, no temporary, `.failed` or work-copy file,
no cgroup and no benchmark process left, and nothing more to do.

It runs in a copy of the checkout (its own .snakemake, this checkout's
build folder): ./reproduce removes a killed Snakemake's locks only when no
other Snakemake runs in its folder, and the other tests (on another xdist
worker) start Snakemake in this checkout at any moment."""
import json
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pandas as pd
import pytest

from tests import checkout_snakemake

REPO = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.e2e
TARGET = ["baseline/point", "--config", "scale=smoke", "select=engine=leveldb"]
RUNS = 4


def _copy_checkout(dest):
    """Tracked and untracked (not ignored) files, their times kept, so this
    checkout's builds stay newer than their sources; the same .venv."""
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPO,
                           capture_output=True, check=True, text=True).stdout.split("\0")
    for f in filter(None, files):
        if (REPO / f).is_file():
            (dest / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / f, dest / f)
    (dest / ".venv").symlink_to((REPO / ".venv").resolve())
    return dest


@pytest.fixture
def checkout(tmp_path, built):
    # made here first: the copy's Snakemake may not rebuild this checkout's
    # builds (CMake refuses another source folder)
    built("leveldb")
    r = checkout_snakemake.build("build/workloads/datagen", "build/lidx-tools/lidx_hardness")
    assert r.returncode == 0, r.stderr[-3000:]
    return _copy_checkout(tmp_path / "checkout")


def _reproduce(results, *extra):
    return ["./reproduce", *TARGET, f"results_dir={results}", f"build_dir={REPO / 'build'}", *extra]


def _start(checkout, results):
    # its own session: the kill reaches Snakemake alone, as `kill PID` would
    return subprocess.Popen(_reproduce(results), cwd=checkout, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)


def _bench_jobs(results):
    """Pids of benchmark jobs (lsmrepro.run.bench) writing into results."""
    pids = []
    for proc in Path("/proc").iterdir():
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"lsmrepro.run.bench" in argv and any(str(results).encode() in a for a in argv):
            pids.append(int(proc.name))
    return pids


def _run_logs(results):
    return sorted((results / "smoke" / "raw" / "baseline" / "point").glob("*/r*.jsonl"))


def _kill_mid_run(checkout, results, sig, timeout=240):
    """Starts the target, waits until a run of this attempt is done and another
    benchmark job runs, sends sig to Snakemake; returns its output."""
    before = len(_run_logs(results))
    proc = _start(checkout, results)
    deadline = time.monotonic() + timeout
    while not (len(_run_logs(results)) > before and _bench_jobs(results)):
        assert proc.poll() is None, f"finished before it could be killed:\n{proc.stdout.read()[-3000:]}"
        assert time.monotonic() < deadline, "no second benchmark job in flight"
        time.sleep(0.05)
    proc.send_signal(sig)
    out, _ = proc.communicate(timeout=timeout)
    assert proc.returncode != 0, out[-3000:]
    return out


def _files(results):
    return sorted(str(p.relative_to(results)) for p in results.rglob("*") if p.is_file())


def _benchmark_outputs(results):
    """What the target makes after the machine's calibration and the datasets."""
    smoke = results / "smoke"
    return [p for p in smoke.iterdir() if p.name not in ("hardware", "datasets", "logs")] + \
        [p for p in (smoke / "logs").iterdir() if p.name not in ("hardware", "datasets")]


def _check_whole(results):
    smoke = results / "smoke"
    logs = _run_logs(results)
    assert len(logs) == RUNS
    for log in [*logs, *(smoke / "raw" / "loads").glob("*.jsonl")]:
        records = [json.loads(line) for line in log.read_text().splitlines()]
        assert records[-1]["type"] == "end" and not any(r["type"] == "failed" for r in records), log
        report = json.loads(Path(str(log)[: -len(".jsonl")] + ".limits.json").read_text())
        assert report["exit_status"] == 0 and report.get("signal") is None, (log, report)
        if report.get("cgroup"):
            assert not Path(report["cgroup"]).exists(), f"cgroup left: {report['cgroup']}"
    for log in logs:
        check = next(r for r in map(json.loads, log.read_text().splitlines()) if r["type"] == "check")
        assert check["wrong"] == 0 and check["verified"] > 0, log
    for tsv in (smoke / "benchmarks").rglob("*.tsv"):
        assert len(tsv.read_text().splitlines()) == 2, tsv  # header and the job's one line
    leftovers = [f for f in _files(results) if ".tmp" in f or f.endswith(".failed") or "/db/runs/" in f]
    assert not leftovers, leftovers
    assert not _bench_jobs(results)


def _tidy_rows(results):
    """The tidy table's (run, metric, subset) rows: values are timings."""
    keys = ["run", "metric", "subset"]
    tidy = pd.read_csv(results / "smoke" / "tidy" / "baseline" / "point.csv", keep_default_na=False)
    return tidy[keys].sort_values(keys).reset_index(drop=True)


def test_killed_twice_then_resumed_ends_like_an_uninterrupted_run(tmp_path, checkout):
    """The uninterrupted run first; then its outputs but the calibration and
    the datasets go, and the same target is killed twice and resumed."""
    results = tmp_path / "results"
    whole = subprocess.run(_reproduce(results), cwd=checkout, capture_output=True, text=True)
    assert whole.returncode == 0, (whole.stdout + whole.stderr)[-4000:]
    _check_whole(results)
    files, rows = _files(results), _tidy_rows(results)
    datasets = {p: p.read_bytes() for p in (results / "smoke" / "datasets").rglob("*") if p.is_file()}
    for path in _benchmark_outputs(results):
        shutil.rmtree(path) if path.is_dir() else path.unlink()

    _kill_mid_run(checkout, results, signal.SIGTERM)
    # Snakemake lets the job in flight finish, then stops: nothing is half-written
    _kill_mid_run(checkout, results, signal.SIGKILL)
    # its job in flight notices within a second or two and stops, removing what it wrote
    deadline = time.monotonic() + 30
    while _bench_jobs(results):
        assert time.monotonic() < deadline, "a benchmark job outlived the Snakemake that was killed"
        time.sleep(0.2)
    done = subprocess.run(_reproduce(results), cwd=checkout, capture_output=True, text=True)
    assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]
    assert "lock file(s) of a run that was killed" in done.stderr  # Snakemake's own, else it would refuse to start
    assert _files(results) == files
    assert all(path.read_bytes() == data for path, data in datasets.items())
    _check_whole(results)
    pd.testing.assert_frame_equal(_tidy_rows(results), rows)
    again = subprocess.run(_reproduce(results, "--dry-run"), cwd=checkout, capture_output=True, text=True)
    assert "Nothing to be done" in again.stdout + again.stderr
