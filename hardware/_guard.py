"""Removes a job's cgroup when the runner that made it dies, even by SIGKILL.

The runner starts this in a session of its own with a pipe on stdin and keeps
the write end. Whenever that pipe reaches EOF (the runner exited, cleanly or
not), any process still in the cgroup is killed and the cgroup removed; after a
clean exit the runner has already done so and this finds nothing to do.
    python -m hardware._guard cgroup-v1|cgroup-v2 <cgroup dir>
    python -m hardware._guard systemd-run <unit> [--user]
"""
import os
import subprocess
import sys

from hardware.cgroups import FS, CgroupV1, CgroupV2


def main(argv):
    mechanism, target = argv[0], argv[1]
    try:
        while sys.stdin.buffer.read(65536):
            pass
    except (OSError, KeyboardInterrupt):
        pass
    if mechanism == "systemd-run":
        user = ["--user"] if "--user" in argv[2:] else []
        subprocess.run(["systemctl", *user, "kill", "--signal=SIGKILL", target],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return 0
    cls = CgroupV2 if mechanism == "cgroup-v2" else CgroupV1
    try:
        cls(target, FS(), 0).remove(deadline=30.0)
        try:
            os.rmdir(os.path.dirname(target))    # lsmbench/, when no other job uses it
        except OSError:
            pass
    except OSError as e:
        print(f"hardware._guard: could not remove {target}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
