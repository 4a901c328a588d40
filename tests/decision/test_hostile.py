"""Hostile input to decision_curve and cost_curve: each refused by name (InvalidParameterError), sizes
refused before anything is allocated (TooLargeError), names from the data escaped in pages."""

from __future__ import annotations

import html

import numpy as np
import pandas as pd
import pytest

import confusionlab as cl

Y = np.array([0, 1] * 20)
R = np.linspace(0.05, 0.95, 40)


@pytest.mark.parametrize(
    "risk",
    [
        np.r_[R[:-1], np.nan],
        pd.array([*R[:-1], None], dtype="Float64"),
        np.array([*R[:-1], None], dtype=object),
    ],
    ids=["nan", "nullable-Float64", "object-None"],
)
def test_missing_risks_are_refused(risk):
    with pytest.raises(cl.InvalidParameterError, match=r"y_score.*(NaN|missing)"):
        cl.decision_curve(Y, risk)


@pytest.mark.parametrize("bad", [1.5, -0.1, np.inf])
def test_risks_outside_the_unit_interval_are_refused_by_model(bad):
    risk = R.copy()
    risk[3] = bad
    with pytest.raises(cl.InvalidParameterError, match=r"y_score\['marker'\].*risks.*position 3"):
        cl.decision_curve(Y, {"ok": R, "marker": risk})


def test_text_risks_are_refused():
    with pytest.raises(cl.InvalidParameterError, match="y_score"):
        cl.decision_curve(Y, np.array(["0.1"] * 40))


def test_one_class_is_refused():
    with pytest.raises(cl.InvalidParameterError, match="y_true"):
        cl.decision_curve(np.ones(40, int), R)


def test_a_group_with_one_class_is_refused():
    groups = np.array(["big"] * 40, dtype=object)
    groups[[1, 3]] = "tiny"  # two positives only
    with pytest.raises(cl.InvalidParameterError, match=r"groups.*'tiny'"):
        cl.decision_curve(Y, R, groups=groups)


@pytest.mark.parametrize(
    ("thresholds", "match"),
    [
        ([0.1, 1.0], r"\[0, 1\)"),
        ([-0.1, 0.2], r"\[0, 1\)"),
        ([0.2, 0.1], "increasing"),
        ([np.nan], r"\[0, 1\)"),
        ("0.1", "numbers"),
        ([], "1 to"),
    ],
)
def test_bad_thresholds_are_refused(thresholds, match):
    with pytest.raises(cl.InvalidParameterError, match=f"thresholds.*{match}|{match}"):
        cl.decision_curve(Y, R, thresholds=thresholds)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"harm": np.nan}, "harm"),
        ({"harm": "x"}, "harm"),
        ({"harm": {"other": 0.1}}, "harm"),
        ({"prevalence": 0.0}, "prevalence"),
        ({"prevalence": 1.0}, "prevalence"),
        ({"prevalence": np.nan}, "prevalence"),
        ({"prior": -1.0}, "prior"),
        ({"confidence": 1.5}, "confidence"),
        ({"positive": "no-such-class"}, "positive"),
    ],
)
def test_bad_arguments_are_refused_by_name(kwargs, name):
    with pytest.raises(cl.InvalidParameterError, match=name):
        cl.decision_curve(Y, R, **kwargs)


def test_a_model_named_like_a_reference_strategy_is_refused():
    with pytest.raises(cl.InvalidParameterError, match="'all'"):
        cl.decision_curve(Y, {"all": R})


def test_result_methods_refuse_bad_levels_and_targets():
    dc = cl.decision_curve(Y, R, thresholds=[0.2, 0.5])
    for call in (lambda: dc.band(1.5), lambda: dc.interval(0.0), lambda: dc.interval_arrays(confidence=2)):
        with pytest.raises(cl.InvalidParameterError, match="confidence"):
            call()
    with pytest.raises(cl.InvalidParameterError, match="target"):
        dc.interval(target="tomorrow")


def test_huge_input_is_refused_before_allocating():
    with pytest.raises(cl.TooLargeError, match="risks"):
        cl.decision_curve(np.broadcast_to(1, 10**10), np.broadcast_to(0.5, 10**10))


@pytest.mark.parametrize("door", ["arrays", "data"])
def test_more_points_than_quadrature_answers_in_seconds_are_refused_by_thresholds(door):
    """Each threshold × model point costs milliseconds of quadrature (P(best), EVPI, intervals): 2,501
    thresholds × 2 models (5,002 points) are refused before counting, 2,500 × 2 are not. Found by the
    capped-child hypothesis test (tests/contract/test_hostile_decision_curve.py): 100,000 thresholds were
    accepted, and one model's EVPI then took about 9 minutes."""
    fine, too_many = np.linspace(0.0, 0.99, 2_500), np.linspace(0.0, 0.99, 2_501)
    if door == "arrays":
        make = lambda t: cl.decision_curve(Y, {"a": R, "b": R}, thresholds=t)  # noqa: E731
    else:
        df = pd.DataFrame({"y": Y, "a": R, "b": R})
        make = lambda t: cl.decision_curve("y", {"a": "a", "b": "b"}, data=df, thresholds=t)  # noqa: E731
    assert make(fine).thresholds.size == 2_500
    with pytest.raises(cl.InvalidParameterError, match=r"^thresholds: 2,501 thresholds × 2 model\(s\) = 5,002"):
        make(too_many)


def test_names_from_the_data_are_escaped_in_the_page():
    name = "<script>alert(1)</script>"
    page = cl.decision_curve(Y, {name: R}, thresholds=[0.2, 0.5]).to_html()
    assert name not in page and html.escape(name) in page


def test_data_with_a_text_risk_column_is_refused_by_name():
    df = pd.DataFrame({"y": Y, "r": ["a"] * 40})
    with pytest.raises(cl.InvalidParameterError, match="y_score"):
        cl.decision_curve("y", "r", data=df)


def test_data_with_missing_risks_is_refused_by_column():
    df = pd.DataFrame({"y": Y, "r": np.r_[R[:-1], np.nan]})
    with pytest.raises(cl.InvalidParameterError, match="y_score: column 'r'"):
        cl.decision_curve("y", "r", data=df)


def test_cost_curve_refuses_nan_scores():
    with pytest.raises(cl.InvalidParameterError, match="y_score"):
        cl.cost_curve(Y, np.r_[R[:-1], np.nan])
