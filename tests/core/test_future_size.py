"""``future_size`` is a total N or a pair (p, n), alike for every slice model; the simplex
model, whose prevalence is not fixed, takes N only.

The splits below are worked by hand from the rule p′ = ⌊N·p/(p + n) + ½⌋, n′ = N − p′
(keeping one example of each observed class once N ≥ 2); the PMFs are checked against
scipy's betabinom and binom, not against the code under test.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import confusionlab as cl
from confusionlab.models import slice_model

CM = cl.ConfusionMatrix(tp=16, fn=4, fp=8, tn=32)  # p = 20, n = 40


SPLITS = [
    (CM, 90, (30, 60)),  # 90·20/60 = 30 exactly
    (CM, 60, (20, 40)),  # the observed size gives back (p, n)
    (CM, 7, (2, 5)),  # 7·20/60 = 2.33… → 2
    (CM, 8, (3, 5)),  # 8·20/60 = 2.67… → 3
    (CM, 1, (0, 1)),  # 1·20/60 = 0.33… → 0 (one example cannot hold both classes)
    (cl.ConfusionMatrix(tp=1, fn=0, fp=0, tn=1), 3, (2, 1)),  # 3·1/2 = 1.5: a half rounds up
    (cl.ConfusionMatrix(tp=1, fn=0, fp=0, tn=99), 10, (1, 9)),  # 10·1/100 = 0.1 → 0, but one positive is kept
    (cl.ConfusionMatrix(tp=0, fn=0, fp=3, tn=5), 12, (0, 12)),  # no positives observed: none predicted
]


@pytest.mark.parametrize(("cm", "total", "pair"), SPLITS)
@pytest.mark.parametrize("model", ["binomial", "beta-binomial"])
def test_a_total_is_split_in_the_observed_proportions(cm, total, pair, model) -> None:
    by_total = cl.metric_distribution(cm, "accuracy", model, future_size=total, tolerance=0)
    by_pair = cl.metric_distribution(cm, "accuracy", model, future_size=pair, tolerance=0)
    assert by_total.origin.future_size == by_pair.origin.future_size == pair
    np.testing.assert_array_equal(by_total.values, by_pair.values)
    np.testing.assert_array_equal(by_total.probabilities, by_pair.probabilities)
    assert by_total.lattice_points == (pair[0] + 1) * (pair[1] + 1)
    sm = slice_model(cm, model, future_size=total, tolerance=0)
    assert (sm.p, sm.n) == pair


def test_the_split_lattice_is_the_predicted_test_set() -> None:
    """Recall on a future test set of N = 90 (30 positives): TP ~ BetaBin(30, 16 + 1, 4 + 1)."""
    d = cl.metric_distribution(CM, "recall", future_size=90, tolerance=0)
    k = np.arange(31)
    np.testing.assert_allclose(d.values, k / 30, rtol=0, atol=1e-15)
    np.testing.assert_allclose(d.probabilities, stats.betabinom.pmf(k, 30, 17, 5), rtol=1e-10, atol=1e-300)
    assert d.multiplicities.tolist() == [61] * 31  # every TN of the 60 negatives, for each TP
    b = cl.metric_distribution(CM, "specificity", "binomial", future_size=90, tolerance=0)
    np.testing.assert_allclose(b.probabilities, stats.binom.pmf(np.arange(61), 60, 0.8), rtol=1e-10, atol=1e-300)


def test_pair_and_total_are_validated_alike() -> None:
    for bad in (-1, 2.5, math.nan, "90", (5,), (5, 5, 5), (-1, 5), (True, 3)):
        with pytest.raises(cl.InvalidParameterError, match="future_size"):
            cl.metric_distribution(CM, "mcc", future_size=bad)


def test_the_simplex_model_takes_a_total_only() -> None:
    d = cl.metric_distribution(CM, "accuracy", "dirichlet-multinomial", future_size=10, tolerance=0)
    assert d.lattice_points == math.comb(10 + 3, 3)  # every matrix with 10 examples
    assert d.origin.future_size == 10
    with pytest.raises(cl.InvalidParameterError, match=r"one total N.*pass future_size=10 \(N = p \+ n\)"):
        cl.metric_distribution(CM, "accuracy", "dirichlet-multinomial", future_size=(4, 6))
    for bad in (-3, 2.5, "10", math.inf):
        with pytest.raises(cl.InvalidParameterError, match="future_size"):
            cl.metric_distribution(CM, "accuracy", "dirichlet-multinomial", future_size=bad)


def test_the_true_value_has_no_future_size() -> None:
    for size in (90, (30, 60)):
        with pytest.raises(cl.InvalidParameterError, match="target='true_value' has no test-set size"):
            cl.metric_distribution(CM, "mcc", target="true_value", future_size=size)


def test_numpy_sizes_are_accepted_like_python_ones() -> None:
    assert cl.metric_distribution(CM, "recall", future_size=np.array(90)).origin.future_size == (30, 60)
    assert cl.metric_distribution(CM, "recall", future_size=np.int64(90)).origin.future_size == (30, 60)
    assert cl.metric_distribution(CM, "recall", future_size=np.array([30, 60])).origin.future_size == (30, 60)
    simplex = cl.metric_distribution(CM, "accuracy", "dirichlet-multinomial", future_size=np.array(10))
    assert simplex.origin.future_size == 10
