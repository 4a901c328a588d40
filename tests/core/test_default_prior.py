"""One default prior for the true value across the library (issue 20): Jeffreys' α = ½.

`metric_distribution(target="true_value")` defaulted to α = 1 while `evaluate` used α = ½; the
coverage study (benchmarks/bench_coverage.py, RESULTS.md) chose α = ½. On the old code the recall
posterior below was Beta(17, 5), whose cdf is more than 0.02 from Beta(16.5, 4.5)'s — far beyond the
quadrature's stated cdf error (0.005) — so these tests fail there.
"""

from __future__ import annotations

import numpy as np
from scipy import stats

import confusionlab as cl
from confusionlab.distribution import TRUE_VALUE_PRIOR

CM = cl.ConfusionMatrix(tp=16, fn=4, fp=8, tn=32)


def test_true_value_default_is_the_jeffreys_beta_posterior() -> None:
    d = cl.metric_distribution(CM, "recall", target="true_value")
    grid = np.linspace(0.3, 1.0, 141)
    assert np.abs(np.asarray(d.cdf(grid)) - stats.beta.cdf(grid, 16 + 0.5, 4 + 0.5)).max() <= d.cdf_error
    # and not the uniform prior's Beta(17, 5): the two differ by more than the error bound
    assert np.abs(stats.beta.cdf(grid, 17, 5) - stats.beta.cdf(grid, 16.5, 4.5)).max() > 4 * d.cdf_error
    assert TRUE_VALUE_PRIOR == 0.5 and d.origin.prior == 0.5


def test_next_test_set_default_stays_uniform() -> None:
    d = cl.metric_distribution(CM, "recall")
    k = np.arange(21)
    np.testing.assert_allclose(d.pmf(k / 20), stats.betabinom.pmf(k, 20, 17, 5), atol=1e-12)


def test_metric_distribution_and_evaluate_share_the_true_value_default() -> None:
    y = np.r_[np.ones(20, int), np.zeros(40, int)]
    p = np.r_[np.ones(16, int), np.zeros(4, int), np.ones(8, int), np.zeros(32, int)]
    ev = cl.evaluate(y, p, metrics=["mcc"], target="true_value")
    d = cl.metric_distribution(CM, "mcc", target="true_value")
    assert ev.interval(0.95)["mcc"] == d.interval(0.95)
    assert d.interval(0.95) == cl.metric_distribution(CM, "mcc", target="true_value", prior="jeffreys").interval(0.95)
    assert d.interval(0.95) != cl.metric_distribution(CM, "mcc", target="true_value", prior="uniform").interval(0.95)
