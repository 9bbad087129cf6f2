"""bourbon/fig8 (paper Figure 8): latency breakdown of WiscKey's path
(learning=never) and Bourbon's (learning=offline) per dataset, stacked to
the mean get latency; Search and LoadData are the steps Bourbon optimises,
with the factor by which each is faster."""
import pandas as pd

from paper import plotting
from paper.bourbon import common, steps

PARTS = ["FindFiles", "LoadIB+FB", "SearchFB", "Search", "LoadData", "ReadValue", "Other"]
SYSTEMS = {"never": "WiscKey", "offline": "Bourbon"}


def breakdown(rows):
    st = steps.per_run(rows[rows["experiment"] == "fig8"] if "experiment" in rows else rows)
    if st.empty:
        return st
    st["Search"] = st["SearchIB"] + st["SearchDB"] + st["ModelLookup"] + st["LocateKey"]
    st["system"] = st["learning"].map(SYSTEMS)
    return st.groupby(["dataset", "system"])[PARTS + ["total"]].mean()


def figure(rows, spec):
    plotting.style()
    b = breakdown(rows)
    present = set(b.index.get_level_values(0)) if len(b) else set()
    datasets = [d for d in spec["datasets"] if d in present] or list(spec["datasets"])[:1]
    fig, axes = plotting.panels(1, len(datasets), 5.5, 4.4)
    out = []
    for ax, ds in zip(axes[0], datasets):
        if ds not in b.index.get_level_values(0):
            continue
        d = b.loc[ds].reindex([s for s in SYSTEMS.values() if s in b.loc[ds].index])
        steps.stacked(ax, d, PARTS, list(d.index))
        if len(d) == 2:
            for part in ("Search", "LoadData"):
                factor = d.loc["WiscKey", part] / d.loc["Bourbon", part] if d.loc["Bourbon", part] else float("nan")
                y = (d.loc["Bourbon", PARTS[:PARTS.index(part)]].clip(lower=0).sum() + d.loc["Bourbon", part] / 2) / 1e3
                ax.annotate(f"{factor:.2f}×", (1.32, y), fontsize=8, va="center")
        ax.set_title(f"{common.dataset_name(ds)}")
        out.append(d.reset_index().assign(dataset=ds))
    axes[0][-1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.08, 1))
    plotting.mark_failures(fig, rows, by=("engine", "learning", "dataset"))
    fig.tight_layout()
    return fig, pd.concat(out, ignore_index=True) if out else pd.DataFrame()
