"""lsm-eval/tab2 (the paper's Table 2): each index's suitability in an
LSM-tree, derived from the measured data of Figures 7, 8, 9, 11 and 10D by
the thresholds in the spec (`params`): a measured ratio <= good_max is ✓,
<= issue_max ⚠, above ✗; an index that failed on a dataset gets ✗ for that
factor; no data is —. Each mark is printed with the ratio it came from.

  memory   index bytes over FP's (boundary 16, mapped keys not kept), worst dataset
  lookup   point-lookup latency over the fastest index's, median dataset
  rebuild  training time over compaction time under inserts, worst dataset
  seek     range-lookup latency over FP's (boundary 16), worst scan length
"""
import pandas as pd

from paper import lsm_eval as le
from paper import plotting


def _at16(frame):
    f = le.kept(frame, "false") if "keep_keys" in frame.columns else frame
    return f[pd.to_numeric(f["position_boundary"], errors="coerce") == 16]


def _relative(frame, by, to=None, over="max"):
    """Each index's mean over `to`'s mean (or the group's smallest index
    mean) per `by` group, then the worst (`max`) or `median` over groups."""
    if frame.empty:
        return pd.Series(dtype=float)
    m = frame.groupby(by + ["index"])["value"].mean().unstack("index")
    base = m[to] if to is not None and to in m.columns else m.min(axis=1)
    return getattr(m.div(base.where(base > 0), axis=0), over)(axis=0)


def _mark(value, limits):
    if value != value:
        return "—"
    mark = "✓" if value <= limits["good_max"] else "⚠" if value <= limits["issue_max"] else "✗"
    return f"{mark} ({value:.3g})"


def figure(rows, spec):
    limits = spec["params"]
    point = rows[rows["experiment"].isin(["fig7", "fig8"])]
    memory = _relative(_at16(le.memory_mib(point)), ["dataset"], "fp")
    lookup = _relative(_at16(le.latency_us(point)), ["dataset"], over="median")
    comp = le.compaction_parts(rows[rows["experiment"].isin(["fig11", "fig10d"])])
    wide = comp.pivot_table(index=["run", "dataset", "index"], columns="part", values="value").reset_index() \
        if len(comp) else pd.DataFrame(columns=["dataset", "index", "training", "compaction"])
    if len(wide):
        wide["value"] = wide["training"] / wide["compaction"].where(wide["compaction"] > 0)
        rebuild = wide.groupby(["dataset", "index"])["value"].mean().groupby("index").max()
    else:
        rebuild = pd.Series(dtype=float)
    rng = rows[rows["experiment"] == "fig9"]
    scan = le.per_run(rng, "latency_mean", 1e-3, op="scan", subset="all")
    seek = _relative(scan[pd.to_numeric(scan["position_boundary"], errors="coerce") == 16], ["workload"], "fp")
    failed = plotting.failures(rows)
    # the figures each factor is measured in: a failure there is ✗ for it
    sources = {"memory": ["fig7", "fig8"], "lookup": ["fig7", "fig8"], "rebuild": ["fig11", "fig10d"], "seek": ["fig9"]}
    out = []
    for index in le.ORDER:
        row = {"family": "data-clustered" if index in le.CLUSTERED else "data-unclustered",
               "index": le.LABEL[index]}
        for name, series in (("memory", memory), ("lookup", lookup), ("rebuild", rebuild), ("seek", seek)):
            mark = _mark(series.get(index, float("nan")), limits[name])
            fails = failed[(failed["experiment"].isin(sources[name])) & (failed["index"].astype(str) == index)] \
                if "index" in failed.columns else failed.iloc[0:0]
            if len(fails):
                mark = f"✗ (failed on {', '.join(sorted(set(fails['dataset'])))})"
            row[name] = mark
        out.append(row)
    return None, pd.DataFrame(out)
