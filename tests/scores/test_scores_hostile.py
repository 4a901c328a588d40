"""Hostile input: every refusal is an InvalidParameterError naming the argument; any accepted input
gives scikit-learn's answer."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.metrics import average_precision_score, roc_auc_score

import confusionlab as cl

Y = np.r_[np.ones(5, dtype=int), np.zeros(5, dtype=int)]
X = np.linspace(0, 1, 10)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("make", [cl.roc_curve, cl.precision_recall_curve])
def test_nan_and_inf_scores_are_refused_by_name(make, bad):
    x = X.copy()
    x[3] = bad
    with pytest.raises(cl.InvalidParameterError, match=r"y_score .*position 3"):
        make(Y, x)


@pytest.mark.parametrize(
    ("y", "x", "match"),
    [
        (np.ones(10, dtype=int), X, "y_true holds one class only"),
        (Y, X[:9], "y_score must have one score per label"),
        (Y, X.reshape(2, 5), "y_score is a .* matrix: pass multi_class"),
        (Y, ["a"] * 10, "y_score must hold real numbers"),
        (Y, "scores", "y_score"),
        ([None] + [0] * 9, X, "y_true has 1 missing"),
        (np.array(["a", "b", "c", "a", "b", "c", "a", "b", "c", "a"]), X, "positive=<label>"),
        (np.array(["a", "b"] * 5), X, "cannot tell which label is positive"),
    ],
)
def test_refusals_name_the_argument(y, x, match):
    with pytest.raises(cl.InvalidParameterError, match=match):
        cl.roc_curve(y, x)


def test_positive_that_does_not_occur():
    with pytest.raises(cl.InvalidParameterError, match="positive='yes' does not occur in y_true"):
        cl.roc_curve(np.array(["a", "b"] * 5), X, positive="yes")


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda c: c.interval(1.5), "confidence"),
        (lambda c: c.interval(method="wald"), "method"),
        (lambda c: c.interval(target="next"), "target"),
        (lambda c: c.band(kind="both"), "kind"),
        (lambda c: c.band(confidence=0), "confidence"),
        (lambda c: c.p_value("bigger"), "alternative"),
        (lambda c: c.p_value(method="approx"), "method"),
        (lambda c: c.at_threshold(float("nan")), "threshold"),
        (lambda c: c.at_threshold("0.5"), "threshold"),
        (lambda c: c.interval(method="bootstrap", random_state=-1), "random_state"),
    ],
)
def test_bad_method_arguments_are_refused_by_name(call, match):
    with pytest.raises(cl.InvalidParameterError, match=match):
        call(cl.roc_curve(Y, X))


def test_compare_auc_refusals():
    with pytest.raises(cl.InvalidParameterError, match="score_b"):
        cl.compare_auc(Y, X, X[:-1])
    with pytest.raises(cl.InvalidParameterError, match="score_b must be omitted"):
        cl.compare_auc(Y, {"a": X, "b": X}, X)
    with pytest.raises(cl.InvalidParameterError, match="at least two classifiers"):
        cl.compare_auc(Y, {"a": X})
    with pytest.raises(cl.InvalidParameterError, match=r"score_a\['b'\]"):
        cl.compare_auc(Y, {"a": X, "b": np.r_[X[:-1], np.nan]})


def test_constant_scores_are_answered_clearly():
    curve = cl.roc_curve(Y, np.full(10, 0.5))
    assert curve.value == 0.5 and curve.variance == 0.0
    lo, hi = curve.interval()
    assert 0 < lo < 0.5 < hi < 1  # the boundary rule: no spread observed, the interval keeps its width
    assert curve.fpr.tolist() == [0.0, 1.0] and curve.tpr.tolist() == [0.0, 1.0]
    assert cl.precision_recall_curve(Y, np.full(10, 0.5)).value == 0.5


def test_a_single_example_of_a_class():
    y = np.r_[1, np.zeros(9, dtype=int)]
    curve = cl.roc_curve(y, X)
    assert curve.value == roc_auc_score(y, X)
    lo, hi = curve.interval()  # the score interval (a class of 1): from the AUC with a positive width
    assert 0 <= lo <= curve.value < hi < 1
    lo, hi = curve.interval(method="logit")  # the boundary rule
    assert 0 < lo < hi < 1


LABELS = st.sampled_from(
    [
        (0, 1),
        (False, True),
        ("neg", "pos"),
        (-1, 1),
        (2.5, 7.0),
    ]
)
SCORES = st.floats(allow_nan=True, allow_infinity=True, width=64) | st.integers(-5, 5).map(float)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(codes=st.lists(st.integers(0, 1), min_size=1, max_size=30), data=st.data(), labels=LABELS)
def test_any_input_is_answered_as_scikit_learn_or_refused_by_name(codes, data, labels):
    x = np.array(data.draw(st.lists(SCORES, min_size=len(codes), max_size=len(codes))))
    y = np.array([labels[c] for c in codes], dtype=object if isinstance(labels[0], str) else None)
    positive = labels[1] if labels[0] in (2.5, "neg") else None
    try:
        curve = cl.roc_curve(y, x, positive=positive)
        pr = cl.precision_recall_curve(y, x, positive=positive)
    except cl.InvalidParameterError as error:
        message = str(error)
        assert ("y_score" in message and not np.all(np.isfinite(x))) or ("y_true" in message and len(set(codes)) < 2), (
            message
        )
        return
    codes_arr = np.array(codes)
    with np.errstate(over="ignore"):
        assert curve.value == pytest.approx(roc_auc_score(codes_arr, x), abs=1e-12)
        assert pr.value == pytest.approx(average_precision_score(codes_arr, x), abs=1e-12)
    lo, hi = curve.interval()
    assert 0.0 <= lo < hi <= 1.0 and not math.isnan(lo)
    plo, phi = pr.interval()
    assert 0.0 <= plo < phi <= 1.0
    assert 0.0 <= float(curve.p_value()) <= 1.0


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from([np.int8, np.int64, np.uint8, np.uint64, bool]),
    st.lists(st.integers(min_value=-(2**62), max_value=2**62), min_size=0, max_size=30),
    st.booleans(),
)
def test_integer_labels_counted_like_the_general_path(dtype, values, narrow):
    from confusionlab.labels import distinct_labels as _distinct
    from confusionlab.scores._input import _distinct_integers

    if narrow:
        values = [v % 5 for v in values]
    info = np.iinfo(dtype) if dtype is not bool else None
    if info is not None:
        values = [min(max(v, info.min), info.max) for v in values]
    t = np.array(values, dtype=dtype)
    expected = _distinct(t)
    got = _distinct_integers(t)
    assert got == expected and [type(v) for v in got] == [type(v) for v in expected]
