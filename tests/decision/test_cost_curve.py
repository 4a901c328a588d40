"""Drummond & Holte's cost curve against brute force: every ROC point of scikit-learn's ``roc_curve``
(drop_intermediate=False) as a line, the minimum over all of them at each probability cost; its band as
the minimum over the KS boxes' corners (scipy.stats.kstwo)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import roc_curve

import confusionlab as cl


def _data(seed=0, n=200):
    rng = np.random.default_rng(seed)
    y = rng.uniform(size=n) < 0.4
    return y, np.round(rng.normal(size=n) + 1.2 * y, 1)  # ties: diagonal steps


def _brute(fpr, tpr, pc):
    lines = (1 - tpr)[None, :] * pc[:, None] + fpr[None, :] * (1 - pc[:, None])
    trivial = np.minimum(pc, 1 - pc)
    return np.minimum(lines.min(axis=1), trivial)


def test_envelope_is_the_minimum_over_every_roc_point():
    y, s = _data()
    c = cl.cost_curve(y, s)
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    np.testing.assert_allclose(c.cost, _brute(fpr, tpr, c.probability_cost), rtol=0, atol=1e-12)
    assert c.value == pytest.approx(np.trapezoid(c.cost, c.probability_cost), abs=1e-12)


def test_band_is_the_minimum_over_the_boxes_corners():
    y, s = _data(1)
    c = cl.cost_curve(y, s)
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    p, n = int(y.sum()), int((~y).sum())
    level = 0.9**0.5
    d_p, d_n = stats.kstwo(p).ppf(level), stats.kstwo(n).ppf(level)
    band = c.band(0.9)
    pc = c.probability_cost
    lower = _brute(np.clip(fpr - d_n, 0, 1), np.clip(tpr + d_p, 0, 1), pc)
    upper = _brute(np.clip(fpr + d_n, 0, 1), np.clip(tpr - d_p, 0, 1), pc)
    np.testing.assert_allclose(band.lower, lower, rtol=0, atol=1e-12)
    np.testing.assert_allclose(band.upper, upper, rtol=0, atol=1e-12)
    assert np.all(band.lower <= c.cost + 1e-12) and np.all(c.cost <= band.upper + 1e-12)
    lo, hi = c.interval(0.9)
    assert lo <= c.value <= hi


def test_plot_and_frame():
    y, s = _data(2)
    c = cl.cost_curve(y, s)
    assert c.plot().axes
    frame = c.to_frame()
    assert list(frame.columns) == ["probability_cost", "cost", "band_lower", "band_upper", "target"]
    assert c.target == "true_value" and set(frame["target"]) == {"true_value"}  # the band holds the true curve


def test_one_class_is_refused():
    with pytest.raises(cl.InvalidParameterError, match="y_true"):
        cl.cost_curve([1, 1, 1], [0.1, 0.2, 0.3])
