"""F-beta at an extreme beta: distinct exact values that are the same double are one value (the
grouping's contract), not "values must be strictly increasing". Reference: the beta-binomial
lattice enumerated with exact fractions (scipy's masses), grouped by the double of each value."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

import confusionlab as cl


@pytest.mark.parametrize(
    ("name", "beta2"), [("f100000000000", Fraction(10) ** 22), ("f0.000000001", Fraction(1, 10**18))]
)
def test_extreme_fbeta_groups_equal_doubles(name, beta2):
    tp, fn, fp, tn = 16, 4, 8, 32
    p, n = tp + fn, fp + tn
    d = cl.metric_distribution(cl.ConfusionMatrix(tp=tp, fn=fn, fp=fp, tn=tn), name, tolerance=0)
    w_tp = stats.betabinom.pmf(np.arange(p + 1), p, tp + 1, fn + 1)
    w_tn = stats.betabinom.pmf(np.arange(n + 1), n, tn + 1, fp + 1)
    masses: dict[float, float] = defaultdict(float)
    for a in range(p + 1):
        for b in range(n + 1):
            num, den = (1 + beta2) * a, (1 + beta2) * a + beta2 * (p - a) + (n - b)
            if den == 0:
                continue
            masses[float(Fraction(num) / den)] += w_tp[a] * w_tn[b]
    values = sorted(masses)
    assert len(d.values) == len(values)
    assert np.allclose(d.values, values, rtol=4e-16, atol=0)  # within an ulp of the correctly rounded value
    assert np.allclose(d.probabilities, [masses[v] for v in values], atol=1e-12, rtol=0)
