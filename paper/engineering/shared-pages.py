"""engineering/shared-pages: lsm-eval fig8's interleaved job with its
members' pages shared (hard links of one load) or their own (copies): each
member's mean get over FP's in the same job, per mode."""
import matplotlib.pyplot as plt
import seaborn as sns

from paper import plotting


def figure(rows, spec):
    plotting.style()
    ratio = plotting.metric(rows, "mean_to_first").assign(value=lambda f: f["value"].astype(float))
    ratio = ratio[ratio["member"] != "fp"]
    fig, ax = plt.subplots(figsize=(9, 3.6))
    if not ratio.empty:
        sns.barplot(data=ratio, x="member", y="value", hue="pages", errorbar="sd", capsize=0.1, ax=ax)
        plotting.shows(ax, ratio)
    ax.axhline(1.0, color="#7f8c8d", linewidth=0.8)
    ax.set_ylabel("mean get, member / FP (same job)")
    ax.set_xlabel("")
    plotting.mark_failures(fig, rows, by=("dataset", "key_encoding"))
    fig.tight_layout()
    return fig, table(rows)


def table(rows):
    parts = {title: plotting.metric(rows, m).assign(value=lambda f: f["value"].astype(float))
             for title, m in {"to FP": "mean_to_first", "get mean ns": "get_mean_ns", "get p50 ns": "get_p50_ns",
                              "load_data ns": "load_data_ns", "rchar per lookup": "rchar_per_lookup"}.items()}
    return plotting.summary_table({t: p for t, p in parts.items() if not p.empty}, ["pages", "member"])
