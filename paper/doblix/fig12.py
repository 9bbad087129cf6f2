"""doblix/fig12 (the paper's Figure 12): throughput of the four systems on
OSM, a: YCSB core workloads A–F, b: read-only lookups under six request
distributions. Bars: mean over repetitions, one sd; the table adds DobLIX's
ratio to each baseline."""
from paper import plotting
from paper.doblix import systems as sy

YCSB = ["A", "B", "C", "D", "E", "F"]
DISTRIBUTIONS = ["uniform", "zipfian", "latest", "hotspot", "exponential", "sequential"]


def figure(rows, spec):
    plotting.style()
    t = sy.with_system(plotting.metric(rows, "run_throughput")).assign(value=lambda d: d["value"] / 1e3)
    panels = [(title, sy.present(names, t["workload"])) for title, names in
              (("a: YCSB workloads", YCSB), ("b: request distributions (read-only)", DISTRIBUTIONS))]
    panels = [(title, names) for title, names in panels if names]
    fig, axes = sy.panel_axes(len(panels), width=6.0)
    for ax, (title, names) in zip(axes, panels):
        sy.grouped_bars(ax, t[t["workload"].isin(names)], "workload", names, "throughput (K ops/s)")
        ax.set_title(title)
    sy.legend(fig, axes)
    plotting.mark_failures(fig, sy.with_system(rows), by=("workload", "system"))
    fig.tight_layout(rect=(0, 0, 1, 0.9))
    return fig, sy.ratio_table(t, ["workload"], "K ops/s")
