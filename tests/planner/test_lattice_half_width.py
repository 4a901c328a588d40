"""The planner's fast exact half-width (no grouping of the lattice) against the core and the reference.

``lattice_half_width`` must return the very interval ``metric_distribution(...).interval``
gives (bit for bit: the plan's ties with the target are decided as the core decides them),
or None (then the planner builds the distribution). Checked against the core on random
matrices of every two-class ratio metric, and against the independent numpy/scipy reference.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from confusionlab.confusion import ConfusionMatrix
from confusionlab.distribution import metric_distribution
from confusionlab.metrics import get_metric
from confusionlab.models import marginal
from confusionlab.planner import plan_test_size
from confusionlab.planner._half_width import interval_half_width, lattice_half_width, lattice_ratios

from . import _reference as ref

METRICS = ["mcc", "f1", "precision", "npv", "markedness", "accuracy", "informedness", "f2"]


def fast(metric: str, tp: int, fn: int, fp: int, tn: int, confidence: float, model: str):
    p, n = tp + fn, fp + tn
    a = marginal(model, tp, p, p, 1.0, 1e-12, "positives")
    b = marginal(model, tn, n, n, 1.0, 1e-12, "negatives")
    return lattice_half_width(get_metric(metric), a.pmf, a.lo, b.pmf, b.lo, p, n, confidence)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    metric=st.sampled_from(METRICS),
    p=st.integers(1, 2500),
    n=st.integers(1, 2500),
    tpr=st.floats(0.0, 1.0),
    tnr=st.floats(0.0, 1.0),
    confidence=st.floats(0.05, 0.999),
    model=st.sampled_from(["beta-binomial", "binomial"]),
)
def test_equals_the_core_interval_bit_for_bit(metric, p, n, tpr, tnr, confidence, model):
    tp, tn = round(tpr * p), round(tnr * n)
    result = fast(metric, tp, p - tp, n - tn, tn, confidence, model)
    d = metric_distribution(ConfusionMatrix(tp=tp, fn=p - tp, fp=n - tn, tn=tn), metric, model)
    lo, hi = d.interval(confidence)
    if result is None:  # allowed (the caller builds the distribution); never wrong
        return
    h, grain = result
    assert h == (hi - lo) / 2
    assert grain == pytest.approx(interval_half_width(d, confidence)[1], rel=1e-9, abs=1e-15)


@pytest.mark.parametrize(
    ("metric", "tp", "fn", "fp", "tn"),
    [
        ("mcc", 780, 195, 878, 7898),  # the browser benchmark's N ≈ 10,000 plan
        ("mcc", 40, 10, 45, 405),
        ("f1", 120, 30, 70, 280),
        ("accuracy", 33, 17, 20, 130),
    ],
)
@pytest.mark.parametrize("model", ["beta-binomial", "binomial"])
def test_matches_the_independent_reference(metric, tp, fn, fp, tn, model):
    """Against plain scipy marginals over the whole support and textbook formulas."""
    result = fast(metric, tp, fn, fp, tn, 0.95, model)
    assert result is not None
    assert result[0] == pytest.approx(ref.half_width_of(metric, tp, fn, fp, tn, 0.95, model), abs=1e-12)


def test_mcc_ratios_are_the_core_exact_form():
    """MCC's shortcut integers (n·TP + p·TN − p·n and p·n·(n − s)(p + s)) give the core's ratios."""
    m = get_metric("mcc")
    p, n = 37, 53
    tp = np.arange(3, 30, dtype=np.float64)
    tn = np.arange(10, 50, dtype=np.float64)
    f, _ = lattice_ratios(m, tp, tn, p, n)
    TP, TN = tp.astype(np.int64)[:, None], tn.astype(np.int64)[None, :]
    form = m.exact(TP, p - TP, n - TN, TN)
    assert np.array_equal(f, np.true_divide(form.num, form.den))


def test_declines_where_the_core_takes_another_path():
    # 0/0 points in the window (MCC with TP + FP = 0 possible), and integers beyond 2**53
    assert fast("mcc", 0, 3, 0, 2, 0.95, "beta-binomial") is None
    assert lattice_ratios(get_metric("mcc"), np.arange(5.0), np.arange(5.0), 30_000, 30_000) is None


def test_plans_are_unchanged_and_equal_the_scan():
    plan = plan_test_size("mcc", prevalence=0.2, tpr=0.75, tnr=0.85, half_width=0.12, target="next_test_set")
    N, h = ref.smallest_by_scan("mcc", 0.2, 0.75, 0.85, 0.12, stop=plan.N + 1)
    assert plan.N == N and plan.half_width == pytest.approx(h, abs=1e-12)
    lo, hi = plan.interval()
    assert plan.half_width == (hi - lo) / 2


# ----------------------------------------------------------------------------- MCC along its contours
def contour(metric: str, tp: int, fn: int, fp: int, tn: int, confidence: float, model: str):
    from confusionlab.planner._half_width import contour_half_width

    p, n = tp + fn, fp + tn
    a = marginal(model, tp, p, p, 1.0, 1e-12, "positives")
    b = marginal(model, tn, n, n, 1.0, 1e-12, "negatives")
    return contour_half_width(get_metric(metric), a.pmf, a.lo, b.pmf, b.lo, p, n, confidence)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    metric=st.sampled_from(["mcc", "mcc", "f1", "f2", "f0.5"]),
    p=st.integers(1, 5000),
    n=st.integers(1, 9000),
    tpr=st.floats(0.0, 1.0),
    tnr=st.floats(0.0, 1.0),
    confidence=st.floats(0.05, 0.999),
    model=st.sampled_from(["beta-binomial", "binomial"]),
)
def test_contours_equal_the_core_interval_bit_for_bit(metric, p, n, tpr, tnr, confidence, model):
    tp, tn = round(tpr * p), round(tnr * n)
    result = contour(metric, tp, p - tp, n - tn, tn, confidence, model)
    if result is None:  # allowed (the caller falls back); never wrong
        return
    d = metric_distribution(ConfusionMatrix(tp=tp, fn=p - tp, fp=n - tn, tn=tn), metric, model)
    lo, hi = d.interval(confidence)
    assert result[0] == (hi - lo) / 2
    assert result[1] == pytest.approx(interval_half_width(d, confidence)[1], rel=1e-9, abs=1e-15)


@pytest.mark.parametrize("metric", ["mcc", "f1"])
@pytest.mark.parametrize(("tp", "fn", "fp", "tn"), [(780, 195, 878, 7898), (2667, 667, 1333, 5333), (40, 10, 45, 405)])
def test_contours_answer_the_planner_sizes(metric, tp, fn, fp, tn):
    """At the sizes the planner view benchmarks the contour path answers (no fallback) and
    matches the independent reference."""
    result = contour(metric, tp, fn, fp, tn, 0.95, "beta-binomial")
    assert result is not None
    assert result[0] == pytest.approx(ref.half_width_of(metric, tp, fn, fp, tn, 0.95, "beta-binomial"), abs=1e-12)


def test_contours_decline_other_metrics():
    assert contour("markedness", 40, 10, 45, 405, 0.95, "beta-binomial") is None
    assert contour("fowlkes_mallows", 40, 10, 45, 405, 0.95, "beta-binomial") is None


@settings(max_examples=300, deadline=None)
@given(a=st.integers(0, 10**6), b=st.integers(0, 10**6), c=st.integers(0, 10**6), d=st.integers(0, 10**6))
def test_mcc_monotonicity_polynomial_identity(a, b, c, d):
    """The sign of ∂MCC/∂TN, 2p·PP·PN − (TP·TN − FP·FN)(PP − PN), equals the positive-coefficient
    polynomial quoted in MccRows (exact integers)."""
    p, pp, pn = a + b, a + c, b + d
    lhs = 2 * p * pp * pn - (a * d - b * c) * (pp - pn)
    rhs = (
        2 * a * a * b + a * a * d + 3 * a * b * c + a * c * d + 2 * a * b * b
        + 3 * a * b * d + b * b * c + b * c * d + a * d * d + b * c * c
    )  # fmt: skip
    assert lhs == rhs >= 0


@settings(max_examples=40, deadline=None)
@given(p=st.integers(1, 60), n=st.integers(1, 60))
def test_mcc_rows_are_non_decreasing_and_counts_are_exact(p, n):
    """Brute force over whole slices with Fractions: each row's exact MCC² (signed) is
    non-decreasing in TN, and the prefix counts equal a direct count of the core's ratios."""
    from fractions import Fraction

    from confusionlab.planner._half_width import MccRows

    for tp in range(p + 1):
        exact = []
        for tn in range(n + 1):
            fp, fn = n - tn, p - tp
            den = (tp + fp) * (fn + tn) * p * n
            r = tp * tn - fp * fn
            exact.append(None if den == 0 else Fraction(r * abs(r), den))
        defined = [x for x in exact if x is not None]
        assert all(x <= y for x, y in itertools.pairwise(defined))
    inner = MccRows(1, p - 1, 1, n - 1, p, n) if p > 2 and n > 2 else None
    if inner is not None:
        i = np.repeat(np.arange(p - 1), n - 1)
        j = np.tile(np.arange(n - 1), p - 1)
        f = inner.f(i, j).reshape(p - 1, n - 1)
        thresholds = np.unique(f)[:: max(1, f.size // 7)]
        counts = inner.count(thresholds)
        assert counts is not None
        assert np.array_equal(counts, (f[None, :, :] <= thresholds[:, None, None]).sum(axis=2))


@settings(max_examples=30, deadline=None)
@given(metric=st.sampled_from(["f1", "f2", "f0.5"]), p=st.integers(1, 60), n=st.integers(1, 60))
def test_fbeta_rows_count_exactly(metric, p, n):
    """F-beta's prefix counts equal a direct count of the core's ratios over the whole slice."""
    from confusionlab.planner._half_width import rows_for

    rows = rows_for(get_metric(metric), 0, p + 1, 0, n + 1, p, n)
    i = np.repeat(np.arange(p + 1), n + 1)
    j = np.tile(np.arange(n + 1), p + 1)
    TP, TN = i.reshape(p + 1, n + 1), j.reshape(p + 1, n + 1)
    form = get_metric(metric).exact(TP, p - TP, n - TN, TN)
    f = np.true_divide(form.num, form.den)
    assert np.array_equal(rows.f(i, j).reshape(p + 1, n + 1), f)
    assert np.all(np.diff(f, axis=1) >= 0)  # non-decreasing along each row
    thresholds = np.concatenate([[-1.0], np.unique(f)[:: max(1, f.size // 7)], [2.0]])
    counts = rows.count(thresholds)
    assert counts is not None
    assert np.array_equal(counts, (f[None, :, :] <= thresholds[:, None, None]).sum(axis=2))


@pytest.mark.parametrize(
    ("metric", "prevalence", "target"),
    [("mcc", 0.1, 0.0295), ("mcc", 0.3, 0.069), ("f1", 0.2, 0.05), ("markedness", 0.4, 0.08)],
)
def test_fast_paths_change_no_plan_and_no_half_width(metric, prevalence, target, monkeypatch):
    """The plan and every half-width of its curve are the same with the fast paths declined
    (each size then builds its distribution), including the browser benchmark's N ≈ 10,000 plan."""
    import confusionlab.planner._criterion as criterion

    fast = plan_test_size(metric, prevalence=prevalence, tpr=0.8, tnr=0.9, half_width=target, target="next_test_set")
    monkeypatch.setattr(criterion, "contour_half_width", lambda *args: None)
    monkeypatch.setattr(criterion, "lattice_half_width", lambda *args: None)
    slow = plan_test_size(metric, prevalence=prevalence, tpr=0.8, tnr=0.9, half_width=target, target="next_test_set")
    assert (fast.N, fast.half_width) == (slow.N, slow.half_width)
    assert fast.curve == slow.curve
