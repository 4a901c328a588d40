"""CostCurveView: ``CostCurve.view()`` is it; its envelope is the cheapest of scikit-learn's ROC points'
cost lines at every probability cost, its best point reaches it, its band holds it; the cursor reads the
nearest grid point; a refused probability cost or confidence changes nothing."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import roc_curve

import confusionlab as cl
from confusionlab.widgets._common import buffer_array
from confusionlab.widgets.cost_curve_view import CostCurveView


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(4)
    y = (rng.uniform(size=300) < 0.4).astype(int)
    s = np.round(rng.normal(1.2 * y), 1)
    return y, s, cl.cost_curve(y, s)


def test_the_view_s_numbers_against_scikit_learn_s_roc_points(data):
    y, s, curve = data
    view = curve.view(confidence=0.9)
    assert isinstance(view, CostCurveView) and view.curve is curve
    pc, cost = buffer_array(view, "_pc"), buffer_array(view, "_cost")
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)  # scikit-learn 's points, (0, 0) included
    lines = (1 - tpr)[None, :] * pc[:, None] + fpr[None, :] * (1 - pc[:, None])
    np.testing.assert_allclose(cost, lines.min(axis=1), rtol=0, atol=1e-12)
    f, t, best = buffer_array(view, "_hull_fpr"), buffer_array(view, "_hull_tpr"), buffer_array(view, "_best")
    np.testing.assert_allclose((1 - t[best]) * pc + f[best] * (1 - pc), cost, rtol=0, atol=1e-12)
    lower, upper = buffer_array(view, "_lower"), buffer_array(view, "_upper")
    assert np.all(lower <= cost + 1e-12) and np.all(cost <= upper + 1e-12)
    np.testing.assert_array_equal(upper, curve.band(0.9).upper)
    assert view._summary["confidence"] == 0.9 and "band that holds the true cost curve" in view._summary["note"]


def test_the_cursor_reads_the_nearest_grid_point(data):
    view = CostCurveView(data[2], probability_cost=0.2031)
    assert view.index == 102  # the grid is 0, 0.002, …, 1


@pytest.mark.parametrize("bad", [-0.1, 1.5, float("nan"), float("inf"), "0.3", None])
def test_a_refused_probability_cost_changes_nothing(data, bad):
    view = CostCurveView(data[2], probability_cost=0.3)
    with pytest.raises(cl.InvalidParameterError, match="probability_cost"):
        view.probability_cost = bad
    assert view.probability_cost == 0.3


def test_a_refused_confidence_changes_nothing(data):
    view = CostCurveView(data[2], confidence=0.8)
    before = bytes(view._upper)
    with pytest.raises(cl.InvalidParameterError, match="confidence"):
        view.confidence = 1.0
    assert view.confidence == 0.8 and bytes(view._upper) == before


def test_only_a_cost_curve(data):
    with pytest.raises(cl.InvalidParameterError, match="curve"):
        CostCurveView(cl.roc_curve(data[0], data[1]))
