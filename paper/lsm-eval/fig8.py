"""lsm-eval/fig8 (the paper's Figure 8). Left: every index's point-lookup
latency and index size at position boundary 16 on FB, OSM and WIKI, as the
paper's table (and as bars here), a failed index marked with its reason.
Right: a point lookup's traced time split into LevelDB's steps, stacked
shares per index (the lookup step timers' per-lookup nanoseconds)."""
import pandas as pd
import seaborn as sns

from paper import lsm_eval as le
from paper import plotting

STEPS = ["find_files", "find_table", "load_index", "index_search", "load_data", "search_data", "read_value"]


def steps(rows):
    """Per-lookup nanoseconds of each traced step, mean over runs."""
    out = []
    for step in STEPS:
        s = le.per_run(rows, f"lookup_{step}_per_op")
        if len(s):
            out.append(s.assign(step=step))
    return pd.concat(out) if out else pd.DataFrame(columns=["dataset", "index", "step", "value"])


def figure(rows, spec):
    plotting.style()
    lat, mem = le.latency_us(rows), le.memory_mib(rows)
    datasets = list(spec["datasets"])
    fig, (axes,) = plotting.panels(1, 3, 6, 4.2)
    order = le.present(le.ORDER, pd.concat([lat, plotting.failures(rows)]))
    sns.barplot(data=lat, x="index", y="value", hue="dataset", order=order, hue_order=datasets,
                errorbar="sd", capsize=0.05, ax=axes[0])
    axes[0].set_ylabel("latency (µs)")
    axes[0].set_title("Left: latency at boundary 16")
    sns.barplot(data=mem, x="index", y="value", hue="dataset", order=order, hue_order=datasets,
                errorbar=None, ax=axes[1])
    plotting.shows(axes[0], lat)
    plotting.shows(axes[1], mem)
    axes[1].set_yscale("log")
    axes[1].set_ylabel("index size (MiB)")
    axes[1].set_title("Left: index size at boundary 16")
    for ax in axes[:2]:
        ax.set_xticks(range(len(order)), [le.LABEL[i] for i in order], rotation=90)
    failed = plotting.failures(rows)
    for _, f in failed.drop_duplicates(["dataset", "index"]).iterrows():
        if f["index"] in order:
            x = order.index(f["index"])
            for ax in axes[:2]:
                ax.annotate("✗ " + str(f["dataset"]), (x, 0), xycoords=("data", "axes fraction"),
                            xytext=(0, 4), textcoords="offset points", ha="center", color="#b00000", fontsize=7)
    # Right: stacked shares of the traced lookup time, per index (all datasets)
    st = steps(rows)
    ax = axes[2]
    if len(st):
        share = st.groupby(["index", "step"])["value"].mean().unstack("step").reindex(columns=STEPS).fillna(0)
        share = share.reindex(le.present(le.ORDER, st))
        share = share.div(share.sum(axis=1).where(lambda s: s > 0), axis=0)
        share.index = [le.LABEL[i] for i in share.index]
        share.plot.bar(stacked=True, ax=ax, width=0.8, colormap="tab10")
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1, 1))
    ax.set_ylabel("share of traced lookup time")
    ax.set_title("Right: point-lookup breakdown")
    plotting.mark_failures(fig, rows, by=("dataset", "index"))
    fig.tight_layout()
    return fig, table(rows)


def table(rows):
    """The paper's left table: latency (µs) and size (MiB) per index and
    dataset; a failed index shows its reason."""
    lat = le.latency_us(rows).groupby(["dataset", "index"])["value"].agg(["mean", "std", "count"])
    mem = le.memory_mib(rows).groupby(["dataset", "index"])["value"].mean()
    out = lat.rename(columns={"mean": "latency µs mean", "std": "latency µs sd", "count": "n"})
    out["index MiB"] = mem
    out = out.reset_index()
    failed = plotting.failures(rows)
    if len(failed):
        f = failed.drop_duplicates(["dataset", "index"])[["dataset", "index", "note"]].rename(columns={"note": "failed"})
        out = out.merge(f, on=["dataset", "index"], how="outer")
    st = steps(rows)
    if len(st):
        wide = st.groupby(["dataset", "index", "step"])["value"].mean().unstack("step")
        wide.columns = [f"{c} ns" for c in wide.columns]
        out = out.merge(wide.reset_index(), on=["dataset", "index"], how="left")
    return out
