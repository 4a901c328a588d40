"""More than two classes (classwise, top-label) and groups: against scikit-learn's bins per
member and the ECE from its definition; the simultaneous band's coverage and the groups'
p-value's size by simulation (fixed seeds); hostile arguments."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.calibration import calibration_curve

import confusionlab as cl
from confusionlab.calibration import Calibration, CalibrationSet


def _ece(y, q, bins):
    prob_true, prob_pred = calibration_curve(y, q, n_bins=bins, strategy="quantile")
    edges = np.percentile(q, np.linspace(0, 100, bins + 1))
    counts = np.bincount(np.searchsorted(edges[1:-1], q), minlength=bins)
    counts = counts[counts > 0]
    return float(np.sum(counts / q.size * np.abs(prob_true - prob_pred))), prob_true, prob_pred


def _three_classes(n, seed):
    rng = np.random.default_rng(seed)
    proba = rng.dirichlet([1.0, 2.0, 3.0], size=n)
    cum = proba.cumsum(axis=1)
    y = np.array(["a", "b", "c"])[(rng.uniform(size=(n, 1)) > cum).sum(axis=1)]
    return proba, y


def test_classwise_members_equal_one_vs_rest_calibration_curves():
    proba, y = _three_classes(1500, 0)
    cs = cl.calibration(y, proba, bins=8, multi_class="classwise", n_resamples=100, n_draws=200, random_state=0)
    assert isinstance(cs, CalibrationSet) and cs.names == ["a", "b", "c"]
    eces = []
    for k, label in enumerate("abc"):
        ece, prob_true, prob_pred = _ece(y == label, proba[:, k], 8)
        np.testing.assert_allclose(cs[label].observed_frequency, prob_true, atol=1e-15)
        np.testing.assert_allclose(cs[label].mean_forecast, prob_pred, atol=1e-15)
        assert cs[label].value == pytest.approx(ece, rel=1e-12)
        eces.append(ece)
    assert cs.value == pytest.approx(np.mean(eces), rel=1e-12)
    assert cs.member_confidence(0.95) == pytest.approx(1 - 0.05 / 3)
    lo, hi = cs.interval(0.9)
    assert lo <= hi and set(cs.to_frame()["class"]) == {"a", "b", "c"}


def test_top_label_is_the_calibration_of_the_largest_probability():
    proba, y = _three_classes(1200, 1)
    classes = np.array(["a", "b", "c"])
    cal = cl.calibration(y, proba, bins=6, multi_class="top-label", n_resamples=50, n_draws=100, random_state=0)
    assert isinstance(cal, Calibration) and cal.positive is True
    correct = classes[proba.argmax(axis=1)] == y
    ece, prob_true, prob_pred = _ece(correct, proba.max(axis=1), 6)
    np.testing.assert_allclose(cal.observed_frequency, prob_true, atol=1e-15)
    np.testing.assert_allclose(cal.mean_forecast, prob_pred, atol=1e-15)
    assert cal.value == pytest.approx(ece, rel=1e-12)
    # the columns may be named: here in reverse order of the sorted labels
    named = cl.calibration(y, proba[:, ::-1], bins=6, multi_class="top-label", classes=["c", "b", "a"])
    assert named.value == pytest.approx(ece, rel=1e-12)


def test_groups_give_one_calibration_each_and_the_largest_ece():
    rng = np.random.default_rng(2)
    q = rng.beta(2, 3, size=2400)
    g = rng.choice(["F", "M", "X"], size=q.size, p=[0.3, 0.5, 0.2])
    y = rng.uniform(size=q.size) < np.where(g == "X", q**1.5, q)
    cs = cl.calibration(y, q, bins=5, groups=g, n_resamples=100, n_draws=500, random_state=0)
    assert cs.kind == "groups" and cs.names == ["F", "M", "X"]
    eces = {}
    for name in "FMX":
        rows = g == name
        eces[name], prob_true, _ = _ece(y[rows], q[rows], 5)
        np.testing.assert_allclose(cs[name].observed_frequency, prob_true, atol=1e-15)
        assert cs[name].n_forecasts == rows.sum()
    assert cs.value == pytest.approx(max(eces.values()), rel=1e-12)
    assert cs.member_confidence(0.95) == pytest.approx(0.95 ** (1 / 3))
    assert cs.p_value().p_value < 0.01  # group X is miscalibrated
    assert "largest group ECE" in cs.summary() and cs.plot() is not None


def test_group_bands_are_simultaneous_over_groups_and_bins():
    """Calibrated outcomes put every bin of every group inside with probability ≥ 95 % (Šidák twice)."""
    rng = np.random.default_rng(3)
    q = rng.uniform(0.05, 0.95, size=600)
    g = np.repeat(["a", "b", "c"], 200)
    misses = 0
    reps = 300
    for _ in range(reps):
        y = rng.uniform(size=q.size) < q
        cs = cl.calibration(y, q, bins=4, groups=g, n_resamples=10, n_draws=10, random_state=0)
        misses += any(b.outside.any() for b in cs.band(0.9).values())
    # at most 10 % misses, up to Monte Carlo error (3 standard errors)
    assert misses / reps <= 0.1 + 3 * np.sqrt(0.1 * 0.9 / reps)


def test_group_p_value_has_its_size_under_calibration():
    rng = np.random.default_rng(4)
    q = rng.uniform(size=400)
    g = np.repeat(["a", "b"], 200)
    reps = 200
    p = [
        cl.calibration(rng.uniform(size=q.size) < q, q, bins=4, groups=g, n_draws=199, random_state=k).p_value().p_value
        for k in range(reps)
    ]
    assert np.mean(np.array(p) <= 0.1) <= 0.1 + 3 * np.sqrt(0.1 * 0.9 / reps)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"y_prob": [0.2, 0.4, 0.6], "multi_class": "classwise"}, "matrix with at least two columns"),
        ({"y_prob": [[0.2, 0.8]] * 3, "multi_class": "classwise"}, "2 columns and there are 3 distinct classes"),
        ({"y_prob": [[0.2, 0.3, 0.5]] * 3, "multi_class": "typo"}, "multi_class"),
        ({"y_prob": [[0.2, 0.3, 0.5]] * 3, "multi_class": "classwise", "positive": "a"}, "does not apply"),
        ({"y_prob": [0.2, 0.4, 0.6], "classes": ["a", "b", "c"]}, "pass multi_class"),
        ({"y_prob": [[0.2, 0.3, 0.5]] * 3, "multi_class": "classwise", "groups": [1, 2, 1]}, "not supported yet"),
        ({"y_prob": [[0.2, 0.3, np.nan]] * 3, "multi_class": "top-label"}, r"y_prob\[:, 2\]"),
        ({"y_prob": [[0.2, 0.3, 1.5]] * 3, "multi_class": "top-label"}, r"y_prob\[:, 2\]"),
        ({"y_prob": [[0.2, 0.3, 0.5]] * 2, "multi_class": "top-label"}, "same length"),
        ({"y_prob": [0.2, 0.4, 0.6], "groups": ["a", "b"]}, "same length"),
        ({"y_prob": [0.2, 0.4, 0.6], "groups": ["a", None, "b"]}, "missing"),
    ],
)
def test_hostile_multi_class_and_groups(kwargs, match):
    y_true = kwargs.pop("y_true", ["a", "b", "c"] if "multi_class" in kwargs or "classes" in kwargs else [0, 1, 1])
    with pytest.raises(cl.InvalidParameterError, match=match):
        cl.calibration(y_true, **kwargs)


def test_a_set_views_one_diagram_per_member_at_the_simultaneous_level():
    import ipywidgets

    proba, y = _three_classes(600, 5)
    cs = cl.calibration(y, proba, bins=4, multi_class="classwise", n_resamples=50, n_draws=100, random_state=0)
    view = cs.view()
    assert isinstance(view, ipywidgets.DOMWidget)
    views = [box.children[1] for box in view.children[1].children]
    assert [v.calibration for v in views] == [cs[name] for name in cs.names]
    assert all(v.confidence == pytest.approx(1 - 0.05 / 3) for v in views)
