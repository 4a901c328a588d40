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

import confusionlab as cl
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
    plan = plan_test_size(
        metric, prevalence=0.25, tpr=0.62, tnr=0.93, half_width=0.03, model="binomial", target="next_test_set"
    )
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
    plan = plan_test_size(
        "recall", prevalence=prevalence, tpr=tpr, tnr=0.5, half_width=h, model="binomial", target="next_test_set"
    )
    assert plan.N == expected
    assert plan.half_width == pytest.approx(_binomial_recall_half_width(plan.p, plan.tp), abs=1e-12)


def test_degenerate_sizes_are_recorded_as_undefined_in_the_curve():
    plan = plan_test_size(
        "recall", prevalence=0.5, tpr=0.99, tnr=0.5, half_width=0.05, model="binomial", target="next_test_set"
    )
    # every p below 50 rounds TP to p (0.99·p + ½ ≥ p): no such size can be the plan
    assert plan.p >= 50
    for N, width in plan.curve.items():
        p, _, tp, _ = ref.counts(N, 0.5, 0.99, 0.5)
        if tp in (0, p):
            assert math.isnan(width)
    assert not plan.to_frame()["reached"][np.isnan(plan.to_frame()["half_width"])].any()


# ----------------------------------------------------------------------------- target: the question
def _beta_half_width(k: int, trials: int, confidence: float = 0.95, prior: float = 1.0) -> float:
    a = (1 - confidence) / 2
    lo, hi = stats.beta.ppf([a, 1 - a], k + prior, trials - k + prior)
    return (hi - lo) / 2


def test_true_value_is_the_default_and_plans_the_posterior_interval():
    """Recall's true value: its posterior is Beta(TP + 1, FN + 1) (scipy). The plan is the
    smallest N whose posterior interval is at most ± 0.05 — up to the quadrature's stated
    cdf error (a size or two)."""
    prevalence, tpr, h = 0.5, 0.8, 0.05
    plan = plan_test_size("recall", prevalence=prevalence, tpr=tpr, tnr=0.8, half_width=h)
    assert plan.target == "true_value"
    scan = next(
        N
        for N in range(2, 10**5)
        if _beta_half_width(ref.counts(N, prevalence, tpr, 0.8)[2], ref.counts(N, prevalence, tpr, 0.8)[0]) <= h
    )
    assert abs(plan.N - scan) <= max(2, 0.01 * scan)
    assert plan.half_width == pytest.approx(_beta_half_width(plan.tp, plan.p), abs=2e-3)
    lo, hi = plan.interval(0.95)
    assert plan.distribution().target == "true_value" and (hi - lo) / 2 == pytest.approx(plan.half_width)


def test_true_value_needs_about_half_the_next_test_set():
    """Issue 20's numbers: MCC ± 0.05 at prevalence 0.1 (TPR 0.8, TNR 0.9): 3,402 examples for
    the next test set, about 1,700 for the true value (the posterior is about 1/√2 as wide)."""
    kw = dict(prevalence=0.1, tpr=0.8, tnr=0.9, half_width=0.05)
    nxt = plan_test_size("mcc", **kw, target="next_test_set")
    true = plan_test_size("mcc", **kw)
    assert nxt.N == 3402
    assert 1600 <= true.N <= 1800
    assert 0.45 <= true.N / nxt.N <= 0.55


def test_binomial_has_no_true_value_question():
    from confusionlab import InvalidParameterError

    with pytest.raises(InvalidParameterError, match="target='next_test_set'"):
        plan_test_size("mcc", prevalence=0.25, tpr=0.62, tnr=0.93, half_width=0.03, model="binomial")
    with pytest.raises(InvalidParameterError, match="target"):
        plan_test_size("mcc", prevalence=0.25, tpr=0.62, tnr=0.93, half_width=0.03, target="population")


def test_group_size_true_value():
    """DPPL's true value: q_a − q_d with each rate's Beta posterior. Its variance is the sum of
    the two Beta variances (scipy); the plan's half-width is close to z·sd at the planned size."""
    from confusionlab.bias import plan_group_size

    true = plan_group_size("DPPL", size_a=2000, rate_a=0.3, rate_d=0.2, half_width=0.05)
    nxt = plan_group_size("DPPL", size_a=2000, rate_a=0.3, rate_d=0.2, half_width=0.05, target="next_test_set")
    assert true.target == "true_value" and nxt.size_d == 726 and true.size_d < nxt.size_d
    k_a, k_d = true.positives_a, true.positives_d
    var = stats.beta.var(k_a + 1, 2000 - k_a + 1) + stats.beta.var(k_d + 1, true.size_d - k_d + 1)
    assert true.half_width == pytest.approx(1.959964 * math.sqrt(var), rel=0.02)
    assert true.distribution().target == "true_value"


# ----------------------------------------------------------------------------- N_stable
@pytest.mark.parametrize(
    ("metric", "prevalence", "tpr", "tnr", "h"),
    [("recall", 0.5, 0.8, 0.8, 0.1), ("balanced_accuracy", 0.3, 0.8, 0.7, 0.1), ("mcc", 0.4, 0.8, 0.8, 0.15)],
)
def test_n_stable_is_one_past_the_last_failure_up_to_the_horizon(metric, prevalence, tpr, tnr, h):
    """A scan of *every* size from N to the stated horizon with the independent reference:
    N_stable is one more than the last size that fails again (N when none does)."""
    plan = plan_test_size(metric, prevalence=prevalence, tpr=tpr, tnr=tnr, half_width=h, target="next_test_set")
    assert plan.stable_horizon == 2 * plan.N_stable
    failing = [
        N
        for N in range(plan.N, plan.stable_horizon + 1)
        # within 1e-12 of the goal is an exact tie blurred by float interval ends (test_exact_ties.py)
        if not ref.half_width(metric, N, prevalence, tpr, tnr) <= h * (1 + 1e-12)
    ]
    assert plan.N_stable == (max(failing) + 1 if failing else plan.N)
    assert plan.N_stable >= plan.N


def test_n_stable_differs_from_n_where_the_half_width_jumps_back():
    plan = plan_test_size("recall", prevalence=0.5, tpr=0.8, tnr=0.8, half_width=0.1, target="next_test_set")
    assert (plan.N, plan.N_stable) == (229, 249)  # the scan above confirms both (249, 250: exact ties)
    assert "249" in plan.summary(0.95)


# ----------------------------------------------------------------------------- assurance at its defaults
def _advised(message: str) -> int:
    import re

    return int(re.search(r"pass max_outcomes=(\d+)", message).group(1))


def test_assurance_is_refused_up_front_with_advice_that_works(monkeypatch):
    """Too many outcomes: refused before the search (not at the first size that needs them),
    advising a max_outcomes that then gives the plan."""
    from confusionlab import InvalidParameterError
    from confusionlab.planner import _plan

    def enumerated(*args, **kwargs):
        raise AssertionError("the assurance enumeration ran before the refusal")

    kw = dict(prevalence=0.3, tpr=0.8, tnr=0.8, half_width=0.1, assurance=0.9, target="next_test_set")
    with monkeypatch.context() as patch:
        patch.setattr(_plan, "_assurance_at", enumerated)
        with pytest.raises(InvalidParameterError, match="max_outcomes") as info:
            plan_test_size("balanced_accuracy", **kw, max_outcomes=500)
    assert "assurance_tolerance" not in str(info.value)  # raising it cannot be enough
    advised = _advised(str(info.value))
    plan = plan_test_size("balanced_accuracy", **kw, max_outcomes=advised)
    assert plan.N == plan_test_size("balanced_accuracy", **kw).N == 180  # the default's 20,000 suffice here
    assert plan.achieved_assurance >= 0.9


def test_assurance_with_the_true_value_default_is_refused_with_working_advice():
    from confusionlab import InvalidParameterError

    with pytest.raises(InvalidParameterError, match="target='next_test_set'"):
        plan_test_size("balanced_accuracy", prevalence=0.3, tpr=0.8, tnr=0.8, half_width=0.1, assurance=0.9)


def test_assurance_tolerance_range_error_states_its_own_default():
    from confusionlab import InvalidParameterError

    with pytest.raises(InvalidParameterError, match=r"default 0\.001") as info:
        plan_test_size(
            "mcc", prevalence=0.1, tpr=0.8, tnr=0.9, half_width=0.05, assurance=0.9, target="next_test_set",
            assurance_tolerance=0.5,
        )  # fmt: skip
    assert "1e-12" not in str(info.value)


@pytest.mark.parametrize(
    ("name", "value"), [("max_outcomes", -1), ("max_outcomes", 2.5), ("assurance_tolerance", -0.1)]
)
def test_assurance_options_are_checked_without_assurance(name, value) -> None:
    """Issue 21's capped-child sweep: ``max_outcomes=-1`` was accepted when ``assurance`` is None
    (checked only where it is used); a bad value is refused at the call, naming the argument."""
    with pytest.raises(cl.InvalidParameterError, match=name):
        cl.plan_test_size("f1", prevalence=0.3, tpr=0.8, tnr=0.9, half_width=0.1, **{name: value})


def test_assurance_for_the_true_value_says_how_to_ask() -> None:
    """The refusal ended in a dangling ``assurance=``; it now gives the call to make."""
    with pytest.raises(cl.InvalidParameterError, match=r"target='next_test_set' with assurance=0\.9\."):
        cl.plan_test_size("f1", prevalence=0.3, tpr=0.8, tnr=0.9, half_width=0.1, assurance=0.9)
