"""``ppf(1.0)`` is the top of the support even when the upper tail holds less than rounding
(issue 35 item 16): the running sum reaches 1.0 a few atoms early, and scipy's ``rv_discrete``
(the reference, run on the same atoms) still answers the largest value."""

from __future__ import annotations

import numpy as np
import pytest

import confusionlab as cl

CELLS = ("tp", "fn", "fp", "tn")


def test_issue_example_reaches_one():
    """accuracy under the binomial model: the atom 1.0 carries 2e-18, below the sum's rounding."""
    d = cl.metric_distribution(cl.ConfusionMatrix(tp=11, fn=12, fp=18, tn=23), "accuracy", "binomial")
    assert d.probabilities[-1] > 0
    assert d.ppf(1.0) == 1.0 == d.to_scipy().ppf(1.0)


@pytest.mark.parametrize("seed", range(3))
def test_quantiles_agree_with_scipy(seed):
    rng = np.random.default_rng(seed)
    qs = np.array([1.0, 1 - 1e-12, 0.975, 0.5, 0.025, 1e-13])
    for i in range(40):
        cells = dict(zip(CELLS, map(int, rng.integers(0, 25, 4)), strict=True))
        metric = ("accuracy", "balanced_accuracy", "mcc", "f1")[i % 4]
        model = ("binomial", "beta-binomial", "dirichlet-multinomial")[i % 3]
        d = cl.metric_distribution(cl.ConfusionMatrix(**cells), metric, model)
        assert np.array_equal(d.ppf(qs), d.to_scipy().ppf(qs)), (cells, metric, model)
        assert d.ppf(d.cdf(d.values[-1])) == d.values[d.probabilities > 0][-1]
