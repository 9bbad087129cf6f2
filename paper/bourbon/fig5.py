"""bourbon/fig5 (paper Figure 5), from Figure 3's runs: (a) timeline of
table creations and deletions at L1 and below, per second of the run,
divided by the level's tables, at 5% writes; (b) time between bursts of
changes at the deepest level against the write percentage."""
import numpy as np
import pandas as pd

from paper import plotting
from paper.bourbon import lifetimes as lt
from paper.bourbon.fig3 import percent

BURST_GAP_S = 1.0  # changes less than this apart are one burst


def figure(rows, spec):
    plotting.style()
    t = lt.tables(rows)
    fig, (axes,) = plotting.panels(1, 2, 7, 4.2)
    out = []
    if len(t):
        t["writes %"] = t["workload"].map(percent)
        ch = lt.changes(t)
        ch["writes %"] = ch["workload"].map(percent)
        w5 = 5 if 5 in set(t["writes %"]) else t["writes %"].min()
        c5, t5 = ch[(ch["writes %"] == w5) & (ch["level_n"] >= 1)], t[(t["writes %"] == w5)]
        end = t5["end"].max()
        bins = np.arange(0, np.ceil(end) + 1, 1.0) if end >= 2 else np.linspace(0, max(end, 1e-3), 21)
        for level, g in c5.groupby("level_n"):
            files = max(1, (t5["level_n"] == level).sum() / max(1, t5["run"].nunique()))
            counts, edges = np.histogram(g["time"], bins=bins)
            axes[0].step(edges[:-1], counts / files, where="post", label=f"L{level}")
        axes[0].set_xlabel("time since the run started (s)")
        axes[0].set_ylabel("#changes / #files")
        axes[0].set_title(f"(a) level changes at {w5}% writes (bins {bins[1] - bins[0]:.3g} s)")
        axes[0].legend(fontsize=8)
        deepest = int(t["level_n"].max())
        for (run, w), g in t.groupby(["run", "writes %"]):
            times = ch[(ch["run"] == run) & (ch["level_n"] == deepest)]["time"]
            gaps = lt.bursts(times, BURST_GAP_S)
            run_end = g["end"].max()
            out.append({"writes %": w, "run": run, "level": f"L{deepest}", "changes": len(times),
                        "bursts": len(gaps) + (1 if len(times) else 0),
                        "time between bursts s": float(gaps.mean()) if len(gaps) else run_end,
                        "never changed twice (run length)": not len(gaps)})
        b = pd.DataFrame(out).groupby("writes %")["time between bursts s"].mean()
        axes[1].bar(range(len(b)), b.values)
        axes[1].set_xticks(range(len(b)), [f"{w}%" for w in b.index])
        axes[1].set_xlabel("writes")
        axes[1].set_ylabel("time between bursts (s)")
        axes[1].set_title(f"(b) L{deepest}: time between bursts of changes")
    plotting.mark_failures(fig, rows, by=("engine", "workload"))
    fig.tight_layout()
    return fig, pd.DataFrame(out)
