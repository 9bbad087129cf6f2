"""The paper beside us: for each claim of a figure that gives a number
(paper/<study>/claims.yaml `paper`: value, members or range), a black mark
labelled "paper" at the bar or point that shows the claim's numerator
(found by its runs: plotting.shows; or a bar that grows with it, such as
a normalised stacked breakdown: plotting.shows_scaled) or the ratio itself
(a speedup the figure computed: plotting.shows_ratio), and a `paper`
column in the figure's table. The numbers come from the claims files only.

Where the mark stands, one rule for every kind: at y = h * paper / ours,
where h is the bar's height and ours the claim's measure computed from the
same rows as the bar (mean numerator / mean denominator). A bar that plots
the measure itself gets the paper's number; a bar of absolute values gets
the paper's ratio applied to our measured baseline ("1.92x of
table=block" means 1.92 times our RocksDB bar). A range is a band, a
value or member a line; a direction has no number and draws nothing."""
import math

import pandas as pd
from matplotlib.patches import Rectangle

from base.errors import InputError
from lsmrepro.claims import measure as cm
from paper import plotting

COLOR = "black"
KEY_LINES = ["dashed black line 'paper': the paper's number, where our bar would stand if our measure equalled the paper's",
             "(a ratio: the paper's ratio times our measured baseline; grey band: the paper's range; direction claims: none)"]
KEY = " ".join(KEY_LINES)
TEXT_LIMIT = 16  # above this many marks a figure shows the lines without their numbers
NOTE_LIMIT = 8
LABEL_PT = 7.5
POINT_PX = 14
SAMPLE_COLUMNS = {"run", "repetition", "value", "metric", "note", "source", "fingerprint", "point"}


class Mark:
    """One number of the paper for one member of a claim."""

    def __init__(self, claim, member, num, den, numbers, text, short):
        self.claim, self.member, self.num, self.den, self.short = claim, member, num, den, short
        self.numbers = numbers  # one number, or (low, high) of a range: the measure's units
        self.text = text
        self.places = []  # [(ax, x, width, height, our measure, the bar's rows)]
        self.why = "not looked for"  # why no bar shows it


def _merge(where, **extra):
    return {**where, **{k: v for k, v in extra.items() if v is not None}}


def _versus(num, den):
    """What a ratio's denominator is, as the keys where it differs."""
    diff = {k: v for k, v in den.items() if num.get(k) != v}
    return ", ".join(f"{k}={v if not isinstance(v, list) else '|'.join(map(str, v))}" for k, v in diff.items())


def _fmt(v):
    return f"{v:.3g}"


def marks(claim):
    """The claim's numbers as marks (none for a direction or a slope)."""
    m, paper = claim["measure"], claim["paper"]
    kind = m["kind"]
    if "direction" in paper or (kind == "trend" and m.get("statistic") == "slope"):
        return []
    if "members" in paper:
        items = list(paper["members"].items())
    elif "range" in paper:  # a null end ("up to"): the given end, as a line
        given = [v for v in paper["range"] if v is not None]
        items = [(None, tuple(paper["range"]) if len(given) == 2 else given[0])]
    else:
        items = [(None, paper["value"])]
    out = []
    for member, number in items:
        if kind == "value":
            pairs = [(member, m["where"], None)]
        elif kind in ("ratio", "share"):
            num, den = (m["numerator"], m["denominator"]) if kind == "ratio" else (m["part"], m["whole"])
            pairs = [(member, num, den)]
        elif kind == "group":
            by = m["group_by"]
            names = [member] if member is not None else [str(x) for x in m.get("members", [])] or [None]
            pairs = [(g, _merge(m["numerator"], **{by: g}), _merge(m["denominator"], **{by: g})) for g in names]
        elif kind == "ordering":
            if member is None:
                continue  # a range or one value over all pairs of an ordering: no one bar
            lo, hi = member.split("/", 1)
            pairs = [(member, _merge(m["where"], **{m["by"]: lo}), _merge(m["where"], **{m["by"]: hi}))]
        else:  # trend, relative change from -> to: (1 + paper) times the `from` value
            pairs = [(member, _merge(m["where"], **{m["over"]: m["to"]}), _merge(m["where"], **{m["over"]: m["from"]}))]
            number = tuple(1 + n for n in number) if isinstance(number, tuple) else 1 + number
        for g, num, den in pairs:
            shown = (f"{_fmt(number[0])}–{_fmt(number[1])}" if isinstance(number, tuple) else _fmt(number)) \
                + ("×" if den is not None else "")
            versus = _versus(num, den) if den else ""
            # beside the line: the number and, where one value tells it, the baseline
            diff = [v for k, v in (den or {}).items() if num.get(k) != v]
            short = f"{shown} {diff[0]}" if len(diff) == 1 and not isinstance(diff[0], list) else shown
            out.append(Mark(claim["id"], g, num, den, number, f"paper: {shown}" + (f" of {versus}" if versus else ""), short))
    return out


def _select(tidy, where, claim_id):
    """The claim's own row selection (lsmrepro.claims.measure), so a mark
    reads exactly the rows its verdict reads."""
    try:
        return cm.select_rows(tidy, where, claim_id, "paper mark")
    except InputError:  # a selector naming a column this figure's rows lack: not shown here
        return tidy.iloc[0:0]


def _locate(fig, rows):
    """(ax, x, width, height, the bar's frame rows) of the bar or point
    showing the mean of exactly `rows` (one metric), or None."""
    if rows.empty or rows["metric"].nunique() != 1 or "run" not in rows.columns:
        return None
    metric, runs = rows["metric"].iloc[0], set(rows["run"])
    for ax in fig.axes:
        for frame in plotting.shown(ax):
            sub = frame[(frame["metric"] == metric) & frame["run"].isin(runs)]
            if set(sub["run"]) != runs or len(sub) != len(rows):
                continue
            height = sub["value"].mean()
            hit = _artist_at(ax, height)
            if hit:
                return (ax, *hit, height, sub)
    return None


def _locate_ratio(fig, num, den):
    """(ax, x, width, height, the numerator's rows) of the bar or point a
    figure declared (plotting.shows_ratio) to show num's runs over den's,
    or None."""
    if num["metric"].nunique() != 1 or den["metric"].nunique() != 1 or "run" not in num.columns:
        return None
    metric = num["metric"].iloc[0]
    if den["metric"].iloc[0] != metric:
        return None
    runs = (frozenset(num["run"].astype(str)), frozenset(den["run"].astype(str)))
    for ax in fig.axes:
        for m, n, d, height in plotting.shown_ratios(ax):
            if m == metric and (n, d) == runs:
                hit = _artist_at(ax, height)
                if hit:
                    return (ax, *hit, height, num)
    return None


def _locate_scaled(fig, rows):
    """(ax, x, width, height, rows) of a bar a figure declared to grow with
    the mean of rows' metric over exactly rows' runs (plotting.shows_scaled),
    or None."""
    if rows.empty or rows["metric"].nunique() != 1 or "run" not in rows.columns:
        return None
    metric, runs = rows["metric"].iloc[0], frozenset(rows["run"].astype(str))
    for ax in fig.axes:
        for m, r, height in plotting.shown_scaled(ax):
            if m == metric and r == runs:
                hit = _artist_top(ax, height)
                if hit:
                    return (ax, *hit, height, rows)
    return None


def _artist_top(ax, height):
    """(x, width) of a bar, stacked or not, whose top is at this height."""
    for patch in ax.patches:
        if hasattr(patch, "get_height") and _close(patch.get_y() + patch.get_height(), height):
            return patch.get_x() + patch.get_width() / 2, patch.get_width()
    return None


def _close(a, b):
    return math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-12)


def _artist_at(ax, height):
    """(x, width) of a bar of this height or a point at this y on ax."""
    for patch in ax.patches:
        if hasattr(patch, "get_height") and patch.get_y() == 0 and _close(patch.get_height(), height):
            return patch.get_x() + patch.get_width() / 2, patch.get_width()
    for line in ax.lines:
        xs, ys = line.get_xdata(), line.get_ydata()
        if len(xs) == 2 and len(ys) == 2 and ys[0] == ys[1] and _close(float(ys[0]), height):
            return (float(xs[0]) + float(xs[1])) / 2, abs(float(xs[1]) - float(xs[0]))  # a box's mean line
        for x, y in zip(xs, ys):
            try:
                if _close(float(y), height):
                    return float(x), None  # a point: the mark spans a fixed width on screen (_span)
            except (TypeError, ValueError):
                break
    return None


def _measure(num, den):
    """The claim's measure from the bar's rows: mean numerator over mean
    denominator (a value claim: the mean itself)."""
    if num.empty or (den is not None and den.empty):
        return math.nan
    return num["value"].mean() / (1.0 if den is None else den["value"].mean())


def _places(fig, tidy, mk):
    """[(ax, x, width, height, our measure, the bar's rows)]: the bar that
    shows the claim's numerator rows, else one bar per value of the one
    factor that splits them into bars (a claim pooling datasets: the
    paper's number applied at each dataset's bar); [] when none fits."""
    num = _select(tidy, mk.num, mk.claim)
    den = None if mk.den is None else _select(tidy, mk.den, mk.claim)
    mk.why = ("no data" if num.empty else "no data for its baseline" if den is not None and den.empty
              else "no bar shows its rows")
    if num.empty or (den is not None and den.empty):
        return []
    splits = [None] + [c for c in num.columns if c not in SAMPLE_COLUMNS and num[c].nunique(dropna=False) > 1]
    for column in splits:
        parts = [(num, den)] if column is None else [
            (num[num[column] == v], None if den is None else den[den[column] == v]) for v in num[column].unique()]
        out = []
        for n, d in parts:
            ours = _measure(n, d)
            hit = None
            if ours == ours and ours > 0:
                hit = _locate(fig, n) or (_locate_ratio(fig, n, d) if d is not None else None) \
                    or _locate_scaled(fig, n)
            if hit is None:
                break
            ax, x, width, height, sub = hit
            extra = sub.drop_duplicates("run").set_index("run")
            out.append((ax, x, width, height, ours, n.join(extra[[c for c in extra.columns if c not in n.columns]], on="run")))
        else:
            return out
    return []


def _span(ax, x, width):
    """The x extent of a mark: its bar's (at least 0.2 wide), or for a point
    POINT_PX either side on screen, which a log axis keeps visible."""
    if width is not None:
        half = max(width, 0.2) / 2
        return x - half, x + half
    px = ax.transData.transform((x, 0))[0]
    inv = ax.transData.inverted()
    return inv.transform((px - POINT_PX, 0))[0], inv.transform((px + POINT_PX, 0))[0]


def draw(fig, tidy, claims):
    """Draws the marks of `claims` on `fig` (tidy: the rows the figure was
    drawn from); returns every mark, placed or not."""
    all_marks = [mk for c in claims for mk in marks(c)]
    labels = {}
    for mk in all_marks:
        mk.places = _places(fig, tidy, mk)
    bands = {}  # two ranges on one bar stand side by side, not on top of each other
    for mk in all_marks:
        if isinstance(mk.numbers, tuple):
            for ax, x, *_ in mk.places:
                bands.setdefault((id(ax), x), []).append(mk)
    for mk in all_marks:
        for ax, x, width, height, ours, _ in mk.places:
            lo_x, hi_x = _span(ax, x, width)
            scale = height / ours
            if isinstance(mk.numbers, tuple):
                lo, hi = (n * scale for n in mk.numbers)
                slot = bands[(id(ax), x)]
                w = (hi_x - lo_x) / len(slot)
                left = lo_x + slot.index(mk) * w
                artist = ax.add_patch(Rectangle((left, lo), w, hi - lo, color=COLOR, alpha=0.25, lw=0, zorder=4))
                y = hi
            else:
                y = mk.numbers * scale
                artist, = ax.plot([lo_x, hi_x], [y, y], color=COLOR, lw=1.8, ls="--", zorder=5)
            artist.set_label(mk.text)
            artist.set_gid("paper")
            labels.setdefault(ax, []).append((x, y, mk.short))
    for ax, items in labels.items():
        ax.relim()
        ax.autoscale_view()
        if sum(len(v) for v in labels.values()) <= TEXT_LIMIT:
            _label(ax, items)
    if all_marks:
        _note(fig, all_marks, bool(labels))
    return all_marks


def _label(ax, items):
    """The number over each line's middle (its own bar). Several lines on
    one bar: each label just over its line unless that would cover a
    higher line or the label below, else pushed up over them, so labels
    keep the lines' order (the lowest label names the lowest line); the
    axis grows to keep them inside."""
    for _ in range(4):  # growing the axis moves the lines on screen: place again
        placed, top = _label_places(ax, items)
        if top <= ax.transAxes.transform((0, 1))[1]:
            break
        lo, _hi = ax.get_ylim()
        ax.set_ylim(lo, ax.transData.inverted().transform((0, top))[1])
    for x, y, text, at in placed:
        ax.annotate(text, xy=(x, y), xytext=ax.transData.inverted().transform(at), fontsize=LABEL_PT,
                    color=COLOR, ha="center", va="bottom",
                    bbox=dict(boxstyle="square,pad=0.05", fc="white", ec="none", alpha=0.7), gid="paper")


def _label_places(ax, items):
    """([(x, y, text, label's screen position)], the labels' top on screen)."""
    gap = LABEL_PT * 1.35 * ax.figure.dpi / 72  # a label's height on screen, and a little air
    bars = {}
    for x, y, text in items:
        bars.setdefault(round(float(ax.transData.transform((x, 0))[0])), []).append((x, y, text))
    placed, top = [], -math.inf
    for stack in bars.values():
        stack.sort(key=lambda i: i[1])
        lines = [ax.transData.transform((x, y)) for x, y, _ in stack]
        floor = -math.inf
        for j, (x, y, text) in enumerate(stack):
            at = max(lines[j][1] + 1, floor)
            for _, py in lines[j + 1:]:  # ascending: a push may bring the next line under the label
                if at <= py < at + gap:
                    at = py + 1
            floor = at + gap
            top = max(top, floor)
            placed.append((x, y, text, (lines[j][0], at)))
    return placed, top


def _note(fig, all_marks, drawn):
    unplaced = [mk for mk in all_marks if not mk.places]
    lines = KEY_LINES if drawn else ["paper: no bar of this figure shows a claim's numerator; the paper's numbers:"]
    lines = list(lines) + [f"{mk.claim}{f' [{mk.member}]' if mk.member else ''}: {mk.text} (not drawn: {mk.why})"
                           for mk in unplaced[:NOTE_LIMIT]]
    if len(unplaced) > NOTE_LIMIT:
        lines.append(f"... and {len(unplaced) - NOTE_LIMIT} more (the table's paper column)")
    fig.text(0.99, -0.02, "\n".join(lines), ha="right", va="top", fontsize=6.5, color=COLOR, gid="paper")


def caption(claims):
    """The caption's note on the marks ('' for a figure without numbers)."""
    numeric = [c for c in claims if marks(c)]
    direction = [c["id"] for c in claims if not marks(c)]
    parts = [f"Paper marks: {KEY}."] if numeric else []
    if direction:
        parts.append("Claims without a number to draw (direction only): " + ", ".join(direction) + ".")
    return " ".join(parts)


def table_column(table, tidy, all_marks):
    """`table` with a `paper` column: each row the marks whose bar's rows
    fix every factor column of the table to that row's values."""
    if table is None or table.empty or not all_marks:
        return table
    texts = [[] for _ in range(len(table))]
    for mk in all_marks:
        for rows in [p[5] for p in mk.places] or [_select(tidy, mk.num, mk.claim)]:
            _match(table, rows, mk, texts)
    if not any(texts):
        return table.assign(paper="")
    return table.assign(paper=["; ".join(t) for t in texts])


def _match(table, rows, mk, texts):
    """Adds mk's text to the table rows that `rows` (the claim's) are about:
    every factor column both have is fixed by `rows` to the row's value,
    and every other text column of the table names one of the values
    `rows` fix (a table's `mechanism` naming the tidy `slr` value)."""
    if rows.empty:
        return
    factors = [c for c in table.columns if c in rows.columns and c not in SAMPLE_COLUMNS]
    fixed = {c: rows[c].dropna().map(cm.factor_text).unique() for c in rows.columns if c not in SAMPLE_COLUMNS}
    fixed = {c: v[0] for c, v in fixed.items() if len(v) == 1}
    named = {v.lower() for v in fixed.values()}
    others = [c for c in table.columns if c not in rows.columns and c != "paper"
              and not pd.api.types.is_numeric_dtype(table[c])]
    if not factors or any(c not in fixed for c in factors):
        return
    for i, (_, row) in enumerate(table.iterrows()):
        if (all(cm.factor_text(row[c]) == fixed[c] for c in factors)
                and all(pd.isna(row[c]) or str(row[c]).lower() in named for c in others)):
            texts[i].append(mk.text.replace("paper: ", "") + f" [{mk.claim}]")
