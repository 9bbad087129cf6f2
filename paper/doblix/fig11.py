"""doblix/fig11 (the paper's Figure 11): normalised lookup latency breakdown
of DobLIX (D), TridentKV-style (T), Bourbon-style (B) and RocksDB (R) in the
read-heavy workload on AMZN and LOGN: each step's ns per get (lsmbench's
perf_steps timers), averaged over repetitions, divided by RocksDB's mean get
latency on the same dataset, stacked."""
from paper import plotting
from paper.doblix import systems as sy

ORDER = ["S-file", "S-block", "S-block + S-KV", "L-block", "S-KV", "other"]
COLORS = dict(zip(ORDER, ["#8e44ad", "#2980b9", "#5dade2", "#e67e22", "#27ae60", "#bdc3c7"]))
SHORT = {"DobLIX": "D", "TridentKV-style": "T", "Bourbon-style": "B", "RocksDB": "R"}

def normalised(rows):
    s = sy.steps_per_get(rows)
    mean = s.groupby(["dataset", "system", "step"])["value"].mean().unstack("step").fillna(0.0)
    base = s[s["system"] == "RocksDB"].groupby("dataset")["get_ns"].mean()
    return mean.div(base.reindex(mean.index.get_level_values("dataset")).to_numpy(), axis=0)

def figure(rows, spec):
    plotting.style()
    norm = normalised(rows)
    gets = sy.with_system(rows[(rows["metric"] == "latency_mean") & (rows["op"] == "get") & (rows["subset"] == "all")])
    datasets = sy.present(list(spec["datasets"]), norm.index.get_level_values("dataset"))
    fig, axes = sy.panel_axes(len(datasets), width=4.0, height=3.4)
    for ax, d in zip(axes, datasets):
        part = norm.loc[d].reindex(sy.present(sy.SYSTEMS, norm.loc[d].index))
        bottom = [0.0] * len(part)
        for step in [s for s in ORDER if s in part.columns]:
            ax.bar([SHORT[x] for x in part.index], part[step], bottom=bottom, color=COLORS[step], label=step)
            bottom = [b + v for b, v in zip(bottom, part[step])]
        for system, top in zip(part.index, bottom):
            # a system's stack grows with its mean get latency: the paper's latency ratios are drawn on it
            runs = gets[(gets["dataset"] == d) & (gets["system"] == system)]["run"]
            plotting.shows_scaled(ax, "latency_mean", runs, top)
        ax.set_title(d)
        ax.set_ylabel("latency / RocksDB's mean get latency")
    sy.legend(fig, axes)
    plotting.mark_failures(fig, sy.with_system(rows), by=("dataset", "system"))
    fig.tight_layout(rect=(0, 0, 1, 0.9))
    table = norm.reset_index()
    table.insert(2, "total", norm.sum(axis=1).to_numpy())
    return fig, table
