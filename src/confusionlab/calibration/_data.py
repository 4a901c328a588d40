"""``calibration(data=...)``: (group, true label, forecast) counted by the engine, then the array path.

The table is counted where the data lives (:data:`DOOR`, the input layer's
:class:`~confusionlab._tables.Door`: one aggregation in Spark or Dask). Calibration's bootstrap
resamples forecasts one by one, so :func:`from_counts` expands the cells into their rows (memory
checked; the cells sorted by group, label and forecast) and calibrates them as the array path
does: the bins, the ECE, the Brier score and the consistency band are the array path's on the
original rows; the bootstrap intervals are those of the rows in that order, the same from every
engine.
"""

from __future__ import annotations

import numbers
from decimal import Decimal
from typing import Any

import numpy as np

from .._tables import (
    MAX_DISTINCT_SCORES,
    MAX_GROUPS,
    MAX_LABELS,
    Door,
    Table,
    check_distinct,
    count_columns,
    distinct_at_most,
    is_remote,
    label_array,
)
from .._validation import InvalidParameterError, check_memory
from ._calibration import from_arrays
from ._multi import CalibrationSet
from ._options import Options
from ._result import Calibration

__all__ = ["DOOR", "from_counts"]


def _columns(options: Options, *, y_true: Any, y_prob: Any, groups: Any = None) -> dict[str, Any]:
    """calibration's column arguments; more than two classes are calibrated from arrays only."""
    if options.multi_class is not None or options.classes is not None:
        raise InvalidParameterError("multi_class and classes cannot come with data= yet; pass arrays")
    return {"y_true": y_true, "y_prob": y_prob, "groups": groups}


def _count(data: Any, columns: dict[str, str], limits: dict[str, int], options: Options) -> Table:
    """The (true label, forecast, group) table: too many distinct forecasts refused before counting on a
    cluster, the labels and groups bounded by ``limits``; the cells are not bounded (every forecast counts)."""
    if is_remote(data):
        count = distinct_at_most(data, columns["y_prob"], MAX_DISTINCT_SCORES)
        if count > MAX_DISTINCT_SCORES:
            raise InvalidParameterError(
                f"y_prob: column {columns['y_prob']!r} has more than {MAX_DISTINCT_SCORES:,} distinct forecasts, "
                "more than a count table holds; round the forecasts (e.g. to 4 decimals) in the engine first"
            )
    check_distinct(data, columns, limits)
    return count_columns(data, columns)


#: calibration's ``data=`` door: a label column, a forecast column, groups if given.
DOOR = Door(limits={"y_true": MAX_LABELS, "groups": MAX_GROUPS}, optional=("groups",), columns=_columns, count=_count)


def from_counts(table: Table, options: Options) -> Calibration | CalibrationSet:
    """:func:`~confusionlab.calibration` of a counted (``y_true``, ``y_prob``, ``groups``) table.

    Examples
    --------
    >>> import pandas as pd
    >>> from confusionlab import calibration
    >>> df = pd.DataFrame({"y": [0, 1, 0, 1, 1, 0], "q": [0.1, 0.8, 0.3, 0.6, 0.9, 0.2]})
    >>> round(calibration("y", "q", data=df, bins=2, random_state=0).value, 4)  # ½·|0 − 0.2| + ½·|1 − 0.767|
    0.2167
    """
    rows = int(table.n.sum())
    check_memory(24.0 * rows, f"{rows:,} forecasts expanded from their cells", "calibrate a sample of the rows")
    t_cells = label_array(table.values["y_true"])
    q_cells = _forecasts(table.values["y_prob"], table.columns["y_prob"])
    g_cells = label_array(table.values["groups"]) if "groups" in table.values else None
    keys = [q_cells, np.unique(t_cells.astype(str), return_inverse=True)[1]]
    if g_cells is not None:
        keys.append(np.unique(g_cells.astype(str), return_inverse=True)[1])
    order = np.lexsort(keys)  # the cells sorted (group, label, forecast): the same rows from every engine
    index = np.repeat(order, table.n[order])
    g = None if g_cells is None else g_cells[index]
    return from_arrays(t_cells[index], q_cells[index], g, options)


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
    bad = next((v for v in raw.ravel() if isinstance(v, bool) or not isinstance(v, numbers.Real | Decimal)), None)
    if raw.dtype.kind != "O" or bad is not None:
        shown = bad if bad is not None else raw.ravel()[0]
        shown = shown.item() if isinstance(shown, np.generic) else shown
        raise InvalidParameterError(
            f"y_prob: column {column!r} must hold numbers (probabilities), got {shown!r} of type {type(shown).__name__}"
        )
    return raw.astype(np.float64)
