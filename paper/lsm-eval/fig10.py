"""lsm-eval/fig10 (the paper's Figure 10 C): point lookups with
variable-length keys (8–24 bytes), mapped keys kept, boundary 8: latency
(bars, mean ± sd) and index memory (squares, right axis, log) per index."""
import matplotlib.pyplot as plt
import seaborn as sns

from paper import lsm_eval as le
from paper import plotting


def figure(rows, spec):
    plotting.style()
    lat, mem = le.latency_us(rows), le.memory_mib(rows)
    order = le.present(le.ORDER, lat)
    fig, ax = plt.subplots(figsize=(9, 3.6))
    sns.barplot(data=lat, x="index", y="value", order=order, errorbar="sd", capsize=0.1, ax=ax, color="#7a9cc6")
    ax.set_xticks(range(len(order)), [le.LABEL[i] for i in order])
    ax.set_ylabel("latency (µs)")
    twin = ax.twinx()
    twin.plot(range(len(order)), mem.groupby("index")["value"].mean().reindex(order).values, "s", color="#c0392b")
    plotting.shows(ax, lat)
    plotting.shows(twin, mem)
    twin.set_yscale("log")
    twin.set_ylabel("index memory (MiB, squares)")
    twin.grid(False)
    ax.set_title("(C) variable-length keys (8–24 B), keys kept, boundary 8")
    plotting.mark_failures(fig, rows, by=("dataset", "index"))
    fig.tight_layout()
    return fig, plotting.summary_table({"latency µs": lat, "index MiB": mem}, ["index"])
