"""engineering/pgm-speedup: lidx's lookups against std::lower_bound on the
same array (lidx_bench), per dataset and key count: the speedup bars (mean
over repetitions, one standard deviation) beside our 2x target, and the
CPU ns per lookup of each."""
import matplotlib.pyplot as plt
import seaborn as sns

from paper import plotting

TARGET = 2.0  # paper/engineering/claims.yaml: PGM >= 2x std::lower_bound


def _labelled(rows):
    return rows.assign(variant=rows["index"].astype(str) + " " + rows["knobs"].astype(str),
                       condition=rows["dataset"].astype(str) + ", " + rows["keys"].astype(str) + " keys",
                       value=rows["value"].astype(float))


def figure(rows, spec):
    plotting.style()
    speedup = _labelled(plotting.metric(rows, "speedup_vs_lower_bound_cpu"))
    speedup = speedup[speedup["index"] != "lower_bound"]
    cpu = _labelled(plotting.metric(rows, "cpu_ns_per_lookup"))
    # one colour per index in both panels (lower_bound, the baseline, only in the right one)
    variants = list(dict.fromkeys(cpu["variant"]))
    palette = dict(zip(variants, sns.color_palette(n_colors=len(variants))))
    fig, axes = plt.subplots(1, 2, figsize=(12, 3.6))
    sns.barplot(data=speedup, x="condition", y="value", hue="variant", errorbar="sd", capsize=0.1, ax=axes[0],
                palette=palette)
    plotting.shows(axes[0], speedup)
    axes[0].axhline(TARGET, color="#c0392b", linestyle="--", linewidth=1, label=f"target {TARGET:g}x")
    axes[0].set_ylabel("speedup over std::lower_bound (CPU)")
    axes[0].legend(fontsize=7)
    sns.barplot(data=cpu, x="condition", y="value", hue="variant", errorbar="sd", capsize=0.1, ax=axes[1],
                palette=palette)
    plotting.shows(axes[1], cpu)
    axes[1].set_ylabel("CPU ns per lookup")
    axes[1].legend(fontsize=7)
    for ax in axes:
        ax.set_xlabel("")
    plotting.mark_failures(fig, rows, by=("dataset", "keys"))
    fig.tight_layout()
    return fig, table(rows)


def table(rows):
    by = ["dataset", "keys", "index", "knobs"]
    return plotting.summary_table({
        "speedup": plotting.metric(rows, "speedup_vs_lower_bound_cpu"),
        "cpu ns": plotting.metric(rows, "cpu_ns_per_lookup"),
        "size bytes": plotting.metric(rows, "size_bytes"),
    }, by)
