"""engineering/learned-indexes: leveldb-learned's indexes at position
boundary 16 against its fence pointers, fresh paired loads: p50 get latency
and index memory, each index's over FP's, beside our latency target."""
import matplotlib.pyplot as plt

from paper import plotting
from paper.engineering import pairs

LATENCY_TARGET = 1.10  # claims.yaml: within 10% of FP's p50 latency or better


def figure(rows, spec):
    plotting.style()
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.8))
    pairs.ratio_panel(axes[0], pairs.paired_ratios(rows, "get_p50_ns", "fp"), "p50 get, index / FP", LATENCY_TARGET)
    pairs.ratio_panel(axes[1], pairs.paired_ratios(rows, "index_bytes", "fp"), "index bytes, index / FP")
    plotting.mark_failures(fig, rows, by=("dataset", "key_encoding"))
    fig.tight_layout()
    return fig, table(rows)


def table(rows):
    return pairs.table(rows, {"get p50 ns": "get_p50_ns", "get p99 ns": "get_p99_ns", "get mean ns": "get_mean_ns",
                              "index bytes": "index_bytes"})
