"""Which rows form facet *d*, and which label values are positive: validated once.

:func:`facet_selection` and :func:`label_selection` turn the facet and label
arguments of :func:`confusionlab.bias.report` into small frozen objects that
a report compiles into the input layer's request (:mod:`._request`), which every
dataframe engine (:mod:`confusionlab._tables`) reads the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import InvalidParameterError
from ._checks import check_column_names, check_exactly_one, check_threshold, check_value_list

__all__ = ["FacetSelection", "LabelSelection", "facet_selection", "label_selection"]


@dataclass(frozen=True)
class FacetSelection:
    """Which rows form the sensitive facet *d* (the rest form facet *a*).

    Parameters
    ----------
    columns : tuple of str
        One column, or several for an intersectional facet.
    values : tuple or None
        Sensitive values. For several columns, each value is a tuple with one
        entry per column, and a row is in *d* when its combination is listed.
    threshold : float or None
        For a single numeric column: *d* is ``column > threshold``.

    Examples
    --------
    >>> facet_selection("age", facet_threshold=40).describe()
    '> 40'
    >>> facet_selection(["sex", "race"], [("F", "B")]).describe()
    'F&B'
    """

    columns: tuple[str, ...]
    values: tuple[Any, ...] | None = None
    threshold: float | None = None

    def describe(self) -> str:
        """Clarify's ``value_or_threshold`` text (without the upper bound)."""
        if self.threshold is not None:
            return f"> {self.threshold!r}"
        return ",".join(str(v) if not isinstance(v, tuple) else "&".join(map(str, v)) for v in self.values or ())

    def text(self) -> str:
        """The selection in words, for error messages."""
        cols = self.columns[0] if len(self.columns) == 1 else list(self.columns)
        if self.threshold is not None:
            return f"{cols!r} > {self.threshold!r}"
        return f"{cols!r} in {list(self.values or ())!r} (values are compared with their types)"


@dataclass(frozen=True)
class LabelSelection:
    """Which label (and prediction) values count as positive.

    Examples
    --------
    >>> label_selection([">50K"]).is_positive(["<=50K", ">50K"]).tolist()
    [False, True]
    """

    positive_values: tuple[Any, ...] | None = None
    threshold: float | None = None

    def is_positive(self, values: Sequence[Any]) -> np.ndarray:
        """Boolean array: which of ``values`` are positive."""
        if self.threshold is not None:
            return np.asarray([bool(v) for v in values], dtype=bool)
        pos = set(self.positive_values or ())
        return np.asarray([v in pos for v in values], dtype=bool)


def facet_selection(
    facet: str | Sequence[str], facet_values: Any = None, facet_threshold: float | None = None
) -> FacetSelection:
    """Validate the facet arguments of :func:`confusionlab.bias.report`.

    Examples
    --------
    >>> facet_selection("sex", ["Female"])
    FacetSelection(columns=('sex',), values=('Female',), threshold=None)
    >>> facet_selection(["sex"], [("Female",)])
    FacetSelection(columns=('sex',), values=('Female',), threshold=None)
    >>> facet_selection("age", facet_threshold=float("nan"))
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: facet_threshold must be a finite number, got nan
    """
    cols = tuple(check_column_names(facet, "facet"))
    values = check_value_list(facet_values, "facet_values")
    check_exactly_one(facet_values=facet_values, facet_threshold=facet_threshold)
    if facet_threshold is not None:
        thr = check_threshold(facet_threshold, "facet_threshold")
        if len(cols) != 1:
            raise InvalidParameterError(f"facet_threshold needs a single facet column, got facet={facet!r}")
        return FacetSelection(cols, None, thr)
    if len(cols) > 1:
        bad = [v for v in values or () if not isinstance(v, tuple) or len(v) != len(cols)]
        if bad:
            raise InvalidParameterError(
                f"with {len(cols)} facet columns each facet value must be a tuple of {len(cols)} values, got {bad[0]!r}"
            )
    elif values is not None:  # one column: a 1-tuple is its value, as a k-tuple is for k columns
        bad = [v for v in values if isinstance(v, tuple) and len(v) != 1]
        if bad:
            raise InvalidParameterError(
                f"with one facet column each facet value is a value or a 1-tuple, got {bad[0]!r} in facet_values"
            )
        values = tuple(v[0] if isinstance(v, tuple) else v for v in values)
    return FacetSelection(cols, values, None)


def label_selection(positive_values: Any = None, label_threshold: float | None = None) -> LabelSelection:
    """Validate the label arguments of :func:`confusionlab.bias.report`.

    Examples
    --------
    >>> label_selection(label_threshold=0.5)
    LabelSelection(positive_values=None, threshold=0.5)
    """
    values = check_value_list(positive_values, "positive_values")
    check_exactly_one(positive_values=positive_values, label_threshold=label_threshold)
    thr = None if label_threshold is None else float(check_threshold(label_threshold, "label_threshold"))
    return LabelSelection(values, thr)
