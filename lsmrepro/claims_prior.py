"""The run-to-run noise a claim borrows when its own samples carry none (one
repetition a point: df 0), as a pilot study's variance: paper/README.md,
"The statistical rule", item 10.

In order: this run's own noise for the claim's figure and metrics (the
within-point sd of the figure's other points that were repeated), else the
noise measured for them at the scale (config/scales/<scale>.yaml `noise:`,
written by `--measure-noise` from an earlier run). Either way the sd is
its one-sided 80% upper bound (claims_noise.upper_sd) with the estimate's
df, the sd the power check draws, so a prior from few df does not flatter
a verdict. A declared noise is no measurement: without a measured one the
claim stays inconclusive."""
import math

from lsmrepro import claims_measure as cm
from lsmrepro.claims_noise import upper_sd
from lsmrepro.claims_spec import log_scale


def borrows(claim):
    """Only log-scale measures: the noise is a run's log sd (a CV). A
    slope's samples are linear, per repetition; it keeps df 0."""
    m = claim["measure"]
    return log_scale(m) and m.get("statistic") != "slope"


def sample_sd(m, run_sd):
    """One sample's sd on the test's scale from one run's log sd: a value is
    one run, every other kind a ratio of two runs."""
    return run_sd if m["kind"] == "value" else run_sd * math.sqrt(2)


def metrics(claim):
    m = claim["measure"]
    out = set()
    for key in cm.SELECTORS:
        wanted = m.get(key, {}).get("metric")
        out |= set(wanted if isinstance(wanted, list) else [wanted] if wanted else [])
    return out


def from_run(claim, spread):
    """(sample sd, df, where from) from `spread` (claims_noise.within_point
    of this run's tidy rows): the noisiest of the claim's metrics in the
    experiments it reads, over their repeated points; None when none was
    repeated."""
    if spread is None or spread.empty or not borrows(claim):
        return None
    rows = spread[(spread["study"] == claim["study"]) & spread["experiment"].isin(cm.experiments(claim))
                  & spread["metric"].isin(metrics(claim)) & (spread["df"] > 0)]
    if rows.empty:
        return None
    pooled = rows.groupby(["experiment", "metric"]).agg(ss=("ss", "sum"), df=("df", "sum"))
    pooled = pooled.assign(sd=(pooled["ss"] / pooled["df"]) ** 0.5)
    (exp, metric), top = next(pooled.sort_values("sd", ascending=False).iterrows())
    df = int(top["df"])
    up = upper_sd(float(top["sd"]), df)
    return sample_sd(claim["measure"], up), df, (f"this run's {claim['study']}/{exp} {metric} "
                                                 f"(a run's log sd {up:.3g} at its 80% upper bound, df {df})")


def from_scale(claim, scale_cfg, scale):
    """(sample sd, df, where from) from the scale's measured noise, or None
    when what the power check would use for the claim is declared."""
    if not borrows(claim) or not scale_cfg or "noise" not in scale_cfg:
        return None
    from lsmrepro.claims_power import noise_estimate
    cv, df, text = noise_estimate(scale_cfg, claim, scale)
    if not df:
        return None
    return sample_sd(claim["measure"], cv), df, f"config/scales/{scale}.yaml noise, {text} (CV {cv:g})"


def prior(claim, spread=None, scale_cfg=None, scale=None):
    return from_run(claim, spread) or from_scale(claim, scale_cfg, scale)
