"""lsm-eval/fig12 (the paper's Figure 12): index granularity. Per position
boundary (128, 16), point-lookup latency (bars, mean ± sd) and index memory
(lines, right axis, log) of data-clustered indexes against the SSTable size.
The paper's rightmost level-granularity model needs a level model, which
leveldb-learned does not have (granularity=file only)."""
import matplotlib.pyplot as plt
import seaborn as sns

from paper import lsm_eval as le
from paper import plotting


def figure(rows, spec):
    plotting.style()
    lat = le.as_int(le.latency_us(rows), "sstable_size")
    mem = le.as_int(le.memory_mib(rows), "sstable_size")
    for f in (lat, mem):
        f["sstable"] = (f["sstable_size"] // 2**20).astype(str) + " MiB"
        f["position_boundary"] = f["position_boundary"].astype(int)
    bounds = sorted(lat["position_boundary"].unique(), reverse=True)
    fig, axes = plt.subplots(1, max(1, len(bounds)), figsize=(6 * max(1, len(bounds)), 3.6), squeeze=False)
    sizes = [f"{s // 2**20} MiB" for s in sorted(lat["sstable_size"].unique())]
    for ax, b in zip(axes[0], bounds):
        L, M = lat[lat["position_boundary"] == b], mem[mem["position_boundary"] == b]
        order = le.present(le.CLUSTERED, L)
        sns.barplot(data=L, x="sstable", y="value", hue="index", order=sizes, hue_order=order,
                    errorbar="sd", capsize=0.05, ax=ax, alpha=0.85)
        ax.set_ylabel("latency (µs)")
        ax.set_xlabel("SSTable size (granularity)")
        ax.set_title(f"position boundary {b}")
        twin = ax.twinx()
        palette = dict(zip(order, sns.color_palette(n_colors=len(order))))
        m = M.groupby(["sstable", "index"])["value"].mean()
        for name in order:
            line = m.xs(name, level="index").reindex(sizes) if name in m.index.get_level_values("index") else None
            if line is not None:
                twin.plot(range(len(sizes)), line.values, marker="o", color=palette[name])
        twin.set_yscale("log")
        twin.set_ylabel("index memory (MiB, lines)")
        twin.grid(False)
    plotting.mark_failures(fig, rows, by=("index", "point"))
    fig.tight_layout()
    return fig, plotting.summary_table({"latency µs": lat, "index MiB": mem},
                                       ["index", "position_boundary", "sstable_size"])
