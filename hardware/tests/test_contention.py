"""The runner's measure of what else used the CPUs while a job ran."""
import json
import os
import subprocess
import sys

import pytest

from hardware.contention import (HostSample, attribute_others, contention, read_cpu_jiffies,
                                 read_process_ticks)
from conftest import run_module

SPIN = "import time\nt = time.process_time()\nwhile time.process_time() - t < {s}: pass\n"


def test_cpu_line_busy_and_steal(tmp_path):
    stat = tmp_path / "stat"
    # user nice system idle iowait irq softirq steal guest guest_nice
    stat.write_text("cpu  100 20 30 5000 70 4 6 9 50 0\ncpu0 50 10 15 2500 35 2 3 4 25 0\n")
    assert read_cpu_jiffies(stat) == (100 + 20 + 30 + 4 + 6 + 9, 9)
    stat.write_text("cpu0 1 2 3 4\n")
    with pytest.raises(ValueError, match="no aggregate 'cpu' line"):
        read_cpu_jiffies(stat)


def test_others_are_the_hosts_busy_time_less_the_jobs():
    hz = os.sysconf("SC_CLK_TCK")
    start = HostSample(busy_ticks=1000, steal_ticks=10, loadavg=0.5, children_cpu_seconds=2.0)
    end = HostSample(busy_ticks=1000 + 3 * hz, steal_ticks=10 + hz // 2, loadavg=1.5,
                     children_cpu_seconds=3.0)
    c = contention(start, end, wall_seconds=2.0, cpus=2)
    assert c["host_busy_cpu_seconds"] == 3.0 and c["job_cpu_seconds"] == 1.0
    assert c["other_cpu_seconds"] == 2.0 and c["other_cpu_share"] == 0.5
    assert c["steal_seconds"] == pytest.approx(0.5, abs=1 / hz)
    assert (c["loadavg_start"], c["loadavg_end"]) == (0.5, 1.5)
    # the job alone on the host: nothing is left for others, never below 0
    idle = HostSample(busy_ticks=1000 + hz - 1, steal_ticks=10, loadavg=0.5, children_cpu_seconds=3.0)
    assert contention(start, idle, wall_seconds=1.0, cpus=2)["other_cpu_seconds"] == 0.0


def test_a_busy_neighbour_and_the_jobs_own_cpu_are_reported(tmp_path):
    """A job spinning for 0.6 s of CPU beside a process spinning throughout:
    the job's CPU is its own, the neighbour's shows as others'."""
    neighbour = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        report = tmp_path / "r.json"
        p = run_module("cgroup_run", "--memory", "none", "--report", report, "--",
                       sys.executable, "-c", SPIN.format(s=0.6))
    finally:
        neighbour.kill()
        neighbour.wait()
    assert p.returncode == 0, p.stderr
    r = json.loads(report.read_text())
    assert r["job_cpu_seconds"] >= 0.6
    # the neighbour had a CPU to itself for most of the job's wall time
    assert r["other_cpu_seconds"] >= 0.5 * r["wall_seconds"], r
    assert 0 < r["other_cpu_share"] <= 1 and r["host_cpus"] == os.cpu_count()
    # ... and it is named among the busiest, as a process, not a kernel thread
    assert r["other_processes_cpu_seconds"] >= 0.5 * r["wall_seconds"], r
    named = {t["pid"]: t["cpu_seconds"] for t in r["other_top"]}
    # (a quarter of the wall at least: on 2 CPUs it may share one with another busy process)
    assert named.get(neighbour.pid, 0) >= 0.25 * r["wall_seconds"], r["other_top"]
    assert r["runner_cpu_seconds"] < r["other_processes_cpu_seconds"]


def test_process_ticks_read_names_with_spaces_and_parentheses(tmp_path):
    def stat(pid, name, ppid, utime, stime, start):
        # pid (name) state ppid pgrp session tty tpgid flags minflt cminflt
        # majflt cmajflt utime stime cutime cstime priority nice threads
        # itrealvalue starttime ...
        d = tmp_path / str(pid)
        d.mkdir()
        d.joinpath("stat").write_text(
            f"{pid} ({name}) S {ppid} 1 1 0 -1 0 0 0 0 0 {utime} {stime} 7 7 20 0 1 0 {start} 0\n")
    stat(2, "kthreadd", 0, 0, 1, 5)
    stat(40, "kworker/u8:1-writeback", 2, 30, 70, 9)
    stat(77, "a (b) c", 1, 12, 3, 1234)
    (tmp_path / "self").mkdir()  # not a pid: skipped
    assert read_process_ticks(tmp_path) == {
        (2, 5): ("kthreadd", 0, 1),
        (40, 9): ("kworker/u8:1-writeback", 2, 100),
        (77, 1234): ("a (b) c", 1, 15),
    }


def test_others_are_split_into_kernel_threads_processes_and_the_runner():
    hz = 100
    start = {(2, 5): ("kthreadd", 0, 10), (40, 9): ("kworker/0:1", 2, 100),
             (77, 50): ("snakemake", 1, 1000), (90, 60): ("python", 77, 5),
             (91, 61): ("gone", 1, 7), (92, 62): ("idle", 1, 3)}
    end = {(2, 5): ("kthreadd", 0, 10), (40, 9): ("kworker/0:1-writeback", 2, 350),
           (77, 50): ("snakemake", 1, 1030), (90, 60): ("python", 77, 25),
           (92, 62): ("idle", 1, 3),
           # started inside the window (the job, or anything short): not seen
           (93, 70): ("lsmbench", 90, 900),
           # pid 91 reused by a new process: a different start time
           (91, 99): ("new", 1, 400)}
    r = attribute_others(start, end, hz, runner_pid=90)
    assert r["other_kernel_threads_cpu_seconds"] == 2.5
    assert r["other_processes_cpu_seconds"] == 0.3
    assert r["runner_cpu_seconds"] == 0.2
    assert r["other_top"] == [{"pid": 40, "name": "kworker/0:1-writeback", "cpu_seconds": 2.5},
                              {"pid": 77, "name": "snakemake", "cpu_seconds": 0.3}]


def test_the_unattributed_rest_is_what_neither_sample_saw():
    hz = os.sysconf("SC_CLK_TCK")
    procs0 = {(40, 9): ("kworker/0:1", 2, 0), (77, 50): ("snakemake", 1, 0)}
    procs1 = {(40, 9): ("kworker/0:1", 2, hz), (77, 50): ("snakemake", 1, hz // 2)}
    start = HostSample(busy_ticks=0, steal_ticks=0, loadavg=0, children_cpu_seconds=0,
                       processes=procs0)
    end = HostSample(busy_ticks=4 * hz, steal_ticks=0, loadavg=0, children_cpu_seconds=2.0,
                     processes=procs1)
    c = contention(start, end, wall_seconds=2.0, cpus=2)
    assert c["other_cpu_seconds"] == 2.0
    assert c["other_kernel_threads_cpu_seconds"] == 1.0
    assert c["other_processes_cpu_seconds"] == pytest.approx(0.5, abs=1 / hz)
    assert c["other_unattributed_cpu_seconds"] == pytest.approx(0.5, abs=1 / hz)
