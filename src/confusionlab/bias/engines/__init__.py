"""Engine access: one counting interface, one small module per dataframe engine.

Every count-based bias metric, of a report or of an audit, needs the same kind of
table: the number of rows per combination of a few keys (facet *d* or not, label,
prediction, subgroup, the raw values of the audited facet columns). Each engine
computes it where the data lives, behind one signature,
``count_cells(frame, request) -> Cells``, and :func:`count_cells` here picks the
module for the engine that holds ``frame``:

* :mod:`.pandas` — numpy codes and one ``bincount`` (pandas' own group-by is
  slower than this for a handful of small keys);
* :mod:`.dask` — the pandas counter on every partition, the small per-partition
  tables summed here (no shuffle);
* :mod:`.spark` — one ``groupBy(...).count()`` in Spark for a PySpark
  DataFrame (only the small table is collected);
* :mod:`.narwhals` — one lazy group-by for polars, pyarrow, DuckDB and
  anything else narwhals wraps.

:func:`confusionlab.bias.report` and :func:`confusionlab.bias.audit` both count
through it, so a Dask report and a Dask audit run the same code. A
:class:`CountRequest` says what to count; the keys of the :class:`Cells` it gets
back are :data:`KEYS` and, for the audit's facet columns, :func:`facet_key`.

Each engine also counts, per key column, the rows whose value is missing (None, NaN,
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

import numpy as np

from ..._validation import InvalidParameterError
from ..selection import FacetSelection, LabelSelection

__all__ = [
    "KEYS",
    "Cells",
    "CountRequest",
    "TooManyCells",
    "check_columns",
    "column_names",
    "count_cells",
    "distinct_values",
    "facet_expr",
    "facet_key",
    "facet_max",
    "feature_rows",
    "missing_expr",
    "to_narwhals",
]

KEYS = ("_f", "_l", "_p", "_g")
"""Key names of a :class:`Cells` table: facet d?, label, prediction, group (then :func:`facet_key`)."""


def facet_key(i: int) -> str:
    """Key name of the raw values of ``CountRequest.facets[i]`` in a :class:`Cells` table.

    >>> facet_key(2)
    '_k2'
    """
    return f"_k{i}"


@dataclass(frozen=True)
class CountRequest:
    """What to count: the columns, and how facet and label are selected.

    A report asks for facet *d* (``facet``) and, for CDDL/CDDPL, a subgroup
    column; an audit asks for the raw values of every facet column at once
    (``facets``, no ``facet``), so that each group it judges is a sum of cells.

    Attributes
    ----------
    label : str
        Label column.
    labels : LabelSelection
        Positive label values or a threshold; the prediction is binarised the
        same way when a threshold is given.
    facet : FacetSelection or None
        Which rows form facet *d* (key ``"_f"``); None for no such key.
    predicted, group : str or None
        Prediction column (key ``"_p"``) and subgroup column (key ``"_g"``).
    dropna : bool
        Leave out rows with a missing value in any of these columns.
    facets : tuple of str
        Columns counted by their raw values (keys :func:`facet_key` ``(i)``).
    bins : tuple of (str, tuple of float)
        Columns counted by their bin instead of their value: ``(column, edges)`` with
        increasing ``edges``; a value ``x`` is in bin ``searchsorted(edges, x, "right")``
        (0 … len(edges)), computed by the engine (the score bins of the curves).
    columnar : bool
        A large table (the cells of scores, where moving rows costs more than counting):
        Spark hands it over as Arrow instead of ``collect``ed rows, Dask sums the partitions'
        tables on the workers in a tree instead of on the client.
    max_cells : int, optional
        Spark and Dask raise :class:`TooManyCells` instead of bringing a larger table to the
        client (Spark collects at most ``max_cells + 1`` rows; Dask refuses on the workers).

    Examples
    --------
    >>> from confusionlab.bias.selection import label_selection
    >>> CountRequest("y", label_selection([1]), None, "p", facets=("sex", "race")).keys
    ['_l', '_p', '_k0', '_k1']
    """

    label: str
    labels: LabelSelection
    facet: FacetSelection | None
    predicted: str | None = None
    group: str | None = None
    dropna: bool = False
    facets: tuple[str, ...] = ()
    bins: tuple[tuple[str, Any], ...] = ()
    columnar: bool = False
    max_cells: int | None = None

    @property
    def checked(self) -> list[tuple[str, str]]:
        """``(argument, column)`` pairs whose missing values are counted, each column once."""
        pairs = [("label", self.label)]
        pairs += [("facet", c) for c in (self.facet.columns if self.facet is not None else ())]
        pairs += [("facets", c) for c in self.facets]
        pairs += [(a, c) for a, c in (("predicted", self.predicted), ("group", self.group)) if c is not None]
        seen: dict[str, str] = {}
        for arg, col in pairs:
            seen.setdefault(col, arg)
        return [(arg, col) for col, arg in seen.items()]

    @property
    def keys(self) -> list[str]:
        """The key names this request produces."""
        keys = (["_f"] if self.facet is not None else []) + ["_l"]
        keys += (["_p"] if self.predicted else []) + (["_g"] if self.group else [])
        return keys + [facet_key(i) for i in range(len(self.facets))]

    def key_columns(
        self,
        column: Callable[[str], Any],
        in_facet: Callable[[FacetSelection], Any],
        greater: Callable[[Any, float], Any],
        bucket: Callable[[str, tuple[float, ...]], Any] | None = None,
    ) -> dict[str, Any]:
        """Every key of :attr:`keys` in one engine's language, so that each engine builds the same keys.

        ``column(name)`` is a column of the engine, ``in_facet(selection)`` the
        flag "the row is in facet *d*" and ``greater(column, threshold)`` a
        comparison; the label and the prediction are binarised by the label
        threshold when there is one, every other key is a column's raw values, or,
        for a column of :attr:`bins`, ``bucket(name, edges)``: its bin index.

        >>> from confusionlab.bias.selection import label_selection
        >>> req = CountRequest("y", label_selection(label_threshold=0.5), None, "p", facets=("sex",))
        >>> req.key_columns(str.upper, repr, lambda c, t: f"{c} > {t}")
        {'_l': 'Y > 0.5', '_p': 'P > 0.5', '_k0': 'SEX'}
        """
        threshold = self.labels.threshold
        binned = dict(self.bins)

        def raw(name: str) -> Any:
            if name not in binned:
                return column(name)
            if bucket is None:  # pragma: no cover - every engine passes one
                raise NotImplementedError("this engine does not bin columns")
            return bucket(name, binned[name])

        def label_like(name: str) -> Any:
            return raw(name) if threshold is None else greater(column(name), threshold)

        keys = {"_f": in_facet(self.facet)} if self.facet is not None else {}
        keys["_l"] = label_like(self.label)
        if self.predicted is not None:
            keys["_p"] = label_like(self.predicted)
        if self.group is not None:
            keys["_g"] = raw(self.group)
        return keys | {facet_key(i): raw(c) for i, c in enumerate(self.facets)}


class TooManyCells(Exception):
    """A count table larger than :attr:`CountRequest.max_cells` (raised by the Spark and Dask engines)."""


@dataclass
class Cells:
    """A sparse count table as an engine returns it.

    Attributes
    ----------
    keys : dict of list
        ``"_f"`` (bool: facet d), ``"_l"`` (label value, or bool for a label
        threshold), and ``"_p"``/``"_g"``/``"_k<i>"`` when requested; one entry
        per cell (the ``"_k<i>"`` values as Python scalars, not numpy ones).
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
                out.keys[k].append(row[k])
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
    confusionlab.InvalidParameterError: data must be a pandas or polars DataFrame, a pyarrow Table, ... got list
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
        raise InvalidParameterError(
            "data must be a pandas or polars DataFrame, a pyarrow Table, a DuckDB relation, a "
            f"Dask or a PySpark DataFrame, got {type(data).__name__}"
        ) from exc


def column_names(frame: Any) -> list[str]:
    """Column names of a narwhals frame without collecting a lazy one."""
    return list(frame.collect_schema().names())


def check_columns(frame: Any, **named: str | Sequence[str] | None) -> None:
    """Refuse (InvalidParameterError) a column that is not in the data, naming the argument that names it.

    >>> import pandas as pd
    >>> check_columns(to_narwhals(pd.DataFrame({"y": [1]})), label="y", facet=["s"])
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: facet: column 's' is not in data (columns: ['y'])
    """
    cols = set(column_names(frame))
    for arg, value in named.items():
        if value is None:
            continue
        for c in (value,) if isinstance(value, str) else value:
            if c not in cols:
                raise InvalidParameterError(f"{arg}: column {c!r} is not in data (columns: {sorted(map(str, cols))})")


def count_cells(frame: Any, request: CountRequest) -> Cells:
    """The count table of ``request`` on whatever engine holds ``frame``: the one counting call.

    Parameters
    ----------
    frame : DataFrame-like
        A narwhals frame, or anything :func:`to_narwhals` wraps (pandas, polars,
        pyarrow, DuckDB, Dask, PySpark).
    request : CountRequest

    Returns
    -------
    Cells
        The same cells, whichever engine counted them (their order may differ).

    Examples
    --------
    >>> import pandas as pd
    >>> from confusionlab.bias.selection import facet_selection, label_selection
    >>> df = pd.DataFrame({"y": [1, 0, None], "s": ["F", "M", "M"]}).astype({"y": "Int64"})
    >>> req = CountRequest("y", label_selection([1]), facet_selection("s", ["F"]), dropna=True)
    >>> c = count_cells(df, req)
    >>> c.n, c.missing, c.dropped
    ([1, 1], {'y': 1}, 1)
    >>> by_value = CountRequest("y", label_selection([1]), None, facets=("s",), dropna=True)
    >>> c = count_cells(df, by_value)
    >>> sorted(zip(c.keys["_k0"], c.keys["_l"], c.n))
    [('F', 1, 1), ('M', 0, 1)]
    """
    frame = to_narwhals(frame)
    impl = frame.implementation
    if impl.is_pandas():
        from . import pandas as engine
    elif impl.is_dask():
        from . import dask as engine
    elif impl.is_pyspark() or impl.is_pyspark_connect():
        from . import spark as engine
    else:
        from . import narwhals as engine
    cells = engine.count_cells(frame, request)
    for i in range(len(request.facets)):  # group labels are built from these: the same scalars on every engine
        key = facet_key(i)
        cells.keys[key] = [v.item() if isinstance(v, np.generic) else v for v in cells.keys[key]]
    return cells


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
        raise InvalidParameterError(f"FT needs numeric or boolean features; non-numeric: {bad}")
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
