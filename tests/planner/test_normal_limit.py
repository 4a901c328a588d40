"""The normal-limit plan (issues 20 and 21): where the exact search would take minutes, an answer
in seconds labelled ``method="normal"`` with its measured error, instead of a hang or a refusal.

Counted, not timed: the expensive functions are patched to fail if called. The expected sizes come
from an independent delta-method computation with scipy's beta-binomial and beta moments, or from
the exact search itself where it is cheap (then the stated error must cover the difference).
"""

from __future__ import annotations

import math
import tracemalloc

import numpy as np
import pytest
from scipy import stats

import confusionlab as cl
from confusionlab.planner import _criterion, _plan

from . import _reference as ref


def _mcc(tp, fn, fp, tn):
    return (tp * tn - fp * fn) / np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))


def _delta_half_width(N, prevalence, tpr, tnr, target, confidence=0.95):
    """MCC's normal half-width at N, independently: scipy's beta-binomial (next test set, the uniform
    prior) or the rate's Beta(k + ½, t − k + ½) posterior (Jeffreys' prior, the planner's default for
    the true value) scaled by the class size, gradients by central differences."""
    p, n, tp, tn = ref.counts(N, prevalence, tpr, tnr)
    moments = []
    for s, t in ((tp, p), (tn, n)):
        if target == "next_test_set":
            d = stats.betabinom(t, s + 1, t - s + 1)
            moments.append((d.mean(), d.var()))
        else:  # Beta(a, b) moments in closed form (scipy's beta.var loses precision at a ≈ 10⁷)
            a, b = s + 0.5, t - s + 0.5
            moments.append((t * a / (a + b), t * t * a * b / ((a + b) ** 2 * (a + b + 1))))
    (mt, vt), (mn, vn) = moments
    et, en = 1e-3 * math.sqrt(vt), 1e-3 * math.sqrt(vn)
    gt = (_mcc(mt + et, p - mt - et, n - mn, mn) - _mcc(mt - et, p - mt + et, n - mn, mn)) / (2 * et)
    gn = (_mcc(mt, p - mt, n - mn - en, mn + en) - _mcc(mt, p - mt, n - mn + en, mn - en)) / (2 * en)
    return stats.norm.ppf(0.5 + confidence / 2) * math.sqrt(gt * gt * vt + gn * gn * vn)


def _no_full_distribution(monkeypatch):
    def boom(*args, **kwargs):
        raise AssertionError("a full exact distribution was built")

    monkeypatch.setattr(_criterion, "metric_distribution", boom)


@pytest.mark.parametrize("target", ["next_test_set", "true_value"])
def test_normal_plan_is_within_its_stated_error_of_the_exact_plan(target):
    kw = dict(prevalence=0.3, tpr=0.8, tnr=0.9, half_width=0.04, target=target)
    exact = cl.plan_test_size("mcc", **kw, method="exact")
    normal = cl.plan_test_size("mcc", **kw, method="normal")
    assert (exact.method, normal.method) == ("exact", "normal")
    assert exact.approximation_error is None and 0 < normal.approximation_error < 0.05
    # h = ρ·a with |ρ − 1| ≤ error and a ∝ 1/√N: the sizes differ by at most about twice the error
    assert abs(normal.N - exact.N) <= 2.5 * normal.approximation_error * exact.N + 2
    assert "normal approximation" in normal.summary(0.95) and "normal" in repr(normal)


def test_view_next_test_set_replan_at_a_hundredth_answers_without_full_distributions(monkeypatch):
    """issue 21 / 20: the PlannerView's next-test-set re-plan at ± 0.01 (MCC, the view's defaults)
    took minutes from a cold start: ≈ 190 sizes near N ≈ 85,000, each a full distribution (MCC's
    integers exceed 2**53 there, so no fast path). On the old code the patched
    metric_distribution fails; now the view shows the labelled normal-limit plan, checked here
    against an independent delta-method computation."""
    from confusionlab.widgets.planner_view import PlannerView

    _no_full_distribution(monkeypatch)
    view = PlannerView(metric="mcc", target="next_test_set", half_width=0.02)
    view.half_width = 0.01
    plan = view.plan()
    assert plan["method"] == "normal" and plan["reached"]
    assert "normal approximation" in plan["message"] and "method='exact'" in plan["message"]
    N = plan["N"]
    assert _delta_half_width(N, 0.1, 0.8, 0.9, "next_test_set") <= 0.01 * (1 + 1e-9)
    assert _delta_half_width(int(N * 0.995), 0.1, 0.8, 0.9, "next_test_set") > 0.01
    assert plan["N_stable"] >= N


def test_a_reachable_target_near_a_hundred_million_answers_within_memory(monkeypatch):
    """issue 21: a target whose answer is near N = 10⁸ ran the exact search (hundreds of thousands
    of candidate sizes) into a refusal; now the normal limit, labelled, without the exact search
    (patched to fail), with one quadrature posterior (the calibration), within a small memory peak."""

    def no_search(*args, **kwargs):
        raise AssertionError("the exact search ran")

    monkeypatch.setattr(_plan, "smallest_size", no_search)
    built = []
    real = _criterion.metric_distribution

    def counted(*args, **kwargs):
        built.append(kwargs.get("target"))
        return real(*args, **kwargs)

    monkeypatch.setattr(_criterion, "metric_distribution", counted)
    tracemalloc.start()
    try:
        plan = cl.plan_test_size("mcc", prevalence=0.3, tpr=0.8, tnr=0.9, half_width=2e-4, max_size=10**8)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 300 * 2**20, peak
    assert plan.method == "normal" and plan.target == "true_value"
    assert 10**7 < plan.N < 10**8 and plan.evaluations <= 1
    assert built == ["true_value"]  # one quadrature (the calibration), no lattice
    assert 0 < plan.approximation_error < 0.01
    assert _delta_half_width(plan.N, 0.3, 0.8, 0.9, "true_value") <= 2e-4 * (1 + 1e-9)
    assert _delta_half_width(int(plan.N * 0.999), 0.3, 0.8, 0.9, "true_value") > 2e-4


def test_method_is_checked_by_name():
    with pytest.raises(cl.InvalidParameterError, match="method"):
        cl.plan_test_size("mcc", prevalence=0.3, tpr=0.8, tnr=0.9, half_width=0.1, method="fast")


# ----------------------------------------------------------------------------- plan_group_size(size_a=1e9)
def test_group_plan_with_a_billion_in_facet_a_answers():
    """issue 21: plan_group_size(size_a=1e9) had no test. For the true value (the default) facet a's
    rate is as good as known: the half-width is that of facet d's Beta posterior (scipy)."""
    plan = cl.bias.plan_group_size("DPPL", size_a=10**9, rate_a=0.3, rate_d=0.2, half_width=0.05)
    k = math.floor(0.2 * plan.size_d + 0.5)
    lo, hi = stats.beta.ppf([0.025, 0.975], k + 1, plan.size_d - k + 1)
    assert plan.half_width == pytest.approx((hi - lo) / 2, rel=0.02)
    assert plan.half_width <= 0.05


def test_group_plan_next_test_set_with_a_billion_in_facet_a_advises_what_answers():
    """issue 21: for the next test set the exact lattice of facet a (size 10⁹) is too large and the
    advice ("a larger half_width or a smaller max_size") led nowhere. The advice now names a
    size_a that gives the exact plan, and following it answers; refused within memory."""
    import re

    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match="size_a=") as info:
            cl.bias.plan_group_size(
                "DPPL", size_a=10**9, rate_a=0.3, rate_d=0.2, half_width=0.05, target="next_test_set"
            )
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 300 * 2**20, peak
    advised = int(re.search(r"Pass size_a=([\d,]+)", str(info.value)).group(1).replace(",", ""))
    assert advised < 10**9
    plan = cl.bias.plan_group_size(
        "DPPL", size_a=advised, rate_a=0.3, rate_d=0.2, half_width=0.05, target="next_test_set"
    )
    assert plan.half_width <= 0.05 and plan.size_d > 100


def test_a_next_test_set_plan_near_a_hundred_million_reports_its_interval_within_memory():
    """The plan's own page and interval at N ≈ 5.7·10⁷ (F1, next test set): the exact lattice there
    has ≈ 10⁹ points; the normal-limit plan's distribution is the labelled Monte Carlo of the same
    model, and its summary says the plan and its stable size are the normal approximation's."""
    tracemalloc.start()
    try:
        plan = cl.plan_test_size(
            "f1", prevalence=0.3, tpr=0.8, tnr=0.9, half_width=2e-4, target="next_test_set", max_size=10**8
        )
        d = plan.distribution()
        lo, hi = plan.interval(0.95)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 400 * 2**20, peak
    assert plan.method == "normal" and 10**7 < plan.N < 10**8
    assert d.method == "monte-carlo"
    assert lo < plan.value < hi and (hi - lo) / 2 == pytest.approx(2e-4, rel=0.1)
    assert plan.N <= plan.N_stable <= plan.stable_horizon <= plan.N + 4096
    assert "checked in the normal approximation" in plan.summary(0.95)
