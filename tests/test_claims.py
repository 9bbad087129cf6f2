import math

import pandas as pd
import pytest
from hypothesis import given, strategies as st

from lsmrepro import aggregate, claims
from base.errors import InputError


def test_verdict_rules():
    assert claims.verdict(0.01, 0.03, 5, {"max": 0.05}) == "reproduced"
    assert claims.verdict(0.06, 0.08, 5, {"max": 0.05}) == "not reproduced"
    assert claims.verdict(0.04, 0.06, 5, {"max": 0.05}) == "inconclusive"
    assert claims.verdict(1.2, 1.5, 5, {"min": 1.23, "max": 1.78}) == "inconclusive"
    assert claims.verdict(1.3, 1.5, 5, {"min": 1.23, "max": 1.78}) == "reproduced"
    assert claims.verdict(0.01, 0.02, 1, {"max": 0.05}) == "inconclusive"
    assert claims.verdict(math.nan, math.nan, 0, {"max": 0.05}) == "no data"


def test_interval_is_students_t():
    mean, lo, hi, n = claims.interval([1.0, 2.0, 3.0])
    assert (mean, n) == (2.0, 3)
    assert math.isclose(hi - mean, 4.302652729911275 * 1.0 / math.sqrt(3), rel_tol=1e-9)
    assert math.isnan(claims.interval([5.0])[1])  # no interval from one sample


@given(st.lists(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False), min_size=2, max_size=30),
       st.sampled_from(["t", "bootstrap"]))
def test_interval_contains_the_mean(values, method):
    mean, lo, hi, n = claims.interval(values, method=method)
    assert n == len(values)
    tol = 1e-6 * max(1.0, abs(mean))
    assert lo - tol <= mean <= hi + tol


def _tidy(tmp_path, make_log, harness_values):
    logs = [make_log(f"leveldb__uniform__r{i}.jsonl", rep=i, harness=h, engine_ns=1000.0)
            for i, h in enumerate(harness_values)]
    aggregate.aggregate(logs, tmp_path / "t.csv")
    return pd.read_csv(tmp_path / "t.csv", dtype={"run": str})


def _claim(measure, expect, **kw):
    return {"id": "c", "study": "baseline", "figure": "point", "section": "§1", "statement": "s",
            "measure": measure, "expect": expect, **kw}


OVERHEAD = _claim({"kind": "ratio", "numerator": {"metric": "driver_harness_per_op", "engine": "leveldb"},
                   "denominator": {"metric": "driver_engine_call_per_op", "engine": "leveldb"}, "pair_on": ["run"]},
                  {"max": 0.05})


def test_ratio_claim_reproduced_and_not_with_the_runs_it_used(tmp_path, make_log):
    low = claims.check("baseline", _tidy(tmp_path, make_log, [10, 12, 11]), [OVERHEAD])
    assert low.loc[0, "verdict"] == "reproduced"
    assert math.isclose(low.loc[0, "measured"], 0.011)
    assert "leveldb__uniform__r0.jsonl:6" in low.loc[0, "evidence"]
    assert set(low.loc[0, "runs"].split(";")) == {"leveldb__uniform__r0", "leveldb__uniform__r1", "leveldb__uniform__r2"}
    high = claims.check("baseline", _tidy(tmp_path, make_log, [100, 120, 110]), [OVERHEAD])
    assert high.loc[0, "verdict"] == "not reproduced"


def test_claim_selecting_no_rows_has_no_data(tmp_path, make_log):
    tidy = _tidy(tmp_path, make_log, [10, 12])
    c = _claim({"kind": "value", "where": {"metric": "latency_mean", "engine": "wisckey"}}, {"max": 1})
    r = claims.check("baseline", tidy, [c])
    assert r.loc[0, "verdict"] == "no data" and r.loc[0, "n"] == 0


@pytest.mark.parametrize("study", ["baseline", "lsm-eval", "slr", "bourbon", "doblix"])
def test_every_claim_has_no_data_on_an_empty_tidy_table(tmp_path, study):
    """A study whose runs all vanished (the tidy table is a header) gives
    "no data" for every claim, never a crash on a grid factor no run has."""
    path = tmp_path / "tidy.csv"
    path.write_text(",".join(aggregate.COLUMNS) + "\n")
    from lsmrepro.tidy import read_tidy
    mine = [c for c in claims.load_claims() if c["study"] == study]
    r = claims.check(study, read_tidy(path), mine)
    assert len(r) == len(mine) and set(r["verdict"]) == {"no data"}


def _frame(rows):
    """Tidy rows from (run, factors..., metric, value) dicts."""
    out = pd.DataFrame(rows)
    out["source"] = [f"log{i}:1" for i in range(len(out))]
    return out


def test_group_ratio_counts_the_members_that_reproduce():
    rows = []
    for ds, speedup in (("fb", 1.5), ("osm", 1.6), ("wiki", 1.1)):
        for rep in range(4):
            jitter = 0.01 * rep
            rows += [{"run": f"b-{ds}-{rep}", "repetition": rep, "dataset": ds, "engine": "bourbon",
                      "metric": "latency_mean", "value": 100.0 + jitter},
                     {"run": f"w-{ds}-{rep}", "repetition": rep, "dataset": ds, "engine": "wisckey",
                      "metric": "latency_mean", "value": (100.0 + jitter) * speedup}]
    m = {"kind": "group", "numerator": {"metric": "latency_mean", "engine": "wisckey"},
         "denominator": {"metric": "latency_mean", "engine": "bourbon"}, "group_by": "dataset",
         "pair_on": ["dataset", "repetition"]}
    r = claims.evaluate(_claim(m, {"min": 1.23, "max": 1.78}), _frame(rows))
    assert r["n"] == 3 and math.isclose(r["measured"], 2 / 3)
    assert r["verdict"] == "not reproduced"  # wiki is wholly outside: one of three fails
    assert "wiki" in r["detail"] and "not reproduced" in r["detail"]
    r = claims.evaluate(_claim(dict(m, min_share=0.6), {"min": 1.23, "max": 1.78}), _frame(rows))
    assert r["verdict"] == "reproduced"
    # the report says the share as a count of members, not as a value in the claim's unit
    md = claims.to_markdown(claims.check("baseline", _frame(rows), [
        _claim(m, {"min": 1.23, "max": 1.78}, unit="WiscKey / Bourbon latency")]))
    assert "2 of 3 members reproduced (each: WiscKey / Bourbon latency)" in md
    assert "0.6667" not in md


def test_ordering_holds_only_when_every_pair_does():
    rows = [{"run": f"{ix}-{rep}", "repetition": rep, "index": ix, "metric": "index_bytes", "value": v + rep}
            for ix, v in (("pgm", 10.0), ("rmi", 20.0), ("fp", 50.0), ("alex", 80.0)) for rep in range(3)]
    m = {"kind": "ordering", "where": {"metric": "index_bytes"}, "by": "index", "lower": ["pgm", "rmi"],
         "higher": ["fp"], "pair_on": ["repetition"]}
    assert claims.evaluate(_claim(m, {"max": 1}), _frame(rows))["verdict"] == "reproduced"
    bad = dict(m, lower=["pgm", "alex"])
    r = claims.evaluate(_claim(bad, {"max": 1}), _frame(rows))
    assert r["verdict"] == "not reproduced" and math.isclose(r["measured"], 0.5)


def test_trend_relative_change_and_slope():
    rows = [{"run": f"{pb}-{rep}", "repetition": rep, "position_boundary": pb, "metric": "latency_mean",
             "value": base + rep * 0.1} for pb, base in ((8, 99.0), (16, 100.0), (32, 104.0), (64, 110.0))
            for rep in range(3)]
    m = {"kind": "trend", "where": {"metric": "latency_mean"}, "over": "position_boundary", "from": 16, "to": 8,
         "pair_on": ["repetition"]}
    r = claims.evaluate(_claim(m, {"min": -0.05, "max": 0.0}), _frame(rows))
    assert r["verdict"] == "reproduced" and math.isclose(r["measured"], -0.01, rel_tol=0.01)
    slope = dict(m, statistic="slope")
    r = claims.evaluate(_claim(slope, {"min": 0.1}), _frame(rows))
    assert r["verdict"] == "reproduced" and r["measured"] > 0


def test_share_of_learning_in_compaction():
    rows = [{"run": f"r{rep}", "repetition": rep, "metric": m, "value": v}
            for rep in range(3) for m, v in (("learn_seconds", 0.2 + rep * 0.01), ("compaction_seconds", 10.0))]
    m = {"kind": "share", "part": {"metric": "learn_seconds"}, "whole": {"metric": "compaction_seconds"},
         "interval": "bootstrap"}
    r = claims.evaluate(_claim(m, {"max": 0.05}), _frame(rows))
    assert r["verdict"] == "reproduced" and r["n"] == 3


def test_claims_file_is_valid_and_bad_claims_are_rejected(tmp_path):
    assert any(c["study"] == "baseline" for c in claims.load_claims())
    bad = tmp_path / "claims.yaml"
    bad.write_text("claims:\n  - id: x\n    study: baseline\n")
    with pytest.raises(InputError) as e:
        claims.load_claims(bad)
    assert "claims.yaml" in str(e.value)
    unknown = tmp_path / "unknown.yaml"
    unknown.write_text("claims:\n  - {id: x, study: nosuch, figure: f, section: s, statement: s,"
                       " measure: {kind: value, where: {metric: m}}, expect: {max: 1}}\n")
    with pytest.raises(InputError) as e:
        claims.load_claims(unknown)
    assert "claims.0.study" in str(e.value) and "paper/studies.yaml" in str(e.value)


def test_a_claim_reads_the_experiments_its_selectors_name():
    fig12 = next(c for c in claims.load_claims() if c["study"] == "bourbon" and c["figure"] == "fig12")
    assert claims.experiments(fig12) == {"fig12"}
    # without `experiment` in a selector: its figure and what that figure uses
    assert claims.experiments(OVERHEAD) == {"point"}
    tail = _claim({"kind": "value", "where": {"metric": "latency_tail5_mean"}}, {"max": 1})
    assert claims.experiments(dict(tail, study="doblix", figure="fig10")) == {"fig9"}
    both = _claim({"kind": "ratio", "numerator": {"experiment": "fig8", "metric": "m"},
                   "denominator": {"experiment": ["fig9", "fig10"], "metric": "m"}}, {"max": 1})
    assert claims.experiments(both) == {"fig8", "fig9", "fig10"}
    # one selector names an experiment, the other none: both are read
    mixed = _claim({"kind": "ratio", "numerator": {"experiment": "fig1", "metric": "m"},
                    "denominator": {"metric": "m"}}, {"max": 1})
    assert claims.experiments(dict(mixed, study="doblix", figure="fig10")) == {"fig1", "fig9"}


def test_a_figures_claims_are_checked_alone():
    tidy = _frame([{"run": f"r{i}", "experiment": "point", "metric": "m", "value": 1.0} for i in range(3)])
    other = dict(_claim({"kind": "value", "where": {"metric": "m"}}, {"max": 2}), id="other", figure="elsewhere")
    mine = dict(_claim({"kind": "value", "where": {"metric": "m"}}, {"max": 2}), id="mine")
    assert list(claims.check("baseline", tidy, [other, mine], figure="point")["claim"]) == ["mine"]
    assert list(claims.check("baseline", tidy, [other, mine])["claim"]) == ["other", "mine"]
