"""slr/fig9 (paper Figure 9): distribution of key comparisons per lookup,
from the engine's per-get counts (index block; and the whole lookup)."""
import numpy as np
import pandas as pd

from paper import plotting
from paper.slr import common

KINDS = {"lookup_index_comparisons_gets": "index block", "lookup_comparisons_gets": "index + data block"}
TAIL = 24  # the paper's long tail of equal-size SLR starts at 24 comparisons


def _distribution(rows, metric):
    """(dataset, slr, comparisons) -> gets, summed over runs."""
    d = plotting.metric(rows, metric)
    if d.empty:
        return pd.DataFrame(columns=["dataset", "slr", "comparisons", "gets"])
    d = d.assign(comparisons=d["subset"].astype(int))
    return d.groupby(["dataset", "slr", "comparisons"], as_index=False)["value"].sum().rename(columns={"value": "gets"})


def figure(rows, spec):
    plotting.style()
    datasets = list(spec["datasets"])
    fig, axes = plotting.panels(len(KINDS), len(datasets), 5.4, 7 / len(KINDS))
    for r, (metric, what) in enumerate(KINDS.items()):
        dist = _distribution(rows, metric)
        for c, ds in enumerate(datasets):
            ax = axes[r][c]
            for m in common.mechanisms(rows):
                g = dist[(dist["dataset"] == ds) & (dist["slr"] == m)].sort_values("comparisons")
                if g.empty:
                    continue
                marker, line = common.STYLES[m]
                ax.plot(g["comparisons"], g["gets"] / g["gets"].sum(), marker=marker, ls=line, ms=5, lw=1.2,
                        mfc="none", color=common.COLORS[m], label=common.MECHANISMS[m].replace("\n", " "))
            ax.set_yscale("log")
            ax.set_xlabel(f"key comparisons per lookup ({what})")
            ax.set_ylabel("share of lookups")
            ax.set_title(ds)
    axes[0][0].legend(fontsize=8)
    fig.suptitle("Number of comparisons per lookup (Figure 9)")
    plotting.mark_failures(fig, rows, by=("slr", "dataset"))
    fig.tight_layout()
    return fig, table(rows)


def table(rows):
    out = []
    for metric, what in KINDS.items():
        dist = _distribution(rows, metric)
        for (ds, m), g in dist.groupby(["dataset", "slr"]):
            c, w = g["comparisons"].to_numpy(), g["gets"].to_numpy()
            cum = np.cumsum(w) / w.sum()
            out.append({"dataset": ds, "mechanism": m, "comparisons in": what, "lookups": int(w.sum()),
                        "mean": float((c * w).sum() / w.sum()), "min": int(c.min()),
                        "p50": int(c[np.searchsorted(cum, 0.5)]), "p99": int(c[np.searchsorted(cum, 0.99)]),
                        "max": int(c.max()), f"share >= {TAIL} (%)": 100 * float(w[c >= TAIL].sum() / w.sum())})
    return pd.DataFrame(out)
