"""What else used the host's CPUs while one job ran.

A benchmark on a shared machine cannot keep its neighbours away, but it can
measure them, so that a slow run explains itself instead of being guessed
at afterwards. The host's busy CPU time over the job (/proc/stat: every
state but idle and iowait, steal included) minus the job's own CPU time
(its rusage, descendants included) is what others took:

  other_cpu_seconds / (wall_seconds * host_cpus) = other_cpu_share

0 on an otherwise idle host (the runner's own polling is in it, a few
milliseconds a second), 0.5 when neighbours kept one of two CPUs busy.
Nice'd neighbours count: they still share caches, memory bandwidth and the
device.
"""
import os
import resource
from dataclasses import dataclass

# /proc/stat's aggregate `cpu` line (man 5 proc): user nice system idle
# iowait irq softirq steal guest guest_nice; guest time is inside user.
_BUSY = (0, 1, 2, 5, 6, 7)
_STEAL = 7


def read_cpu_jiffies(path="/proc/stat"):
    """(busy, steal) clock ticks of all CPUs since boot."""
    with open(path) as f:
        for line in f:
            if line.startswith("cpu "):
                ticks = [int(x) for x in line.split()[1:]]
                ticks += [0] * (8 - len(ticks))
                return sum(ticks[i] for i in _BUSY), ticks[_STEAL]
    raise ValueError(f"{path}: no aggregate 'cpu' line")


def read_loadavg(path="/proc/loadavg"):
    with open(path) as f:
        return float(f.read().split()[0])


def _children_cpu_seconds():
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


@dataclass
class HostSample:
    busy_ticks: int
    steal_ticks: int
    loadavg: float
    children_cpu_seconds: float

    @classmethod
    def take(cls, stat="/proc/stat", loadavg="/proc/loadavg"):
        busy, steal = read_cpu_jiffies(stat)
        return cls(busy, steal, read_loadavg(loadavg), _children_cpu_seconds())


def contention(start, end, wall_seconds, cpus=None):
    """The report's fields for the job between two samples (taken after
    the job was waited for, so its rusage is in `end`)."""
    hz = os.sysconf("SC_CLK_TCK")
    cpus = cpus or os.cpu_count() or 1
    busy = (end.busy_ticks - start.busy_ticks) / hz
    job = end.children_cpu_seconds - start.children_cpu_seconds
    # Tick granularity (1/hz per CPU) can put the difference a little below 0.
    other = max(0.0, busy - job)
    capacity = wall_seconds * cpus
    return {
        "host_cpus": cpus,
        "host_busy_cpu_seconds": round(busy, 3),
        "job_cpu_seconds": round(job, 3),
        "other_cpu_seconds": round(other, 3),
        "other_cpu_share": round(other / capacity, 4) if capacity > 0 else None,
        "steal_seconds": round((end.steal_ticks - start.steal_ticks) / hz, 3),
        "loadavg_start": start.loadavg,
        "loadavg_end": end.loadavg,
    }
