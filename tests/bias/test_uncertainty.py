"""Posterior predictive uncertainty: checked against scipy's beta-binomial moments."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from confusionlab import bias
from confusionlab.bias import label_metrics as lm
from confusionlab.bias import uncertainty as un


def _bb_moments(n, k, alpha=1.0):
    d = stats.betabinom(n, k + alpha, n - k + alpha)
    return d.mean() / n, d.var() / n**2


def test_exact_dpl_moments_equal_scipy_betabinom():
    o = np.array([[140, 60], [90, 15]])  # [neg, pos] for a and d
    dist = un.exact_binary_facets(lm.difference_in_proportions, o)
    assert dist.strategy.startswith("exact")
    ma, va = _bb_moments(200, 60)
    md, vd = _bb_moments(105, 15)
    assert dist.mean() == pytest.approx(ma - md, abs=1e-9)
    assert dist.std() == pytest.approx(np.sqrt(va + vd), abs=1e-8)
    assert dist.pruned_mass < 1e-8


def test_jeffreys_prior_changes_the_model():
    o = np.array([[20, 5], [8, 1]])
    u = un.exact_binary_facets(lm.difference_in_proportions, o, prior="uniform")
    j = un.exact_binary_facets(lm.difference_in_proportions, o, prior="jeffreys")
    ma, _ = _bb_moments(25, 5, 0.5)
    md, _ = _bb_moments(9, 1, 0.5)
    assert j.mean() == pytest.approx(ma - md, abs=1e-9)
    assert u.mean() != pytest.approx(j.mean(), abs=1e-4)


def test_monte_carlo_fallback_agrees_with_exact():
    o = np.array([[300, 100], [150, 30]])
    exact = un.exact_binary_facets(lm.difference_in_proportions, o)
    mc = un.exact_binary_facets(lm.difference_in_proportions, o, max_points=10, n_samples=40000)
    assert mc.strategy == "monte carlo: 40000 draws, random_state 0"
    assert mc.mean() == pytest.approx(exact.mean(), abs=3 * exact.std() / np.sqrt(40000) + 1e-4)
    assert mc.std() == pytest.approx(exact.std(), rel=0.03)
    lo_e, hi_e = exact.interval(0.9)
    lo_m, hi_m = mc.interval(0.9)
    assert abs(lo_e - lo_m) < 0.01 and abs(hi_e - hi_m) < 0.01


def test_dirichlet_multinomial_draws_have_the_right_moments():
    cells = np.array([30, 10, 5, 55])
    n, a = cells.sum(), cells + 1.0
    draws = un.dirichlet_multinomial_draws(cells, n_samples=50000, random_state=3)
    assert draws.shape == (50000, 4) and (draws.sum(axis=1) == n).all()
    a0 = a.sum()
    mean = n * a / a0
    var = n * (a / a0) * (1 - a / a0) * (n + a0) / (1 + a0)  # DirMult variance
    np.testing.assert_allclose(draws.mean(axis=0), mean, rtol=0.02)
    np.testing.assert_allclose(draws.var(axis=0), var, rtol=0.05)


def test_ci_distribution_is_exact_betabinomial_over_facet_sizes():
    d = un.exact_facet_sizes(lm.class_imbalance, np.array([70, 30]))
    bb = stats.betabinom(100, 31, 71)
    # CI = (N - 2 n_d)/N is linear in n_d
    assert d.mean() == pytest.approx((100 - 2 * bb.mean()) / 100, abs=1e-9)
    assert d.std() == pytest.approx(2 * bb.std() / 100, abs=1e-9)


def test_distribution_api():
    d = un.posterior_distribution(np.array([0.3, -0.1, 0.2, np.nan]), np.full(4, 0.25), metric="DPL", strategy="exact")
    assert d.undefined_mass == pytest.approx(0.25)
    assert d.values.tolist() == [-0.1, 0.2, 0.3]
    assert d.cdf(0.2) == pytest.approx(2 / 3)
    assert d.ppf(0.5) == pytest.approx(0.2)
    assert un.prob_sign_real(d, 0.25) == pytest.approx(2 / 3)
    assert un.prob_sign_real(d, -0.3) == pytest.approx(1 / 3)
    assert np.isnan(un.prob_sign_real(d, 0.0))
    assert d.to_scipy().mean() == pytest.approx(d.mean())
    assert un.posterior_distribution(np.array([np.nan]), np.ones(1), metric="KL", strategy="exact") is None


def test_intervals_shrink_with_facet_size():
    """Same rates, 16x the rows: the DPPL interval is about 4x narrower."""
    small = bias.CountTable.from_confusion(a=(30, 20, 10, 40), d=(10, 15, 5, 30))
    big = bias.CountTable.from_confusion(a=(480, 320, 160, 640), d=(160, 240, 80, 480))
    ws = np.diff(bias.report_from_counts(small)["DPPL"].interval(0.95))[0]
    wb = np.diff(bias.report_from_counts(big)["DPPL"].interval(0.95))[0]
    assert 3.4 < ws / wb < 4.6


def test_every_count_based_metric_has_an_interval_and_ft_none():
    t = bias.CountTable.from_confusion(a=(300, 100, 40, 500), d=(60, 40, 10, 150))
    r = bias.report_from_counts(t, n_samples=2000)
    for name, m in r.items():
        if m.value is None:
            continue
        lo, hi = m.interval(0.95)
        assert lo <= hi, name
        assert 0.0 <= m.prob_sign_real <= 1.0 or np.isnan(m.prob_sign_real), name
    assert "FT" not in r  # counts only: FT needs rows


def test_monte_carlo_is_reproducible():
    t = bias.CountTable.from_confusion(a=(30, 10, 4, 50), d=(6, 4, 1, 15))
    a = bias.report_from_counts(t, random_state=7)["AD"].interval()
    b = bias.report_from_counts(t, random_state=7)["AD"].interval()
    c = bias.report_from_counts(t, random_state=8)["AD"].interval()
    assert a == b and a != c
