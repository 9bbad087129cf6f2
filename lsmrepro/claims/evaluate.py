"""Turns tidy data into a verdict per claim of paper/<study>/claims.yaml.

Each claim says what the paper reports (`paper`) and how a verdict follows
from it (`rule`); its `measure` selects tidy rows, reduced to samples per
pairing group (lsmrepro/claims/measure.py); the rule's tests
(lsmrepro/claims/rule.py, lsmrepro/claims/stats.py) decide:
  reproduced      the 90% interval inside the paper's band (TOST), or
                  wholly on the claimed side of a direction;
  not reproduced  wholly outside the band / on the wrong side / no effect
                  (per member after Holm's correction);
  inconclusive    neither, or no repetitions to estimate noise;
  no data         the claim selected no rows (never "reproduced").
paper/README.md ("The statistical rule") gives each band and test.

    python -m lsmrepro.claims --study baseline --tidy results/local/tidy/baseline.csv \\
        --out-csv ... --out-md ...
    python -m lsmrepro.claims --study bourbon --figure fig12 --tidy results/local/tidy/bourbon/fig12.csv ...
    python -m lsmrepro.claims --power --scale local [--study S] [--claims FILE ...]
    python -m lsmrepro.claims --power --scale local --write-underpowered   (the flag's list)
    python -m lsmrepro.claims --power --scale local --floor
    python -m lsmrepro.claims --measure-noise results/local [--write config/scales/local.measured.yaml]
    python -m lsmrepro.claims --load-noise RUN_A RUN_B        (each figure's load sd, for load_noise:)
"""
import argparse
import json
import math
import sys

import pandas as pd

from lsmrepro.claims import measure as cm
from lsmrepro.claims import noise as claims_noise
from lsmrepro.claims import prior as claims_prior
from lsmrepro.claims import rule
from lsmrepro.claims import spec
from lsmrepro.claims import stats
from lsmrepro.plan import studies
from lsmrepro.claims import verdict_text as vt
from lsmrepro.tidy import regime
from base.atomic import atomic_path, write_text
from lsmrepro.claims.measure import experiments  # noqa: F401 (re-exported)
from lsmrepro.claims.spec import claim_files, load_claims  # noqa: F401 (re-exported)
from base.errors import InputError, cli

VERDICTS = ("reproduced", "not reproduced", "inconclusive", "no data")
VERDICT_COLUMNS = ["study", "claim", "paper", "section", "figure", "statement", "expected", "measured",
                   "ci_low", "ci_high", "n", "unit", "verdict", "underpowered", "loads", "detail", "runs", "evidence",
                   "paper_value", "paper_source", "rule", "context", "members", "noise_sd", "noise_df",
                   # the regime the claim depends on and whether this run reached it
                   # (lsmrepro/tidy/regime.py claim_regime); never the verdict
                   "regime", "regime_reached"]


def evaluate(claim, tidy, prior=None, loads=None):
    """The verdict fields of one claim: the aggregate (measured, 90%
    interval), the verdict, each member's, the context, the evidence.
    prior: claim -> the noise it borrows when its samples have df 0
    (lsmrepro/claims/prior.py), or None. loads: the number of independent
    loads of the claim's figures (loads_of), None: each repetition its own.
    From two loads on, the interval is built from per-load means, df from
    loads (Kalibera & Jones, "Rigorous Benchmarking in Reasonable Time",
    ISMM 2013): the load's variance is in it. On one load, a quantity its
    runs all read from that load (once_per_load) has no variance estimate
    and borrows none: one measurement is not exact."""
    m = claim["measure"]
    parts, not_points = cm.samples(m, tidy, claim["id"])
    cells, dropped = {}, 0
    for name, s in parts.items():
        cells[name], d = cm.cells(m, s, not_points, loads=loads)
        dropped += d
    flat = [x for pts in cells.values() for x in pts]
    # n counts runs, not load means: `loads` says how many loads they came from
    runs_n = sum(x.shape[-1] for s in parts.values() for x in cm.cells(m, s, not_points)[0])
    once = loads == 1 and cm.once_per_load(flat)
    if once:
        cells = {k: [x[..., :1] for x in pts] for k, pts in cells.items()}
    r = rule.decide(claim, cells)
    if r["n"] and not r["df"] and prior is not None and not once:
        r = rule.decide(claim, cells, prior(claim))
    back = lambda x: spec.from_scale(m, float(x[0]))  # noqa: E731
    out = {"measured": back(r["est"]), "ci_low": back(r["low"]), "ci_high": back(r["high"]), "n": r["n"],
           "verdict": str(r["verdict"][0]), "df": r["df"], "own_df": r["own_df"], "borrowed": r.get("borrowed"),
           "unpaired": r.get("unpaired", []), "sd": float(r["sd"][0]), "once_per_load": once,
           "loads": (1 if loads == 1 else min(x.shape[-1] for x in flat)) if flat else 0}
    out["n"] = runs_n if r["n"] else 0
    out["exact"] = bool(out["loads"] >= 2 and r["own_df"] and out["sd"] == 0)
    out["members"] = {k: {"value": back(v["est"]), "low": back(v["low"]), "high": back(v["high"]),
                          **({"verdict": str(v["verdict"][0])} if "verdict" in v else {}),
                          **({"paper": claim["paper"]["members"][k]} if "members" in claim["paper"] else {})}
                      for k, v in r["members"].items()}
    out["detail"] = _detail(claim, out, dropped)
    out["context"] = "; ".join(f"{c['label']}: {_context(c['measure'], tidy, claim['id'])}" for c in claim.get("context", []))
    sources = ";".join(filter(None, (s.evidence()[0] for s in parts.values())))
    runs = ";".join(filter(None, (s.evidence()[1] for s in parts.values())))
    out["evidence"] = cm.join_lists(pd.Series([sources]))
    out["runs"] = cm.join_lists(pd.Series([runs]))
    return out


def _context(m, tidy, cid):
    """A context metric as "value [low, high]": the mean over its points of
    the point means, 90% t interval with the variance pooled over its
    points, never judged. Linear, not log: a context may be 0 (no
    compaction in the phase)."""
    parts, not_points = cm.samples(m, tidy, f"{cid}.context")
    cells = [x for s in parts.values() for x in cm.cells(m, s, not_points, log=False)[0]]
    if not cells:
        return "no data"
    s2, df = stats.pooled_variance(cells)
    est, se = stats.combination(cells, [1 / len(cells)] * len(cells), s2)
    hw = stats.half_width(se, df)
    if spec.relative_change(m):  # the samples are value(to) / value(from); shown as the change
        est = est - 1
    return f"{_fmt(float(est[0]))} [{_fmt(float(est[0] - hw[0]))}, {_fmt(float(est[0] + hw[0]))}]"


def _detail(claim, out, dropped):
    parts = []
    mem = out["members"]
    if "range" in claim["paper"] and mem:
        have = {k: v for k, v in mem.items() if not math.isnan(v["value"])}
        if have:
            lo, hi = min(have, key=lambda k: have[k]["value"]), max(have, key=lambda k: have[k]["value"])
            parts.append(f"set min {lo} {_fmt(have[lo]['value'])} [{_fmt(have[lo]['low'])}, {_fmt(have[lo]['high'])}], "
                         f"max {hi} {_fmt(have[hi]['value'])} [{_fmt(have[hi]['low'])}, {_fmt(have[hi]['high'])}]")
    elif rule.per_member(claim) and mem:
        done = sum(v.get("verdict") == "reproduced" for v in mem.values())
        parts.append(f"{done} of {len(mem)} members reproduced")
    if mem:
        parts.append("; ".join(f"{k}: {_fmt(v['value'])} [{_fmt(v['low'])}, {_fmt(v['high'])}]"
                               + (f" {v['verdict']}" if "verdict" in v else "") for k, v in mem.items()))
    if out["unpaired"]:
        parts.append(f"left out, no paired samples in this run: {', '.join(out['unpaired'])}")
    if out["once_per_load"]:
        parts.append("measured once per load, on one load: no estimate of its load-to-load variance (df 0)")
    elif out["exact"]:
        parts.append(f"exact: the same bytes on each of its {out['loads']} loads")
    elif out["n"] and not out["df"]:
        parts.append("no repetitions to estimate noise (df 0)")
    elif out["n"] and out["borrowed"]:
        parts.append(f"one repetition a point: noise borrowed from {out['borrowed']}")
    elif out["n"]:
        # the noise the power check assumes (config/scales noise:) can be
        # calibrated from this: a ratio's sd is sqrt(2) CV on the log scale
        scale = "log" if spec.log_scale(claim["measure"]) else "linear"
        unit = f"per-load means of {out['loads']} loads" if out["loads"] >= 2 else "runs of one load"
        parts.append(f"pooled df {out['df']}, sd {_fmt(out['sd'])} ({scale}, {unit})")
    if dropped:
        parts.append(f"{dropped} non-positive samples dropped (log scale)")
    return "; ".join(parts)


def _finite(members):
    """JSON has no NaN: a member without data has null value and bounds."""
    return {k: {f: (None if isinstance(x, float) and math.isnan(x) else x) for f, x in v.items()}
            for k, v in members.items()}


def expected_text(claim):
    """What the paper says and the band the rule derives from it."""
    m, paper, r = claim["measure"], claim["paper"], claim["rule"]
    fmt = lambda lo, hi: f"[{_fmt(spec.from_scale(m, lo))}, {_fmt(spec.from_scale(m, hi))}]"  # noqa: E731
    if r["kind"] == "bound":
        return spec.rule_text(r, m)[len("bound "):]
    if r["kind"] == "direction":
        lo, hi = spec.no_effect(m, r)
        side = ">" if paper["direction"] == "greater" else "<"
        return f"{side} {r['than']:g}, outside {fmt(lo, hi)}" + (" per member" if rule.per_member(claim) else "")
    if "value" in paper:
        return f"in {fmt(*spec.band(m, paper['value'], r['tolerance']))}"
    if "members" in paper:
        return "each member in " + ", ".join(f"{k} {fmt(*spec.band(m, v, r['tolerance']))}" for k, v in paper["members"].items())
    ends = [f"set {name} in {fmt(*spec.band(m, v, r['tolerance']))}"
            for name, v in zip(("min", "max"), paper["range"]) if v is not None]
    return ", ".join(ends)


def paper_value_text(paper):
    mark = " (approx.)" if paper.get("approximate") else ""
    if "value" in paper:
        return f"{paper['value']:g}{mark}"
    if "members" in paper:
        return ", ".join(f"{k}: {v:g}" for k, v in paper["members"].items()) + mark
    if "range" in paper:
        lo, hi = paper["range"]
        text = f"up to {hi:g}" if lo is None else f"at least {lo:g}" if hi is None else f"{lo:g}–{hi:g}"
        return text + mark
    return f"{paper['direction']} (sign only)"


def check(study, tidy, claims, figure=None, scale=None, scale_cfg=None):
    """The verdicts of a study's claims (of one figure's, if given); a claim
    with one repetition a point borrows this run's or the scale's measured
    noise (lsmrepro/claims/prior.py)."""
    rows = []
    paper = studies.registry().get(study, {}).get("paper", "")
    spread = []  # this run's within-point noise, computed once, when a claim first needs it
    regime_rows = _regime_rows(tidy)

    def prior(claim):
        if not spread:
            # figure by figure, as --measure-noise reads them: each has its own factor columns
            spread.append(pd.concat([claims_noise.within_point(t.dropna(axis=1, how="all"))
                                     for _, t in tidy.groupby("experiment")], ignore_index=True)
                          if len(tidy) and {"study", "experiment"} <= set(tidy.columns) else None)
        return claims_prior.prior(claim, spread[0], scale_cfg, scale)

    for claim in claims:
        if claim["study"] != study or figure not in (None, claim["figure"]):
            continue
        r = evaluate(claim, tidy, prior, cm.loads_of(claim, scale_cfg))
        fig = studies.figures(study).get(claim["figure"], {}) if studies.spec_path(study).is_file() else {}
        rows.append({
            "study": study, "claim": claim["id"], "paper": paper, "section": claim["section"],
            "figure": f"{claim['figure']} ({fig.get('paper_figure', '—')})", "statement": claim["statement"],
            "expected": expected_text(claim), "measured": r["measured"], "ci_low": r["ci_low"], "ci_high": r["ci_high"],
            "n": r["n"], "unit": claim.get("unit", ""), "verdict": r["verdict"], "underpowered": "", "loads": r["loads"],
            "detail": r["detail"],
            "runs": r["runs"], "evidence": r["evidence"],
            "paper_value": paper_value_text(claim["paper"]), "paper_source": " ".join(claim["paper"]["source"].split()),
            "rule": spec.rule_text(claim["rule"], claim["measure"]), "context": r["context"],
            "members": json.dumps(_finite(r["members"])) if r["members"] else "",
            # one sample's sd on the test's scale, pooled over the claim's
            # points: --measure-noise gives it to the power check (never a
            # borrowed one)
            "noise_sd": r["sd"] if r["own_df"] else math.nan, "noise_df": r["own_df"],
            **_regime_fields(claim, study, regime_rows),
        })
    return pd.DataFrame(rows, columns=VERDICT_COLUMNS)


def _regime_rows(tidy):
    """The tidy rows the regime rule reads, as dicts (lsmrepro/tidy/regime.py)."""
    if not len(tidy) or "metric" not in tidy.columns:
        return []
    keep = tidy[tidy["metric"].isin(regime.METRICS + ("dataset_keys",))]
    # the run's factor columns too: a claim's regime is measured on the runs it selects
    keep = keep.drop(columns=[c for c in ("source", "note", "unit") if c in keep.columns])
    return keep.to_dict("records") if len(keep) else []


def _regime_fields(claim, study, rows):
    """regime (the conditions, space-separated) and regime_reached (yes / no / n.a.)."""
    if not studies.spec_path(study).is_file():
        return {"regime": " ".join(claim.get("regime", [])), "regime_reached": "n.a."}
    names, reached, _ = regime.claim_regime(claim, studies.figures(study), rows, studies.spec_path(study))
    return {"regime": " ".join(names), "regime_reached": reached if names else "n.a."}


def flag_underpowered(verdicts, scale, scale_cfg, claims):
    """`underpowered` = yes beside the verdict of each claim the scale's
    power check found unable to decide there (its claims_underpowered,
    written by --power --write-underpowered); the verdict stays the data's:
    a TOST decision from an honest interval is valid at any power, power only
    says how often a claim will decide."""
    from lsmrepro.claims import power as claims_power
    under = claims_power.underpowered(scale, scale_cfg, claims)
    out = verdicts.copy()
    out["underpowered"] = out["claim"].isin(under).map({True: "yes", False: ""})
    return out


def _fmt(v):
    return "—" if isinstance(v, float) and math.isnan(v) else f"{v:.4g}"


def to_markdown(verdicts):
    """The verdicts as one table under the paper they are about: the paper's
    number beside ours, the rule, the context metrics of the same runs."""
    papers = sorted(set(verdicts["paper"].dropna().astype(str)) - {""})
    cited = "".join(f"Paper: {p}\n\n" for p in papers)
    rows = verdicts.to_dict("records")
    shown = pd.DataFrame({
        "claim": verdicts["claim"],
        "statement": verdicts["statement"] + " (" + verdicts["section"] + ", " + verdicts["figure"] + ")",
        "paper": verdicts["paper_value"],
        "rule (band)": verdicts["rule"] + ": " + verdicts["expected"],
        "measured (90% CI)": [vt.ours(r) for r in rows],
        "verdict": ["**" + r["verdict"] + "**" + vt.verdict(r)[len(r["verdict"]):] for r in rows],
        "context": verdicts["context"].fillna(""),
        "regime reached": [_regime_text(r) for r in rows],
    })
    return cited + shown.to_markdown(index=False) + "\n"


def _regime_text(row):
    """"yes (tree_depth)" — whether the claim's regime was reached, and which."""
    reached, names = row.get("regime_reached"), row.get("regime")
    if not isinstance(reached, str) or not reached:
        return ""
    return f"{reached} ({names})" if isinstance(names, str) and names else reached


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--study", help="the study whose claims to judge (with --power: only its claims)")
    ap.add_argument("--figure", help="only this figure's claims")
    ap.add_argument("--tidy", nargs="+", help="the tidy table(s): the study's, or the experiments' the claims read")
    ap.add_argument("--claims", nargs="+", help="claims files (default: every study's paper/<study>/claims.yaml)")
    ap.add_argument("--out-csv")
    ap.add_argument("--out-md")
    ap.add_argument("--scale", help="the scale: its claims_without_data explain a 'no data' verdict; with --power, "
                                    "its repetitions and noise are simulated")
    ap.add_argument("--power", action="store_true",
                    help="simulate every claim at --scale: can it pass at the paper's value and fail outside? "
                         "(exit 1 when not, naming the fix)")
    ap.add_argument("--measure-noise", metavar="RESULTS",
                    help="estimate each figure's run-to-run noise from RESULTS/tidy (results/<scale>)")
    ap.add_argument("--write", metavar="MEASURED_YAML",
                    help="with --measure-noise: write it into that scale's measured file's noise: "
                         "(config/scales/<scale>.measured.yaml)")
    ap.add_argument("--floor", action="store_true",
                    help="with --power: also the fewest repetitions per figure that keep every deciding claim "
                         "deciding, and the scale's estimated wall time now and then")
    ap.add_argument("--write-underpowered", action="store_true",
                    help="with --power (every study): write the claims it finds failing, with its probabilities and "
                         "their price, as config/scales/<scale>.measured.yaml claims_underpowered (replacing the list): "
                         "the verdicts flag them underpowered, never change them")
    ap.add_argument("--load-noise", nargs=2, metavar=("RUN_A", "RUN_B"),
                    help="print each figure's load sd (noise.load_noise) from two runs' claims/ of one design, "
                         "as the lines of a scale's load_noise:")
    args = ap.parse_args(argv)
    from lsmrepro.plan.studies import load_scale
    if args.load_noise:
        found = claims_noise.load_noise(*(claims_noise.read_verdicts(d) for d in args.load_noise))
        for fig, (sd, n) in sorted(found.items()):
            print(f"  {fig}: {sd:.4f}  # from {n} claims")
        return
    if args.measure_noise:
        return _measure_noise(args.measure_noise, args.write)
    if args.power:
        if not args.scale:
            ap.error("--power needs --scale")
        from lsmrepro.claims import power as claims_power
        files = args.claims or claim_files(args.study)
        mine = [c for c in load_claims(files) if args.figure in (None, c["figure"])]
        if args.write_underpowered:
            if args.study or args.figure or args.claims:
                ap.error("--write-underpowered judges every claim: drop --study, --figure and --claims")
            return _write_underpowered(args.scale, mine)
        if claims_power.check(args.scale, load_scale(args.scale), mine, args.study, with_floor=args.floor):
            sys.exit(1)
        return
    missing = [f"--{k.replace('_', '-')}" for k in ("study", "tidy", "out_csv", "out_md") if not getattr(args, k)]
    if missing:
        ap.error(f"{', '.join(missing)} required (or --power --scale S)")
    from lsmrepro.tidy.table import read_tidy
    scale_cfg = load_scale(args.scale) if args.scale else None
    verdicts = check(args.study, read_tidy(args.tidy), load_claims(args.claims), args.figure, args.scale, scale_cfg)
    if args.scale:
        reasons = scale_cfg.get("claims_without_data", {})
        no_data = verdicts["verdict"] == "no data"
        verdicts.loc[no_data, "detail"] = verdicts.loc[no_data, "claim"].map(reasons).fillna(verdicts.loc[no_data, "detail"])
        verdicts = flag_underpowered(verdicts, args.scale, scale_cfg, load_claims(args.claims))
    with atomic_path(args.out_csv) as tmp:
        verdicts.to_csv(tmp, index=False)
    write_text(args.out_md, to_markdown(verdicts))
    for _, r in verdicts.iterrows():
        print(f"claims: {r.claim}: {r.verdict} ({_fmt(r.measured)} vs {r.expected})", file=sys.stderr)


def _write_underpowered(scale, claims):
    """The power check with the scale's list left out, its failing claims
    written as the new list; the check then passes (the summary still says
    how many claims are set apart)."""
    from lsmrepro.claims import power as claims_power
    from lsmrepro.plan import scale_measured
    from lsmrepro.plan.studies import CONFIG_DIR, load_scale
    cfg = {k: v for k, v in load_scale(scale).items() if k != "claims_underpowered"}
    reasons = {}
    claims_power.check(scale, cfg, claims, reasons=reasons)
    path = scale_measured.path_of(CONFIG_DIR / "scales" / f"{scale}.yaml")
    claims_power.write_underpowered(path, reasons)
    print(f"claims: {len(reasons)} claims written to {path} claims_underpowered", file=sys.stderr)


def _measure_noise(results, write):
    from pathlib import Path
    from lsmrepro.plan.studies import load_scale
    spread, files = claims_noise.read_run(results)
    source = claims_noise.source_text(results, files)
    every_claim = load_claims(claim_files())
    measured = claims_noise.estimate(spread, every_claim, source)
    own = claims_noise.claim_estimates(results, every_claim, source)
    from lsmrepro.plan import scale_measured
    scale = scale_measured.scale_of(write) if write else Path(results).name
    if write and Path(results).name != scale:  # another scale's noise (ops, sizes) is not this one's
        raise InputError(results, "--write", f"the results of scale {scale} (results/{scale}) for "
                         f"{write}, got those of {Path(results).name}")
    known = write or (studies.CONFIG_DIR / "scales" / f"{scale}.yaml").is_file()
    for line in claims_noise.lines(measured, load_scale(scale, Path(write).parent.parent if write else studies.CONFIG_DIR)
                                   if known else {}):
        print(line)
    for cid, e in sorted(own.items()):
        print(f"{cid}: cv {e['cv']:g} from its own paired samples (sd {e['sd']:g}, df {e['df']})")
    if not measured:
        print(f"{results}: no point of any figure has two repetitions: nothing measured, the declared noise stands")
    elif write:
        claims_noise.write(write, measured, own)


if __name__ == "__main__":
    main()
