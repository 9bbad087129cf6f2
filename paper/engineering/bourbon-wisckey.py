"""engineering/bourbon-wisckey: Bourbon against WiscKey on in-memory
read-only lookups, fresh paired loads: WiscKey's mean (and median) get over
Bourbon's per dataset, beside the paper's lower end (seed 004 §5.2)."""
import matplotlib.pyplot as plt

from paper import plotting
from paper.engineering import pairs

PAPER_LOW = 1.23  # claims.yaml: "the improvements vary (1.23x to 1.78x)"


def figure(rows, spec):
    plotting.style()
    fig, axes = plt.subplots(1, 2, figsize=(12, 3.8))
    pairs.ratio_panel(axes[0], pairs.paired_ratios(rows, "get_mean_ns", "wisckey", invert=True),
                      "mean get, WiscKey / Bourbon", PAPER_LOW, "paper's lowest")
    pairs.ratio_panel(axes[1], pairs.paired_ratios(rows, "get_p50_ns", "wisckey", invert=True),
                      "p50 get, WiscKey / Bourbon", PAPER_LOW, "paper's lowest")
    plotting.mark_failures(fig, rows, by=("dataset", "key_encoding"))
    fig.tight_layout()
    return fig, table(rows)


def table(rows):
    return pairs.table(rows, {"get mean ns": "get_mean_ns", "get p50 ns": "get_p50_ns", "get p99 ns": "get_p99_ns",
                              "index bytes": "index_bytes"})
