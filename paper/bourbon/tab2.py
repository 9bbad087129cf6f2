"""bourbon/tab2 (paper Table 2): lookups with the data on the device (cold),
WiscKey vs Bourbon per dataset, with the device's calibrated latency."""
from paper.bourbon import common


def device_latency(rows):
    """The calibrated 4 KiB random-read latency at queue depth 1 (µs), mean
    over the runs' attached calibrations (one per machine: the same value)."""
    d = rows[rows["metric"] == "device_randread_4k_qd1_clat_mean_ns"]["value"]
    return d.mean() / 1e3 if len(d) else float("nan")


def figure(rows, spec):
    lat = common.latency_us(rows)
    t = common.latency_table(lat, ["dataset"])
    t["device 4 KiB random read µs (fio, qd1)"] = device_latency(rows)
    return None, t
