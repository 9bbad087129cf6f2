"""bourbon/fig4 (paper Figure 4): internal lookups per file at each level
(the engine's count per table, averaged over the level's tables): (a)
random load, uniform keys: (i) all, (ii) negative, (iii) positive, (iv)
positive with zipfian keys; (b) sequential load, uniform keys."""
import pandas as pd

from paper import plotting

PANELS = [("shuffled", "uniform", ["positive", "negative"], "(a)(i) random load: all"),
          ("shuffled", "uniform", ["negative"], "(a)(ii) random load: negative"),
          ("shuffled", "uniform", ["positive"], "(a)(iii) random load: positive"),
          ("shuffled", "zipfian", ["positive"], "(a)(iv) random load, zipfian: positive"),
          ("sorted", "uniform", ["positive", "negative"], "(b) sequential load: all")]


def per_file(rows):
    """One row per (run, table): its level and internal lookups by sign."""
    f = rows[rows["metric"].isin(["bourbon_file_positive", "bourbon_file_negative"])]
    if f.empty:
        return pd.DataFrame(columns=["run", "order", "workload", "level", "file", "positive", "negative"])
    f = f.assign(sign=f["metric"].str.rsplit("_", n=1).str[1])
    return f.pivot_table(index=["run", "order", "workload", "level", "file"], columns="sign",
                         values="value", aggfunc="first").reset_index()


def figure(rows, spec):
    plotting.style()
    pf = per_file(rows)
    fig, (axes,) = plotting.panels(1, len(PANELS), 4, 3.8)
    out = []
    for ax, (order, workload, signs, title) in zip(axes, PANELS):
        d = pf[(pf["order"].astype(str) == order) & (pf["workload"] == workload)]
        if len(d):
            n = d[signs].sum(axis=1)
            mean = n.groupby(d["level"]).mean().sort_index()
            ax.bar(range(len(mean)), mean.values)
            ax.set_xticks(range(len(mean)), mean.index)
            for level, v in mean.items():
                out.append({"panel": title, "level": level, "internal lookups per file": v,
                            "tables": int((d["level"] == level).sum())})
        else:
            ax.text(0.5, 0.5, "no runs at this scale", ha="center", va="center", transform=ax.transAxes)
        ax.set_title(title, fontsize=9)
        ax.set_ylabel("internal lookups per file")
    plotting.mark_failures(fig, rows, by=("engine", "workload"))
    fig.tight_layout()
    return fig, pd.DataFrame(out)
