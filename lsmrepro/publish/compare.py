"""A run beside the reference run: claims, figures and the two machines.

    python -m lsmrepro.publish.compare --scale smoke --reference results/reference/local \\
        [--results results | --ours <a run's folder>] [--out-dir results/smoke/compare]

Both folders have the layout of results/<scale>/ (claims/<study>.csv,
tidy/<study>.csv or .csv.gz, hardware/fingerprint.json and calibration.csv,
tables/<study>/regime.csv where there).
Writes claims.csv (claim by claim, a verdict that differs first, then
claims whose two 90% intervals are disjoint),
figures.csv (per study, experiment and main metric: the geometric mean of
the ratios ours/reference of the metric's mean per matched point, and
whether each run reached the paper's regime),
machines.csv (the two fingerprints and fio calibrations side by side),
expected.csv (per figure, the disjoint intervals and flips observed beside
the counts the interval model expects, expected_counts) and
index.md (all four), and prints index.md.
"""
import argparse
import json
from pathlib import Path

import humanfriendly
import numpy as np
import pandas as pd
from scipy import stats as sps

from base.atomic import atomic_path, write_text
from base.errors import InputError, cli

# The metrics a figure plots in most studies; the others (step timers,
# counters) would swamp a figure's row with quantities no figure shows.
MAIN_METRICS = ("latency_mean", "run_throughput", "index_bytes")
# A tidy row's point of measurement, the same on both machines.
MATCH = ["experiment", "point", "metric", "op", "subset"]
SIDES = ("ours", "reference")
# Per claim and side: what the verdict CSV says about it.
CLAIM_FIELDS = ["verdict", "measured", "ci_low", "ci_high", "n"]
LEVEL = 0.90  # the two-sided level of a verdict's interval (lsmrepro/claims/stats.py ALPHA)
DECIDED = {"reproduced", "not reproduced"}
# fio measurements shown per machine (hardware.calibration_plot's columns).
CALIBRATION = ["iops", "bandwidth_MiBps", "clat_mean_us"]


def _csv(path, expected):
    try:
        return pd.read_csv(path, keep_default_na=False, na_values=[""], low_memory=False)
    except FileNotFoundError:
        raise InputError(path, None, f"missing: {expected}")
    except (OSError, ValueError) as e:
        raise InputError(path, None, f"{expected} ({e})")


def claims(folder):
    """Every study's verdicts in `folder`, one table: claims/<study>.csv, or
    for a study only figure targets judged (`./reproduce <study>/<figure>`)
    its claims/<study>/<figure>.csv files, each claim once. Column `whole`
    says which (False: a study judged only in part), `file` the file
    (<study> or <study>/<figure>)."""
    base = Path(folder, "claims")
    whole = {p.stem: p for p in sorted(base.glob("*.csv"))}
    parts = {d.name: sorted(d.glob("*.csv")) for d in sorted(base.glob("*")) if d.is_dir() and d.name not in whole}
    if not whole and not any(parts.values()):
        raise InputError(base, None, "a claims/<study>.csv per study, or claims/<study>/<figure>.csv of "
                         "figure targets (lsmrepro.claims' verdicts); none found")
    tables = [_claims_csv(p).assign(whole=True, file=p.stem) for p in whole.values()]
    tables += [_claims_csv(p).assign(whole=False, file=f"{p.parent.name}/{p.stem}") for ps in parts.values() for p in ps]
    return pd.concat(tables, ignore_index=True).drop_duplicates(["study", "claim"]).reset_index(drop=True)


def _claims_csv(path):
    t = _csv(path, "a verdict table of lsmrepro.claims")
    missing = [c for c in ["study", "claim", *CLAIM_FIELDS] if c not in t.columns]
    if missing:
        raise InputError(path, ", ".join(missing), "the columns of a verdict table of lsmrepro.claims")
    return t


def judged_alike(ours, ref):
    """In a study either side judged only through figure targets, both
    sides narrowed to the claims both judged (a claim one side lacks in a
    study both judged whole, or a study one side lacks, still shows as
    absent). Returns (ours, ref, left): left counts the claims dropped, so
    a figure's rerun is not read as every other claim gone missing."""
    partial = {s for t in (ours, ref) for s in t.loc[~t["whole"], "study"]}
    both = set(zip(ours["study"], ours["claim"])) & set(zip(ref["study"], ref["claim"]))

    def keep(t):
        pair = pd.Series(list(zip(t["study"], t["claim"])), index=t.index)
        return t[~t["study"].isin(partial) | pair.isin(both)]
    a, b = keep(ours), keep(ref)
    return a, b, len(ours) + len(ref) - len(a) - len(b)


def _intervals(both):
    """Per claim: whether the two runs' intervals share a value ("overlap"),
    do not ("disjoint"), or one side has none (""). Each interval comes
    from its run's repetitions over one load, so disjoint intervals of one
    scale measure what a run's interval leaves out (paper/README.md, "What
    a run's interval does not hold")."""
    lo = [pd.to_numeric(both[f"ci_low_{s}"], errors="coerce") for s in SIDES]
    hi = [pd.to_numeric(both[f"ci_high_{s}"], errors="coerce") for s in SIDES]
    known = pd.concat(lo + hi, axis=1).notna().all(axis=1)
    disjoint = (hi[0] < lo[1]) | (hi[1] < lo[0])
    return np.where(~known, "", np.where(disjoint, "disjoint", "overlap"))


def compare_claims(ours, ref):
    """One row per claim of either side; a verdict that differs (or a claim
    one side lacks) first, then the claims whose intervals are disjoint."""
    keep = ["study", "claim", *CLAIM_FIELDS]
    both = ours[keep + ["figure", "statement"]].merge(ref[keep + ["figure", "statement"]], on=["study", "claim"],
                                                      how="outer", suffixes=("_ours", "_reference"))
    for col in ("figure", "statement"):
        both[col] = both[f"{col}_ours"].fillna(both[f"{col}_reference"])
    for side in SIDES:
        both[f"verdict_{side}"] = both[f"verdict_{side}"].fillna("absent")
    both["differs"] = both["verdict_ours"] != both["verdict_reference"]
    both["intervals"] = _intervals(both)
    both["_disjoint"] = both["intervals"] == "disjoint"
    cols = ["study", "claim", "figure", "differs", "intervals"] + \
        [f"{f}_{s}" for s in SIDES for f in CLAIM_FIELDS] + ["statement"]
    order = both.sort_values(["differs", "_disjoint", "study", "claim"], ascending=[False, False, True, True])
    return order[cols].reset_index(drop=True)


def p_disjoint(both):
    """Per claim, the chance that two runs' 90% intervals are disjoint if
    each held what it says: the two estimates of one truth differ by
    d ~ N(0, se1^2 + se2^2), se from each half-width (normal quantile: df
    is not in a verdict table, so it slightly overstates se at few df and
    the chance with it), disjoint when |d| > h1 + h2. About 2% for equal
    widths; 0 where a side has no interval or both are exact (width 0)."""
    z = sps.norm.ppf(0.5 + LEVEL / 2)
    h = [(pd.to_numeric(both[f"ci_high_{s}"], errors="coerce") - pd.to_numeric(both[f"ci_low_{s}"], errors="coerce")) / 2
         for s in SIDES]
    se = np.sqrt((h[0] / z) ** 2 + (h[1] / z) ** 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = 2 * sps.norm.sf((h[0] + h[1]) / se)
    return pd.Series(np.where(se > 0, p, 0.0), index=both.index).fillna(0.0)


def expected_counts(cl):
    """Per figure (study, figure) and in all: observed against expected
    under the interval model (p_disjoint): disjoint intervals; and
    reproduced <-> not reproduced flips, whose expected count is bounded by
    the expected disjoint count of the claims decided in both runs (a
    reproduced interval lies inside the band and a not reproduced one
    outside it, so a flip needs disjoint intervals, but for a direction
    claim's no-effect band). `exceeds`: observed above the 95% upper
    quantile of a Poisson count with the expected mean."""
    cl = cl.assign(_p=p_disjoint(cl), _disjoint=cl["intervals"] == "disjoint",
                   _decided=cl["verdict_ours"].isin(DECIDED) & cl["verdict_reference"].isin(DECIDED))
    cl["_flip"] = cl["_decided"] & (cl["verdict_ours"] != cl["verdict_reference"])
    rows = []
    groups = [("all", cl)] + [(f"{s}/{str(f).split(' ')[0]}", g) for (s, f), g in cl.groupby(["study", "figure"])]
    for name, g in groups:
        exp_d = float(g["_p"].sum())
        exp_f = float(g.loc[g["_decided"], "_p"].sum())
        obs_d, obs_f = int(g["_disjoint"].sum()), int(g["_flip"].sum())
        rows.append({"figure": name, "claims": len(g), "intervals_both": int(g["intervals"].isin(["overlap", "disjoint"]).sum()),
                     "disjoint": obs_d, "disjoint_expected": round(exp_d, 2),
                     "flips": obs_f, "flips_expected_at_most": round(exp_f, 2),
                     "changed": int(g["differs"].sum()),
                     "exceeds": "yes" if obs_d > sps.poisson.ppf(0.95, exp_d) or obs_f > sps.poisson.ppf(0.95, exp_f)
                     else ""})
    return pd.DataFrame(rows)


def expected_text(exp):
    """The counts as the model predicts them, and the figures that exceed them."""
    a = exp.iloc[0]
    over = exp[(exp["figure"] != "all") & (exp["exceeds"] == "yes")]["figure"].tolist()
    return (f"observed {a['disjoint']} disjoint 90% intervals, {a['disjoint_expected']:.1f} expected under the "
            f"interval model; {a['flips']} reproduced <-> not reproduced flips, at most "
            f"{a['flips_expected_at_most']:.1f} expected; {a['changed']} changed verdicts (no model count: an "
            f"inconclusive verdict's chance needs the band, not in a verdict table). Figures above the model "
            f"(Poisson 95%): {', '.join(over) or 'none'}")


def tidy(folder, study):
    """The study's tidy table, or (a run of figure targets) its experiments'
    tables (tidy/<study>/<experiment>.csv[.gz]) joined; None if neither."""
    whole = [Path(folder, "tidy", f"{study}{ext}") for ext in (".csv", ".csv.gz")]
    paths = [p for p in whole if p.exists()][:1] or sorted(Path(folder, "tidy", study).glob("*.csv*"))
    tables = []
    for path in paths:
        t = _csv(path, "a tidy table of lsmrepro.tidy.aggregate")
        missing = [c for c in MATCH + ["value"] if c not in t.columns]
        if missing:
            raise InputError(path, ", ".join(missing), "the columns of a tidy table of lsmrepro.tidy.aggregate")
        tables.append(t)
    return pd.concat(tables, ignore_index=True) if tables else None


def _means(t):
    t = t[t["metric"].isin(MAIN_METRICS)].copy()
    t["value"] = pd.to_numeric(t["value"], errors="coerce")
    for col in ("op", "subset"):  # empty in the CSV: read as NaN, which never matches
        t[col] = t[col].astype(object).fillna("")
    return t.dropna(subset=["value"]).groupby(MATCH, as_index=False)["value"].mean()


def regime_reached(folder, study):
    """experiment -> whether the run reached its paper's regime (yes / no /
    n.a., lsmrepro.tidy.regime's table); empty when the table is not there."""
    path = Path(folder, "tables", study, "regime.csv")
    if not path.exists():
        return {}
    t = _csv(path, "a regime table of lsmrepro.tidy.regime")
    if not {"figure", "reached"} <= set(t.columns):
        raise InputError(path, "figure, reached", "the columns of a regime table of lsmrepro.tidy.regime")
    return dict(zip(t["figure"], t["reached"]))


def compare_figures(ours_dir, ref_dir, studies):
    """Per study, experiment and main metric: how many points both runs
    measured and the geometric mean, min and max of ours/reference, beside
    whether each run reached the paper's regime (a ratio far from 1 often
    means one did not)."""
    rows = []
    for study in studies:
        reached = [regime_reached(d, study) for d in (ours_dir, ref_dir)]
        sides = [tidy(d, study) for d in (ours_dir, ref_dir)]
        if any(s is None for s in sides):
            continue
        a, b = (_means(s) for s in sides)
        m = a.merge(b, on=MATCH, how="outer", suffixes=("_ours", "_reference"))
        for (exp, metric), g in m.groupby(["experiment", "metric"]):
            ok = g[(g["value_ours"] > 0) & (g["value_reference"] > 0)]
            r = ok["value_ours"] / ok["value_reference"]
            rows.append({"study": study, "experiment": exp, "metric": metric, "matched": len(r),
                         "ratio_geomean": float(np.exp(np.log(r).mean())) if len(r) else None,
                         "ratio_min": r.min() if len(r) else None, "ratio_max": r.max() if len(r) else None,
                         "only_ours": int(g["value_reference"].isna().sum()),
                         "only_reference": int(g["value_ours"].isna().sum()),
                         **{f"regime_reached_{s}": r.get(exp, "—") for s, r in zip(SIDES, reached)}})
    return pd.DataFrame(rows, columns=["study", "experiment", "metric", "matched", "ratio_geomean",
                                       "ratio_min", "ratio_max", "only_ours", "only_reference",
                                       "regime_reached_ours", "regime_reached_reference"])


def fingerprint(folder):
    path = Path(folder, "hardware", "fingerprint.json")
    try:
        fp = json.loads(path.read_text())
        st = fp["stable"]
    except FileNotFoundError:
        raise InputError(path, None, "missing: the machine's fingerprint (hardware.fingerprint)")
    except (OSError, ValueError, KeyError, TypeError):
        raise InputError(path, "stable", "a fingerprint written by hardware.fingerprint")
    get = lambda *keys: _dig(st, keys)  # noqa: E731
    mem = get("memory", "total_bytes")
    dev = get("storage", "device") or {}
    return {"fingerprint id": fp.get("id"), "CPU model": get("cpu", "model"), "cores": get("cpu", "cores"),
            "threads": get("cpu", "threads"),
            "memory": humanfriendly.format_size(mem, binary=True) if isinstance(mem, (int, float)) else mem,
            "kernel": get("kernel", "release"),
            "device": " ".join(str(x) for x in (dev.get("vendor"), dev.get("model"), dev.get("name")) if x) or None,
            "device rotational": dev.get("rotational"), "filesystem": get("storage", "filesystem", "type"),
            "load average at collection": _dig(fp, ("volatile", "loadavg"))}


def _dig(d, keys):
    for k in keys:
        d = d.get(k) if isinstance(d, dict) else None
    return d


def calibration(folder):
    """fio measurement -> {quantity: value}; empty when not measured."""
    path = Path(folder, "hardware", "calibration.csv")
    if not path.exists():
        return {}
    t = _csv(path, "a calibration table of hardware.calibration_plot")
    if "measurement" not in t.columns:
        raise InputError(path, "measurement", "the columns of a calibration table of hardware.calibration_plot")
    return {f"fio {r['measurement']} {q}": r.get(q) for _, r in t.iterrows() for q in CALIBRATION}


def compare_machines(ours_dir, ref_dir):
    a, b = ({**fingerprint(d), **calibration(d)} for d in (ours_dir, ref_dir))
    names = list(a) + [k for k in b if k not in a]
    return pd.DataFrame({"quantity": names, "ours": [a.get(k) for k in names],
                         "reference": [b.get(k) for k in names]})


def _md(df):
    return df.to_markdown(index=False, floatfmt=".3g") if len(df) else "(none)"


def _measured_text(r, side):
    if pd.isna(r[f"measured_{side}"]):
        return "—"
    return f"{r[f'measured_{side}']:.3g} [{r[f'ci_low_{side}']:.3g}, {r[f'ci_high_{side}']:.3g}], n={r[f'n_{side}']:g}"


def _claims_md(cl):
    """The claims table narrowed for reading: one value column per machine."""
    return pd.DataFrame({"study": cl["study"], "claim": cl["claim"], "differs": cl["differs"].map({True: "yes", False: ""}),
                         "intervals": cl["intervals"], "verdict here": cl["verdict_ours"], "verdict reference": cl["verdict_reference"],
                         "here: value [90% interval], n": [_measured_text(r, "ours") for _, r in cl.iterrows()],
                         "reference": [_measured_text(r, "reference") for _, r in cl.iterrows()]})


def claims_summary(cl):
    """One sentence: verdicts that differ, intervals that are disjoint."""
    both = cl["intervals"].isin(["overlap", "disjoint"])
    return (f"{int(cl['differs'].sum())} of {len(cl)} verdicts differ; the two 90% intervals are disjoint for "
            f"{int((cl['intervals'] == 'disjoint').sum())} of the {int(both.sum())} claims both runs measured")


def index_md(scale, ref_dir, cl, fig, mach, exp=None, left=0):
    exp = expected_counts(cl) if exp is None else exp
    narrowed = (f"Compared where both runs judged: {left} verdicts of figures only one side ran are "
                "left out.") if left else ""
    return "\n".join([
        f"# Scale {scale} beside the reference run ({ref_dir})", "",
        f"## Claims: {claims_summary(cl)}", "", *([narrowed, ""] if narrowed else []),
        f"As the interval model predicts: {expected_text(exp)}.", "", _md(exp), "",
        "Differing verdicts first, then disjoint intervals. A run's interval holds its repetitions' noise "
        "over one load, not the load's own (the tree's shape): at one scale, disjoint intervals measure "
        "that (paper/README.md, \"What a run's interval does not hold\"); at another scale the values may "
        "differ by design.", "", _md(_claims_md(cl)), "",
        "## Figures: ours / reference, geometric mean over the points both measured", "",
        f"Metrics: {', '.join(MAIN_METRICS)}; a ratio above 1 is a larger value here.", "", _md(fig), "",
        "## Machines: fingerprints and fio calibrations", "", _md(mach), ""])


def compare(scale, ref_dir, results="results", out_dir=None, ours=None):
    ours_dir = Path(ours) if ours else Path(results, scale)
    out = Path(out_dir) if out_dir else ours_dir / "compare"
    our_cl, ref_cl, left = judged_alike(claims(ours_dir), claims(ref_dir))
    cl = compare_claims(our_cl, ref_cl)
    fig = compare_figures(ours_dir, ref_dir, sorted(set(our_cl["study"]) & set(ref_cl["study"])))
    mach = compare_machines(ours_dir, ref_dir)
    exp = expected_counts(cl)
    for name, df in (("claims", cl), ("figures", fig), ("machines", mach), ("expected", exp)):
        with atomic_path(out / f"{name}.csv") as tmp:
            df.to_csv(tmp, index=False)
    text = index_md(scale, ref_dir, cl, fig, mach, exp, left)
    write_text(out / "index.md", text)
    return text


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", required=True)
    ap.add_argument("--reference", required=True, help="a results folder of the same layout")
    ap.add_argument("--results", default="results")
    ap.add_argument("--ours", help="this run's folder, of the layout of results/<scale> (default: <results>/<scale>;"
                    " e.g. a shipped run beside another, an A/A pair)")
    ap.add_argument("--out-dir", help="default: <this run's folder>/compare")
    a = ap.parse_args(argv)
    print(compare(a.scale, a.reference, a.results, a.out_dir, a.ours))


if __name__ == "__main__":
    main()
