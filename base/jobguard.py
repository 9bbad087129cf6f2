"""A job that must not outlive its workflow, nor overlap another like it.

Snakemake killed with SIGKILL leaves its running jobs behind: they go on
writing outputs the next Snakemake is about to write again (a database it is
loading anew, a log), and a benchmark left running overlaps the restarted
one's timed phases. So a guarded job
- takes an exclusive lock for its whole life (`exclusive`): a restarted job
  waits for a leftover one instead of running beside it, and then starts
  from what is on disk, not from what it was told is there;
- stops when the workflow process that started it is gone (`watch_owner`):
  the workflow names itself in the environment variable OWNER_ENV (the
  Snakefile sets it to Snakemake's pid), and the owner's start time tells a
  reused pid from it.
"""
import contextlib
import fcntl
import os
import sys
import threading
import time
from pathlib import Path

OWNER_ENV = "LSMREPRO_WORKFLOW_PID"


def start_time(pid):
    """The process's start time (clock ticks since boot), None when it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # the command name may hold spaces and parentheses: fields follow the last ')'
    return int(stat.rsplit(")", 1)[1].split()[19])


def owner():
    """(pid, start time) of the workflow process named by OWNER_ENV, or None
    when the job was not started by one (run by hand, by a test)."""
    value = os.environ.get(OWNER_ENV, "")
    if not value.isdigit():
        return None
    started = start_time(int(value))
    return (int(value), started) if started is not None else (int(value), -1)


def watch_owner(on_gone, interval=1.0):
    """Calls on_gone(reason) once, from a daemon thread, when the owner has
    exited; returns the thread, or None when there is no owner to watch."""
    who = owner()
    if who is None:
        return None
    pid, started = who

    def watch():
        while start_time(pid) == started:
            time.sleep(interval)
        on_gone(f"its workflow (pid {pid}, ${OWNER_ENV}) is gone")

    thread = threading.Thread(target=watch, daemon=True, name="owner-watch")
    thread.start()
    return thread


@contextlib.contextmanager
def exclusive(lock_path, what):
    """Holds an exclusive flock on lock_path; says so when it has to wait."""
    lock_path = Path(lock_path)
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with open(lock_path, "a") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"{what}: waiting for {lock_path} (another job holds it; a killed workflow's job stops "
                  f"within seconds)", file=sys.stderr, flush=True)
            fcntl.flock(f, fcntl.LOCK_EX)
        except OSError as e:  # a shared filesystem without locks (some cluster mounts)
            print(f"{what}: {lock_path}: no file lock here ({e.strerror}); going on without it",
                  file=sys.stderr, flush=True)
            yield
            return
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)
