"""The statistics of the claims rule (paper/README.md, "The statistical
rule"), vectorised: every array has a leading axis of S simulations (S = 1
for measured data), so the power check (lsmrepro/claims/power.py) runs the
same code as the verdicts.

A claim's samples are `cells`: one array (S, n) per point of a member, on
the test's scale (log for ratios and positive quantities). Run-to-run noise
is estimated once per claim by pooling every cell's within-cell variance."""
import numpy as np
from scipy import stats

ALPHA = 0.05  # each one-sided test; the two-sided interval shown is 1 - 2 * ALPHA = 90%


def pooled_variance(cells):
    """(s2 (S,), df): the within-cell variance pooled over every cell (the
    one-way ANOVA error term), df = sum(n_i - 1). A cell of one sample adds
    nothing; df = 0 gives s2 = nan."""
    S = cells[0].shape[0] if cells else 1
    ss, df = np.zeros(S), 0
    for x in cells:
        n = x.shape[-1]
        if n >= 2:
            ss = ss + ((x - x.mean(-1, keepdims=True)) ** 2).sum(-1)
            df += n - 1
    return (ss / df if df else np.full(S, np.nan)), df


def combination(cells, weights, s2):
    """(estimate (S,), standard error (S,)) of sum_p w_p * mean(cell_p):
    a member's mean over its points, or the mean over members."""
    est = sum(w * x.mean(-1) for w, x in zip(weights, cells))
    var_factor = sum(w * w / x.shape[-1] for w, x in zip(weights, cells))
    return est, np.sqrt(s2 * var_factor)


def _z(est, se, c):
    """(est - c) / se; no spread at all (se = 0) makes it +-inf, so a test
    rejects exactly when the estimate is strictly on the far side."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return (est - c) / se


def _p(p):
    """An undefined p (no df, or an estimate equal to c with no spread) is
    1: no evidence."""
    return np.where(np.isnan(p), 1.0, p)


def p_above(est, se, df, c):
    """One-sided p of H0: truth <= c (against truth > c)."""
    return _p(stats.t.sf(_z(est, se, c), max(df, 1)))


def p_below(est, se, df, c):
    """One-sided p of H0: truth >= c (against truth < c)."""
    return _p(stats.t.cdf(_z(est, se, c), max(df, 1)))


def half_width(se, df, alpha=ALPHA):
    """Half-width of the two-sided 1 - 2 * alpha t interval."""
    return (stats.t.ppf(1 - alpha, df) if df else np.inf) * se


def tost(est, se, df, low, high):
    """(p_inside, p_outside) for a band [low, high]: p_inside < alpha is
    Schuirmann's two one-sided tests (the 90% interval inside the band);
    p_outside < alpha means the 90% interval lies wholly outside it."""
    p_in = np.maximum(p_above(est, se, df, low), p_below(est, se, df, high))
    p_out = np.minimum(p_below(est, se, df, low), p_above(est, se, df, high))
    return p_in, p_out


def holm(p, alpha=ALPHA):
    """Holm's step-down rejections of p (S, M) at family-wise alpha: the
    k-th smallest p (k = 0..M-1) is compared with alpha / (M - k), and the
    first that fails stops the rejections."""
    p = np.asarray(p, dtype=float)
    M = p.shape[-1]
    order = np.argsort(p, axis=-1)
    sorted_p = np.take_along_axis(p, order, -1)
    ok = np.logical_and.accumulate(sorted_p <= alpha / (M - np.arange(M)), axis=-1)
    out = np.empty_like(ok)
    np.put_along_axis(out, order, ok, -1)
    return out


REPRODUCED, NOT, INCONCLUSIVE, NO_DATA = "reproduced", "not reproduced", "inconclusive", "no data"


def verdicts(yes, no):
    """Verdict per simulation from two boolean arrays (no wins: a claim
    shown wrong is not also shown right)."""
    return np.where(no, NOT, np.where(yes, REPRODUCED, INCONCLUSIVE))
