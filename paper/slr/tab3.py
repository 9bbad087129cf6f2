"""slr/tab3 (paper Table 3): the paper's experimental system beside this
run's, read from the hardware fingerprint (spec['fingerprint']), the pinned
LevelDB source (engines/sources.yaml) and the datasets' manifests."""
import pandas as pd

from engines import registry
from paper.slr import common

# Seed 003, Table 3 (and §5's text: 16 cores, Linux 5.10).
PAPER = {
    "CPU": "Intel(R) Core(TM) i7-10700K CPU @ 3.80 GHz (16 cores)",
    "Memory": "16,384 MB",
    "Storage": "150 GB NVMe SSD",
    "OS": "Debian 11 (Bullseye), Linux 5.10",
    "Key-value store": "LevelDB version 1.23",
    "Workloads": "OSM (Open Street Map), TUD (Twitter User Data)",
}


def _size(n):
    return f"{n / 2**30:,.1f} GiB" if n else "unknown"


def ours(spec):
    fp = spec.get("fingerprint") or {}
    st = fp.get("stable", {})
    if not st:
        raise ValueError("no hardware fingerprint given (spec['fingerprint'] is empty)")
    cpu, mem, os_, kernel = st.get("cpu", {}), st.get("memory", {}), st.get("os", {}), st.get("kernel", {})
    dev = st.get("storage", {}).get("device", {}) or {}
    fs = st.get("storage", {}).get("filesystem", {}) or {}
    virt = f", {cpu['hypervisor']} guest" if cpu.get("hypervisor") else ""
    model = dev.get("model") or dev.get("driver") or "unknown model"
    kind = "rotational" if dev.get("rotational") else "non-rotational"
    container = st.get("container", {}) or {}
    leveldb = registry.load_sources()["leveldb"]["version"]
    names = common.labels(spec)
    workloads = "; ".join(common.dataset_title(names[n], p) for n, p in spec["dataset_files"].items())
    return {
        "CPU": f"{cpu.get('model', 'unknown')} ({cpu.get('cores', '?')} cores, {cpu.get('threads', '?')} threads{virt})",
        "Memory": _size(mem.get("total_bytes", 0)),
        "Storage": f"{_size(dev.get('size_bytes', 0))} {dev.get('name', '?')} ({model}, reported {kind}), "
                   f"{fs.get('type', '?')}; lookups ran from memory",
        "OS": f"{os_.get('pretty_name', 'unknown')}, Linux {kernel.get('release', '?')}"
              + (f" (in a {container.get('kind')} container)" if container.get("inside") else ""),
        "Key-value store": f"LevelDB version {leveldb} with the leveldb-hooks and leveldb-learned layers (SLR tables)",
        "Workloads": workloads,
    }


def figure(rows, spec):
    mine = ours(spec)
    fp_id = (spec.get("fingerprint") or {}).get("id", "")
    return None, pd.DataFrame({"component": list(PAPER), "paper (Table 3)": list(PAPER.values()),
                               f"this run (fingerprint {fp_id})": [mine[k] for k in PAPER]})
