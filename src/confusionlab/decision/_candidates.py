"""The candidate thresholds of a choice and their confusion counts: every distinct score, and "none positive".

A threshold ``t`` makes an example positive when its score ``s ≥ t`` (scikit-learn's and dcurves'
rule). Every threshold between two neighbouring distinct scores, ``u_{k−1} < t ≤ u_k``, classifies
the test set alike, so the distinct scores ``u_1 < … < u_m`` are the candidates, with ``+∞`` (no
example positive) after them: candidate ``u_k`` stands for the thresholds in ``(u_{k−1}, u_k]``
(``u_0 = −∞``: ``u_1`` makes every example positive) and ``+∞`` for those above ``u_m``. The counts
come from the tie blocks (each distinct score with its positives and negatives), which is all a
count table (``data=``) holds too.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validation import check_memory
from ..confusion import ConfusionMatrix
from ._counts import Counts

__all__ = ["Candidates", "candidates_from_blocks", "tie_blocks"]

#: Peak bytes per score of finding the tie blocks (a sorted copy, the inverse, the counts).
BYTES_PER_SCORE = 40.0


def tie_blocks(scores: np.ndarray, is_pos: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct scores (ascending) and, for each, how many positives and negatives have it.

    >>> v, pos, neg = tie_blocks(np.array([0.3, 0.1, 0.3, 0.7]), np.array([True, False, False, True]))
    >>> v.tolist(), pos.tolist(), neg.tolist()
    ([0.1, 0.3, 0.7], [0, 1, 1], [1, 1, 0])
    """
    check_memory(BYTES_PER_SCORE * scores.shape[0], f"sorting {scores.shape[0]:,} scores", "use a sample of the rows")
    values, inverse = np.unique(scores + 0.0, return_inverse=True)  # −0.0 and 0.0 are one score
    pos = np.bincount(inverse, weights=is_pos, minlength=values.size).astype(np.int64)
    every = np.bincount(inverse, minlength=values.size).astype(np.int64)
    return values, pos, every - pos


@dataclass(frozen=True)
class Candidates(Counts):
    """The candidate thresholds (ascending, ``+∞`` last) and the counts each gives: the decision
    curve's :class:`Counts` at every distinct score.

    Attributes
    ----------
    thresholds : numpy.ndarray
        The distinct scores, then ``inf``.
    tp, fp : numpy.ndarray of int64
        Positives and negatives with a score ``≥`` each threshold (``fn``, ``tn`` the rest).
    p, n : int
        Positives and negatives in all.
    """

    thresholds: np.ndarray

    @property
    def size(self) -> int:
        return int(self.thresholds.size)

    @property
    def total(self) -> int:
        return self.p + self.n

    def matrix(self, k: int) -> ConfusionMatrix:
        """The confusion matrix at candidate ``k``."""
        tp, fp = int(self.tp[k]), int(self.fp[k])
        return ConfusionMatrix(tp=tp, fn=self.p - tp, fp=fp, tn=self.n - fp)

    def index_of(self, threshold: float) -> int:
        """The candidate standing for ``threshold``: the smallest candidate ``≥`` it (``+∞`` above every score).

        >>> c = candidates_from_blocks(np.array([0.2, 0.5]), np.array([0, 1]), np.array([1, 0]))
        >>> c.index_of(0.3), c.index_of(0.5), c.index_of(0.9), c.index_of(-1.0)
        (1, 1, 2, 0)
        """
        return int(np.searchsorted(self.thresholds, threshold, side="left"))


def candidates_from_blocks(values: np.ndarray, pos: np.ndarray, neg: np.ndarray) -> Candidates:
    """The candidates of the tie blocks ``values`` (ascending), ``pos``, ``neg``.

    >>> c = candidates_from_blocks(np.array([0.1, 0.3, 0.7]), np.array([0, 1, 1]), np.array([1, 1, 0]))
    >>> c.thresholds.tolist(), c.tp.tolist(), c.fp.tolist(), c.fn.tolist(), c.tn.tolist()
    ([0.1, 0.3, 0.7, inf], [2, 2, 1, 0], [2, 1, 0, 0], [0, 0, 1, 2], [0, 1, 2, 2])
    """
    zero = np.zeros(1, dtype=np.int64)
    tp = np.concatenate([np.cumsum(pos[::-1])[::-1], zero])
    fp = np.concatenate([np.cumsum(neg[::-1])[::-1], zero])
    thresholds = np.concatenate([np.asarray(values, dtype=np.float64), [np.inf]])
    return Candidates(tp=tp, fp=fp, p=int(tp[0]), n=int(fp[0]), thresholds=thresholds)
