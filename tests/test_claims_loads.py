"""The load as the unit of a claim's interval (issue 52 items 1-2): from two
loads on, a claim's samples are per-load means (repetition r on load r mod
load_repetitions), df from loads; one load's copied measurement is no
estimate; identical loads are exact and say so."""
import numpy as np
import pandas as pd

from lsmrepro.claims import evaluate as claims
from lsmrepro.claims import measure as cm
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
    assert cm.loads_of(RATIO, cfg) == 2
    assert cm.loads_of(RATIO, None) is None


AA = _claim({"kind": "ratio", "numerator": A, "denominator": B, "pair_on": ["repetition"]},
            {"value": 1.0}, {"kind": "magnitude", "tolerance": 0.05})


def _aa_design(rng, k, r, load_sd, run_sd):
    """A/A: both sides the same system on independent loads, k loads of r
    runs each (repetition i on load i mod k), a load effect per side and
    load, run noise per run."""
    reps = np.arange(k * r)
    side = lambda: np.exp(load_sd * rng.standard_normal(k)[reps % k] + run_sd * rng.standard_normal(k * r))  # noqa: E731
    return _tidy(100 * side(), 100 * side())


def test_a_a_intervals_of_load_means_cover_one_and_rarely_say_not_reproduced():
    """The checker on itself, simulated (fixed seed, 200 designs of 4 loads
    x 3 runs, load sd 3x the run sd): the 90% interval of per-load means
    covers 1 in >= 85% and `not reproduced` is <= 5%; the same data taken
    run by run (the one-level rule) covers 1 far less often."""
    rng = np.random.default_rng(52)
    designs = [_aa_design(rng, 4, 3, 0.03, 0.01) for _ in range(200)]
    def rate(loads):
        out = [claims.evaluate(AA, t, loads=loads) for t in designs]
        cover = np.mean([o["ci_low"] <= 1.0 <= o["ci_high"] for o in out])
        return cover, np.mean([o["verdict"] == "not reproduced" for o in out])
    cover, not_rep = rate(4)
    assert cover >= 0.85 and not_rep <= 0.05
    cover_runs, _ = rate(None)
    assert cover_runs < 0.75


def test_the_power_check_draws_one_load_effect_per_load_and_repetition_class():
    import pandas as pd
    from lsmrepro.claims import power
    rows = pd.DataFrame({power.LOAD_OF: ["x", "x", "x", "x", "y"], "repetition": [0, 1, 2, 3, 0]})
    e = power._load_effects(rows, 2, 1.0, np.random.default_rng(0), 3)
    assert e.shape == (3, 5)
    assert np.all(e[:, 0] == e[:, 2]) and np.all(e[:, 1] == e[:, 3]) and not np.any(e[:, 0] == e[:, 1])
    assert not np.any(e[:, 4] == e[:, 0])  # another load, another draw
    assert power._load_effects(rows, 2, 0.0, np.random.default_rng(0), 3) == 0.0
