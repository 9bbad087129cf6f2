"""Repetitions priced by cost (issue 52 item 3): per figure a claim reads,
k independent loads x r runs on each, from the two variance components and
the measured cost of a load and of a run.

Kalibera & Jones, "Rigorous Benchmarking in Reasonable Time" (ISMM 2013,
§5): with T1^2 the variance of a run within a load and T2^2 the variance of
a load's effect, c1 the cost of a run and c2 the cost of a load, the runs
per load that give the most precision per second are

    r = sqrt((c2 / c1) * (T1^2 / T2^2)),

rounded and kept in [1, MAX_RUNS_PER_LOAD] (T2 = 0: no load effect was
measured, so as many as the cap); the loads k then carry the precision
(the interval's df are k - 1 per point, lsmrepro/claims/measure.py
by_load): the repetitions the power check tuned at the scale (at least
MIN_LOADS) are split into k = their number / r loads, at least MIN_LOADS.

    python -m lsmrepro.claims.design --scale local

prints, per figure, c1 and c2 (lsmrepro.plan.targets.estimate from measured
job times: a figure's runs at one repetition and at two), T1 (noise.figures
sd) and T2 (load_noise), r, k and the lines of counts.figures they make,
then the scale's estimated wall time at that design."""
import argparse
import copy
import math

from lsmrepro.plan import studies
from lsmrepro.claims import measure as cm
from lsmrepro.claims.spec import load_claims
from base.errors import cli

MIN_LOADS = 2  # issue 52: every point a claim reads on at least two independent loads
MAX_RUNS_PER_LOAD = 6  # with no load variance measured, no more than this many runs share a load


def claimed_figures(claims):
    """(study, figure) of every experiment some claim reads, with runs."""
    out = set()
    for c in claims:
        specs = studies.figures(c["study"]) if studies.spec_path(c["study"]).is_file() else {}
        out |= {(c["study"], f) for f in cm.experiments(c) if f in specs and "ops" in specs[f]}
    return out


def runs_per_load(c_run, c_load, sd_run, sd_load):
    """Kalibera & Jones's optimal runs per load, in [1, MAX_RUNS_PER_LOAD];
    an unmeasured cost (0 s: the estimate has no job time for it) gives the
    cap, so no unpriced load is multiplied."""
    if c_run <= 0 or c_load <= 0:
        return MAX_RUNS_PER_LOAD
    if sd_load <= 0:
        return MAX_RUNS_PER_LOAD
    r = math.sqrt((c_load / c_run) * (sd_run ** 2 / sd_load ** 2))
    return int(min(MAX_RUNS_PER_LOAD, max(1, round(r))))


def _with(cfg, figs, reps, loads):
    out = copy.deepcopy(cfg)
    entries = out.setdefault("counts", {}).setdefault("figures", {})
    for s, f in figs:
        entry = entries.setdefault(f"{s}/{f}", {})
        entry["repetitions"] = reps if isinstance(reps, int) else reps[(s, f)]
        entry["load_repetitions"] = loads if isinstance(loads, int) else loads[(s, f)]
    return out


def costs(scale, cfg, figs, times):
    """(study, figure) -> (seconds of one run of every point, seconds of one
    load of every point): the figure priced alone at one repetition and at
    two on one load (lsmrepro.plan.targets.estimate)."""
    from lsmrepro.plan import targets
    results = studies.REPO / "results"
    one = targets.estimate(results, scale, scale_cfg=_with(cfg, figs, 1, 1), times=times)[0].set_index("target")
    two = targets.estimate(results, scale, scale_cfg=_with(cfg, figs, 2, 1), times=times)[0].set_index("target")
    out = {}
    for s, f in figs:
        a, b = float(one.loc[f"{s}/{f}", "seconds"]), float(two.loc[f"{s}/{f}", "seconds"])
        out[(s, f)] = (max(0.0, b - a), max(0.0, a - (b - a)))
    return out


def components(cfg, study, fig):
    """(T1, T2): a run's sd within a load (noise.figures, its sd, else its
    CV) and a load's (load_noise), both of the log value."""
    entry = cfg.get("noise", {}).get("figures", {}).get(f"{study}/{fig}")
    if isinstance(entry, dict):
        t1 = float(entry.get("sd", entry.get("cv", 0.1)))
    elif entry is not None:
        t1 = float(entry)
    else:
        t1 = float(cfg.get("noise", {}).get("studies", {}).get(study, cfg.get("noise", {}).get("default", 0.1)))
    return t1, float(cfg.get("load_noise", {}).get(f"{study}/{fig}", 0.0))


def design(scale, cfg, claims, times):
    """(study, figure) -> dict of the figure's costs, components, r, k and
    its repetitions now and at the design."""
    figs = sorted(claimed_figures(claims))
    priced = costs(scale, cfg, figs, times)
    out = {}
    for s, f in figs:
        spec = studies.figures(s)[f]
        have = studies.counts(cfg, s, f, spec)["repetitions"]
        c_run, c_load = priced[(s, f)]
        t1, t2 = components(cfg, s, f)
        r_opt = runs_per_load(c_run, c_load, t1, t2)
        # the repetitions the power check tuned stay (at least MIN_LOADS);
        # the formula splits them into loads x runs per load
        total = max(have, MIN_LOADS)
        k = max(MIN_LOADS, min(total, round(total / r_opt)))
        r = total / k
        out[(s, f)] = {"have": have, "loads_now": studies.load_repetitions(cfg, s, f, have), "c_run": c_run,
                       "c_load": c_load, "t1": t1, "t2": t2, "r_opt": r_opt, "r": r, "k": k,
                       "repetitions": total}
    return out


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", required=True)
    args = ap.parse_args(argv)
    from lsmrepro.plan import targets
    from lsmrepro.claims import power
    cfg = studies.load_scale(args.scale)
    times = power.job_times(args.scale)
    found = design(args.scale, cfg, load_claims(), times)
    for (s, f), d in sorted(found.items()):
        print(f"{s}/{f}: c_run {d['c_run']:.1f} s, c_load {d['c_load']:.1f} s, T1 {d['t1']:.3f}, T2 {d['t2']:.4f}"
              f" -> r {d['r_opt']}: repetitions {d['have']} on {d['loads_now']} load(s) -> "
              f"{d['repetitions']} on {d['k']} ({d['r']:.2g} runs a load)")
    figs = list(found)
    new = _with(cfg, figs, {x: d["repetitions"] for x, d in found.items()}, {x: d["k"] for x, d in found.items()})
    results = studies.REPO / "results"
    now = targets.estimate(results, args.scale, scale_cfg=cfg, times=times)[1]["seconds"].sum()
    then = targets.estimate(results, args.scale, scale_cfg=new, times=times)[1]["seconds"].sum()
    print(f"estimated wall time at scale {args.scale}: {now / 3600:.2f} h now, {then / 3600:.2f} h at this design")


if __name__ == "__main__":
    main()
