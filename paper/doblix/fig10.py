"""doblix/fig10 (the paper's Figure 10): tail latency, the mean of the
slowest 5% of the operations (lsmbench's tail5_mean of each latency record),
in Figure 9's runs: of the reads where the workload reads (a-c), of the
inserts in the write-only panel (d). Bars: mean over repetitions, one sd;
the table adds each baseline's tail over DobLIX's."""
import pandas as pd

from paper import plotting
from paper.doblix import systems as sy


def tail_us(rows):
    """tail5_mean of the reads, or of the inserts in a workload without reads."""
    t = plotting.metric(rows, "latency_tail5_mean", subset="all")
    reads = t[t["op"] == "get"]
    inserts = t[(t["op"] == "insert") & ~t["workload"].isin(set(reads["workload"]))]
    return sy.with_system(pd.concat([reads, inserts])).assign(value=lambda d: d["value"] / 1e3)


def figure(rows, spec):
    plotting.style()
    t = tail_us(rows)
    workloads = sy.present(list(sy.PANELS), t["workload"])
    datasets = sy.present(sy.DATASETS, t["dataset"])
    fig, axes = sy.panel_axes(len(workloads))
    for ax, w in zip(axes, workloads):
        part = t[t["workload"] == w]
        sy.grouped_bars(ax, part, "dataset", datasets, f"tail latency, slowest 5% of {part['op'].iloc[0]}s (µs)")
        ax.set_title(sy.PANELS[w])
    sy.legend(fig, axes)
    plotting.mark_failures(fig, sy.with_system(rows), by=("workload", "dataset", "system"))
    fig.tight_layout(rect=(0, 0, 1, 0.92))
    return fig, sy.ratio_table(t, ["workload", "op", "dataset"], "tail µs", lower_is_better=True)
