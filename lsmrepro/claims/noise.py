"""Run-to-run noise measured from a run's tidy tables, kept beside the scale
(config/scales/<scale>.measured.yaml `noise.figures`, lsmrepro/plan/scale_measured.py)
for the power check:

    python -m lsmrepro.claims --measure-noise results/<scale> [--write config/scales/<scale>.measured.yaml]

Per figure (and per metric the figure's claims select): the sd of a run's
log value between repetitions of one point, pooled over every point with
at least two repetitions (df = sum of n_i - 1), and its one-sided upper
confidence bound at that df (chi-square; paper/README.md, "Power check"),
which is what the power check simulates: few degrees of freedom must not
flatter the power."""
import math
import subprocess
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pandas as pd

from base.errors import InputError
from base.yamlio import load_yaml
from lsmrepro.claims import measure as cm
from lsmrepro.claims.prior import CONFIDENCE, metrics, sample_sd, upper_sd
from lsmrepro.claims.spec import log_scale
from lsmrepro.plan import scale_measured

# The CV of a metric measured without any spread between repetitions (a
# size one load fixes): a floor, so the power check still draws some noise.
CV_FLOOR = 0.001
# Columns that differ between the repetitions of one point (or describe a
# row, not the point): everything else names the point a value belongs to.
RUN_COLUMNS = {"repetition", "run", "value", "unit", "source", "note", "build_id", "fingerprint", "node", "image"}


def within_point(tidy):
    """Per (study, experiment, metric): the pooled sum of squares of a run's
    log value about its point's mean (`ss`), its df and the number of
    points with >= 2 repetitions. Rows of one repetition and point (ops, levels a
    run reports more than once under one key) are averaged first;
    non-positive values have no log and are left out. A metric with no
    spread at all (a size one load fixes, a device calibration every run
    copies) stays, with ss 0: its claims are measured noiseless (CV_FLOOR),
    and it is left out of a figure's pooled estimate (estimate)."""
    v = pd.to_numeric(tidy["value"], errors="coerce")
    rows = tidy.assign(_log=np.log(v.where(v > 0)))[v > 0]
    key = [c for c in rows.columns if c not in RUN_COLUMNS | {"_log"}]
    per_rep = rows.groupby(key + ["repetition"], dropna=False)["_log"].mean().reset_index()
    g = per_rep.groupby(key, dropna=False)["_log"]
    points = pd.DataFrame({"n": g.count(), "var": g.var(ddof=1)}).reset_index()
    points = points[points["n"] >= 2]
    # The rows of one run under one metric (its ops, subsets, levels) move
    # together: a point's df counts its repetitions once, its variance is
    # the mean over those rows.
    per_point = ["study", "experiment", "metric", "point"] if "point" in points else key
    points = points.groupby(per_point, dropna=False).agg(n=("n", "min"), var=("var", "mean")).reset_index()
    points = points.assign(df=points["n"] - 1, ss=points["var"] * (points["n"] - 1))
    out = points.groupby(["study", "experiment", "metric"], dropna=False).agg(
        df=("df", "sum"), ss=("ss", "sum"), points=("n", "size")).reset_index()
    return out


def _pooled(rows, df=None):
    """The pooled sd of `rows` and its upper bound; `df`: the degrees of
    freedom to bound it at, when the rows' sum overstates them."""
    pooled_df, ss = int(rows["df"].sum()), float(rows["ss"].sum())
    sd = math.sqrt(ss / pooled_df)
    df = df or pooled_df
    return {"cv": max(_up(upper_sd(sd, df)), CV_FLOOR), "df": df, "sd": round(sd, 4)}


def _up(x):
    """Rounded up to 3 decimals (never below the bound)."""
    return math.ceil(x * 1000) / 1000


def claim_metrics(claims):
    """(study, experiment) -> the metrics the claims select there."""
    out = {}
    for c in claims:
        for exp in cm.experiments(c):
            out.setdefault((c["study"], exp), set()).update(metrics(c))
    return out


def estimate(spread, claims, source):
    """"study/figure" -> {cv, df, sd, points, source, metrics: {metric: {cv, df, sd}}}:
    each metric its claims select with its own estimate, the figure's that
    of the noisiest (all its varying metrics pooled when none of its claims'
    repeats); `spread`: within_point of the run's tables."""
    wanted = claim_metrics(claims)
    out = {}
    for (study, exp), rows in spread.groupby(["study", "experiment"]):
        mine = rows[rows["metric"].isin(wanted.get((study, exp), set()))]
        rows = rows[rows["ss"] > 0]  # a pool over every metric: those that vary
        if not len(mine) and not len(rows):
            continue
        if len(mine):  # the noisiest of its claims' metrics: one run's metrics are not independent
            per = {r.metric: _pooled(pd.DataFrame([r._asdict()])) for r in mine.itertuples()}
            top = max(per, key=lambda k: per[k]["cv"])
            entry = {**per[top], "points": int(mine["points"].sum()), "source": source, "metrics": per}
        else:  # pooled, at one metric's df: the runs counted once
            entry = {**_pooled(rows, int(rows["df"].max())), "points": int(rows["points"].sum()), "source": source,
                     "over": "every metric with spread (no claim's metric repeats here)"}
        out[f"{study}/{exp}"] = entry
    return out


def claim_estimates(results, claims, source):
    """claim id -> {cv, df, sd, source}: from each claim's own paired samples
    in results/claims/<study>.csv or <study>/<figure>.csv (noise_sd, noise_df: the within-point sd
    of one sample on the test's scale, pooled over its points), as the CV
    of one run the power check draws, so that its simulated samples are as
    noisy as the real ones were: whatever the two sides of a pair share
    (they run minutes apart, paper/README.md "Run order") is in it. A
    ratio's sample is two runs' noise (claims_prior.sample_sd); a slope's is
    linear, not a CV, and keeps its figure's."""
    by_id = {c["id"]: c for c in claims}
    out = {}
    # a study's verdicts and a figure's (a figure run alone, ./reproduce
    # lsm-eval/fig8): the newest file's samples of a claim are its noise
    files = [*Path(results, "claims").glob("*.csv"), *Path(results, "claims").glob("*/*.csv")]
    for f in sorted(files, key=lambda f: f.stat().st_mtime):
        table = pd.read_csv(f)
        if not {"noise_sd", "noise_df"} <= set(table.columns):
            continue
        for r in table.itertuples():
            claim = by_id.get(r.claim)
            if claim is None or not r.noise_df > 0 or not r.noise_sd >= 0:
                continue
            m = claim["measure"]
            if not log_scale(m) or m.get("statistic") == "slope":
                continue
            df = int(r.noise_df)
            cv = min(max(_up(upper_sd(r.noise_sd, df) / sample_sd(m, 1.0)), CV_FLOOR), 2.0)  # the schema's most
            out[r.claim] = {"cv": cv, "df": df,
                            "sd": round(float(r.noise_sd), 4), "source": source}
    return out


def read_run(results):
    """within_point of every tidy table under results/<scale>/tidy/<study>/<figure>.csv
    (each read on its own: figures have their own factor columns), and the files."""
    files = sorted(Path(results, "tidy").glob("*/*.csv"))
    if not files:
        raise InputError(results, "tidy", "tidy tables results/<scale>/tidy/<study>/<figure>.csv expected")
    from lsmrepro.tidy.table import read_tidy
    return pd.concat([within_point(read_tidy(str(f))) for f in files], ignore_index=True), files


def source_text(results, files):
    """Where an estimate came from, without this machine's paths: the
    scale's results, the newest table's date, and the commit measured at:
    that of the checkout the results folder lies in (another worktree's run
    is measured at its own commit, not this one's), "unknown" outside one."""
    when = datetime.fromtimestamp(max(f.stat().st_mtime for f in files), timezone.utc).strftime("%Y-%m-%d")
    commit = subprocess.run(["git", "-C", str(results), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip() or "unknown"
    return f"results/{Path(results).name} tidy of {when}, measured at commit {commit}"


def lines(measured, scale_cfg):
    """One line per figure with its estimate; then the figures the scale's
    noise declares without measurement."""
    for fig, e in sorted(measured.items()):
        per = ", ".join(f"{k} {v['cv']:g} (df {v['df']})" for k, v in sorted(e.get("metrics", {}).items()))
        yield (f"{fig}: cv {e['cv']:g} (upper {CONFIDENCE:.0%} bound; sd {e['sd']:g}, df {e['df']}, "
               f"{e['points']} point-metric cells){'; ' + per if per else ''}")
    declared = {k: v for k, v in scale_cfg.get("noise", {}).get("figures", {}).items()
                if k not in measured and not isinstance(v, dict)}
    for fig, cv in sorted(declared.items()):
        yield f"{fig}: cv {cv:g} declared (no repeated points in this run)"
    noise = scale_cfg.get("noise", {})
    if noise:
        studies_ = ", ".join(f"{k} {v:g}" for k, v in sorted(noise.get("studies", {}).items()))
        yield (f"declared for every other figure: {'studies ' + studies_ + '; ' if studies_ else ''}"
               f"default {noise['default']:g}")


def write(path, measured, claims=None):
    """Writes `measured` into the scale's measured file (`path`,
    config/scales/<scale>.measured.yaml) as noise.figures, and `claims`,
    each claim's own, as noise.claims, merged over what is there (figures
    or claims this run did not measure keep their entry from an earlier
    run); its claims_underpowered stays. The hand-set scale beside it must
    declare the noise these refine (its default)."""
    path = Path(path)
    scale = scale_measured.scale_of(path)
    hand = path.with_name(f"{scale}.yaml")
    if "noise" not in (load_yaml(hand) or {}):
        raise InputError(hand, "noise", "a noise section (with its default) for the measured noise of "
                                        f"{path.name} to refine")
    old = scale_measured.read(path, path.parent.parent).get("noise", {})
    scale_measured.write(path, figures={**old.get("figures", {}), **measured},
                         claims={**old.get("claims", {}), **claims} if claims else None)


def read_verdicts(run):
    """Every study's verdict table of a run folder (RUN/claims/<study>.csv), one frame."""
    paths = sorted(Path(run, "claims").glob("*.csv"))
    if not paths:
        raise InputError(Path(run, "claims"), None, "a claims/<study>.csv per study (lsmrepro.claims' verdicts)")
    return pd.concat([pd.read_csv(p) for p in paths], ignore_index=True)


def load_noise(claims_a, claims_b, z=1.6449):
    """Per figure ("study/figure"), the sd of a load's effect on a run's
    log value, from two runs' verdict tables of one commit's design where
    every point had one load: a claim's two estimates differ by their
    interval errors (se from each 90% half-width) plus one load draw each,
    so mean(d^2 - se1^2 - se2^2) / 2 is the estimate's load variance, and a
    ratio's is two runs' (a load per side): / 2 again. Claims on a log
    scale with an interval of non-zero width in both runs only; a figure
    whose excess is negative gets 0. Provisional: a claim averaging points
    on independent loads understates it."""
    both = claims_a.merge(claims_b, on=["study", "claim"], suffixes=("_a", "_b"))
    cols = [f"{c}_{s}" for c in ("measured", "ci_low", "ci_high") for s in "ab"]
    vals = both[cols].apply(pd.to_numeric, errors="coerce")
    ok = (vals > 0).all(axis=1) & (vals["ci_high_a"] > vals["ci_low_a"]) & (vals["ci_high_b"] > vals["ci_low_b"])
    both, vals = both[ok], np.log(vals[ok])
    se2 = sum(((vals[f"ci_high_{s}"] - vals[f"ci_low_{s}"]) / 2 / z) ** 2 for s in "ab")
    excess = (vals["measured_a"] - vals["measured_b"]) ** 2 - se2
    fig = both["study"] + "/" + both["figure_a"].astype(str).str.split(" ").str[0]
    out = {}
    for name, e in excess.groupby(fig):
        out[name] = (float(np.sqrt(max(e.mean(), 0.0) / 4)), len(e))
    return out
