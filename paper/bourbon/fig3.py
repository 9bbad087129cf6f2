"""bourbon/fig3 (paper Figure 3): SSTable lifetimes under mixed workloads:
(a) mean lifetime per level and write percentage; (b) lifetime CDF of the
shallowest and deepest populated level below L0 at 5% writes; (c) the same
per write percentage."""
import numpy as np

from paper import plotting
from paper.bourbon import lifetimes as lt


def percent(workload):
    return int(str(workload).lstrip("w"))


def cdf(ax, values, label, **kw):
    v = np.sort(np.asarray(values, dtype=float))
    if len(v):
        ax.step(v, np.arange(1, len(v) + 1) / len(v), where="post", label=label, **kw)


def figure(rows, spec):
    plotting.style()
    t = lt.lifetimes(lt.tables(rows))
    fig, (axes,) = plotting.panels(1, 3, 6, 4.2)
    table = None
    if len(t):
        t["writes %"] = t["workload"].map(percent)
        mean = t.groupby(["level_n", "writes %"])["lifetime"].mean().unstack("writes %")
        mean.plot.bar(ax=axes[0], logy=True)
        axes[0].set_xticklabels([f"L{i}" for i in mean.index], rotation=0)
        axes[0].set_xlabel("level")
        axes[0].set_ylabel("mean lifetime (s)")
        axes[0].legend(title="writes %", fontsize=8)
        below = sorted(set(t["level_n"]) - {0}) or [0]
        shown = sorted({below[0], below[-1]})
        at5 = t[t["writes %"] == (5 if 5 in set(t["writes %"]) else t["writes %"].min())]
        for level in shown:
            cdf(axes[1], at5[at5["level_n"] == level]["lifetime"], f"L{level}")
        axes[1].set_title(f"(b) lifetimes at {at5['writes %'].iloc[0]}% writes")
        styles = {shown[0]: "-", shown[-1]: "--"}
        for w, g in t.groupby("writes %"):
            for level in shown:
                cdf(axes[2], g[g["level_n"] == level]["lifetime"], f"L{level}, {w}% writes", ls=styles[level])
        for ax in axes[1:]:
            ax.set_xscale("log")
            ax.set_xlabel("lifetime (s)")
            ax.set_ylabel("share of tables")
            ax.legend(fontsize=7)
        table = t.groupby(["writes %", "level"]).agg(tables=("file", "count"), mean_lifetime_s=("lifetime", "mean"),
                                                     median_lifetime_s=("lifetime", "median"),
                                                     estimated=("censored", "sum")).reset_index()
    axes[0].set_title("(a) mean lifetime per level")
    axes[2].set_title("(c) lifetimes per write percentage")
    plotting.mark_failures(fig, rows, by=("engine", "workload"))
    fig.tight_layout()
    return fig, table
