"""The empirical ROC and precision–recall staircases, ties handled exactly.

The thresholds are the distinct scores in decreasing order; at threshold ``t`` an
example is called positive when its score is ≥ ``t``. A block of tied scores is one
step of the curve (a diagonal step when the block holds both classes), exactly as
scikit-learn's ``roc_curve(drop_intermediate=False)`` and ``precision_recall_curve``.
The counts are cumulated over the tie blocks from the top; at any other threshold they
are read from the sorted scores: ``p − searchsorted(positives, t, "left")`` positives
score ≥ ``t``.
"""

from __future__ import annotations

import numpy as np

from ._input import Scores

__all__ = ["counts_at", "roc_points", "staircase"]


def staircase(s: Scores) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(thresholds, tp, fp)`` at every distinct score, thresholds decreasing.

    >>> from ._input import binary_scores
    >>> t, tp, fp = staircase(binary_scores([0, 1, 1, 0, 1], [0.1, 0.9, 0.9, 0.3, 0.5]))
    >>> t.tolist(), tp.tolist(), fp.tolist()
    ([0.9, 0.5, 0.3, 0.1], [2, 3, 3, 3], [0, 0, 1, 2])
    """
    values, pos, neg = s.blocks
    return values[::-1], np.cumsum(pos[::-1]), np.cumsum(neg[::-1])


def counts_at(s: Scores, thresholds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(tp, fp)``: positives and negatives scoring ≥ each threshold."""
    tp = s.p - np.searchsorted(s.positives, thresholds, side="left")
    fp = s.n - np.searchsorted(s.negatives, thresholds, side="left")
    return tp, fp


def roc_points(s: Scores) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(fpr, tpr, thresholds)`` as scikit-learn's ``roc_curve(drop_intermediate=False)``:
    a first point (0, 0) at threshold +inf, then one point per distinct score."""
    thresholds, tp, fp = staircase(s)
    fpr = np.concatenate([[0.0], fp / s.n])
    tpr = np.concatenate([[0.0], tp / s.p])
    return fpr, tpr, np.concatenate([[np.inf], thresholds])


def pr_points(s: Scores) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(precision, recall, thresholds)`` as scikit-learn's ``precision_recall_curve``: thresholds
    increasing, a last point (precision 1, recall 0) without a threshold."""
    thresholds, tp, fp = staircase(s)
    precision = tp / (tp + fp)  # tp + fp ≥ 1 at every distinct score
    recall = tp / s.p
    return (
        np.concatenate([precision[::-1], [1.0]]),
        np.concatenate([recall[::-1], [0.0]]),
        thresholds[::-1].copy(),
    )


def average_precision(s: Scores) -> float:
    """AP = Σ_k (R_k − R_{k−1}) · P_k over the staircase (scikit-learn's ``average_precision_score``)."""
    _, tp, fp = staircase(s)
    steps = np.diff(np.concatenate([[0], tp]))
    return float(np.sum(steps * (tp / (tp + fp))) / s.p)
