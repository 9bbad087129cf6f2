"""bourbon/fig10 (paper Figure 10): (a) lookup latency of WiscKey and
Bourbon after a sequential and a random load, speedup on top; (b) after the
random load, positive and negative internal lookups: their count, and the
model path's speedup per internal lookup over WiscKey's path (the hooks' time
per internal lookup, learning=always vs learning=never on the same load)."""
import matplotlib.pyplot as plt
import pandas as pd

from paper import plotting
from paper.bourbon import common

ORDERS = {"sorted": "seq", "shuffled": "rand"}
PATHS = {"WiscKey": "baseline", "Bourbon": "file_model"}


def internal(rows):
    """Per run of the random load: positive/negative internal lookups and
    their mean time, on the path its system takes, summed over levels."""
    out = []
    for sign in ("positive", "negative"):
        for system, path in PATHS.items():
            # summed over the levels (a row per level and run)
            n = rows[rows["metric"] == f"bourbon_level_{sign}_{path}"].groupby("run")["value"].sum()
            t = rows[rows["metric"] == f"bourbon_level_{sign}_ns_{path}"].groupby("run")["value"].sum()
            runs = common.per_run(rows, "latency_mean", op="get", subset="all")
            runs = runs[(runs["system"] == system) & (runs["order"].astype(str) == "shuffled")]
            for _, r in runs.iterrows():
                lookups = n.get(r["run"], 0)
                out.append({"dataset": r["dataset"], "repetition": r["repetition"], "system": system,
                            "sign": sign, "lookups": lookups,
                            "ns": t.get(r["run"], 0) / lookups if lookups else float("nan")})
    return pd.DataFrame(out)


def figure(rows, spec):
    plotting.style()
    lat = common.latency_us(rows)
    lat = lat[lat["system"].isin(["WiscKey", "Bourbon"])].copy()
    lat["x"] = lat["dataset"].astype(str) + "-" + lat["order"].map(ORDERS)
    # one bar group per dataset and load order ("AR-seq")
    lat_x = lat.assign(dataset=lat["x"]).drop(columns=["order"])
    sp = common.speedup(lat_x)
    order = [f"{d}-{o}" for d in spec["datasets"] for o in ORDERS.values()]
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.2))
    common.bars(axes[0], lat_x, "dataset", common.present(order, lat_x["dataset"]), ["WiscKey", "Bourbon"],
                "mean lookup latency (µs)", sp)
    axes[0].set_title("(a) load orders; Bourbon's speedup on top")
    il = internal(rows)
    ax = axes[1]
    if len(il):
        wk = il[il["system"] == "WiscKey"].groupby(["dataset", "sign"])[["lookups", "ns"]].mean()
        bb = il[il["system"] == "Bourbon"].groupby(["dataset", "sign"])["ns"].mean()
        speed = (wk["ns"] / bb).rename("speedup")
        labels = [f"{common.dataset_name(d)}\n{s}" for d, s in wk.index]
        ax.bar(range(len(wk)), wk["lookups"] / 1e3, color=["#55a868" if s == "positive" else "#c44e52" for _, s in wk.index])
        ax.set_xticks(range(len(wk)), labels)
        ax.set_ylabel("internal lookups (thousands)")
        for i, k in enumerate(wk.index):
            ax.annotate(f"{speed.get(k, float('nan')):.2f}×", (i, wk["lookups"].iloc[i] / 1e3), xytext=(0, 3),
                        textcoords="offset points", ha="center", fontsize=8)
    ax.set_title("(b) random load: internal lookups; model path's speedup per lookup on top")
    plotting.mark_failures(fig, rows, by=("engine", "dataset"))
    fig.tight_layout()
    return fig, table(lat, sp, il)


def table(lat, sp, il):
    t = lat.groupby(["x", "system"])["value"].agg(["mean", "std", "count"]).unstack("system")
    t.columns = [f"{s} µs {stat}" for stat, s in t.columns]
    if len(sp):
        t = t.join(sp.set_index("dataset")[["speedup", "sd", "pairs"]].add_prefix("Bourbon "))
    t = t.reset_index().rename(columns={"x": "dataset-load"})
    if len(il):
        w = il.groupby(["dataset", "sign", "system"])[["lookups", "ns"]].mean().unstack("system")
        w.columns = [f"{s} {m}" for m, s in w.columns]
        w = w.reset_index()
        w.insert(0, "dataset-load", w.pop("dataset").astype(str) + "-rand (" + w.pop("sign") + " internal lookups)")
        t = pd.concat([t, w], ignore_index=True)
    return t
