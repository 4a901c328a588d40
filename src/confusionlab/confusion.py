"""The binary confusion matrix, validated once at the boundary.

Counts are passed **by name** — ``ConfusionMatrix(tp=, fn=, fp=, tn=)`` — because the
orders in use disagree: this package (and the paper) write (TP, FN, FP, TN), while
scikit-learn's ``confusion_matrix(y, p).ravel()`` is (TN, FP, FN, TP). Arrays come in
through :meth:`ConfusionMatrix.from_predictions` and :meth:`ConfusionMatrix.from_sklearn`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ._validation import (
    MAX_COUNT,
    InvalidParameterError,
    as_labels,
    check_count,
    check_int,
    check_labels_not_scores,
    check_probability,
)
from .labels import distinct_labels, labels_equal, positive_label

__all__ = ["CONFUSION_ORDER", "ConfusionMatrix"]

#: The order of the four counts wherever they travel together (arrays, tables, bias
#: facets, buffers sent to the views): the positives' row, then the negatives' row.
CONFUSION_ORDER = ("tp", "fn", "fp", "tn")

_ORDER_HELP = (
    "ConfusionMatrix takes its counts by name: ConfusionMatrix(tp=..., fn=..., fp=..., tn=...). "
    "Positional counts are refused because orders differ: scikit-learn's confusion_matrix(...).ravel() "
    "is (tn, fp, fn, tp). Use ConfusionMatrix.from_sklearn(confusion_matrix(y_true, y_pred)) or "
    "ConfusionMatrix.from_predictions(y_true, y_pred)."
)


def _rate(numerator: int, denominator: int) -> float:
    return numerator / denominator if denominator else float("nan")


@dataclass(frozen=True, init=False)
class ConfusionMatrix:
    """A binary confusion matrix of non-negative integer counts, given by name.

    Parameters
    ----------
    tp, fn, fp, tn : int
        True positives, false negatives, false positives and true negatives
        (keywords only; see the module docstring for why).

    Attributes
    ----------
    p, n, N : int
        Positives ``tp + fn``, negatives ``fp + tn`` and the total ``p + n``.
    tpr, tnr, fpr, fnr, prevalence : float
        Rates; NaN where the class is empty.

    Examples
    --------
    >>> cm = ConfusionMatrix(tp=16, fn=4, fp=8, tn=32)
    >>> cm.p, cm.n, cm.N
    (20, 40, 60)
    >>> cm.tpr, cm.fpr
    (0.8, 0.2)
    >>> cm.scaled(4)
    ConfusionMatrix(tp=64, fn=16, fp=32, tn=128)
    >>> ConfusionMatrix(16, 4, 8, 32)
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: ConfusionMatrix takes its counts by name: ...
    """

    tp: int
    fn: int
    fp: int
    tn: int

    def __init__(
        self, *args: Any, tp: int | None = None, fn: int | None = None, fp: int | None = None, tn: int | None = None
    ) -> None:
        if args:
            raise InvalidParameterError(_ORDER_HELP)
        absent = [name for name, v in (("tp", tp), ("fn", fn), ("fp", fp), ("tn", tn)) if v is None]
        if absent:
            raise InvalidParameterError(f"ConfusionMatrix() missing the count(s) {', '.join(absent)}; {_ORDER_HELP}")
        for name, value in (("tp", tp), ("fn", fn), ("fp", fp), ("tn", tn)):
            object.__setattr__(self, name, check_count(value, name))
        if self.N == 0:
            raise InvalidParameterError("a confusion matrix needs at least one example; tp, fn, fp and tn are all 0")
        if self.N > MAX_COUNT:
            raise InvalidParameterError(
                f"tp + fn + fp + tn = {self.N} is more than 2**53 examples; the rates of so large a matrix cannot "
                "be represented exactly; give counts whose total is at most 2**53"
            )

    @classmethod
    def from_sklearn(cls, matrix: Any, *, positive_index: int = 1) -> ConfusionMatrix:
        """The matrix from scikit-learn's 2 × 2 ``confusion_matrix`` (rows true, columns predicted).

        Parameters
        ----------
        matrix : array-like, shape (2, 2)
            ``sklearn.metrics.confusion_matrix(y_true, y_pred)``; its flat order is
            (tn, fp, fn, tp) when the positive class is the second label.
        positive_index : {0, 1}, default 1
            Which row/column is the positive class (scikit-learn sorts the labels, so
            1 for labels {0, 1} or {False, True}).

        Examples
        --------
        >>> ConfusionMatrix.from_sklearn([[32, 8], [4, 16]])
        ConfusionMatrix(tp=16, fn=4, fp=8, tn=32)
        """
        positive_index = check_int(positive_index, "positive_index", minimum=0, maximum=1)
        arr = np.asarray(matrix, dtype=object)
        if arr.shape != (2, 2):
            raise InvalidParameterError(
                f"matrix must be scikit-learn's 2 × 2 confusion matrix (rows: true class, columns: predicted), "
                f"got shape {arr.shape}; for more classes use confusionlab.evaluate or one class against the rest"
            )
        pos, neg = positive_index, 1 - positive_index
        return cls(
            tp=check_count(arr[pos, pos], "matrix[positive, positive] (tp)"),
            fn=check_count(arr[pos, neg], "matrix[positive, negative] (fn)"),
            fp=check_count(arr[neg, pos], "matrix[negative, positive] (fp)"),
            tn=check_count(arr[neg, neg], "matrix[negative, negative] (tn)"),
        )

    @classmethod
    def from_predictions(cls, y_true: Any, y_pred: Any, *, positive: Any = None) -> ConfusionMatrix:
        """Count a binary classifier's decisions against the true labels.

        Parameters
        ----------
        y_true, y_pred : array-like of labels
            Lists, numpy arrays, pandas or polars Series; strings, numbers or booleans.
            Missing values (None, NaN, pandas ``<NA>``) are refused, never counted.
        positive : label, optional
            The positive class. Default: ``1`` (or ``True``) when the labels are
            0/1, ``True``/``False`` or −1/1; otherwise it must be given. With more
            than two labels it is required, and every other label counts as negative
            (one class against the rest).

        Raises
        ------
        InvalidParameterError
            (a ValueError) Different lengths, no examples, missing values, scores (non-integer
            numbers) where labels are expected, as :func:`~confusionlab.evaluate` refuses them,
            more than two labels without ``positive``, or a ``positive`` label that occurs in
            neither array.

        Examples
        --------
        >>> ConfusionMatrix.from_predictions([1, 1, 0, 0, 0], [1, 0, 1, 0, 0])
        ConfusionMatrix(tp=1, fn=1, fp=1, tn=2)
        >>> ConfusionMatrix.from_predictions(["cat", "dog", "dog"], ["cat", "cat", "dog"], positive="dog")
        ConfusionMatrix(tp=1, fn=1, fp=0, tn=1)
        >>> ConfusionMatrix.from_predictions(["a", "b", "c"], ["a", "c", "c"], positive="c")
        ConfusionMatrix(tp=1, fn=0, fp=1, tn=1)
        """
        t = check_labels_not_scores(as_labels(y_true, "y_true"), "y_true")
        p = check_labels_not_scores(as_labels(y_pred, "y_pred"), "y_pred")
        if t.shape[0] != p.shape[0]:
            raise InvalidParameterError(
                f"y_true and y_pred must have the same length, got {t.shape[0]} and {p.shape[0]}"
            )
        if t.shape[0] == 0:
            raise InvalidParameterError("y_true and y_pred are empty: a confusion matrix needs at least one example")
        labels = distinct_labels(t, p)
        if len(labels) > 2 and positive is None:
            shown = ", ".join(map(repr, labels[:6])) + (" …" if len(labels) > 6 else "")
            raise InvalidParameterError(
                f"y_true and y_pred hold {len(labels)} distinct labels ({shown}); a binary confusion matrix needs "
                "two, or positive=<label> to count that class against all the others (one-vs-rest)"
            )
        positive = positive_label(labels, positive)
        t_pos, p_pos = labels_equal(t, positive), labels_equal(p, positive)
        tp = int(np.count_nonzero(t_pos & p_pos))
        fn = int(np.count_nonzero(t_pos & ~p_pos))
        fp = int(np.count_nonzero(~t_pos & p_pos))
        return cls(tp=tp, fn=fn, fp=fp, tn=int(t.shape[0]) - tp - fn - fp)

    @classmethod
    def from_rates(cls, p: int, n: int, tpr: float | Fraction, tnr: float | Fraction) -> ConfusionMatrix:
        """Build the matrix with ``p`` positives, ``n`` negatives and the given rates.

        The rates must give whole counts (``tpr * p`` and ``tnr * n`` integral).

        >>> ConfusionMatrix.from_rates(20, 40, 0.8, 0.8)
        ConfusionMatrix(tp=16, fn=4, fp=8, tn=32)
        """
        p = check_count(p, "p")
        n = check_count(n, "n")
        tp, tn = (_whole_count(rate, size, name) for rate, size, name in ((tpr, p, "tpr"), (tnr, n, "tnr")))
        return cls(tp=tp, fn=p - tp, fp=n - tn, tn=tn)

    @property
    def p(self) -> int:
        return self.tp + self.fn

    @property
    def n(self) -> int:
        return self.fp + self.tn

    @property
    def N(self) -> int:
        return self.p + self.n

    @property
    def tpr(self) -> float:
        return _rate(self.tp, self.p)

    @property
    def tnr(self) -> float:
        return _rate(self.tn, self.n)

    @property
    def fpr(self) -> float:
        return _rate(self.fp, self.n)

    @property
    def fnr(self) -> float:
        return _rate(self.fn, self.p)

    @property
    def prevalence(self) -> float:
        return self.p / self.N

    def as_tuple(self) -> tuple[int, int, int, int]:
        """``(tp, fn, fp, tn)``."""
        return (self.tp, self.fn, self.fp, self.tn)

    def scaled(self, factor: int) -> ConfusionMatrix:
        """Every count multiplied by the whole number ``factor`` (the paper's 1/√N study)."""
        factor = check_count(factor, "factor")
        return ConfusionMatrix(tp=factor * self.tp, fn=factor * self.fn, fp=factor * self.fp, tn=factor * self.tn)

    def swapped(self) -> ConfusionMatrix:
        """The same matrix with the positive and negative class exchanged."""
        return ConfusionMatrix(tp=self.tn, fn=self.fp, fp=self.fn, tn=self.tp)


def _whole_count(rate: Any, size: int, name: str) -> int:
    """The count ``k`` with ``k / size == rate``: exactly for a Fraction, as doubles for a float.

    A float rate stands for the fraction it rounds from: ``0.3`` of 10**10 + 1 is no
    whole count, ``0.3`` of 10**10 is 3·10**9 (whatever the size, up to 2**53).

    >>> _whole_count(0.8, 20, "tpr"), _whole_count(Fraction(1, 3), 9, "tpr"), _whole_count(0.3, 10**10, "tpr")
    (16, 3, 3000000000)
    """
    checked = check_probability(rate, name)
    if isinstance(rate, Fraction):
        count = rate * size
        if count.denominator == 1:
            return int(count)
    else:
        nearest = round(checked * size)
        for k in (nearest, nearest - 1, nearest + 1):
            if 0 <= k <= size and (k / size if size else 0.0) == checked:
                return k
    raise InvalidParameterError(
        f"{name}={rate!r} gives no whole count of {size:,} ({name}·{size:,} = {checked * size!r}; rates must give "
        "whole counts); give a rate "
        f"k/{size:,} for a whole k, or the counts themselves (ConfusionMatrix(tp=..., fn=..., fp=..., tn=...))"
    )
