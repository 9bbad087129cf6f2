"""lsm-eval/tr-fig17 (technical report Figure 17): index build (training)
time against total compaction time per index, for 1000-byte entries
(Figure 11's runs) and 16-byte entries (Figure 10 D's runs)."""
import seaborn as sns

from paper import lsm_eval as le
from paper import plotting


def figure(rows, spec):
    plotting.style()
    parts = le.compaction_parts(rows)
    parts = parts[parts["part"].isin(["compaction", "training"])]
    parts = parts.merge(rows[["run", "experiment"]].drop_duplicates(), on="run", how="left")
    parts["entries"] = parts["experiment"].map({"fig11": "1000-byte entries", "fig10d": "16-byte entries"})
    panels = [e for e in ("1000-byte entries", "16-byte entries") if e in set(parts["entries"])]
    fig, axes = plotting.panels(1, max(1, len(panels)), 7, 3.6)
    for ax, e in zip(axes[0], panels):
        p = parts[parts["entries"] == e]
        order = le.present(le.ORDER, p)
        sns.barplot(data=p, x="index", y="value", hue="part", order=order, errorbar="sd", ax=ax)
        ax.set_xticks(range(len(order)), [le.LABEL[i] for i in order])
        ax.set_ylabel("seconds")
        ax.set_title(e)
    plotting.mark_failures(fig, rows, by=("dataset", "index"))
    fig.tight_layout()
    return fig, plotting.summary_table({"seconds": parts}, ["entries", "index", "part"])
