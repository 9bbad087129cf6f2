"""What every figure and table shares: one style, atomic PDF+PNG output,
tidy-data selection, mean ± sd tables in CSV and Markdown."""
import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import seaborn as sns  # noqa: E402

from lsmrepro.atomic import atomic_path, write_text  # noqa: E402
from lsmrepro.errors import InputError  # noqa: E402


def style():
    sns.set_theme(context="paper", style="whitegrid", font_scale=1.1)


def read_tidy(path, experiment):
    tidy = pd.read_csv(path, dtype={"run": str, "dataset": str, "engine": str})
    rows = tidy[tidy["experiment"] == experiment]
    if rows.empty:
        raise InputError(path, "experiment", f"rows of experiment {experiment!r} expected; none found")
    return rows


def metric(rows, name, **where):
    sel = rows[rows["metric"] == name]
    for column, value in where.items():
        sel = sel[sel[column].astype(str) == str(value)]
    return sel


def save_figure(fig, pdf, png):
    for path in (pdf, png):
        with atomic_path(path) as tmp:
            fig.savefig(tmp, format=str(path).rsplit(".", 1)[1], bbox_inches="tight", dpi=150)
    plt.close(fig)


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
    header = "| " + " | ".join(table.columns) + " |"
    sep = "|" + "---|" * len(table.columns)
    body = ["| " + " | ".join(_cell(v) for v in row) + " |" for row in table.itertuples(index=False)]
    write_text(md_path, f"{caption}\n\n" + "\n".join([header, sep, *body]) + "\n")


def _cell(v):
    if isinstance(v, float):
        return "—" if v != v else f"{v:.4g}"
    return str(v)
