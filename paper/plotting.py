"""What every figure and table shares: one seaborn style, tidy-data
selection, failure marks, atomic PDF+PNG output, mean ± sd tables in CSV and
Markdown (DataFrame.to_markdown)."""
import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import seaborn as sns  # noqa: E402

from base.atomic import atomic_path, write_text  # noqa: E402


# The report shows a figure at its natural size (inches x 96 CSS px) up to its
# content width, 1248 px: figures no wider than this keep their labels at the
# sizes set here (9-11 pt: 12-15 px) on a 1366x768 screen. Wider grids wrap.
CONTENT_WIDTH_IN = 13.0
MIN_PANEL_WIDTH_IN = 4.0
DPI = 150


def style():
    """One look for every figure: seaborn's paper context, and a palette that
    stays distinct under the common colour-vision deficiencies."""
    sns.set_theme(context="paper", style="whitegrid", font_scale=1.1, palette="colorblind")


def panels(nrows, ncols, width, height, **kwargs):
    """plt.subplots(nrows, ncols, squeeze=False) for a grid of panels each
    `width` x `height` inches, fitted to the report's width: a grid wider than
    CONTENT_WIDTH_IN first narrows its panels (down to MIN_PANEL_WIDTH_IN),
    then wraps each row of panels onto several rows. Returns (figure, axes)
    with axes[row][col] in the grid the caller asked for; unused cells of a
    wrapped row are hidden."""
    if ncols * width <= CONTENT_WIDTH_IN:
        return plt.subplots(nrows, ncols, figsize=(ncols * width, nrows * height), squeeze=False, **kwargs)
    per_row = max(1, min(ncols, int(CONTENT_WIDTH_IN // MIN_PANEL_WIDTH_IN)))
    width = CONTENT_WIDTH_IN / per_row
    wraps = -(-ncols // per_row)
    fig, grid = plt.subplots(nrows * wraps, per_row, figsize=(per_row * width, nrows * wraps * height),
                             squeeze=False, **kwargs)
    axes = [[grid[r * wraps + c // per_row][c % per_row] for c in range(ncols)] for r in range(nrows)]
    for r in range(nrows):
        for c in range(ncols, wraps * per_row):
            grid[r * wraps + c // per_row][c % per_row].set_visible(False)
    return fig, axes


def metric(rows, name, **where):
    """The rows of one metric, narrowed by column=value."""
    sel = rows[rows["metric"] == name]
    for column, value in where.items():
        sel = sel[sel[column].astype(str) == str(value)]
    return sel


def failures(rows):
    """One row per failed run: its factors and the reason (tidy `note`); a
    run that completed has `failed` 0."""
    return rows[(rows["metric"] == "failed") & (pd.to_numeric(rows["value"], errors="coerce") == 1)]


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
            fig.savefig(tmp, format=str(path).rsplit(".", 1)[1], bbox_inches="tight", dpi=DPI)
    plt.close(fig)


def error_figure(name, error):
    fig, ax = plt.subplots(figsize=(8, 1.5))
    ax.axis("off")
    ax.text(0, 0.5, f"{name}: FIGURE FAILED\n{error}", color="#b00000", va="center", wrap=True)
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


def shows(ax, frame, metric=None):
    """Declares that bars or points on `ax` show means of `frame`'s `value`
    over groups of its runs (`run` column) for a tidy metric (`metric`, the
    frame's own `metric` column, or its attrs["metric"], which per-run
    selections set): paper/paper_marks.py finds a claim's
    bar by its runs and draws the paper's number beside it."""
    metric = metric or frame.attrs.get("metric")
    if metric is not None:
        frame = frame.assign(metric=metric)
    if "metric" not in frame.columns or "run" not in frame.columns:
        return  # not per-run rows of one known metric: no claim can be found on it
    ax.__dict__.setdefault("_lsmrepro_shows", []).append(frame)


def shown(ax):
    """The frames `shows` declared for `ax`."""
    return ax.__dict__.get("_lsmrepro_shows", [])


def shows_ratio(ax, metric, num_runs, den_runs, height):
    """Declares that a bar or point on `ax` at `height` shows a measure of
    two sets of runs of one tidy metric, `num_runs`' values over
    `den_runs`' (a speedup of paired runs): paper/paper_marks.py finds a
    ratio claim's bar by the runs its numerator and denominator select."""
    ax.__dict__.setdefault("_lsmrepro_ratios", []).append(
        (metric, frozenset(map(str, num_runs)), frozenset(map(str, den_runs)), float(height)))


def shows_scaled(ax, metric, runs, height):
    """Declares that a bar on `ax` at `height` grows with the mean of one
    tidy metric over `runs` (a stacked breakdown normalised by a baseline):
    a claim on that metric over exactly those runs draws the paper's
    number there, scaled as the bar is (paper/paper_marks.py)."""
    ax.__dict__.setdefault("_lsmrepro_scaled", []).append((metric, frozenset(map(str, runs)), float(height)))


def shown_scaled(ax):
    """The (metric, runs, height) `shows_scaled` declared for `ax`."""
    return ax.__dict__.get("_lsmrepro_scaled", [])


def shown_ratios(ax):
    """The (metric, numerator runs, denominator runs, height) `shows_ratio`
    declared for `ax`."""
    return ax.__dict__.get("_lsmrepro_ratios", [])
