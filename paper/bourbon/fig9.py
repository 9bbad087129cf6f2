"""bourbon/fig9 (paper Figure 9): (a) mean lookup latency of Bourbon,
Bourbon-level and WiscKey per dataset, Bourbon's speedup on top; (b) the
live models' PLR segments per dataset (file models)."""
import matplotlib.pyplot as plt

from paper import plotting
from paper.bourbon import common

SYSTEMS = ["Bourbon", "Bourbon-level", "WiscKey"]


def figure(rows, spec):
    plotting.style()
    order = [d for d in spec["datasets"]]
    lat = common.latency_us(rows)
    sp = common.speedup(lat)
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.2), gridspec_kw={"width_ratios": [3, 2]})
    common.bars(axes[0], lat, "dataset", common.present(order, lat["dataset"]), SYSTEMS, "mean lookup latency (µs)", sp)
    axes[0].set_title("(a) latency; Bourbon's speedup over WiscKey on top")
    seg = common.per_run(rows, "bourbon_live_segments")
    seg = seg[seg["system"] == "Bourbon"]
    means = seg.groupby("dataset")["value"].mean()
    present = common.present(order, means.index)
    axes[1].bar(range(len(present)), [means[d] for d in present], color=common.COLORS["Bourbon"])
    axes[1].set_xticks(range(len(present)), [common.dataset_name(d) for d in present])
    axes[1].set_yscale("log")
    axes[1].set_ylabel("PLR segments (live file models)")
    axes[1].set_title("(b) number of segments")
    plotting.mark_failures(fig, rows, by=("engine", "dataset"))
    fig.tight_layout()
    return fig, table(lat, sp, seg)


def table(lat, sp, seg):
    t = lat.groupby(["dataset", "system"])["value"].agg(["mean", "std", "count"]).unstack("system")
    t.columns = [f"{s} µs {stat}" for stat, s in t.columns]
    if len(sp):
        t = t.join(sp.set_index("dataset")[["speedup", "sd", "pairs"]].add_prefix("Bourbon "))
    t["segments"] = seg.groupby("dataset")["value"].mean()
    return t.reset_index()
