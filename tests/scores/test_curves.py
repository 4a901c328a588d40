"""The staircases and their values against scikit-learn (an independent implementation)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn import metrics as skm

import confusionlab as cl


def _data(seed: int, size: int = 300, decimals: int | None = 1):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, size)
    y[:2] = [0, 1]
    x = rng.normal(size=size) + y
    return y, (np.round(x, decimals) if decimals is not None else x)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("decimals", [None, 1, 0])
def test_roc_curve_and_auc_are_scikit_learns(seed, decimals):
    y, x = _data(seed, decimals=decimals)
    curve = cl.roc_curve(y, x)
    fpr, tpr, thresholds = skm.roc_curve(y, x, drop_intermediate=False)
    np.testing.assert_allclose(curve.fpr, fpr, rtol=0, atol=1e-15)
    np.testing.assert_allclose(curve.tpr, tpr, rtol=0, atol=1e-15)
    np.testing.assert_array_equal(curve.thresholds, thresholds)
    assert curve.value == pytest.approx(skm.roc_auc_score(y, x), abs=1e-14)
    assert (curve.p, curve.n) == (int(y.sum()), int((1 - y).sum()))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("decimals", [None, 1, 0])
def test_precision_recall_curve_and_average_precision_are_scikit_learns(seed, decimals):
    y, x = _data(seed, decimals=decimals)
    pr = cl.precision_recall_curve(y, x)
    precision, recall, thresholds = skm.precision_recall_curve(y, x)
    np.testing.assert_allclose(pr.precision, precision, rtol=0, atol=1e-15)
    np.testing.assert_allclose(pr.recall, recall, rtol=0, atol=1e-15)
    np.testing.assert_array_equal(pr.thresholds, thresholds)
    assert pr.value == pytest.approx(skm.average_precision_score(y, x), abs=1e-14)


def test_scikit_learns_own_roc_case():
    # sklearn/metrics/tests/test_ranking.py::test_roc_curve_drop_intermediate (first case)
    y_true = [0, 0, 0, 0, 1, 1]
    y_score = [0.0, 0.2, 0.5, 0.6, 0.7, 1.0]
    curve = cl.roc_curve(y_true, y_score)
    np.testing.assert_allclose(curve.thresholds, [np.inf, 1.0, 0.7, 0.6, 0.5, 0.2, 0.0])
    assert curve.value == 1.0


def test_scikit_learns_own_average_precision_case():
    # sklearn/metrics/tests/test_ranking.py::test_average_precision_constant_values: constant scores → prevalence
    y_true = np.zeros(100, dtype=int)
    y_true[::4] = 1
    pr = cl.precision_recall_curve(y_true, np.ones(100))
    assert pr.value == 0.25


@pytest.mark.parametrize(
    ("labels", "positive"),
    [
        (["cat", "dog"], "dog"),
        ([False, True], None),
        ([-1, 1], None),
        ([3.5, 7.25], 7.25),
        ([10, 20], 20),
    ],
)
def test_labels_of_any_dtype(labels, positive):
    y01, x = _data(11, decimals=1)
    y = np.array(labels, dtype=object if isinstance(labels[0], str) else None)[y01]
    curve = cl.roc_curve(list(y) if isinstance(labels[0], str) else y, x, positive=positive)
    assert curve.value == pytest.approx(skm.roc_auc_score(y01, x), abs=1e-14)


def test_one_class_against_the_rest():
    rng = np.random.default_rng(4)
    y = rng.choice(["a", "b", "c"], 200)
    x = rng.normal(size=200) + (y == "b")
    curve = cl.roc_curve(y, x, positive="b")
    assert curve.value == pytest.approx(skm.roc_auc_score(y == "b", x), abs=1e-14)


@pytest.mark.parametrize("threshold", [-np.inf, -1.0, 0.0, 0.3, 0.5, 1.7, 10.0, np.inf])
def test_at_threshold_is_scikit_learns_confusion_matrix(threshold):
    y, x = _data(3, decimals=1)
    cm = cl.roc_curve(y, x).at_threshold(threshold)
    tn, fp, fn, tp = skm.confusion_matrix(y, (x >= threshold).astype(int), labels=[0, 1]).ravel()
    assert (cm.tp, cm.fn, cm.fp, cm.tn) == (tp, fn, fp, tn)


def test_operating_points_walk_the_staircase_and_the_exact_core_applies():
    y, x = _data(5, size=80, decimals=1)
    curve = cl.roc_curve(y, x)
    points = curve.operating_points()
    assert len(points) == curve.thresholds.size
    for (t, cm), fpr, tpr, t_sk in zip(points, curve.fpr, curve.tpr, curve.thresholds, strict=True):
        assert t == t_sk
        assert cm.tp / curve.p == pytest.approx(tpr) and cm.fp / curve.n == pytest.approx(fpr)
    dist = cl.metric_distribution(points[len(points) // 2][1], "mcc")
    lo, hi = dist.interval(0.95)
    assert lo < hi
    pr = cl.precision_recall_curve(y, x)
    assert pr.at_threshold(0.5) == curve.at_threshold(0.5)


def test_frames():
    y, x = _data(6, size=50)
    frame = cl.roc_curve(y, x).to_frame()
    assert list(frame.columns) == ["threshold", "fpr", "tpr", "tp", "fp"]
    assert len(frame) == np.unique(x).size + 1
    assert len(cl.precision_recall_curve(y, x).to_frame()) == np.unique(x).size
