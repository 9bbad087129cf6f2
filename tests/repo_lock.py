"""Tests on parallel workers (pytest-xdist) share one checkout. A test that
edits a tracked file for a moment holds `editing()`; one whose pipeline
would record that file's checksum (a real Snakemake run with analysis
rules) holds `unedited()`, so it never records the edited one."""
import fcntl
from contextlib import contextmanager

from tests.scratch import REPO

LOCK = REPO / "build" / "tests" / "repo-edit.lock"


@contextmanager
def _held(mode):
    LOCK.parent.mkdir(parents=True, exist_ok=True)
    with open(LOCK, "a") as f:
        fcntl.flock(f, mode)
        yield


def editing():
    return _held(fcntl.LOCK_EX)


def unedited():
    return _held(fcntl.LOCK_SH)
