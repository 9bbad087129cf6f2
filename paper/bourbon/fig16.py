"""bourbon/fig16 (paper Figure 16): mixed YCSB workloads with the data on
the device (cold), Bourbon's throughput normalised to WiscKey's."""
import matplotlib.pyplot as plt

from paper import plotting
from paper.bourbon import fig14


def figure(rows, spec):
    plotting.style()
    fig, ax = plt.subplots(figsize=(7, 4.2))
    table = fig14.normalised(ax, rows, spec, "YCSB, data on this machine's device: Bourbon / WiscKey")
    plotting.mark_failures(fig, rows, by=("engine", "dataset", "workload"))
    fig.tight_layout()
    return fig, table
