"""From true labels (any dtype) and real scores to the two sorted score samples.

Every score function starts here: the labels are checked and coded as in
:meth:`ConfusionMatrix.from_predictions <confusionlab.ConfusionMatrix.from_predictions>`
(``positive`` defaults to 1/True for 0/1, False/True or −1/1 labels), the scores must be
finite reals, and the positives' and negatives' scores are sorted once. Everything
else (the staircase, DeLong's placements, the null distribution, the bootstrap) is
computed from those two sorted arrays.
"""

from __future__ import annotations

from functools import cached_property
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

__all__ = ["Scores", "binary_scores", "tie_blocks"]


class Scores:
    """One classifier's scores split by class: ``positives`` and ``negatives`` sorted ascending."""

    def __init__(self, positives: np.ndarray, negatives: np.ndarray, positive_label: Any) -> None:
        self.positives = positives + 0.0  # −0.0 becomes +0.0: equal scores have equal bits
        self.negatives = negatives + 0.0
        self.positive_label = positive_label

    @property
    def p(self) -> int:
        return int(self.positives.shape[0])

    @property
    def n(self) -> int:
        return int(self.negatives.shape[0])

    @cached_property
    def blocks(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(values, positives, negatives)`` of the tie blocks, values increasing: every distinct
        score and how many examples of each class have it (see :func:`tie_blocks`)."""
        return tie_blocks(self.positives, self.negatives)


def _order_keys(x: np.ndarray) -> np.ndarray:
    """int64 keys with the order of the doubles ``x`` (no −0.0, no NaN): the sign-magnitude bits
    turned into two's complement."""
    bits = x.view(np.int64)
    return bits ^ ((bits >> 63) & np.int64(0x7FFFFFFFFFFFFFFF))


def tie_blocks(positives: np.ndarray, negatives: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The tie blocks of two sorted score arrays, without a binary search per score.

    Each class's order keys get the class in their lowest bit (1 for positives) and the two
    sorted runs are merged (a stable sort of two runs is a merge); the class of every merged
    score is then its lowest bit, and a block is a run of equal keys once that bit is dropped.
    Dropping the bit merges two doubles one unit in the last place apart: the exact merge of
    the doubles counts the distinct scores, and if the two counts differ (such neighbours exist)
    the blocks are counted by binary search instead. Either way the blocks are exact.

    >>> v, p, n = tie_blocks(np.array([0.5, 0.9, 0.9]), np.array([0.1, 0.5]))
    >>> v.tolist(), p.tolist(), n.tolist()
    ([0.1, 0.5, 0.9], [0, 1, 2], [1, 1, 0])
    """
    merged = np.concatenate([positives, negatives])
    merged.sort(kind="stable")
    starts = np.flatnonzero(np.concatenate([[True], merged[1:] != merged[:-1]]))
    values = merged[starts]
    keys = np.concatenate([_order_keys(positives) | 1, _order_keys(negatives) & ~np.int64(1)])
    keys.sort(kind="stable")
    coarse = keys >> 1
    key_starts = np.flatnonzero(np.concatenate([[True], coarse[1:] != coarse[:-1]]))
    if key_starts.shape[0] == starts.shape[0]:
        pos = np.add.reduceat(keys & 1, key_starts)
    else:  # neighbours one ulp apart: count by binary search
        pos = np.searchsorted(positives, values, "right") - np.searchsorted(positives, values, "left")
    sizes = np.diff(np.append(starts, merged.shape[0]))
    return values, pos.astype(np.int64), (sizes - pos).astype(np.int64)


def truth(y_true: Any, positive: Any) -> tuple[np.ndarray, Any]:
    """``(is_positive, positive_label)`` of the true labels (refused: missing labels, one class)."""
    t = as_labels(y_true, "y_true")
    labels = _distinct_integers(t) if t.dtype.kind in "biu" else _distinct(t)
    check_score_classes(labels, positive)
    label = _positive_label(labels, positive)
    return _equals(t, label), label


def _distinct_integers(t: np.ndarray) -> list[Any]:
    """The sorted distinct labels of integer or boolean labels as ``_distinct`` gives them (Python
    ints or bools), by counting when their range is small (no hash table or sort: 10⁷ 0/1 labels
    in ≈ 20 ms instead of ≈ 160 ms).

    >>> _distinct_integers(np.array([3, 1, 3, 2])), _distinct_integers(np.array([True, True]))
    ([1, 2, 3], [True])
    """
    if t.size == 0:
        return []
    if t.dtype.kind == "b":
        return [v for v, present in ((False, not t.all()), (True, bool(t.any()))) if present]
    lo, hi = int(t.min()), int(t.max())
    if hi - lo >= 1 << 16:
        return _distinct(t)
    # offsets from the smallest label, in a type that cannot overflow (t ≥ lo, range < 2^16)
    offsets = t - t.dtype.type(lo) if t.dtype.kind == "u" else t.astype(np.int64) - lo
    counts = np.bincount(offsets.astype(np.intp, copy=False), minlength=hi - lo + 1)
    return (np.flatnonzero(counts) + lo).tolist()


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
