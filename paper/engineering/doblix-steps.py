"""engineering/doblix-steps: a get's steps (RocksDB's PerfContext) for both
tables side by side: the index and in-block search per get, the blocks a get
touches, the blocks a DobLIX model lookup loads (our one-block target)."""
import matplotlib.pyplot as plt
import seaborn as sns

from paper import plotting
from paper.engineering import pairs

ONE_BLOCK = 1.0  # claims.yaml: a DobLIX model lookup loads one data block


def _bars(ax, rows, metric, ylabel):
    sel = plotting.metric(rows, metric).assign(value=lambda f: f["value"].astype(float))
    if sel.empty:
        ax.set_axis_off()
        return sel
    sns.barplot(data=sel, x="dataset", y="value", hue="variant", errorbar="sd", capsize=0.1, ax=ax)
    plotting.shows(ax, sel)
    ax.set_ylabel(ylabel)
    ax.set_xlabel("")
    return sel


def figure(rows, spec):
    plotting.style()
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.6))
    _bars(axes[0], rows, "search_ns_per_get", "index + in-block search ns per get")
    _bars(axes[1], rows, "blocks_per_get", "blocks per get")
    _bars(axes[2], rows, "model_blocks_per_lookup", "data blocks per model lookup")
    axes[2].axhline(ONE_BLOCK, color="#c0392b", linestyle="--", linewidth=1, label="target 1")
    axes[2].legend(fontsize=7)
    plotting.mark_failures(fig, rows, by=("dataset", "key_encoding"))
    fig.tight_layout()
    return fig, table(rows)


def table(rows):
    return pairs.table(rows, {"get mean ns": "get_mean_ns", "search ns": "search_ns_per_get",
                              "blocks per get": "blocks_per_get", "blocks per model lookup": "model_blocks_per_lookup"})
