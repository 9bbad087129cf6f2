"""bourbon/fig13 (paper Figure 13): mixed workloads with 1–50% writes:
(a) foreground time, (b) learning time, (c) total work (foreground +
learning + compaction during the run), (d) share of internal lookups on
WiscKey's path, for WiscKey and Bourbon-offline, -always and -cba."""
import pandas as pd

from paper import plotting
from paper.bourbon import common

SYSTEMS = ["WiscKey", "Bourbon-offline", "Bourbon-always", "Bourbon-cba"]
# the tidy metric each panel's bars show (plotting.shows: the paper's numbers
# are drawn beside them); total work is a sum of metrics, no one metric's
PANEL_METRICS = {"foreground": "run_seconds", "learning": "bourbon_learn_ms_total",
                 "baseline share": "bourbon_model_path_share"}


def percent(workload):
    return int(str(workload).lstrip("w"))


def work(rows):
    """Per run: foreground, learning, compaction and total seconds, and the
    share of internal lookups on WiscKey's path."""
    fg = common.per_run(rows, "run_seconds", by_learning=True).rename(columns={"value": "foreground"})
    out = fg.set_index("run")
    for name, metric, scale in (("learning", "bourbon_learn_ms_total", 1e-3), ("compaction", "compaction_seconds", 1),
                                ("baseline share", "bourbon_model_path_share", 1)):
        where = {"subset": "baseline"} if name == "baseline share" else {}
        v = common.per_run(rows, metric, **where).set_index("run")["value"] * scale
        out[name] = v
    out["learning"] = out["learning"].fillna(0)
    out["total"] = out["foreground"] + out["learning"] + out["compaction"].fillna(0)
    out["writes %"] = out["workload"].map(percent)
    return out.reset_index()


def figure(rows, spec):
    plotting.style()
    w = work(rows)
    panels = [("foreground", "(a) foreground time (s)"), ("learning", "(b) learning time (s)"),
              ("total", "(c) total work (s)"), ("baseline share", "(d) internal lookups on WiscKey's path")]
    fig, (axes,) = plotting.panels(1, 4, 5, 4.2)
    order = sorted(w["writes %"].unique()) if len(w) else []
    systems = common.present(SYSTEMS, w["system"]) if len(w) else []
    for ax, (col, title) in zip(axes, panels):
        frame = w.assign(value=w[col], dataset=w["writes %"])
        frame.attrs["metric"] = PANEL_METRICS.get(col)
        common.bars(ax, frame, "dataset", order, systems, title.split(") ", 1)[1])
        ax.set_xlabel("writes (%)")
        ax.set_title(title)
    plotting.mark_failures(fig, rows, by=("engine", "learning", "workload"))
    fig.tight_layout()
    table = w.groupby(["writes %", "system"])[["foreground", "learning", "compaction", "total", "baseline share"]]
    t = table.mean().join(w.groupby(["writes %", "system"])["run"].count().rename("runs"))
    return fig, t.reset_index()
