"""baseline/point: point-lookup latency and throughput of pristine LevelDB
and RocksDB on a uniform and a lognormal key set. Bars are the mean over
repetitions, error bars one standard deviation, dots the repetitions.

    python -m paper.baseline.point --tidy results/local/tidy/baseline.csv \
        --out-pdf ... --out-png ... --out-csv ... --out-md ...
"""
import argparse

import matplotlib.pyplot as plt
import seaborn as sns

from lsmrepro.errors import cli
from paper import plotting


def figure(rows):
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
        sns.stripplot(data=data, x="dataset", y="value", hue="engine", dodge=True,
                      color="black", size=3, ax=ax, legend=False)
        ax.set_xlabel("dataset")
        ax.set_ylabel(label)
    for ax in axes[1:]:
        if ax.get_legend():
            ax.get_legend().remove()
    n = rows.groupby(["engine", "dataset"])["repetition"].nunique().min()
    fig.suptitle(f"Point lookups, pristine engines (n = {n} repetitions, error bars: sd)")
    fig.tight_layout()
    return fig


def table(rows):
    by = ["engine", "dataset"]
    return plotting.summary_table({
        "mean latency ns": plotting.metric(rows, "latency_mean", op="get", subset="all"),
        "p99 ns": plotting.metric(rows, "latency_p99", op="get", subset="all"),
        "throughput ops/s": plotting.metric(rows, "run_throughput"),
        "index bytes": plotting.metric(rows, "index_bytes"),
    }, by)


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tidy", required=True)
    for name in ("pdf", "png", "csv", "md"):
        ap.add_argument(f"--out-{name}", required=True)
    args = ap.parse_args(argv)
    rows = plotting.read_tidy(args.tidy, "point")
    plotting.save_figure(figure(rows), args.out_pdf, args.out_png)
    plotting.save_table(table(rows), args.out_csv, args.out_md,
                        "Point lookups of pristine LevelDB and RocksDB: mean, sd and n over repetitions.")


if __name__ == "__main__":
    main()
