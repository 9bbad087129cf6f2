"""The statistics of the claims rule against answers computed by hand
(paper/README.md, "The statistical rule")."""
import math

import numpy as np
import pytest
from scipy import stats

from lsmrepro.claims import stats as st


def test_pooled_variance_adds_the_cells_sums_of_squares_and_degrees_of_freedom():
    # cell 1: mean 2, squares 1 + 1 = 2 (df 1); cell 2: mean 5, squares 1+0+1 = 2 (df 2); a lone sample adds nothing
    cells = [np.array([[1.0, 3.0]]), np.array([[4.0, 5.0, 6.0]]), np.array([[9.0]])]
    s2, df = st.pooled_variance(cells)
    assert df == 3 and math.isclose(s2[0], 4.0 / 3)
    # two repetitions at each of 6 points: 6 df, not 1
    assert st.pooled_variance([np.array([[0.0, 1.0]])] * 6)[1] == 6
    s2, df = st.pooled_variance([np.array([[1.0]]), np.array([[2.0]])])
    assert df == 0 and math.isnan(s2[0])


def test_combination_is_the_weighted_mean_with_its_standard_error():
    cells = [np.array([[1.0, 3.0]]), np.array([[4.0, 5.0, 6.0]])]
    est, se = st.combination(cells, [0.5, 0.5], np.array([4.0 / 3]))
    assert math.isclose(est[0], 3.5)
    assert math.isclose(se[0], math.sqrt(4.0 / 3 * (0.25 / 2 + 0.25 / 3)))


def test_tost_is_the_90_percent_interval_inside_the_band():
    est, se, df = np.array([1.0]), np.array([0.1]), 4
    half = stats.t.ppf(0.95, df) * 0.1  # 0.2132
    p_in, p_out = st.tost(est, se, df, 1.0 - half - 1e-6, 1.0 + half + 1e-6)
    assert p_in[0] < 0.05 and p_out[0] > 0.05
    p_in, _ = st.tost(est, se, df, 1.0 - half + 1e-3, 2.0)
    assert p_in[0] > 0.05  # the interval pokes out of the lower edge
    assert math.isclose(p_in[0], stats.t.sf((1.0 - (1.0 - half + 1e-3)) / 0.1, df), rel_tol=1e-9)
    # wholly outside: the interval above the band
    _, p_out = st.tost(est, se, df, 0.0, 1.0 - half - 1e-3)
    assert p_out[0] < 0.05
    _, p_out = st.tost(est, se, df, 0.0, 1.0 - half + 1e-3)
    assert p_out[0] > 0.05


def test_no_degrees_of_freedom_decides_nothing_and_no_spread_decides_exactly():
    p_in, p_out = st.tost(np.array([1.0]), np.array([np.nan]), 0, 0.0, 2.0)
    assert p_in[0] == 1.0 and p_out[0] == 1.0
    p_in, p_out = st.tost(np.array([1.0]), np.array([0.0]), 3, 0.0, 2.0)
    assert p_in[0] == 0.0 and p_out[0] == 1.0
    p_in, p_out = st.tost(np.array([3.0]), np.array([0.0]), 3, 0.0, 2.0)
    assert p_in[0] == 1.0 and p_out[0] == 0.0


def test_holm_steps_down_and_stops_at_the_first_failure():
    # sorted 0.01 <= 0.05/4, 0.015 <= 0.05/3, 0.03 > 0.05/2: stop; 0.04 not rejected though < 0.05
    p = np.array([[0.03, 0.01, 0.04, 0.015]])
    assert st.holm(p).tolist() == [[False, True, False, True]]
    assert st.holm(np.array([[0.01, 0.02]])).tolist() == [[True, True]]  # 0.01 <= 0.025, 0.02 <= 0.05
    assert st.holm(np.array([[0.03, 0.04]])).tolist() == [[False, False]]  # 0.03 > 0.025
    # vectorised over simulations
    assert st.holm(np.array([[0.001, 0.9], [0.9, 0.001]])).tolist() == [[True, False], [False, True]]


@pytest.mark.parametrize("n_members", [6, 24])
def test_holm_keeps_the_familywise_error_of_members_truly_inside(n_members):
    """Every member's truth on the band's edge (the worst case inside): the
    chance that Holm calls any member outside stays near 5%, where one
    uncorrected 5% test per member would sink 1 - 0.95^24 = 71% of claims."""
    rng = np.random.default_rng(1)
    S, n = 4000, 2
    x = 1.0 + 0.1 * rng.standard_normal((S, n_members, n))
    cells = [x[:, i, :] for i in range(n_members)]
    s2, df = st.pooled_variance(cells)
    p_out = np.stack([st.tost(*st.combination([c], [1.0], s2), df, 0.0, 1.0)[1] for c in cells], -1)
    familywise = st.holm(p_out).any(-1).mean()
    uncorrected = (p_out < 0.05).any(-1).mean()
    assert familywise <= 0.07 and uncorrected > 0.2


def test_verdicts_not_reproduced_wins():
    assert st.verdicts(np.array([True, False, True, False]), np.array([False, False, True, True])).tolist() == [
        "reproduced", "inconclusive", "not reproduced", "not reproduced"]
