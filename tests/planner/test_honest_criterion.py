"""Regression tests for the planner's honesty (issue 20): the degenerate binomial plug-in,
the question asked (``target=``), the stable size, and assurance at its defaults.

Expected numbers come from scipy (binomial quantiles, Beta posteriors), never from the
planner itself.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from confusionlab.planner import plan_test_size

from . import _reference as ref


# ----------------------------------------------------------------------------- defect 1: degenerate binomial
def _binomial_recall_half_width(p: int, tp: int, confidence: float = 0.95) -> float:
    """Half-width of the central interval of TP'/p, TP' ~ Binomial(p, tp/p), from scipy's quantiles."""
    a = (1 - confidence) / 2
    lo = stats.binom.ppf(a, p, tp / p)
    hi = stats.binom.ppf(1 - a, p, tp / p)
    return (hi - lo) / 2 / p


@pytest.mark.parametrize("metric", ["mcc", "recall", "balanced_accuracy", "f1"])
def test_binomial_plan_is_not_the_degenerate_size(metric):
    """At N = 2 the planned matrix is (1, 0, 0, 1): the binomial plug-in's marginals have no
    spread (0 or all successes), so its zero-width interval says nothing; the plan must not
    accept it, nor any size where a marginal the metric reads is degenerate."""
    plan = plan_test_size(metric, prevalence=0.25, tpr=0.62, tnr=0.93, half_width=0.03, model="binomial")
    assert plan.N > 100
    assert plan.half_width > 0
    assert 0 < plan.tp < plan.p
    if metric != "recall":
        assert 0 < plan.tn < plan.n


def test_binomial_recall_plan_equals_a_scipy_scan():
    """Recall reads the positives only: the plan is the smallest N whose positives' marginal is
    not degenerate (0 < TP < p) and whose binomial interval (scipy's ppf) is at most ± 0.05."""
    prevalence, tpr, h = 0.3, 0.9, 0.05
    expected = None
    for N in range(2, 5000):
        p, _, tp, _ = ref.counts(N, prevalence, tpr, 0.5)
        if 0 < tp < p and _binomial_recall_half_width(p, tp) <= h + 1e-12:
            expected = N
            break
    plan = plan_test_size("recall", prevalence=prevalence, tpr=tpr, tnr=0.5, half_width=h, model="binomial")
    assert plan.N == expected
    assert plan.half_width == pytest.approx(_binomial_recall_half_width(plan.p, plan.tp), abs=1e-12)


def test_degenerate_sizes_are_recorded_as_undefined_in_the_curve():
    plan = plan_test_size("recall", prevalence=0.5, tpr=0.99, tnr=0.5, half_width=0.05, model="binomial")
    # every p below 50 rounds TP to p (0.99·p + ½ ≥ p): no such size can be the plan
    assert plan.p >= 50
    for N, width in plan.curve.items():
        p, _, tp, _ = ref.counts(N, 0.5, 0.99, 0.5)
        if tp in (0, p):
            assert math.isnan(width)
    assert not plan.to_frame()["reached"][np.isnan(plan.to_frame()["half_width"])].any()
