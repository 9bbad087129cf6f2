"""engineering/slr-search: SLR's index-block search in leveldb-learned
against binary search (slr=binary) and LevelDB's own (slr=off), fresh
paired loads: p50 get latency over binary's, beside our target for ea."""
import matplotlib.pyplot as plt

from paper import plotting
from paper.engineering import pairs

EA_TARGET = 0.95  # claims.yaml: ea at least 5% faster than binary search


def figure(rows, spec):
    plotting.style()
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.8))
    pairs.ratio_panel(axes[0], pairs.paired_ratios(rows, "get_p50_ns", "binary"), "p50 get, variant / binary",
                      EA_TARGET, "target for ea")
    pairs.ratio_panel(axes[1], pairs.paired_ratios(rows, "index_bytes", "binary"), "index bytes, variant / binary")
    plotting.mark_failures(fig, rows, by=("dataset", "key_encoding"))
    fig.tight_layout()
    return fig, table(rows)


def table(rows):
    return pairs.table(rows, {"get p50 ns": "get_p50_ns", "get p99 ns": "get_p99_ns", "index bytes": "index_bytes"})
