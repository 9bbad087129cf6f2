"""Outputs appear whole or not at all: write to a temporary sibling, then
rename. A killed job leaves at most a *.tmp file no rule consumes."""
import contextlib
import csv
import os
from pathlib import Path


@contextlib.contextmanager
def atomic_path(path):
    """Yields a temporary path to write; renames it onto `path` on success."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    try:
        yield tmp
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def write_text(path, text):
    with atomic_path(path) as tmp:
        tmp.write_text(text)


def write_csv(path, fieldnames, rows):
    """A CSV of dict rows (a missing field blank), whole or not at all."""
    with atomic_path(path) as tmp:
        with open(tmp, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=fieldnames, restval="")
            w.writeheader()
            w.writerows(rows)
