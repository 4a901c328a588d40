"""Engine access: one interface, one small module per dataframe engine.

Every count-based bias metric needs the same (group × facet × label ×
prediction) count table. Each engine computes it where the data lives, behind
one signature, ``count_cells(frame, request) -> Cells``:

* :mod:`.pandas` — numpy codes and one ``bincount`` (pandas' own group-by is
  slower than this for a handful of small keys);
* :mod:`.dask` — the pandas counter on every partition, the small per-partition
  tables summed here (no shuffle);
* :mod:`.spark` — one ``groupBy(...).count()`` in Spark for a PySpark
  DataFrame (only the small table is collected);
* :mod:`.narwhals` — one lazy group-by for polars, pyarrow, DuckDB and
  anything else narwhals wraps.

Each also counts, per key column, the rows whose value is missing (None, NaN,
pandas ``<NA>``): missing values are never a category, so the caller refuses
them unless ``dropna=True`` (then those rows are left out of the table, in the
engine). The rest of this module reads the other few things a report needs
from any engine (the facet's maximum, the feature rows for FT, a column's
distinct values), all through narwhals.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..selection import FacetSelection, LabelSelection

__all__ = [
    "Cells",
    "CountRequest",
    "check_columns",
    "column_names",
    "count_cells",
    "distinct_values",
    "facet_expr",
    "facet_max",
    "feature_rows",
    "missing_expr",
    "to_narwhals",
]

KEYS = ("_f", "_l", "_p", "_g")
"""Key names of a :class:`Cells` table: facet d?, label, prediction, group."""


@dataclass(frozen=True)
class CountRequest:
    """What to count: the columns and how facet and label are selected.

    Attributes
    ----------
    label, predicted, group : str or None
        Column names (``predicted`` and ``group`` optional).
    labels : LabelSelection
    facet : FacetSelection
    dropna : bool
        Leave out rows with a missing value in any of these columns.
    """

    label: str
    labels: LabelSelection
    facet: FacetSelection
    predicted: str | None = None
    group: str | None = None
    dropna: bool = False

    @property
    def checked(self) -> list[tuple[str, str]]:
        """``(argument, column)`` pairs whose missing values are counted, each column once."""
        pairs = [("label", self.label), *(("facet", c) for c in self.facet.columns)]
        pairs += [(a, c) for a, c in (("predicted", self.predicted), ("group", self.group)) if c is not None]
        seen: dict[str, str] = {}
        for arg, col in pairs:
            seen.setdefault(col, arg)
        return [(arg, col) for col, arg in seen.items()]

    @property
    def keys(self) -> list[str]:
        """The key names this request produces."""
        return ["_f", "_l"] + (["_p"] if self.predicted else []) + (["_g"] if self.group else [])


@dataclass
class Cells:
    """A sparse count table as an engine returns it.

    Attributes
    ----------
    keys : dict of list
        ``"_f"`` (bool: facet d), ``"_l"`` (label value, or bool for a label
        threshold), and ``"_p"``/``"_g"`` when requested; one entry per cell.
    n : list of int
        Rows in each cell (rows with a missing key value are never in a cell).
    missing : dict
        Column → number of rows whose value in it is missing.
    dropped : int
        Rows left out because of a missing value (in any column).
    """

    keys: dict[str, list[Any]]
    n: list[int]
    missing: dict[str, int] = field(default_factory=dict)
    dropped: int = 0

    @classmethod
    def from_rows(
        cls,
        rows: Iterable[Any],
        keys: Sequence[str],
        checked: Sequence[tuple[str, str]],
        *,
        count: str,
        convert: Callable[[Any], Any] | None = None,
    ) -> Cells:
        """Cells from grouped rows (indexable by name): the key values, the row count under
        ``count`` and one missing flag ``_m<i>`` per ``checked`` column. Rows with a missing
        flag form no cell; they are counted per column and in ``dropped``.
        """
        out = cls({k: [] for k in keys}, [])
        missing = [0] * len(checked)
        for row in rows:
            n = int(row[count])
            hit = [bool(row[f"_m{i}"]) for i in range(len(checked))]
            if any(hit):
                out.dropped += n
                for i, h in enumerate(hit):
                    missing[i] += n * h
                continue
            for k in keys:
                out.keys[k].append(row[k] if convert is None else convert(row[k]))
            out.n.append(n)
        out.missing = {col: m for (_, col), m in zip(checked, missing, strict=True) if m}
        return out


def to_narwhals(data: Any) -> Any:
    """Wrap a pandas/polars/pyarrow/DuckDB/Dask frame in narwhals (eager or lazy).

    Examples
    --------
    >>> import pandas as pd
    >>> to_narwhals(pd.DataFrame({"a": [1]})).implementation.is_pandas()
    True
    >>> to_narwhals([[1, 2]])
    Traceback (most recent call last):
    ...
    TypeError: data must be a pandas or polars DataFrame, a pyarrow Table, ... got list
    """
    import narwhals as nw

    if isinstance(data, (nw.DataFrame, nw.LazyFrame)):
        return data
    try:
        with warnings.catch_warnings():
            # narwhals >= 2.2x announces that Dask support moves to a separate package
            warnings.filterwarnings("ignore", message=".*narwhals-dask.*", category=FutureWarning)
            return nw.from_native(data)
    except TypeError as exc:
        raise TypeError(
            "data must be a pandas or polars DataFrame, a pyarrow Table, a DuckDB relation, a "
            f"Dask or a PySpark DataFrame, got {type(data).__name__}"
        ) from exc


def column_names(frame: Any) -> list[str]:
    """Column names of a narwhals frame without collecting a lazy one."""
    return list(frame.collect_schema().names())


def check_columns(frame: Any, **named: str | Sequence[str] | None) -> None:
    """Raise ValueError naming the argument whose column is missing."""
    cols = set(column_names(frame))
    for arg, value in named.items():
        if value is None:
            continue
        for c in (value,) if isinstance(value, str) else value:
            if c not in cols:
                raise ValueError(f"{arg}: column {c!r} is not in data (columns: {sorted(map(str, cols))})")


def count_cells(frame: Any, request: CountRequest) -> Cells:
    """The count table of ``request`` on whatever engine holds ``frame`` (narwhals-wrapped).

    Examples
    --------
    >>> import pandas as pd
    >>> from confusionlab.bias.selection import facet_selection, label_selection
    >>> df = pd.DataFrame({"y": [1, 0, None], "s": ["F", "M", "M"]}).astype({"y": "Int64"})
    >>> req = CountRequest("y", label_selection([1]), facet_selection("s", ["F"]), dropna=True)
    >>> c = count_cells(to_narwhals(df), req)
    >>> c.n, c.missing, c.dropped
    ([1, 1], {'y': 1}, 1)
    """
    if frame.implementation.is_pandas():
        from . import pandas as engine
    elif frame.implementation.is_dask():
        from . import dask as engine
    elif frame.implementation.is_pyspark() or frame.implementation.is_pyspark_connect():
        from . import spark as engine
    else:
        from . import narwhals as engine
    return engine.count_cells(frame, request)


# ----------------------------------------------------------------------------- narwhals helpers
def _collect(res: Any) -> Any:
    import narwhals as nw

    return res.collect() if isinstance(res, nw.LazyFrame) else res


def missing_expr(col: str, schema: Any) -> Any:
    """narwhals expression: the value in ``col`` is missing (null, or NaN in a float column)."""
    import narwhals as nw

    expr = nw.col(col).is_null()
    if schema[col].is_float():
        expr = expr | nw.col(col).is_nan()
    return expr


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


def _without_missing(frame: Any, request: CountRequest) -> Any:
    import narwhals as nw

    if not request.dropna:
        return frame
    schema = frame.collect_schema()
    miss = nw.any_horizontal(*[missing_expr(c, schema) for _, c in request.checked], ignore_nulls=False)
    return frame.filter(~miss)


def facet_max(frame: Any, request: CountRequest) -> Any:
    """Largest value of the (single) facet column, over the rows the table counts."""
    import narwhals as nw

    col = request.facet.columns[0]
    res = _collect(_without_missing(frame, request).select(nw.col(col).max().alias("m")))
    return res["m"].to_list()[0]


def feature_rows(frame: Any, request: CountRequest, features: Sequence[str]) -> tuple[Any, Any, Any]:
    """``(x, facet_d, predicted_positive)`` numpy arrays for FT, from the rows the table counts.

    Numeric and boolean feature columns are read as float64 (as smclarify does
    for its numeric and bool columns); any other type is refused.
    """
    import narwhals as nw
    import numpy as np

    schema = frame.collect_schema()
    bad = [c for c in features if not (schema[c].is_numeric() or schema[c] == nw.Boolean)]
    if bad:
        raise ValueError(f"FT needs numeric or boolean features; non-numeric: {bad}")
    labels = request.labels
    if labels.threshold is not None:
        pred = nw.col(request.predicted) > labels.threshold
    else:
        pred = nw.col(request.predicted).is_in(list(labels.positive_values or ()))
    rows = _collect(
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
    res = _collect(keys.group_by("_m", "_v", drop_null_keys=False).agg(nw.len().alias("_n")))
    miss, values = 0, []
    for m, v, n in zip(res["_m"].to_list(), res["_v"].to_list(), res["_n"].to_list(), strict=True):
        if m:
            miss += int(n)
        else:
            values.append(v)
    return values, miss
