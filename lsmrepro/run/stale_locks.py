"""Removes Snakemake's locks left by a Snakemake that was killed.

Snakemake locks the files it will write (.snakemake/locks/) and removes the
locks when it exits, but not when it is killed with SIGKILL: the next run
then stops with "Directory cannot be locked" until `snakemake --unlock`.
The lock files do not say who wrote them, so a lock is taken as stale when
no Snakemake process runs in this directory (./reproduce calls this first).

    python -m lsmrepro.run.stale_locks [DIR]
"""
import os
import sys
from pathlib import Path


def _is_snakemake(argv):
    names = [os.path.basename(a) for a in argv[:3]]
    return "snakemake" in names or any(a == "-m" and b == "snakemake" for a, b in zip(argv, argv[1:3]))


def live_snakemake(workdir):
    """Pids of Snakemake processes whose working directory is workdir."""
    workdir = os.path.realpath(workdir)
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            if os.path.realpath(proc / "cwd") != workdir:
                continue
            argv = (proc / "cmdline").read_bytes().decode(errors="replace").split("\0")
        except OSError:  # gone, or another user's
            continue
        if _is_snakemake(argv):
            found.append(int(proc.name))
    return found


def main(argv=None):
    args = sys.argv[1:] if argv is None else argv
    workdir = Path(args[0] if args else ".")
    locks = sorted((workdir / ".snakemake" / "locks").glob("*.lock"))
    if not locks or live_snakemake(workdir):
        return 0
    for lock in locks:
        lock.unlink(missing_ok=True)
    print(f"reproduce: removed {len(locks)} Snakemake lock file(s) of a run that was killed "
          f"(no Snakemake runs in {workdir.resolve()})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
