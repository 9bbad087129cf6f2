"""What the bourbon study's figures share: the systems as the paper names
them, per-run selections of the tidy rows, speedups over WiscKey (paired by
dataset, workload and repetition), and bars with the speedup on top."""
import numpy as np
import pandas as pd

from paper import plotting

# dataset labels of experiments.yaml (run-id tokens) -> the paper's names
DATASET_NAMES = {"seg1": "seg-1%", "seg10": "seg-10%"}
# the controls' systems (our own wisckey build) besides the paper's
OWN_BUILD = "WiscKey (own build)"
OWN_BUILD_WHOLE_KEYS = "WiscKey (own build), whole keys"
COLORS = {"WiscKey": "#4c72b0", "Bourbon": "#dd8452", "Bourbon-level": "#55a868",
          "Bourbon-offline": "#8172b3", "Bourbon-always": "#c44e52", "Bourbon-cba": "#dd8452",
          OWN_BUILD: "#8c8c8c", OWN_BUILD_WHOLE_KEYS: "#b5b5b5"}
KV_BYTES = 16 + 64  # key + value of every pair (experiments.yaml: be64_pad16 keys, 64-byte values)
FACTORS = ["dataset", "workload", "order", "cache", "error_bound", "repetition"]


def _col(rows, name):
    return rows[name].astype(str) if name in rows.columns else pd.Series("nan", index=rows.index)


def system(rows, by_learning=False):
    """The paper's name of each row's system: WiscKey (bourbon with
    learning=never: the artifact's WiscKey mode, on the Bourbon variants'
    load), Bourbon / Bourbon-level, or Bourbon-<learning> when `by_learning`;
    the wisckey engine (the controls) is "WiscKey (own build)", on Bourbon's
    table layout (block_restart_interval=1) "WiscKey (own build), whole keys"."""
    learning, granularity = _col(rows, "learning"), _col(rows, "granularity")
    restart = pd.to_numeric(_col(rows, "block_restart_interval"), errors="coerce")
    own = rows["engine"].astype(str) == "wisckey"
    out = pd.Series("Bourbon", index=rows.index)
    out[granularity == "level"] = "Bourbon-level"
    if by_learning:
        out[learning.isin(["offline", "always", "cba"])] = "Bourbon-" + learning
    out[learning == "never"] = "WiscKey"
    out[own] = OWN_BUILD
    out[own & (restart == 1)] = OWN_BUILD_WHOLE_KEYS
    return out


def range_length(frame):
    """The range length of each row's workload (experiments.yaml: len<n>)."""
    return frame["workload"].astype(str).str.replace("len", "", regex=False).astype(int)


def dataset_name(label):
    return DATASET_NAMES.get(str(label), str(label))


def per_run(rows, metric, by_learning=False, **where):
    """One value per run of a metric (op/subset as `where` says), with the
    run's factors and its system's name."""
    sel = rows[rows["metric"] == metric]
    for column, value in where.items():
        sel = sel[sel[column].astype(str) == str(value)]
    sel = sel.groupby("run", as_index=False).first() if len(sel) else sel
    out = sel[["run", "value"] + [c for c in FACTORS + ["engine", "learning", "granularity", "block_restart_interval"]
                                  if c in sel.columns]].copy()
    out["system"] = system(sel, by_learning).values if len(sel) else []
    out.attrs["metric"] = metric  # plotting.shows: which metric a bar of these runs shows
    return out


def latency_us(rows, by_learning=False):
    """Mean get latency of each run, µs."""
    lat = per_run(rows, "latency_mean", by_learning, op="get", subset="all")
    lat["value"] = lat["value"] / 1e3
    return lat


def keys_of(frame, extra=()):
    """The factors a pair of runs shares; a factor no run of this figure has
    (another figure's grid column, all blank here) is left out."""
    return [c for c in ["dataset", "workload", "order", "cache", "repetition", *extra]
            if c in frame.columns and frame[c].notna().any()]


def speedup(frame, base="WiscKey", target="Bourbon", higher_is_better=False):
    """target's speedup over base, paired on the run's factors; mean and sd
    over pairs per (dataset, workload, order, cache), and the runs of each
    side of the ratio (`num_runs`, `den_runs`: tuples; for shows_ratio)."""
    keys = keys_of(frame)
    b = frame[frame["system"] == base].set_index(keys)
    t = frame[frame["system"] == target].set_index(keys)
    num, den = (t, b) if higher_is_better else (b, t)
    pairs = (num["value"] / den["value"]).dropna()
    group = [k for k in keys if k != "repetition"]
    if pairs.empty:
        return pd.DataFrame(columns=group + ["speedup", "sd", "pairs", "num_runs", "den_runs"])
    g = pairs.groupby(level=group) if group else pairs.groupby(lambda _: 0)
    out = g.agg(["mean", "std", "count"]).rename(columns={"mean": "speedup", "std": "sd", "count": "pairs"})
    if "run" in frame.columns:
        runs = pd.DataFrame({"num_runs": num["run"], "den_runs": den["run"]}).loc[pairs.index]
        by = runs.groupby(level=group) if group else runs.groupby(lambda _: 0)
        out = out.join(by.agg(tuple))
    return out.reset_index()


def shows_speedups(ax, sp, metric):
    """Declares each speedup of `sp` (speedup()) drawn on ax at its height
    (plotting.shows_ratio), so a claim's paper number is drawn beside it."""
    for _, row in sp.dropna(subset=["num_runs"]).iterrows() if "num_runs" in sp.columns else []:
        plotting.shows_ratio(ax, metric, row["num_runs"], row["den_runs"], row["speedup"])


def bars(ax, frame, x, order, hues, ylabel, speedups=None, base="WiscKey", target="Bourbon", fmt="{:.2f}×"):
    """Grouped bars (mean of the runs, error bars one sd), one group per x
    value, one bar per system; the speedup of target over base on top."""
    width = 0.8 / max(len(hues), 1)
    stats = frame.groupby([x, "system"])["value"].agg(["mean", "std"])
    top = {}
    for j, h in enumerate(hues):
        xs, ms, sds = [], [], []
        for i, v in enumerate(order):
            if (v, h) in stats.index:
                xs.append(i + (j - (len(hues) - 1) / 2) * width)
                ms.append(stats.loc[(v, h), "mean"])
                sds.append(np.nan_to_num(stats.loc[(v, h), "std"]))
                top[v] = max(top.get(v, 0), ms[-1] + sds[-1])
        ax.bar(xs, ms, width, yerr=sds, capsize=2, label=h, color=COLORS.get(h))
    plotting.shows(ax, frame)
    ax.set_xticks(range(len(order)), [dataset_name(v) for v in order])
    ax.set_ylabel(ylabel)
    if speedups is not None and len(speedups):
        s = speedups.groupby(x)["speedup"].mean()
        for i, v in enumerate(order):
            if v in s.index:
                ax.annotate(fmt.format(s[v]), (i, top.get(v, 0)), xytext=(0, 3), textcoords="offset points",
                            ha="center", fontsize=8)
    ax.legend(fontsize=8)


def present(order, values):
    values = set(map(str, values))
    return [o for o in order if str(o) in values]


def latency_table(frame, by, base="WiscKey", target="Bourbon", unit="µs", higher_is_better=False):
    """Mean, sd and n of each system per `by` group, and target's speedup."""
    t = frame.groupby(by + ["system"])["value"].agg(["mean", "std", "count"]).unstack("system")
    t.columns = [f"{s} {unit} {stat}" for stat, s in t.columns]
    sp = speedup(frame, base, target, higher_is_better)
    if len(sp):
        t = t.join(sp.set_index(by)[["speedup", "sd", "pairs"]].add_prefix(f"{target} "))
    return t.reset_index()


# The controls' ratios (base, target), each changing one thing: the paper's
# (the models), the layout, the build (hooks layer and table reader on the
# same tables), and the study's ratio until WiscKey became learning=never.
CONTROL_SYSTEMS = [OWN_BUILD, OWN_BUILD_WHOLE_KEYS, "WiscKey", "Bourbon"]
CONTROL_RATIOS = [("WiscKey", "Bourbon"), (OWN_BUILD, OWN_BUILD_WHOLE_KEYS), (OWN_BUILD_WHOLE_KEYS, "WiscKey"),
                  (OWN_BUILD, "Bourbon")]


def control_table(frame, by, unit, higher_is_better=False):
    """A control's table: mean, sd and n of each of CONTROL_SYSTEMS per `by`
    group, then each of CONTROL_RATIOS paired by repetition (speedup())."""
    frame = frame[frame["system"].isin(CONTROL_SYSTEMS)]  # Figure 9's Bourbon-level is not split here
    t = frame.groupby(by + ["system"])["value"].agg(["mean", "std", "count"]).unstack("system")
    t.columns = [f"{s} {unit} {stat}" for stat, s in t.columns]
    for base, target in CONTROL_RATIOS:
        sp = speedup(frame, base, target, higher_is_better)
        if len(sp):
            t = t.join(sp.set_index(by)[["speedup", "sd", "pairs"]].add_prefix(f"{target} over {base} "))
    return t


def throughput(rows, by_learning=False):
    """Run-phase operations per second of each run."""
    return per_run(rows, "run_throughput", by_learning)
