"""What a claim measures: its selectors' tidy rows, reduced to samples per
pairing group and split into members and points (paper/README.md,
"Measures"). The samples are on the scale the rule tests (log for every
kind but a slope; lsmrepro/claims/spec.py)."""

import math

import numpy as np
import pandas as pd

from lsmrepro.tidy import aggregate
from lsmrepro.plan import studies, tools
from lsmrepro.claims.spec import log_scale
from base.errors import InputError

AGGREGATE = ""  # the one member of a claim without members
NOT_POINTS = {"run", "repetition"}  # pair_on columns that index samples, not points
SELECTORS = ("where", "numerator", "denominator", "part", "whole")
REPLICA = "replica"  # a scale's A/A replicas (config/scale.schema.yaml): a run factor


def factor_text(value):
    """A tidy value as claims write it: a factor column that pandas read as
    float because other figures lack it (8388608.0) matches 8388608."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _as_text(column):
    if column.dtype == object and pd.api.types.infer_dtype(column, skipna=False) == "string":
        return column  # text already (a scan in C, where map calls factor_text per row)
    return column.map(factor_text)


def _grid_options():
    """Tidy columns a run may add: every grid option of every study's spec,
    the columns of dimensions a figure gives as a list (`key`, `order`,
    `value_bytes`, ...), a tool figure's columns, and the DobLIX agent's
    state columns."""
    out = set(aggregate.ENGINE_COLUMNS)
    for _, _, fig in studies.all_figures():
        for grids in fig.get("grid", {}).values():
            for grid in (grids if isinstance(grids, list) else [grids]):
                out |= set(grid)
        out |= {aggregate.factor_column(studies.ID_NAMES.get(d, d)) for d in studies.DIMENSIONS
                if isinstance(fig.get(d), list)}
        out |= tools.tidy_columns(fig)
    return out | {REPLICA}


def _with_factor(rows, column):
    """`rows` with `column` present: a grid factor that no selected run has
    (a partial run, or no run at all) is an empty column, so the claim finds
    no data instead of failing."""
    if column in rows.columns or column not in _grid_options():
        return rows
    return rows.assign(**{column: pd.Series(dtype=object)})


def study_rows(tidy):
    """A tidy table's rows of the study's own runs, replica 0 (and every row
    of a figure without replicas): replicas 1.. of a point (a scale's
    `replicas`) exist for the A/A claims that name them (ids aa-...); mixed
    in, they would give a replicated point more loads than the points it is
    compared with."""
    if REPLICA not in tidy.columns:
        return tidy
    column = tidy[REPLICA]
    # a row of a figure without replicas has none (NaN; "nan" in the power
    # check's text rows)
    return tidy[column.isna() | column.astype(str).isin(["", "nan"]) | _isin(column, [0])]


def select_rows(tidy, where, claim_id, role):
    """The rows every `where` item matches; a selector that names no
    replica reads the study's own runs (study_rows)."""
    rows = tidy if REPLICA in where else study_rows(tidy)
    for column, wanted in where.items():
        if column not in tidy.columns:
            if column in _grid_options():  # a factor no selected run has (a partial run): no data
                return rows.iloc[0:0]
            raise InputError("paper/<study>/claims.yaml", f"{claim_id}.{role}.{column}", f"a tidy column expected; have {', '.join(tidy.columns)}")
        values = wanted if isinstance(wanted, list) else [wanted]
        rows = rows[_isin(rows[column], values)]
    return rows


def _isin(series, values):
    """Rows whose value is one of `values`, as text or, in a numeric column,
    as a number: a grid factor only some figures have (slr_segments) is read
    as 2.0 beside the others' blanks, and a claim writes 2."""
    hit = series.astype(str).isin([str(v) for v in values])
    numbers = pd.to_numeric(pd.Series(values, dtype=object), errors="coerce").dropna()
    if series.dtype.kind in "fiu" and len(numbers):
        hit |= series.isin(numbers.astype(float).tolist())
    return hit


class Samples:
    """Values per pairing group, with the tidy sources and runs behind each."""

    def __init__(self, values, sources, runs):
        self.values, self.sources, self.runs = values, sources, runs

    @classmethod
    def of(cls, rows, pair_on):
        if rows.empty:
            empty = pd.Series(dtype=float)
            return cls(empty, pd.Series(dtype=str), pd.Series(dtype=str))
        g = rows.groupby(pair_on, dropna=False)
        values = g["value"].mean()
        if "source" not in rows:  # simulated rows (lsmrepro/claims/power.py): no evidence to keep
            none = pd.Series("", index=values.index)
            return cls(values, none, none)
        join = lambda s: ";".join(sorted(set(map(str, s))))  # noqa: E731
        return cls(values, g["source"].apply(join), g["run"].apply(join))

    def ratio(self, other):
        if self.values.empty or other.values.empty:  # one side selected nothing: no data
            return Samples.of(pd.DataFrame(), [])
        joined = pd.concat({"num": self.values, "den": other.values}, axis=1, join="inner")
        idx = joined.index
        return Samples(joined["num"] / joined["den"],
                       self.sources.reindex(idx) + ";" + other.sources.reindex(idx),
                       self.runs.reindex(idx) + ";" + other.runs.reindex(idx))

    def evidence(self):
        return join_lists(self.sources), join_lists(self.runs)


def join_lists(series):
    return ";".join(sorted(set(";".join(series.astype(str).tolist()).split(";")) - {"", "nan"}))


def experiments(claim):
    """The experiments (figures with runs) whose tidy rows a claim reads: the
    ones each selector names (of its measure and its context measures); a
    selector naming none reads its figure's and those the figure uses."""
    named = set()
    for m in [claim["measure"], *(c["measure"] for c in claim.get("context", []))]:
        for key in SELECTORS:
            selector = m.get(key)
            if selector is None:
                continue
            wanted = selector.get("experiment") or studies.figure_experiments(claim["study"], claim["figure"])
            named |= set(wanted if isinstance(wanted, list) else [wanted])
    return named


def loads_of(claim, scale_cfg):
    """The number of independent loads behind a claim's samples at a scale:
    repetition r of a figure starts from load r mod its load_repetitions L
    (lsmrepro.plan.studies.runs), and the loads of the systems it compares
    are paired (load i of each from seed + i). Over the figures it reads,
    the greatest common divisor of their L: repetitions in different
    classes mod it never share a load of any figure. None without a scale
    (each repetition its own load)."""
    if scale_cfg is None:
        return None
    specs = studies.figures(claim["study"]) if studies.spec_path(claim["study"]).is_file() else {}
    found = []
    for f in sorted(experiments(claim)):
        if f in specs and "ops" in specs[f]:
            reps = studies.counts(scale_cfg, claim["study"], f, specs[f])["repetitions"]
            found.append(min(studies.load_repetitions(scale_cfg, claim["study"], f, reps), reps))
    return math.gcd(*found) if found else None


def samples(m, tidy, cid):
    """(member -> Samples, the pair_on columns that are not points): the
    measure's samples, one member (AGGREGATE) unless the kind has members."""
    pair_on = m.get("pair_on", ["run"])
    sel = lambda key: Samples.of(select_rows(tidy, m[key], cid, key), pair_on)  # noqa: E731
    kind = m["kind"]
    if kind == "value":
        return {AGGREGATE: sel("where")}, NOT_POINTS
    if kind in ("ratio", "share"):
        num, den = ("numerator", "denominator") if kind == "ratio" else ("part", "whole")
        return {AGGREGATE: sel(num).ratio(sel(den))}, NOT_POINTS
    if kind == "group":
        by = m["group_by"]
        num = _with_factor(select_rows(tidy, m["numerator"], cid, "numerator"), by)
        den = _with_factor(select_rows(tidy, m["denominator"], cid, "denominator"), by)
        num_key, den_key = _as_text(num[by]), _as_text(den[by])
        names = [factor_text(x) for x in m.get("members", sorted(set(num_key) | set(den_key)))]
        return {g: Samples.of(num[num_key == g], pair_on).ratio(Samples.of(den[den_key == g], pair_on))
                for g in names}, NOT_POINTS | {by}
    if kind == "ordering":
        by = m["by"]
        rows = _with_factor(select_rows(tidy, m["where"], cid, "where"), by)
        key = _as_text(rows[by])
        of = lambda v: Samples.of(rows[key == factor_text(v)], pair_on)  # noqa: E731
        return {f"{lo}/{hi}": of(lo).ratio(of(hi)) for lo in m["lower"] for hi in m["higher"]}, NOT_POINTS | {by}
    over = m["over"]
    rows = _with_factor(select_rows(tidy, m["where"], cid, "where"), over)
    if m.get("statistic", "relative_change") == "slope":
        return {AGGREGATE: _slopes(rows, over, pair_on)}, NOT_POINTS | {over}
    # a run is one point of the trend: its samples pair on the rest, by
    # default the repetition (a simulation's level, SIM, comes on top of it)
    key = [c for c in pair_on if c not in ("run", SIM)] or ["repetition"]
    key += [c for c in pair_on if c == SIM]
    at = lambda v: Samples.of(rows[_isin(rows[over], [v])], key)  # noqa: E731
    # value(to) / value(from): a relative change r is judged as log(1 + r)
    return {AGGREGATE: at(m["to"]).ratio(at(m["from"]))}, NOT_POINTS | {over}


def _slopes(rows, over, pair_on):
    """One least-squares slope of value over `over` per repetition and point
    (the pair_on columns but run, repetition and `over`): the steps of one
    run are autocorrelated, repetitions are independent."""
    points = [c for c in pair_on if c not in NOT_POINTS | {over}]
    if over not in rows or rows.empty:
        return Samples.of(pd.DataFrame(), [])
    x = pd.to_numeric(rows[over], errors="coerce")
    rows = rows.assign(_x=x)[x.notna()]
    if rows.empty:
        return Samples.of(pd.DataFrame(), [])
    keys = points + ["repetition"]
    values, sources, runs = {}, {}, {}
    for k, g in rows.groupby(keys, dropna=False):
        at = g.groupby("_x")["value"].mean()
        if len(at) < 2:
            continue
        values[k] = float(np.polyfit(at.index.to_numpy(float), at.to_numpy(float), 1)[0])
        sources[k] = ";".join(sorted(set(map(str, g["source"]))))
        runs[k] = ";".join(sorted(set(map(str, g["run"]))))
    index = pd.MultiIndex.from_tuples(list(values), names=keys) if values else pd.Index([])
    return Samples(pd.Series(list(values.values()), index=index, dtype=float),
                   pd.Series(list(sources.values()), index=index, dtype=str),
                   pd.Series(list(runs.values()), index=index, dtype=str))


SIM = "_sim"  # the simulation a synthetic row belongs to (lsmrepro/claims/power.py)


LOAD = "_load"  # the load a sample's repetition started from (repetition mod the figure's load_repetitions)


def repetitions_of(index):
    """Each sample's repetition (float, nan where it has none): its
    `repetition` level, else the r<N> that ends its `run` id."""
    if "repetition" in index.names:
        reps = pd.to_numeric(pd.Series(index.get_level_values("repetition")), errors="coerce")
    else:
        reps = pd.to_numeric(pd.Series(index.get_level_values("run")).astype(str).str.extract(r"r(\d+)$")[0],
                             errors="coerce")
    return reps.to_numpy(float)


def by_load(v, loads):
    """The samples `v` as their per-load means (Kalibera & Jones's top
    level): repetition r started from load r mod `loads`
    (lsmrepro.plan.studies.runs), so a point's samples on one load are
    averaged and the load is the unit of the interval; the LOAD level
    replaces the repetition's."""
    keep = [n for n in v.index.names if n not in ("run", "repetition")]
    label = repetitions_of(v.index) % loads  # a sample of no repetition (nan) stays a load of its own
    keys = [v.index.get_level_values(n) for n in keep] + [pd.Index(label, name=LOAD)]
    return v.groupby(keys, dropna=False).mean()


def cells(m, s, not_points, log=None, loads=None):
    """A member's samples as one array (S, n) per point, on the test's
    scale (`log`: default, the measure's): S = 1 for measured data, or one
    row per simulation when the samples carry the SIM level; non-positive
    samples of a log-scale measure are dropped and counted (second value).
    `loads` >= 2 (the number of independent loads of the claim's figures):
    one sample per load, the mean of its runs (by_load); 1 or None: one
    sample per run (None: every repetition its own load)."""
    v = s.values.dropna()
    if v.empty:
        return [], 0
    dropped = 0
    if log_scale(m) if log is None else log:
        keep = v > 0
        dropped = int((~keep).sum())
        v = np.log(v[keep])
    if v.empty:
        return [], dropped
    if loads is not None and loads >= 2:
        v = by_load(v, loads)
    names = list(v.index.names)
    point_levels = [i for i, n in enumerate(names) if n not in not_points and n not in (SIM, LOAD)]
    groups = v.groupby([v.index.get_level_values(i) for i in point_levels], dropna=False) if point_levels else [((), v)]
    if SIM not in names:
        return [g.to_numpy(float)[None, :] for _, g in groups], dropped
    out = []
    for _, g in groups:  # every simulation has the same rows: (S, n)
        sims = g.index.get_level_values(SIM)
        order = np.argsort(sims, kind="stable")
        out.append(g.to_numpy(float)[order].reshape(sims.nunique(), -1))
    return out, dropped


def once_per_load(cells):
    """Whether a one-load claim's samples are one measurement copied: every
    point with two or more runs has the same value in each (a size, a count
    or a timed load the runs read from their load's log). Such runs carry
    no variance of the quantity, and zero is no estimate of it."""
    repeated = [x for x in cells if x.shape[-1] >= 2]
    return bool(repeated) and all(np.all(x == x[..., :1]) for x in repeated)
