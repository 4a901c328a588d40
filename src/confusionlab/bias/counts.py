"""The one group-by count that every count-based bias metric is computed from.

A bias report needs, per subgroup ``g``, facet ``f`` (``a`` = 0, ``d`` = 1),
label value ``l`` and binarised prediction ``p``, the number of rows. That
(G × 2 × L × P) table is computed where the data lives — pandas, polars,
pyarrow, DuckDB or Dask, each through its own small module in
:mod:`confusionlab._tables` — in a single group-by, so a lazy engine never
brings rows into Python; only the small table comes back.

Confusion counts are ordered ``(tp, fn, fp, tn)`` everywhere, as in the rest of
ConfusionLab (positives first: the true-positive and false-negative rows of the
positive class, then the false-positive and true-negative rows of the negatives).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._tables import Cells, check_columns, to_narwhals
from .._validation import MAX_COUNT, InvalidParameterError, check_count, check_flag, check_instance
from ..confusion import CONFUSION_ORDER  # the core's count order; importable from here as before
from ..labels import code_groups
from ._request import BiasRequest, count_cells
from .selection import FacetSelection, LabelSelection, facet_selection, label_selection

__all__ = [
    "CountTable",
    "FacetSelection",
    "LabelSelection",
    "count_table",
    "counted_cells",
    "facet_selection",
    "label_selection",
]


@dataclass(frozen=True)
class CountTable:
    """Counts of rows by (group, facet, label value, binarised prediction).

    Attributes
    ----------
    counts : ndarray of int64, shape (G, 2, L, P)
        Axis 1 is the facet (0 = *a*, 1 = *d*). ``P`` is 2 (negative, positive
        prediction) when predictions were given, else 1.
    label_values : tuple
        The L distinct label values (``False``/``True`` for a thresholded label).
    label_positive : ndarray of bool, shape (L,)
        Which label values are positive.
    groups : tuple or None
        The G subgroup values, or None when no group column was given (G = 1).
    has_predictions : bool

    Examples
    --------
    >>> t = CountTable.from_confusion(a=(2718, 3678, 84, 13900), d=(433, 679, 10, 8660))
    >>> t.confusion().tolist()      # (tp, fn, fp, tn) of facet a, then of facet d
    [[2718, 3678, 84, 13900], [433, 679, 10, 8660]]
    """

    counts: np.ndarray
    label_values: tuple[Any, ...]
    label_positive: np.ndarray
    groups: tuple[Any, ...] | None
    has_predictions: bool

    def __post_init__(self) -> None:
        c = self.counts
        if not isinstance(c, np.ndarray) or c.dtype.kind not in "iu":
            raise InvalidParameterError(
                f"counts must be an integer numpy array, got {type(c).__name__} {getattr(c, 'dtype', '')}"
            )
        if c.ndim != 4 or c.shape[1] != 2 or c.shape[3] not in (1, 2):
            raise InvalidParameterError(f"counts must have shape (groups, 2, labels, 1 or 2), got {c.shape}")
        if c.size and c.min() < 0:
            raise InvalidParameterError(f"counts must be non-negative, got a minimum of {int(c.min())}")
        if not isinstance(self.label_values, tuple) or len(self.label_values) != c.shape[2]:
            raise InvalidParameterError(
                f"label_values must be a tuple of {c.shape[2]} values, got {self.label_values!r}"
            )
        lp = self.label_positive
        if not isinstance(lp, np.ndarray) or lp.dtype != bool or lp.shape != (c.shape[2],):
            raise InvalidParameterError(f"label_positive must be a boolean array of shape ({c.shape[2]},), got {lp!r}")
        if self.groups is not None and (not isinstance(self.groups, tuple) or len(self.groups) != c.shape[0]):
            raise InvalidParameterError(f"groups must be None or a tuple of {c.shape[0]} values, got {self.groups!r}")
        if self.groups is None and c.shape[0] != 1:
            raise InvalidParameterError(f"groups must name the {c.shape[0]} groups of counts, got None")
        if not isinstance(self.has_predictions, (bool, np.bool_)) or bool(self.has_predictions) != (c.shape[3] == 2):
            raise InvalidParameterError(
                f"has_predictions={self.has_predictions!r} does not match counts of shape {c.shape} "
                "(P = 2 with predictions)"
            )

    @property
    def n(self) -> int:
        """Total number of rows."""
        return int(self.counts.sum())

    @property
    def facet_sizes(self) -> np.ndarray:
        """``[n_a, n_d]``."""
        return self.counts.sum(axis=(0, 2, 3))

    def label_distribution(self, binary: bool = True) -> np.ndarray:
        """Counts per facet and label, shape (2, L) or (2, 2) ``[neg, pos]`` if ``binary``."""
        lab = self.counts.sum(axis=(0, 3))
        return _collapse_labels(lab, self.label_positive) if binary else lab

    def confusion(self) -> np.ndarray:
        """Per-facet confusion counts, shape (2, 4): rows facet (a, d), columns ``(tp, fn, fp, tn)``.

        Examples
        --------
        >>> t = CountTable.from_confusion(a=dict(tp=5, fn=1, fp=2, tn=8), d=(3, 0, 1, 4))
        >>> t.confusion().tolist()
        [[5, 1, 2, 8], [3, 0, 1, 4]]
        """
        if not self.has_predictions:
            raise ValueError("predicted was not given: no confusion matrix")
        lp = _collapse_labels(self.counts.sum(axis=0).transpose(0, 2, 1), self.label_positive)
        # lp: (facet, pred, [neg label, pos label])
        return np.stack([lp[:, 1, 1], lp[:, 0, 1], lp[:, 1, 0], lp[:, 0, 0]], axis=-1)

    def group_outcomes(self, predicted: bool = False) -> np.ndarray:
        """Per group and facet, counts of ``[negative, positive]`` labels (or predictions).

        Shape (G, 2, 2).
        """
        if predicted:
            if not self.has_predictions:
                raise ValueError("predicted was not given")
            return self.counts.sum(axis=2)
        return _collapse_labels(self.counts.sum(axis=3), self.label_positive)

    @classmethod
    def from_confusion(cls, a: Sequence[int] | Mapping[str, int], d: Sequence[int] | Mapping[str, int]) -> CountTable:
        """Build a table from per-facet confusion counts ``(tp, fn, fp, tn)``.

        Parameters
        ----------
        a, d : sequence of 4 counts, or mapping with keys ``tp``, ``fn``, ``fp``, ``tn``
            Facet *a* (the rest) and facet *d* (the sensitive facet). A sequence
            is read in the library's order ``(tp, fn, fp, tn)``; a mapping by name.

        Examples
        --------
        >>> t = CountTable.from_confusion(a=(2718, 3678, 84, 13900), d=(433, 679, 10, 8660))
        >>> t.facet_sizes.tolist()
        [20380, 9782]
        >>> CountTable.from_confusion(a=(1, 2, 3), d=(1, 1, 1, 1))
        Traceback (most recent call last):
        ...
        confusionlab.InvalidParameterError: a must hold 4 counts (tp, fn, fp, tn), got (1, 2, 3)
        """
        c = np.zeros((1, 2, 2, 2), dtype=np.int64)
        for f, (name, cm) in enumerate((("a", a), ("d", d))):
            tp, fn, fp, tn = _confusion_counts(cm, name)
            # counts[group, facet, label (neg, pos), prediction (neg, pos)]
            c[0, f, 1, 1], c[0, f, 1, 0], c[0, f, 0, 1], c[0, f, 0, 0] = tp, fn, fp, tn
        return cls(c, (False, True), np.array([False, True]), None, True)


def _confusion_counts(cm: Any, name: str) -> tuple[int, int, int, int]:
    if isinstance(cm, Mapping):
        keys = {str(k).lower(): v for k, v in cm.items()}
        if set(keys) != set(CONFUSION_ORDER):
            raise InvalidParameterError(f"{name} must have exactly the keys tp, fn, fp, tn, got {sorted(map(str, cm))}")
        values = [keys[k] for k in CONFUSION_ORDER]
    elif isinstance(cm, (str, bytes)) or not isinstance(cm, (Sequence, np.ndarray)):
        raise InvalidParameterError(f"{name} must be 4 counts (tp, fn, fp, tn) or a mapping of them, got {cm!r}")
    else:
        values = list(np.asarray(cm, dtype=object).ravel()) if isinstance(cm, np.ndarray) else list(cm)
        if len(values) != 4:
            raise InvalidParameterError(f"{name} must hold 4 counts (tp, fn, fp, tn), got {cm!r}")
    tp, fn, fp, tn = (check_count(v, f"{name}[{key}]") for key, v in zip(CONFUSION_ORDER, values, strict=True))
    if tp + fn + fp + tn > MAX_COUNT:  # a facet's size is a count too
        raise InvalidParameterError(
            f"{name} must hold at most 2**53 examples in all: {name}'s size tp + fn + fp + tn = "
            f"{tp + fn + fp + tn:,}; "
            "counts this large cannot be represented exactly"
        )
    return tp, fn, fp, tn


def _collapse_labels(x: np.ndarray, positive: np.ndarray) -> np.ndarray:
    """Sum the last axis into ``[negative, positive]``."""
    return np.stack([x[..., ~positive].sum(axis=-1), x[..., positive].sum(axis=-1)], axis=-1)


# ----------------------------------------------------------------------------- the group-by
def count_table(
    data: Any,
    *,
    label: str,
    labels: LabelSelection,
    facet: FacetSelection,
    predicted: str | None = None,
    group: str | None = None,
    dropna: bool = False,
) -> CountTable:
    """Compute the (group × facet × label × prediction) count table in one group-by.

    Parameters
    ----------
    data : DataFrame-like
        pandas/polars DataFrame, pyarrow Table, DuckDB relation, Dask or PySpark DataFrame.
    label, predicted, group : str
        Column names. ``predicted`` and ``group`` are optional.
    labels : LabelSelection
        Positive label values (or a threshold); predictions are binarised the same way.
    facet : FacetSelection
    dropna : bool, default False
        Missing values (None, NaN, pandas ``<NA>``) in the label, facet,
        predicted or group column are never a category: they are refused
        unless ``dropna=True``, which leaves those rows out (in the engine).

    Returns
    -------
    CountTable

    Raises
    ------
    InvalidParameterError
        A column is missing, or an argument of the wrong type or value.
    ValueError
        A key column has missing values (the message names the argument, the
        column and the count) and ``dropna`` is False; the data has no rows;
        predictions take values that are not label values.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"y": ["+", "-", "+", "-", None], "s": ["F", "F", "M", "M", "M"]})
    >>> sel = dict(label="y", labels=label_selection(["+"]), facet=facet_selection("s", ["F"]))
    >>> count_table(df, **sel)
    Traceback (most recent call last):
    ...
    ValueError: label: column 'y' has 1 missing value (None/NaN/<NA>); ...
    >>> t = count_table(df, **sel, dropna=True)
    >>> t.label_distribution().tolist()    # [[neg, pos] of a, [neg, pos] of d]
    [[1, 1], [1, 1]]
    """
    check_instance(label, "label", str, "a column name")
    for arg, v in (("predicted", predicted), ("group", group)):
        if v is not None:
            check_instance(v, arg, str, "a column name")
    check_instance(labels, "labels", LabelSelection, "a LabelSelection (see label_selection)")
    check_instance(facet, "facet", FacetSelection, "a FacetSelection (see facet_selection)")
    dropna = check_flag(dropna, "dropna")
    frame = to_narwhals(data)
    check_columns(frame, label=label, facet=facet.columns, predicted=predicted, group=group)
    schema = frame.collect_schema()
    for arg, col, thr in (
        ("facet", facet.columns[0], facet.threshold),
        ("label", label, labels.threshold),
        ("predicted", predicted, labels.threshold),
    ):
        if thr is not None and col is not None and not schema[col].is_numeric():
            raise InvalidParameterError(
                f"{arg}: column {col!r} is {schema[col]}, not numeric; a threshold "
                f"({thr!r}) needs numbers (use facet_values/positive_values instead)"
            )
    request = BiasRequest(label, labels, facet, predicted, group, dropna)
    return _assemble(
        counted_cells(frame, request),
        request,
        float_predictions=predicted is not None and schema[predicted].is_float() and not schema[label].is_float(),
    )


def counted_cells(frame: Any, request: BiasRequest) -> Cells:
    """:func:`~._request.count_cells`, refusing missing key values (unless ``request.dropna``) and empty data.

    The one place where a report and an audit turn missing values into an error:
    the message names the argument, the column and the count.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"y": [1, None], "s": ["F", "M"]})
    >>> counted_cells(df, BiasRequest("y", label_selection([1]), None, facets=("s",)))
    Traceback (most recent call last):
    ...
    ValueError: label: column 'y' has 1 missing value (None/NaN/<NA>); missing values are never a category: ...
    """
    cells = count_cells(frame, request)
    if cells.missing and not request.dropna:
        parts = []
        for arg, col in request.checked:
            m = cells.missing.get(col, 0)
            if m:
                parts.append(f"{arg}: column {col!r} has {m} missing value{'s' if m != 1 else ''}")
        raise ValueError(
            "; ".join(parts) + " (None/NaN/<NA>); missing values are never a category: drop or fill them first, "
            "or pass dropna=True to leave those rows out"
        )
    if sum(cells.n) == 0:
        if cells.dropped:
            raise ValueError(
                f"data has no rows left after dropna=True left out {cells.dropped} rows with missing values"
            )
        raise ValueError("data has no rows")
    return cells


def _assemble(cells: Any, request: BiasRequest, *, float_predictions: bool = False) -> CountTable:
    label, labels, predicted, group = request.label, request.labels, request.predicted, request.group
    n = np.asarray(cells.n, dtype=np.int64)
    lab_keys = cells.keys["_l"]
    label_values = tuple(sorted(set(lab_keys), key=_sort_key))
    label_positive = labels.is_positive(label_values)
    if (
        labels.threshold is None
        and not label_positive.any()
        and (predicted is None or not set(cells.keys["_p"]) & set(labels.positive_values or ()))
    ):
        raise InvalidParameterError(
            f"positive_values {list(labels.positive_values or ())!r} match no value of label column "
            f"{label!r} (values: {list(label_values)[:10]!r}); check spelling and type"
        )
    l_idx = {v: i for i, v in enumerate(label_values)}
    li = np.asarray([l_idx[v] for v in lab_keys], dtype=np.intp)
    fi = np.asarray([bool(x) for x in cells.keys["_f"]], dtype=np.intp)
    if predicted is not None:
        pv = cells.keys["_p"]
        if labels.threshold is None:
            known = set(label_values) | set(labels.positive_values or ())
            unknown = sorted({v for v in pv if v not in known}, key=_sort_key)
            # a value absent from the labels is fine while there are only two values at all
            # (e.g. every label positive, predictions all negative)
            if unknown and len(known | set(unknown)) > 2:
                if float_predictions:
                    raise TypeError(
                        f"predicted: column {predicted!r} holds floats (scores?) such as {unknown[:3]!r} while "
                        f"label {label!r} does not; pass binary predictions with the label's values, or use "
                        "label_threshold"
                    )
                raise ValueError(
                    f"predicted: column {predicted!r} has values {unknown[:5]!r} that are neither "
                    f"label values {list(label_values)[:10]!r} nor positive_values; predictions "
                    "must be binary decisions with the label's values"
                )
            pos = set(labels.positive_values or ())
            pi = np.asarray([v in pos for v in pv], dtype=np.intp)
        else:
            pi = np.asarray([bool(v) for v in pv], dtype=np.intp)
        n_pred = 2
    else:
        pi, n_pred = np.zeros(len(n), dtype=np.intp), 1
    if group is not None:
        names, gi = code_groups(np.asarray(cells.keys["_g"], dtype=object))
        groups = tuple(names)
    else:
        groups, gi = None, np.zeros(len(n), dtype=np.intp)
    counts = np.zeros((len(groups or (0,)), 2, len(label_values), n_pred), dtype=np.int64)
    np.add.at(counts, (gi, fi, li, pi), n)
    return CountTable(counts, label_values, label_positive, groups, predicted is not None)


def _sort_key(v: Any) -> tuple[str, Any]:
    return (type(v).__name__, v)
