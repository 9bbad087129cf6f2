"""lsm-eval/fig13 (the paper's Figure 13): average operation time of every
index under YCSB workloads A–F (clustered indexes at boundary 16): bars are
the mean over repetitions of each run's seconds per operation, error bars
one standard deviation."""
import matplotlib.pyplot as plt
import seaborn as sns

from paper import lsm_eval as le
from paper import plotting


def figure(rows, spec):
    plotting.style()
    t = le.op_time_us(rows)
    order = le.present(le.ORDER, t)
    workloads = [w for w in spec["workloads"] if w in set(t["workload"])]
    fig, ax = plt.subplots(figsize=(13, 3.8))
    sns.barplot(data=t, x="workload", y="value", hue="index", order=workloads, hue_order=order,
                errorbar="sd", capsize=0.03, ax=ax)
    ax.set_xlabel("YCSB workload")
    ax.set_ylabel("average operation time (µs)")
    if ax.get_legend():
        ax.legend([le.LABEL[i] for i in order], ncol=6, fontsize=7)
    plotting.mark_failures(fig, rows, by=("workload", "index"))
    fig.tight_layout()
    return fig, plotting.summary_table({"op time µs": t}, ["workload", "index"])
