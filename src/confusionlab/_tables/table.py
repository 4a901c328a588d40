"""The job-neutral counting call: rows per combination of a few columns' values, on any engine.

Every evaluation reduces to such a table: (group, true label, prediction) for
:func:`confusionlab.evaluate`, (true label, A's prediction, B's prediction) for the
paired comparisons, (group, true label, score) for the curves, the AUC and
calibration. :func:`count_columns` asks :func:`~confusionlab._tables.engine.count_cells`
for it (one aggregation in Spark or Dask, only the table leaves the cluster) and hands it
back as numpy arrays, one per column, with the missing values of each column.
:func:`score_edges` computes quantile bin edges in the engine, :func:`score_binning` how the
engine bins a score, and :func:`distinct_at_most` counts a column's distinct values in the
engine before a table is collected, so that a column of 10⁸ distinct scores is refused
instead of being brought to the client; :func:`is_remote` says whether the rows are on a
cluster, where those checks come before the count.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._validation import InvalidParameterError
from .engine import count_cells, engine_of, moment_cells
from .frames import check_columns, to_narwhals
from .knots import Knots
from .request import Bins, CountRequest, Moments, TooManyCells, Values

__all__ = [
    "HEAD_ROWS",
    "KNOT_SAMPLE",
    "MAX_CELLS",
    "MAX_LABELS",
    "Table",
    "check_distinct",
    "count_columns",
    "distinct_at_most",
    "glance",
    "is_numeric",
    "is_remote",
    "percentiles",
    "score_binning",
    "score_edges",
]


@dataclass
class Table:
    """A count table: one array of values per column (one entry per cell) and the counts.

    Attributes
    ----------
    values : dict of str to list
        Column argument (``"y_true"``, ``"groups"``, …) → the cell's value (Python scalars;
        for a binned column the bin index).
    n : ndarray of int64
        Rows in each cell.
    missing : dict
        Column argument → rows whose value in that column is missing (None, NaN, ``<NA>``).
    lows : dict of str to ndarray
        For a column binned by :class:`Knots`: the smallest value of each cell (so the bins'
        lower edges are observed scores).
    columns : dict of str to str
        Column argument → the column of the data it names.
    bins : dict
        For a binned column argument: the bins its counter chose (all increasing quantile edges,
        the first the lowest value, or :class:`Knots`); empty from :func:`count_columns` alone.
    moments : dict of str to ndarray
        With ``count_columns(..., moments=arg)``: per cell the smallest (``"min"``) and largest
        (``"max"``) value of that argument's column and the sums of its powers (``"sum1"`` …).
    """

    values: dict[str, list[Any]]
    n: np.ndarray
    missing: dict[str, int]
    lows: dict[str, np.ndarray] = field(default_factory=dict)
    columns: dict[str, str] = field(default_factory=dict)
    bins: dict[str, Any] = field(default_factory=dict)
    moments: dict[str, np.ndarray] = field(default_factory=dict)

    def refuse_missing(self, columns: Mapping[str, str] | None = None) -> None:
        """Raise an InvalidParameterError naming the first argument whose column holds missing values
        (``columns``: argument → column, by default :attr:`columns`)."""
        columns = self.columns if columns is None else columns
        for arg, m in self.missing.items():
            raise InvalidParameterError(
                f"{arg}: column {columns[arg]!r} has {m:,} missing value(s) (None/NaN/<NA>); missing values are "
                "never a class or a score — drop or fill those rows first (e.g. data.dropna(subset=[...]))"
            )


def is_remote(data: Any) -> bool:
    """Whether the rows of ``data`` are on a cluster (Spark, Dask): then a column's distinct values are
    counted there before a count table is brought to this process.

    >>> import pandas as pd
    >>> is_remote(pd.DataFrame({"a": [1]}))
    False
    """
    return bool(engine_of(data).REMOTE)


#: Most distinct values a label column (true or predicted labels) of ``data=`` may hold.
MAX_LABELS = 1_000
#: Rows read first (Spark ``limit``, Dask's first partition) to refuse a column of too many values cheaply.
HEAD_ROWS = 10_000
#: Most cells a Spark or Dask count table may bring to the client when ``limits`` are given.
MAX_CELLS = 1_000_000


def _too_many_values(arg: str, column: str, limit: int, where: str) -> InvalidParameterError:
    return InvalidParameterError(
        f"{arg}: column {column!r} has more than {limit:,} distinct values{where}: is it a score or a row id? "
        "Pass a column of class labels (threshold scores first, e.g. a column pred = score >= 0.5)"
    )


def glance(data: Any, columns: Sequence[str], rows: int) -> Any:
    """The first ``rows`` rows of ``columns`` where reading them once serves :func:`check_distinct` and
    :func:`score_binning` both (Spark: one pyarrow Table, one Spark job); None on every other engine.

    >>> import pandas as pd
    >>> glance(pd.DataFrame({"y": [0, 1]}), ["y"], 10) is None
    True
    """
    frame = to_narwhals(data)
    return engine_of(frame).glance(frame, columns, rows)


def check_distinct(data: Any, columns: Mapping[str, str], limits: Mapping[str, int], *, head: Any = None) -> None:
    """Refuse (naming the argument) a column with more distinct values than its limit, on Spark and
    Dask from their first :data:`HEAD_ROWS` rows only (a Spark ``limit``, Dask's first partition):
    scores passed as labels, or a row id, are refused before the aggregation at the cost of a glance.
    A column whose many values come later is caught by the count itself (:data:`MAX_CELLS`).
    The in-memory engines count first and check their table. ``head``: the first rows, of at
    least these columns and :data:`HEAD_ROWS` rows (or all), already read (:func:`glance`).

    >>> import pandas as pd
    >>> check_distinct(pd.DataFrame({"y": [0.5, 0.25]}), {"y_true": "y"}, {"y_true": 1})  # pandas: not here
    """
    frame = to_narwhals(data)
    cols = list(dict.fromkeys(columns[a] for a in limits))
    distinct = engine_of(frame).head_distinct(frame, cols, HEAD_ROWS, head)
    if distinct is None:
        return
    for arg, limit in limits.items():
        if distinct[columns[arg]] > limit:
            raise _too_many_values(arg, columns[arg], limit, f" in its first {HEAD_ROWS:,} rows")


def count_columns(
    data: Any,
    columns: Mapping[str, str],
    *,
    bins: Mapping[str, Sequence[float]] | None = None,
    limits: Mapping[str, int] | None = None,
    max_cells: int | None = None,
    moments: str | None = None,
) -> Table:
    """Count the rows of ``data`` per combination of the values of ``columns`` (one aggregation).

    Parameters
    ----------
    data : DataFrame-like
        pandas, polars (eager or lazy), pyarrow, DuckDB, Dask or PySpark.
    columns : mapping
        Argument name → column name, e.g. ``{"y_true": "y", "y_pred": "p"}``; a column named
        twice is counted once per argument. A column that is not in ``data`` is refused,
        naming the argument.
    bins : mapping, optional
        Argument name → increasing edges: that column is counted by its bin,
        ``searchsorted(edges, x, "right")``, computed by the engine (or :class:`Knots`).
    limits : mapping, optional
        Argument name → most distinct values of that column (labels, groups): checked by
        :func:`check_distinct` before counting, and on Spark and Dask the table is refused
        (the column with too many values named) when it would exceed :data:`MAX_CELLS` cells.
    max_cells : int, optional
        Most cells Spark or Dask may bring to this process (instead of :data:`MAX_CELLS` with
        ``limits``): beyond, :class:`~confusionlab._tables.request.TooManyCells` reaches the caller, who
        says what to do. The in-memory engines hold their rows already and count them all.
    moments : str, optional
        An argument of ``columns`` (a numeric column): each cell also gets the smallest and the
        largest value of its column and the sums of its first four powers (:attr:`Table.moments`),
        in the same aggregation (:func:`~.engine.moment_cells`).

    Returns
    -------
    Table

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"y": [1, 0, 1, 1], "p": [1, 0, 0, 1], "s": [0.2, 0.1, None, 0.9]})
    >>> t = count_columns(df, {"y_true": "y", "y_pred": "p"})
    >>> sorted(zip(t.values["y_true"], t.values["y_pred"], t.n.tolist()))
    [(0, 0, 1), (1, 0, 1), (1, 1, 2)]
    >>> t = count_columns(df, {"y_true": "y", "y_score": "s"}, bins={"y_score": [0.5]})
    >>> sorted(zip(t.values["y_true"], t.values["y_score"], t.n.tolist())), t.missing
    ([(0, 0, 1), (1, 0, 1), (1, 1, 1)], {'y_score': 1})
    """
    frame = to_narwhals(data)
    check_columns(frame, **dict(columns))
    if limits:
        check_distinct(frame, columns, limits)
    args = list(columns)
    if not args:  # pragma: no cover - every job names a column
        raise InvalidParameterError("count_columns needs at least one column")
    # one key per column (a column named twice, e.g. y_true = groups, is read once and handed to both)
    distinct = list(dict.fromkeys(columns[a] for a in args))
    binned = {
        columns[a]: edges if isinstance(edges, Knots) else tuple(float(e) for e in edges)
        for a, edges in (bins or {}).items()
    }
    key_of = {c: f"_c{i}" for i, c in enumerate(distinct)}
    request = CountRequest(
        {key_of[c]: Bins(c, binned[c]) if c in binned else Values(c) for c in distinct},
        columnar=True,
        max_cells=max_cells if max_cells is not None else MAX_CELLS if limits else None,
    )
    try:
        if moments is None:
            cells = count_cells(frame, request)
        else:
            cells = moment_cells(frame, request, Moments(columns[moments]))
    except TooManyCells:
        if max_cells is not None:
            raise
        for arg, limit in (limits or {}).items():  # only on the way to the error: which column it is
            if distinct_at_most(frame, columns[arg], limit) > limit:
                raise _too_many_values(arg, columns[arg], limit, "") from None
        raise InvalidParameterError(
            f"the count table of {', '.join(map(repr, distinct))} has more than {MAX_CELLS:,} cells; count fewer "
            "columns or columns of fewer values"
        ) from None
    values = {a: [_scalar(v) for v in cells.keys[key_of[columns[a]]]] for a in args}
    by_column = {c: a for a in reversed(args) for c in [columns[a]]}
    missing = {by_column[c]: int(m) for c, m in cells.missing.items()}
    lows = {
        a: np.asarray(cells.lows[key_of[columns[a]]], dtype=np.float64)
        for a in args
        if key_of[columns[a]] in cells.lows
    }
    table = Table(values, np.asarray(cells.n, dtype=np.int64), missing, lows, dict(columns))
    table.moments = {k: np.asarray(v, dtype=np.float64) for k, v in cells.moments.items()}
    return table


#: Scores Spark reads for the knots of :class:`~.knots.Knots` (the first rows; all rows, hashed, if those were
#: unlike the rest): 780 a knot interval. Normal scores, 10⁷ rows, 10⁴ bins: the largest possible AUC difference
#: 4.016e-5 from 5·10⁴ rows, 4.014e-5 from 2·10⁵, 3.998e-5 for exact quantile bins; the glance 0.04 s less (RESULTS.md).
KNOT_SAMPLE = 50_000


def score_binning(data: Any, column: str, bins: int, *, spread: bool = False, head: Any = None) -> np.ndarray | Knots:
    """How the engine bins ``column`` into ``bins`` bins: increasing edges (:func:`score_edges`), or on
    Spark :class:`~.knots.Knots` (from the first :data:`KNOT_SAMPLE` rows, or with ``spread`` from a
    hashed sample of all rows: a pass more, taken when the first rows were unlike the rest). ``head``:
    the first rows, of at least this column and :data:`KNOT_SAMPLE` rows (or all), already read
    (:func:`glance`).

    >>> import pandas as pd
    >>> score_binning(pd.DataFrame({"s": [0.1, 0.2, 0.3, 0.4]}), "s", 2).tolist()  # numpy's "lower" quantiles
    [0.1, 0.2]
    """
    frame = to_narwhals(data)
    return engine_of(frame).score_binning(frame, column, bins, sample=KNOT_SAMPLE, spread=spread, head=head)


def _scalar(v: Any) -> Any:
    return v.item() if isinstance(v, np.generic) else v


def score_edges(data: Any, column: str, bins: int) -> np.ndarray:
    """Increasing quantile edges of ``column`` for ``bins`` bins of about equal counts, computed by the engine.

    The edges are the column's quantiles at 0, 1/bins, …, (bins − 1)/bins (missing values
    left out), duplicates merged: bin ``j`` holds the values from ``edges[j]`` up to
    ``edges[j + 1]`` (the first bin also anything below ``edges[0]``). Spark: the quantiles of
    a Bernoulli sample drawn by Spark; Dask: its approximate ``quantile`` over about one
    partition in eight (the stated AUC bound is exact for any bins); every other engine: the
    exact sample quantiles (numpy's "lower").

    >>> import pandas as pd
    >>> score_edges(pd.DataFrame({"s": [0.1, 0.2, 0.3, 0.4, None]}), "s", 2).tolist()
    [0.1, 0.2]
    """
    frame = to_narwhals(data)
    return engine_of(frame).score_edges(frame, column, bins)


def distinct_at_most(data: Any, column: str, limit: int) -> int:
    """The number of distinct non-missing values of ``column``, counted by the engine, or ``limit + 1`` if more.

    >>> import pandas as pd
    >>> distinct_at_most(pd.DataFrame({"s": [0.1, 0.2, 0.2]}), "s", 10)
    2
    """
    frame = to_narwhals(data)
    return engine_of(frame).distinct_at_most(frame, column, limit)


def percentiles(data: Any, column: str, percents: Sequence[float]) -> np.ndarray:
    """Percentiles of the non-missing values of ``column`` at ``percents`` (0 … 100), numpy's linear rule,
    computed by the engine: exact (``numpy.percentile``, value for value) on pandas, polars, pyarrow and
    DuckDB; on Spark those of a sample of about 50 values per percentile, on Dask its approximate
    ``quantile``.

    >>> import pandas as pd
    >>> percentiles(pd.DataFrame({"s": [0.1, 0.4, 0.2, None]}), "s", [0, 25, 100]).tolist()
    [0.1, 0.15000000000000002, 0.4]
    """
    frame = to_narwhals(data)
    return engine_of(frame).percentiles(frame, column, np.asarray(percents, dtype=np.float64))


def is_numeric(data: Any, column: str) -> bool:
    """Whether ``column`` holds numbers by its type (integers, floats, decimals; not booleans or text).

    >>> import pandas as pd
    >>> is_numeric(pd.DataFrame({"a": [0.5], "b": ["x"]}), "a"), is_numeric(pd.DataFrame({"b": ["x"]}), "b")
    (True, False)
    """
    return bool(to_narwhals(data).collect_schema()[column].is_numeric())
