"""The input layer: columns of any dataframe → count tables, counted where the data lives.

Every ``data=`` call of the library and every bias report or audit needs the same kind of
table: the number of rows per combination of a few keys. A :class:`CountRequest` names
the keys (a column's values, its bins, or a boolean flag: a column above a threshold, a row
among listed values); :func:`count_cells` counts them on the engine that holds the frame
and returns :class:`Cells`. Each engine is one module with the same functions:

* :mod:`.pandas` — numpy codes and one ``bincount`` (pandas' own group-by is slower than
  this for a handful of small keys);
* :mod:`.dask` — the pandas counter on every partition, the small per-partition tables
  summed (no shuffle);
* :mod:`.spark` — one ``groupBy(...).count()`` in Spark (only the small table is collected);
* :mod:`.narwhals` — one lazy group-by for polars, pyarrow, DuckDB and anything else
  narwhals wraps.

:func:`~.engine.engine_of` picks the module once, by the frame's type. Each engine also
counts, per column read, the rows whose value is missing (None, NaN, pandas ``<NA>``):
those rows are never in a cell, and the caller decides whether to refuse them.
:func:`count_columns` counts argument names → columns into a :class:`Table` of numpy arrays;
:class:`~.door.Door` is the jobs' ``data=`` door around it (the column names checked, the
missing values refused, the bounds every job shares); with ``moments=`` each cell also carries the
extremes and power sums of a numeric column (:func:`~.engine.moment_cells`, e.g. calibration's
forecasts binned in the engine). :mod:`.knots` bins scores as a column
expression, :mod:`.frames` wraps any frame in narwhals.

Examples
--------
>>> import pandas as pd
>>> df = pd.DataFrame({"y": [1, 0, 1, 1], "p": [1, 0, 0, 1]})
>>> t = count_columns(df, {"y_true": "y", "y_pred": "p"})
>>> sorted(zip(t.values["y_true"], t.values["y_pred"], t.n.tolist()))
[(0, 0, 1), (1, 0, 1), (1, 1, 2)]
"""

from __future__ import annotations

from .door import MAX_DISTINCT_SCORES, MAX_GROUPS, Door, argument_key, check_column_name, label_array
from .engine import count_cells, engine_of, moment_cells
from .frames import check_columns, collect, column_names, missing_expr, to_narwhals
from .knots import Knots, knots_from_sample
from .request import Above, Bins, Cells, CountRequest, Key, Moments, OneOf, TooManyCells, Values
from .table import (
    HEAD_ROWS,
    KNOT_SAMPLE,
    MAX_CELLS,
    MAX_LABELS,
    Table,
    check_distinct,
    count_columns,
    distinct_at_most,
    glance,
    is_numeric,
    is_remote,
    percentiles,
    score_binning,
    score_edges,
)

__all__ = [
    "HEAD_ROWS",
    "KNOT_SAMPLE",
    "MAX_CELLS",
    "MAX_DISTINCT_SCORES",
    "MAX_GROUPS",
    "MAX_LABELS",
    "Above",
    "Bins",
    "Cells",
    "CountRequest",
    "Door",
    "Key",
    "Knots",
    "Moments",
    "OneOf",
    "Table",
    "TooManyCells",
    "Values",
    "argument_key",
    "check_column_name",
    "check_columns",
    "check_distinct",
    "collect",
    "column_names",
    "count_cells",
    "count_columns",
    "distinct_at_most",
    "engine_of",
    "glance",
    "is_numeric",
    "is_remote",
    "knots_from_sample",
    "label_array",
    "missing_expr",
    "moment_cells",
    "percentiles",
    "score_binning",
    "score_edges",
    "to_narwhals",
]
