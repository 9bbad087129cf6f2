"""The load as the unit of a claim's interval (issue 52 items 1-2): from two
loads on, a claim's samples are per-load means (repetition r on load r mod
load_repetitions), df from loads; one load's copied measurement is no
estimate; identical loads are exact and say so."""
import numpy as np
import pandas as pd

from lsmrepro.claims import evaluate as claims
from lsmrepro.plan.studies import load_scale

A = {"metric": "get_ns", "engine": "a"}
B = {"metric": "get_ns", "engine": "b"}


def _claim(measure, paper, rule):
    return {"id": "c", "study": "baseline", "figure": "point", "section": "s", "statement": "s",
            "paper": {"source": "a test", **paper}, "rule": rule, "measure": measure}


RATIO = _claim({"kind": "ratio", "numerator": A, "denominator": B, "pair_on": ["repetition"]},
               {"direction": "greater"}, {"kind": "direction", "than": 1.0, "margin": 0.02})


def _tidy(values_a, values_b):
    rows = [{"engine": e, "metric": "get_ns", "repetition": r, "run": f"point/x/r{r}", "value": v,
             "source": "s", "experiment": "point", "study": "baseline"}
            for e, vs in (("a", values_a), ("b", values_b)) for r, v in enumerate(vs)]
    return pd.DataFrame(rows)


def _loads_of_six(load_effect, rng):
    """Six repetitions on loads 0, 1, 0, 1, 0, 1 (load_repetitions 2):
    system a is 10% slower than b on average, each load shifts a's runs
    by its own effect, runs add 0.1% noise."""
    shift = np.array([load_effect, -load_effect])[np.arange(6) % 2]
    a = 110 * np.exp(shift + 0.001 * rng.standard_normal(6))
    b = 100 * np.exp(0.001 * rng.standard_normal(6))
    return _tidy(a, b)


def test_two_loads_make_the_interval_of_per_load_means_with_df_from_loads():
    """A load effect: taking each run as a sample the
    interval is narrower (df 5, t 2.0) and decides; the loads' means (df 1) hold the
    load's variance, the interval is wider, and the claim says 2 loads."""
    tidy = _loads_of_six(0.08, np.random.default_rng(1))
    runs = claims.evaluate(RATIO, tidy)
    loads = claims.evaluate(RATIO, tidy, loads=2)
    assert runs["df"] == 5 and loads["df"] == 1 and loads["loads"] == 2
    assert (loads["ci_high"] - loads["ci_low"]) > 5 * (runs["ci_high"] - runs["ci_low"])
    assert runs["verdict"] == "reproduced" and loads["verdict"] == "inconclusive"
    assert "per-load means of 2 loads" in loads["detail"]
    one = np.exp(np.mean(np.log(tidy[tidy.engine == "a"].value.to_numpy() / tidy[tidy.engine == "b"].value.to_numpy())))
    assert abs(loads["measured"] - one) < 1e-9  # the mean of balanced load means is the mean of the runs


def test_a_quantity_copied_from_one_load_has_no_variance_and_borrows_none():
    """Every run of one load reads the same size: zero spread among copies
    is no estimate, so the claim is inconclusive (df 0) and says why."""
    tidy = _tidy([120.0] * 4, [100.0] * 4)
    out = claims.evaluate(RATIO, tidy, prior=lambda c: (0.001, 100, "a prior"), loads=1)
    assert out["verdict"] == "inconclusive" and out["df"] == 0 and out["loads"] == 1
    assert "measured once per load, on one load" in out["detail"]


def test_a_quantity_the_same_on_every_load_is_exact_and_decides():
    """The same bytes on each of two loads: an exact value, said so."""
    tidy = _tidy([120.0] * 4, [100.0] * 4)
    out = claims.evaluate(RATIO, tidy, loads=2)
    assert out["verdict"] == "reproduced" and out["ci_low"] == out["ci_high"] == out["measured"]
    assert "exact: the same bytes on each of its 2 loads" in out["detail"]


def test_a_claim_reading_figures_of_different_load_counts_takes_their_common_divisor():
    cfg = load_scale("smoke")
    cfg = dict(cfg, counts=dict(cfg["counts"], figures={"baseline/point": {"repetitions": 6, "load_repetitions": 2}}))
    assert claims.loads_of(RATIO, cfg) == 2
    assert claims.loads_of(RATIO, None) is None
