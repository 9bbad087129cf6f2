"""What the figures of study lsm-eval (paper/lsm-eval/*.py) share: the
paper's index order and families, and per-run selections of the tidy rows
in the units the paper draws (µs, MiB)."""
import pandas as pd

from indexes import registry as index_registry
from paper import plotting



def index_families(manifest=None):
    """The paper's index families (seed 000 §3), in lidx's registry order,
    and their labels: a learned table's indexes (indexes/registry.json)."""
    tables = [e for e in index_registry.load(manifest) if e["table"]]
    return ([e["id"] for e in tables if e["family"] == "clustered"],
            [e["id"] for e in tables if e["family"] == "unclustered"],
            {e["id"]: e["label"] for e in tables})


CLUSTERED, UNCLUSTERED, LABEL = index_families()
ORDER = CLUSTERED + UNCLUSTERED
DATASET_LABEL = {"uniform": "Uniform", "zipf090": "Zipfian θ=0.9", "zipf099": "Zipfian θ=0.99",
                 "fb": "FB", "osm": "OSM", "wiki": "WIKI", "varlen": "Variable-length"}


def present(indexes, frame):
    seen = set(frame["index"].astype(str)) if "index" in frame.columns and len(frame) else set()
    return [i for i in indexes if i in seen]


def per_run(rows, metric, scale=1.0, **where):
    """One value per run of a metric (mean of its rows), scaled, with the
    run's factors: index, position_boundary, keep_keys, dataset, workload."""
    sel = plotting.metric(rows, metric, **where)
    keys = [c for c in ("run", "dataset", "workload", "index", "position_boundary", "keep_keys",
                        "sstable_size", "repetition") if c in sel.columns]
    if sel.empty:
        return pd.DataFrame(columns=keys + ["value"])
    out = sel.groupby(keys, dropna=False)["value"].mean().reset_index()
    out["value"] = out["value"] * scale
    out.attrs["metric"] = metric  # plotting.shows: which metric a bar of these runs shows
    return out


def latency_us(rows):
    return per_run(rows, "latency_mean", 1e-3, op="get", subset="all")


def memory_mib(rows):
    return per_run(rows, "index_bytes", 1 / 2**20)


def op_time_us(rows):
    """Average operation time of a run: its run phase's seconds per op."""
    t = per_run(rows, "run_throughput")
    t["value"] = 1e6 / t["value"]
    return t


def kept(frame, value):
    """Rows with mapped keys kept ("true") or not ("false"; a figure
    without the option has them not kept)."""
    if "keep_keys" not in frame.columns:
        return frame if value == "false" else frame.iloc[0:0]
    values = frame["keep_keys"].map(lambda v: str(v).lower())
    return frame[values.isin(["false", "nan", ""]) if value == "false" else values == value]


def as_int(frame, column):
    frame = frame.copy()
    frame[column] = pd.to_numeric(frame[column]).astype(int)
    return frame


def compaction_parts(rows):
    """Per run: compaction seconds, the part spent training models, and the
    part reading and writing entries (the LSM hooks' compaction totals of
    the run phase's sustained inserts), one row per (run, part)."""
    parts = {"compaction": "hooks_compaction_seconds", "training": "hooks_compaction_training_seconds",
             "entries I/O": "hooks_compaction_kv_io_seconds", "model write": "hooks_compaction_model_write_seconds"}
    out = [per_run(rows, metric).assign(part=part) for part, metric in parts.items()]
    return pd.concat(out)


def compaction_figure(rows, title):
    """Bars: compaction time per index; line: training time; and the
    training share of compaction time (the paper's Figures 10D and 11)."""
    import matplotlib.pyplot as plt
    import seaborn as sns

    plotting.style()
    parts = compaction_parts(rows)
    order = present(ORDER, parts)
    fig, axes = plt.subplots(1, 2, figsize=(12, 3.6))
    comp = parts[parts["part"].isin(["compaction", "entries I/O"])]
    sns.barplot(data=comp, x="index", y="value", hue="part", order=order, errorbar="sd", ax=axes[0])
    train = parts[parts["part"] == "training"].groupby("index")["value"].mean().reindex(order)
    axes[0].plot(range(len(order)), train.values, "o-", color="#c0392b", label="training")
    axes[0].legend(fontsize=8)
    axes[0].set_ylabel("seconds")
    axes[0].set_xticks(range(len(order)), [LABEL[i] for i in order])
    axes[0].set_title(title)
    names = ["compaction", "training", "entries I/O", "model write"]
    wide = parts.pivot_table(index=["run", "index"], columns="part", values="value")
    wide = wide.reindex(columns=names).reset_index() if len(wide) else pd.DataFrame(columns=["run", "index"] + names)
    wide["training share"] = wide["training"] / wide["compaction"].where(wide["compaction"] > 0)
    sns.barplot(data=wide, x="index", y="training share", order=order, errorbar="sd", ax=axes[1], color="#c0392b")
    axes[1].set_xticks(range(len(order)), [LABEL[i] for i in order])
    axes[1].set_ylabel("training / compaction time")
    plotting.mark_failures(fig, rows, by=("dataset", "index"))
    fig.tight_layout()
    table = wide.groupby("index")[names + ["training share"]].agg(["mean", "std"])
    table.columns = [" ".join(c) for c in table.columns]
    return fig, table.reindex(order).reset_index()
