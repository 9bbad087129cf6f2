"""The checker on itself: the A/A claims' coverage of their true ratio 1
(issue 52 item 5), counted once for the report and the READMEs.

An A/A claim (ids `aa-...`, lsmrepro/claims/spec.py) compares replica 1 of
a point with replica 0: the same engine, options and data on independent
loads, judged by the rule every claim is judged by, so how often its 90%
interval holds 1 is the verdicts' own calibration.
"""
import pandas as pd

from lsmrepro.claims import spec as claims_spec

AA_PREFIX = claims_spec.AA_PREFIX
AA_COVERAGE = 0.85  # issue 52: the 90% interval must hold 1 for at least this share of them


def coverage(claims):
    """{n, judged, covered (the 90% interval holds the true ratio 1),
    not_reproduced} of the A/A claims of `claims` (a claims CSV's rows);
    None without A/A claims. A claim with no interval (no data) counts in
    n, not in judged."""
    aa = claims[claims["claim"].map(claims_spec.is_aa)]
    if aa.empty:
        return None
    low, high = (pd.to_numeric(aa[c], errors="coerce") for c in ("ci_low", "ci_high"))
    judged = low.notna() & high.notna()
    return {"n": len(aa), "judged": int(judged.sum()), "covered": int(((low <= 1) & (high >= 1) & judged).sum()),
            "not_reproduced": int((aa["verdict"] == "not reproduced").sum())}


def total(found):
    """The sum of several coverage() dicts (None ones skipped); None if none."""
    found = [c for c in found if c]
    return {k: sum(c[k] for c in found) for k in found[0]} if found else None


def sentence(c):
    """'23 of 26 A/A comparisons (88%) have a 90% interval that holds their
    true ratio 1, which meets the 85% ...; 2 of 26 were judged not
    reproduced (the test's level: 5%)'."""
    share = c["covered"] / c["judged"] if c["judged"] else float("nan")
    held = "meets" if share >= AA_COVERAGE else "falls short of"
    return (f"{c['covered']} of {c['judged']} A/A comparisons ({share:.0%}) have a 90% interval that holds"
            f" their true ratio 1, which {held} the {AA_COVERAGE:.0%} the verdicts' intervals need;"
            f" {c['not_reproduced']} of {c['n']} were judged not reproduced (the test's level: 5%)"
            + (f"; {c['n'] - c['judged']} had no interval" if c["n"] > c["judged"] else ""))
