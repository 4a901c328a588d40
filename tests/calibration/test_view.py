"""CalibrationView: the numbers it sends, validation before mutation, and Calibration.view()."""

from __future__ import annotations

import numpy as np
import pytest
import traitlets
from sklearn.calibration import calibration_curve

import confusionlab as cl
from confusionlab.widgets._common import buffer_array
from confusionlab.widgets.calibration_view import CalibrationView


@pytest.fixture(scope="module")
def cal():
    rng = np.random.default_rng(3)
    q = rng.beta(2, 3, size=3000)
    y = rng.uniform(size=q.size) < q**1.5  # overconfident: some bins fall outside the band
    return cl.calibration(y, q, bins=10, n_resamples=300, n_draws=2000, random_state=0), q, y


def test_view_sends_the_calibration_numbers_as_buffers(cal):
    c, q, y = cal
    view = c.view()
    assert isinstance(view, CalibrationView) and isinstance(view, cl.CalibrationView)
    prob_true, prob_pred = calibration_curve(y, q, n_bins=10, strategy="quantile")
    np.testing.assert_allclose(buffer_array(view, "_x"), prob_pred, atol=1e-15)
    np.testing.assert_allclose(buffer_array(view, "_observed"), prob_true, atol=1e-15)
    band = c.band(0.95)
    np.testing.assert_array_equal(buffer_array(view, "_lower"), band.lower)
    np.testing.assert_array_equal(buffer_array(view, "_upper"), band.upper)
    np.testing.assert_array_equal(buffer_array(view, "_outside"), band.outside.astype(np.float32))
    counts, edges = np.histogram(q, bins=40, range=(0, 1))
    np.testing.assert_array_equal(buffer_array(view, "_hist_counts"), counts)
    np.testing.assert_allclose(buffer_array(view, "_hist_edges"), edges)
    s = view._summary
    assert s["outside"] == int(band.outside.sum()) > 0
    assert s["ece"] == c.value and s["interval"] == list(c.interval(0.95))
    assert s["p_value"] == c.p_value().p_value < 0.05
    assert "evidence of miscalibration at the 5% level" in s["verdict"]


def test_a_refused_value_changes_nothing(cal):
    view = cl.CalibrationView(cal[0], histogram_bins=20)
    before = (view._summary, view._lower, view._hist_counts, view.confidence)
    for bad in (1.0, 0.0, float("nan"), "0.9"):
        with pytest.raises((cl.InvalidParameterError, traitlets.TraitError)):
            view.confidence = bad
        assert (view._summary, view._lower, view._hist_counts, view.confidence) == before
    with pytest.raises(traitlets.TraitError):
        view.update(confidence=0.8, histogram_bins=1)
    assert (view._summary, view._lower, view._hist_counts, view.confidence) == before
    view.update(confidence=0.8, histogram_bins=10)
    assert view._summary["confidence"] == 0.8 and buffer_array(view, "_hist_counts").size == 10
    lower = buffer_array(view, "_lower")
    assert np.all(lower >= np.frombuffer(before[1], dtype="<f8"))  # a narrower band at 80 %


def test_only_a_calibration_is_accepted():
    with pytest.raises(cl.InvalidParameterError, match="calibration must be a Calibration"):
        cl.CalibrationView([0.1, 0.2])


def test_the_view_of_engine_binned_forecasts_says_what_is_approximate(cal, monkeypatch):
    """``data=`` beyond the distinct-forecast limit (lowered to 50): the view draws the binomial band
    and the spread histogram, and its notes say they are approximate."""
    import importlib

    import pandas as pd

    monkeypatch.setattr(importlib.import_module("confusionlab.calibration._data"), "MAX_DISTINCT_SCORES", 50)
    _, q, y = cal
    c = cl.calibration("y", "q", data=pd.DataFrame({"y": y, "q": q}), n_resamples=300, n_draws=2000)
    view = c.view()
    np.testing.assert_array_equal(buffer_array(view, "_lower"), c.band(0.95).lower)
    np.testing.assert_allclose(buffer_array(view, "_hist_counts"), c.histogram(40)[0])
    assert "approximate" in view._summary["note"] and "binomial at each bin mean" in view._summary["note"]
    assert c.approximation in view._summary["error_note"]


def test_how_the_intervals_are_computed_is_in_the_tooltip_not_the_visible_line(cal):
    """A newcomer reads the forecasts' count; the band's error bound and the intervals' methods are
    in the line's tooltip (``error_detail``), with the numbers of the result itself."""
    c = cal[0]
    summary = c.view()._summary
    assert summary["error_note"] == f"{c.n_forecasts:,} forecasts (how each interval is computed: this line's tooltip)."
    assert "exact up to" not in summary["error_note"] and "bootstrap" not in summary["error_note"]
    assert f"Band exact up to {c.band(0.95).error_bound:.1g} in probability" in summary["error_detail"]
    assert "300 stratified bootstrap resamples" in summary["error_detail"]
