"""From a claim's samples to its verdict: which test of
lsmrepro/claims/stats.py each `paper` + `rule` pair runs (paper/README.md,
"The statistical rule"). Used alike by the verdicts (S = 1) and by the
power check (S simulations at once)."""
import math

import numpy as np

from lsmrepro.claims import stats as st
from lsmrepro.claims.measure import AGGREGATE
from lsmrepro.claims.spec import MEMBER_KINDS, band, no_effect, to_scale


def per_member(claim):
    """Whether the claim is decided per member (paper members, or a
    direction on a claim with members) rather than on its aggregate."""
    paper, kind = claim["paper"], claim["measure"]["kind"]
    return "members" in paper or ("direction" in paper and kind in MEMBER_KINDS) or "range" in paper


def decide(claim, members, prior=None):
    """members: name -> list of arrays (S, n) on the test's scale, one per
    point (an empty list: the member has no data). prior: (sd of a sample,
    df, where from) the claim borrows when its own samples give df 0
    (lsmrepro/claims/prior.py), or None. Returns a dict of arrays over the S
    simulations: verdict, est/low/high of the aggregate (the mean over
    members of each member's mean over its points), and per member (name ->
    est, low, high, verdict); own_df, the df of the samples themselves, and
    borrowed, where the noise came from when they had none."""
    m, paper, rule = claim["measure"], claim["paper"], claim["rule"]
    cells = [x for pts in members.values() for x in pts]
    if not cells:
        return {"verdict": np.array([st.NO_DATA]), "est": np.array([np.nan]), "low": np.array([np.nan]),
                "high": np.array([np.nan]), "df": 0, "own_df": 0, "members": {}, "n": 0, "sd": np.array([np.nan])}
    S = cells[0].shape[0]
    s2, df = st.pooled_variance(cells)
    own_df, borrowed = df, None
    if not df and prior is not None:
        s2, df, borrowed = np.full(S, float(prior[0]) ** 2), int(prior[1]), prior[2]
    est, se = {}, {}
    members = {**{k: [] for k in _judged(claim, members)}, **members}  # a paper member never seen: no data
    for name, pts in members.items():
        if pts:
            est[name], se[name] = st.combination(pts, [1 / len(pts)] * len(pts), s2)
        else:
            est[name], se[name] = np.full(S, np.nan), np.full(S, np.nan)
    seen = {k: v for k, v in members.items() if v}
    weights = [1 / (len(seen) * len(pts)) for pts in seen.values() for _ in pts]
    agg, agg_se = st.combination(cells, weights, s2)
    hw = st.half_width(agg_se, df)
    out = {"est": agg, "low": agg - hw, "high": agg + hw, "df": df, "own_df": own_df, "borrowed": borrowed,
           "n": sum(x.shape[-1] for x in cells), "sd": np.sqrt(s2)}
    kind = rule["kind"]
    judged = _judged(claim, members)
    mem = {k: {"est": est[k], "low": est[k] - st.half_width(se[k], df), "high": est[k] + st.half_width(se[k], df)}
           for k in judged}
    if kind == "bound":
        lo = to_scale(m, rule["min"]) if "min" in rule else -math.inf
        hi = to_scale(m, rule["max"]) if "max" in rule else math.inf
        p_in, p_out = st.tost(agg, agg_se, df, lo, hi)
        out["verdict"] = st.verdicts(p_in < st.ALPHA, p_out < st.ALPHA)
    elif kind == "range":
        out["verdict"] = _range(m, paper["range"], rule["tolerance"], est, se, df)
    elif not per_member(claim):
        p_yes, p_no = _test(claim, agg, agg_se, df, None)
        out["verdict"] = st.verdicts(p_yes < st.ALPHA, p_no < st.ALPHA)
    else:
        p = {k: _test(claim, est[k], se[k], df, k) for k in judged}
        yes = np.stack([p[k][0] < st.ALPHA for k in judged], -1)
        no = st.holm(np.stack([p[k][1] for k in judged], -1))
        for i, k in enumerate(judged):
            mem[k]["verdict"] = np.where(np.isnan(est[k]), st.NO_DATA, st.verdicts(yes[..., i], no[..., i]))
        needed = math.ceil(m.get("min_share", 1.0) * len(judged) - 1e-9)
        out["verdict"] = st.verdicts(yes.sum(-1) >= needed, no.sum(-1) > len(judged) - needed)
    out["members"] = mem
    out["unpaired"] = unpaired(claim, members)
    return out


def _judged(claim, members):
    """The members a per-member claim judges: the paper's, else those the
    measure names (a group's `members`, an ordering's pairs: one without
    data is "no data" and blocks the claim), else those with samples. A
    group whose members come from the data leaves out a name without a
    sample (one side only: an index this scale runs for one figure of the
    pair; or no positive value on a log scale): it was never compared;
    `unpaired` lists it."""
    if "members" in claim["paper"]:
        return list(claim["paper"]["members"])
    m = claim["measure"]
    named = [k for k in members if k != AGGREGATE]
    if m["kind"] == "group" and "members" not in m:
        return [k for k in named if members[k]] or named or list(members)
    return named or list(members)


def unpaired(claim, members):
    """The names a group found without a sample (left out by _judged)."""
    return [k for k in members if k != AGGREGATE and not members[k] and k not in _judged(claim, members)]


def _test(claim, est, se, df, member):
    """(p of 'reproduced', p of 'not reproduced') of one estimate."""
    m, paper, rule = claim["measure"], claim["paper"], claim["rule"]
    if rule["kind"] == "magnitude":
        v = paper["members"][member] if member is not None and "members" in paper else paper["value"]
        return st.tost(est, se, df, *band(m, v, rule["tolerance"]))
    than = to_scale(m, rule["than"])
    if paper["direction"] == "greater":
        p_yes, p_wrong = st.p_above(est, se, df, than), st.p_below(est, se, df, than)
    else:
        p_yes, p_wrong = st.p_below(est, se, df, than), st.p_above(est, se, df, than)
    p_none, _ = st.tost(est, se, df, *no_effect(m, rule))
    return p_yes, np.minimum(p_wrong, p_none)


def _range(m, paper_range, tolerance, est, se, df):
    """The set's min and max against the paper's: the min's interval is
    [min of lower bounds, min of upper bounds] of the members' intervals
    (covering the true min whenever every member's covers its truth), the
    max's likewise. Reproduced: both 90% intervals inside their bands; not
    reproduced: either 95% interval (Bonferroni over the two) wholly
    outside its band."""
    E = np.stack(list(est.values()), -1)
    SE = np.stack(list(se.values()), -1)
    have = ~np.isnan(E)
    if not have.any():
        return np.full(E.shape[0], st.NO_DATA)
    bands = [band(m, v, tolerance) if v is not None else (-math.inf, math.inf) for v in paper_range]  # null: not judged

    def inside_outside(alpha):
        hw = st.half_width(SE, df, alpha)
        lows, highs = np.where(have, E - hw, np.nan), np.where(have, E + hw, np.nan)
        ends = [(np.nanmin(lows, -1), np.nanmin(highs, -1)), (np.nanmax(lows, -1), np.nanmax(highs, -1))]
        inside = np.all([(lo >= b[0]) & (hi <= b[1]) for (lo, hi), b in zip(ends, bands)], 0)
        outside = np.any([(hi < b[0]) | (lo > b[1]) for (lo, hi), b in zip(ends, bands)], 0)
        return inside, outside

    yes, _ = inside_outside(st.ALPHA)
    _, no = inside_outside(st.ALPHA / 2)
    return st.verdicts(yes, no)


