"""The assurance's exact half-widths for many test outcomes at once (issue 20: assurance in seconds).

``contour_half_widths`` evaluates MCC's and the F-scores' central interval for many windows of one
slice (p, n) together; each result must be the one-window path's (``contour_half_width``: the same
half-width and granularity, bit for bit) or None (the caller then evaluates that window alone), and
the half-width must be the independent brute force's (scipy's whole PMFs, every lattice point).
"""

from __future__ import annotations

import numpy as np
import pytest

from confusionlab.confusion import ConfusionMatrix
from confusionlab.distribution import metric_distribution
from confusionlab.metrics import get_metric
from confusionlab.models import marginal
from confusionlab.planner._criterion import _Evaluator
from confusionlab.planner._half_width import contour_half_width, contour_half_widths, interval_half_width

from . import _reference as ref


def _windows(model: str, p: int, n: int, tps: np.ndarray, tns: np.ndarray):
    """Each outcome's predictive marginals (shared objects for equal counts, as the planner's cache)."""
    rows = {int(a): marginal(model, int(a), p, p, 1.0, 1e-12, "positives") for a in set(tps.tolist())}
    cols = {int(b): marginal(model, int(b), n, n, 1.0, 1e-12, "negatives") for b in set(tns.tolist())}
    return [rows[int(a)] for a in tps], [cols[int(b)] for b in tns]


def _outcomes(rng, p: int, n: int, tpr: float, tnr: float, count: int, model: str):
    """Test outcomes around a planned matrix, as the assurance enumerates them (a few sd either way)."""
    tp0, tn0 = round(tpr * p), round(tnr * n)
    sd_p, sd_n = 3 * np.sqrt(p * tpr * (1 - tpr)) + 1, 3 * np.sqrt(n * tnr * (1 - tnr)) + 1
    lo = 1 if model == "binomial" else 0  # the binomial plug-in is degenerate at 0 and at all
    tps = np.clip(tp0 + rng.integers(-int(sd_p), int(sd_p) + 1, count), lo, p - lo)
    tns = np.clip(tn0 + rng.integers(-int(sd_n), int(sd_n) + 1, count), lo, n - lo)
    return tps, tns


SETTINGS = [  # metric, p, n, tpr, tnr, model
    ("mcc", 1006, 9049, 0.8, 0.9, "beta-binomial"),
    ("mcc", 60, 140, 0.8, 0.9, "binomial"),
    ("mcc", 40, 600, 0.6, 0.8, "beta-binomial"),
    ("f1", 300, 700, 0.85, 0.9, "beta-binomial"),
    ("f1", 90, 40, 0.7, 0.6, "binomial"),
    ("f2", 200, 1800, 0.75, 0.95, "beta-binomial"),
    ("f0.5", 500, 500, 0.9, 0.8, "binomial"),
]


@pytest.mark.parametrize(("metric", "p", "n", "tpr", "tnr", "model"), SETTINGS)
def test_many_windows_give_the_one_window_results(metric, p, n, tpr, tnr, model):
    rng = np.random.default_rng(p * 7 + n)
    tps, tns = _outcomes(rng, p, n, tpr, tnr, 120, model)
    rows, cols = _windows(model, p, n, tps, tns)
    m = get_metric(metric)
    hint: dict = {}
    batched = contour_half_widths(m, p, n, [(a.lo, a.pmf) for a in rows], [(b.lo, b.pmf) for b in cols], 0.95, hint)
    single = [contour_half_width(m, a.pmf, a.lo, b.pmf, b.lo, p, n, 0.95) for a, b in zip(rows, cols, strict=True)]
    answered = [k for k, r in enumerate(batched) if r is not None]
    assert len(answered) >= 0.9 * len(batched)  # None is allowed, not the rule
    for k in answered:
        if single[k] is not None:
            assert batched[k] == single[k]  # the same doubles: half-width and granularity
        else:  # the one-window path declined: the distribution's own interval
            cm = ConfusionMatrix(tp=int(tps[k]), fn=p - int(tps[k]), fp=n - int(tns[k]), tn=int(tns[k]))
            d = metric_distribution(cm, metric, model, prior=1.0)
            assert batched[k][0] == interval_half_width(d, 0.95)[0]
    # a second call for the same slice starts from the learnt hint: the same results
    again = contour_half_widths(m, p, n, [(a.lo, a.pmf) for a in rows], [(b.lo, b.pmf) for b in cols], 0.95, hint)
    assert "offset" in hint
    assert [r for r in again if r is not None] == [batched[k] for k, r in enumerate(again) if r is not None]


def test_a_misleading_hint_moves_the_brackets_and_changes_nothing():
    """The hint only places the first brackets: one far off (and far too narrow) is corrected by
    moving and doubling them; every answer is still the one-window path's."""
    p, n, model = 300, 1200, "beta-binomial"
    tps, tns = _outcomes(np.random.default_rng(5), p, n, 0.8, 0.9, 60, model)
    rows, cols = _windows(model, p, n, tps, tns)
    m = get_metric("mcc")
    hint = {"offset": np.array([0.15, -0.15]), "width": np.array([1e-4, 1e-4])}
    batched = contour_half_widths(m, p, n, [(a.lo, a.pmf) for a in rows], [(b.lo, b.pmf) for b in cols], 0.95, hint)
    single = [contour_half_width(m, a.pmf, a.lo, b.pmf, b.lo, p, n, 0.95) for a, b in zip(rows, cols, strict=True)]
    assert sum(r is not None for r in batched) >= 50
    assert all(b == s for b, s in zip(batched, single, strict=True) if b is not None and s is not None)


@pytest.mark.parametrize(
    ("metric", "p", "n", "tpr", "tnr", "model"),
    [
        ("mcc", 70, 90, 0.8, 0.7, "beta-binomial"),
        ("mcc", 80, 50, 0.7, 0.85, "binomial"),
        ("f1", 35, 45, 0.75, 0.8, "beta-binomial"),
        ("f1", 20, 60, 0.8, 0.9, "binomial"),
    ],
)
def test_many_windows_agree_with_the_brute_force(metric, p, n, tpr, tnr, model):
    """Against the independent reference: scipy's PMFs over the whole support, the textbook formula
    at every lattice point, the discrete central interval. (MCC's sizes keep each window off the
    corners where TP + FP or FN + TN is 0, where both paths decline.)"""
    tps, tns = _outcomes(np.random.default_rng(p + n), p, n, tpr, tnr, 40, model)
    rows, cols = _windows(model, p, n, tps, tns)
    batched = contour_half_widths(
        get_metric(metric), p, n, [(a.lo, a.pmf) for a in rows], [(b.lo, b.pmf) for b in cols], 0.95
    )
    checked = 0
    for a, b, result in zip(tps.tolist(), tns.tolist(), batched, strict=True):
        if result is None:
            continue
        expected = ref.half_width_of(metric, a, p - a, n - b, b, 0.95, model)
        assert result[0] == pytest.approx(expected, rel=1e-12, abs=1e-12)
        checked += 1
    assert checked >= 36


def test_the_evaluator_batch_equals_its_one_matrix_criterion():
    """``_Evaluator.half_widths`` (the assurance's entry) against ``criterion`` matrix by matrix,
    on separate caches; a metric without the batched path (balanced accuracy) goes one by one."""
    for metric in ("mcc", "f1", "balanced_accuracy"):
        args = (get_metric(metric), 0.2, 0.8, 0.9, 0.95, "beta-binomial", 1.0, 1e-12, "next_test_set")
        many, one = _Evaluator(*args), _Evaluator(*args)
        p, n = 160, 640
        tps, tns = _outcomes(np.random.default_rng(11), p, n, 0.8, 0.9, 50, "beta-binomial")
        got = many.half_widths(p, n, tps, tns)
        for a, b, result in zip(tps.tolist(), tns.tolist(), got, strict=True):
            assert result == one.criterion(ConfusionMatrix(tp=a, fn=p - a, fp=n - b, tn=b))


@pytest.mark.parametrize("metric", ["mcc", "f1"])
def test_without_the_ratio_grid_the_results_are_the_same(metric, monkeypatch):
    """Above ``_GRID_POINTS`` the ratios are computed where they are read instead of looked up."""
    from confusionlab.planner import _half_width

    p, n, model = 400, 2600, "beta-binomial"
    tps, tns = _outcomes(np.random.default_rng(3), p, n, 0.8, 0.9, 60, model)
    rows, cols = _windows(model, p, n, tps, tns)
    args = (get_metric(metric), p, n, [(a.lo, a.pmf) for a in rows], [(b.lo, b.pmf) for b in cols], 0.95)
    with_grid, hint = contour_half_widths(*args, {}), {}
    monkeypatch.setattr(_half_width, "_GRID_POINTS", 0)
    without = contour_half_widths(*args, hint)
    assert "grid" not in hint and sum(r is not None for r in without) >= 54
    assert without == with_grid


def test_random_slices_of_any_size_and_confidence_give_the_one_window_results():
    """Seeded slices from 1 to 3,000 per class, outcomes anywhere on them (rates near 0 and 1
    included), confidence from 0.5 to 0.999, both models, four metrics."""
    rng = np.random.default_rng(123)
    answered = compared = 0
    for _ in range(60):
        metric = str(rng.choice(["mcc", "f1", "f2", "f0.5"]))
        p, n = int(rng.integers(2, 3000)), int(rng.integers(2, 3000))
        model = str(rng.choice(["beta-binomial", "binomial"]))
        confidence = float(rng.choice([0.5, 0.8, 0.95, 0.99, 0.999]))
        lo = 1 if model == "binomial" else 0
        tps, tns = rng.integers(lo, p + 1 - lo, 15), rng.integers(lo, n + 1 - lo, 15)
        rows, cols = _windows(model, p, n, tps, tns)
        m = get_metric(metric)
        batched = contour_half_widths(m, p, n, [(a.lo, a.pmf) for a in rows], [(b.lo, b.pmf) for b in cols], confidence)
        for a, b, result in zip(rows, cols, batched, strict=True):
            single = contour_half_width(m, a.pmf, a.lo, b.pmf, b.lo, p, n, confidence)
            if result is not None and single is not None:
                assert result == single, (metric, p, n, model, confidence)
                compared += 1
            answered += result is not None
    assert compared >= 750 and answered >= 750  # of 900
