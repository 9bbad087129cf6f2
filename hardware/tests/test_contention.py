"""The runner's measure of what else used the CPUs while a job ran."""
import json
import os
import subprocess
import sys

import pytest

from hardware.contention import HostSample, contention, read_cpu_jiffies
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
