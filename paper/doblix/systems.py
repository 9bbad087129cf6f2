"""What the doblix figures share: the four systems of seed 002 §IV-A as one
`system` column, their order and colours, the workloads' panel titles, and
grouped bars of mean ± sd as the paper draws its throughput figures."""
import pandas as pd
import seaborn as sns

from paper import plotting

# The paper's order (its legends: DobLIX, TridentKV, Bourbon, RocksDB).
SYSTEMS = ["DobLIX", "TridentKV-style", "Bourbon-style", "RocksDB"]
TABLES = {"doblix": "DobLIX", "tridentkv-style": "TridentKV-style", "bourbon-style": "Bourbon-style",
          "block": "RocksDB"}
COLORS = dict(zip(SYSTEMS, ["#c0392b", "#2e86c1", "#27ae60", "#7f8c8d"]))
DATASETS = ["WIKI", "AMZN", "FB", "OSM", "LOGN", "UNI"]
PANELS = {"read_only": "a: read-only", "read_heavy": "b: read-heavy (90/10)",
          "balanced": "c: balanced (50/50)", "write_heavy": "d: write-heavy (inserts)"}


def with_system(rows):
    """The rows with a `system` column: the table the run chose (RocksDB's
    block-based one is "RocksDB"; runs before the four systems shared the
    rocksdb-doblix engine ran it as engine `rocksdb`)."""
    table = rows["table"] if "table" in rows.columns else pd.Series(None, index=rows.index, dtype=object)
    return rows.assign(system=table.map(TABLES).mask(rows["engine"] == "rocksdb", "RocksDB"))


def present(order, values):
    seen = set(values)
    return [v for v in order if v in seen]


def grouped_bars(ax, data, x, order, ylabel):
    """Bars of each system per `x` (mean over repetitions, one sd)."""
    systems = present(SYSTEMS, data["system"])
    sns.barplot(data=data, x=x, y="value", hue="system", order=order, hue_order=systems,
                palette=COLORS, errorbar="sd", capsize=0.05, ax=ax)
    plotting.shows(ax, data)
    ax.set_xlabel("")
    ax.set_ylabel(ylabel)
    if ax.get_legend():
        ax.get_legend().remove()


def legend(fig, axes):
    handles, labels = [], []
    for ax in axes:
        for h, l in zip(*ax.get_legend_handles_labels()):
            if l not in labels:
                handles.append(h)
                labels.append(l)
    fig.legend(handles, labels, loc="upper center", ncol=len(labels), frameon=False, bbox_to_anchor=(0.5, 1.02))


def ratio_table(data, by, value_title, lower_is_better=False):
    """Mean ± sd of each system per `by` group, and DobLIX's gain over each
    other system's mean: DobLIX / other, or other / DobLIX for a metric where
    lower is better (latency), so a gain is always above 1."""
    table = plotting.summary_table({value_title: data}, by + ["system"])
    means = data.groupby(by + ["system"])["value"].mean().unstack("system")
    if "DobLIX" in means.columns:
        for other in [s for s in SYSTEMS[1:] if s in means.columns]:
            gain = means[other] / means["DobLIX"] if lower_is_better else means["DobLIX"] / means[other]
            name = f"{other} / DobLIX" if lower_is_better else f"DobLIX / {other}"
            table = table.merge(gain.rename(name).reset_index(), on=by, how="left")
    return table


def panel_axes(n, width=4.2, height=3.2):
    fig, axes = plotting.panels(1, n, width, height)
    return fig, list(axes[0])


# Lookup steps of Figs. 1 and 11 (seed 002's names) from lsmbench's
# perf_steps timers (engines/rocksdb-doblix/README.md): step -> steps_* metric.
STEPS = {"S-file": "s_file_ns", "S-block": "s_block_ns", "S-block + S-KV": "s_block_plus_s_kv_ns",
         "L-block": "l_block_ns", "S-KV": "s_kv_ns"}


def steps_per_get(rows):
    """One row per (run, step) with the step's ns per get, and `other`: the
    rest of the get's mean latency (memtables, L-KV, the harness around the
    engine call). The block-based table times S-block and S-KV together;
    the plugin tables time them apart (its block_seek_nanos then counts the
    last mile only, so it is not used for them)."""
    rows = with_system(rows)
    gets = plotting.metric(rows, "latency_count", op="get", subset="all").set_index("run")["value"]
    mean = plotting.metric(rows, "latency_mean", op="get", subset="all").set_index("run")["value"]
    out = []
    for run, group in rows[rows["metric"].str.startswith("steps_")].groupby("run"):
        if run not in gets.index or not gets[run]:
            continue
        values = group.set_index("metric")["value"]
        first = group.iloc[0]
        plugin = "steps_s_block_ns" in values.index
        names = ["S-file", "S-block", "S-KV", "L-block"] if plugin else ["S-file", "S-block + S-KV", "L-block"]
        parts = {n: values.get(f"steps_{STEPS[n]}", 0.0) / gets[run] for n in names}
        parts["other"] = max(0.0, mean[run] - sum(parts.values()))
        for step, ns in parts.items():
            out.append({"run": run, "system": first["system"], "dataset": first["dataset"],
                        "workload": first["workload"], "repetition": first["repetition"],
                        "step": step, "value": ns, "get_ns": mean[run]})
    return pd.DataFrame(out, columns=["run", "system", "dataset", "workload", "repetition", "step", "value", "get_ns"])
