"""issue 20: the planner assumes the prior the reported interval will use.

``metric_distribution`` and ``evaluate`` default to Jeffreys' prior (α = ½) for the true value and to
the uniform prior (α = 1) for the next test set; ``plan_test_size(prior=None)`` (the default) now
does the same, records it in ``plan.prior`` and names it in the summary. References: scipy's Beta
quantiles (the true value of a rate) and the core's own distribution at the plan.
"""

from __future__ import annotations

import math

import pytest
from scipy import stats

import confusionlab as cl
from confusionlab.widgets.planner_view import PlannerView


def _smallest_positives(rate: float, half_width: float, alpha: float) -> int:
    """scipy only: the smallest p whose Beta(k + α, p − k + α) posterior (k = ⌊rate·p + ½⌋) has a
    central 95 % interval of half-width at most ``half_width``."""
    for p in range(2, 10**5):
        k = math.floor(rate * p + 0.5)
        lo, hi = stats.beta(k + alpha, p - k + alpha).ppf([0.025, 0.975])
        if (hi - lo) / 2 <= half_width:
            return p
    raise AssertionError("not reached")


def test_the_defaults_are_jeffreys_for_the_true_value_and_uniform_for_the_next_test_set():
    args = {"prevalence": 0.1, "tpr": 0.8, "tnr": 0.9, "half_width": 0.1}
    true = cl.plan_test_size("mcc", **args)
    nxt = cl.plan_test_size("mcc", **args, target="next_test_set")
    assert (true.target, true.prior) == ("true_value", 0.5)
    assert (nxt.target, nxt.prior) == ("next_test_set", 1.0)
    assert "Jeffreys' prior α = 0.5" in true.summary() and "uniform prior α = 1" in nxt.summary()
    # issue 39: the true value's model is the rates' Beta posterior, not the next test set's beta-binomial
    assert "(Beta posterior of each rate, Jeffreys' prior α = 0.5)" in true.summary()
    assert "beta-binomial" not in true.summary() and "(beta-binomial, uniform prior α = 1)" in nxt.summary()
    assert cl.plan_test_size("mcc", **args, prior="uniform").prior == 1.0
    assert cl.plan_test_size("mcc", **args, prior=2).prior == 2.0


@pytest.mark.parametrize(("rate", "half_width"), [(0.97, 0.05), (0.99, 0.03), (0.95, 0.1), (0.9, 0.04)])
def test_a_true_value_plan_of_sensitivity_is_scipys_jeffreys_posterior(rate, half_width):
    """Sensitivity's true value is TPR, whose posterior is Beta(TP + α, FN + α): the planned
    positives are scipy's smallest p for α = ½ (within one: the planner's quadrature interval has
    a documented cdf error), and far from the uniform prior's where the two priors disagree."""
    plan = cl.plan_test_size("recall", prevalence=0.5, tpr=rate, tnr=0.5, half_width=half_width)
    uniform = cl.plan_test_size("recall", prevalence=0.5, tpr=rate, tnr=0.5, half_width=half_width, prior="uniform")
    jeffreys_p, uniform_p = (_smallest_positives(rate, half_width, a) for a in (0.5, 1.0))
    assert abs(plan.p - jeffreys_p) <= 1
    assert abs(uniform.p - uniform_p) <= 1
    if abs(jeffreys_p - uniform_p) > 2:  # the two priors give other plans: the default is Jeffreys'
        assert abs(plan.p - uniform_p) > 2


def test_the_plan_reads_the_interval_the_default_distribution_reports():
    """At the planned matrix the plan's half-width is that of ``metric_distribution(...,
    target="true_value")`` at its own default prior (and not the uniform prior's)."""
    plan = cl.plan_test_size("balanced_accuracy", prevalence=0.05, tpr=0.8, tnr=0.9, half_width=0.05)
    lo, hi = cl.metric_distribution(plan.matrix, "balanced_accuracy", target="true_value").interval(0.95)
    assert plan.half_width == pytest.approx((hi - lo) / 2, rel=1e-12)
    lo_u, hi_u = cl.metric_distribution(
        plan.matrix, "balanced_accuracy", target="true_value", prior="uniform"
    ).interval(0.95)
    assert (hi_u - lo_u) / 2 != pytest.approx(plan.half_width, rel=1e-9)


def test_the_planner_view_plans_with_the_same_default():
    """The view's prior defaults to the plan's (None), so the view and plan_test_size agree; MCC at
    prevalence 0.5 plans 744 with Jeffreys' prior and 747 with the uniform one."""
    args = {"metric": "mcc", "prevalence": 0.5, "tpr": 0.8, "tnr": 0.9, "half_width": 0.05}
    plan = cl.plan_test_size(**args)
    view = PlannerView(**args)
    assert view.prior is None and view.plan()["N"] == plan.N
    view.prior = "uniform"
    assert view.plan()["N"] == cl.plan_test_size(**args, prior="uniform").N != plan.N
    assert PlannerView.from_plan(plan).plan()["N"] == plan.N
