"""DecisionCurveView: ``DecisionCurve.view()`` is it; its buffers are the curve's net benefits (checked
against a brute force count), pointwise intervals, simultaneous band and P(useful), one row per
strategy; the cursor reads the nearest threshold; a refused threshold or confidence changes nothing;
a hostile model name is only text."""

from __future__ import annotations

import numpy as np
import pytest

import confusionlab as cl
from confusionlab.widgets._common import buffer_array
from confusionlab.widgets.decision_curve_view import DecisionCurveView, nearest_index

HOSTILE = '<img src=x onerror="alert(1)">$x^$'


@pytest.fixture(scope="module")
def curve():
    rng = np.random.default_rng(3)
    risk = rng.uniform(size=300)
    y = rng.uniform(size=300) < risk
    return y, risk, cl.decision_curve(y, {"model": risk, HOSTILE: risk.round(1)})


def test_the_curve_s_view_is_the_decision_curve_view(curve):
    *_, dc = curve
    view = dc.view()
    assert isinstance(view, DecisionCurveView) and view.curve is dc
    assert view._summary["names"] == ["model", HOSTILE, "treat all", "treat none"]
    assert view.confidence == dc.confidence and view._summary["models"] == 2


def test_buffers_hold_every_strategy_row_by_row(curve):
    y, risk, dc = curve
    view = DecisionCurveView(dc, confidence=0.9)
    k = dc.thresholds.size
    rows = {name: slice(s * k, (s + 1) * k) for s, name in enumerate([*dc.models, "all", "none"])}
    nb, lo, hi = (buffer_array(view, b) for b in ("_net_benefit", "_lower", "_upper"))
    b_lo, b_hi = buffer_array(view, "_band_lower"), buffer_array(view, "_band_upper")
    intervals, band = dc.interval_arrays(0.9), dc.band(0.9)
    for name, r in rows.items():
        np.testing.assert_array_equal(nb[r], dc.net_benefit[name])
        np.testing.assert_array_equal(lo[r], intervals[name][0])
        np.testing.assert_array_equal(hi[r], intervals[name][1])
        np.testing.assert_array_equal(b_lo[r], band.lower[name])
        np.testing.assert_array_equal(b_hi[r], band.upper[name])
    np.testing.assert_array_equal(
        buffer_array(view, "_prob_useful"), np.concatenate([dc.prob_useful[m] for m in dc.models])
    )
    # the model's row by brute force: TP/N − FP/N · p_t/(1 − p_t), counting risk ≥ p_t (no risk is 0 or 1 here)
    t = dc.thresholds
    tp = np.array([np.sum(y & (risk >= p)) for p in t])
    fp = np.array([np.sum(~y & (risk >= p)) for p in t])
    np.testing.assert_allclose(nb[rows["model"]], tp / y.size - fp / y.size * t / (1 - t), rtol=0, atol=1e-12)
    # pointwise inside the band, which is wider (simultaneous over every threshold)
    model = rows["model"]
    assert np.all(b_lo[model] <= lo[model] + 1e-12) and np.all(hi[model] <= b_hi[model] + 1e-12)


def test_the_cursor_reads_the_nearest_threshold(curve):
    *_, dc = curve
    view = DecisionCurveView(dc, threshold=0.234)
    assert view.index == 23 and nearest_index(dc.thresholds, 0.236) == 24
    default = DecisionCurveView(dc)
    gain = dc.net_benefit["model"] - np.maximum(dc.net_benefit["all"], 0)
    assert default.threshold == dc.thresholds[np.argmax(gain)]


@pytest.mark.parametrize("bad", [-0.01, 0.995, float("nan"), float("inf"), "0.3", None])
def test_a_refused_threshold_changes_nothing(curve, bad):
    *_, dc = curve
    view = DecisionCurveView(dc, threshold=0.3)
    before = bytes(view._net_benefit)
    with pytest.raises(cl.InvalidParameterError, match="threshold"):
        view.threshold = bad
    assert view.threshold == 0.3 and bytes(view._net_benefit) == before


def test_confidence_redraws_and_a_refused_one_changes_nothing(curve):
    *_, dc = curve
    view = DecisionCurveView(dc)
    wide = buffer_array(view, "_band_upper").copy()
    view.confidence = 0.5
    assert view._summary["confidence"] == 0.5 and np.all(buffer_array(view, "_band_upper") <= wide + 1e-12)
    with pytest.raises(cl.InvalidParameterError, match="confidence"):
        view.confidence = 1.5
    assert view.confidence == 0.5 and view._summary["confidence"] == 0.5


def test_the_note_says_what_each_shade_is(curve):
    *_, dc = curve
    note = DecisionCurveView(dc)._summary["note"]
    assert "Darker shade: the 95% interval at each threshold on its own" in note
    assert "Lighter, wider shade: the 95% band that holds at every threshold at once" in note
    assert "P(useful)" in note


def test_only_a_decision_curve(curve):
    with pytest.raises(cl.InvalidParameterError, match="curve"):
        DecisionCurveView(cl.cost_curve(curve[0], curve[1]))
