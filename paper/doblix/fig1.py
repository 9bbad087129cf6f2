"""doblix/fig1 (the paper's Figure 1): where a lookup's time goes with
RocksDB's native block-based index on WIKI: a) index lookup (S-file and the
index/data-block seeks) against data access (L-block) and the rest of the
get; b) the index lookup's parts. Shares of the mean get latency, from
lsmbench's perf_steps timers, averaged over repetitions."""
import matplotlib.pyplot as plt

from paper import plotting
from paper.doblix import systems as sy

INDEX = ["S-file", "S-block + S-KV"]


def figure(rows, spec):
    plotting.style()
    s = sy.steps_per_get(rows)
    s = s[s["system"] == "RocksDB"]
    per = s.groupby(["dataset", "step"])["value"].mean().unstack("step").fillna(0.0)
    total = per.sum(axis=1)
    groups = {"index lookup": per[[c for c in INDEX if c in per]].sum(axis=1),
              "data access (L-block)": per.get("L-block", 0.0), "other": per.get("other", 0.0)}
    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 2.6))
    for ax, parts, title in ((a, groups, "a: index lookup vs data access"),
                             (b, {c: per[c] for c in INDEX if c in per}, "b: index lookup's parts")):
        left = 0.0 * total
        for (name, value), color in zip(parts.items(), ["#2980b9", "#e67e22", "#bdc3c7", "#8e44ad"]):
            share = value / (total if ax is a else sum(parts.values()))
            ax.barh(per.index, share, left=left, label=name, color=color)
            left = left + share
        ax.set_xlim(0, 1)
        ax.set_xlabel("share of the time")
        ax.set_title(title)
        ax.legend(fontsize=7, loc="lower right")
    plotting.mark_failures(fig, rows, by=("dataset", "engine"))
    fig.tight_layout()
    table = per.assign(**{"mean get ns": total}).reset_index()
    for name, value in groups.items():
        table[f"share {name}"] = (value / total).to_numpy()
    return fig, table
