"""bourbon/fig2 (paper Figure 2): WiscKey's lookup latency breakdown with
the data in memory (Figure 8's learning=never runs on AR) and on this
machine's device (this figure's cold runs), with the device's calibrated
4 KiB random-read latency beside it."""
import matplotlib.pyplot as plt
import pandas as pd

from paper import plotting
from paper.bourbon import steps
from paper.bourbon.tab2 import device_latency

PARTS = ["FindFiles", "LoadIB+FB", "SearchIB", "SearchDB", "LoadData", "ReadValue", "Other"]


def figure(rows, spec):
    plotting.style()
    dataset = next(iter(spec["datasets"]))
    wk = rows[rows["learning"].astype(str) == "never"] if "learning" in rows else rows
    st = steps.per_run(wk[wk["dataset"] == dataset])
    fig, ax = plt.subplots(figsize=(6.5, 4.4))
    table = pd.DataFrame()
    if len(st):
        st["where"] = st["experiment"].map({"fig8": "in memory", "fig2": "this machine's device"})
        table = st.groupby("where")[PARTS + ["total"]].mean()
        table = table.reindex([w for w in ("in memory", "this machine's device") if w in table.index])
        steps.stacked(ax, table, PARTS, list(table.index))
        index = table[[p for p in PARTS if p in steps.INDEXING]].sum(axis=1) / table["total"]
        table["indexing share"] = index
        table = table.reset_index()
    dev = device_latency(rows)
    ax.set_title(f"WiscKey lookups on {dataset}\ndevice: fio 4 KiB random read, queue depth 1: {dev:.1f} µs mean",
                 fontsize=9)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1))
    table["device 4 KiB random read µs (fio, qd1)"] = dev
    plotting.mark_failures(fig, rows, by=("engine", "dataset"))
    fig.tight_layout()
    return fig, table
