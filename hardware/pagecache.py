"""Dropping files from the page cache, so a run starts cold: the runner's
--evict and the bench jobs' copies (lsmrepro/run/bench.py) both call it."""
import os
from pathlib import Path

from base.errors import InputError


def evict(paths):
    """Write back and drop the cached pages of these files (dirs: recursively)."""
    files = []
    for p in map(Path, paths):
        if p.is_dir():
            files += [q for q in p.rglob("*") if q.is_file()]
        elif p.is_file():
            files.append(p)
        else:
            raise InputError(p, "--evict", "an existing file or directory")
    for f in files:
        fd = os.open(f, os.O_RDONLY)
        try:
            os.fdatasync(fd)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)
    return len(files)
