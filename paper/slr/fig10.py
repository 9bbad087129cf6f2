"""slr/fig10 (paper Figure 10): the lookup latency breakdown from the
engine's step timers (timers on every other get), stacked to the mean
latency of the timed gets; the timers' own cost in the title."""
import pandas as pd

from paper import plotting
from paper.slr import common

# The paper's parts -> the engine's steps (engines/leveldb-hooks README).
PARTS = {
    "find SSTable": ["find_files", "find_table"],
    "load block": ["load_index", "load_data"],
    "search index block": ["index_search"],
    "search data block": ["search_data"],
}
PART_COLORS = ["#8172b3", "#937860", "#c44e52", "#4c72b0", "#cccccc"]


def breakdown(rows):
    """(dataset, slr) -> ns per get of each part, `other` the rest of the
    timed gets' mean latency; means over runs."""
    total = plotting.metric(rows, "lookup_timer_mean_ns_on")
    out = []
    for (ds, m, run), g in total.groupby(["dataset", "slr", "run"]):
        r = rows[(rows["run"] == run)]
        rec = {"dataset": ds, "mechanism": m, "run": run, "total": g["value"].mean()}
        for part, steps in PARTS.items():
            rec[part] = sum(plotting.metric(r, f"lookup_{s}_per_op")["value"].sum() for s in steps)
        rec["other"] = rec["total"] - sum(rec[p] for p in PARTS)
        out.append(rec)
    return pd.DataFrame(out)


def figure(rows, spec):
    plotting.style()
    datasets = list(spec["datasets"])
    per_run = breakdown(rows)
    parts = list(PARTS) + ["other"]
    fig, axes = plotting.panels(1, len(datasets), 5.4, 4.2)
    for ax, ds in zip(axes[0], datasets):
        d = per_run[per_run["dataset"] == ds]
        if d.empty:
            continue
        mean = d.groupby("mechanism")[parts].mean()
        mean = mean.loc[[m for m in common.MECHANISMS if m in mean.index]]
        bottom = pd.Series(0.0, index=mean.index)
        x = range(len(mean))
        for part, color in zip(parts, PART_COLORS):
            ax.bar(x, mean[part], bottom=bottom, color=color, label=part, width=0.6)
            bottom += mean[part]
        ax.set_xticks(list(x), [common.MECHANISMS[m] for m in mean.index], fontsize=8)
        ax.set_ylabel("ns per get (timed gets)")
        ax.set_title(ds)
    axes[0][0].legend(fontsize=8)
    mean_cost = plotting.metric(rows, "lookup_timer_overhead_fraction")["value"]
    median_cost = plotting.metric(rows, "lookup_timer_p50_overhead_fraction")["value"]
    title = "Lookup latency breakdown (Figure 10)"
    if len(mean_cost):
        title += (f"\nstep timers' measured cost over {len(mean_cost)} runs: median get latency "
                  f"{100 * median_cost.mean():+.1f}% (runs {100 * median_cost.min():+.1f}% to {100 * median_cost.max():+.1f}%), "
                  f"mean {100 * mean_cost.mean():+.1f}%")
    fig.suptitle(title)
    plotting.mark_failures(fig, rows, by=("slr", "dataset"))
    fig.tight_layout()
    return fig, table(rows, per_run)


def table(rows, per_run):
    if per_run.empty:
        return per_run
    parts = list(PARTS) + ["other", "total"]
    t = per_run.groupby(["dataset", "mechanism"])[parts].mean()
    t["runs"] = per_run.groupby(["dataset", "mechanism"])["run"].nunique()
    t["search index block share (%)"] = 100 * t["search index block"] / t["total"]
    for name, metric in (("timer cost, mean (%)", "lookup_timer_overhead_fraction"),
                         ("timer cost, median (%)", "lookup_timer_p50_overhead_fraction")):
        oh = plotting.metric(rows, metric).groupby(["dataset", "slr"])["value"].mean()
        t[name] = [100 * oh.get(k, float("nan")) for k in t.index]
    return t.reset_index()
