"""Bad input gets a clear error naming the argument."""

from __future__ import annotations

import numpy as np
import pytest

import confusionlab as cl

CM = cl.ConfusionMatrix(tp=16, fn=4, fp=8, tn=32)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"tp": -1, "fn": 4, "fp": 8, "tn": 32}, ValueError, "tp must be a non-negative count"),
        ({"tp": 16, "fn": 4.5, "fp": 8, "tn": 32}, ValueError, "fn must be an integer count, got the non-integer 4.5"),
        ({"tp": 16, "fn": 4, "fp": float("nan"), "tn": 32}, ValueError, "fp must be an integer count, got NaN"),
        ({"tp": 16, "fn": 4, "fp": 8, "tn": float("inf")}, ValueError, "tn must be an integer count"),
        ({"tp": True, "fn": 4, "fp": 8, "tn": 32}, TypeError, "tp must be an integer count, got the boolean"),
        ({"tp": "16", "fn": 4, "fp": 8, "tn": 32}, TypeError, "tp must be an integer count, got str"),
        ({"tp": 10**17, "fn": 4, "fp": 8, "tn": 32}, ValueError, "tp=.* is absurdly large"),
        ({"tp": 0, "fn": 0, "fp": 0, "tn": 0}, ValueError, "at least one example"),
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
        (lambda: cl.metric_distribution(CM, "accuracyy"), ValueError, "unknown metric 'accuracyy'"),
        (lambda: cl.metric_distribution(CM, 3), TypeError, "metric must be"),
        (lambda: cl.metric_distribution(CM, "mcc", "poisson"), ValueError, "unknown model 'poisson'"),
        (lambda: cl.metric_distribution(CM, "mcc", prior="flat"), ValueError, "unknown prior 'flat'"),
        (lambda: cl.metric_distribution(CM, "mcc", prior=-1), ValueError, "prior must be a finite positive"),
        (lambda: cl.metric_distribution(CM, "mcc", tolerance=2), ValueError, "tolerance must lie in"),
        (lambda: cl.metric_distribution(CM, "mcc", tolerance=float("nan")), ValueError, "tolerance"),
        (lambda: cl.metric_distribution(CM, "mcc", undefined="drop"), ValueError, "undefined must be"),
        (lambda: cl.metric_distribution(CM, "mcc", future_size=100), TypeError, "future_size"),
        (lambda: cl.metric_distribution(CM, "mcc", future_size=(-1, 5)), ValueError, "future_size\\[0\\]"),
        (
            lambda: cl.metric_distribution(CM, "mcc", "dirichlet-multinomial", future_size=(5, 5)),
            TypeError,
            "future_size",
        ),
        (lambda: cl.metric_distribution((16, 4, 8, 32), "mcc"), TypeError, "cm must be a ConfusionMatrix"),
        (
            lambda: cl.metric_distribution(
                cl.ConfusionMatrix(tp=0, fn=0, fp=8, tn=32), "mcc", "binomial", future_size=(5, 40)
            ),
            ValueError,
            "binomial model needs observed positives",
        ),
        (
            lambda: cl.metric_distribution(CM, "mcc", future_size=(10**5, 10**5), tolerance=0),
            ValueError,
            "lattice of 100,001 × 100,001 .* would need about .*; raise tolerance \\(now 0; try 1e-12\\)",
        ),
        (lambda: cl.metric_distribution(CM, "mcc", "dirichlet-multinomial", future_size=1000), ValueError, "N <= 492"),
        (lambda: cl.metric_value(CM, "nope"), ValueError, "unknown metric"),
        (lambda: CM.scaled(-2), ValueError, "factor must be a non-negative"),
        (lambda: cl.simplex_points(-1), ValueError, "N must be a non-negative"),
    ],
)
def test_bad_arguments_raise_clear_errors(call, error, match) -> None:
    with pytest.raises(error, match=match):
        call()


def test_distribution_methods_validate_their_arguments() -> None:
    d = cl.metric_distribution(CM, "accuracy")
    with pytest.raises(ValueError, match="confidence must lie strictly between 0 and 1"):
        d.interval(1.5)
    with pytest.raises(ValueError, match="q must lie in"):
        d.ppf(-0.1)
    other = cl.metric_distribution(CM, "mcc")
    with pytest.raises(ValueError, match="a and b must be distributions of the same metric"):
        cl.compare(d, other)


def test_registry_is_a_mapping_with_aliases() -> None:
    assert "mcc" in cl.METRICS and "tpr" in cl.METRICS and "f2" in cl.METRICS
    assert "nope" not in cl.METRICS and 3 not in cl.METRICS
    assert cl.METRICS["tpr"] is cl.METRICS["recall"]
    with pytest.raises(KeyError, match="unknown metric 'nope'"):
        cl.METRICS["nope"]
    assert len(cl.METRICS) == len(list(cl.METRICS)) == 20
