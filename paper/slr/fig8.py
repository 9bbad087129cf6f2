"""slr/fig8 (paper Figure 8): latency and throughput of the four search
mechanisms on both datasets, as boxes the paper's way: whiskers min/max,
box 1st/3rd quartile, line the mean; dots the runs."""
import numpy as np
import pandas as pd

from paper import plotting
from paper.slr import common


def _mb_per_s(rows):
    """Run-phase gets per second times the bytes of a pair, in MB/s."""
    thr = plotting.metric(rows, "run_throughput")
    return thr.assign(value=thr["value"] * common.KV_BYTES / 1e6)


def _box(values):
    v = np.asarray(values, dtype=float)
    q1, q3 = np.percentile(v, [25, 75])
    return {"whislo": v.min(), "q1": q1, "med": v.mean(), "q3": q3, "whishi": v.max(), "fliers": []}


def figure(rows, spec):
    plotting.style()
    datasets = list(spec["datasets"])
    parts = {"mean get latency (ns)": plotting.metric(rows, "latency_mean", op="get", subset="all"),
             "throughput (MB/s)": _mb_per_s(rows),
             # Not in the paper: on a shared machine a few preempted gets
             # move a run's mean; its median shows the typical get.
             "median get latency (ns)": plotting.metric(rows, "latency_p50", op="get", subset="all")}
    mechs = common.mechanisms(rows)
    fig, axes = plotting.panels(len(parts), len(datasets), 5.2, 3.5)
    for r, (ylabel, data) in enumerate(parts.items()):
        for c, ds in enumerate(datasets):
            ax = axes[r][c]
            sel = data[data["dataset"] == ds]
            shown = [m for m in mechs if (sel["slr"] == m).any()]
            if shown:
                stats = [_box(sel[sel["slr"] == m]["value"]) for m in shown]
                art = ax.bxp(stats, positions=range(len(shown)), showfliers=False, patch_artist=True, widths=0.5,
                             medianprops={"color": "black", "lw": 1.5})
                for patch, m in zip(art["boxes"], shown):
                    patch.set_facecolor(common.COLORS[m])
                    patch.set_alpha(0.6)
                plotting.shows(ax, sel)
                for i, m in enumerate(shown):
                    v = sel[sel["slr"] == m]["value"]
                    ax.scatter(np.full(len(v), i) + np.linspace(-0.12, 0.12, len(v)), v, s=8, color="black", zorder=3)
            ax.set_xticks(range(len(shown)), [common.MECHANISMS[m] for m in shown], fontsize=8)
            ax.set_ylabel(ylabel)
            if r == 0:
                n = sel.groupby("slr")["run"].nunique().min() if len(sel) else 0
                ax.set_title(f"{ds} (n = {n} runs per box)")
    fig.suptitle("Lookup latency and throughput (Figure 8): whiskers min/max, box quartiles, line mean")
    plotting.mark_failures(fig, rows, by=("slr", "dataset"))
    fig.tight_layout()
    return fig, table(rows)


def table(rows):
    lat = plotting.metric(rows, "latency_mean", op="get", subset="all")
    thr = _mb_per_s(rows)
    out = []
    for (ds, m), g in lat.groupby(["dataset", "slr"]):
        v = g["value"]
        # the paper's baseline: LevelDB's own search (slr=off), where it ran
        baseline = "off" if (lat["slr"] == "off").any() else "binary"
        base = lat[(lat["dataset"] == ds) & (lat["slr"] == baseline)]["value"].mean()
        t = thr[(thr["dataset"] == ds) & (thr["slr"] == m)]["value"]
        p50 = plotting.metric(rows, "latency_p50", op="get", subset="all", dataset=ds, slr=m)["value"]
        # LevelDB's own table count for binary search (plain tables), the
        # learned format's for SLR tables (LevelDB's count misses those).
        built = max(plotting.metric(rows, k, dataset=ds, slr=m)["value"].mean()
                    for k in ("load_tables", "load_learned_tables_built"))
        abandoned = plotting.metric(rows, "load_learned_slr_abandoned", dataset=ds, slr=m)["value"]
        out.append({"dataset": ds, "mechanism": m, "runs": len(v),
                    # per load: tables after settling, and error-aware models given up for binary search
                    "tables per load": built, "ea models abandoned per load": abandoned.mean(),
                    "latency mean ns": v.mean(), "latency sd ns": v.std(),
                    "latency min": v.min(), "latency q1": v.quantile(0.25), "latency q3": v.quantile(0.75),
                    "latency max": v.max(), "latency vs LevelDB's search (%)": 100 * (v.mean() / base - 1),
                    "throughput mean MB/s": t.mean(), "throughput sd MB/s": t.std(),
                    "median latency, mean over runs ns": p50.mean()})
    order = {m: i for i, m in enumerate(common.MECHANISMS)}
    df = pd.DataFrame(out)
    if len(df):
        df = df.sort_values(["dataset", "mechanism"], key=lambda s: s.map(order) if s.name == "mechanism" else s)
    return df.reset_index(drop=True)
