"""Hostile input to choose_threshold and its results: each refused with an InvalidParameterError naming the
argument (or a TooLargeError before allocating), user names drawn and written as given."""

from __future__ import annotations

import html
import io

import matplotlib
import numpy as np
import pandas as pd
import pytest

import confusionlab as cl

matplotlib.use("Agg")

Y = np.array([0, 1] * 20)
S = np.linspace(0.0, 1.0, 40) + 0.3 * Y


def choose(**kw):
    args = {"y_true": Y, "y_score": S, "cost": (1, 2), **kw}
    return cl.choose_threshold(args.pop("y_true"), args.pop("y_score"), **args)


@pytest.mark.parametrize(
    "score",
    [
        np.r_[S[:-1], np.nan],
        np.r_[S[:-1], np.inf],
        pd.array([*S[:-1], None], dtype="Float64"),
        np.array([*S[:-1], None], dtype=object),
        np.array(["a"] * 40),
        S[:-1],
        S.reshape(20, 2),
        None,
    ],
    ids=["nan", "inf", "Float64-NA", "object-None", "text", "short", "2-D", "None"],
)
def test_bad_scores_are_refused_by_name(score):
    with pytest.raises(cl.InvalidParameterError, match="y_score"):
        choose(y_score=score)


@pytest.mark.parametrize(
    "labels, match",
    [
        (np.r_[Y[:-1].astype(float), np.nan], "y_true"),
        (np.zeros(40, int), "one class"),
        (np.array(["a", "b", "c", "d"] * 10), "positive"),
        (np.array(["x", "y"] * 20), "positive"),
    ],
    ids=["nan", "one-class", "four-labels", "no-default-positive"],
)
def test_bad_labels_are_refused(labels, match):
    with pytest.raises(cl.InvalidParameterError, match=match):
        choose(y_true=labels)


@pytest.mark.parametrize(
    "cost",
    [(-1, 2), (1, float("nan")), (float("inf"), 1), (0, 0), (True, 1), ("1", 2), (1, 2, 3), 5, "cost", {"fp": 1}],
)
def test_bad_costs_are_refused_by_name(cost):
    with pytest.raises(cl.InvalidParameterError, match="cost"):
        choose(cost=cost)


def test_cost_and_maximize_together_or_neither_are_refused():
    with pytest.raises(cl.InvalidParameterError, match="not both"):
        choose(maximize="f1")
    with pytest.raises(cl.InvalidParameterError, match="maximize"):
        cl.choose_threshold(Y, S)


@pytest.mark.parametrize("metric", ["no_such_metric", "mcc", "cohen_kappa", "markedness", 3])
def test_unknown_or_non_monotone_metrics_are_refused_by_name(metric):
    with pytest.raises(cl.InvalidParameterError, match="maximize"):
        cl.choose_threshold(Y, S, maximize=metric)


@pytest.mark.parametrize(
    "subject_to",
    [
        {"precision": 1.5},
        {"precision": -0.1},
        {"precision": float("nan")},
        {"precision": "0.9"},
        {"f1": 0.5},
        {"no_such": 0.5},
        {"precision": 0.5, "ppv": 0.6},
        [("precision", 0.5)],
        {},
    ],
)
def test_bad_constraints_are_refused_by_name(subject_to):
    with pytest.raises(cl.InvalidParameterError, match="subject_to"):
        choose(subject_to=subject_to)


def test_a_constraint_no_threshold_meets_is_refused_saying_so():
    y = np.array([0, 1, 0, 1, 0, 1])
    s = np.array([0.9, 0.1, 0.8, 0.2, 0.7, 0.3])  # every positive below every negative
    with pytest.raises(cl.InvalidParameterError, match=r"subject_to: no threshold meets precision ≥ 0\.9"):
        cl.choose_threshold(y, s, maximize="recall", subject_to={"precision": 0.9})


@pytest.mark.parametrize(
    ("name", "value"), [("confidence", 1.0), ("confidence", "x"), ("prior", -1), ("prior", "flat")]
)
def test_bad_level_or_prior_is_refused_by_name(name, value):
    with pytest.raises(cl.InvalidParameterError, match=name):
        choose(**{name: value})


def test_bad_kind_and_confidence_of_the_interval_are_refused():
    choice = choose()
    with pytest.raises(cl.InvalidParameterError, match="kind"):
        choice.interval(kind="bootstrap")
    with pytest.raises(cl.InvalidParameterError, match="confidence"):
        choice.interval(0.0)
    with pytest.raises(cl.InvalidParameterError, match="confidence"):
        choice.band(2)
    for bad in (float("nan"), "0.5", None):
        with pytest.raises(cl.InvalidParameterError, match="threshold"):
            choice.is_plausible(bad)
    assert choice.is_plausible(float("inf")) in (True, False)


def test_groups_with_one_class_in_a_group_or_one_group_are_refused():
    g = np.array(["a"] * 38 + ["b", "b"])
    y = Y.copy()
    y[-2:] = 1
    with pytest.raises(cl.InvalidParameterError, match="no negative example in group 'b'"):
        choose(y_true=y, groups=g)
    with pytest.raises(cl.InvalidParameterError, match="one group"):
        choose(groups=np.array(["a"] * 40))
    with pytest.raises(cl.InvalidParameterError, match="groups"):
        choose(groups=["a", "b"])


def test_a_huge_view_is_refused_before_allocating():
    with pytest.raises(cl.TooLargeError, match="scores"):
        cl.choose_threshold(np.broadcast_to(1, 10**10), np.broadcast_to(0.5, 10**10), cost=(1, 1))


HOSTILE = ["<script>alert(1)</script>", "$x^$", "income $50K-$75K", "../../etc/passwd"]


def test_hostile_group_names_are_escaped_in_the_page_and_drawn_as_written():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 400)
    s = rng.normal(size=400) + y
    g = np.array(HOSTILE)[rng.integers(0, 4, 400)]
    grouped = cl.choose_threshold(y, s, maximize="f1", groups=g)
    page = grouped.to_html()
    assert "<script>alert" not in page and html.escape("<script>alert(1)</script>") in page
    fig = grouped.plot()
    fig.savefig(io.BytesIO(), format="png")  # mathtext would fail here
    legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert sorted(legend) == sorted(HOSTILE)
    member = grouped["$x^$"]
    fig = member.plot(label="$x^$")
    fig.savefig(io.BytesIO(), format="png")
    assert "$x^$: " in fig.axes[0].get_title()


def test_a_hostile_positive_label_reaches_the_page_escaped():
    y = np.where(Y == 1, "<b>sick</b>", "well")
    choice = choose(y_true=y, positive="<b>sick</b>")
    assert choice.positive == "<b>sick</b>"
    assert "<b>sick</b>" not in choice.to_html()
