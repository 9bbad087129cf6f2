"""bourbon/fig12 (paper Figure 12): range-query throughput of Bourbon
normalised to WiscKey's against the range length, per dataset."""
import matplotlib.pyplot as plt

from paper import plotting
from paper.bourbon import common


def figure(rows, spec):
    plotting.style()
    tput = common.throughput(rows)
    sp = common.speedup(tput, higher_is_better=True)
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for ds in common.present(list(spec["datasets"]), sp["dataset"]):
        d = sp[sp["dataset"] == ds].assign(length=common.range_length).sort_values("length")
        ax.errorbar(d["length"], d["speedup"], yerr=d["sd"].fillna(0), marker="o", capsize=3, label=ds)
    common.shows_speedups(ax, sp, tput.attrs["metric"])
    ax.axhline(1, color="#888888", lw=1, ls=":")
    ax.set_xscale("log")
    ax.set_xlabel("range length (entries)")
    ax.set_ylabel("throughput normalised to WiscKey")
    ax.set_title("Range queries: Bourbon / WiscKey")
    ax.legend()
    plotting.mark_failures(fig, rows, by=("engine", "dataset", "workload"))
    fig.tight_layout()
    return fig, common.latency_table(tput, ["dataset", "workload"], unit="ops/s", higher_is_better=True)
