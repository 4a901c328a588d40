"""An interval at a vanishing confidence is the estimate itself (the limit as the confidence goes to 0).

Before, ``roc_curve(...).interval(1e-300)`` gave (0, 1): ½ + 1e-300/2 rounds to ½, z to 0, and the
score interval's search for its ends found no bracket and fell back to [0, 1]."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import confusionlab as cl

RNG = np.random.default_rng(0)
Y, S = RNG.integers(0, 2, 100), RNG.random(100)
BIG_Y, BIG_S = RNG.integers(0, 2, 600), RNG.random(600)


@pytest.mark.parametrize("confidence", [1e-300, 1e-20, 5e-17])
@pytest.mark.parametrize("target", ["true_value", "next_test_set"])
@pytest.mark.parametrize(
    "curve",
    [
        cl.roc_curve(Y, S),  # a class below 100: the score interval
        cl.roc_curve(BIG_Y, BIG_S),  # DeLong-logit
        cl.roc_curve(np.r_[np.ones(20, int), np.zeros(20, int)], np.r_[np.ones(20), np.zeros(20)]),  # AUC 1
        cl.precision_recall_curve(Y, S),
    ],
    ids=["score", "logit", "separated", "average-precision"],
)
def test_the_interval_at_a_vanishing_confidence_is_the_point(curve, confidence, target):
    assert curve.interval(confidence, target=target) == (curve.value, curve.value)


@pytest.mark.parametrize("method", ["logit", "score"])
def test_each_method_gives_the_point(method):
    curve = cl.roc_curve(BIG_Y, BIG_S)
    assert curve.interval(1e-300, method=method) == (curve.value, curve.value)


def test_the_ends_approach_the_point_continuously():
    curve = cl.roc_curve(Y, S)
    widths = [np.subtract(*curve.interval(c)[::-1]) for c in (0.5, 1e-3, 1e-6, 1e-9)]
    assert all(b < a for a, b in itertools.pairwise(widths)) and widths[-1] < 1e-8
