"""The fast stratified bootstrap against the pair-by-pair one, by simulation (fixed seeds).

Large bins draw the number of resampled positives exactly (binomial) and the resampled
sums of forecasts and squared errors by the normal approximation given it; these tests
check that the distributions of the resampled ECE and Brier score agree with the exact
pair-by-pair bootstrap within Monte Carlo error, and the stated error bound against an
independent computation.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import confusionlab as cl
from confusionlab.calibration._bins import bin_forecasts
from confusionlab.calibration._ece import _wasserstein_bound, bootstrap

R = 4000


def _bins(n, bins, seed, power=1.0, strategy="quantile"):
    rng = np.random.default_rng(seed)
    q = rng.beta(2, 3, size=n)
    y = rng.uniform(size=n) < q**power
    return bin_forecasts(q, y, bins, strategy)


def _both(b, seed):
    exact = bootstrap(b, R, np.random.default_rng(seed), exact_max=10**9, exact_budget=10**12)
    fast = bootstrap(b, R, np.random.default_rng(seed + 1), exact_max=0)
    assert exact.normal_bins == 0 and exact.ece_error == exact.brier_error == 0.0
    assert fast.exact_bins == 0 and fast.normal_bins == b.counts.size
    return exact, fast


@pytest.mark.parametrize(
    ("n", "bins", "power", "strategy"),
    [(1000, 5, 1.0, "quantile"), (3000, 10, 1.6, "quantile"), (2000, 8, 0.7, "uniform")],
)
def test_normal_bins_agree_with_the_pair_by_pair_bootstrap(n, bins, power, strategy):
    b = _bins(n, bins, seed=n + bins, power=power, strategy=strategy)
    exact, fast = _both(b, seed=bins)
    for a, c in ((exact.ece, fast.ece), (exact.brier, fast.brier)):
        assert stats.ks_2samp(a, c).pvalue > 1e-3
        # the interval's ends within Monte Carlo error: 4 standard errors of an order statistic
        for level in (0.025, 0.5, 0.975):
            qa, qc = np.quantile(a, level), np.quantile(c, level)
            se = math.sqrt(level * (1 - level) / R) / stats.gaussian_kde(a)(qa)[0]
            assert abs(qa - qc) < 4 * math.sqrt(2) * se
        assert c.mean() == pytest.approx(a.mean(), abs=4 * math.sqrt(2 / R) * a.std())


def test_identical_forecasts_in_a_bin_are_drawn_exactly():
    """With one forecast value per class, S* = m·q given K* = m: the ECE* is |K* − k q|/N exactly."""
    k, qv = 400, 0.3
    q = np.full(k, qv)
    y = np.arange(k) < 140
    b = bin_forecasts(q, y, 1, "uniform")
    fast = bootstrap(b, R, np.random.default_rng(3), exact_max=0)
    assert fast.ece_error == 0.0 and fast.normal_bins == 1
    m = np.arange(k + 1)
    values = np.abs(m - k * qv) / k
    pmf = stats.binom.pmf(m, k, 140 / k)
    atoms, which = np.unique(np.round(values, 12), return_inverse=True)  # |m − kq| = |m′ − kq| share an atom
    cdf = np.cumsum(np.bincount(which, weights=pmf))
    drawn = np.sort(fast.ece)
    # the empirical CDF at every atom against the exact one (1e-9 absorbs the float sums)
    empirical = np.searchsorted(drawn, atoms + 1e-9, side="right") / R
    assert np.max(np.abs(empirical - cdf)) < 1.63 / math.sqrt(R)  # Kolmogorov–Smirnov at 1 %


def test_error_bound_equals_its_definition_by_integer_binomial_weights():
    rng = np.random.default_rng(5)
    k, p = 37, 0.4
    rho, var = (rng.uniform(), rng.uniform()), (rng.uniform(), rng.uniform())
    direct = sum(
        math.comb(k, m) * p**m * (1 - p) ** (k - m) * (m * rho[0] + (k - m) * rho[1]) / (m * var[0] + (k - m) * var[1])
        for m in range(k + 1)
    )
    assert _wasserstein_bound(k, p, rho, var) == pytest.approx(direct, rel=1e-12)


def test_small_data_is_resampled_pair_by_pair_and_large_bins_state_a_small_error():
    q, y = np.linspace(0.01, 0.99, 500), np.arange(500) % 3 == 0
    small = cl.calibration(y, q, bins=5, n_resamples=200, random_state=0)
    assert small.bootstrap_error.normal_bins == 0 and small.bootstrap_error.ece_error == 0.0
    rng = np.random.default_rng(1)
    q = rng.uniform(size=200_000)
    y = rng.uniform(size=q.size) < q
    big = cl.calibration(y, q, bins=10, n_resamples=500, random_state=0)
    err = big.bootstrap_error
    assert err.normal_bins == 10 and err.exact_bins == 0
    lo, hi = big.interval(0.95)
    assert 0 < err.ece_error < 0.01 * (hi - lo)
    b_lo, b_hi = big.brier_interval(0.95)
    assert 0 < err.brier_error < 0.01 * (b_hi - b_lo)
