import json
import math

import numpy as np
import pandas as pd
import pytest

from lsmrepro.tidy import aggregate
from lsmrepro.claims import evaluate as claims
from base.errors import InputError


def _tidy(tmp_path, make_log, harness_values):
    logs = [make_log(f"leveldb__uniform__r{i}.jsonl", rep=i, harness=h, engine_ns=1000.0)
            for i, h in enumerate(harness_values)]
    aggregate.aggregate(logs, tmp_path / "t.csv")
    return pd.read_csv(tmp_path / "t.csv", dtype={"run": str})


SOURCE = "000 §1: \"a sentence of the paper\""


def _claim(measure, paper, rule, **kw):
    """A claim: `paper` is what the paper reports besides its source."""
    return {"id": "c", "study": "baseline", "figure": "point", "section": "§1", "statement": "s",
            "paper": {"source": SOURCE, **paper}, "rule": rule, "measure": measure, **kw}


OVERHEAD = _claim({"kind": "ratio", "numerator": {"metric": "driver_harness_per_op", "engine": "leveldb"},
                   "denominator": {"metric": "driver_engine_call_per_op", "engine": "leveldb"}, "pair_on": ["run"]},
                  {"value": 0.05}, {"kind": "bound", "max": 0.05})


def test_ratio_claim_reproduced_and_not_with_the_runs_it_used(tmp_path, make_log):
    low = claims.check("baseline", _tidy(tmp_path, make_log, [10, 12, 11]), [OVERHEAD])
    assert low.loc[0, "verdict"] == "reproduced"
    assert math.isclose(low.loc[0, "measured"], (0.010 * 0.012 * 0.011) ** (1 / 3))  # a geometric mean
    assert "leveldb__uniform__r0.jsonl:6" in low.loc[0, "evidence"]
    assert set(low.loc[0, "runs"].split(";")) == {"leveldb__uniform__r0", "leveldb__uniform__r1", "leveldb__uniform__r2"}
    high = claims.check("baseline", _tidy(tmp_path, make_log, [100, 120, 110]), [OVERHEAD])
    assert high.loc[0, "verdict"] == "not reproduced"


def test_claim_selecting_no_rows_has_no_data(tmp_path, make_log):
    tidy = _tidy(tmp_path, make_log, [10, 12])
    c = _claim({"kind": "value", "where": {"metric": "latency_mean", "engine": "wisckey"}}, {"value": 1.0},
               {"kind": "magnitude", "tolerance": 0.1})
    r = claims.check("baseline", tidy, [c])
    assert r.loc[0, "verdict"] == "no data" and r.loc[0, "n"] == 0


@pytest.mark.parametrize("study", ["baseline", "lsm-eval", "slr", "bourbon", "doblix", "engineering"])
def test_every_claim_has_no_data_on_an_empty_tidy_table(tmp_path, study):
    """A study whose runs all vanished (the tidy table is a header) gives
    "no data" for every claim, never a crash on a grid factor no run has."""
    path = tmp_path / "tidy.csv"
    path.write_text(",".join(aggregate.COLUMNS) + "\n")
    from lsmrepro.tidy.table import read_tidy
    mine = claims.load_claims(claims.claim_files(study))
    r = claims.check(study, read_tidy(path), mine)
    assert len(r) == len(mine) and set(r["verdict"]) == {"no data"}


def _frame(rows):
    """Tidy rows from (run, factors..., metric, value) dicts."""
    out = pd.DataFrame(rows)
    out["source"] = [f"log{i}:1" for i in range(len(out))]
    return out


def _speedups(speedups, reps=4, spread=0.02):
    """WiscKey / Bourbon latency per dataset: the given ratio, with a
    repetition-to-repetition wobble of `spread`."""
    rows = []
    for ds, speedup in speedups.items():
        for rep in range(reps):
            wobble = 1 + spread * (rep % 2 - 0.5)
            rows += [{"run": f"b-{ds}-{rep}", "repetition": rep, "dataset": ds, "engine": "bourbon",
                      "metric": "latency_mean", "value": 100.0},
                     {"run": f"w-{ds}-{rep}", "repetition": rep, "dataset": ds, "engine": "wisckey",
                      "metric": "latency_mean", "value": 100.0 * speedup * wobble}]
    return _frame(rows)


GROUP = {"kind": "group", "numerator": {"metric": "latency_mean", "engine": "wisckey"},
         "denominator": {"metric": "latency_mean", "engine": "bourbon"}, "group_by": "dataset",
         "pair_on": ["dataset", "repetition"]}


def test_a_paper_aggregate_is_judged_once_on_the_geometric_mean():
    tidy = _speedups({"fb": 1.5, "osm": 1.6, "wiki": 1.1})
    r = claims.evaluate(_claim(GROUP, {"value": 1.4}, {"kind": "magnitude", "tolerance": 0.1}), tidy)
    assert r["verdict"] == "reproduced"  # wiki alone is far off; the paper's number is the mean
    assert math.isclose(r["measured"], (1.5 * 1.6 * 1.1) ** (1 / 3), rel_tol=1e-3)
    assert r["ci_low"] < r["measured"] < r["ci_high"] and r["df"] == 9  # 3 members x (4 - 1)
    r = claims.evaluate(_claim(GROUP, {"value": 2.0}, {"kind": "magnitude", "tolerance": 0.1}), tidy)
    assert r["verdict"] == "not reproduced"


def test_per_member_magnitudes_each_against_its_own_paper_value():
    tidy = _speedups({"fb": 1.5, "osm": 1.6, "wiki": 1.1})
    c = _claim(GROUP, {"members": {"fb": 1.5, "osm": 1.6, "wiki": 1.5}}, {"kind": "magnitude", "tolerance": 0.1})
    r = claims.evaluate(c, tidy)
    assert r["verdict"] == "not reproduced"  # wiki wholly outside its band, after Holm
    assert r["members"]["wiki"]["verdict"] == "not reproduced" and r["members"]["fb"]["verdict"] == "reproduced"
    assert "2 of 3 members reproduced" in r["detail"]
    c["paper"]["members"]["wiki"] = 1.1
    assert claims.evaluate(c, tidy)["verdict"] == "reproduced"
    # min_share: two of three suffice, and the miss is then not fatal
    c["paper"]["members"]["wiki"] = 1.5
    c["measure"] = dict(GROUP, min_share=0.6)
    assert claims.evaluate(c, tidy)["verdict"] == "reproduced"


def test_range_is_the_sets_min_and_max_never_each_member_against_the_range():
    tidy = _speedups({"fb": 1.25, "osm": 1.5, "wiki": 1.75})
    c = _claim(GROUP, {"range": [1.23, 1.78]}, {"kind": "range", "tolerance": 0.1})
    r = claims.evaluate(c, tidy)
    assert r["verdict"] == "reproduced"  # fb and wiki sit on the range's edges: still reproduced
    assert r["detail"].startswith("set min fb 1.25")
    narrow = _speedups({"fb": 1.45, "osm": 1.5, "wiki": 1.55})
    assert claims.evaluate(c, narrow)["verdict"] == "not reproduced"  # the set does not span the paper's range


def test_up_to_judges_the_sets_max_alone():
    """'up to 1.6x' is a range with a null lower end: the set's max is judged
    against 1.6, its min is free; the expected text and the paper's number
    say so."""
    c = _claim(GROUP, {"range": [None, 1.6]}, {"kind": "range", "tolerance": 0.1})
    r = claims.evaluate(c, _speedups({"fb": 1.05, "osm": 1.3, "wiki": 1.6}))
    assert r["verdict"] == "reproduced"  # fb's 1.05 is no lower end of anything
    assert claims.evaluate(c, _speedups({"fb": 1.05, "osm": 1.1, "wiki": 1.2}))["verdict"] == "not reproduced"
    assert claims.expected_text(c) == "set max in [1.455, 1.76]" and claims.paper_value_text(c["paper"]) == "up to 1.6"


def test_direction_per_member_wrong_side_and_no_effect_fail():
    c = _claim(GROUP, {"direction": "greater"}, {"kind": "direction", "than": 1.0})
    assert claims.evaluate(c, _speedups({"fb": 1.5, "osm": 1.3}))["verdict"] == "reproduced"
    r = claims.evaluate(c, _speedups({"fb": 1.5, "osm": 0.8}))
    assert r["verdict"] == "not reproduced" and r["members"]["osm"]["verdict"] == "not reproduced"
    # a 1% "effect", measured precisely: inside the 5% no-effect band, so the claimed effect is absent
    assert claims.evaluate(c, _speedups({"fb": 1.01, "osm": 1.01}, spread=0.001))["verdict"] == "not reproduced"
    # too noisy to tell
    assert claims.evaluate(c, _speedups({"fb": 1.1, "osm": 1.1}, reps=2, spread=0.5))["verdict"] == "inconclusive"


def test_a_name_on_one_side_only_is_left_out_and_named_but_a_named_member_blocks():
    tidy = _speedups({"fb": 1.5, "osm": 1.5})
    tidy = pd.concat([tidy, _frame([{"run": f"w-uni-{rep}", "repetition": rep, "dataset": "uniform",
                                     "engine": "wisckey", "metric": "latency_mean", "value": 100.0}
                                    for rep in range(4)])], ignore_index=True)
    c = _claim(GROUP, {"direction": "greater"}, {"kind": "direction", "than": 1.0})
    r = claims.evaluate(c, tidy)
    assert r["verdict"] == "reproduced" and sorted(r["members"]) == ["fb", "osm"]
    assert "left out, no paired samples in this run: uniform" in r["detail"]
    named = _claim(dict(GROUP, members=["fb", "osm", "uniform"]), {"direction": "greater"},
                   {"kind": "direction", "than": 1.0})
    r = claims.evaluate(named, tidy)
    assert r["verdict"] == "inconclusive" and r["members"]["uniform"]["verdict"] == "no data"


def test_one_repetition_gives_no_interval():
    c = _claim(GROUP, {"value": 1.5}, {"kind": "magnitude", "tolerance": 0.1})
    r = claims.evaluate(c, _speedups({"fb": 1.5, "osm": 1.5}, reps=1))
    assert r["verdict"] == "inconclusive" and "df 0" in r["detail"]


def _one_rep_figure(speedups, repeated_spread):
    """A figure whose claimed points (engine wisckey/bourbon per dataset)
    ran once, beside another of its points (engine leveldb) run four times
    with a log sd of about `repeated_spread`."""
    t = _speedups(speedups, reps=1)
    other = [{"run": f"l-{rep}", "repetition": rep, "dataset": "fb", "engine": "leveldb", "metric": "latency_mean",
              "value": 100.0 * math.exp(repeated_spread * x)} for rep, x in enumerate((-1.2, -0.4, 0.4, 1.2))]
    return pd.concat([t, _frame(other)], ignore_index=True).assign(study="baseline", experiment="point")


def test_one_repetition_borrows_this_runs_noise_and_can_pass_and_fail():
    c = _claim(GROUP, {"value": 1.5}, {"kind": "magnitude", "tolerance": 0.1})
    quiet = claims.check("baseline", _one_rep_figure({"fb": 1.5, "osm": 1.5}, 0.01), [c]).iloc[0]
    assert quiet["verdict"] == "reproduced"
    assert "noise borrowed from this run's baseline/point latency_mean" in quiet["detail"]
    assert quiet["noise_df"] == 0 and math.isnan(quiet["noise_sd"])  # never fed back as the claim's own
    off = claims.check("baseline", _one_rep_figure({"fb": 2.5, "osm": 2.5}, 0.01), [c]).iloc[0]
    assert off["verdict"] == "not reproduced"
    # a noisy figure borrows a wide interval: the same data no longer decide
    noisy = claims.check("baseline", _one_rep_figure({"fb": 1.5, "osm": 1.5}, 0.3), [c]).iloc[0]
    assert noisy["verdict"] == "inconclusive"


def test_one_repetition_borrows_the_scales_measured_noise_not_a_declared_one():
    c = _claim(GROUP, {"value": 1.5}, {"kind": "magnitude", "tolerance": 0.1})
    tidy = _speedups({"fb": 1.5, "osm": 1.5}, reps=1).assign(study="baseline", experiment="point")
    measured = {"noise": {"default": 0.1, "figures": {"baseline/point": {
        "cv": 0.02, "df": 20, "sd": 0.015, "source": "r", "metrics": {"latency_mean": {"cv": 0.02, "df": 20}}}}}}
    r = claims.check("baseline", tidy, [c], scale="x", scale_cfg=measured).iloc[0]
    assert r["verdict"] == "reproduced" and "config/scales/x.measured.yaml noise" in r["detail"]
    far = claims.check("baseline", _speedups({"fb": 2.5, "osm": 2.5}, reps=1).assign(study="baseline", experiment="point"),
                       [c], scale="x", scale_cfg=measured).iloc[0]
    assert far["verdict"] == "not reproduced"
    declared = {"noise": {"default": 0.02}}
    r = claims.check("baseline", tidy, [c], scale="x", scale_cfg=declared).iloc[0]
    assert r["verdict"] == "inconclusive" and "df 0" in r["detail"]


def test_ordering_holds_only_when_every_pair_does():
    rows = [{"run": f"{ix}-{rep}", "repetition": rep, "index": ix, "metric": "index_bytes", "value": v + rep}
            for ix, v in (("pgm", 10.0), ("rmi", 20.0), ("fp", 50.0), ("alex", 80.0)) for rep in range(3)]
    m = {"kind": "ordering", "where": {"metric": "index_bytes"}, "by": "index", "lower": ["pgm", "rmi"],
         "higher": ["fp"], "pair_on": ["repetition"]}
    less = ({"direction": "less"}, {"kind": "direction", "than": 1.0})
    assert claims.evaluate(_claim(m, *less), _frame(rows))["verdict"] == "reproduced"
    r = claims.evaluate(_claim(dict(m, lower=["pgm", "alex"]), *less), _frame(rows))
    assert r["verdict"] == "not reproduced" and r["members"]["alex/fp"]["verdict"] == "not reproduced"


def test_trend_relative_change_and_per_repetition_slope():
    rows = [{"run": f"{pb}-{rep}", "repetition": rep, "position_boundary": pb, "metric": "latency_mean",
             "value": base * (1 + 0.01 * rep)} for pb, base in ((8, 99.0), (16, 100.0), (32, 104.0), (64, 110.0))
            for rep in range(3)]
    m = {"kind": "trend", "where": {"metric": "latency_mean"}, "over": "position_boundary", "from": 16, "to": 8,
         "pair_on": ["repetition"]}
    r = claims.evaluate(_claim(m, {"value": -0.01}, {"kind": "magnitude", "tolerance": 0.05}), _frame(rows))
    assert r["verdict"] == "reproduced" and math.isclose(r["measured"], -0.01, rel_tol=1e-6)
    slope = dict(m, statistic="slope")
    r = claims.evaluate(_claim(slope, {"direction": "greater"}, {"kind": "direction", "than": 0.0, "margin": 0.01}),
                        _frame(rows))
    assert r["verdict"] == "reproduced" and r["n"] == 3  # one slope per repetition
    expected = [np.polyfit([8, 16, 32, 64], [b * (1 + 0.01 * rep) for b in (99.0, 100.0, 104.0, 110.0)], 1)[0]
                for rep in range(3)]
    assert math.isclose(r["measured"], np.mean(expected), rel_tol=1e-9)


def test_share_and_its_context_metric():
    rows = [{"run": f"r{rep}", "repetition": rep, "metric": m, "value": v}
            for rep in range(3) for m, v in (("learn_seconds", 0.2 + rep * 0.01), ("compaction_seconds", 10.0))]
    m = {"kind": "share", "part": {"metric": "learn_seconds"}, "whole": {"metric": "compaction_seconds"}}
    ctx = [{"label": "compaction time", "measure": {"kind": "value", "where": {"metric": "compaction_seconds"}}}]
    c = _claim(m, {"value": 0.02}, {"kind": "magnitude", "tolerance": 0.25}, context=ctx, unit="share")
    r = claims.evaluate(c, _frame(rows))
    assert r["verdict"] == "reproduced" and r["n"] == 3
    assert r["context"] == "compaction time: 10 [10, 10]"
    table = claims.check("baseline", _frame(rows), [c])
    row = table.iloc[0]
    assert row["paper_value"] == "0.02" and row["rule"] == "magnitude ×/÷25%" and row["paper_source"] == SOURCE
    assert row["expected"] == "in [0.016, 0.025]"
    md = claims.to_markdown(table)
    assert " 0.02 |" in md and "compaction time: 10 [10, 10]" in md


def test_members_column_is_json_with_each_members_verdict():
    c = _claim(GROUP, {"members": {"fb": 1.5, "osm": 1.6}}, {"kind": "magnitude", "tolerance": 0.1})
    table = claims.check("baseline", _speedups({"fb": 1.5, "osm": 1.6}), [c])
    members = json.loads(table.iloc[0]["members"])
    assert members["fb"]["verdict"] == "reproduced" and members["fb"]["paper"] == 1.5
    assert members["osm"]["low"] < 1.6 < members["osm"]["high"]
    assert "2 of 2 members reproduced" in claims.to_markdown(table)


VALUE = {"kind": "value", "where": {"metric": "m"}}
ANY = ({"value": 1.0}, {"kind": "magnitude", "tolerance": 0.1})


def _rejected(tmp_path, claim):
    """The loader's one-line error for a claims file holding `claim`."""
    import yaml
    path = tmp_path / "claims.yaml"
    path.write_text(yaml.safe_dump({"claims": [claim]}))
    with pytest.raises(InputError) as e:
        claims.load_claims(path)
    return str(e.value)


def test_claims_file_is_valid_and_bad_claims_are_rejected(tmp_path):
    assert any(c["study"] == "baseline" for c in claims.load_claims(claims.claim_files("baseline")))
    bad = tmp_path / "claims.yaml"
    bad.write_text("claims:\n  - id: x\n    study: baseline\n")
    with pytest.raises(InputError) as e:
        claims.load_claims(bad)
    assert "claims.yaml" in str(e.value)
    assert "claims.0.study" in _rejected(tmp_path, dict(_claim(VALUE, *ANY), study="nosuch"))
    assert "paper/studies.yaml" in _rejected(tmp_path, dict(_claim(VALUE, *ANY), study="nosuch"))
    old = {k: v for k, v in _claim(VALUE, *ANY).items() if k not in ("paper", "rule")}
    assert "'paper' is a required property" in _rejected(tmp_path, dict(old, expect={"max": 1}))


@pytest.mark.parametrize("paper, rule, field, words", [
    ({"value": 1.0, "range": [1, 2]}, {"kind": "magnitude", "tolerance": 0.1}, "claims.0.paper", "exactly one of"),
    ({}, {"kind": "magnitude", "tolerance": 0.1}, "claims.0.paper", "got none"),
    ({"value": 1.0}, {"kind": "magnitude"}, "claims.0.rule", "'tolerance' is a required property"),
    ({"direction": "greater"}, {"kind": "magnitude", "tolerance": 0.1}, "claims.0.rule.kind", "direction expected"),
    ({"value": 1.0}, {"kind": "direction", "than": 1}, "claims.0.rule.kind", "magnitude"),
    ({"value": 1.0}, {"kind": "magnitude", "tolerance": 0.1, "than": 1}, "claims.0.rule", "only tolerance"),
    ({"members": {"a": 1.0}}, {"kind": "magnitude", "tolerance": 0.1}, "claims.0.paper.members", "measure with members"),
    ({"value": -1.0}, {"kind": "magnitude", "tolerance": 0.1}, "claims.0.paper.value", "log scale"),
])
def test_paper_and_rule_must_fit(tmp_path, paper, rule, field, words):
    message = _rejected(tmp_path, _claim(VALUE, paper, rule))
    assert f"claims.yaml: {field}: " in message and words in message


def test_a_range_needs_at_least_one_end_in_order(tmp_path):
    for bad in ([None, None], [2.0, 1.0]):
        message = _rejected(tmp_path, _claim(GROUP, {"range": bad}, {"kind": "range", "tolerance": 0.1}))
        assert "claims.0.paper.range" in message and "one may be null" in message


def test_bound_is_for_the_studies_of_no_paper_alone(tmp_path):
    c = dict(_claim(VALUE, {"value": 1.0}, {"kind": "bound", "max": 1}), study="bourbon", figure="fig9")
    assert "a study of no paper" in _rejected(tmp_path, c)


def test_a_slope_direction_needs_a_margin_in_its_units(tmp_path):
    slope = {"kind": "trend", "where": {"metric": "m"}, "over": "x", "statistic": "slope"}
    assert "claims.0.rule.margin" in _rejected(tmp_path, _claim(slope, {"direction": "greater"},
                                                                {"kind": "direction", "than": 0}))


def test_a_claim_reads_the_experiments_its_selectors_name():
    fig12 = _claim({"kind": "value", "where": {"experiment": "fig12", "metric": "m"}}, *ANY)
    assert claims.experiments(dict(fig12, study="bourbon", figure="fig12")) == {"fig12"}
    # without `experiment` in a selector: its figure and what that figure uses
    assert claims.experiments(OVERHEAD) == {"point"}
    tail = _claim({"kind": "value", "where": {"metric": "latency_tail5_mean"}}, *ANY)
    assert claims.experiments(dict(tail, study="doblix", figure="fig10")) == {"fig9"}
    both = _claim({"kind": "ratio", "numerator": {"experiment": "fig8", "metric": "m"},
                   "denominator": {"experiment": ["fig9", "fig10"], "metric": "m"}}, *ANY)
    assert claims.experiments(both) == {"fig8", "fig9", "fig10"}
    # one selector names an experiment, the other none: both are read
    mixed = _claim({"kind": "ratio", "numerator": {"experiment": "fig1", "metric": "m"},
                    "denominator": {"metric": "m"}}, *ANY)
    assert claims.experiments(dict(mixed, study="doblix", figure="fig10")) == {"fig1", "fig9"}
    # a context's selectors are read too
    ctx = dict(tail, context=[{"label": "l", "measure": {"kind": "value", "where": {"experiment": "fig1", "metric": "x"}}}])
    assert claims.experiments(dict(ctx, study="doblix", figure="fig10")) == {"fig1", "fig9"}


def test_a_figures_claims_are_checked_alone():
    tidy = _frame([{"run": f"r{i}", "experiment": "point", "metric": "m", "value": 1.0} for i in range(3)])
    other = dict(_claim(VALUE, *ANY), id="other", figure="elsewhere")
    mine = dict(_claim(VALUE, *ANY), id="mine")
    assert list(claims.check("baseline", tidy, [other, mine], figure="point")["claim"]) == ["mine"]
    assert list(claims.check("baseline", tidy, [other, mine])["claim"]) == ["other", "mine"]


def test_the_cli_judges_a_tidy_table_as_the_pipeline_calls_it(tmp_path, make_log):
    logs = [make_log(f"leveldb__uniform__r{i}.jsonl", rep=i, harness=h, engine_ns=1000.0)
            for i, h in enumerate([10, 12, 11])]
    aggregate.aggregate(logs, tmp_path / "t.csv")
    claims.main(["--study", "baseline", "--tidy", str(tmp_path / "t.csv"), "--claims",
                 str(claims.claim_files("baseline")[0]), "--out-csv", str(tmp_path / "v.csv"),
                 "--out-md", str(tmp_path / "v.md"), "--scale", "smoke"])
    v = pd.read_csv(tmp_path / "v.csv")
    assert list(v.columns) == claims.VERDICT_COLUMNS and v.loc[0, "verdict"] == "reproduced"
    assert "0.05" in (tmp_path / "v.md").read_text()
    # the paired samples' pooled sd and df, as the detail prints them
    assert v.loc[0, "noise_df"] > 0 and f"pooled df {v.loc[0, 'noise_df']}, sd " in v.loc[0, "detail"]
    assert v.loc[0, "noise_sd"] > 0


def test_a_context_of_zeros_is_shown_and_a_member_without_data_is_null():
    rows = [{"run": f"r{rep}", "repetition": rep, "metric": m, "value": v}
            for rep in range(3) for m, v in (("learn_seconds", 0.2), ("compaction_seconds", 10.0), ("compactions", 0.0))]
    m = {"kind": "share", "part": {"metric": "learn_seconds"}, "whole": {"metric": "compaction_seconds"}}
    ctx = [{"label": "compactions", "measure": {"kind": "value", "where": {"metric": "compactions"}}}]
    r = claims.evaluate(_claim(m, {"value": 0.02}, {"kind": "magnitude", "tolerance": 0.25}, context=ctx), _frame(rows))
    assert r["context"] == "compactions: 0 [0, 0]"
    c = _claim(GROUP, {"members": {"fb": 1.5, "osm": 1.6}}, {"kind": "magnitude", "tolerance": 0.1})
    table = claims.check("baseline", _speedups({"fb": 1.5}), [c])
    members = json.loads(table.iloc[0]["members"])
    assert members["osm"]["value"] is None and members["osm"]["verdict"] == "no data"
    assert table.iloc[0]["verdict"] == "inconclusive"  # a paper member unmeasured: cannot be reproduced yet
