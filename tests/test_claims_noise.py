"""python -m lsmrepro.claims --measure-noise: the run-to-run noise of a
figure from a run's tidy tables (lsmrepro/claims/noise.py), kept with the
scale and read by the power check."""
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from base.errors import InputError
from lsmrepro.claims import evaluate as claims
from lsmrepro.claims import noise as claims_noise
from lsmrepro.claims import power as claims_power
from lsmrepro.claims import prior as claims_prior
from lsmrepro.plan.studies import CONFIG_DIR, load_scale

CLAIM = {"id": "c", "study": "s", "figure": "f", "measure": {"kind": "value", "where": {"experiment": "f", "metric": "lat"}}}


def _tidy(sigma, points, reps, seed=0, metric="lat", experiment="f"):
    """Tidy rows of `points` points (each its own level) with `reps`
    repetitions, a run's log value N(level, sigma)."""
    rng = np.random.default_rng(seed)
    rows = [{"study": "s", "experiment": experiment, "point": f"p{p}", "dataset": "d", "metric": metric,
             "op": "get", "subset": "all", "repetition": r, "run": f"{experiment}/p{p}/r{r}",
             "value": float(np.exp(p / 3 + rng.normal(0, sigma))), "source": f"x.jsonl:{r}"}
            for p in range(points) for r in range(reps)]
    return pd.DataFrame(rows)


def test_the_pooled_sd_is_close_and_its_upper_bound_covers_sigma():
    est = claims_noise.estimate(claims_noise.within_point(_tidy(0.1, 60, 3)), [CLAIM], "a run")["s/f"]
    assert est["df"] == 120
    assert est["sd"] == pytest.approx(0.1, rel=0.12)
    assert est["cv"] >= 0.1 and est["cv"] > est["sd"]
    assert est["metrics"]["lat"]["cv"] == est["cv"]  # the claim's one metric is the figure's


def test_the_upper_bound_covers_sigma_at_its_confidence_when_df_is_small():
    """At df 4 the sd scatters widely: the 80% bound must be above sigma in
    about 80% of runs (a point estimate would be above it in about half)."""
    runs = pd.concat([_tidy(0.1, 2, 3, seed, experiment=f"f{seed}") for seed in range(300)])
    est = claims_noise.estimate(claims_noise.within_point(runs), [], "a run")
    assert len(est) == 300 and {e["df"] for e in est.values()} == {4}
    assert 0.74 <= np.mean([e["cv"] >= 0.1 for e in est.values()]) <= 0.86
    assert 0.35 <= np.mean([e["sd"] >= 0.1 for e in est.values()]) <= 0.55


def test_one_repetition_gives_no_estimate_and_a_constant_metric_is_measured_noiseless():
    assert claims_noise.estimate(claims_noise.within_point(_tidy(0.1, 10, 1)), [CLAIM], "a run") == {}
    size = _tidy(0.0, 5, 3, metric="load_index_bytes")
    # no claim reads it: not run-to-run noise of the figure
    assert claims_noise.estimate(claims_noise.within_point(size), [CLAIM], "a run") == {}
    # a claim reads it: measured without spread (the floor), and a varying metric beside it is the figure's
    sized = dict(CLAIM, measure={"kind": "value", "where": {"experiment": "f", "metric": "load_index_bytes"}})
    est = claims_noise.estimate(claims_noise.within_point(pd.concat([size, _tidy(0.1, 5, 3, metric="lat")])),
                                [sized], "a run")["s/f"]
    assert est["metrics"] == {"load_index_bytes": {"cv": claims_noise.CV_FLOOR, "df": 10, "sd": 0.0}}
    assert est["cv"] == claims_noise.CV_FLOOR
    assert claims_power.noise_cv({"noise": {"default": 0.1, "figures": {"s/f": est}}}, sized, "local")[0] == \
        claims_noise.CV_FLOOR


def test_a_figure_without_claim_metrics_pools_every_varying_metric():
    spread = claims_noise.within_point(pd.concat([_tidy(0.1, 20, 3, metric="a"), _tidy(0.1, 20, 3, 1, "b")]))
    est = claims_noise.estimate(spread, [], "a run")["s/f"]
    assert est["df"] == 40 and "metrics" not in est and "every metric" in est["over"]  # one run's metrics: df once
    assert est["sd"] == pytest.approx(0.1, rel=0.2)


def test_a_runs_subsets_count_its_repetition_once_and_the_noisiest_claim_metric_is_the_figures():
    two = pd.concat([_tidy(0.1, 20, 3), _tidy(0.1, 20, 3, 1).assign(subset="positive"),
                     _tidy(0.3, 20, 3, 2, metric="tput")])
    claim2 = dict(CLAIM, measure={"kind": "ratio", "numerator": {"experiment": "f", "metric": "lat"},
                                  "denominator": {"experiment": "f", "metric": "tput"}})
    est = claims_noise.estimate(claims_noise.within_point(two), [claim2], "a run")["s/f"]
    assert est["metrics"]["lat"]["df"] == 40 and est["metrics"]["tput"]["df"] == 40
    assert est["cv"] == est["metrics"]["tput"]["cv"] > est["metrics"]["lat"]["cv"]


def _scale_dir(tmp_path):
    """A config directory with the schemas and a copy of smoke.yaml; the
    path of its measured file (not there yet)."""
    (tmp_path / "scales").mkdir(parents=True)
    for schema in ("scale.schema.yaml", "scale.measured.schema.yaml"):
        shutil.copy(CONFIG_DIR / schema, tmp_path)
    shutil.copy(CONFIG_DIR / "scales" / "smoke.yaml", tmp_path / "scales")
    return tmp_path / "scales" / "smoke.measured.yaml"


def test_writing_goes_to_the_measured_file_and_keeps_the_hand_set_scale(tmp_path):
    path = _scale_dir(tmp_path)
    hand = (path.parent / "smoke.yaml").read_text()
    claims_noise.write(path, {"s/f": {"cv": 0.05, "df": 9, "sd": 0.04, "points": 9, "source": "results/x of today"}})
    claims_noise.write(path, {"s/g": {"cv": 0.07, "df": 3, "source": "results/x of today"}})
    after = path.read_text()
    assert (path.parent / "smoke.yaml").read_text() == hand  # the hand-set file untouched
    noise = load_scale("smoke", tmp_path)["noise"]
    assert noise["figures"]["s/f"]["cv"] == 0.05 and noise["figures"]["s/g"]["df"] == 3
    assert noise["default"] == 0.1  # the hand-set half, merged
    with pytest.raises(InputError) as e:  # a measured entry without its df is refused, the file kept
        claims_noise.write(path, {"s/h": {"cv": 0.05, "source": "results/x of today"}})
    assert "smoke.measured.yaml: noise.figures.s/h" in str(e.value) and path.read_text() == after
    with pytest.raises(InputError, match="smoke.yaml: noise: a noise section"):  # nothing to refine
        (path.parent / "smoke.yaml").write_text(hand.split("\nnoise:")[0] + "\n")
        claims_noise.write(path, {})


def test_the_cli_measures_a_run_and_writes_the_scale(tmp_path, capsys):
    tidy = tmp_path / "results" / "smoke" / "tidy" / "s"
    tidy.mkdir(parents=True)
    t = _tidy(0.1, 10, 2, experiment="point").assign(study="baseline", metric="driver_harness_per_op")
    t.to_csv(tidy / "point.csv", index=False)
    path = _scale_dir(tmp_path / "config")
    claims.main(["--measure-noise", str(tmp_path / "results" / "smoke"), "--write", str(path)])
    out = capsys.readouterr().out
    assert out.startswith("baseline/point: cv ") and "driver_harness_per_op" in out
    entry = yaml.safe_load(path.read_text())["noise"]["figures"]["baseline/point"]
    assert entry["df"] == 10 and entry["source"].startswith("results/smoke tidy of ")
    assert "/tmp" not in entry["source"]


def test_the_power_check_reads_the_figures_measured_noise_first():
    cfg = {"noise": {"default": 0.3, "studies": {"s": 0.2}, "metrics": {"lat": 0.01},
                     "figures": {"s/f": {"cv": 0.05, "df": 8, "source": "r", "metrics": {"lat": {"cv": 0.04, "df": 8}}}}}}
    assert claims_power.noise_cv(cfg, CLAIM, "x") == (0.04, "s/f measured for its metrics (df 8)")
    del cfg["noise"]["figures"]["s/f"]["metrics"]
    assert claims_power.noise_cv(cfg, CLAIM, "x") == (0.01, "its metrics declared")
    del cfg["noise"]["metrics"]
    assert claims_power.noise_cv(cfg, CLAIM, "x") == (0.05, "s/f measured (df 8)")
    cfg["noise"]["figures"]["s/f"] = 0.06
    assert claims_power.noise_cv(cfg, CLAIM, "x") == (0.06, "s/f declared")
    del cfg["noise"]["figures"]
    assert claims_power.noise_cv(cfg, CLAIM, "x") == (0.2, "study s declared")
    del cfg["noise"]["studies"]
    assert claims_power.noise_cv(cfg, CLAIM, "x") == (0.3, "default declared")


def test_a_claims_own_paired_noise_is_measured_written_and_read_first(tmp_path):
    """From a claims CSV's noise_sd/noise_df: a ratio's sample is two runs'
    noise, a value's one run's; a slope (linear) and a claim without df
    keep their figure's. Written as noise.claims, it comes first."""
    ratio = {"id": "r", "study": "s", "figure": "f",
             "measure": {"kind": "ratio", "numerator": {"metric": "a"}, "denominator": {"metric": "b"}}}
    slope = {"id": "t", "study": "s", "figure": "f",
             "measure": {"kind": "trend", "where": {"metric": "a"}, "over": "x", "statistic": "slope"}}
    (tmp_path / "claims").mkdir()
    pd.DataFrame({"claim": ["r", "c", "t", "none"], "noise_sd": [0.2, 0.1, 0.3, float("nan")],
                  "noise_df": [10, 4, 5, 0]}).to_csv(tmp_path / "claims" / "s.csv", index=False)
    own = claims_noise.claim_estimates(tmp_path, [ratio, CLAIM, slope], "results/x of today")
    assert sorted(own) == ["c", "r"]
    assert own["r"]["cv"] == pytest.approx(claims_prior.upper_sd(0.2, 10) / np.sqrt(2), abs=0.001)
    assert own["r"]["cv"] >= claims_prior.upper_sd(0.2, 10) / np.sqrt(2)  # rounded up, never below
    assert own["c"]["cv"] == pytest.approx(claims_prior.upper_sd(0.1, 4), abs=0.001) and own["c"]["df"] == 4
    path = _scale_dir(tmp_path / "config")
    claims_noise.write(path, {"s/f": {"cv": 0.05, "df": 9, "source": "results/x of today"}}, own)
    cfg = load_scale("smoke", tmp_path / "config")
    assert cfg["noise"]["claims"]["r"] == own["r"] and cfg["noise"]["figures"]["s/f"]["cv"] == 0.05
    assert claims_power.noise_cv(cfg, ratio, "smoke") == (own["r"]["cv"], "its own paired samples measured (df 10)")
    assert claims_power.noise_cv(cfg, slope, "smoke") == (0.05, "s/f measured (df 9)")


def test_no_machine_path_in_the_source_text(tmp_path):
    f = tmp_path / "local" / "tidy" / "s" / "f.csv"
    f.parent.mkdir(parents=True)
    f.write_text("x\n")
    text = claims_noise.source_text(tmp_path / "local", [f])
    assert text.startswith("results/local tidy of ") and str(tmp_path) not in text
    assert text.endswith("measured at commit unknown")  # not this checkout's: the run's, and it has none


def test_the_source_names_the_commit_of_the_checkout_that_ran(tmp_path):
    import subprocess

    run = tmp_path / "other-checkout"
    f = run / "results" / "local" / "tidy" / "s" / "f.csv"
    f.parent.mkdir(parents=True)
    f.write_text("x\n")
    git = ["git", "-C", str(run), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "commit", "-q", "--allow-empty", "-m", "x"], check=True)
    head = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    assert claims_noise.source_text(run / "results" / "local", [f]).endswith(f"measured at commit {head}")


def test_another_scales_results_are_not_written_into_this_scale(tmp_path):
    tidy = tmp_path / "results" / "local" / "tidy" / "s"
    tidy.mkdir(parents=True)
    _tidy(0.1, 4, 2).to_csv(tidy / "f.csv", index=False)
    path = _scale_dir(tmp_path / "config")
    with pytest.raises(SystemExit):
        claims.main(["--measure-noise", str(tmp_path / "results" / "local"), "--write", str(path)])
    assert not path.exists()
    with pytest.raises(SystemExit):  # the hand-set scale is no --write target
        claims.main(["--measure-noise", str(tmp_path / "results" / "local"), "--write",
                     str(path.parent / "local.yaml")])
