"""bourbon/fig14 (paper Figure 14): YCSB A–F on three datasets, Bourbon's
throughput normalised to WiscKey's (bars), each's operations per second in
the table."""
import matplotlib.pyplot as plt

from paper import plotting
from paper.bourbon import common


def normalised(ax, rows, spec, title):
    tput = common.throughput(rows)
    sp = common.speedup(tput, higher_is_better=True)
    datasets = common.present(list(spec["datasets"]), sp["dataset"])
    workloads = list(spec["workloads"])
    width = 0.8 / max(len(datasets), 1)
    for j, ds in enumerate(datasets):
        d = sp[sp["dataset"] == ds].set_index("workload")
        xs = [i + (j - (len(datasets) - 1) / 2) * width for i, w in enumerate(workloads) if w in d.index]
        ys = [d.loc[w, "speedup"] for w in workloads if w in d.index]
        es = [d.loc[w, "sd"] for w in workloads if w in d.index]
        ax.bar(xs, ys, width, yerr=[0 if e != e else e for e in es], capsize=2, label=ds)
        for x, y in zip(xs, ys):
            ax.annotate(f"{y:.2f}", (x, y), xytext=(0, 3), textcoords="offset points", ha="center", fontsize=7)
    common.shows_speedups(ax, sp, tput.attrs["metric"])
    ax.axhline(1, color="#888888", lw=1, ls=":")
    ax.set_xticks(range(len(workloads)), [f"YCSB-{w}" for w in workloads])
    ax.set_ylabel("throughput normalised to WiscKey")
    ax.set_title(title)
    ax.legend(fontsize=8)
    return common.latency_table(tput, ["dataset", "workload"], unit="ops/s", higher_is_better=True)


def figure(rows, spec):
    plotting.style()
    fig, ax = plt.subplots(figsize=(10, 4.2))
    table = normalised(ax, rows, spec, "YCSB: Bourbon (cba) / WiscKey")
    plotting.mark_failures(fig, rows, by=("engine", "dataset", "workload"))
    fig.tight_layout()
    return fig, table
