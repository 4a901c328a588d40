"""The few things a report reads from the data besides its counts, through narwhals on any engine.

The facet's largest value (to name a threshold facet), the feature rows of the flip test
(FT), and a column's distinct values (for an audit's reference); each over the rows the
count table counts (with ``dropna``, the rows with a missing value are left out first).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._tables import collect, missing_expr
from .._validation import InvalidParameterError
from ._request import BiasRequest
from .selection import FacetSelection

__all__ = ["distinct_values", "facet_expr", "facet_max", "feature_rows"]


def facet_expr(sel: FacetSelection) -> Any:
    """narwhals boolean expression: the row is in facet *d*."""
    import narwhals as nw

    if sel.threshold is not None:
        return nw.col(sel.columns[0]) > sel.threshold
    if len(sel.columns) == 1:
        return nw.col(sel.columns[0]).is_in(list(sel.values or ()))
    terms = [
        nw.all_horizontal(*[nw.col(c) == v for c, v in zip(sel.columns, combo, strict=True)], ignore_nulls=False)
        for combo in sel.values or ()
    ]
    return nw.any_horizontal(*terms, ignore_nulls=False)


def _without_missing(frame: Any, request: BiasRequest) -> Any:
    import narwhals as nw

    if not request.dropna:
        return frame
    schema = frame.collect_schema()
    miss = nw.any_horizontal(*[missing_expr(c, schema) for _, c in request.checked], ignore_nulls=False)
    return frame.filter(~miss)


def facet_max(frame: Any, request: BiasRequest) -> Any:
    """Largest value of the (single) facet column, over the rows the table counts.

    >>> import pandas as pd
    >>> from confusionlab._tables import to_narwhals
    >>> from confusionlab.bias.selection import facet_selection, label_selection
    >>> df = to_narwhals(pd.DataFrame({"y": [1, None, 0], "age": [30, 70, 50]}))
    >>> facet_max(df, BiasRequest("y", label_selection([1]), facet_selection("age", facet_threshold=40), dropna=True))
    50
    """
    import narwhals as nw

    col = request.facet.columns[0]
    res = collect(_without_missing(frame, request).select(nw.col(col).max().alias("m")))
    return res["m"].to_list()[0]


def feature_rows(frame: Any, request: BiasRequest, features: Sequence[str]) -> tuple[Any, Any, Any]:
    """``(x, facet_d, predicted_positive)`` numpy arrays for FT, from the rows the table counts.

    Numeric and boolean feature columns are read as float64 (as smclarify does
    for its numeric and bool columns); any other type is refused.
    """
    import narwhals as nw

    schema = frame.collect_schema()
    bad = [c for c in features if not (schema[c].is_numeric() or schema[c] == nw.Boolean)]
    if bad:
        raise InvalidParameterError(f"FT needs numeric or boolean features; non-numeric: {bad}")
    labels = request.labels
    if labels.threshold is not None:
        pred = nw.col(request.predicted) > labels.threshold
    else:
        pred = nw.col(request.predicted).is_in(list(labels.positive_values or ()))
    rows = collect(
        _without_missing(frame, request).select(
            *[nw.col(c).cast(nw.Float64).alias(f"_x{i}") for i, c in enumerate(features)],
            facet_expr(request.facet).alias("_f"),
            pred.alias("_p"),
        )
    )
    n = len(rows)
    x = np.column_stack([rows[f"_x{i}"].to_numpy() for i in range(len(features))]) if features else np.empty((n, 0))
    return x, rows["_f"].to_numpy().astype(bool), rows["_p"].to_numpy().astype(bool)


def distinct_values(frame: Any, col: str) -> tuple[list[Any], int]:
    """The distinct non-missing values of ``col`` and the number of rows where it is missing."""
    import narwhals as nw

    schema = frame.collect_schema()
    keys = frame.select(missing_expr(col, schema).alias("_m"), nw.col(col).alias("_v"))
    res = collect(keys.group_by("_m", "_v", drop_null_keys=False).agg(nw.len().alias("_n")))
    miss, values = 0, []
    for m, v, n in zip(res["_m"].to_list(), res["_v"].to_list(), res["_n"].to_list(), strict=True):
        if m:
            miss += int(n)
        else:
            values.append(v)
    return values, miss
