"""What every figure and table shares: one seaborn style, tidy-data
selection, failure marks, atomic PDF+PNG output, mean ± sd tables in CSV and
Markdown (DataFrame.to_markdown)."""
import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import seaborn as sns  # noqa: E402

from base.atomic import atomic_path, write_text  # noqa: E402


def style():
    sns.set_theme(context="paper", style="whitegrid", font_scale=1.1)


def metric(rows, name, **where):
    """The rows of one metric, narrowed by column=value."""
    sel = rows[rows["metric"] == name]
    for column, value in where.items():
        sel = sel[sel[column].astype(str) == str(value)]
    return sel


def failures(rows):
    """One row per failed run: its factors and the reason (tidy `note`)."""
    return rows[rows["metric"] == "failed"]


def mark_failures(fig, rows, by=("engine", "dataset")):
    """A footnote per failed (by...) group with its reason, as the papers mark
    an index that cannot run on a dataset; the rest of the figure stands."""
    failed = failures(rows)
    if failed.empty:
        return
    lines = [" / ".join(str(r[c]) for c in by) + f": FAILED ({r['note']})"
             for _, r in failed.drop_duplicates(list(by)).iterrows()]
    fig.text(0.01, -0.02, "\n".join(lines), ha="left", va="top", color="#b00000", fontsize=8)


def save_figure(fig, pdf, png):
    for path in (pdf, png):
        with atomic_path(path) as tmp:
            fig.savefig(tmp, format=str(path).rsplit(".", 1)[1], bbox_inches="tight", dpi=150)
    plt.close(fig)


def error_figure(name, error):
    fig, ax = plt.subplots(figsize=(8, 1.5))
    ax.axis("off")
    ax.text(0, 0.5, f"{name}: FIGURE FAILED\n{error}", color="#b00000", va="center", wrap=True)
    return fig


def table_figure(table, name):
    """A table drawn as an image, for specs whose output is a table."""
    fig, ax = plt.subplots(figsize=(min(2 + 1.6 * len(table.columns), 16), 0.6 + 0.3 * (len(table) + 1)))
    ax.axis("off")
    ax.set_title(name)
    cells = [[_cell(v) for v in row] for row in table.itertuples(index=False)]
    ax.table(cellText=cells or [[""] * len(table.columns)], colLabels=list(table.columns), loc="center")
    return fig


def summary_table(parts, by):
    """Mean, sd and n of each named metric selection per `by` group:
    `parts` maps a column title to a tidy-row selection."""
    out = None
    for title, rows in parts.items():
        g = rows.groupby(by)["value"].agg(["mean", "std", "count"])
        g.columns = [f"{title} mean", f"{title} sd", f"{title} n"]
        out = g if out is None else out.join(g, how="outer")
    return out.reset_index()


def save_table(table, csv_path, md_path, caption):
    with atomic_path(csv_path) as tmp:
        table.to_csv(tmp, index=False)
    write_text(md_path, f"{caption}\n\n{table.to_markdown(index=False, floatfmt='.4g')}\n")


def _cell(v):
    if isinstance(v, float):
        return "—" if v != v else f"{v:.4g}"
    return str(v)
