"""Hostile input: every bad argument is refused with an error that names it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import confusionlab as cl
from confusionlab import InvalidParameterError, TooLargeError

Q = [0.1, 0.4, 0.6, 0.9]
Y = [0, 1, 0, 1]


@given(bad=st.one_of(st.floats(max_value=-1e-300), st.floats(min_value=1.0000001), st.just(float("inf"))))
@settings(max_examples=40, deadline=None)
def test_probabilities_outside_the_unit_interval(bad):
    with pytest.raises(InvalidParameterError, match="y_prob"):
        cl.calibration(Y, [0.1, bad, 0.6, 0.9])


@given(position=st.integers(0, 3), missing=st.sampled_from([float("nan"), None]))
@settings(max_examples=20, deadline=None)
def test_nan_or_missing_forecasts(position, missing):
    q = list(Q)
    q[position] = missing
    with pytest.raises(InvalidParameterError, match=f"y_prob .*position {position}"):
        cl.calibration(Y, q)


@given(position=st.integers(0, 3), missing=st.sampled_from([float("nan"), None]))
@settings(max_examples=20, deadline=None)
def test_missing_labels(position, missing):
    y = list(Y)
    y[position] = missing
    with pytest.raises(InvalidParameterError, match="y_true"):
        cl.calibration(y, Q)


@given(bins=st.one_of(st.integers(max_value=0), st.integers(min_value=100_001), st.floats(), st.text(max_size=3)))
@settings(max_examples=40, deadline=None)
def test_bad_bins(bins):
    with pytest.raises(InvalidParameterError, match="bins"):
        cl.calibration(Y, Q, bins=bins)


def test_one_bin_is_a_calibration():
    cal = cl.calibration(Y, Q, bins=1, n_resamples=50, n_draws=50)
    assert cal.n_bins == 1 and cal.value == pytest.approx(abs(0.5 - 0.5))
    assert cal.band().per_bin_confidence == pytest.approx(0.95)


@given(strategy=st.text(max_size=10).filter(lambda s: s.strip().lower() not in ("quantile", "uniform")))
@settings(max_examples=30, deadline=None)
def test_bad_strategy(strategy):
    with pytest.raises(InvalidParameterError, match="strategy"):
        cl.calibration(Y, Q, strategy=strategy)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"n_resamples": 0}, "n_resamples"),
        ({"n_resamples": 2.5}, "n_resamples"),
        ({"n_draws": -1}, "n_draws"),
        ({"n_draws": True}, "n_draws"),
        ({"random_state": "seed"}, "random_state"),
        ({"random_state": -3}, "random_state"),
        ({"positive": "maybe"}, "positive"),
    ],
)
def test_bad_keyword_arguments(kwargs, name):
    with pytest.raises(InvalidParameterError, match=name):
        cl.calibration(Y, Q, **kwargs)


def test_bad_shapes_and_types():
    with pytest.raises(InvalidParameterError, match="y_true and y_prob"):
        cl.calibration([0, 1], Q)
    with pytest.raises(InvalidParameterError, match="empty"):
        cl.calibration([], [])
    with pytest.raises(InvalidParameterError, match="y_prob must be one-dimensional"):
        cl.calibration(Y, np.full((4, 2), 0.5))
    with pytest.raises(InvalidParameterError, match="y_prob"):
        cl.calibration(Y, ["a", "b", "c", "d"])
    with pytest.raises(InvalidParameterError, match="y_prob"):
        cl.calibration(Y, "0.5")
    with pytest.raises(InvalidParameterError, match="y_true holds 3 distinct labels"):
        cl.calibration(["a", "b", "c", "a"], Q)
    with pytest.raises(InvalidParameterError, match="positive"):
        cl.calibration(["a", "b", "b", "a"], Q)


def test_a_billion_forecasts_are_refused_before_allocating():
    q = np.broadcast_to(np.float64(0.5), (10**9,))  # a view: no memory of its own
    y = np.broadcast_to(np.int8(1), (10**9,))
    with pytest.raises(TooLargeError, match="y_prob with 1,000,000,000 forecasts"):
        cl.calibration(y, q)


def test_too_many_monte_carlo_draws_are_refused_before_allocating():
    with pytest.raises(TooLargeError, match="n_draws"):
        cl.calibration(Y, Q, n_draws=10**12)
    cal = cl.calibration(Y, Q, n_resamples=10, n_draws=10)
    with pytest.raises(TooLargeError, match="n_draws"):
        cal.p_value(n_draws=10**12)


@given(
    labels=st.lists(
        st.one_of(st.integers(), st.text(max_size=3), st.booleans(), st.floats(allow_nan=False)),
        min_size=2,
        max_size=12,
    ),
    positive=st.one_of(st.none(), st.integers(0, 1), st.text(max_size=2)),
)
@settings(max_examples=80, deadline=None)
def test_labels_of_any_dtype_answer_or_refuse_by_name(labels, positive):
    q = np.linspace(0.05, 0.95, len(labels))
    try:
        cal = cl.calibration(labels, q, positive=positive, bins=3, n_resamples=5, n_draws=5)
    except InvalidParameterError as error:
        assert "y_true" in str(error) or "positive" in str(error)
    else:
        assert cal.counts.sum() == len(labels)
        assert 0 <= cal.value <= 1


@given(confidence=st.one_of(st.floats(max_value=0.0), st.floats(min_value=1.0), st.just(float("nan"))))
@settings(max_examples=20, deadline=None)
def test_bad_confidence(confidence):
    cal = cl.calibration(Y, Q, n_resamples=10, n_draws=10)
    for method in (cal.band, cal.interval, cal.brier_interval):
        with pytest.raises(InvalidParameterError, match="confidence"):
            method(confidence)
