"""lsm-eval's Figure 7 panels (the paper's Figure 7, A–I), drawn by fig7 on
every skew and by tr-fig10/tr-fig11 on one: one row per YCSB-Gen skew.
A/D/G: data-clustered indexes' point-lookup latency (bars, mean ± one sd
over repetitions) and index memory (lines, right axis, log) against the
position boundary; B/E/H: data-unclustered indexes, latency bars and memory
marks; C/F/I: clustered indexes with mapped keys kept (boundary 8) beside
the unclustered ones."""
import numpy as np
import pandas as pd
import seaborn as sns

from paper import lsm_eval as le
from paper import plotting


def _bars_and_lines(ax, lat, mem, x, hue, order, hue_order):
    sns.barplot(data=lat, x=x, y="value", hue=hue, order=order, hue_order=hue_order,
                errorbar="sd", capsize=0.05, ax=ax, alpha=0.85)
    ax.set_ylabel("latency (µs)")
    twin = ax.twinx()
    m = mem.groupby([x, hue])["value"].mean().reset_index()
    palette = dict(zip(hue_order, sns.color_palette(n_colors=len(hue_order))))
    for name in hue_order:
        line = m[m[hue] == name].set_index(x).reindex(order)["value"]
        twin.plot(range(len(order)), line.values, marker="o", ms=3, color=palette[name], lw=1.2)
    plotting.shows(ax, lat, "latency_mean")
    plotting.shows(twin, mem, "index_bytes")
    twin.set_yscale("log")
    twin.set_ylabel("index memory (MiB, lines)")
    twin.grid(False)
    return twin


def _bars_and_marks(ax, lat, mem, names, color):
    """Latency bars per index, its memory as squares on a log right axis."""
    sns.barplot(data=lat, x="index", y="value", order=names, errorbar="sd", capsize=0.1, ax=ax, color=color)
    twin = ax.twinx()
    mm = mem.groupby("index")["value"].mean().reindex(names)
    twin.plot(range(len(names)), mm.values, "s", color="#c0392b")
    plotting.shows(ax, lat, "latency_mean")
    plotting.shows(twin, mem, "index_bytes")
    twin.set_yscale("log")
    twin.set_ylabel("index memory (MiB, squares)")
    twin.grid(False)


def figure(rows, spec):
    plotting.style()
    lat, mem = le.latency_us(rows), le.memory_mib(rows)
    datasets = [d for d in spec["datasets"] if d in set(lat["dataset"])] or list(spec["datasets"])
    fig, axes = plotting.panels(len(datasets), 3, 17 / 3, 3.6)
    for row, dataset in enumerate(datasets):
        L, M = lat[lat["dataset"] == dataset], mem[mem["dataset"] == dataset]
        title = le.DATASET_LABEL.get(dataset, dataset)
        letters = "ABCDEFGHI"[3 * row: 3 * row + 3]
        # A/D/G: clustered, mapped keys not kept, against the boundary
        cl = [le.as_int(le.kept(F[F["index"].isin(le.CLUSTERED)], "false"), "position_boundary")
              for F in (L, M)]
        order = sorted(cl[0]["position_boundary"].unique())
        hues = le.present(le.CLUSTERED, cl[0])
        ax = axes[row][0]
        if hues:
            _bars_and_lines(ax, cl[0], cl[1], "position_boundary", "index", order, hues)
            handles, labels = ax.get_legend_handles_labels()
            ax.legend(handles, [le.LABEL.get(x, x) for x in labels], title=None, fontsize=7, ncol=2, loc="upper left")
        ax.set_title(f"({letters[0]}) {title}: clustered")
        ax.set_xlabel("position boundary")
        # B/E/H: unclustered
        un = [F[F["index"].isin(le.UNCLUSTERED)] for F in (L, M)]
        ax = axes[row][1]
        names = le.present(le.UNCLUSTERED, un[0])
        if names:
            _bars_and_marks(ax, un[0], un[1], names, "#7a9cc6")
        ax.set_ylabel("latency (µs)")
        ax.set_title(f"({letters[1]}) {title}: unclustered")
        # C/F/I: keys kept (boundary 8) vs unclustered
        kk = [pd.concat([le.kept(F[F["index"].isin(le.CLUSTERED)], "true"), F[F["index"].isin(le.UNCLUSTERED)]])
              for F in (L, M)]
        ax = axes[row][2]
        names = le.present(le.ORDER, kk[0])
        if names:
            _bars_and_marks(ax, kk[0], kk[1], names, "#9bc29b")
        ax.set_ylabel("latency (µs)")
        ax.set_title(f"({letters[2]}) {title}: keys kept (boundary 8) / unclustered")
    groups = [c for c in ("dataset", "index", "position_boundary", "keep_keys") if c in lat.columns]
    n = lat.groupby(groups, dropna=False)["repetition"].nunique().min() if len(lat) else 0
    fig.suptitle(f"Point lookups on YCSB-Gen (n = {n} repetitions per point; error bars: sd; lines: index memory)")
    plotting.mark_failures(fig, rows, by=("dataset", "point"))
    fig.tight_layout()
    return fig, table(rows)


def table(rows):
    by = [c for c in ("dataset", "index", "position_boundary", "keep_keys") if c in rows.columns]
    return plotting.summary_table({
        "latency µs": le.latency_us(rows),
        "index MiB": le.memory_mib(rows),
    }, by)


def on_one_dataset(rows, spec):
    """Figure 7's panels on one dataset (`params.dataset`), from Figure 7's
    runs: the technical report's Figures 10 and 11."""
    dataset = spec["params"]["dataset"]
    one = rows[rows["dataset"].astype(str) == dataset]
    return figure(one.reset_index(drop=True), {**spec, "datasets": {dataset: dataset}})
