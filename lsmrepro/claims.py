"""Turns tidy data into a verdict per claim of paper/<study>/claims.yaml.

A claim selects tidy rows, reduces them to one sample per pairing group
(`pair_on`, default: per run), and compares the interval of the samples'
mean (95%: Student's t, or `interval: bootstrap` for few or skewed samples)
with what the paper says:
  reproduced      the whole interval lies inside the expected range;
  not reproduced  the whole interval lies outside it;
  inconclusive    the interval straddles a bound, or one sample only;
  no data         the claim selected no rows (never "reproduced").
Kinds (paper/README.md has an example of each):
  value      the selected values;
  ratio      numerator / denominator, paired on `pair_on` (one run, one repetition);
  share      part / whole, the same way (learning time / compaction time);
  group      a ratio per member of `group_by` (each dataset): each member gets
             its verdict; the claim holds when the share of reproduced members
             reaches `min_share` (default 1);
  ordering   every `lower` member's value is below every `higher` one's
             (a ratio < 1 per pair, each with its interval);
  trend      over a parameter: the relative change from `from` to `to`
             (value(to) / value(from) - 1), or the `slope` of a linear fit.

    python -m lsmrepro.claims --study baseline --tidy results/local/tidy/baseline.csv \\
        --out-csv ... --out-md ...
    python -m lsmrepro.claims --study bourbon --figure fig12 --tidy results/local/tidy/bourbon/fig12.csv ...
"""
import argparse
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import yaml
from scipy import stats

from lsmrepro import aggregate, studies
from base.atomic import atomic_path, write_text
from base.yamlio import validate
from base.errors import InputError, cli

HERE = Path(__file__).resolve().parent.parent
SCHEMA = HERE / "paper" / "claims.schema.yaml"

VERDICTS = ("reproduced", "not reproduced", "inconclusive", "no data")
VERDICT_COLUMNS = ["study", "claim", "paper", "section", "figure", "statement", "expected", "measured",
                   "ci_low", "ci_high", "n", "unit", "verdict", "detail", "runs", "evidence"]


def claim_files(study=None):
    """Each study's claims file, paper/<study>/claims.yaml (one study's, if given)."""
    ids = [study] if study else list(studies.registry())
    return [p for p in (HERE / "paper" / s / "claims.yaml" for s in ids) if p.is_file()]


def load_claims(paths=None):
    """The claims of the given files (default: every study's), validated."""
    out = []
    for path in ([paths] if isinstance(paths, (str, Path)) else paths or claim_files()):
        out += _load_file(Path(path))
    return out


def _load_file(path):
    with open(path) as f:
        data = yaml.safe_load(f)
    validate(data, SCHEMA, path)
    for i, c in enumerate(data["claims"]):
        if c["study"] not in studies.registry():
            raise InputError(path, f"claims.{i}.study", f"a study of paper/studies.yaml expected, got {c['study']!r}")
        if studies.spec_path(c["study"]).is_file() and c["figure"] not in studies.figures(c["study"]):
            raise InputError(path, f"claims.{i}.figure",
                             f"a figure of paper/{c['study']}/experiments.yaml expected, got {c['figure']!r}")
        if path.parent.name in studies.registry() and c["study"] != path.parent.name:
            raise InputError(path, f"claims.{i}.study", f"{path.parent.name!r} (the folder of this file) expected, got {c['study']!r}")
    return data["claims"]


def _text(value):
    """A tidy value as claims write it: a factor column that pandas read as
    float because other figures lack it (8388608.0) matches 8388608."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _as_text(column):
    return column.map(_text)


def _grid_options():
    """Tidy columns a run may add: every grid option of every study's spec,
    the id names of dimensions a figure gives as a list (`key`, `order`,
    ...), and the DobLIX agent's state columns."""
    out = set(aggregate.ENGINE_COLUMNS)
    for _, _, fig in studies.all_figures():
        for grids in fig.get("grid", {}).values():
            for grid in (grids if isinstance(grids, list) else [grids]):
                out |= set(grid)
        out |= {studies.ID_NAMES.get(d, d) for d in studies.DIMENSIONS if isinstance(fig.get(d), list)}
    return out


def _with_factor(rows, column):
    """`rows` with `column` present: a grid factor that no selected run has
    (a partial run, or no run at all) is an empty column, so the claim finds
    no data instead of failing."""
    if column in rows.columns or column not in _grid_options():
        return rows
    return rows.assign(**{column: pd.Series(dtype=object)})


def _select(tidy, where, claim_id, role):
    rows = tidy
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
        join = lambda s: ";".join(sorted(set(map(str, s))))  # noqa: E731
        return cls(g["value"].mean(), g["source"].apply(join), g["run"].apply(join))

    def ratio(self, other):
        if self.values.empty or other.values.empty:  # one side selected nothing: no data
            return Samples.of(pd.DataFrame(), [])
        joined = pd.concat({"num": self.values, "den": other.values}, axis=1, join="inner")
        idx = joined.index
        return Samples(joined["num"] / joined["den"],
                       self.sources.reindex(idx) + ";" + other.sources.reindex(idx),
                       self.runs.reindex(idx) + ";" + other.runs.reindex(idx))

    def evidence(self):
        return _joined(self.sources), _joined(self.runs)


def _joined(series):
    return ";".join(sorted(set(";".join(series.astype(str).tolist()).split(";")) - {"", "nan"}))


def interval(samples, confidence=0.95, method="t"):
    """(mean, low, high, n) of the samples' mean."""
    values = np.array([v for v in samples if not math.isnan(v)], dtype=float)
    n = len(values)
    if n == 0:
        return float("nan"), float("nan"), float("nan"), 0
    mean = float(values.mean())
    if n < 2:
        return mean, float("nan"), float("nan"), n
    sem = float(stats.sem(values))
    if np.all(values == values[0]) or not sem > 0:  # no spread (or below float resolution)
        return mean, mean, mean, n
    if method == "bootstrap":
        r = stats.bootstrap((values,), np.mean, confidence_level=confidence, n_resamples=2000,
                            method="percentile", random_state=np.random.default_rng(0))
        return mean, float(r.confidence_interval.low), float(r.confidence_interval.high), n
    low, high = stats.t.interval(confidence, n - 1, loc=mean, scale=sem)
    return mean, float(low), float(high), n


def verdict(low, high, n, expect):
    if n == 0:
        return "no data"
    lo_bound = expect.get("min", -math.inf)
    hi_bound = expect.get("max", math.inf)
    if n < 2 or math.isnan(low):
        return "inconclusive"
    if low >= lo_bound and high <= hi_bound:
        return "reproduced"
    if high < lo_bound or low > hi_bound:
        return "not reproduced"
    return "inconclusive"


def _expected_text(expect):
    parts = []
    if "min" in expect:
        parts.append(f">= {expect['min']:g}")
    if "max" in expect:
        parts.append(f"<= {expect['max']:g}")
    return " and ".join(parts)


def _sel(tidy, m, key, cid, pair_on):
    return Samples.of(_select(tidy, m[key], cid, key), pair_on)


def _one(samples, expect, method):
    mean, low, high, n = interval(samples.values.tolist(), method=method)
    return {"measured": mean, "ci_low": low, "ci_high": high, "n": n, "verdict": verdict(low, high, n, expect)}


MEMBERS_DETAIL = "share of members reproduced"


def _members(parts, expect, min_share):
    """A claim over members (groups, pairs): each its interval and verdict;
    measured = the share of members reproduced, as an interval-free count."""
    results = {name: _one(s, expect, "t") | {"samples": s} for name, s in parts.items()}
    if not results or all(r["n"] == 0 for r in results.values()):
        return {"measured": float("nan"), "ci_low": float("nan"), "ci_high": float("nan"), "n": 0,
                "verdict": "no data", "detail": "", "samples": []}
    done = [r for r in results.values() if r["n"] > 0]
    share = sum(r["verdict"] == "reproduced" for r in done) / len(results)
    failed = sum(r["verdict"] == "not reproduced" for r in done) / len(results)
    v = "reproduced" if share >= min_share else "not reproduced" if failed > 1 - min_share else "inconclusive"
    detail = "; ".join(f"{name}: {_fmt(r['measured'])} [{_fmt(r['ci_low'])}, {_fmt(r['ci_high'])}] {r['verdict']}"
                       for name, r in results.items())
    return {"measured": share, "ci_low": float("nan"), "ci_high": float("nan"), "n": len(results),
            "verdict": v, "detail": f"{MEMBERS_DETAIL}; {detail}",
            "samples": [r["samples"] for r in results.values()]}


def evaluate(claim, tidy):
    """The verdict fields of one claim."""
    m, cid = claim["measure"], claim["id"]
    pair_on = m.get("pair_on", ["run"])
    method = m.get("interval", "t")
    expect = claim["expect"]
    kind = m["kind"]
    if kind == "value":
        s = _sel(tidy, m, "where", cid, pair_on)
        out = _one(s, expect, method) | {"detail": "", "samples": [s]}
    elif kind in ("ratio", "share"):
        num, den = ("numerator", "denominator") if kind == "ratio" else ("part", "whole")
        s = _sel(tidy, m, num, cid, pair_on).ratio(_sel(tidy, m, den, cid, pair_on))
        out = _one(s, expect, method) | {"detail": "", "samples": [s]}
    elif kind == "group":
        num = _with_factor(_select(tidy, m["numerator"], cid, "numerator"), m["group_by"])
        den = _with_factor(_select(tidy, m["denominator"], cid, "denominator"), m["group_by"])
        members = sorted(set(map(str, num[m["group_by"]])) | set(map(str, den[m["group_by"]])))
        members = [str(x) for x in m.get("members", members)]
        parts = {g: Samples.of(num[num[m["group_by"]].astype(str) == g], pair_on).ratio(
                    Samples.of(den[den[m["group_by"]].astype(str) == g], pair_on)) for g in members}
        out = _members(parts, expect, m.get("min_share", 1.0))
    elif kind == "ordering":
        by = m["by"]
        rows = _with_factor(_select(tidy, m["where"], cid, "where"), by)
        of = lambda v: Samples.of(rows[_as_text(rows[by]) == _text(v)], pair_on)  # noqa: E731
        parts = {f"{lo}/{hi}": of(lo).ratio(of(hi)) for lo in m["lower"] for hi in m["higher"]}
        out = _members(parts, {"max": 1.0}, m.get("min_share", 1.0))
    else:  # trend
        over = m["over"]
        rows = _with_factor(_select(tidy, m["where"], cid, "where"), over)
        if m.get("statistic", "relative_change") == "slope":
            x = pd.to_numeric(rows[over], errors="coerce")
            ok = x.notna()
            n = int(ok.sum())
            if n < 3:
                out = {"measured": float("nan"), "ci_low": float("nan"), "ci_high": float("nan"), "n": n,
                       "verdict": "no data" if n == 0 else "inconclusive", "detail": "slope needs 3 points"}
            else:
                fit = stats.linregress(x[ok], rows["value"][ok])
                half = stats.t.ppf(0.975, n - 2) * fit.stderr
                low, high = fit.slope - half, fit.slope + half
                out = {"measured": fit.slope, "ci_low": low, "ci_high": high, "n": n,
                       "verdict": verdict(low, high, n, expect), "detail": f"slope of value over {over}"}
            out["samples"] = [Samples.of(rows, pair_on)]
        else:
            key = [c for c in pair_on if c != "run"] or ["repetition"]
            at = lambda v: Samples.of(rows[_isin(rows[over], [v])], key)  # noqa: E731
            s = at(m["to"]).ratio(at(m["from"]))
            s = Samples(s.values - 1, s.sources, s.runs)
            out = _one(s, expect, method) | {"detail": f"value({over}={m['to']}) / value({over}={m['from']}) - 1",
                                              "samples": [s]}
    sources = ";".join(filter(None, (s.evidence()[0] for s in out["samples"])))
    runs = ";".join(filter(None, (s.evidence()[1] for s in out["samples"])))
    out["evidence"] = _joined(pd.Series([sources]))
    out["runs"] = _joined(pd.Series([runs]))
    return out


SELECTORS = ("where", "numerator", "denominator", "part", "whole")


def experiments(claim):
    """The experiments (figures with runs) whose tidy rows a claim reads: the
    ones each selector names; a selector naming none reads its figure's and
    those the figure uses."""
    named = set()
    for key in SELECTORS:
        selector = claim["measure"].get(key)
        if selector is None:
            continue
        wanted = selector.get("experiment") or studies.figure_experiments(claim["study"], claim["figure"])
        named |= set(wanted if isinstance(wanted, list) else [wanted])
    return named


def check(study, tidy, claims, figure=None):
    """The verdicts of a study's claims (of one figure's, if given)."""
    rows = []
    paper = studies.registry().get(study, {}).get("paper", "")
    for claim in claims:
        if claim["study"] != study or figure not in (None, claim["figure"]):
            continue
        r = evaluate(claim, tidy)
        spec = studies.figures(study).get(claim["figure"], {}) if studies.spec_path(study).is_file() else {}
        rows.append({
            "study": study, "claim": claim["id"], "paper": paper, "section": claim["section"],
            "figure": f"{claim['figure']} ({spec.get('paper_figure', '—')})", "statement": claim["statement"],
            "expected": _expected_text(claim["expect"]) if claim["measure"]["kind"] not in ("ordering",) else "every pair < 1",
            "measured": r["measured"], "ci_low": r["ci_low"], "ci_high": r["ci_high"], "n": r["n"],
            "unit": claim.get("unit", ""), "verdict": r["verdict"], "detail": r.get("detail", ""),
            "runs": r["runs"], "evidence": r["evidence"],
        })
    return pd.DataFrame(rows, columns=VERDICT_COLUMNS)


def _fmt(v):
    return "—" if isinstance(v, float) and math.isnan(v) else f"{v:.4g}"


def _measured_text(r):
    # A claim over members (group, ordering) measures the share of members
    # reproduced, not a value in the claim's unit: say it as a count (each
    # member's interval is in the csv's detail).
    if str(r.detail).startswith(MEMBERS_DETAIL) and r.n > 0:
        return f"{round(r.measured * r.n)} of {r.n} members reproduced (each: {r.unit})"
    return f"{_fmt(r.measured)} [{_fmt(r.ci_low)}, {_fmt(r.ci_high)}] {r.unit}".strip()


def to_markdown(verdicts):
    shown = pd.DataFrame({
        "claim": verdicts["claim"],
        "statement": verdicts["statement"] + " (" + verdicts["paper"] + ", " + verdicts["section"] + ", " + verdicts["figure"] + ")",
        "expected": verdicts["expected"],
        "measured (95% CI)": [_measured_text(r) for r in verdicts.itertuples()],
        "n": verdicts["n"],
        "verdict": ["**" + r.verdict + "**" + (f": {r.detail}" if r.verdict == "no data" and r.detail else "")
                    for r in verdicts.itertuples()],
    })
    return shown.to_markdown(index=False) + "\n"


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--study", required=True)
    ap.add_argument("--figure", help="only this figure's claims")
    ap.add_argument("--tidy", nargs="+", required=True, help="the tidy table(s): the study's, or the experiments' the claims read")
    ap.add_argument("--claims", nargs="+", help="claims files (default: every study's paper/<study>/claims.yaml)")
    ap.add_argument("--out-csv", required=True)
    ap.add_argument("--out-md", required=True)
    ap.add_argument("--scale", help="the scale, whose claims_without_data explain a 'no data' verdict")
    args = ap.parse_args(argv)
    from lsmrepro.tidy import read_tidy
    verdicts = check(args.study, read_tidy(args.tidy), load_claims(args.claims), args.figure)
    if args.scale:
        from lsmrepro.studies import load_scale
        reasons = load_scale(args.scale).get("claims_without_data", {})
        no_data = verdicts["verdict"] == "no data"
        verdicts.loc[no_data, "detail"] = verdicts.loc[no_data, "claim"].map(reasons).fillna(verdicts.loc[no_data, "detail"])
    with atomic_path(args.out_csv) as tmp:
        verdicts.to_csv(tmp, index=False)
    write_text(args.out_md, to_markdown(verdicts))
    for _, r in verdicts.iterrows():
        print(f"claims: {r.claim}: {r.verdict} ({_fmt(r.measured)} vs {r.expected})", file=sys.stderr)


if __name__ == "__main__":
    main()
