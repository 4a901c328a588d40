"""Bad input gets a clear error naming the argument: confusionlab.InvalidParameterError
(a ValueError and a TypeError), except a request too large for memory (TooLargeError)."""

from __future__ import annotations

import numpy as np
import pytest

import confusionlab as cl
from confusionlab.contours import mcc_eccentricity
from confusionlab.export import to_html
from confusionlab.models import simplex_model, slice_model

BAD = cl.InvalidParameterError

CM = cl.ConfusionMatrix(tp=16, fn=4, fp=8, tn=32)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"tp": -1, "fn": 4, "fp": 8, "tn": 32}, BAD, "tp must be a non-negative count"),
        ({"tp": 16, "fn": 4.5, "fp": 8, "tn": 32}, BAD, "fn must be an integer count, got the non-integer 4.5"),
        ({"tp": 16, "fn": 4, "fp": float("nan"), "tn": 32}, BAD, "fp must be an integer count, got NaN"),
        ({"tp": 16, "fn": 4, "fp": 8, "tn": float("inf")}, BAD, "tn must be an integer count"),
        ({"tp": True, "fn": 4, "fp": 8, "tn": 32}, BAD, "tp must be an integer count, got the boolean"),
        ({"tp": "16", "fn": 4, "fp": 8, "tn": 32}, BAD, "tp must be an integer count, got str"),
        ({"tp": 10**17, "fn": 4, "fp": 8, "tn": 32}, BAD, "tp=.* is absurdly large"),
        ({"tp": 0, "fn": 0, "fp": 0, "tn": 0}, BAD, "at least one example"),
    ],
)
def test_confusion_matrix_rejects_bad_counts(kwargs, error, match) -> None:
    with pytest.raises(error, match=match):
        cl.ConfusionMatrix(**kwargs)


def test_integral_floats_and_numpy_integers_are_accepted() -> None:
    cm = cl.ConfusionMatrix(tp=np.int32(16), fn=4.0, fp=np.int64(8), tn=32)
    assert cm.as_tuple() == (16, 4, 8, 32) and all(type(c) is int for c in cm.as_tuple())


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: cl.metric_distribution(CM, "accuracyy"), BAD, "unknown metric 'accuracyy'"),
        (lambda: cl.metric_distribution(CM, 3), BAD, "metric must be"),
        (lambda: cl.metric_distribution(CM, "mcc", "poisson"), BAD, "unknown model 'poisson'"),
        (lambda: cl.metric_distribution(CM, "mcc", prior="flat"), BAD, "unknown prior 'flat'"),
        (lambda: cl.metric_distribution(CM, "mcc", prior=-1), BAD, "prior must be a finite positive"),
        (lambda: cl.metric_distribution(CM, "mcc", tolerance=2), BAD, "tolerance must lie in"),
        (lambda: cl.metric_distribution(CM, "mcc", tolerance=float("nan")), BAD, "tolerance"),
        (lambda: cl.metric_distribution(CM, "mcc", undefined="drop"), BAD, "undefined must be"),
        (lambda: cl.metric_distribution(CM, "mcc", future_size="100"), BAD, "future_size"),
        (lambda: cl.metric_distribution(CM, "mcc", future_size=(5, 5, 5)), BAD, "future_size"),
        (lambda: cl.metric_distribution(CM, "mcc", future_size=(-1, 5)), BAD, "future_size\\[0\\]"),
        (
            lambda: cl.metric_distribution(CM, "mcc", "dirichlet-multinomial", future_size=(5, 5)),
            BAD,
            "future_size=10 \\(N = p \\+ n\\)",
        ),
        (lambda: cl.metric_distribution((16, 4, 8, 32), "mcc"), BAD, "cm must be a ConfusionMatrix"),
        (
            lambda: cl.metric_distribution(
                cl.ConfusionMatrix(tp=0, fn=0, fp=8, tn=32), "mcc", "binomial", future_size=(5, 40)
            ),
            BAD,
            "binomial model needs observed positives",
        ),
        (
            lambda: cl.metric_distribution(CM, "mcc", future_size=(10**5, 10**5), tolerance=0),
            cl.TooLargeError,
            "lattice of 100,001 × 100,001 .* would need about .*; raise tolerance \\(now 0; try 1e-12\\)",
        ),
        (lambda: cl.metric_distribution(CM, "mcc", "dirichlet-multinomial", future_size=1000), BAD, "N <= 491"),
        (lambda: cl.metric_value(CM, "nope"), BAD, "unknown metric"),
        (lambda: CM.scaled(-2), BAD, "factor must be a non-negative"),
        (lambda: cl.simplex_points(-1), BAD, "N must be a non-negative"),
        (lambda: simplex_model(CM, tolerance=5), BAD, "tolerance must lie in"),
        (lambda: simplex_model(CM, tolerance=-1e-9), BAD, "tolerance"),
        (lambda: simplex_model(CM, tolerance="1e-9"), BAD, "tolerance"),
        (lambda: simplex_model(CM, future_size=(3, 3)), BAD, "future_size=6"),
        (lambda: simplex_model((16, 4, 8, 32)), BAD, "cm must be a ConfusionMatrix"),
        (lambda: slice_model(CM, tolerance=5), BAD, "tolerance must lie in"),
        (lambda: slice_model(CM, "dirichlet-multinomial"), BAD, "unknown model"),
        (lambda: slice_model([16, 4, 8, 32]), BAD, "cm must be a ConfusionMatrix"),
        (lambda: cl.metric_distribution(CM, "mcc", "binomial", target="true_value"), BAD, "model='binomial'"),
        (lambda: cl.metric_distribution(CM, "mcc", target="true_value", future_size=90), BAD, "future_size=90"),
        (lambda: cl.metric_distribution(CM, "mcc", target="next"), BAD, "unknown target"),
        (lambda: cl.metric_distribution(CM, "mcc", prior=1e301), BAD, "prior must be at most"),
        (lambda: cl.metric_value(CM, None), BAD, "metric must be a metric name"),
        (lambda: cl.metric_value((16, 4, 8, 32), "mcc"), BAD, "cm must be a ConfusionMatrix"),
        (lambda: cl.METRICS["mcc"].exact(np.array([1.5]), 1, 1, 1), BAD, "integer counts"),
        (lambda: cl.ConfusionMatrix.from_sklearn([[1, 2, 3]]), BAD, "2 × 2"),
        (lambda: cl.ConfusionMatrix.from_rates(20, 40, 0.33, 0.5), BAD, "whole counts"),
        (lambda: cl.ConfusionMatrix(tp=1, fn=2, fp=3), BAD, "missing the count"),
        (lambda: cl.contour("mcc", 0.5, 0, 40), BAD, "p > 0 and n > 0"),
        (lambda: cl.contour("mcc", "0.5", 20, 40), BAD, "level"),
        (lambda: cl.contour("mcc", 0.5, 20, 40, window=(0, 1, 1, 0)), BAD, "window"),
        (lambda: cl.contour("mcc", 0.5, 20, 40, window="square"), BAD, "window must be four numbers"),
        (lambda: mcc_eccentricity(0.0, 0.5), BAD, "level must satisfy 0 < \\|level\\| <= 1"),
        (lambda: mcc_eccentricity(0.5, 1.0), BAD, "prevalence must lie strictly between 0 and 1"),
        (lambda: to_html("notes.txt", "build"), BAD, "notebook must be an existing .ipynb file"),
        (lambda: to_html(3, "build"), BAD, "notebook must be a path"),
    ],
)
def test_bad_arguments_raise_clear_errors(call, error, match) -> None:
    with pytest.raises(error, match=match):
        call()


def test_distribution_methods_validate_their_arguments() -> None:
    d = cl.metric_distribution(CM, "accuracy")
    with pytest.raises(BAD, match="confidence must lie strictly between 0 and 1"):
        d.interval(1.5)
    with pytest.raises(BAD, match="q must lie in"):
        d.ppf(-0.1)
    with pytest.raises(BAD, match="q must lie in"):
        d.ppf([0.5, float("nan")])
    with pytest.raises(BAD, match="q must be numbers"):
        d.ppf("half")
    other = cl.metric_distribution(CM, "mcc")
    with pytest.raises(BAD, match="a and b must be distributions of the same metric"):
        cl.compare(d, other)
    with pytest.raises(BAD, match="b must be a MetricDistribution"):
        cl.compare(d, [0.5, 0.6])


def test_registry_is_a_mapping_with_aliases() -> None:
    assert "mcc" in cl.METRICS and "tpr" in cl.METRICS and "f2" in cl.METRICS
    assert "nope" not in cl.METRICS and 3 not in cl.METRICS
    assert cl.METRICS["tpr"] is cl.METRICS["recall"]
    with pytest.raises(KeyError, match="unknown metric 'nope'"):
        cl.METRICS["nope"]
    assert len(cl.METRICS) == len(list(cl.METRICS)) == 20


def test_errors_stay_value_and_type_errors() -> None:
    """Code written against ValueError or TypeError keeps catching the one error type."""
    for error in (ValueError, TypeError):
        with pytest.raises(error):
            cl.metric_distribution(CM, "mcc", tolerance=5)
        with pytest.raises(error):
            cl.ConfusionMatrix(16, 4, 8, 32)


def test_simplex_model_refuses_a_tolerance_it_used_to_ignore() -> None:
    """tolerance=5 once pruned every point and returned an empty model without a word."""
    with pytest.raises(BAD, match=r"tolerance must lie in \[0, 0.01\].*got 5"):
        simplex_model(CM, tolerance=5)
    with pytest.raises(BAD, match="tolerance"):
        cl.metric_distribution(CM, "mcc", "dirichlet-multinomial", tolerance=0.5)
    kept = simplex_model(cl.ConfusionMatrix(tp=2, fn=1, fp=1, tn=2), tolerance=0.01)
    assert len(kept.pmf) > 0 and kept.pruned_mass <= 0.01
