"""Where the tests write their databases and results. A test that is not
about the device writes to RAM (a tmpfs), so an fsync there costs nothing;
the few that measure or evict the device write to the disk the results
would go to (`disk_tmp_path`). LSMREPRO_TEST_SCRATCH=disk puts everything
on the disk, =DIR in DIR."""
import errno
import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
RAM = Path("/dev/shm")
# several times what the tests hold at once (the smoke run's results, loads included)
RAM_NEEDED = 4 << 30
DISK = REPO / "build" / "tests" / "scratch"  # the filesystem results/ is on


def _tmpfs(path):
    mounts = [line.split()[1:3] for line in Path("/proc/mounts").read_text().splitlines()]
    return any(point == str(path) and kind == "tmpfs" for point, kind in mounts)


def _direct_io(folder):
    """The smoke run's device calibration opens its file with O_DIRECT,
    which tmpfs refuses before Linux 6.6."""
    probe = folder / ".direct-io-probe"
    try:
        os.close(os.open(probe, os.O_CREAT | os.O_WRONLY | getattr(os, "O_DIRECT", 0), 0o600))
        return True
    except OSError as e:
        if e.errno == errno.EINVAL:
            return False
        raise
    finally:
        probe.unlink(missing_ok=True)


def ram_folder():
    """(folder, why): a tmpfs folder with room for the tests, or None and the
    reason the tests write to the disk instead."""
    choice = os.environ.get("LSMREPRO_TEST_SCRATCH", "")
    if choice == "disk":
        return None, "LSMREPRO_TEST_SCRATCH=disk"
    if choice:
        return Path(choice), f"LSMREPRO_TEST_SCRATCH={choice}"
    if not (_tmpfs(RAM) and os.access(RAM, os.W_OK)):
        return None, f"{RAM} is not a writable tmpfs"
    free = shutil.disk_usage(RAM).free
    if free < RAM_NEEDED:
        return None, f"{RAM} has {free >> 20} MiB free, the tests need {RAM_NEEDED >> 20}"
    if not _direct_io(RAM):
        return None, f"{RAM} refuses direct I/O (the smoke run's device calibration needs it)"
    return RAM, "tmpfs"


def new_folder(parent, prefix):
    parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=prefix, dir=parent))


@contextmanager
def on_disk():
    """A folder on the disk the results go to, for a test about the device
    (its page cache, direct I/O); removed after."""
    folder = new_folder(DISK, "disk-")
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
