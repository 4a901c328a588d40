"""``calibration(data=...)``: (group, true label, forecast) counted by the engine, then the array path.

The table is counted where the data lives (:data:`DOOR`, the input layer's
:class:`~confusionlab._tables.Door`: one aggregation in Spark or Dask). Calibration's bootstrap
resamples forecasts one by one, so :func:`from_counts` expands the cells into their rows (memory
checked; the cells sorted by group, label and forecast) and calibrates them as the array path
does: the bins, the ECE, the Brier score and the consistency band are the array path's on the
original rows; the bootstrap intervals are those of the rows in that order, the same from every
engine.

More than :data:`MAX_DISTINCT_SCORES` distinct forecasts (counted by the engine, on every engine)
are more than a count table holds: then the engine bins them itself (:func:`_bin_in_engine`) and
returns per (true label, bin, group) the count, the sums of the forecasts' powers 1 … 4 and their
extremes, from which :func:`~._bins.bins_from_sums` makes the bins. The edges are fixed for
``strategy="uniform"``; for ``"quantile"`` they are the forecasts' percentiles computed by the
engine (numpy's rule, exact on pandas, polars, pyarrow and DuckDB; from a sample on Spark, Dask's
approximate quantiles, the ends the exact extremes), and with ``groups=`` the groups share the
whole column's edges (each group's own would be a pass per group). Every number of the bins is
then exact for those edges; what needs each forecast is approximated and labelled
(:attr:`Calibration.approximation`). Below the limit nothing changes, so a small table gives the
array path's answer to the last digit, band and p-value included.
"""

from __future__ import annotations

import numbers
from decimal import Decimal
from typing import Any

import numpy as np

from .._tables import (
    MAX_CELLS,
    MAX_DISTINCT_SCORES,
    MAX_GROUPS,
    MAX_LABELS,
    Door,
    Table,
    TooManyCells,
    check_distinct,
    count_columns,
    distinct_at_most,
    is_numeric,
    is_remote,
    label_array,
    percentiles,
)
from .._validation import InvalidParameterError, check_memory, check_random_state
from ..labels import code_groups
from ._bins import Bins, bins_from_sums
from ._calibration import _outcomes, from_arrays
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
    """The (true label, forecast, group) table, the labels and groups bounded by ``limits``: every
    distinct forecast a cell, or beyond :data:`MAX_DISTINCT_SCORES` of them the forecasts binned by
    the engine (:func:`_bin_in_engine`)."""
    check_distinct(data, columns, limits)
    if distinct_at_most(data, columns["y_prob"], MAX_DISTINCT_SCORES) > MAX_DISTINCT_SCORES:
        return _bin_in_engine(data, columns, options)
    return count_columns(data, columns)


def _bin_in_engine(data: Any, columns: dict[str, str], options: Options) -> Table:
    """The (true label, bin, group) table with per cell the forecasts' power sums and extremes.

    The array path's bin of ``q`` is ``searchsorted(edges[1:-1], q)``, the number of inner edges below
    ``q``; the engine counts, per distinct inner edge ``u``, whether ``q ≥ nextafter(u, ∞)`` — the same
    as ``q > u`` for doubles — and ``table.bins["y_prob"]`` maps its bin back to the array path's.
    """
    column = columns["y_prob"]
    if not is_numeric(data, column):
        raise InvalidParameterError(
            f"y_prob: column {column!r} must hold numbers (probabilities), got a column of another type (text?)"
        )
    if options.strategy == "uniform":
        edges = np.linspace(0.0, 1.0, options.bins + 1)
    else:
        edges = np.asarray(percentiles(data, column, np.linspace(0.0, 1.0, options.bins + 1) * 100), dtype=float)
        edges = edges if edges.size == options.bins + 1 else np.zeros(options.bins + 1)
    inner = edges[1:-1]
    # edges outside [0, 1] come only from forecasts outside it, refused below from the cells' extremes
    cuts = np.unique(inner[(inner >= 0.0) & (inner <= 1.0)])
    try:
        table = count_columns(
            data,
            columns,
            bins={"y_prob": np.nextafter(cuts, np.inf)},
            max_cells=MAX_CELLS,
            moments="y_prob",
        )
    except TooManyCells:
        raise InvalidParameterError(
            f"y_prob: the table of (label, bin, group) of column {column!r} has more than {MAX_CELLS:,} cells; "
            "pass fewer bins= (or fewer groups)"
        ) from None
    table.refuse_missing()
    lows, highs = table.moments["min"], table.moments["max"]
    bad = np.flatnonzero(~((lows >= 0.0) & (highs <= 1.0)))  # NaN-safe: anything but [0, 1] is refused
    if bad.size:
        shown = float(lows[bad[0]]) if not lows[bad[0]] >= 0.0 else float(highs[bad[0]])
        raise InvalidParameterError(f"y_prob: column {column!r} must hold probabilities in [0, 1]; got {shown!r}")
    if options.strategy == "quantile" and lows.size:
        edges = edges.copy()
        edges[0], edges[-1] = float(lows.min()), float(highs.max())
        edges = np.maximum.accumulate(edges)
    back = np.concatenate([[0], np.searchsorted(inner, cuts, side="right")])
    notes = []
    if options.strategy == "quantile" and is_remote(data):
        notes.append("its quantile edges approximate (from a sample of the forecasts)")
    if options.strategy == "quantile" and "groups" in columns:
        notes.append("the groups sharing the whole column's quantile edges")
    reason = f"(more than {MAX_DISTINCT_SCORES:,} distinct forecasts"
    table.bins["y_prob"] = (edges, back, reason + "".join(f"; {n}" for n in notes) + ")")
    return table


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
    if table.moments:
        return _from_bins(table, options)
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


def _from_bins(table: Table, options: Options) -> Calibration | CalibrationSet:
    """:func:`from_counts` of a table binned by the engine (:func:`_bin_in_engine`): the bins from
    the cells' sums, per group and for the whole test set as the array path's (same seeds)."""
    edges, back, note = table.bins["y_prob"]
    cell_bin = back[np.asarray(table.values["y_prob"], dtype=np.intp)]
    y, positive = _outcomes(label_array(table.values["y_true"]), options.positive)
    sums = np.column_stack([table.moments[f"sum{j}"] for j in range(1, 5)]) if table.n.size else np.zeros((0, 4))
    arguments = options.calibration_arguments()

    def bins(rows: Any) -> Bins:
        cells = (cell_bin[rows], y[rows], table.n[rows], sums[rows], table.moments["min"][rows])
        return bins_from_sums(edges, *cells, table.moments["max"][rows], note=note)

    everything = np.ones(table.n.size, dtype=bool)
    if "groups" not in table.values:
        return Calibration(bins(everything), positive=positive, random_state=options.random_state, **arguments)
    names, codes = code_groups(label_array(table.values["groups"]))
    seeds = check_random_state(options.random_state).spawn(len(names))
    members = {
        name: Calibration(bins(codes == k), positive=positive, random_state=seeds[k], **arguments)
        for k, name in enumerate(names)
    }
    overall = Calibration(bins(everything), positive=positive, random_state=options.random_state, **arguments)
    return CalibrationSet(
        members, "groups", n_draws=options.n_draws, random_state=options.random_state, overall=overall
    )


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
