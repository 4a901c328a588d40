"""2PL fit: recovery of known parameters, n(S*), optRF recommendation, refusals."""

from __future__ import annotations

import math
import warnings

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
    with pytest.warns(st.ExtrapolationWarning, match="2× the largest"):  # 5,000 > 2 × 2,000
        rec = fit.recommendation()
    assert rec.n_unrounded == n
    assert rec.n_learners == rec.value == round(n / 1000) * 1000 == 5000  # rounded to thousands
    assert rec.stability == pytest.approx(5000 / 5030, rel=1e-6)
    assert rec.gain_per_learner < 1e-6
    assert rec.expected_seconds is None


def test_recommendation_at_least_500():
    # p1 = 1, p2 = 3: gain (S(n+10) − S(n))/10 < 1e-6 from n = 40 on; rounds to 0 → 500
    n = [1, 2, 4, 8]
    with pytest.warns(st.ExtrapolationWarning):
        rec = st.fit_2pl(n, curve(n, 1.0, 3.0)).recommendation()
    assert rec.n_learners == 500


def test_time_model_from_measured_times():
    n = np.repeat(OPTRF_GRID, 3)
    seconds = 0.1 + 0.002 * n  # exactly linear
    fit = st.fit_2pl(n, curve(n, 30.0, 1.0), fit_seconds=seconds)
    a, b = fit.time_model
    assert a == pytest.approx(0.1, rel=1e-6) and b == pytest.approx(0.002, rel=1e-6)
    with pytest.warns(st.ExtrapolationWarning):
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
    with pytest.raises(TypeError, match="n_learners must be"):
        st.fit_2pl(["a", "b", "c", "d"], [0.5, 0.6, 0.7, 0.8])
    with pytest.raises(TypeError, match="stability must be"):
        st.fit_2pl([1, 2, 3, 4], "0.5")
    fit = st.fit_2pl([1, 2, 3, 4], [0.5, 0.6, 0.7, 0.8])
    for bad in (0.0, 1.0, 1.5, float("nan")):
        with pytest.raises(ValueError, match="target"):
            fit.learners_for(bad)
    for bad in ("x", None, True):
        with pytest.raises(TypeError, match="target"):
            fit.learners_for(bad)


def test_twopl_function_matches_plain_formula():
    n = [1, 7, 100, 5000]
    np.testing.assert_allclose(st.twopl(n, 42.0, 0.7), curve(n, 42.0, 0.7), rtol=1e-12)


# ------------------------------------------------------------------ degenerate fits say so
def test_plateau_is_degenerate_and_says_so():
    """Stability flat across the grid: the fit must not claim convergence nor give a count.

    Before: converged=True and learners_for(0.95) ≈ 5.6e-10 learners.
    """
    n = np.repeat([10, 20, 30, 40, 50], 5)
    s = 0.8 + np.random.default_rng(0).normal(0.0, 0.01, n.size)
    with pytest.warns(st.DegenerateFitWarning, match="plateau|does not increase"):
        fit = st.fit_2pl(n, s)
    assert not fit.converged and fit.degenerate and fit.reason
    with pytest.raises(ValueError, match="degenerate 2PL fit"):
        fit.learners_for(0.95)
    with pytest.raises(ValueError, match="degenerate 2PL fit"):
        fit.recommendation()


def test_exactly_flat_data_are_degenerate():
    with pytest.warns(st.DegenerateFitWarning):
        fit = st.fit_2pl([10, 20, 30, 40, 50], [0.8] * 5)
    with pytest.raises(ValueError, match="degenerate"):
        fit.learners_for(0.95)


def test_decreasing_data_refused_not_zero_division():
    """Before: learners_for raised ZeroDivisionError on decreasing stability."""
    with pytest.warns(st.DegenerateFitWarning, match="does not increase"):
        fit = st.fit_2pl([10, 20, 30, 40, 50], [0.9, 0.85, 0.8, 0.75, 0.7])
    assert not fit.converged
    # the degenerate curve can still be drawn through the measured points (a view does so)
    assert np.all(np.isfinite(fit.predict([10, 30, 50])))
    assert fit.rmse < 0.1
    with pytest.raises(ValueError, match="does not increase"):
        fit.learners_for(0.95)
    with pytest.raises(ValueError, match="does not increase"):
        fit.recommendation()


def test_learners_for_never_below_one():
    # p1 = 2, p2 = 1: n(0.2) = 2 · (0.2 / 0.8) = 0.5 < 1 → one learner is enough
    n = [1, 2, 4, 8]
    fit = st.fit_2pl(n, curve(n, 2.0, 1.0))
    assert fit.learners_for(0.2) == 1.0
    assert fit.learners_for(0.5) == pytest.approx(2.0, rel=1e-6)


def test_learners_for_unreachable_target_is_a_value_error():
    # p1 = 10, p2 = 0.05: n(0.999) = 10 · 999^20 ≈ 1e61 learners → refused, never inf/overflow
    n = np.array([10.0, 100.0, 1000.0, 10000.0])
    fit = st.TwoPLFit(p1=10.0, p2=0.05, n_learners=n, stability=curve(n, 10.0, 0.05))
    with pytest.raises(ValueError, match="effectively never"):
        fit.learners_for(0.999)


@pytest.mark.parametrize(
    ("kwargs", "exc", "match"),
    [
        ({"step": 0}, ValueError, "step must be at least 1"),  # before: an endless loop
        ({"step": -10}, ValueError, "step must be at least 1"),
        ({"step": 2.5}, TypeError, "step must be an integer"),
        ({"step": "10"}, TypeError, "step must be an integer"),
        ({"tol": 0.0}, ValueError, "tol must be a finite positive"),
        ({"tol": float("nan")}, ValueError, "tol must be a finite positive"),
        ({"tol": "small"}, TypeError, "tol must be"),
        ({"round_to": 0}, ValueError, "round_to must be at least 1"),
        ({"minimum": 0}, ValueError, "minimum must be at least 1"),
        ({"max_learners": 5}, ValueError, "max_learners must be at least 10"),
        ({"max_learners": 10**30}, ValueError, "max_learners must be at most"),
    ],
)
def test_recommendation_refuses_bad_arguments(kwargs, exc, match):
    n = [10, 20, 50, 100]
    fit = st.fit_2pl(n, curve(n, 20.0, 1.0))
    with pytest.raises(exc, match=match):
        fit.recommendation(**kwargs)


def test_recommendation_gives_up_at_max_learners():
    # p1 = 30, p2 = 1: the gain falls below 1e-6 only at n = 5450 (see above)
    fit = st.fit_2pl(OPTRF_GRID, curve(OPTRF_GRID, 30.0, 1.0))
    with pytest.raises(ValueError, match="still above"):
        fit.recommendation(max_learners=5000)


def test_recommendation_bisection_matches_plain_search_on_many_curves():
    """The first n (on step, 2·step, …, n ≥ p1) with gain < tol, by a plain loop here."""
    for p1, p2, step, tol in [(5.0, 0.7, 10, 1e-5), (80.0, 2.0, 5, 1e-6), (3.0, 1.3, 1, 1e-4)]:
        grid = np.array([p1 / 2, p1, 2 * p1, 4 * p1, 8 * p1])
        fit = st.TwoPLFit(p1=p1, p2=p2, n_learners=grid, stability=curve(grid, p1, p2))
        k = max(1, math.ceil(p1 / step))
        while not (curve([(k + 1) * step], p1, p2)[0] - curve([k * step], p1, p2)[0]) / step < tol:
            k += 1
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", st.ExtrapolationWarning)
            rec = fit.recommendation(step=step, tol=tol, round_to=1, minimum=1)
        assert rec.n_unrounded == k * step == rec.n_learners


# ------------------------------------------------------------- extrapolation and explanations
def test_learners_for_warns_far_beyond_the_grid():
    """A grid ending at 50 trees must not silently answer 10⁵ trees."""
    n = [3, 6, 12, 25, 50]
    fit = st.fit_2pl(n, curve(n, 10.0, 0.8))
    # inside the factor-2 band: n(0.8) = 10 · 4^(1/0.8) = 56.6 — no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error", st.ExtrapolationWarning)
        assert fit.learners_for(0.8) == pytest.approx(10 * 4 ** (1 / 0.8), rel=1e-6)
    # n(0.999) = 10 · 999^(1/0.8) ≈ 56,200 — an extrapolation, said so
    with pytest.warns(st.ExtrapolationWarning, match="largest measured number of learners"):
        far = fit.learners_for(0.999)
    assert far == pytest.approx(10 * 999 ** (1 / 0.8), rel=1e-6)


def test_recommendation_explains_how_it_differs_from_learners_for():
    # p1 = 30, p2 = 1: learners_for(0.95) = 30 · 19 = 570, the gain rule says 5,450 → 5,000
    fit = st.fit_2pl(OPTRF_GRID, curve(OPTRF_GRID, 30.0, 1.0))
    with pytest.warns(st.ExtrapolationWarning):
        rec = fit.recommendation()
    assert fit.learners_for(0.95) == pytest.approx(570.0, rel=1e-6)
    assert rec.extrapolated
    assert "1e-06" in rec.criterion and "nearest 1,000" in rec.criterion and "5,450" in rec.criterion
    assert "learners_for(0.95) ≈ 570" in rec.note
    assert "does not aim at a stability level" in rec.note
    assert "EXTRAPOLATED" in str(rec)
    assert rec.stability == pytest.approx(5000 / 5030, rel=1e-6)


# ---- issue 21: a negative number of learners was read as NaN, silently
@pytest.mark.parametrize("bad", [-1, [10, -0.5], float("nan"), "10", None, True])
def test_predict_refuses_what_is_not_a_number_of_learners(bad):
    from confusionlab import InvalidParameterError

    n = np.array([10, 20, 40, 80, 160])
    fit = st.fit_2pl(n, curve(n, 55.0, 0.8))
    with pytest.raises(InvalidParameterError, match="n_learners"):
        fit.predict(bad)
    assert fit.predict(0) == 0.0 and fit.predict(np.int64(55)) == pytest.approx(0.5)
