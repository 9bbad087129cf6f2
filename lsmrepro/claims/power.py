"""Proof that each claim can pass and can fail at a scale (issue 30):
`python -m lsmrepro.claims --power --scale S`.

For every claim, the tidy rows its own selectors would read at scale S are
laid out from the study's runs (members, points and repetitions as the
scale runs them, every value 1) and pushed through the claim's measure
code, which gives the claim's shape: its members, their points and the
samples at each. Then S_SIM simulations of that shape, with run-to-run
noise at the scale's `noise:` CV (config/scales/<scale>.yaml and its measured
half, <scale>.measured.yaml), go through
the same rule code as the verdicts (lsmrepro/claims/rule.py): once with the
truth at the paper's value and once outside the tolerance (paper/README.md,
"Power check", says where exactly). A claim passes when P(reproduced |
paper's value) and P(not reproduced | outside) are both >= 0.9."""
import copy
import functools
import math
import re
import zlib

import numpy as np
import pandas as pd

from lsmrepro.tidy import aggregate
from lsmrepro.plan import scale_measured, studies
from lsmrepro.claims import measure as cm
from lsmrepro.claims import prior as claims_prior
from lsmrepro.claims import rule
from lsmrepro.claims import stats as st
from lsmrepro.claims.spec import band, load_claims, log_scale, no_effect, to_scale
from base.errors import InputError

S_SIM = 200
POWER = 0.9
MAX_REPETITIONS = 16  # the most repetitions a fix may propose
SEED = 30
LOAD_OF = "_load_of"  # a synthetic row's load without its seed: the load effect's key with repetition mod k


def noise_cv(scale_cfg, claim, scale):
    """(CV of one run's metric for a claim, where it came from): claims_prior.noise_estimate's."""
    cv, _, text = claims_prior.noise_estimate(scale_cfg, claim, scale)
    return cv, text


sigma = claims_prior.sample_sd  # the sd of one sample on the test's scale, from a run's CV


def _runs_tidy(runs):
    """The factor columns of the tidy rows each run would give (as
    lsmrepro.tidy.aggregate names them), one row per run, as text."""
    if runs.empty:
        return pd.DataFrame(columns=["experiment", "run", "repetition"])
    out = pd.DataFrame([{**{aggregate.factor_column(k): v for k, v in r.factors.items() if k != "dataset"},
                         "experiment": r.figure, "dataset": r.dataset, "workload": r.workload,
                         "repetition": r.rep, "run": f"{r.figure}/{r.point}/r{r.rep}",
                         LOAD_OF: re.sub(r"seed=\d+", "", r.load)}
                        for r in runs.itertuples()])
    return out.astype({c: str for c in out.columns if c != "repetition"})


def _study_runs(scale_cfg, study):
    """A study's runs at a scale: of its engines, and of its tools (study engineering)."""
    runs, tool_runs = studies.runs(scale_cfg, study=study), studies.tool_runs(scale_cfg, study=study)
    return pd.concat([runs, tool_runs], ignore_index=True) if len(tool_runs) else runs


def synthetic_tidy(claim, runs):
    """Tidy rows the claim's selectors would read at the scale: each run of
    the experiments it reads (`runs`: _runs_tidy of the study's runs), with
    every selector's values for the columns a run does not fix (metric, op,
    subset, ...). Column `_roles` names the selectors that pick each row."""
    base = runs[runs["experiment"].isin(cm.experiments(claim))]
    frames = []
    for key in cm.SELECTORS:
        where = claim["measure"].get(key)
        if where is None:
            continue
        rows = base if cm.REPLICA in where else cm.study_rows(base)  # as measure.select_rows reads them
        for column, wanted in where.items():
            values = wanted if isinstance(wanted, list) else [wanted]
            if column in rows.columns:
                rows = rows[rows[column].isin([cm.factor_text(v) for v in values])]
            else:
                rows = rows.assign(**{column: [[cm.factor_text(v) for v in values]] * len(rows)}).explode(column)
        frames.append(rows.assign(_roles=key))
    if not frames:
        return base.iloc[0:0].assign(_roles="")
    out = pd.concat(frames, ignore_index=True).astype(str)
    keys = [c for c in out.columns if c != "_roles"]
    out = out.groupby(keys, dropna=False, sort=False)["_roles"].agg(" ".join).reset_index()
    return out.assign(repetition=out["repetition"].astype(int))


def with_repetitions(rows, want):
    """The synthetic rows had every figure the claim reads run `want`
    repetitions: repetition 0's rows again for each."""
    first = rows[rows["repetition"] == 0]
    return pd.concat([first.assign(repetition=r, run=first["run"].str.replace(r"/r0$", f"/r{r}", regex=True))
                      for r in range(want)], ignore_index=True)


def _log_truths(claim, rows, truth):
    """Each synthetic row's true value (log scale; a slope's, linear): the
    rows whose selector carries the effect (numerator, part, lower, `to`,
    value) take their member's truth, the others 0, so the measure's true
    value is the member's truth whatever the selectors pick. A row both
    sides pick (a claim comparing a thing with itself) keeps its ratio at 1,
    as the real data would."""
    m = claim["measure"]
    kind, roles = m["kind"], rows["_roles"].str.split()
    top = roles.map(lambda r: bool({"where", "numerator", "part"} & set(r)))
    if kind == "group":
        member = rows[m["group_by"]].map(lambda g: truth.get(g, np.nan))
        return np.where(top, member, 0.0)
    if kind == "ordering":
        by = rows[m["by"]]
        lower = {cm.factor_text(lo): np.mean([truth[f"{lo}/{hi}"] for hi in m["higher"] if f"{lo}/{hi}" in truth] or [0.0])
                 for lo in m["lower"]}
        return by.map(lambda v: lower.get(v, 0.0)).to_numpy(float)
    t = truth[next(iter(truth))]
    if kind == "trend":
        x = pd.to_numeric(rows[m["over"]], errors="coerce")
        if m.get("statistic") == "slope":
            return (t * x).to_numpy(float)
        return np.where(rows[m["over"]] == cm.factor_text(m["to"]), t, 0.0)
    return np.where(top, t, 0.0)


def _load_effects(rows, loads, load_sd, rng, sims):
    """(sims, rows) draws of each row's load effect, N(0, load_sd) per load:
    a run of repetition r starts from load r mod `loads` of its point's load
    (None: every repetition its own), so rows on one load share a draw; the
    loads of two systems are drawn apart (their pairing is not credited)."""
    if not load_sd or LOAD_OF not in rows:
        return 0.0
    reps = rows["repetition"].astype(int).to_numpy()
    key = rows[LOAD_OF].astype(str) + "#" + pd.Series(reps % loads if loads else reps, index=rows.index).astype(str)
    codes, uniques = pd.factorize(key)
    return load_sd * rng.standard_normal((sims, len(uniques)))[:, codes]


def simulate(claim, rows, truths, sd, rng, level=1.0, prior=None, loads=None, load_sd=0.0):
    """The claim's verdicts, S_SIM simulations of its synthetic rows for each
    truth of `truths` (member -> test scale), in one pass of its measure
    code; noise at two levels (Kalibera & Jones's model): sd of a run's log
    value within a load, load_sd of a load's (a slope's rows: times level,
    linear), the samples reduced to per-load means as the verdicts reduce
    them (`loads`, measure.loads_of); prior: the noise the claim borrows at
    df 0 (claims_prior). Returns one verdict array (S_SIM,) per truth."""
    m = claim["measure"]
    base = np.concatenate([np.broadcast_to(_log_truths(claim, rows, t), (S_SIM, len(rows))) for t in truths])
    noise = sd * rng.standard_normal(base.shape) + _load_effects(rows, loads, load_sd, rng, base.shape[0])
    values = base + level * noise if not log_scale(m) else np.exp(base + noise)
    sims = len(truths) * S_SIM
    tidy = rows.iloc[np.tile(np.arange(len(rows)), sims)].reset_index(drop=True).assign(
        value=values.reshape(-1), **{cm.SIM: np.repeat(np.arange(sims), len(rows))})
    sim_m = dict(m, pair_on=[*m.get("pair_on", ["run"]), cm.SIM])
    parts, not_points = cm.samples(sim_m, tidy, claim["id"])
    members = {k: cm.cells(sim_m, s, not_points, loads=loads)[0] for k, s in parts.items()}
    verdict = rule.decide(claim, members, prior)["verdict"]
    if verdict.shape[0] != sims:  # no samples at all: "no data" for every simulation
        verdict = np.full(sims, verdict[0])
    return [verdict[i * S_SIM:(i + 1) * S_SIM] for i in range(len(truths))]


def members_of(claim, rows):
    """The claim's members as its measure code finds them in `rows`."""
    parts, _ = cm.samples(claim["measure"], rows.assign(value=1.0), claim["id"])
    return list(parts)


def _truths(claim, names):
    """(truth at the paper's value, [truths outside]) per member, on the test's scale."""
    m, paper, r = claim["measure"], claim["paper"], claim["rule"]
    kind = r["kind"]
    if kind in ("magnitude", "range"):
        if "value" in paper:
            at = {k: to_scale(m, paper["value"]) for k in names}
        elif "members" in paper:
            rest = np.mean([to_scale(m, v) for v in paper["members"].values()])
            at = {k: to_scale(m, paper["members"][k]) if k in paper["members"] else rest for k in names}
        else:  # range: the members spread evenly from the paper's min to its max (a null end: a band's width off)
            given = next(v for v in reversed(paper["range"]) if v is not None)
            width = np.subtract(*reversed(band(m, given, r["tolerance"])))
            lo, hi = (to_scale(m, v) if v is not None else None for v in paper["range"])
            lo, hi = (hi - width if lo is None else lo), (lo + width if hi is None else hi)
            at = {k: lo + (hi - lo) * i / max(len(names) - 1, 1) for i, k in enumerate(sorted(names))}
        ref = paper.get("value", np.mean(list(paper.get("members", {"": 1}).values())))
        ref = ref if "range" not in paper else next(v for v in reversed(paper["range"]) if v is not None)
        b_lo, b_hi = band(m, ref, r["tolerance"])
        shift = b_hi - b_lo  # twice the half-width: the truth lies a half-width beyond the band's edge
        return at, [{k: v + shift for k, v in at.items()}, {k: v - shift for k, v in at.items()}]
    if kind == "direction":
        lo, hi = no_effect(m, r)
        than = to_scale(m, r["than"])
        step = 2 * (hi - than) if paper["direction"] == "greater" else 2 * (lo - than)
        return {k: than + step for k in names}, [{k: than - step for k in names}]
    # bound: a factor 2 inside / outside the requirement (log scale)
    f = math.log(2) if log_scale(m) else 1.0
    if "max" in r:
        top = to_scale(m, r["max"])
        inside = (top + to_scale(m, r["min"])) / 2 if "min" in r else top - f
        return {k: inside for k in names}, [{k: top + f for k in names}]
    bottom = to_scale(m, r["min"])
    return {k: bottom + f for k in names}, [{k: bottom - f for k in names}]


def power(claim, rows, cv, rng, level=1.0, prior=None, design=(None, 0.0)):
    """(P(reproduced | paper's value), P(not reproduced | outside)): the
    smaller over the outside truths (above and below the band). design:
    (loads, load_sd), the claim's independent loads and a load's sd
    (design_of)."""
    over = claim["measure"].get("over")
    if rows.empty or (over and over not in rows):  # nothing to lay out: it can neither pass nor fail
        return 0.0, 0.0
    at, outside = _truths(claim, members_of(claim, rows))
    yes, *nos = simulate(claim, rows, [at, *outside], cv, rng, level, prior, *design)
    return float(np.mean(yes == st.REPRODUCED)), min(float(np.mean(no == st.NOT)) for no in nos)


def _slope_level(claim, rows):
    """A slope's rows have noise CV times their level, taken as the paper's
    line through the origin at the mean x (y = v * mean x); returns that
    level (the noise of a row, per unit CV)."""
    m, paper = claim["measure"], claim["paper"]
    x = pd.to_numeric(rows[m["over"]], errors="coerce").dropna() if m["over"] in rows else pd.Series(dtype=float)
    numbers = [paper["value"]] if "value" in paper else list(paper.get("members", {}).values())
    v = abs(np.mean(numbers)) if numbers else claim["rule"].get("margin", 1.0)
    return v * abs(x.mean()) if len(x) else 1.0


def _repetitions(scale_cfg, claim):
    """The claim's experiments' repetitions at the scale (the most of them)."""
    specs = studies.figures(claim["study"])
    return max([studies.counts(scale_cfg, claim["study"], f, specs[f])["repetitions"]
                for f in cm.experiments(claim) if f in specs] or [0])


def loads_at(loads, have, want):
    """A figure's independent loads when its `have` repetitions on `loads`
    loads become `want`: as many runs on each load as now (every repetition
    its own load stays so), so more repetitions are more loads, the unit of
    the interval, and fewer never leave a load without runs."""
    if loads is None or not have or want == have:
        return loads
    return max(1, want // max(1, have // loads))


def design_at(design, rows, want):
    """design (loads, load_sd) of the synthetic `rows` run at `want` repetitions (loads_at)."""
    have = int(rows["repetition"].max()) + 1 if len(rows) else 0
    return loads_at(design[0], have, want), design[1]


def fix(claim, rows, cv, reps, rng, level, prior=None, design=(None, 0.0)):
    """The fewest repetitions (<= MAX_REPETITIONS) at which both powers reach
    POWER, or None: then the claim itself must change."""
    def ok(want):
        return min(power(claim, with_repetitions(rows, want), cv, rng, level, prior,
                         design_at(design, rows, want))) >= POWER
    if reps >= MAX_REPETITIONS or not ok(MAX_REPETITIONS):
        return None
    low, high = reps, MAX_REPETITIONS  # power grows with repetitions: bisect for the fewest
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (low, mid) if ok(mid) else (mid, high)
    return high


def design_of(claim, scale_cfg):
    """(loads, load_sd): the claim's independent loads at the scale
    (measure.loads_of) and the sd of a load's effect on a run's log value,
    the largest of its figures' `load_noise:` (config/scales/<scale>.yaml;
    0 where none is given: then the simulation is the one-level model)."""
    noise = scale_cfg.get("load_noise", {})
    sds = [float(noise[f"{claim['study']}/{f}"]) for f in cm.experiments(claim) if f"{claim['study']}/{f}" in noise]
    return cm.loads_of(claim, scale_cfg), max(sds, default=0.0)


def underpowered(scale, scale_cfg, claims):
    """The scale's claims_underpowered ({id: reason}), every id a claim's
    (of `claims` or of any study: a run may judge one study's alone): the
    claims the verdicts flag `underpowered`, never a verdict."""
    listed = scale_cfg.get("claims_underpowered", {})
    if not listed:
        return {}
    known = {c["id"] for c in claims} | {c["id"] for c in load_claims()}
    for cid in listed:
        if cid not in known:
            raise InputError(scale_measured.shown(scale), f"claims_underpowered.{cid}",
                             "the id of a claim in paper/<study>/claims.yaml")
    return listed


def claim_rng(claim):
    """The claim's own random stream: its simulations do not depend on which
    claims were simulated before it (a claim set apart as underpowered, or
    one check with --study), so a check and its rerun agree."""
    return np.random.default_rng([SEED, zlib.crc32(claim["id"].encode())])


def check(scale, scale_cfg, claims, study=None, out=print, reasons=None, with_floor=False):
    """Prints one line per claim and a summary; returns the failing claims'
    ids (a non-empty list is the exit status 1 of --power). A claim the
    scale lists as underpowered is not counted, unless it does decide: then
    the list is wrong and it fails. `reasons`, a dict, receives each failing
    claim's probabilities and fix (write_underpowered's entries)."""
    runs_of, failed, lines, estimates, wants = {}, [], [], {}, {}
    under, set_apart, passing = underpowered(scale, scale_cfg, claims), [], []
    for claim in claims:
        if study and claim["study"] != study:
            continue
        s = claim["study"]
        if s not in runs_of:
            runs = _study_runs(scale_cfg, s) if studies.spec_path(s).is_file() else pd.DataFrame()
            runs_of[s] = (runs, _runs_tidy(runs))
        all_runs, runs = runs_of[s]
        rows = synthetic_tidy(claim, runs)
        cv, cv_from = noise_cv(scale_cfg, claim, scale)
        level = _slope_level(claim, rows) if claim["measure"].get("statistic") == "slope" else 1.0
        # at one repetition a point the verdicts borrow the scale's measured noise, and so does the simulation
        prior = claims_prior.from_scale(claim, scale_cfg, scale)
        rng = claim_rng(claim)
        design = design_of(claim, scale_cfg)
        p_yes, p_no = power(claim, rows, cv, rng, level, prior, design)
        line = (f"{claim['id']}: P(reproduced | paper) {p_yes:.2f}, P(not reproduced | outside) {p_no:.2f} "
                f"[{len(rows)} rows, CV {cv:g}: {cv_from}]")
        if claim["id"] in under:
            if min(p_yes, p_no) >= POWER:
                failed.append(claim["id"])
                line += f"  FAIL: listed in claims_underpowered of {scale_measured.shown(scale)}, but it decides: remove it"
            else:
                set_apart.append(claim["id"])
                line += f"  flagged underpowered at {scale} (claims_underpowered): {under[claim['id']]}"
            out(line)
            continue
        if min(p_yes, p_no) < POWER:
            failed.append(claim["id"])
            fix_text = _fix_text(claim, rows, cv, rng, level, scale, scale_cfg, all_runs, estimates, wants, prior,
                                 design)
            line += "  FAIL: " + fix_text
            if reasons is not None:
                reasons[claim["id"]] = (f"P(reproduced | paper) {p_yes:.2f}, P(not reproduced | outside) {p_no:.2f} "
                                        f"at {_repetitions(scale_cfg, claim)} repetitions, CV {cv:g} ({cv_from}); {fix_text}")
        else:
            passing.append((claim, rows, cv, level, prior, design))
        out(line)
        lines.append(line)
    for text in _per_figure(wants, runs_of, estimates, scale):
        out(text)
    known = {}
    for text in _fewer(passing, wants, runs_of, estimates, scale, scale_cfg, known):
        out(text)
    if with_floor:
        for text in floor(passing, scale, scale_cfg, known):
            out(text)
    judged_failed = [c for c in failed if c not in under]
    out(f"power at scale {scale}: {len(lines) - len(judged_failed)} of {len(lines)} claims can pass and can fail "
        f"(both probabilities >= {POWER}, {S_SIM} simulations each); {len(judged_failed)} fail"
        + (f"; {len(set_apart)} more flagged underpowered at this scale (their verdicts are their data's)"
           if set_apart else "")
        + (f"; {len(failed) - len(judged_failed)} listed underpowered but deciding" if len(failed) > len(judged_failed) else ""))
    return failed


def _fix_text(claim, rows, cv, rng, level, scale, scale_cfg, all_runs, estimates, wants, prior=None,
              design=(None, 0.0)):
    """What to change: the claim, or its figures' repetitions (with the price);
    `wants` collects, per figure set, the repetitions its claims need."""
    reps = _repetitions(scale_cfg, claim)
    s, figs = claim["study"], tuple(sorted(cm.experiments(claim)))
    need = wants.setdefault((s, figs), {"have": reps, "want": reps, "claims": 0, "unreachable": 0, "unrun": 0})
    text = _unrun_text(claim, rows, scale)
    if text:
        need["unrun"] += 1
        return text
    want = fix(claim, rows, cv, reps, rng, level, prior, design)
    if want is None:
        need["unreachable"] += 1
        return (f"no repetition count up to {MAX_REPETITIONS} reaches {POWER}: fix the claim (its selectors, "
                f"tolerance, margin or members)")
    need["claims"] += 1
    need["want"] = max(need["want"], want)
    return (f"fix repetitions of {', '.join(f'{s}/{f}' for f in figs)} in config/scales/{scale}.yaml: "
            f"{reps} -> {want}{_loads_text(scale_cfg, s, figs, reps, want)} "
            f"({_price(all_runs, estimates, scale, s, figs, reps, want)})")


def _loads_text(scale_cfg, study, figs, have, want):
    """' with load_repetitions K -> K2' where the fix's repetitions need more
    loads (loads_at: the simulation keeps each load's runs), else ''."""
    entries = scale_cfg.get("counts", {}).get("figures", {})
    changes = sorted({(k, loads_at(k, have, want)) for f in figs
                      if (k := entries.get(f"{study}/{f}", {}).get("load_repetitions")) is not None})
    changes = [(k, k2) for k, k2 in changes if k2 != k]
    return "".join(f" with load_repetitions {k} -> {k2}" for k, k2 in changes)


def _unrun_text(claim, rows, scale):
    """Why no repetition count can help, when the scale does not run what
    the claim reads (a selector, a member, a trend's x); else None."""
    over = claim["measure"].get("over")
    if over and len(rows) and over not in rows:
        return (f"measure.over = {over} is not a factor of the runs at scale {scale} (a value the run logs, "
                f"such as an agent's steps): the simulation cannot lay it out; judge this claim from data only "
                f"or trend over a grid factor")
    picked = set(" ".join(rows["_roles"]).split()) if len(rows) else set()
    blind = [k for k in cm.SELECTORS if k in claim["measure"] and k not in picked]
    if blind:
        return (f"its selectors pick no rows at scale {scale} ({', '.join(f'measure.{k}' for k in blind)}): fix "
                f"the claim's selectors, or its figure's `select` in config/scales/{scale}.yaml")
    absent = _absent_members(claim["measure"], rows)
    if absent:
        return (f"its members {', '.join(absent)} have no runs at scale {scale}: no repetition count makes "
                f"them pass; fix the claim's members, or its figure's `select` in config/scales/{scale}.yaml")
    return None


def _absent_members(m, rows):
    """The members an ordering or a group names that no run of the scale has."""
    if m["kind"] == "ordering":
        named, column = [*m["lower"], *m["higher"]], m["by"]
    elif m["kind"] == "group" and "members" in m:
        named, column = m["members"], m["group_by"]
    else:
        return []
    have = set(rows[column]) if column in rows else set()
    return [cm.factor_text(v) for v in named if cm.factor_text(v) not in have]


def _price(all_runs, estimates, scale, study, figs, have, want):
    """'+J run jobs, about +M min' of going from `have` to `want` repetitions (- for fewer)."""
    jobs = int(all_runs["figure"].isin(figs).sum() / have * (want - have)) if len(all_runs) else 0
    return f"{jobs:+d} run jobs{_minutes(estimates, scale, study, figs, have, want)}"


def _per_figure(wants, runs_of, estimates, scale):
    """The proposal per figure set: repetitions now, the most its claims
    need, and the price; and how many of its claims no count rescues."""
    if wants:
        yield f"repetitions per figure at scale {scale} (config/scales/{scale}.yaml counts:), for the failing claims:"
    for (s, figs), need in sorted(wants.items()):
        name = ", ".join(f"{s}/{f}" for f in figs)
        have, want = need["have"], need["want"]
        text = f"  {name}: repetitions {have}"
        if need["claims"]:
            text += (f", needed {want} by {need['claims']} claim(s) "
                     f"({_price(runs_of[s][0], estimates, scale, s, figs, have, want)})")
        if need["unreachable"]:
            text += f"; {need['unreachable']} claim(s) below {POWER} at every count up to {MAX_REPETITIONS}"
        if need["unrun"]:
            text += f"; {need['unrun']} claim(s) read what the scale does not run"
        yield text


def _by_figure(passing):
    """(study, figure) -> the passing claims' (claim, rows, cv, level, prior, design) reading it."""
    out = {}
    for item in passing:
        for f in cm.experiments(item[0]):
            out.setdefault((item[0]["study"], f), []).append(item)
    return out


def _fewest(items, have, known, key):
    """The fewest repetitions (>= 2, for a variance; <= have) at which every
    claim of `items` still passes, kept in `known` under `key` (--floor asks
    again for what _fewer found). A claim reading several figures is
    simulated with all of them at that count, which only understates its
    power."""
    if key in known:
        return known[key]
    def ok(reps):
        return all(min(power(c, with_repetitions(rows, reps), cv, claim_rng(c), level, prior,
                             design_at(design, rows, reps))) >= POWER
                   for c, rows, cv, level, prior, design in items)
    low, high = 1, have  # ok(have) holds: every one of them passed there
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (low, mid) if ok(mid) else (mid, high)
    known[key] = high
    return high


def _have(scale_cfg, study, fig):
    spec = studies.figures(study).get(fig)
    return studies.counts(scale_cfg, study, fig, spec)["repetitions"] if spec and "ops" in spec else 0


def _fewer(passing, wants, runs_of, estimates, scale, scale_cfg, known):
    """Figures whose every claim that passes would still pass at fewer
    repetitions (and none of whose failing claims asks for more): the
    fewest, and what that saves."""
    rising = {(s, f) for (s, figs), need in wants.items() if need["claims"] for f in figs}
    found = []
    for (s, f), items in sorted(_by_figure(passing).items()):
        have = _have(scale_cfg, s, f)
        if (s, f) in rising or have <= 2:
            continue
        high = _fewest(items, have, known, (s, f))
        if high < have:
            found.append(f"  {s}/{f}: repetitions {have}, its {len(items)} passing claim(s) pass with {high} too "
                         f"({_price(runs_of[s][0], estimates, scale, s, (f,), have, high)})")
    if found:
        yield f"figures whose passing claims need fewer repetitions at scale {scale} (none of their claims asks for more):"
        yield from found


def floor(passing, scale, scale_cfg, known=None):
    """The cheapest repetitions that keep every claim that decides deciding
    (issue 33's question: what the scale's verdicts cost at least): per
    figure the fewest at which its passing claims still pass, failing
    claims' wishes ignored, figures without a passing claim unchanged; and
    the scale's estimated wall time now and then (lsmrepro.plan.targets, from
    measured job times). Yields the lines --floor prints."""
    from lsmrepro.plan import targets
    cfg = copy.deepcopy(scale_cfg)
    figures = cfg.setdefault("counts", {}).setdefault("figures", {})
    lowered = []
    for (s, f), items in sorted(_by_figure(passing).items()):
        have = _have(scale_cfg, s, f)
        if have <= 2:
            continue
        fewest = _fewest(items, have, {} if known is None else known, (s, f))
        if fewest < have:
            entry = figures.setdefault(f"{s}/{f}", {})
            entry["repetitions"] = fewest
            if "load_repetitions" in entry:
                entry["load_repetitions"] = loads_at(entry["load_repetitions"], have, fewest)
            lowered.append(f"  {s}/{f}: repetitions {have} -> {fewest}")
    results = studies.REPO / "results"
    times = job_times(scale)
    now = targets.estimate(results, scale, scale_cfg=scale_cfg, times=times)[1]["seconds"].sum()
    then = targets.estimate(results, scale, scale_cfg=cfg, times=times)[1]["seconds"].sum()
    yield (f"floor at scale {scale}: the {len(passing)} claims that decide still decide with {len(lowered)} "
           f"figure(s) at fewer repetitions (the rest unchanged):")
    yield from lowered
    yield (f"estimated wall time at scale {scale}: {now / 3600:.2f} h now, {then / 3600:.2f} h at the floor "
           f"(lsmrepro.plan.targets, from measured job times)")


@functools.lru_cache(maxsize=None)
def job_times(scale):
    """lsmrepro.plan.targets.job_times of results/ at `scale`, read once a
    process: every price of a check (each study's, the floor's now and then)
    reads the same thousands of job files, and a check runs no job."""
    from lsmrepro.plan import targets
    return targets.job_times(studies.REPO / "results", scale)


def _minutes(estimates, scale, study, figs, have, want):
    """', about M min' from the measured job times (lsmrepro.plan.targets), if any;
    `estimates` caches each study's."""
    if study not in estimates:
        from lsmrepro.plan import targets
        try:
            estimates[study] = targets.estimate(studies.REPO / "results", scale, select=f"study={study}",
                                                times=job_times(scale))[0]
        except (InputError, OSError, ValueError) as e:  # a courtesy: the failure line stands without it
            estimates[study] = str(e)
    per_fig = estimates[study]
    if isinstance(per_fig, str):
        return f", minutes unknown: {per_fig}"
    mine = per_fig[per_fig["target"].isin([f"{study}/{f}" for f in figs])]
    seconds, unpriced = mine["seconds"].sum(), int(mine["unmeasured jobs"].sum())
    if not seconds:
        return ", minutes unmeasured"
    return (f", about {seconds * (want - have) / have / 60:+.0f} min from measured job times"
            + (f", its {unpriced} jobs without a time not counted" if unpriced else ""))


def write_underpowered(path, reasons):
    """Replaces the claims_underpowered of the scale's measured file (`path`,
    config/scales/<scale>.measured.yaml) with `reasons` (the claims check()
    found failing with the list left out), so the list is always the power
    check's own: a claim that decides again leaves it. Its noise stays."""
    scale_measured.write(path, underpowered=reasons)
