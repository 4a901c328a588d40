"""plan_test_size against independent references (plain numpy/scipy scans, closed forms)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from scipy import stats

from confusionlab.planner import (
    MAX_SIZE,
    TargetUnreachableError,
    TestSizePlan,
    plan_counts,
    plan_test_size,
    rates_for_value,
)

from . import _reference as ref

METRICS = ["mcc", "balanced_accuracy", "f1", "recall"]


# ----------------------------------------------------------------------------- the criterion
def test_counts_follow_spec_e2():
    for N in (2, 3, 10, 61, 999):
        assert plan_counts(N, 0.3, 0.8, 0.7) == ref.counts(N, 0.3, 0.8, 0.7)
    # p is clipped to [1, N - 1]
    assert plan_counts(5, 0.01, 0.5, 0.5)[0] == 1
    assert plan_counts(5, 0.99, 0.5, 0.5)[0] == 4


@pytest.mark.parametrize("metric", METRICS)
def test_half_width_at_the_plan_matches_the_reference(metric):
    plan = plan_test_size(metric, prevalence=0.3, tpr=0.8, tnr=0.75, half_width=0.11, target="next_test_set")
    expected = ref.half_width(metric, plan.N, 0.3, 0.8, 0.75)
    assert plan.half_width == pytest.approx(expected, abs=1e-12)
    lo, hi = plan.interval()
    assert (hi - lo) / 2 == pytest.approx(plan.half_width, abs=1e-15)
    assert plan.value == pytest.approx(ref.metric_values(metric, plan.tp, plan.p - plan.tp, plan.n - plan.tn, plan.tn))


# ----------------------------------------------------------------------------- smallest N
@pytest.mark.parametrize(
    ("metric", "prevalence", "tpr", "tnr", "target"),
    [
        ("mcc", 0.1, 0.8, 0.9, 0.2),
        ("mcc", 0.5, 0.7, 0.7, 0.15),
        ("balanced_accuracy", 0.2, 0.85, 0.8, 0.0713),
        ("f1", 0.3, 0.9, 0.6, 0.0911),
        ("recall", 0.5, 0.8, 0.8, 0.0833),
        ("recall", 0.05, 0.95, 0.6, 0.131),
    ],
)
def test_smallest_n_equals_a_scan_of_every_n(metric, prevalence, tpr, tnr, target):
    plan = plan_test_size(metric, prevalence=prevalence, tpr=tpr, tnr=tnr, half_width=target, target="next_test_set")
    N, h = ref.smallest_by_scan(metric, prevalence, tpr, tnr, target, stop=plan.N + 1)
    assert plan.N == N
    assert plan.half_width == pytest.approx(h, abs=1e-12)
    assert plan.half_width <= target
    # the search did not evaluate every N
    assert plan.evaluations < plan.N / 4


def test_half_width_is_not_monotone_and_the_plan_is_still_the_first():
    """Recall at prevalence 0.5: the half-width jumps up between N and N + 1 (p is rounded,
    the discrete quantiles move by whole atoms), so the set of N meeting a target is not an
    interval and a bisection could miss the smallest; the plan is the first of a scan."""
    widths = [ref.half_width("recall", N, 0.5, 0.8, 0.8) for N in range(180, 260)]
    assert any(b > a for a, b in itertools.pairwise(widths))  # not monotone
    target = 0.1
    plan = plan_test_size("recall", prevalence=0.5, tpr=0.8, tnr=0.8, half_width=target, target="next_test_set")
    first = next(N for N in range(2, 1000) if ref.half_width("recall", N, 0.5, 0.8, 0.8) <= target)
    assert plan.N == first
    # and some N beyond the plan fails again: the set of good N is not an interval
    assert any(ref.half_width("recall", N, 0.5, 0.8, 0.8) > target for N in range(first, first + 40))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    metric=st.sampled_from(METRICS),
    prevalence=st.floats(0.05, 0.6),
    tpr=st.floats(0.55, 0.97),
    tnr=st.floats(0.55, 0.97),
    target=st.floats(0.1, 0.3),
)
def test_random_plans_equal_the_scan(metric, prevalence, tpr, tnr, target):
    plan = plan_test_size(metric, prevalence=prevalence, tpr=tpr, tnr=tnr, half_width=target, target="next_test_set")
    N, _ = ref.smallest_by_scan(metric, prevalence, tpr, tnr, target, stop=plan.N + 1)
    assert plan.N == N


def test_binomial_model_and_confidence():
    plan = plan_test_size(
        "f1", prevalence=0.4, tpr=0.8, tnr=0.7, half_width=0.1, confidence=0.9, model="binomial", target="next_test_set"
    )
    N, _ = ref.smallest_by_scan("f1", 0.4, 0.8, 0.7, 0.1, confidence=0.9, model="binomial", stop=plan.N + 1)
    assert plan.N == N


# ----------------------------------------------------------------------------- closed forms
def _clopper_pearson_half_width(k: int, p: int, confidence: float = 0.95) -> float:
    a = 1 - confidence
    lo = stats.beta.ppf(a / 2, k, p - k + 1) if k > 0 else 0.0
    hi = stats.beta.ppf(1 - a / 2, k + 1, p - k) if k < p else 1.0
    return (hi - lo) / 2


def test_sensitivity_agrees_with_clopper_pearson_within_the_rounding():
    """presize's closed form for sensitivity: the fewest positives whose Clopper–Pearson
    interval (computed here with scipy) has half-width <= w. The planner's interval is for
    a *new test set* (beta-binomial posterior predictive): its variance is twice the
    posterior's, so the plan for ± h matches Clopper–Pearson for ± h/√2. Clopper–Pearson
    is conservative (wider than exact), so it asks for a few more positives: the plan is
    within 10 % below it at 140+ positives and the gap shrinks as N grows."""
    tpr = 0.8
    ratios = []
    for h in (0.07, 0.05, 0.03):
        cp = next(p for p in range(2, 10**5) if _clopper_pearson_half_width(math.floor(tpr * p + 0.5), p) <= h / 2**0.5)
        plan = plan_test_size("recall", prevalence=0.5, tpr=tpr, tnr=0.5, half_width=h, target="next_test_set")
        ratios.append(plan.p / cp)
    assert all(0.9 <= r <= 1.0 for r in ratios)
    assert ratios[0] < ratios[-1]


def test_one_over_sqrt_n_scaling_of_the_curve():
    plan = plan_test_size("mcc", prevalence=0.2, tpr=0.8, tnr=0.8, half_width=0.05, target="next_test_set")
    wide = plan_test_size("mcc", prevalence=0.2, tpr=0.8, tnr=0.8, half_width=0.1, target="next_test_set")
    assert 3.6 < plan.N / wide.N < 4.4  # half the width, four times the data


# ----------------------------------------------------------------------------- expected value
def test_value_gives_equal_rates_that_reproduce_it():
    tpr, tnr = rates_for_value("mcc", 0.6, 0.1)
    assert tpr == pytest.approx(tnr)
    p, n = 0.1, 0.9
    tp, fn, fp, tn = p * tpr, p * (1 - tpr), n * (1 - tnr), n * tnr
    mcc = (tp * tn - fp * fn) / math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    assert mcc == pytest.approx(0.6, abs=1e-9)
    plan = plan_test_size("mcc", prevalence=0.1, value=0.6, half_width=0.1, target="next_test_set")
    assert (plan.tpr, plan.tnr) == pytest.approx((tpr, tnr))
    direct = plan_test_size("mcc", prevalence=0.1, tpr=tpr, tnr=tnr, half_width=0.1, target="next_test_set")
    assert plan.N == direct.N


def test_value_with_one_rate_solves_the_other():
    tpr, tnr = rates_for_value("balanced_accuracy", 0.8, 0.3, tpr=0.7)
    assert tpr == 0.7 and tnr == pytest.approx(0.9)
    with pytest.raises(ValueError, match="not reached"):
        rates_for_value("balanced_accuracy", 0.99, 0.3, tpr=0.5)


# ----------------------------------------------------------------------------- assurance
def test_assurance_against_a_full_enumeration():
    target, q = 0.2, 0.8
    plan = plan_test_size(
        "recall",
        prevalence=0.5,
        tpr=0.8,
        tnr=0.8,
        half_width=target,
        assurance=q,
        assurance_tolerance=0.0,
        target="next_test_set",
    )
    assert plan.assurance_error == pytest.approx(0.0, abs=1e-12)
    assert plan.achieved_assurance == pytest.approx(ref.assurance("recall", plan.N, 0.5, 0.8, 0.8, target), abs=1e-9)
    first = next(N for N in range(2, plan.N + 1) if ref.assurance("recall", N, 0.5, 0.8, 0.8, target) >= q)
    assert plan.N == first


def test_assurance_bounded_error_is_stated_and_conservative():
    target, q = 0.25, 0.7
    plan = plan_test_size(
        "balanced_accuracy", prevalence=0.4, tpr=0.8, tnr=0.8, half_width=target, assurance=q, target="next_test_set"
    )
    truth = ref.assurance("balanced_accuracy", plan.N, 0.4, 0.8, 0.8, target)
    assert 0 < plan.assurance_error <= 2 * 1e-3
    assert plan.achieved_assurance <= truth + 1e-9 <= plan.achieved_assurance + plan.assurance_error + 1e-9
    assert plan.achieved_assurance >= q
    unassured = plan_test_size(
        "balanced_accuracy", prevalence=0.4, tpr=0.8, tnr=0.8, half_width=target, target="next_test_set"
    )
    assert plan.N >= unassured.N * 0.8


# ----------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("name", ["prevalence", "tpr", "tnr"])
@pytest.mark.parametrize("bad", [0.0, 1.0, -0.1, 1.5, float("nan")])
def test_rates_outside_the_open_unit_interval(name, bad):
    kw = {"prevalence": 0.2, "tpr": 0.8, "tnr": 0.8, name: bad}
    with pytest.raises(ValueError, match=name):
        plan_test_size("mcc", **kw, half_width=0.1, target="next_test_set")


@pytest.mark.parametrize("bad", [0.0, 1.0, 1.2, float("nan")])
def test_confidence_outside_the_open_unit_interval(bad):
    with pytest.raises(ValueError, match="confidence"):
        plan_test_size("mcc", prevalence=0.2, tpr=0.8, tnr=0.8, half_width=0.1, confidence=bad, target="next_test_set")


@pytest.mark.parametrize("bad", [0.0, -1.0, float("nan"), float("inf")])
def test_bad_target(bad):
    with pytest.raises(ValueError, match="half_width"):
        plan_test_size("mcc", prevalence=0.2, tpr=0.8, tnr=0.8, half_width=bad, target="next_test_set")


def test_types_and_missing_rates():
    with pytest.raises(TypeError, match="tpr"):
        plan_test_size("mcc", prevalence=0.2, tpr="0.8", tnr=0.8, half_width=0.1, target="next_test_set")
    with pytest.raises(TypeError, match="value"):
        plan_test_size("mcc", prevalence=0.2, half_width=0.1, target="next_test_set")
    with pytest.raises(ValueError, match="dirichlet"):
        plan_test_size(
            "mcc",
            prevalence=0.2,
            tpr=0.8,
            tnr=0.8,
            half_width=0.1,
            model="dirichlet-multinomial",
            target="next_test_set",
        )


def test_unreachable_target_says_so_with_the_best_n():
    with pytest.raises(TargetUnreachableError, match="max_size") as info:
        plan_test_size("mcc", prevalence=0.2, tpr=0.8, tnr=0.8, half_width=0.01, max_size=500, target="next_test_set")
    err = info.value
    assert isinstance(err, ValueError)
    assert 2 <= err.best_N <= 500 and err.max_size == 500
    assert err.best_half_width == pytest.approx(ref.half_width("mcc", err.best_N, 0.2, 0.8, 0.8), abs=1e-12)
    assert err.best_half_width > 0.01
    assert str(err.best_N) in str(err) or f"{err.best_N:,}" in str(err)
    assert MAX_SIZE == 1_000_000


def test_plan_is_not_collected_and_repr():
    assert TestSizePlan.__test__ is False
    plan = plan_test_size("f1", prevalence=0.3, tpr=0.8, tnr=0.8, half_width=0.2, target="next_test_set")
    assert "TestSizePlan(metric='f1'" in repr(plan)
    assert list(plan.curve) == sorted(plan.curve)
    assert all(np.isfinite(list(plan.curve.values())))


# ----------------------------------------------------------------------------- hostile arguments
_anything = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=5),
    st.lists(st.floats(), max_size=2),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    prevalence=_anything | st.floats(0.01, 0.99),
    tpr=_anything | st.floats(0.01, 0.99),
    tnr=_anything | st.floats(0.01, 0.99),
    half_width=_anything | st.floats(0.05, 2.0),
    confidence=_anything | st.floats(0.01, 0.99),
    max_size=_anything | st.integers(2, 3000),
)
def test_hostile_arguments(prevalence, tpr, tnr, half_width, confidence, max_size):
    try:
        plan = plan_test_size(
            "mcc",
            prevalence=prevalence,
            tpr=tpr,
            tnr=tnr,
            half_width=half_width,
            confidence=confidence,
            max_size=max_size,
            target="next_test_set",
        )
    except (ValueError, TypeError) as err:
        assert str(err)
    else:
        assert 2 <= plan.N <= max_size and plan.half_width <= half_width


# ----------------------------------------------------------------------------- balanced accuracy's fast path
@pytest.mark.parametrize(
    ("prevalence", "target", "model", "confidence"),
    [
        (0.5, 0.03, "beta-binomial", 0.95),  # the benchmark's setting: p = n at even N, a tie h == target at 1,050
        (0.1, 0.03, "beta-binomial", 0.95),  # the benchmark's other slow setting
        (0.5, 0.06, "beta-binomial", 0.95),
        (0.1, 0.08, "binomial", 0.9),  # N = 2: one positive and one negative, point masses
        (0.37, 0.05, "beta-binomial", 0.8),
    ],
)
def test_balanced_accuracy_plans_equal_a_scan_of_every_n(prevalence, target, model, confidence):
    """Balanced accuracy's half-widths come from its integer keys (no distribution built); the
    plan must still be the first N of a full scan with the independent reference."""
    kw = dict(prevalence=prevalence, tpr=0.8, tnr=0.9, confidence=confidence, model=model)
    plan = plan_test_size("balanced_accuracy", half_width=target, **kw, target="next_test_set")
    N, h = ref.smallest_by_scan("balanced_accuracy", prevalence, 0.8, 0.9, target, confidence, model, stop=plan.N + 1)
    assert plan.N == N
    assert plan.half_width == pytest.approx(h, abs=1e-12)
    for size, width in list(plan.curve.items())[:: max(1, len(plan.curve) // 8)]:
        assert width == pytest.approx(
            ref.half_width("balanced_accuracy", size, prevalence, 0.8, 0.9, confidence, model), abs=1e-12
        )
    assert plan.N < 100 or plan.evaluations < plan.N / 4


def test_balanced_accuracy_tie_with_the_target_is_decided_as_the_core_decides():
    """At N = 1,050 (p = n = 525) the interval is 63/2100 = 0.03 wide each side: the fast path
    returns the core's half-width bit for bit, so the tie is decided as the distribution decides it."""
    import confusionlab as cl

    plan = plan_test_size(
        "balanced_accuracy", prevalence=0.5, tpr=0.8, tnr=0.9, half_width=0.03, target="next_test_set"
    )
    lo, hi = cl.metric_distribution(plan.matrix, "balanced_accuracy").interval(0.95)
    assert plan.half_width == (hi - lo) / 2
    assert plan.N == 1050 and hi - lo == pytest.approx(2 * 63 / 2100, abs=1e-15)


#: Farther than this from a step of the cdf, a level is resolved by the planner: its pruning moves
#: the cdf by at most the tails it drops (below 1e-12 per side and class), and float sums over
#: at most 401² outcomes round by less than 401² · 2⁻⁵³ ≈ 2e-11.
CLEARANCE = 1e-10


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    p=st.integers(1, 400),
    n=st.integers(1, 400),
    tpr=st.floats(0.0, 1.0),
    tnr=st.floats(0.0, 1.0),
    confidence=st.floats(0.05, 0.999),
    model=st.sampled_from(["beta-binomial", "binomial"]),
)
def test_balanced_accuracy_half_width_from_keys_matches_the_reference(p, n, tpr, tnr, confidence, model):
    """Any matrix (point masses, p = n, coprime p and n, every level): the half-width read from
    the integer keys equals the reference's full outer-product interval.

    Draws where a level lies within ``CLEARANCE`` of a step of the reference's cdf are left to
    test_balanced_accuracy_exact.py: there the interval is decided by the tails the planner
    prunes (tolerance 1e-12) or by float rounding, and only an exact brute force tells."""
    from confusionlab.confusion import ConfusionMatrix
    from confusionlab.metrics import get_metric
    from confusionlab.planner._criterion import _Evaluator

    tp, tn = round(tpr * p), round(tnr * n)
    assume(ref.level_clearance("balanced_accuracy", tp, p - tp, n - tn, tn, confidence, model) > CLEARANCE)
    ev = _Evaluator(get_metric("balanced_accuracy"), 0.5, 0.5, 0.5, confidence, model, 1.0, 1e-12)
    h, grain = ev.half_width(ConfusionMatrix(tp=tp, fn=p - tp, fp=n - tn, tn=tn))
    expected = ref.half_width_of("balanced_accuracy", tp, p - tp, n - tn, tn, confidence, model)
    assert h == pytest.approx(expected, abs=1e-12)
    assert grain >= 0


def test_balanced_accuracy_tie_found_by_hypothesis():
    """p = 65, n = 45: the half-width is 0.1 up to rounding; the reference's correctly rounded
    values and the core agree that N = 110 is the first size meeting ± 0.1."""
    kw = dict(prevalence=0.59375, tpr=0.609375, tnr=0.9375)
    plan = plan_test_size("balanced_accuracy", half_width=0.1, **kw, target="next_test_set")
    N, _ = ref.smallest_by_scan("balanced_accuracy", kw["prevalence"], kw["tpr"], kw["tnr"], 0.1, stop=plan.N + 1)
    assert plan.N == N == 110
