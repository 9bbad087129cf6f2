"""Snakemake started by a test in this checkout, where under pytest-xdist
(scripts/test.sh) another worker starts one at any moment. Snakemake's own
lock is not made for that: an instance that ends removes the whole
.snakemake/locks folder (its persistence's _delete_locks), so one still
building its DAG cannot write its lock file and stops (FileNotFoundError
'.snakemake/locks/0.input.lock': every test of the smoke module errored so,
when test_resume's build check ended as the smoke run started, 2026-12-02).
So every such start passes --nolock: a test's runs write into its own
results folder, and what the tests share, the builds, are made before the
workers start (scripts/test.sh), and a build a test asks for takes
BUILD_LOCK, so two workers never build at once. (test_resume runs in a copy
of the checkout with Snakemake's lock on: its subject is that lock.)"""
import fcntl
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
COMMAND = [sys.executable, "-m", "snakemake", "--profile", "profiles/default", "--nolock"]
BUILD_LOCK = REPO / "build" / "tests" / "builds.lock"


def run(*args):
    """Snakemake in this checkout with these arguments (targets, --config,
    --dry-run...), its output captured."""
    return subprocess.run([*COMMAND, *map(str, args)], cwd=REPO, capture_output=True, text=True)


@contextmanager
def build_lock():
    BUILD_LOCK.parent.mkdir(parents=True, exist_ok=True)
    with open(BUILD_LOCK, "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # released when the file closes
        yield


def build(*targets):
    """Makes build targets (engines, the data generator, source tarballs),
    one worker at a time."""
    with build_lock():
        return run(*targets)
