"""2PL fit: recovery of known parameters, n(S*), optRF recommendation, refusals."""

from __future__ import annotations

import numpy as np
import pytest

from confusionlab import stability as st

OPTRF_GRID = np.array([250, 500, 750, 1000, 2000])


def curve(n, p1, p2):
    """The 2PL written out plainly: S(n) = 1 / (1 + (p1/n)^p2)."""
    return np.array([1.0 / (1.0 + (p1 / float(k)) ** p2) for k in n])


def test_exact_curve_recovered():
    n = np.array([10, 30, 100, 300, 1000])
    fit = st.fit_2pl(n, curve(n, 55.0, 0.8))
    assert fit.p1 == pytest.approx(55.0, rel=1e-6)
    assert fit.p2 == pytest.approx(0.8, rel=1e-6)
    assert fit.converged and fit.rmse < 1e-8


@pytest.mark.parametrize("seed", range(5))
def test_noisy_repeated_curve_recovered(seed):
    rng = np.random.default_rng(seed)
    p1, p2 = 120.0, 1.1
    n = np.repeat(OPTRF_GRID, 10)
    s = curve(n, p1, p2) + rng.normal(0.0, 0.003, size=n.size)
    fit = st.fit_2pl(n, s)
    assert fit.p1 == pytest.approx(p1, rel=0.1)
    assert fit.p2 == pytest.approx(p2, rel=0.1)


def test_learners_for_hand_computed():
    # p1 = 100, p2 = 1: n(0.8) = 100 / (1/0.8 − 1) = 400;  p2 = 2: n(0.8) = 100/0.25^(1/2) = 200
    n = [50, 100, 200, 400, 800]
    assert st.fit_2pl(n, curve(n, 100, 1)).learners_for(0.8) == pytest.approx(400, rel=1e-6)
    assert st.fit_2pl(n, curve(n, 100, 2)).learners_for(0.8) == pytest.approx(200, rel=1e-6)


def test_recommendation_matches_plain_search():
    p1, p2 = 30.0, 1.0
    fit = st.fit_2pl(OPTRF_GRID, curve(OPTRF_GRID, p1, p2))
    # plain search: first n = 10, 20, … (n ≥ p1) with (S(n+10) − S(n))/10 < 1e-6
    n = 10
    while not (n >= p1 and (curve([n + 10], p1, p2)[0] - curve([n], p1, p2)[0]) / 10 < 1e-6):
        n += 10
    assert n == 5450  # (n+30)(n+40) > 3e7 first at n = 5450
    rec = fit.recommendation()
    assert rec.n_learners == round(n / 1000) * 1000 == 5000  # rounded to thousands
    assert rec.stability == pytest.approx(5000 / 5030, rel=1e-6)
    assert rec.gain_per_learner < 1e-6
    assert rec.expected_seconds is None


def test_recommendation_at_least_500():
    # p1 = 1, p2 = 3: gain (S(n+10) − S(n))/10 < 1e-6 from n = 40 on; rounds to 0 → 500
    n = [1, 2, 4, 8]
    rec = st.fit_2pl(n, curve(n, 1.0, 3.0)).recommendation()
    assert rec.n_learners == 500


def test_time_model_from_measured_times():
    n = np.repeat(OPTRF_GRID, 3)
    seconds = 0.1 + 0.002 * n  # exactly linear
    fit = st.fit_2pl(n, curve(n, 30.0, 1.0), fit_seconds=seconds)
    a, b = fit.time_model
    assert a == pytest.approx(0.1, rel=1e-6) and b == pytest.approx(0.002, rel=1e-6)
    rec = fit.recommendation()
    assert rec.expected_seconds == pytest.approx(0.1 + 0.002 * 5000, rel=1e-6)
    assert "expected fit time" in str(rec)


def test_refuses_fewer_than_four_grid_points():
    with pytest.raises(ValueError, match="at least 4 distinct"):
        st.fit_2pl([10, 10, 20, 30], [0.5, 0.6, 0.7, 0.8])


def test_refuses_non_positive_stability_with_advice():
    with pytest.raises(ValueError, match=r"S <= 0 at n_learners=\[10\].*clip"):
        st.fit_2pl([10, 20, 30, 40], [-0.1, 0.6, 0.7, 0.8])


def test_bad_inputs():
    with pytest.raises(ValueError, match="same length"):
        st.fit_2pl([1, 2, 3, 4], [0.5, 0.6])
    with pytest.raises(ValueError, match="positive and finite"):
        st.fit_2pl([0, 2, 3, 4], [0.5, 0.6, 0.7, 0.8])
    with pytest.raises(ValueError, match="exceed 1"):
        st.fit_2pl([1, 2, 3, 4], [0.5, 0.6, 0.7, 1.2])
    with pytest.raises(ValueError, match="stability is 1 at every"):
        st.fit_2pl([1, 2, 3, 4], [1, 1, 1, 1])
    fit = st.fit_2pl([1, 2, 3, 4], [0.5, 0.6, 0.7, 0.8])
    for bad in (0.0, 1.0, 1.5, "x"):
        with pytest.raises(ValueError, match="target"):
            fit.learners_for(bad)


def test_twopl_function_matches_plain_formula():
    n = [1, 7, 100, 5000]
    np.testing.assert_allclose(st.twopl(n, 42.0, 0.7), curve(n, 42.0, 0.7), rtol=1e-12)
