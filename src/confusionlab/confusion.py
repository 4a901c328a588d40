"""The binary confusion matrix, validated once at the boundary."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ._validation import check_count

__all__ = ["ConfusionMatrix"]


def _rate(numerator: int, denominator: int) -> float:
    return numerator / denominator if denominator else float("nan")


@dataclass(frozen=True)
class ConfusionMatrix:
    """A binary confusion matrix (TP, FN, FP, TN) of non-negative integer counts.

    Parameters
    ----------
    tp, fn, fp, tn : int
        True positives, false negatives, false positives and true negatives.

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
    """

    tp: int
    fn: int
    fp: int
    tn: int

    def __post_init__(self) -> None:
        for name in ("tp", "fn", "fp", "tn"):
            object.__setattr__(self, name, check_count(getattr(self, name), name))
        if self.N == 0:
            raise ValueError("a confusion matrix needs at least one example; all counts are 0")

    @classmethod
    def from_rates(cls, p: int, n: int, tpr: float | Fraction, tnr: float | Fraction) -> ConfusionMatrix:
        """Build the matrix with ``p`` positives, ``n`` negatives and the given rates.

        The rates must give whole counts (``tpr * p`` and ``tnr * n`` integral).

        >>> ConfusionMatrix.from_rates(20, 40, 0.8, 0.8)
        ConfusionMatrix(tp=16, fn=4, fp=8, tn=32)
        """
        p = check_count(p, "p")
        n = check_count(n, "n")
        tp = Fraction(tpr).limit_denominator(10**9) * p
        tn = Fraction(tnr).limit_denominator(10**9) * n
        if tp.denominator != 1 or tn.denominator != 1:
            raise ValueError(f"tpr*p = {float(tp)} and tnr*n = {float(tn)} must be whole counts")
        return cls(int(tp), p - int(tp), n - int(tn), int(tn))

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
        return ConfusionMatrix(*(factor * c for c in self.as_tuple()))

    def swapped(self) -> ConfusionMatrix:
        """The same matrix with the positive and negative class exchanged."""
        return ConfusionMatrix(tp=self.tn, fn=self.fp, fp=self.fn, tn=self.tp)
