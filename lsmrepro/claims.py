"""Turns tidy data into a verdict per claim of paper/claims.yaml.

A claim selects tidy rows, reduces them to one sample per pairing group
(a run, or a repetition of a dataset), and compares the mean's 95%
t-interval with what the paper says:
  reproduced      the whole interval lies inside the expected range;
  not reproduced  the whole interval lies outside it;
  inconclusive    the interval straddles a bound, or fewer than 2 samples.

    python -m lsmrepro.claims --study baseline --tidy results/local/tidy/baseline.csv \
        --out-csv ... --out-md ...
"""
import argparse
import math
import sys
from pathlib import Path

import pandas as pd
import yaml
from scipy import stats

from lsmrepro.atomic import atomic_path, write_text
from lsmrepro.config import validate
from lsmrepro.errors import InputError, cli

HERE = Path(__file__).resolve().parent.parent
CLAIMS = HERE / "paper" / "claims.yaml"
SCHEMA = HERE / "paper" / "claims.schema.yaml"

VERDICT_COLUMNS = ["study", "claim", "statement", "source", "expected", "measured",
                   "ci_low", "ci_high", "n", "unit", "verdict", "evidence"]


def load_claims(path=CLAIMS):
    with open(path) as f:
        data = yaml.safe_load(f)
    validate(data, SCHEMA, path)
    return data["claims"]


def _select(tidy, where, claim_id, role):
    rows = tidy
    for column, wanted in where.items():
        if column not in tidy.columns:
            raise InputError(CLAIMS, f"{claim_id}.{role}.{column}", f"a tidy column expected; have {', '.join(tidy.columns)}")
        values = wanted if isinstance(wanted, list) else [wanted]
        rows = rows[rows[column].astype(str).isin([str(v) for v in values])]
    return rows


def _samples(rows, pair_on):
    grouped = rows.groupby(pair_on, dropna=False)
    return grouped["value"].mean(), grouped["source"].apply(lambda s: ";".join(sorted(set(s))))


def measure(claim, tidy):
    """The claim's samples (a Series indexed by pairing keys) and the
    tidy-row sources they came from."""
    m = claim["measure"]
    pair_on = m.get("pair_on", ["run"])
    if m["kind"] == "value":
        rows = _select(tidy, m["where"], claim["id"], "where")
        return _samples(rows, pair_on)
    num, num_src = _samples(_select(tidy, m["numerator"], claim["id"], "numerator"), pair_on)
    den, den_src = _samples(_select(tidy, m["denominator"], claim["id"], "denominator"), pair_on)
    joined = pd.concat({"num": num, "den": den}, axis=1, join="inner")
    ratio = joined["num"] / joined["den"]
    sources = (num_src.reindex(ratio.index) + ";" + den_src.reindex(ratio.index))
    return ratio, sources


def interval(samples, confidence=0.95):
    values = [v for v in samples if not math.isnan(v)]
    n = len(values)
    if n == 0:
        return float("nan"), float("nan"), float("nan"), 0
    mean = sum(values) / n
    if n < 2:
        return mean, float("nan"), float("nan"), n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = stats.t.ppf((1 + confidence) / 2, n - 1) * sd / math.sqrt(n)
    return mean, mean - half, mean + half, n


def verdict(low, high, n, expect):
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


def check(study, tidy, claims):
    rows = []
    for claim in claims:
        if claim["study"] != study:
            continue
        samples, sources = measure(claim, tidy)
        mean, low, high, n = interval(samples.tolist())
        rows.append({
            "study": study, "claim": claim["id"], "statement": claim["statement"],
            "source": claim["source"], "expected": _expected_text(claim["expect"]),
            "measured": mean, "ci_low": low, "ci_high": high, "n": n,
            "unit": claim.get("unit", ""), "verdict": verdict(low, high, n, claim["expect"]),
            "evidence": ";".join(sorted(set(";".join(sources.tolist()).split(";")) - {""})),
        })
    return pd.DataFrame(rows, columns=VERDICT_COLUMNS)


def _fmt(v):
    return "—" if isinstance(v, float) and math.isnan(v) else f"{v:.4g}"


def to_markdown(verdicts):
    lines = ["| claim | statement | expected | measured (95% CI) | n | verdict |",
             "|---|---|---|---|---|---|"]
    for _, r in verdicts.iterrows():
        measured = f"{_fmt(r.measured)} [{_fmt(r.ci_low)}, {_fmt(r.ci_high)}] {r.unit}".strip()
        lines.append(f"| {r.claim} | {r.statement} ({r.source}) | {r.expected} | {measured} | {r.n} | **{r.verdict}** |")
    return "\n".join(lines) + "\n"


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--study", required=True)
    ap.add_argument("--tidy", required=True)
    ap.add_argument("--claims", default=str(CLAIMS))
    ap.add_argument("--out-csv", required=True)
    ap.add_argument("--out-md", required=True)
    args = ap.parse_args(argv)
    tidy = pd.read_csv(args.tidy, dtype={"run": str, "dataset": str, "engine": str})
    verdicts = check(args.study, tidy, load_claims(args.claims))
    with atomic_path(args.out_csv) as tmp:
        verdicts.to_csv(tmp, index=False)
    write_text(args.out_md, to_markdown(verdicts))
    for _, r in verdicts.iterrows():
        print(f"claims: {r.claim}: {r.verdict} ({_fmt(r.measured)} vs {r.expected})", file=sys.stderr)


if __name__ == "__main__":
    main()
