"""The 2 × 4 table of a paired test: per true class, how two classifiers' predictions agree."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import (
    MAX_COUNT,
    InvalidParameterError,
    as_labels,
    check_count,
    check_labels_not_scores,
    check_same_length,
)
from ..confusion import ConfusionMatrix
from ..labels import distinct_labels, labels_equal, positive_label
from ._checks import check_binary_labels, check_nonempty, check_shape

__all__ = ["CELLS", "PairedCounts"]

#: The four cells of each class, in this order.
CELLS = ("both", "only_a", "only_b", "neither")


@dataclass(frozen=True)
class PairedCounts:
    """Counts of the four agreement cells among the positives and among the negatives.

    ``positives`` = (both predict positive, only A does, only B does, neither) among the
    true positives; ``negatives`` the same among the true negatives. So
    TP_A = both + only A (of the positives), FP_A = both + only A (of the negatives),
    and likewise for B.

    Examples
    --------
    >>> c = PairedCounts.from_predictions([1, 1, 1, 0, 0], [1, 1, 0, 1, 0], [1, 0, 0, 0, 0])
    >>> c.positives, c.negatives
    ((1, 1, 0, 1), (0, 1, 0, 1))
    >>> c.matrix_a, c.matrix_b
    (ConfusionMatrix(tp=2, fn=1, fp=1, tn=1), ConfusionMatrix(tp=1, fn=2, fp=0, tn=2))
    >>> c.discordant  # (A right and B wrong, B right and A wrong): McNemar's b and c
    (1, 1)
    """

    positives: tuple[int, int, int, int]
    negatives: tuple[int, int, int, int]

    def __post_init__(self) -> None:
        for name in ("positives", "negatives"):
            row = check_shape(getattr(self, name), name, (4,), "four counts (both, only_a, only_b, neither)")
            object.__setattr__(
                self, name, tuple(check_count(v, f"{name}[{i}] ({CELLS[i]})") for i, v in enumerate(row))
            )
        check_nonempty(self.p + self.n, "the paired counts", "a comparison")

    @classmethod
    def from_cells(cls, cells: Any) -> PairedCounts:
        """From a 2 × 4 array: row 0 the positives, row 1 the negatives, columns :data:`CELLS`.

        >>> PairedCounts.from_cells([[50, 3, 1, 6], [2, 4, 1, 33]]).matrix_a
        ConfusionMatrix(tp=53, fn=7, fp=6, tn=34)
        """
        if isinstance(cells, PairedCounts):
            return cells
        arr = check_shape(
            cells,
            "cells",
            (2, 4),
            "a 2 × 4 table: row 0 the true positives, row 1 the true negatives; columns "
            "(both predict positive, only A, only B, neither)",
        )
        # checked here, by the names the caller used (the constructor names its own fields)
        rows = [
            tuple(check_count(v, f"cells[{r}][{i}] ({CELLS[i]}, of the {side})") for i, v in enumerate(arr[r]))
            for r, side in enumerate(("positives", "negatives"))
        ]
        total = sum(rows[0]) + sum(rows[1])
        check_nonempty(total, "cells", "a comparison")
        if total > MAX_COUNT:
            raise InvalidParameterError(
                f"cells sum to {total} examples, more than 2**53: the rates could not be represented exactly; "
                "give cells whose total is at most 2**53"
            )
        return cls(*rows)

    @classmethod
    def from_predictions(cls, y_true: Any, pred_a: Any, pred_b: Any, *, positive: Any = None) -> PairedCounts:
        """Count the cells from true labels and the two classifiers' predicted labels.

        Raises
        ------
        InvalidParameterError
            Different lengths, no examples, missing values, or more than two labels
            without ``positive`` (scores instead of labels, for instance).
        """
        t = check_labels_not_scores(as_labels(y_true, "y_true"), "y_true")
        a = check_labels_not_scores(as_labels(pred_a, "pred_a"), "pred_a")
        b = check_labels_not_scores(as_labels(pred_b, "pred_b"), "pred_b")
        check_same_length({"y_true": t, "pred_a": a, "pred_b": b}, "a comparison")
        labels = distinct_labels(t, a, b)
        check_binary_labels(labels, positive, ("y_true", "pred_a", "pred_b"), "a paired comparison")
        positive = positive_label(labels, positive)
        tpos, apos, bpos = (labels_equal(x, positive) for x in (t, a, b))

        def row(mask: np.ndarray) -> tuple[int, int, int, int]:
            aa, bb = apos[mask], bpos[mask]
            both = int(np.count_nonzero(aa & bb))
            only_a = int(np.count_nonzero(aa & ~bb))
            only_b = int(np.count_nonzero(~aa & bb))
            return (both, only_a, only_b, int(aa.size) - both - only_a - only_b)

        return cls(row(tpos), row(~tpos))

    @property
    def p(self) -> int:
        return sum(self.positives)

    @property
    def n(self) -> int:
        return sum(self.negatives)

    def _matrix(self, only: int) -> ConfusionMatrix:
        """The confusion matrix of the classifier whose "only" cell is column ``only`` (1 = A, 2 = B)."""
        tp, fp = self.positives[0] + self.positives[only], self.negatives[0] + self.negatives[only]
        return ConfusionMatrix(tp=tp, fn=self.p - tp, fp=fp, tn=self.n - fp)

    @property
    def matrix_a(self) -> ConfusionMatrix:
        """A's confusion matrix: TP_A = both + only A among the positives, FP_A likewise."""
        return self._matrix(1)

    @property
    def matrix_b(self) -> ConfusionMatrix:
        """B's confusion matrix (see :attr:`matrix_a`)."""
        return self._matrix(2)

    @property
    def discordant(self) -> tuple[int, int]:
        """(A right and B wrong, B right and A wrong): McNemar's off-diagonal counts."""
        return (self.positives[1] + self.negatives[2], self.positives[2] + self.negatives[1])

    @property
    def discordant_cells(self) -> int:
        """Examples on which the two classifiers' predictions differ."""
        return self.positives[1] + self.positives[2] + self.negatives[1] + self.negatives[2]

    def as_array(self) -> np.ndarray:
        """The 2 × 4 table as int64."""
        return np.array([self.positives, self.negatives], dtype=np.int64)
