"""doblix/fig9 (the paper's Figure 9): throughput of the four systems per
dataset, one panel per workload (read-only, read-heavy, balanced,
write-heavy); bars: mean over repetitions of each run's operations per
second, error bars one standard deviation; the table adds DobLIX's ratio to
each baseline."""
from paper import plotting
from paper.doblix import systems as sy


def figure(rows, spec):
    plotting.style()
    rows = sy.with_system(rows)
    t = plotting.metric(rows, "run_throughput").assign(value=lambda d: d["value"] / 1e3)
    workloads = sy.present(list(spec["workloads"]), t["workload"])
    datasets = sy.present(list(spec["datasets"]), t["dataset"])
    fig, axes = sy.panel_axes(len(workloads))
    for ax, w in zip(axes, workloads):
        sy.grouped_bars(ax, t[t["workload"] == w], "dataset", datasets, "throughput (K ops/s)")
        ax.set_title(sy.PANELS.get(w, w))
    sy.legend(fig, axes)
    plotting.mark_failures(fig, rows, by=("workload", "dataset", "system"))
    fig.tight_layout(rect=(0, 0, 1, 0.92))
    return fig, sy.ratio_table(t, ["workload", "dataset"], "K ops/s")
