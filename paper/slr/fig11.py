"""slr/fig11 (paper Figure 11): mean lookup latency of equal-size SLR
against its number of segments."""
import matplotlib.pyplot as plt
import pandas as pd

from paper import plotting


def figure(rows, spec):
    plotting.style()
    lat = plotting.metric(rows, "latency_mean", op="get", subset="all")
    lat = lat.assign(segments=pd.to_numeric(lat["slr_segments"]))
    datasets = list(spec["datasets"])
    fig, axes = plt.subplots(1, len(datasets), figsize=(5.2 * len(datasets), 3.8), squeeze=False)
    for ax, ds in zip(axes[0], datasets):
        d = lat[lat["dataset"] == ds]
        if d.empty:
            continue
        g = d.groupby("segments")["value"].agg(["mean", "std"]).reset_index()
        ax.errorbar(g["segments"], g["mean"], yerr=g["std"].fillna(0), marker="o", capsize=3)
        ax.scatter(d["segments"], d["value"], s=8, color="black", zorder=3)
        best = g.loc[g["mean"].idxmin(), "segments"]
        ax.axvline(best, color="grey", ls=":", lw=1)
        ax.set_xlabel("number of equal-size segments")
        ax.set_ylabel("mean get latency (ns)")
        ax.set_title(f"{ds} (fastest: {best:g} segments)")
    fig.suptitle("Effect of the number of segments, equal-size SLR (Figure 11)")
    plotting.mark_failures(fig, rows, by=("slr_segments", "dataset"))
    fig.tight_layout()
    return fig, table(lat)


def table(lat):
    if lat.empty:
        return pd.DataFrame(columns=["dataset", "segments", "mean", "std", "count"])
    t = lat.groupby(["dataset", "segments"])["value"].agg(["mean", "std", "count"]).reset_index()
    t["vs 20 segments (%)"] = [100 * (r["mean"] / t[(t["dataset"] == r["dataset"]) & (t["segments"] == 20)]["mean"].mean() - 1)
                               for _, r in t.iterrows()]
    return t.rename(columns={"mean": "latency mean ns", "std": "latency sd ns", "count": "runs"})
