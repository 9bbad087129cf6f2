"""The figures of engineering's lsmbench_pairs runs (lsmrepro/run/paired.py):
each variant's numbers over its base's, per run (the variants of one run are
paired: same process, seed and machine state), drawn as bars with the target
a claim holds them to."""
import pandas as pd
import seaborn as sns

from paper import plotting


def paired_ratios(rows, metric, base, invert=False):
    """One row per (run, variant other than `base`): the mean over the run's
    rounds of `metric`, over the base's in that run (`invert`: base over
    variant, a speedup of a time)."""
    sel = plotting.metric(rows, metric).assign(value=lambda f: f["value"].astype(float))
    if sel.empty:
        return sel.assign(ratio=[])
    keys = ["run", "dataset", "key_encoding"]
    per_run = sel.groupby([*keys, "variant"], as_index=False)["value"].mean()
    den = per_run[per_run["variant"] == base].drop(columns="variant").rename(columns={"value": "base"})
    out = per_run[per_run["variant"] != base].merge(den, on=keys)
    out["ratio"] = out["base"] / out["value"] if invert else out["value"] / out["base"]
    out["condition"] = out["dataset"].astype(str) + ", " + out["key_encoding"].astype(str)
    out.attrs["metric"] = metric
    return out


def ratio_panel(ax, ratios, ylabel, target=None, target_label="target"):
    """Bars of `ratios` (paired_ratios) per condition and variant, one sd."""
    if ratios.empty:
        ax.set_axis_off()
        return
    sns.barplot(data=ratios, x="condition", y="ratio", hue="variant", errorbar="sd", capsize=0.1, ax=ax)
    for (variant, condition), g in ratios.groupby(["variant", "condition"]):
        plotting.shows_ratio(ax, ratios.attrs["metric"], g["run"], g["run"], g["ratio"].mean())
    if target is not None:
        ax.axhline(target, color="#c0392b", linestyle="--", linewidth=1, label=f"{target_label} {target:g}")
    ax.axhline(1.0, color="#7f8c8d", linewidth=0.8)
    ax.set_ylabel(ylabel)
    ax.set_xlabel("")
    ax.tick_params(axis="x", labelrotation=30)
    ax.legend(fontsize=7)


def table(rows, metrics):
    """Mean, sd and n of each metric per dataset, key encoding and variant."""
    parts = {title: plotting.metric(rows, m).assign(value=lambda f: f["value"].astype(float))
             for title, m in metrics.items()}
    parts = {t: p for t, p in parts.items() if not p.empty}
    if not parts:
        return pd.DataFrame()
    return plotting.summary_table(parts, ["dataset", "key_encoding", "variant"])
