"""bourbon/fig15 (paper Figure 15): SOSD datasets, mean lookup latency of
WiscKey and Bourbon, Bourbon's speedup on top."""
import matplotlib.pyplot as plt

from paper import plotting
from paper.bourbon import common


def figure(rows, spec):
    plotting.style()
    lat = common.latency_us(rows)
    fig, ax = plt.subplots(figsize=(9, 4.2))
    common.bars(ax, lat, "dataset", common.present(list(spec["datasets"]), lat["dataset"]), ["WiscKey", "Bourbon"],
                "mean lookup latency (µs)", common.speedup(lat))
    ax.set_title("SOSD datasets; Bourbon's speedup on top")
    plotting.mark_failures(fig, rows, by=("engine", "dataset"))
    fig.tight_layout()
    return fig, common.latency_table(lat, ["dataset"])
