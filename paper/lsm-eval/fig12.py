"""lsm-eval/fig12 (the paper's Figure 12): index granularity. Per position
boundary (128, 16), point-lookup latency (bars, mean ± sd) and index memory
(lines, right axis, log) of data-clustered indexes against the SSTable size.
The rightmost group is the level granularity (granularity=level over 8 MiB
tables), whose memory is the level models' bytes."""
import pandas as pd
import seaborn as sns

from paper import lsm_eval as le
from paper import plotting

LEVEL = "level model"


def figure(rows, spec):
    plotting.style()
    level = rows[rows["granularity"].astype(str) == "level"] if "granularity" in rows.columns else rows.iloc[0:0]
    files = rows.drop(level.index)
    lat = pd.concat([le.per_run(files, "latency_mean", 1e-3, op="get", subset="all"),
                     le.per_run(level, "latency_mean", 1e-3, op="get", subset="all").assign(level=True)])
    # a level model's memory is its level models' bytes (the tables' own models aside)
    mem = pd.concat([le.memory_mib(files), le.per_run(level, "index_bytes_level_models", 1 / 2**20).assign(level=True)])
    for f in (lat, mem):
        f["sstable"] = [LEVEL if lv == True else f"{int(s) // 2**20} MiB"  # noqa: E712 (NaN for file rows)
                        for s, lv in zip(f["sstable_size"], f.get("level", [None] * len(f)))]
        f["position_boundary"] = f["position_boundary"].astype(int)
    bounds = sorted(lat["position_boundary"].unique(), reverse=True)
    fig, axes = plotting.panels(1, max(1, len(bounds)), 6, 3.6)
    sizes = [f"{s // 2**20} MiB" for s in sorted(le.as_int(files[files["metric"] == "latency_mean"], "sstable_size")["sstable_size"].unique())]
    sizes += [LEVEL] if len(level) else []
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
        plotting.shows(ax, L, "latency_mean")
        twin.set_yscale("log")
        twin.set_ylabel("index memory (MiB, lines)")
        twin.grid(False)
    plotting.mark_failures(fig, rows, by=("index", "point"))
    fig.tight_layout()
    return fig, plotting.summary_table({"latency µs": lat, "index MiB": mem},
                                       ["index", "position_boundary", "sstable"])
