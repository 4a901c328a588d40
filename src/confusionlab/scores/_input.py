"""From true labels (any dtype) and real scores to the two sorted score samples.

Every score function starts here: the labels are checked and coded as in
:meth:`ConfusionMatrix.from_predictions <confusionlab.ConfusionMatrix.from_predictions>`
(``positive`` defaults to 1/True for 0/1, False/True or −1/1 labels), the scores must be
finite reals, and the positives' and negatives' scores are sorted once. Everything
else (the staircase, DeLong's placements, the null distribution, the bootstrap) is
computed from those two sorted arrays.
"""

from __future__ import annotations

import math
from functools import cached_property
from typing import Any

import numpy as np

from .._validation import InvalidParameterError, as_labels, check_memory
from ..labels import distinct_labels, labels_equal, positive_label
from ._checks import check_score_classes, check_scores

__all__ = ["Scores", "binary_scores", "tie_blocks"]

#: Elements per chunk of the passes over the sorted scores (temporaries stay in the cache).
CHUNK = 1 << 16


class Scores:
    """One classifier's scores split by class: ``positives`` and ``negatives`` sorted ascending.

    Built from the two sorted arrays, or (:meth:`from_keys`) from one sorted array of class-tagged
    order keys, whose tie blocks are read off directly and whose class arrays are extracted only
    when asked for.
    """

    def __init__(self, positives: np.ndarray, negatives: np.ndarray, positive_label: Any) -> None:
        self._positives = positives + 0.0  # −0.0 becomes +0.0: equal scores have equal bits
        self._negatives = negatives + 0.0
        self._p, self._n = int(positives.shape[0]), int(negatives.shape[0])
        self.positive_label = positive_label
        self._keys: np.ndarray | None = None

    @classmethod
    def from_keys(cls, keys: np.ndarray, exponent: int, p: int, positive_label: Any) -> Scores:
        """From ``keys`` sorted ascending: ``2·order_key(x·2^−exponent) + is_positive`` (see
        :func:`tagged_keys`)."""
        out = cls.__new__(cls)
        out._positives = out._negatives = None
        out._p, out._n = p, int(keys.shape[0]) - p
        out.positive_label = positive_label
        out._keys, out._exponent = keys, exponent
        return out

    def _class_values(self, positive: bool) -> np.ndarray:
        keys = self._keys
        chosen = keys[(keys & 1).astype(bool)] if positive else keys[~(keys & 1).astype(bool)]
        return np.ldexp(_order_keys(chosen >> 1).view(np.float64), self._exponent) + 0.0

    @property
    def positives(self) -> np.ndarray:
        if self._positives is None:
            self._positives = self._class_values(True)
        return self._positives

    @property
    def negatives(self) -> np.ndarray:
        if self._negatives is None:
            self._negatives = self._class_values(False)
        return self._negatives

    @property
    def p(self) -> int:
        return self._p

    @property
    def n(self) -> int:
        return self._n

    @cached_property
    def block_counts(self) -> tuple[np.ndarray, np.ndarray]:
        """``(positives, negatives)`` of the tie blocks (int64, increasing scores): :attr:`blocks`
        without the scores, which the AUC, its variance and the null distribution do not need."""
        if self._keys is None:
            _, pos, neg = self.blocks
            return pos, neg
        starts = self._starts
        cls = self._keys & 1
        if starts is None:  # no ties: one example a block
            return cls, 1 - cls
        pos = np.add.reduceat(cls, starts)
        sizes = np.diff(np.append(starts, self._keys.shape[0]))
        return pos, sizes - pos

    @cached_property
    def _starts(self) -> np.ndarray | None:
        """Where each tie block starts in the sorted keys (None: every key its own block).

        Two neighbours ``k ≤ k'`` hold the same score when ``k' == k`` or ``k' == k | 1``; that is
        checked in chunks (no array of the keys' size is allocated unless there are ties).
        """
        keys = self._keys
        tied = False
        for lo in range(0, keys.shape[0] - 1, CHUNK):
            a, b = keys[lo : lo + CHUNK], keys[lo + 1 : lo + CHUNK + 1]
            a = a[: b.shape[0]]
            if np.any((a | 1) == b) or np.any(a == b):
                tied = True
                break
        if not tied:
            return None
        score_keys = keys >> 1
        new = np.empty(score_keys.shape[0], dtype=bool)
        new[0] = True
        np.not_equal(score_keys[1:], score_keys[:-1], out=new[1:])
        return np.flatnonzero(new)

    def chunks(self) -> Any:
        """``(positives, negatives)`` of the tie blocks in increasing order, a chunk at a time (for
        sums over the blocks without an array of their size: ten million fresh doubles cost more
        in page faults than the arithmetic)."""
        if self._keys is not None and self._starts is None:
            keys = self._keys
            for lo in range(0, keys.shape[0], CHUNK):
                cls = keys[lo : lo + CHUNK] & 1
                yield cls, 1 - cls
            return
        pos, neg = self.block_counts
        for lo in range(0, pos.shape[0], CHUNK):
            yield pos[lo : lo + CHUNK], neg[lo : lo + CHUNK]

    @cached_property
    def blocks(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(values, positives, negatives)`` of the tie blocks, values increasing: every distinct
        score and how many examples of each class have it (see :func:`tie_blocks`)."""
        if self._keys is None:
            return tie_blocks(self._positives, self._negatives)
        starts = self._starts
        score_keys = self._keys >> 1 if starts is None else self._keys[starts] >> 1
        values = np.ldexp(_order_keys(score_keys).view(np.float64), self._exponent) + 0.0
        pos, neg = self.block_counts
        return values, pos, neg


def _order_keys(x: np.ndarray) -> np.ndarray:
    """int64 keys with the order of the doubles ``x`` (no −0.0, no NaN): the sign-magnitude bits
    turned into two's complement. The map is its own inverse (``_order_keys(keys).view(float64)``
    gives the doubles back)."""
    bits = x.view(np.int64)
    return bits ^ ((bits >> 63) & np.int64(0x7FFFFFFFFFFFFFFF))


def tagged_keys(is_pos: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, int] | None:
    """``(keys, exponent)``: ``2·order_key(x·2^−exponent) + is_positive`` for every score, unsorted,
    or None when that is not exact.

    A finite double below 2 in magnitude has an order key in (−2⁶², 2⁶²), so doubling it leaves
    the lowest bit free for the class and one sort orders the scores and carries their classes.
    Larger scores are first scaled by a power of two (exact unless a score would fall among the
    subnormals: checked, and then None; the caller sorts each class instead).

    >>> keys, e = tagged_keys(np.array([True, False, True]), np.array([0.5, -3.0, 0.5]))
    >>> e, (np.sort(keys) & 1).tolist()
    (2, [0, 1, 1])
    """
    top = max(float(scores.max()), -float(scores.min())) if scores.size else 0.0
    exponent = math.frexp(top)[1] if top >= 2.0 else 0  # then top·2^−exponent < 1
    scaled = np.ldexp(scores, -exponent) if exponent else scores + 0.0  # + 0.0: −0.0 becomes +0.0
    if exponent:
        scaled += 0.0
        if not np.array_equal(np.ldexp(scaled, exponent), scores):  # a score lost bits among the subnormals
            return None
    bits = scaled.view(np.int64)
    keys = np.empty(bits.shape[0], dtype=np.int64)
    for lo in range(0, bits.shape[0], CHUNK):  # the order key bits ^ ((bits >> 63) & 0x7FF…F), doubled, tagged
        b, out = bits[lo : lo + CHUNK], keys[lo : lo + CHUNK]
        np.right_shift(b, 63, out=out)
        out &= np.int64(0x7FFFFFFFFFFFFFFF)
        out ^= b
        out <<= 1
        out |= is_pos[lo : lo + CHUNK]
    return keys, exponent


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
    labels = _distinct_integers(t) if t.dtype.kind in "biu" else distinct_labels(t)
    check_score_classes(labels, positive)
    label = positive_label(labels, positive)
    return labels_equal(t, label), label


def _distinct_integers(t: np.ndarray) -> list[Any]:
    """The sorted distinct labels of integer or boolean labels as
    :func:`~confusionlab.labels.distinct_labels` gives them (Python ints or bools), by counting
    when their range is small (no hash table or sort: 10⁷ 0/1 labels in ≈ 20 ms instead of ≈ 160 ms).

    >>> _distinct_integers(np.array([3, 1, 3, 2])), _distinct_integers(np.array([True, True]))
    ([1, 2, 3], [True])
    """
    if t.size == 0:
        return []
    if t.dtype.kind == "b":
        return [v for v, present in ((False, not t.all()), (True, bool(t.any()))) if present]
    lo, hi = int(t.min()), int(t.max())
    if hi - lo >= 1 << 16:
        return distinct_labels(t)
    # offsets from the smallest label, in a type that cannot overflow (t ≥ lo, range < 2^16)
    offsets = t - t.dtype.type(lo) if t.dtype.kind == "u" else t.astype(np.int64) - lo
    counts = np.bincount(offsets.astype(np.intp, copy=False), minlength=hi - lo + 1)
    return [lo + k for k in np.flatnonzero(counts).tolist()]  # Python ints: lo may not fit an int64 (uint64)


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
    """Sort the scores once, each tagged with its class (:func:`tagged_keys`); or, when the tags
    cannot be exact, each class's scores (memory checked: a few copies of the scores)."""
    check_memory(32.0 * scores.shape[0], f"sorting {scores.shape[0]:,} scores", "score a sample of the rows")
    p = int(np.count_nonzero(is_pos))
    if 0 < p < scores.shape[0]:
        tagged = tagged_keys(is_pos, scores)
        if tagged is not None:
            keys, exponent = tagged
            keys.sort()
            return Scores.from_keys(keys, exponent, p, label)
    pos = np.sort(scores[is_pos])
    neg = np.sort(scores[~is_pos])
    if pos.size == 0 or neg.size == 0:  # pragma: no cover - check_score_classes refuses this first
        raise InvalidParameterError("y_true must hold positive and negative examples")
    return Scores(pos, neg, label)
