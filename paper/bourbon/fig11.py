"""bourbon/fig11 (paper Figure 11): mean lookup latency of WiscKey and
Bourbon under six request distributions, per dataset, speedup on top."""

from paper import plotting
from paper.bourbon import common


def figure(rows, spec):
    plotting.style()
    lat = common.latency_us(rows)
    datasets = common.present(list(spec["datasets"]), lat["dataset"]) or list(spec["datasets"])
    order = list(spec["workloads"])
    fig, axes = plotting.panels(1, len(datasets), 7, 4.2)
    for ax, ds in zip(axes[0], datasets):
        d = lat[lat["dataset"] == ds].assign(dataset=lambda f: f["workload"])
        common.bars(ax, d, "dataset", common.present(order, d["dataset"]), ["WiscKey", "Bourbon"],
                    "mean lookup latency (µs)", common.speedup(d))
        ax.set_title(f"{common.dataset_name(ds)}: request distributions; Bourbon's speedup on top")
    plotting.mark_failures(fig, rows, by=("engine", "dataset", "workload"))
    fig.tight_layout()
    return fig, common.latency_table(lat, ["dataset", "workload"])
