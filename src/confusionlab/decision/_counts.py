"""Each model's true and false positives at every threshold probability, with dcurves' boundary rule.

A risk is called positive at threshold ``t`` when it is ≥ ``t`` (scikit-learn's and dcurves'
rule), except that a risk of exactly 0 lies below every threshold and a risk of exactly 1 above
every one (dcurves moves them to 0 − ε and 1 + ε). Thresholds lie in [0, 1), so only ``t = 0``
differs from the plain rule: a risk of 0 is not positive there.

The counts come from each class's sorted risks (or from the tie blocks of a count table) with
one ``searchsorted`` over the thresholds, never a pass over the examples per threshold.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Counts", "counts_from_blocks", "counts_from_sorted"]


@dataclass(frozen=True)
class Counts:
    """One model's counts at each threshold: ``tp``, ``fp`` (int64 arrays), and the class sizes ``p``, ``n``."""

    tp: np.ndarray
    fp: np.ndarray
    p: int
    n: int

    @property
    def fn(self) -> np.ndarray:
        return self.p - self.tp

    @property
    def tn(self) -> np.ndarray:
        return self.n - self.fp


def _below(sorted_values: np.ndarray, thresholds: np.ndarray) -> np.ndarray:
    """How many of ``sorted_values`` are not positive at each threshold (< t; at t = 0, the zeros too)."""
    below = np.searchsorted(sorted_values, thresholds, side="left")
    zero = thresholds == 0.0
    if zero.any():
        below[zero] = np.searchsorted(sorted_values, 0.0, side="right")
    return below


def counts_from_sorted(positives: np.ndarray, negatives: np.ndarray, thresholds: np.ndarray) -> Counts:
    """The counts from each class's risks sorted ascending.

    >>> c = counts_from_sorted(np.array([0.0, 0.3, 1.0]), np.array([0.0, 0.2]), np.array([0.0, 0.25, 0.5]))
    >>> c.tp.tolist(), c.fp.tolist()
    ([2, 2, 1], [1, 0, 0])
    """
    p, n = int(positives.shape[0]), int(negatives.shape[0])
    tp = p - _below(positives, thresholds)
    fp = n - _below(negatives, thresholds)
    return Counts(tp.astype(np.int64), fp.astype(np.int64), p, n)


def counts_from_blocks(values: np.ndarray, pos: np.ndarray, neg: np.ndarray, thresholds: np.ndarray) -> Counts:
    """The counts from tie blocks: ``values`` increasing, ``pos``/``neg`` examples of each class at each.

    >>> c = counts_from_blocks(np.array([0.0, 0.2, 0.3, 1.0]), np.array([1, 0, 1, 1]), np.array([1, 1, 0, 0]),
    ...                        np.array([0.0, 0.25, 0.5]))
    >>> c.tp.tolist(), c.fp.tolist()
    ([2, 2, 1], [1, 0, 0])
    """
    pos_below = np.concatenate([[0], np.cumsum(pos, dtype=np.int64)])
    neg_below = np.concatenate([[0], np.cumsum(neg, dtype=np.int64)])
    k = _below(values, thresholds)
    p, n = int(pos_below[-1]), int(neg_below[-1])
    return Counts(p - pos_below[k], n - neg_below[k], p, n)
