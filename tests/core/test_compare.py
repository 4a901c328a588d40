"""compare(): P(A > B) and the distribution of A − B against brute force."""

from __future__ import annotations

import numpy as np
import pytest

import confusionlab as cl


def _brute(a: cl.MetricDistribution, b: cl.MetricDistribution) -> tuple[float, float, float]:
    pa = a.probabilities / a.probabilities.sum()
    pb = b.probabilities / b.probabilities.sum()
    gt = eq = lt = 0.0
    for va, wa in zip(a.values, pa, strict=True):
        for vb, wb in zip(b.values, pb, strict=True):
            if va > vb:
                gt += wa * wb
            elif va == vb:
                eq += wa * wb
            else:
                lt += wa * wb
    return gt, eq, lt


@pytest.mark.parametrize("metric", ["accuracy", "mcc", "f1"])
def test_probabilities_match_pairwise_enumeration(metric: str) -> None:
    a = cl.metric_distribution(cl.ConfusionMatrix(tp=16, fn=4, fp=8, tn=32), metric, tolerance=0)
    b = cl.metric_distribution(cl.ConfusionMatrix(tp=15, fn=5, fp=9, tn=31), metric, tolerance=0)
    c = cl.compare(a, b)
    gt, eq, lt = _brute(a, b)
    assert (c.prob_greater, c.prob_equal, c.prob_less) == pytest.approx((gt, eq, lt), abs=1e-12)
    assert c.prob_equal > 0  # same slice sizes: ties are real and must be counted
    diff = c.difference
    assert diff.probabilities.sum() == pytest.approx(1.0)
    assert diff.mean() == pytest.approx(a.mean() - b.mean(), abs=1e-12)
    assert diff.var() == pytest.approx(a.var() + b.var(), rel=1e-9)
    assert diff.sf(0.0) == pytest.approx(gt, abs=1e-9)


def test_binned_difference_keeps_moments() -> None:
    a = cl.metric_distribution(cl.ConfusionMatrix(tp=16, fn=4, fp=8, tn=32), "mcc")
    b = cl.metric_distribution(cl.ConfusionMatrix(tp=15, fn=5, fp=9, tn=31), "mcc")
    c = cl.compare(a, b, max_pairs=1000, bins=4001)
    assert c.difference.strategy == "binned(4001)"
    assert c.difference.mean() == pytest.approx(a.mean() - b.mean(), abs=1e-3)
    assert c.prob_greater + c.prob_equal + c.prob_less == pytest.approx(1.0)
    gt, _, _ = _brute(a, b)
    assert c.prob_greater == pytest.approx(gt, abs=1e-10)  # summation order differs


def test_identical_distributions_are_a_coin_flip() -> None:
    a = cl.metric_distribution(cl.ConfusionMatrix(tp=16, fn=4, fp=8, tn=32), "balanced_accuracy")
    c = cl.compare(a, a)
    assert c.prob_greater == pytest.approx(c.prob_less, abs=1e-12)
    np.testing.assert_allclose(c.difference.mean(), 0, atol=1e-12)
