"""From true labels (any dtype) and real scores to the two sorted score samples.

Every score function starts here: the labels are checked and coded as in
:meth:`ConfusionMatrix.from_predictions <confusionlab.ConfusionMatrix.from_predictions>`
(``positive`` defaults to 1/True for 0/1, False/True or −1/1 labels), the scores must be
finite reals, and the positives' and negatives' scores are sorted once. Everything
else (the staircase, DeLong's placements, the null distribution, the bootstrap) is
computed from those two sorted arrays.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import (
    InvalidParameterError,
    as_labels,
    check_memory,
    check_score_classes,
    check_scores,
)
from ..confusion import _distinct, _equals, _positive_label

__all__ = ["Scores", "binary_scores"]


@dataclass(frozen=True)
class Scores:
    """One classifier's scores split by class: ``positives`` and ``negatives`` sorted ascending."""

    positives: np.ndarray
    negatives: np.ndarray
    positive_label: Any

    @property
    def p(self) -> int:
        return int(self.positives.shape[0])

    @property
    def n(self) -> int:
        return int(self.negatives.shape[0])


def truth(y_true: Any, positive: Any) -> tuple[np.ndarray, Any]:
    """``(is_positive, positive_label)`` of the true labels (refused: missing labels, one class)."""
    t = as_labels(y_true, "y_true")
    labels = _distinct(t)
    check_score_classes(labels, positive)
    label = _positive_label(labels, positive)
    return _equals(t, label), label


def binary_scores(y_true: Any, y_score: Any, *, positive: Any = None, name: str = "y_score") -> Scores:
    """The checked, split and sorted scores of one classifier.

    >>> s = binary_scores(["a", "b", "a", "b"], [0.1, 0.7, 0.3, 0.6], positive="b")
    >>> s.positives.tolist(), s.negatives.tolist(), s.positive_label
    ([0.6, 0.7], [0.1, 0.3], 'b')
    """
    is_pos, label = truth(y_true, positive)
    scores = check_scores(y_score, name, is_pos.shape[0])
    return split_scores(is_pos, scores, label)


def split_scores(is_pos: np.ndarray, scores: np.ndarray, label: Any) -> Scores:
    """Sort each class's scores (memory checked: two copies of the scores)."""
    check_memory(16.0 * scores.shape[0], f"sorting {scores.shape[0]:,} scores", "score a sample of the rows")
    pos = np.sort(scores[is_pos])
    neg = np.sort(scores[~is_pos])
    if pos.size == 0 or neg.size == 0:  # pragma: no cover - check_score_classes refuses this first
        raise InvalidParameterError("y_true must hold positive and negative examples")
    return Scores(pos, neg, label)
