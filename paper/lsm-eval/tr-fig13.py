"""lsm-eval/tr-fig13 (technical report Figure 13): range-lookup latency of
data-clustered indexes against the position boundary, one panel per
zipfian dataset, a line per (index, scan length), mean ± one sd."""
import seaborn as sns

from paper import lsm_eval as le
from paper import plotting


def figure(rows, spec):
    plotting.style()
    lat = le.as_int(le.per_run(rows, "latency_mean", 1e-3, op="scan", subset="all"), "position_boundary")
    datasets = list(spec["datasets"])
    fig, axes = plotting.panels(1, len(datasets), 6, 3.6)
    for ax, d in zip(axes[0], datasets):
        sns.lineplot(data=lat[lat["dataset"] == d], x="position_boundary", y="value", hue="index",
                     style="workload", marker="o", errorbar="sd", ax=ax)
        ax.set_xscale("log", base=2)
        ax.set_ylabel("range lookup latency (µs)")
        ax.set_title(le.DATASET_LABEL.get(d, d))
    plotting.mark_failures(fig, rows, by=("dataset", "point"))
    fig.tight_layout()
    return fig, plotting.summary_table({"range latency µs": lat},
                                       ["dataset", "workload", "index", "position_boundary"])
