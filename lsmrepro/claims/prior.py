"""The run-to-run noise a claim borrows when its own samples carry none (one
repetition a point: df 0), as a pilot study's variance: paper/README.md,
"The statistical rule", item 10.

In order: this run's own noise for the claim's figure and metrics (the
within-point sd of the figure's other points that were repeated), else the
noise measured for them at the scale (config/scales/<scale>.measured.yaml
`noise:`, written by `--measure-noise` from an earlier run). Either way the sd is
its one-sided 80% upper bound (upper_sd) with the estimate's
df, the sd the power check draws, so a prior from few df does not flatter
a verdict. A declared noise is no measurement: without a measured one the
claim stays inconclusive."""
import math

from scipy import stats as sps

from base.errors import InputError
from lsmrepro.claims import measure as cm
from lsmrepro.claims.spec import log_scale
from lsmrepro.plan import scale_measured

CONFIDENCE = 0.8  # an estimated sd's one-sided upper bound level


def upper_sd(sd, df, confidence=CONFIDENCE):
    """The one-sided upper confidence bound of sigma from a pooled sd with df
    degrees of freedom: sd * sqrt(df / chi2_{1-confidence}(df))."""
    return sd * math.sqrt(df / sps.chi2.ppf(1 - confidence, df))


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


def noise_estimate(scale_cfg, claim, scale):
    """(CV of one run's metric for a claim, the df it was measured at or
    None where declared, where it came from), from
    config/scales/<scale>.yaml `noise:`: the CV measured from the claim's
    own paired samples (noise.claims), else its figure's measured CV of every
    metric it selects (the largest), else the declared CV of every metric
    it selects (sizes one load fixes), else its figure's (measured or
    declared; a claim reading other experiments: the largest of theirs),
    else its study's, else the default."""
    noise = scale_cfg.get("noise")
    if noise is None:
        raise InputError(f"config/scales/{scale}.yaml", "noise", "a noise section (default CV of one run's "
                         "metric) expected for --power")
    own = noise.get("claims", {}).get(claim["id"])
    if own is not None:
        return own["cv"], own["df"], f"its own paired samples measured (df {own['df']})"
    per_metric, study = noise.get("metrics", {}), claim["study"]
    wanted = metrics(claim)
    figs = noise.get("figures", {})
    names = [f"{study}/{claim['figure']}"]
    names = names if names[0] in figs else [f"{study}/{e}" for e in sorted(cm.experiments(claim)) if f"{study}/{e}" in figs]
    entries = {n: figs[n] for n in names if n in figs}
    measured = {n: e.get("metrics", {}) for n, e in entries.items() if isinstance(e, dict)}
    if wanted and measured and all(wanted <= set(per) for per in measured.values()):
        n, x = max(((n, per[x]) for n, per in measured.items() for x in wanted), key=lambda t: t[1]["cv"])
        return x["cv"], x["df"], f"{n} measured for its metrics (df {x['df']})"
    if wanted and wanted <= set(per_metric):
        return max(per_metric[x] for x in wanted), None, "its metrics declared"
    if entries:
        n, e = max(entries.items(), key=lambda t: t[1]["cv"] if isinstance(t[1], dict) else t[1])
        return (e["cv"], e["df"], f"{n} measured (df {e['df']})") if isinstance(e, dict) else (e, None, f"{n} declared")
    if study in noise.get("studies", {}):
        return noise["studies"][study], None, f"study {study} declared"
    return noise["default"], None, "default declared"


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
    cv, df, text = noise_estimate(scale_cfg, claim, scale)
    if not df:
        return None
    # measured noise (it has a df) is the tool-written half of the scale
    return sample_sd(claim["measure"], cv), df, f"{scale_measured.shown(scale)} noise, {text} (CV {cv:g})"


def prior(claim, spread=None, scale_cfg=None, scale=None):
    return from_run(claim, spread) or from_scale(claim, scale_cfg, scale)
