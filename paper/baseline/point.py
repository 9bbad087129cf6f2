"""baseline/point: point-lookup latency and throughput of pristine LevelDB
and RocksDB on a uniform and a lognormal key set. Bars are the mean over
repetitions, error bars one standard deviation, dots the repetitions."""
import matplotlib.pyplot as plt
import seaborn as sns

from paper import plotting


def figure(rows, spec):
    plotting.style()
    latency = plotting.metric(rows, "latency_mean", op="get", subset="all")
    p99 = plotting.metric(rows, "latency_p99", op="get", subset="all")
    throughput = plotting.metric(rows, "run_throughput")
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.4))
    for ax, data, scale, label in ((axes[0], latency, 1e-3, "mean get latency (µs)"),
                                   (axes[1], p99, 1e-3, "p99 get latency (µs)"),
                                   (axes[2], throughput, 1e-3, "throughput (kops/s)")):
        data = data.assign(value=data["value"] * scale)
        sns.barplot(data=data, x="dataset", y="value", hue="engine", errorbar="sd",
                    capsize=0.1, ax=ax, alpha=0.8)
        plotting.shows(ax, data)
        sns.stripplot(data=data, x="dataset", y="value", hue="engine", dodge=True,
                      palette="dark:black", size=3, ax=ax, legend=False)
        ax.set_xlabel("dataset")
        ax.set_ylabel(label)
    for ax in axes[1:]:
        if ax.get_legend():
            ax.get_legend().remove()
    n = latency.groupby(["engine", "dataset"])["repetition"].nunique().min()
    fig.suptitle(f"Point lookups, pristine engines (n = {n} repetitions, error bars: sd)")
    plotting.mark_failures(fig, rows)
    fig.tight_layout()
    return fig, table(rows)


def table(rows):
    return plotting.summary_table({
        "mean latency ns": plotting.metric(rows, "latency_mean", op="get", subset="all"),
        "p99 ns": plotting.metric(rows, "latency_p99", op="get", subset="all"),
        "throughput ops/s": plotting.metric(rows, "run_throughput"),
        "index bytes": plotting.metric(rows, "index_bytes"),
    }, ["engine", "dataset"])
