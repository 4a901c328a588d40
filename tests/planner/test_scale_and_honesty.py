"""The planners at the edges (issues 21 and 20): memory bounded at any max_size, no plan for
another classifier at low prevalence, a stable facet size, an unreachable facet target found
without evaluating every size. Each test says why it fails on the code before the fix."""

from __future__ import annotations

import math
import tracemalloc

import pytest

import confusionlab as cl
from confusionlab.bias.planning import plan_group_size
from confusionlab.planner import TargetUnreachableError, _criterion

from . import _reference as ref
from .test_group_size import reference_half_width


def test_max_size_of_a_hundred_million_holds_its_memory():
    """issue 21: max_size=10**8 → MemoryError at 3.2 GB (the scan held the sizes, their
    approximations and flags for every N up to max_size). The scan now goes by blocks and
    judges far blocks on a sample: the peak stays small and the answer is the documented error."""
    tracemalloc.start()
    try:
        with pytest.raises(TargetUnreachableError, match="max_size"):
            cl.plan_test_size("mcc", prevalence=0.25, tpr=0.62, tnr=0.93, half_width=1e-4, max_size=10**8)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 300 * 2**20, peak  # before: 10**8 sizes × 17 bytes = 1.6 GiB and more


def test_low_prevalence_plans_the_classifier_asked_for():
    """issue 21: prevalence=1e-4 planned N = 417 with one positive (p clipped to 1, TP = 1: TPR 1,
    not 0.62) — a plan for another classifier. Sizes below the first from which every planned
    test set holds the classes with their rates (within 0.05) are no longer candidates."""
    plan = cl.plan_test_size("mcc", prevalence=1e-4, tpr=0.62, tnr=0.93, half_width=0.5)
    first = ref.first_honest("mcc", 1e-4, 0.62, 0.93)
    assert plan.N >= first == 45_000
    p, n, tp, tn = ref.counts(plan.N, 1e-4, 0.62, 0.93)
    assert (plan.p, plan.n) == (p, n) and p >= 5
    assert abs(tp / p - 0.62) <= 0.05 and abs(tn / n - 0.93) <= 0.05
    # a plan at moderate prevalence is unchanged where every size is honest
    assert ref.first_honest("mcc", 0.3, 0.8, 0.9) < 60


@pytest.mark.parametrize(
    ("metric", "prevalence", "tpr", "tnr"),
    [("mcc", 1e-4, 0.62, 0.93), ("mcc", 0.5, 0.8, 0.8), ("recall", 0.01, 0.7, 0.2), ("tnr", 0.9, 0.1, 0.55),
     ("f1", 0.003, 0.33, 0.97), ("balanced_accuracy", 0.2, 0.5, 0.5)],
)  # fmt: skip
def test_first_honest_size_equals_a_scan(metric, prevalence, tpr, tnr):
    from confusionlab.metrics import get_metric

    got = _criterion.honest_min_size(get_metric(metric), prevalence, tpr, tnr)
    assert got == max(2, ref.first_honest(metric, prevalence, tpr, tnr))


def test_too_small_a_max_size_for_the_prevalence_is_refused_before_any_evaluation(monkeypatch):
    def boom(self, N):
        raise AssertionError("a size was evaluated before the refusal")

    monkeypatch.setattr(_criterion._Evaluator, "__call__", boom)
    with pytest.raises(cl.InvalidParameterError, match="max_size"):
        cl.plan_test_size("mcc", prevalence=1e-4, tpr=0.62, tnr=0.93, half_width=0.5, max_size=10_000)


def test_unreachable_facet_target_is_found_without_evaluating_every_size():
    """issue 21: plan_group_size("DI", size_a=5000, rate_a=1e-4, rate_d=0.25, half_width=5.0)
    evaluated every size to 100,000 (all half-widths inf) before giving up."""
    with pytest.raises(TargetUnreachableError) as info:
        plan_group_size("DI", size_a=5000, rate_a=1e-4, rate_d=0.25, half_width=5.0)
    assert len(info.value.curve) < 1000


def test_group_plan_has_a_stable_size_checked_against_a_scan():
    """issue 20: GroupSizePlan had no N_stable (TestSizePlan has). It is the smallest size from
    which every size up to stable_horizon meets the half-width: checked by an independent scan."""
    plan = plan_group_size("DPPL", size_a=300, rate_a=0.3, rate_d=0.2, half_width=0.12, target="next_test_set")
    assert plan.N == plan.size_d <= plan.N_stable <= plan.stable_horizon
    assert plan.stable_horizon == min(2 * plan.N_stable, 100_000)
    fails = [
        s
        for s in range(plan.size_d, plan.stable_horizon + 1)
        if not reference_half_width("DPPL", 300, 0.3, s, 0.2) <= 0.12 * (1 + 1e-12)
    ]
    assert plan.N_stable == (max(fails) + 1 if fails else plan.size_d)
    assert f"{plan.stable_horizon:,}" in plan.summary()
    assert math.isfinite(plan.half_width)


@pytest.mark.parametrize("assurance", [0.999999, 0.9999])
def test_an_assurance_the_enumeration_cannot_certify_is_refused_up_front(monkeypatch, assurance):
    """issue 21: assurance=0.999999 (the enumerated mass is at most ≈ 0.999 at the default
    assurance_tolerance) and 0.9999 ran to max_size. Refused before any outcome is enumerated,
    with advice that leads to an answer (a smaller assurance_tolerance)."""
    from confusionlab.planner import _assurance

    def boom(*args, **kwargs):
        raise AssertionError("outcomes were enumerated before the refusal")

    monkeypatch.setattr(_assurance, "_assurance_at", boom)
    with pytest.raises(cl.InvalidParameterError, match="assurance_tolerance") as info:
        cl.plan_test_size("mcc", prevalence=0.25, tpr=0.62, tnr=0.93, half_width=0.03, assurance=assurance,
                          target="next_test_set")  # fmt: skip
    assert "cannot be certified" in str(info.value)


def test_replan_at_a_tighter_target_evaluates_few_sizes():
    """issue 21: the PlannerView's target slider 0.02 → 0.01 blocked the kernel 90 s for one re-plan
    (sizes evaluated one by one far from the crossing). The view re-plans with plan_test_size; counted,
    not timed: a few hundred exact half-widths at most for the view's default question (the true value,
    N ≈ 42,000)."""
    plan = cl.plan_test_size("mcc", prevalence=0.1, tpr=0.8, tnr=0.9, half_width=0.01)
    assert plan.N > 30_000
    assert plan.evaluations < 600
