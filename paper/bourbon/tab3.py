"""bourbon/tab3 (paper Table 3): limited memory (about a quarter of the
database as page cache), WiscKey vs Bourbon under uniform and zipfian
(consecutive hotspot) requests, and each run's measured memory peak."""
from paper.bourbon import common
from paper.bourbon.tab2 import device_latency


def figure(rows, spec):
    lat = common.latency_us(rows)
    t = common.latency_table(lat, ["workload"])
    limit = common.per_run(rows, "memory_limit_bytes")
    peak = common.per_run(rows, "memory_peak_bytes")
    db = common.per_run(rows, "load_table_bytes")
    t["memory limit MiB"] = [limit[limit["workload"] == w]["value"].mean() / 2**20 for w in t["workload"]]
    t["memory peak MiB"] = [peak[peak["workload"] == w]["value"].mean() / 2**20 for w in t["workload"]]
    t["device 4 KiB random read µs (fio, qd1)"] = device_latency(rows)
    return None, t
