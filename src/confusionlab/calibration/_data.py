"""``calibration(data=...)``: (group, true label, forecast) counted by the engine, then the array path.

The table is counted where the data lives (:func:`confusionlab._tables.count_columns`:
one aggregation in Spark or Dask). Calibration's bootstrap resamples forecasts one by one, so
the cells are expanded into their rows (memory checked; the cells sorted by group, label and forecast)
and :func:`~confusionlab.calibration` runs on them: the bins, the ECE, the Brier score and the
consistency band are the array path's on the original rows; the bootstrap intervals are those
of the rows in that order, the same from every engine.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from .._validation import InvalidParameterError, check_memory

__all__ = ["calibration_data"]


def calibration_data(data: Any, y_true: Any, y_prob: Any, *, groups: Any = None, **options: Any) -> Any:
    """:func:`~confusionlab.calibration` of columns of ``data``.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"y": [0, 1, 0, 1, 1, 0], "q": [0.1, 0.8, 0.3, 0.6, 0.9, 0.2]})
    >>> round(calibration_data(df, "y", "q", bins=2, random_state=0).value, 4)  # ½·|0 − 0.2| + ½·|1 − 0.767|
    0.2167
    """
    from .._tables import MAX_LABELS, check_distinct, count_columns, distinct_at_most, is_remote
    from ..evaluation._data import check_column_name, label_array
    from ..evaluation._labels import MAX_GROUPS
    from ..scores._data import MAX_DISTINCT_SCORES
    from ._calibration import calibration

    if options.get("multi_class") is not None or options.get("classes") is not None:
        raise InvalidParameterError("multi_class and classes cannot come with data= yet; pass arrays")
    columns = {"y_true": check_column_name(y_true, "y_true"), "y_prob": check_column_name(y_prob, "y_prob")}
    if groups is not None:
        columns["groups"] = check_column_name(groups, "groups")
    if is_remote(data):
        count = distinct_at_most(data, columns["y_prob"], MAX_DISTINCT_SCORES)
        if count > MAX_DISTINCT_SCORES:
            raise InvalidParameterError(
                f"y_prob: column {columns['y_prob']!r} has more than {MAX_DISTINCT_SCORES:,} distinct forecasts, "
                "more than a count table holds; round the forecasts (e.g. to 4 decimals) in the engine first"
            )
    check_distinct(data, columns, {"y_true": MAX_LABELS} | ({"groups": MAX_GROUPS} if groups is not None else {}))
    table = count_columns(data, columns)
    table.refuse_missing(columns)
    rows = int(table.n.sum())
    check_memory(24.0 * rows, f"{rows:,} forecasts expanded from their cells", "calibrate a sample of the rows")
    t_cells = label_array(table.values["y_true"])
    q_cells = _forecasts(table.values["y_prob"], columns["y_prob"])
    g_cells = None if groups is None else label_array(table.values["groups"])
    keys = [q_cells, np.unique(t_cells.astype(str), return_inverse=True)[1]]
    if g_cells is not None:
        keys.append(np.unique(g_cells.astype(str), return_inverse=True)[1])
    order = np.lexsort(keys)  # the cells sorted (group, label, forecast): the same rows from every engine
    index = np.repeat(order, table.n[order])
    t, q = t_cells[index], q_cells[index]
    g = None if g_cells is None else g_cells[index]
    return calibration(t, q, groups=g, **options)


def _forecasts(values: Any, column: str) -> np.ndarray:
    """The counted forecasts as floats; a column of text (or anything but numbers) is refused by name.

    >>> _forecasts(np.array(["a", "b"]), "q")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: y_prob: column 'q' must hold numbers (probabilities), got 'a' of type str
    """
    raw = np.asarray(values)
    if raw.dtype.kind in "biuf":
        return raw.astype(np.float64, copy=False)
    bad = next((v for v in raw.ravel() if isinstance(v, bool) or not isinstance(v, numbers.Real)), None)
    if raw.dtype.kind != "O" or bad is not None:
        shown = bad if bad is not None else raw.ravel()[0]
        shown = shown.item() if isinstance(shown, np.generic) else shown
        raise InvalidParameterError(
            f"y_prob: column {column!r} must hold numbers (probabilities), got {shown!r} of type {type(shown).__name__}"
        )
    return raw.astype(np.float64)
