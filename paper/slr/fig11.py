"""slr/fig11 (paper Figure 11): mean lookup latency of equal-size SLR
against its number of segments (and, second row, each run's median)."""
import pandas as pd

from paper import plotting


def figure(rows, spec):
    plotting.style()
    datasets = list(spec["datasets"])
    stats = {"mean get latency (ns)": "latency_mean", "median get latency (ns)": "latency_p50"}
    fig, axes = plotting.panels(len(stats), len(datasets), 5.2, 3.6)
    for row, (ylabel, metric) in enumerate(stats.items()):
        sel = plotting.metric(rows, metric, op="get", subset="all")
        sel = sel.assign(segments=pd.to_numeric(sel["slr_segments"]))
        for ax, ds in zip(axes[row], datasets):
            _panel(ax, sel[sel["dataset"] == ds], ds, ylabel)
    fig.suptitle("Effect of the number of segments, equal-size SLR (Figure 11)")
    plotting.mark_failures(fig, rows, by=("slr_segments", "dataset"))
    fig.tight_layout()
    return fig, table(rows)


def _panel(ax, d, ds, ylabel):
    if d.empty:
        return
    g = d.groupby("segments")["value"].agg(["mean", "std"]).reset_index()
    ax.errorbar(g["segments"], g["mean"], yerr=g["std"].fillna(0), marker="o", capsize=3)
    ax.scatter(d["segments"], d["value"], s=8, color="black", zorder=3)
    best = g.loc[g["mean"].idxmin(), "segments"]
    ax.axvline(best, color="grey", ls=":", lw=1)
    ax.set_xlabel("number of equal-size segments")
    ax.set_ylabel(ylabel)
    ax.set_title(f"{ds} (fastest: {best:g} segments)")


def table(rows):
    out = None
    for name, metric in (("latency mean", "latency_mean"), ("median latency", "latency_p50")):
        sel = plotting.metric(rows, metric, op="get", subset="all")
        if sel.empty:
            continue
        sel = sel.assign(segments=pd.to_numeric(sel["slr_segments"]))
        t = sel.groupby(["dataset", "segments"])["value"].agg(["mean", "std", "count"])
        at20 = t["mean"].xs(20, level="segments") if 20 in t.index.get_level_values("segments") else None
        t[f"{name} vs 20 segments (%)"] = [100 * (m / at20.get(ds, float("nan")) - 1) if at20 is not None else float("nan")
                                            for (ds, _), m in t["mean"].items()]
        t = t.rename(columns={"mean": f"{name} ns", "std": f"{name} sd ns", "count": "runs"})
        out = t if out is None else out.join(t.drop(columns="runs"))
    return pd.DataFrame(columns=["dataset", "segments"]) if out is None else out.reset_index()
