"""The host fingerprint: what a result depends on besides the code.

    python -m hardware.fingerprint [--dir DB_DIR] --out F.json
    python -m hardware.fingerprint [--dir DB_DIR] --id

CPU (model, cores, threads, flags that matter to search code, frequency
governor, turbo), memory (RAM, swap, transparent huge pages), kernel and OS,
CPU-vulnerability mitigations, the block device and filesystem that hold
--dir (model, rotational, scheduler, mount options), compiler, library and
tool versions, and the container image when inside one (its id is part of
the stable id: another image is another fingerprint). `node` says which
node ran it (Slurm's node name and job when run by Slurm).

`id` is 12 hex digits of sha256 over the `stable` part only, so it changes
when the machine, its kernel, its settings or its toolchain change, and not
with uptime, load, free memory or the host name (two identical machines share
an id; `host` says which one ran). Everything volatile is under `volatile`.
Kernel command-line parameters are recorded only from a fixed list of those
that change performance; the rest of the command line is not recorded.
"""
import argparse
import datetime as dt
import hashlib
import importlib.metadata
import json
import os
import platform
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path

from base.atomic import write_text
from base.errors import InputError, cli

from hardware.cgroups import parse_mountinfo

SCHEMA = "lsmbench/fingerprint/1"
SEARCH_FLAGS = ["sse4_2", "popcnt", "avx", "avx2", "bmi1", "bmi2", "avx512f",
                "avx512bw", "avx512vl", "hypervisor"]
CMDLINE_KEYS = ["mitigations", "nosmt", "isolcpus", "nohz_full", "transparent_hugepage",
                "intel_pstate", "amd_pstate", "processor.max_cstate", "intel_idle.max_cstate",
                "idle", "elevator", "hugepages", "default_hugepagesz"]
DEB_PACKAGES = ["gcc", "g++", "clang", "cmake", "make", "ninja-build", "ccache", "libc6",
                "libstdc++6", "libsnappy-dev", "libzstd-dev", "liblz4-dev", "libbz2-dev",
                "zlib1g-dev", "libgflags-dev", "libgtest-dev", "libgmock-dev",
                "libbenchmark-dev", "nlohmann-json3-dev", "libcli11-dev", "libcxxopts-dev",
                "fio", "util-linux"]
PY_PACKAGES = ["snakemake", "pandas", "numpy", "matplotlib", "seaborn", "jsonschema",
               "PyYAML", "pytest"]
SYS = Path("/sys")
CONTAINERENV = Path("/run/.containerenv")   # podman/buildah write it into every container


def _read(path, default=None):
    try:
        return Path(path).read_text().strip()
    except OSError:
        return default


def _run(cmd):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return p.stdout if p.returncode == 0 else None


def _first_line(cmd):
    out = _run(cmd)
    return out.splitlines()[0].strip() if out and out.strip() else None


def hostname():
    return socket.gethostname()


# -- CPU ---------------------------------------------------------------------
def cpu_info():
    fields = {}
    out = _run(["lscpu", "-J"])
    if out:
        for e in json.loads(out).get("lscpu", []):
            fields[e["field"].rstrip(":")] = e.get("data")
    cpuinfo = _read("/proc/cpuinfo", "")
    first = {}
    for line in cpuinfo.split("\n\n")[0].splitlines():
        k, _, v = line.partition(":")
        first[k.strip()] = v.strip()
    flags = set((fields.get("Flags") or first.get("flags", "")).split())
    logical = os.cpu_count()
    tpc = int(fields.get("Thread(s) per core", 1) or 1)
    cps = int(fields.get("Core(s) per socket", logical) or logical)
    sockets = int(fields.get("Socket(s)", 1) or 1)
    caches = {k.split()[0]: v for k, v in fields.items() if k.endswith(" cache")}
    return {
        "model": fields.get("Model name") or first.get("model name"),
        "vendor": fields.get("Vendor ID") or first.get("vendor_id"),
        "family": fields.get("CPU family"), "model_number": fields.get("Model"),
        "stepping": fields.get("Stepping"),
        "architecture": platform.machine(),
        "sockets": sockets, "cores": cps * sockets, "threads": logical,
        "threads_per_core": tpc,
        "caches": caches,
        "flags": sorted(f for f in SEARCH_FLAGS if f in flags),
        "hypervisor": fields.get("Hypervisor vendor"),
        "virtualization": fields.get("Virtualization type"),
        "numa_nodes": int(fields.get("NUMA node(s)", 1) or 1),
    }


def frequency_info():
    cpus = sorted(SYS.glob("devices/system/cpu/cpu[0-9]*/cpufreq"))
    if not cpus:
        return {"governor": None, "driver": None, "min_khz": None, "max_khz": None,
                "turbo": None,
                "note": "no cpufreq interface (frequency is managed by the hypervisor "
                        "or firmware)"}
    govs = sorted({_read(c / "scaling_governor") for c in cpus} - {None})
    drivers = sorted({_read(c / "scaling_driver") for c in cpus} - {None})
    turbo = None
    no_turbo = _read(SYS / "devices/system/cpu/intel_pstate/no_turbo")
    boost = _read(SYS / "devices/system/cpu/cpufreq/boost")
    if no_turbo is not None:
        turbo = no_turbo == "0"
    elif boost is not None:
        turbo = boost == "1"
    ints = lambda name: sorted({int(v) for c in cpus if (v := _read(c / name)) and v.isdigit()})
    return {"governor": govs[0] if len(govs) == 1 else govs,
            "driver": drivers[0] if len(drivers) == 1 else drivers,
            "min_khz": (ints("cpuinfo_min_freq") or [None])[0],
            "max_khz": (ints("cpuinfo_max_freq") or [None])[-1],
            "turbo": turbo}


# -- memory, kernel, OS --------------------------------------------------------
def memory_info():
    mi = {}
    for line in _read("/proc/meminfo", "").splitlines():
        k, _, v = line.partition(":")
        parts = v.split()
        if parts:
            mi[k] = int(parts[0]) * (1024 if parts[1:] == ["kB"] else 1)
    thp = _read(SYS / "kernel/mm/transparent_hugepage/enabled")
    m = re.search(r"\[(\w+)\]", thp or "")
    return {"total_bytes": mi.get("MemTotal"), "swap_total_bytes": mi.get("SwapTotal"),
            "transparent_hugepages": m.group(1) if m else thp,
            "hugepages_total": mi.get("HugePages_Total")}


def kernel_info():
    u = platform.uname()
    params = {}
    for tok in _read("/proc/cmdline", "").split():
        if tok == "--":
            break     # what follows is for init, not the kernel
        k, eq, v = tok.partition("=")
        if k in CMDLINE_KEYS:
            params[k] = v if eq else True
    return {"release": u.release, "version": u.version, "machine": u.machine,
            "performance_parameters": params}


def os_info():
    try:
        rel = platform.freedesktop_os_release()
    except OSError:  # no os-release file
        rel = {}
    return {"pretty_name": rel.get("PRETTY_NAME"), "id": rel.get("ID"),
            "version_id": rel.get("VERSION_ID"),
            "debian_version": _read("/etc/debian_version")}


def mitigations():
    d = SYS / "devices/system/cpu/vulnerabilities"
    return {f.name: _read(f) for f in sorted(d.glob("*"))} if d.is_dir() else {}


# -- storage ---------------------------------------------------------------------
def _mount_of(path):
    """The mountinfo entry of the mount that holds `path` (longest prefix)."""
    path = os.path.realpath(path)
    best = None
    text = _read("/proc/self/mountinfo", "")
    for m, line in zip(parse_mountinfo(text), [l for l in text.splitlines() if " - " in l]):
        mp = m.mount_point
        if path == mp or path.startswith(mp.rstrip("/") + "/"):
            if best is None or len(mp) >= len(best[0].mount_point):
                best = (m, line)
    return best


def block_device(dev_t):
    """Model, rotational, scheduler, sizes of the disk behind a st_dev."""
    major, minor = os.major(dev_t), os.minor(dev_t)
    node = SYS / f"dev/block/{major}:{minor}"
    if not node.exists():
        return {"name": None, "major_minor": f"{major}:{minor}",
                "note": "not a block device (e.g. overlay, tmpfs, network filesystem)"}
    real = node.resolve()
    disk = real.parent if (real / "partition").exists() else real
    q = disk / "queue"
    sched = _read(q / "scheduler")
    m = re.search(r"\[([^\]]+)\]", sched or "")
    size = _read(disk / "size")
    return {
        "name": real.name, "disk": disk.name,
        "model": _read(disk / "device/model"), "vendor": _read(disk / "device/vendor"),
        "rotational": None if _read(q / "rotational") is None else _read(q / "rotational") == "1",
        "scheduler": m.group(1) if m else sched,
        "schedulers_available": sorted((sched or "").replace("[", "").replace("]", "").split()),
        "size_bytes": int(size) * 512 if size and size.isdigit() else None,
        "logical_block_size": _int(_read(q / "logical_block_size")),
        "physical_block_size": _int(_read(q / "physical_block_size")),
        "read_ahead_kb": _int(_read(q / "read_ahead_kb")),
        "nr_requests": _int(_read(q / "nr_requests")),
        "driver": (disk / "device/driver").resolve().name if (disk / "device/driver").exists() else None,
    }


def _int(s):
    return int(s) if s and s.lstrip("-").isdigit() else None


def storage_of(directory):
    directory = Path(directory)
    if not directory.exists():
        raise InputError(directory, "--dir", "an existing directory (where the databases go)")
    found = _mount_of(directory)
    fs = {}
    if found:
        m, line = found
        fields = line.split(" - ")[0].split()
        fs = {"mount_point": m.mount_point, "type": m.fstype,
              "source": line.split(" - ")[1].split()[1],
              "mount_options": sorted(fields[5].split(",")),
              "super_options": sorted(m.super_options)}
    return {"filesystem": fs, "device": block_device(directory.stat().st_dev)}


# -- software --------------------------------------------------------------------
def toolchain():
    deb = {}
    out = _run(["dpkg-query", "-W", "-f", "${Package}\t${Version}\t${db:Status-Abbrev}\n",
                *DEB_PACKAGES]) if shutil.which("dpkg-query") else None
    if out is None and shutil.which("dpkg-query"):
        # dpkg-query exits 1 when one of the names is unknown; ask one by one
        out = "".join(_run(["dpkg-query", "-W", "-f",
                            "${Package}\t${Version}\t${db:Status-Abbrev}\n", p]) or ""
                      for p in DEB_PACKAGES)
    for line in (out or "").splitlines():
        name, version, status = (line.split("\t") + ["", ""])[:3]
        if status.startswith("ii"):
            deb[name] = version
    py = {}
    for p in PY_PACKAGES:
        try:
            py[p] = importlib.metadata.version(p)
        except importlib.metadata.PackageNotFoundError:
            py[p] = None
    return {
        "gcc": _first_line(["gcc", "--version"]),
        "g++": _first_line(["g++", "--version"]),
        "clang": _first_line(["clang", "--version"]),
        "cmake": _first_line(["cmake", "--version"]),
        "fio": _first_line(["fio", "--version"]),
        "glibc": os.confstr("CS_GNU_LIBC_VERSION") if hasattr(os, "confstr") else None,
        "python": platform.python_version(),
        "debian_packages": deb,
        "python_packages": py,
    }


def _image_identity():
    """What containers/build.sh wrote into the image: its name, git commit,
    context hash and base (LSMBENCH_IMAGE_INFO names the file)."""
    path = os.environ.get("LSMBENCH_IMAGE_INFO")
    text = _read(path) if path else None
    if text is None:
        return None
    try:
        return json.loads(text)
    except ValueError:
        raise InputError(path, "LSMBENCH_IMAGE_INFO", "a JSON object written by containers/build.sh")


def container_info():
    """The runtime and the image a job runs in. `image_id` is the runtime's
    image id when it tells (podman's /run/.containerenv, or
    LSMBENCH_CONTAINER_IMAGE_ID, e.g. passed to `docker run -e`), else the
    image's own identity (`build`, from containers/build.sh) hashed."""
    kind, image = None, os.environ.get("LSMBENCH_CONTAINER_IMAGE")
    image_id = os.environ.get("LSMBENCH_CONTAINER_IMAGE_ID")
    cenv = _read(CONTAINERENV)
    if cenv is not None:
        kind = "podman/buildah"
        m = re.search(r'^image="?([^"\n]*)"?', cenv, re.M)
        image = image or (m.group(1) if m else None)
        m = re.search(r'^imageid="?([0-9a-f]+)"?', cenv, re.M)
        image_id = image_id or (m.group(1) if m else None)
    elif Path("/.dockerenv").exists():
        kind = "docker"
    elif os.environ.get("APPTAINER_CONTAINER") or os.environ.get("SINGULARITY_CONTAINER"):
        kind = "apptainer"
        image = image or os.environ.get("APPTAINER_CONTAINER") or os.environ.get("SINGULARITY_CONTAINER")
    elif os.environ.get("container"):
        kind = os.environ["container"]
    elif os.environ.get("KUBERNETES_SERVICE_HOST"):
        kind = "kubernetes"
    build = _image_identity()
    if build is not None:
        kind = kind or "unknown runtime"
        image = image or build.get("name")
        image_id = image_id or "build:" + hashlib.sha256(
            json.dumps(build, sort_keys=True).encode()).hexdigest()[:12]
    return {"inside": kind is not None or image is not None, "kind": kind, "image": image,
            "image_id": image_id, "build": build}


def node_info():
    """Which node ran this: the scheduler's name for it (the one its
    --nodelist takes) and the job, when run by Slurm; else the host name."""
    slurm_node = os.environ.get("SLURMD_NODENAME")
    return {"name": slurm_node or hostname(), "host": hostname(),
            "scheduler": "slurm" if os.environ.get("SLURM_JOB_ID") else None,
            "slurm_node": slurm_node,
            "slurm_job_id": os.environ.get("SLURM_JOB_ID"),
            "slurm_cluster": os.environ.get("SLURM_CLUSTER_NAME"),
            "slurm_partition": os.environ.get("SLURM_JOB_PARTITION")}


# -- the whole thing ---------------------------------------------------------------
def stable_id(stable):
    blob = json.dumps(stable, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(blob).hexdigest()[:12]


def collect(directory="."):
    stable = {
        "cpu": cpu_info(),
        "frequency": frequency_info(),
        "memory": memory_info(),
        "kernel": kernel_info(),
        "os": os_info(),
        "mitigations": mitigations(),
        "storage": storage_of(directory),
        "toolchain": toolchain(),
        "container": container_info(),
    }
    mi = {k: v for k, v in (l.split(":", 1) for l in _read("/proc/meminfo", "").splitlines())}
    volatile = {
        "collected_at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "uptime_s": float(_read("/proc/uptime", "0 0").split()[0]),
        "loadavg": [float(x) for x in _read("/proc/loadavg", "0 0 0").split()[:3]],
        "mem_available_bytes": int(mi.get("MemAvailable", "0 kB").split()[0]) * 1024,
    }
    # which directory was looked at is not part of the id: its filesystem is
    # `node` is not part of the id either: identical nodes share an id
    return {"schema": SCHEMA, "id": stable_id(stable), "host": hostname(), "node": node_info(),
            "directory": str(Path(directory).resolve()),
            "stable": stable, "volatile": volatile}


def parse_args(argv):
    p = argparse.ArgumentParser(prog="python -m hardware.fingerprint",
                                description="Describe this host; print or write its fingerprint.")
    p.add_argument("--dir", default=".", help="directory on the database filesystem "
                                              "(default: the current one)")
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--out", help="write the fingerprint JSON here")
    g.add_argument("--id", action="store_true", help="print only the id")
    return p.parse_args(argv)


@cli
def main(argv=None):
    a = parse_args(sys.argv[1:] if argv is None else argv)
    fp = collect(a.dir)
    if a.id:
        print(fp["id"])
    else:
        write_text(a.out, json.dumps(fp, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
