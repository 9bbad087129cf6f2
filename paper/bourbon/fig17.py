"""bourbon/fig17 (paper Figure 17): (a) the PLR error bound against mean
lookup latency and the live models' memory on AR; (b) the models' space
overhead per dataset (live model bytes over keys × (16 + 64) bytes), from
Figure 9's Bourbon runs."""
import matplotlib.pyplot as plt
import pandas as pd

from paper import plotting
from paper.bourbon import common


def overhead(rows):
    """Per Figure 9 Bourbon (file model) run: model bytes / dataset bytes
    (its distinct keys × (16 + 64)). Model bytes: PLR segments and block
    layout, without the copies of the tables' filter blocks the engine keeps
    beside them (LevelDB's reader holds those too); the table has both."""
    f9 = rows[rows["experiment"] == "fig9"]
    model = common.per_run(f9, "bourbon_live_file_model_bytes_without_filters")
    model = model[model["system"] == "Bourbon"].set_index("run")
    model["with filter copies"] = common.per_run(f9, "bourbon_live_model_bytes").set_index("run")["value"]
    keys = common.per_run(f9, "dataset_keys").set_index("run")["value"]
    model["keys"] = keys
    model["overhead %"] = 100 * model["value"] / (keys * common.KV_BYTES)
    return model.reset_index()


def figure(rows, spec):
    plotting.style()
    own = rows[rows["experiment"] == "fig17"]
    lat = common.latency_us(own)
    mem = common.per_run(own, "bourbon_live_model_bytes")
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.2))
    ax = axes[0]
    table = None
    if len(lat):
        lat["error_bound"] = lat["error_bound"].astype(int)
        mem["error_bound"] = mem["error_bound"].astype(int)
        l = lat.groupby("error_bound")["value"].agg(["mean", "std"])
        m = mem.groupby("error_bound")["value"].mean() / 2**10
        ax.errorbar(l.index, l["mean"], yerr=l["std"].fillna(0), marker="o", color=common.COLORS["Bourbon"], capsize=3)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("error bound δ (positions)")
        ax.set_ylabel("mean lookup latency (µs)")
        right = ax.twinx()
        right.plot(m.index, m.values, marker="s", ls="--", color="#555555")
        right.set_ylabel("model memory (KiB, dashed)")
        right.grid(False)
        table = pd.DataFrame({"error bound": l.index, "latency µs mean": l["mean"].values,
                              "latency µs sd": l["std"].values, "model KiB": m.reindex(l.index).values})
    ax.set_title("(a) error bound: latency and space (AR)")
    ov = overhead(rows)
    ax = axes[1]
    if len(ov):
        order = common.present(["linear", "seg1", "seg10", "normal", "AR", "OSM"], ov["dataset"])
        o = ov.groupby("dataset")["overhead %"].mean()
        ax.bar(range(len(order)), [o[d] for d in order], color=common.COLORS["Bourbon"])
        ax.set_xticks(range(len(order)), [common.dataset_name(d) for d in order])
        for i, d in enumerate(order):
            ax.annotate(f"{o[d]:.2f}%", (i, o[d]), xytext=(0, 3), textcoords="offset points", ha="center", fontsize=8)
    ax.set_ylabel("model bytes / dataset bytes (%)")
    ax.set_title("(b) space overhead per dataset (Figure 9's runs)")
    plotting.mark_failures(fig, rows, by=("engine", "dataset"))
    fig.tight_layout()
    t2 = ov.groupby("dataset")[["value", "with filter copies", "keys", "overhead %"]].mean() \
        .rename(columns={"value": "model bytes", "with filter copies": "model bytes with filter copies"}).reset_index() \
        if len(ov) else pd.DataFrame()
    return fig, pd.concat([table if table is not None else pd.DataFrame(), t2], ignore_index=True)
