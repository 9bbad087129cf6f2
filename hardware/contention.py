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

The share alone cannot tell a neighbour from the kernel working for the job
(writeback of what it wrote, page reclaim run by kernel workers) or from the
workflow manager that started it (Snakemake's scheduler took up to 0.9 of 2
CPUs here before profiles/default/config.yaml), so the report also splits it by who was running at both samples: kernel threads
(children of kthreadd, pid 2), the runner itself, and other processes, with
the few that took most. A process that started and ended inside the job is
seen by neither sample; its time stays in the unattributed remainder, which
can also come out below zero: per-process times and /proc/stat are
accounted apart.
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


KTHREADD_PID = 2
TOP_OTHERS = 5


def read_process_ticks(proc="/proc"):
    """{(pid, start time): (name, parent pid, utime + stime ticks)} of every
    process (man 5 proc, /proc/pid/stat); the start time keeps a reused pid
    apart. Processes that vanish while being read are skipped."""
    out = {}
    for entry in os.scandir(proc):
        if not entry.name.isdigit():
            continue
        try:
            with open(os.path.join(entry.path, "stat")) as f:
                line = f.read()
        except OSError:
            continue
        # the name is in parentheses and may itself hold spaces or ')'
        name = line[line.index("(") + 1:line.rindex(")")]
        fields = line[line.rindex(")") + 2:].split()
        # fields[0] is field 3 (state): ppid 4, utime 14, stime 15, starttime 22
        out[(int(entry.name), int(fields[19]))] = (name, int(fields[1]),
                                                   int(fields[11]) + int(fields[12]))
    return out


@dataclass
class HostSample:
    busy_ticks: int
    steal_ticks: int
    loadavg: float
    children_cpu_seconds: float
    processes: dict = None

    @classmethod
    def take(cls, stat="/proc/stat", loadavg="/proc/loadavg", proc="/proc"):
        busy, steal = read_cpu_jiffies(stat)
        return cls(busy, steal, read_loadavg(loadavg), _children_cpu_seconds(),
                   read_process_ticks(proc) if proc else None)


def attribute_others(start, end, hz, runner_pid=None):
    """Who, alive at both samples, used CPU between them: kernel threads,
    the runner, other processes, and the TOP_OTHERS busiest of them."""
    runner_pid = os.getpid() if runner_pid is None else runner_pid
    kernel = runner = others = 0.0
    busiest = []
    for key, (name, ppid, ticks) in end.items():
        if key not in start:
            continue
        seconds = (ticks - start[key][2]) / hz
        if seconds <= 0:
            continue
        pid = key[0]
        if pid == runner_pid:
            runner += seconds
            continue
        if pid == KTHREADD_PID or ppid == KTHREADD_PID:
            kernel += seconds
        else:
            others += seconds
        busiest.append((seconds, pid, name))
    busiest.sort(reverse=True)
    return {
        "other_kernel_threads_cpu_seconds": round(kernel, 3),
        "other_processes_cpu_seconds": round(others, 3),
        "runner_cpu_seconds": round(runner, 3),
        "other_top": [{"pid": pid, "name": name, "cpu_seconds": round(sec, 3)}
                      for sec, pid, name in busiest[:TOP_OTHERS]],
    }


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
    report = {
        "host_cpus": cpus,
        "host_busy_cpu_seconds": round(busy, 3),
        "job_cpu_seconds": round(job, 3),
        "other_cpu_seconds": round(other, 3),
        "other_cpu_share": round(other / capacity, 4) if capacity > 0 else None,
        "steal_seconds": round((end.steal_ticks - start.steal_ticks) / hz, 3),
        "loadavg_start": start.loadavg,
        "loadavg_end": end.loadavg,
    }
    if start.processes is not None and end.processes is not None:
        r = attribute_others(start.processes, end.processes, hz)
        known = (r["other_kernel_threads_cpu_seconds"] + r["other_processes_cpu_seconds"]
                 + r["runner_cpu_seconds"])
        r["other_unattributed_cpu_seconds"] = round(other - known, 3)
        report.update(r)
    return report
