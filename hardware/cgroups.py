"""Memory cgroups, v1 and v2, behind one small interface.

    host = Host()                       # /proc and /sys paths, injectable
    backend = choose_backend(host)      # CgroupV2, CgroupV1 or None
    cg = backend.create(limit_bytes)    # a fresh cgroup under <own>/lsmbench/
    ...child writes "0" to cg.procs_file before exec...
    cg.stats(); cg.remove()             # kills leftovers, then rmdir

Where the cgroups go: below the cgroup the runner itself is in
(`<mount><own path>/lsmbench/<pid>-<random>`), so the limits of whatever
started us still apply and the job is accounted where its parent is. `parent=`
overrides that (a delegated subtree on a v2 machine, for instance).

Everything that touches the kernel goes through `FS`, so the tests drive both
code paths against a fake tree in a temporary directory.
"""
import errno
import os
import re
import secrets
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path

PARENT_NAME = "lsmbench"
_CHILD = re.compile(r"^(\d+)-[0-9a-f]{8}$")


class NotPermitted(Exception):
    """The cgroup cannot be made or limited here; str() says what is needed."""


@dataclass
class Host:
    """Where this host's kernel interfaces are. Tests point these elsewhere."""
    mountinfo: str = "/proc/self/mountinfo"
    proc_cgroup: str = "/proc/self/cgroup"
    meminfo: str = "/proc/meminfo"
    stat: str = "/proc/stat"
    loadavg: str = "/proc/loadavg"
    drop_caches: str = "/proc/sys/vm/drop_caches"
    systemd_dir: str = "/run/systemd/system"   # exists iff systemd is PID 1


@dataclass
class Mount:
    mount_point: str
    root: str          # the cgroup path this mount shows at its top
    fstype: str
    super_options: set = field(default_factory=set)


def parse_mountinfo(text):
    """Mounts from /proc/<pid>/mountinfo (man 5 proc)."""
    mounts = []
    for line in text.splitlines():
        left, sep, right = line.partition(" - ")
        if not sep:
            continue
        f = left.split()
        r = right.split()
        if len(f) < 5 or len(r) < 3:
            continue
        unesc = lambda s: re.sub(r"\\(\d{3})", lambda m: chr(int(m.group(1), 8)), s)
        mounts.append(Mount(unesc(f[4]), unesc(f[3]), r[0], set(r[2].split(","))))
    return mounts


def parse_proc_cgroup(text):
    """{controller: path}; the v2 (unified) entry is under the key ''."""
    out = {}
    for line in text.splitlines():
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        _, controllers, path = parts
        if controllers == "":
            out[""] = path
        for c in controllers.split(","):
            if c:
                out[c] = path
    return out


def relative_cgroup(cgroup_path, mount_root):
    """The part of `cgroup_path` below what the mount shows at its top."""
    if mount_root in ("/", ""):
        return cgroup_path.lstrip("/")
    if cgroup_path == mount_root or cgroup_path.startswith(mount_root.rstrip("/") + "/"):
        return cgroup_path[len(mount_root):].lstrip("/")
    return None     # our cgroup is not visible through this mount


class FS:
    """The file operations a cgroup needs; the real kernel by default."""

    def mkdir(self, path):
        os.mkdir(path)

    def rmdir(self, path):
        os.rmdir(path)

    def write(self, path, text):
        with open(path, "w") as f:
            f.write(text)

    def read(self, path):
        with open(path) as f:
            return f.read()

    def exists(self, path):
        return os.path.exists(path)

    def listdir(self, path):
        try:
            return os.listdir(path)
        except FileNotFoundError:
            return []


def pid_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class Cgroup:
    """One job's cgroup. Subclasses know the file names of their version."""
    mechanism = None

    def __init__(self, path, fs, swap_total):
        self.path, self.fs, self.swap_total = Path(path), fs, swap_total
        self.limit_bytes = None       # what the kernel reports back
        self.swap_limited = False
        self.swap_enforcement = "not limited"

    @property
    def procs_file(self):
        return str(self.path / "cgroup.procs")

    def _f(self, name):
        return str(self.path / name)

    def _read_int(self, name):
        try:
            return int(self.fs.read(self._f(name)).split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def _read_keyed(self, name):
        """'key value' lines (memory.events, memory.oom_control) as a dict."""
        try:
            text = self.fs.read(self._f(name))
        except OSError:
            return {}
        out = {}
        for line in text.splitlines():
            k, _, v = line.partition(" ")
            try:
                out[k] = int(v)
            except ValueError:
                pass
        return out

    def pids(self):
        try:
            text = self.fs.read(self.procs_file)
        except OSError:
            return []
        me = os.getpid()
        return [p for p in map(int, text.split()) if p > 1 and p != me]

    def signal_all(self, sig):
        for pid in self.pids():
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass

    def kill_all(self, deadline=10.0):
        """SIGKILL every process left in the cgroup, until it is empty."""
        end = time.monotonic() + deadline
        while self.pids() and time.monotonic() < end:
            self.signal_all(signal.SIGKILL)
            time.sleep(0.02)

    def remove(self, deadline=10.0):
        """Kill what is left and remove the directory. True when it is gone."""
        if not self.fs.exists(str(self.path)):
            return True
        self.kill_all(deadline)
        end = time.monotonic() + deadline
        while True:
            try:
                self.fs.rmdir(str(self.path))
                return True
            except FileNotFoundError:
                return True
            except OSError as e:
                # EBUSY while the last task is still exiting
                if e.errno not in (errno.EBUSY, errno.ENOTEMPTY) or time.monotonic() > end:
                    raise
                self.kill_all(1.0)
                time.sleep(0.05)


class CgroupV1(Cgroup):
    mechanism = "cgroup-v1"

    def set_limit(self, limit):
        if limit is None:
            return
        self.fs.write(self._f("memory.limit_in_bytes"), str(limit))
        memsw = self._f("memory.memsw.limit_in_bytes")
        if self.fs.exists(memsw):
            # memory+swap == memory: the job cannot use swap at all
            self.fs.write(memsw, str(limit))
            self.swap_limited, self.swap_enforcement = True, "memory.memsw.limit_in_bytes"
        elif self.swap_total == 0:
            self.swap_limited, self.swap_enforcement = True, "no swap on the host"
        else:
            self.fs.write(self._f("memory.swappiness"), "0")
            self.swap_enforcement = "memory.swappiness=0 only (no memsw accounting)"
        self.limit_bytes = self._read_int("memory.limit_in_bytes")

    def memory_split(self):
        """(charged bytes, page-cache bytes of them) now."""
        return self._read_int("memory.usage_in_bytes"), self._read_keyed("memory.stat").get("cache")

    def stats(self):
        oom = self._read_keyed("memory.oom_control")
        return {"peak_bytes": self._read_int("memory.max_usage_in_bytes"),
                "peak_source": "memory.max_usage_in_bytes",
                "failcnt": self._read_int("memory.failcnt"),
                "oom_kills": oom.get("oom_kill")}


class CgroupV2(Cgroup):
    mechanism = "cgroup-v2"

    def set_limit(self, limit):
        if self.fs.exists(self._f("memory.oom.group")):
            # an OOM kill takes the whole job down, not one random thread of it
            self.fs.write(self._f("memory.oom.group"), "1")
        if limit is None:
            return
        self.fs.write(self._f("memory.max"), str(limit))
        if self.fs.exists(self._f("memory.swap.max")):
            self.fs.write(self._f("memory.swap.max"), "0")
            self.swap_limited, self.swap_enforcement = True, "memory.swap.max=0"
        elif self.swap_total == 0:
            self.swap_limited, self.swap_enforcement = True, "no swap on the host"
        self.limit_bytes = self._read_int("memory.max")

    def memory_split(self):
        """(charged bytes, page-cache bytes of them) now."""
        return self._read_int("memory.current"), self._read_keyed("memory.stat").get("file")

    def stats(self):
        ev = self._read_keyed("memory.events")
        peak = self._read_int("memory.peak")
        return {"peak_bytes": peak,
                "peak_source": "memory.peak" if peak is not None else None,
                "failcnt": ev.get("max"),
                "oom_kills": ev.get("oom_kill")}

    def kill_all(self, deadline=10.0):
        if self.pids() and self.fs.exists(self._f("cgroup.kill")):
            try:
                self.fs.write(self._f("cgroup.kill"), "1")
            except OSError:
                pass
        super().kill_all(deadline)


class Backend:
    """Makes cgroups of one version below one parent directory."""

    def __init__(self, cls, mount_point, own_dir, parent=None, fs=None, swap_total=0):
        self.cls, self.fs, self.swap_total = cls, fs or FS(), swap_total
        self.mechanism = cls.mechanism
        self.mount_point, self.own_dir = Path(mount_point), Path(own_dir)
        self.parent = Path(parent) if parent else self.own_dir / PARENT_NAME

    def _need(self, what, path, err):
        why = ("to limit the job's memory, page cache included"
               if self.cls is CgroupV1 else
               "to limit the job's memory, page cache included "
               "(cgroup v2 needs a delegated subtree)")
        raise NotPermitted(f"{self.mechanism}: needs {what} {path} {why} "
                           f"({os.strerror(err.errno) if err.errno else err}); "
                           f"run as root or pass --parent <a delegated cgroup>") from err

    def _prepare_parent(self):
        if not self.fs.exists(str(self.parent)):
            try:
                self.fs.mkdir(str(self.parent))
            except FileExistsError:
                pass
            except OSError as e:
                self._need("permission to create", self.parent, e)
        if self.cls is CgroupV2:
            # the memory controller must be enabled on the way down
            for d in (self.parent.parent, self.parent):
                ctl = d / "cgroup.subtree_control"
                try:
                    if "memory" in self.fs.read(str(ctl)).split():
                        continue
                    self.fs.write(str(ctl), "+memory")
                except OSError as e:
                    if e.errno == errno.EBUSY:
                        raise NotPermitted(
                            f"cgroup-v2: cannot enable the memory controller in {ctl}: "
                            f"{d} holds processes (the no-internal-process rule); "
                            f"start the runner in a delegated cgroup of its own "
                            f"(e.g. under `systemd-run --scope -p Delegate=yes`) "
                            f"or pass --parent <a delegated cgroup>") from e
                    self._need("write access to", ctl, e)

    def clean_stale(self):
        """Remove cgroups left by runners that died without cleaning up
        (their name starts with the runner's pid, which is gone)."""
        removed = []
        for name in self.fs.listdir(str(self.parent)):
            m = _CHILD.match(name)
            if m and not pid_alive(int(m.group(1))):
                cg = self.cls(self.parent / name, self.fs, self.swap_total)
                try:
                    cg.remove(deadline=2.0)
                    removed.append(str(cg.path))
                except OSError:
                    pass
        return removed

    def remove_parent_if_empty(self):
        """Leave no trace in the cgroup we were started in (whoever made it
        may want to remove it); another runner's cgroup keeps it (EBUSY)."""
        try:
            self.fs.rmdir(str(self.parent))
        except OSError:
            pass

    def create(self, limit):
        for attempt in range(5):
            self._prepare_parent()
            self.clean_stale()
            path = self.parent / f"{os.getpid()}-{secrets.token_hex(4)}"
            try:
                self.fs.mkdir(str(path))
                break
            except FileNotFoundError:
                continue     # another runner removed the empty parent meanwhile
            except OSError as e:
                self._need("permission to create", path, e)
        else:
            raise NotPermitted(f"{self.mechanism}: {self.parent} keeps disappearing")
        cg = self.cls(path, self.fs, self.swap_total)
        try:
            cg.set_limit(limit)
            if not self.fs.exists(cg.procs_file):
                raise NotPermitted(f"{self.mechanism}: {path} has no cgroup.procs; "
                                   f"is this a cgroup filesystem?")
        except OSError as e:
            cg.remove()
            self._need("write access to the limit files in", path, e)
        except NotPermitted:
            cg.remove()
            raise
        return cg


def choose_backend(host=None, parent=None, fs=None, prefer=None, swap_total=0):
    """The backend for this host: cgroup v2 where the memory controller is
    available to our cgroup, else the v1 memory hierarchy, else None.
    `prefer` ('cgroup-v1' / 'cgroup-v2') restricts the choice."""
    host = host or Host()
    fs = fs or FS()
    mounts = parse_mountinfo(Path(host.mountinfo).read_text())
    own = parse_proc_cgroup(Path(host.proc_cgroup).read_text())
    candidates = []
    if prefer in (None, "cgroup-v2"):
        for m in mounts:
            if m.fstype != "cgroup2" or "" not in own:
                continue
            rel = relative_cgroup(own[""], m.root)
            if rel is None:
                continue
            own_dir = Path(m.mount_point) / rel
            try:
                controllers = fs.read(str(own_dir / "cgroup.controllers")).split()
            except OSError:
                continue
            if "memory" in controllers:
                candidates.append(Backend(CgroupV2, m.mount_point, own_dir, parent, fs, swap_total))
    if prefer in (None, "cgroup-v1"):
        for m in mounts:
            if m.fstype != "cgroup" or "memory" not in m.super_options or "memory" not in own:
                continue
            rel = relative_cgroup(own["memory"], m.root)
            if rel is None:
                continue
            candidates.append(Backend(CgroupV1, m.mount_point, Path(m.mount_point) / rel,
                                      parent, fs, swap_total))
    return candidates[0] if candidates else None
