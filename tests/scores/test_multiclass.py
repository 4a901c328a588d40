"""More than two classes against scikit-learn's roc_auc_score(multi_class=...)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

import confusionlab as cl


def _data(seed=0, k=4, size=300, decimals=2):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, size)
    y[:k] = np.arange(k)
    logits = rng.normal(size=(size, k)) + 1.2 * np.eye(k)[y]
    proba = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    proba = np.round(proba, decimals)  # ties
    proba[:, -1] = 1 - proba[:, :-1].sum(axis=1)  # rows still sum to 1 (scikit-learn checks)
    return y, proba


@pytest.mark.parametrize("seed", range(4))
def test_ovr_and_hand_till_are_scikit_learns(seed):
    y, proba = _data(seed)
    labels = np.array(["ant", "bee", "cat", "dog"])[y]
    ovr = cl.roc_curve(labels, proba, multi_class="ovr")
    assert ovr.value == pytest.approx(roc_auc_score(y, proba, multi_class="ovr", average="macro"), abs=1e-14)
    ht = cl.roc_curve(labels, proba, multi_class="hand-till")
    assert ht.value == pytest.approx(roc_auc_score(y, proba, multi_class="ovo", average="macro"), abs=1e-14)
    for j, (name, curve) in enumerate(ovr.curves.items()):
        assert name == ["ant", "bee", "cat", "dog"][j]
        assert curve.value == pytest.approx(roc_auc_score(y == j, proba[:, j]), abs=1e-14)


def _psi(x, y):
    return (x[:, None] > y[None, :]) + 0.5 * (x[:, None] == y[None, :])


def test_ovr_covariance_from_the_structural_components():
    y, proba = _data(1, k=3, size=150)
    result = cl.roc_curve(y, proba, multi_class="ovr")
    k = 3
    phi = np.zeros((k, y.size))
    for j in range(k):
        pos, neg = y == j, y != j
        kernel = _psi(proba[pos, j], proba[neg, j])
        auc = kernel.mean()
        phi[j, pos] = (kernel.mean(axis=1) - auc) / pos.sum()
        phi[j, neg] = (kernel.mean(axis=0) - auc) / neg.sum()
    expected = sum((y == c).sum() * np.cov(phi[:, y == c], ddof=1) for c in range(k))
    np.testing.assert_allclose(result.covariance(), expected, rtol=1e-10)


def test_ovr_variance_of_a_class_is_close_to_delongs():
    # DeLong pools a class's negatives into one sample; stratified by class the estimate differs
    # a little (the spread between the negative classes and ddof per class)
    y, proba = _data(2, k=3)
    result = cl.roc_curve(y, proba, multi_class="ovr")
    cov = result.covariance()
    for j, curve in enumerate(result.curves.values()):
        assert cov[j, j] == pytest.approx(curve.variance, rel=0.05)


def test_intervals():
    y, proba = _data(3, k=3, size=200)
    ovr = cl.roc_curve(y, proba, multi_class="ovr")
    lo, hi = ovr.interval()
    assert lo < ovr.value < hi
    ht = cl.roc_curve(y, proba, multi_class="hand-till")
    lo, hi = ht.interval(n_resamples=200, random_state=0)
    assert lo < ht.value < hi


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({}, "y_score is a .* matrix: pass multi_class"),
        ({"multi_class": "ovo"}, "multi_class"),
        ({"multi_class": "ovr", "positive": 1}, "positive must be omitted"),
    ],
)
def test_refusals(kwargs, match):
    y, proba = _data(0, k=3)
    with pytest.raises(cl.InvalidParameterError, match=match):
        cl.roc_curve(y, proba, **kwargs)


def test_wrong_shape_is_refused():
    y, proba = _data(0, k=3)
    with pytest.raises(cl.InvalidParameterError, match=r"shape \(300, 3\)"):
        cl.roc_curve(y, proba[:, :2], multi_class="ovr")
    with pytest.raises(cl.InvalidParameterError, match="at least three classes"):
        cl.roc_curve(y % 2, proba, multi_class="ovr")
