"""Evaluation.to_frame() says which question its intervals answer: a ``target`` column, appended,
that follows ``evaluate(target=...)``, and each row's interval is that question's."""

from __future__ import annotations

import numpy as np
import pytest

import confusionlab as cl
from confusionlab.evaluation import evaluate

RNG = np.random.default_rng(5)
Y = RNG.integers(0, 2, 150)
PRED = np.where(RNG.random(150) < 0.8, Y, 1 - Y)
GROUPS = np.where(RNG.random(150) < 0.5, "F", "M")


@pytest.mark.parametrize("target", ["next_test_set", "true_value"])
def test_the_frame_names_the_question_of_its_intervals(target) -> None:
    ev = evaluate(Y, PRED, groups=GROUPS, metrics=["recall"], target=target)
    frame = ev.to_frame()
    assert list(frame.columns)[-1] == "target" and set(frame["target"]) == {target}
    whole = frame[frame["group"] == "all"].iloc[0]  # the whole test set
    cm = cl.ConfusionMatrix.from_predictions(Y, PRED)
    reference = cl.metric_distribution(cm, "recall", target=target).interval(0.95)
    assert (whole["lower"], whole["upper"]) == pytest.approx(reference, abs=1e-12)
