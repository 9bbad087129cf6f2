"""The runner's cgroup v2, v1 and systemd-run code paths against fake trees.

A fake kernel (`FakeKernel`) stands in for cgroupfs: mkdir makes the control
files a real cgroup has, rmdir snapshots what was written and removes the
directory, and writes can be made to fail the way the kernel fails them. The
mount and /proc layout is faked through `Host`. The job itself runs for real
(it moves itself into the fake cgroup by writing "0" to its cgroup.procs).
"""
import errno
import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from hardware import cgroup_run
from hardware.cgroups import (FS, Host, parse_mountinfo, parse_proc_cgroup, relative_cgroup,
                              choose_backend, CgroupV1, CgroupV2)
from conftest import REPO

MIB = 1 << 20


class FakeKernel(FS):
    def __init__(self, version, peak=12345678, events=None, busy=False, deny_mkdir=False,
                 memsw=True):
        self.version, self.peak, self.busy = version, peak, busy
        self.events = {"low": 0, "high": 0, "max": 3, "oom": 0, "oom_kill": 0, **(events or {})}
        self.deny_mkdir, self.memsw = deny_mkdir, memsw
        self.writes, self.removed = [], {}

    def mkdir(self, path):
        if self.deny_mkdir:
            raise PermissionError(errno.EACCES, "Permission denied", path)
        os.mkdir(path)
        p = Path(path)
        files = {"cgroup.procs": ""}
        if self.version == 2:
            files.update({"cgroup.controllers": "cpu io memory", "cgroup.subtree_control": "",
                          "memory.max": "max", "memory.swap.max": "max",
                          "memory.oom.group": "0", "memory.peak": str(self.peak),
                          "cgroup.kill": "",
                          "memory.events": "".join(f"{k} {v}\n" for k, v in self.events.items())})
        else:
            files.update({"memory.limit_in_bytes": "9223372036854771712",
                          "memory.max_usage_in_bytes": str(self.peak), "memory.failcnt": "3",
                          "memory.swappiness": "60",
                          "memory.oom_control": "oom_kill_disable 0\nunder_oom 0\n"
                                                f"oom_kill {self.events['oom_kill']}\n"})
            if self.memsw:
                files["memory.memsw.limit_in_bytes"] = "9223372036854771712"
        for k, v in files.items():
            (p / k).write_text(v)

    def rmdir(self, path):
        p = Path(path)
        self.removed[str(p)] = {f.name: f.read_text() for f in p.iterdir() if f.is_file()}
        shutil.rmtree(p)

    def write(self, path, text):
        if self.busy and path.endswith("cgroup.subtree_control"):
            raise OSError(errno.EBUSY, "Device or resource busy", path)
        self.writes.append((path, text))
        super().write(path, text)


def fake_host(tmp_path, version, swap_kb=2097152, cgroups=True):
    """A host with 8 GiB RAM whose own cgroup is /user.slice/job.scope."""
    root = tmp_path / ("cg2" if version == 2 else "memory")
    own = root / "user.slice" / "job.scope"
    own.mkdir(parents=True)
    if version == 2:
        (own / "cgroup.controllers").write_text("cpu io memory\n")
        (own / "cgroup.subtree_control").write_text("\n")
        mount = f"30 23 0:26 / {root} rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n"
        proc = "0::/user.slice/job.scope\n"
    else:
        mount = f"35 31 0:32 / {root} rw,relatime - cgroup cgroup rw,memory\n"
        proc = "4:memory:/user.slice/job.scope\n1:cpu:/\n0::/\n"
    (tmp_path / "mountinfo").write_text(
        "22 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw\n" + (mount if cgroups else ""))
    (tmp_path / "cgroup").write_text(proc)
    (tmp_path / "meminfo").write_text(f"MemTotal: 8388608 kB\nSwapTotal: {swap_kb} kB\n")
    (tmp_path / "drop_caches").write_text("")
    host = Host(mountinfo=str(tmp_path / "mountinfo"), proc_cgroup=str(tmp_path / "cgroup"),
                meminfo=str(tmp_path / "meminfo"), drop_caches=str(tmp_path / "drop_caches"),
                systemd_dir=str(tmp_path / "no-systemd"))
    return host, own


def run(argv, host, fs):
    return cgroup_run.main(argv, host=host, fs=fs)


def job_writing_env(out):
    return [sys.executable, "-c",
            f"import os; open({str(out)!r}, 'w').write(os.environ['LSMBENCH_CGROUP'] + ' ' "
            f"+ os.environ['LSMBENCH_MEMORY_LIMIT_BYTES'])"]


def test_v2_limit_swap_and_counters(tmp_path):
    host, own = fake_host(tmp_path, 2)
    fs = FakeKernel(2)
    report, env_out = tmp_path / "r.json", tmp_path / "env.txt"
    status = run(["--memory", "64MiB", "--drop-caches", "--report", str(report), "--",
                  *job_writing_env(env_out)], host, fs)
    assert status == 0
    r = json.loads(report.read_text())
    assert r["mechanism"] == "cgroup-v2" and r["enforced"] and r["not_enforced_reason"] is None
    assert r["limit_bytes"] == 64 * MIB
    assert r["swap_limited"] and r["swap_enforcement"] == "memory.swap.max=0"
    assert (r["peak_bytes"], r["failcnt"], r["oom_kills"], r["oom_killed"]) == (12345678, 3, 0, False)
    assert r["cache_dropped"] and Path(host.drop_caches).read_text() == "3"
    writes = {(Path(p).relative_to(own).as_posix(), t) for p, t in fs.writes}
    assert ("cgroup.subtree_control", "+memory") in writes               # own cgroup
    assert ("lsmbench/cgroup.subtree_control", "+memory") in writes      # the parent
    cg = Path(r["cgroup"])
    assert cg.parent == own / "lsmbench"
    files = fs.removed[str(cg)]               # what the cgroup held when it was removed
    assert files["memory.max"] == str(64 * MIB) and files["memory.swap.max"] == "0"
    assert files["memory.oom.group"] == "1"
    assert files["cgroup.procs"] == "0"       # the job moved itself in before exec
    assert env_out.read_text() == f"{cg} {64 * MIB}"
    assert not cg.exists()


def test_v2_oom_kill_fails_the_run_even_if_the_job_exits_0(tmp_path, capsys):
    host, _ = fake_host(tmp_path, 2)
    report = tmp_path / "r.json"
    status = run(["--memory", "64MiB", "--report", str(report), "--", "true"], host,
                 FakeKernel(2, events={"oom": 1, "oom_kill": 1}))
    assert status == cgroup_run.OOM_STATUS
    r = json.loads(report.read_text())
    assert r["oom_killed"] and r["oom_kills"] == 1 and r["exit_status"] == 137
    assert "OOM-killed" in capsys.readouterr().err


def test_v2_no_internal_process_rule_is_one_clear_line(tmp_path, capsys):
    host, _ = fake_host(tmp_path, 2)
    with pytest.raises(SystemExit) as e:
        run(["--memory", "64MiB", "--", "true"], host, FakeKernel(2, busy=True))
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no-internal-process" in err[0] and "--parent" in err[0]


def test_unenforced_run_when_allowed_says_so(tmp_path, capsys):
    host, _ = fake_host(tmp_path, 2)
    report = tmp_path / "r.json"
    status = run(["--memory", "64MiB", "--allow-unenforced", "--report", str(report), "--",
                  "true"], host, FakeKernel(2, busy=True))
    assert status == 0
    r = json.loads(report.read_text())
    assert r["enforced"] is False and r["mechanism"] == "none"
    assert "no-internal-process" in r["not_enforced_reason"]
    assert "NOT ENFORCED" in capsys.readouterr().err


def test_permission_denied_is_one_line_naming_what_is_needed(tmp_path, capsys):
    host, own = fake_host(tmp_path, 1)
    with pytest.raises(SystemExit) as e:
        run(["--memory", "64MiB", "--", "true"], host, FakeKernel(1, deny_mkdir=True))
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "needs permission to create" in err[0] and str(own / "lsmbench") in err[0]
    assert "page cache" in err[0] and "run as root" in err[0]


def test_drop_caches_without_permission(tmp_path, capsys):
    host, _ = fake_host(tmp_path, 1)
    host.drop_caches = str(tmp_path / "no" / "such" / "drop_caches")
    with pytest.raises(SystemExit):
        run(["--memory", "64MiB", "--drop-caches", "--", "true"], host, FakeKernel(1))
    assert "--drop-caches needs write access" in capsys.readouterr().err
    report = tmp_path / "r.json"
    assert run(["--memory", "64MiB", "--drop-caches", "--allow-unenforced", "--report",
                str(report), "--", "true"], host, FakeKernel(1)) == 0
    r = json.loads(report.read_text())
    assert r["cache_dropped"] is False and r["enforced"] is False
    assert r["mechanism"] == "cgroup-v1"     # the limit itself held
    assert "drop_caches" in r["not_enforced_reason"]


@pytest.mark.parametrize("memsw,swap_kb,limited,how", [
    (True, 2097152, True, "memory.memsw.limit_in_bytes"),
    (False, 0, True, "no swap on the host"),
    (False, 2097152, False, "memory.swappiness=0 only (no memsw accounting)"),
])
def test_v1_limit_and_swap(tmp_path, memsw, swap_kb, limited, how):
    host, own = fake_host(tmp_path, 1, swap_kb=swap_kb)
    fs = FakeKernel(1, memsw=memsw, events={"oom_kill": 0})
    report = tmp_path / "r.json"
    assert run(["--memory", "25%", "--report", str(report), "--", "true"], host, fs) == 0
    r = json.loads(report.read_text())
    assert r["mechanism"] == "cgroup-v1" and r["limit_bytes"] == 2 << 30
    assert (r["swap_limited"], r["swap_enforcement"]) == (limited, how)
    assert (r["peak_bytes"], r["failcnt"], r["oom_kills"]) == (12345678, 3, 0)
    files = fs.removed[r["cgroup"]]
    assert files["memory.limit_in_bytes"] == str(2 << 30)
    if memsw:
        assert files["memory.memsw.limit_in_bytes"] == str(2 << 30)


def test_no_cgroup_mounted(tmp_path, capsys):
    host, _ = fake_host(tmp_path, 1, cgroups=False)
    with pytest.raises(SystemExit):
        run(["--memory", "64MiB", "--", "true"], host, FakeKernel(1))
    assert "needs a memory cgroup" in capsys.readouterr().err
    # without a limit nothing needs enforcing: the run goes on, peak from rusage
    report = tmp_path / "r.json"
    assert run(["--memory", "none", "--report", str(report), "--", "true"], host,
               FakeKernel(1)) == 0
    r = json.loads(report.read_text())
    assert r["enforced"] and r["mechanism"] == "none" and r["limit_bytes"] is None
    assert r["peak_source"].startswith("rusage")


def test_exit_status_is_propagated(tmp_path):
    host, _ = fake_host(tmp_path, 2)
    assert run(["--memory", "64MiB", "--", "sh", "-c", "exit 7"], host, FakeKernel(2)) == 7


def _fake_systemd(tmp_path, monkeypatch, memory_max):
    host, _ = fake_host(tmp_path, 2)
    (tmp_path / "systemd").mkdir()
    host.systemd_dir = str(tmp_path / "systemd")
    bindir = tmp_path / "bin"
    bindir.mkdir()
    log = tmp_path / "argv.txt"
    fake = bindir / "systemd-run"
    fake.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" > {log}\n'
                    'while [ "$1" != "--" ]; do shift; done; shift; exec "$@"\n')
    fake.chmod(0o755)
    (bindir / "systemctl").write_text("#!/bin/sh\nexit 0\n")
    (bindir / "systemctl").chmod(0o755)
    scope = tmp_path / "scope"          # what the probe reads as its own cgroup
    scope.mkdir()
    for name, text in {"memory.max": memory_max, "memory.swap.max": "0",
                       "memory.peak": "5555", "cgroup.procs": "",
                       "memory.events": "max 2\noom_kill 0\n"}.items():
        (scope / name).write_text(text)
    monkeypatch.setenv("PATH", f"{bindir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    monkeypatch.setenv("LSMBENCH_PROBE_CGROUP_DIR", str(scope))
    return host, log


def test_systemd_run_scope(tmp_path, monkeypatch):
    """Where systemd is PID 1 the runner asks it for a scope; a fake
    systemd-run records its arguments and runs what follows `--`; the probe
    inside reads the scope's counters (a fake scope directory here)."""
    host, log = _fake_systemd(tmp_path, monkeypatch, str(64 * MIB))
    report = tmp_path / "r.json"
    status = run(["--memory", "64MiB", "--report", str(report), "--", "sh", "-c", "exit 3"],
                 host, FakeKernel(2))
    assert status == 3
    argv = log.read_text().splitlines()
    assert "--scope" in argv and f"MemoryMax={64 * MIB}" in argv and "MemorySwapMax=0" in argv
    assert any(a.startswith("--unit=lsmbench-") for a in argv)
    r = json.loads(report.read_text())
    assert r["mechanism"] == "systemd-run" and r["exit_status"] == 3 and r["enforced"]
    assert r["swap_limited"] and (r["peak_bytes"], r["failcnt"], r["oom_kills"]) == (5555, 2, 0)


def test_systemd_run_without_memory_delegation_is_caught(tmp_path, monkeypatch, capsys):
    host, _ = _fake_systemd(tmp_path, monkeypatch, "max")
    report = tmp_path / "r.json"
    status = run(["--memory", "64MiB", "--report", str(report), "--", "true"], host,
                 FakeKernel(2))
    assert status == 2
    assert "not delegated" in capsys.readouterr().err
    r = json.loads(report.read_text())
    assert r["enforced"] is False and "not delegated" in r["not_enforced_reason"]


def test_mountinfo_and_proc_cgroup_parsing():
    mounts = parse_mountinfo(
        "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
        "41 31 0:38 /docker/abc /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n"
        "50 22 0:40 / /mnt/with\\040space rw - ext4 /dev/sdb rw\n")
    assert mounts[0].fstype == "cgroup" and "memory" in mounts[0].super_options
    assert mounts[1].root == "/docker/abc" and mounts[2].mount_point == "/mnt/with space"
    own = parse_proc_cgroup("4:memory:/a/b\n2:cpu,cpuacct:/\n0::/docker/abc/x\n")
    assert own == {"memory": "/a/b", "cpu": "/", "cpuacct": "/", "": "/docker/abc/x"}
    # inside a container the mount shows the container's cgroup at its top
    assert relative_cgroup("/docker/abc/x", "/docker/abc") == "x"
    assert relative_cgroup("/a/b", "/") == "a/b"
    assert relative_cgroup("/elsewhere", "/docker/abc") is None


def test_v2_preferred_over_v1_when_both_have_memory(tmp_path):
    host, own2 = fake_host(tmp_path, 2)
    v1root = tmp_path / "memory"
    (v1root / "user.slice" / "job.scope").mkdir(parents=True)
    with open(host.mountinfo, "a") as f:
        f.write(f"35 31 0:32 / {v1root} rw - cgroup cgroup rw,memory\n")
    Path(host.proc_cgroup).write_text("4:memory:/user.slice/job.scope\n0::/user.slice/job.scope\n")
    assert choose_backend(host).cls is CgroupV2
    assert choose_backend(host, prefer="cgroup-v1").cls is CgroupV1
    (own2 / "cgroup.controllers").write_text("cpu io\n")     # memory not delegated
    assert choose_backend(host).cls is CgroupV1
