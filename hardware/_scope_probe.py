"""Runs inside a `systemd-run --scope` unit: starts the job, waits for it,
then reads the scope's own cgroup v2 counters (memory.peak, memory.events,
memory.max, memory.swap.max) before the scope disappears, and writes them as
JSON. Exits with the job's status (128+signal when it was killed).
    python -m hardware._scope_probe --out stats.json -- CMD ARGS...
"""
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from hardware.cgroups import FS, CgroupV2, Host, parse_mountinfo, parse_proc_cgroup, relative_cgroup


def own_cgroup_dir(host=Host()):
    if os.environ.get("LSMBENCH_PROBE_CGROUP_DIR"):     # tests point this at a fake scope
        return Path(os.environ["LSMBENCH_PROBE_CGROUP_DIR"])
    own = parse_proc_cgroup(Path(host.proc_cgroup).read_text()).get("")
    if own is None:
        return None
    for m in parse_mountinfo(Path(host.mountinfo).read_text()):
        if m.fstype == "cgroup2":
            rel = relative_cgroup(own, m.root)
            if rel is not None:
                return Path(m.mount_point) / rel
    return None


def main(argv):
    out = argv[argv.index("--out") + 1]
    cmd = argv[argv.index("--") + 1:]
    proc = subprocess.Popen(cmd)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda s, f: proc.send_signal(s))
    rc = proc.wait()
    stats = {}
    d = own_cgroup_dir()
    if d is not None:
        cg = CgroupV2(d, FS(), 0)
        stats = cg.stats()
        stats["limit_bytes"] = cg._read_int("memory.max")
        swap = cg._read_int("memory.swap.max")
        stats["swap_max"] = swap
        stats["cgroup"] = str(d)
    stats["exit_status"] = rc if rc >= 0 else 128 - rc
    tmp = out + ".tmp"
    Path(tmp).write_text(json.dumps(stats))
    os.replace(tmp, out)
    return stats["exit_status"]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
