"""The job-neutral counting call: rows per combination of a few columns' values, on any engine.

Every evaluation reduces to such a table: (group, true label, prediction) for
:func:`confusionlab.evaluate`, (true label, A's prediction, B's prediction) for the
paired comparisons, (group, true label, score) for the curves, the AUC and
calibration. :func:`count_columns` asks :func:`~confusionlab.bias.engines.count_cells`
for it (so the bias module's engines count it: one aggregation in Spark or Dask, only
the table leaves the cluster) and hands it back as numpy arrays, one per column, with
the missing values of each column. :func:`score_edges` computes quantile bin edges in
the engine (Spark's ``approxQuantile``, Dask's ``quantile``; exact sample quantiles on
the in-memory engines), and :func:`distinct_at_most` counts a column's distinct values in
the engine before a table is collected (Spark, Dask), so that a column of 10⁸ distinct
scores is refused instead of being brought to the client.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..._validation import InvalidParameterError
from ..selection import LabelSelection
from . import CountRequest, TooManyCells, check_columns, count_cells, facet_key, to_narwhals

__all__ = [
    "MAX_LABELS",
    "Knots",
    "Table",
    "check_distinct",
    "count_columns",
    "distinct_at_most",
    "engine_name",
    "glance",
    "knots_from_sample",
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
    """

    values: dict[str, list[Any]]
    n: np.ndarray
    missing: dict[str, int]
    lows: dict[str, np.ndarray] = field(default_factory=dict)

    def refuse_missing(self, columns: Mapping[str, str]) -> None:
        """Raise an InvalidParameterError naming the first argument whose column holds missing values."""
        for arg, m in self.missing.items():
            raise InvalidParameterError(
                f"{arg}: column {columns[arg]!r} has {m:,} missing value(s) (None/NaN/<NA>); missing values are "
                "never a class or a score — drop or fill those rows first (e.g. data.dropna(subset=[...]))"
            )


def engine_name(data: Any) -> str:
    """``"spark"``, ``"dask"``, ``"pandas"`` or the narwhals implementation's name of ``data``.

    >>> import pandas as pd
    >>> engine_name(pd.DataFrame({"a": [1]}))
    'pandas'
    """
    frame = to_narwhals(data)
    impl = frame.implementation
    if impl.is_pyspark() or impl.is_pyspark_connect():
        return "spark"
    if impl.is_dask():
        return "dask"
    return "pandas" if impl.is_pandas() else str(impl).lower().split(".")[-1]


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
    """The first ``rows`` rows of ``columns`` of a Spark frame as one pyarrow Table (one Spark job), for
    :func:`check_distinct` and :func:`score_binning` to share; None on every other engine, or a Spark
    without ``toArrow``.

    >>> import pandas as pd
    >>> glance(pd.DataFrame({"y": [0, 1]}), ["y"], 10) is None
    True
    """
    frame = to_narwhals(data)
    if engine_name(frame) != "spark":
        return None
    from .spark import _native

    df = _native(frame)
    if not hasattr(df, "toArrow"):  # pragma: no cover - Spark < 4
        return None
    # one partition: the same first rows, read by one task (10⁷ rows, local[2]: 0.13 s, a plain limit 0.26 s)
    return df.select(*dict.fromkeys(columns)).coalesce(1).limit(rows).toArrow()


def check_distinct(data: Any, columns: Mapping[str, str], limits: Mapping[str, int], *, head: Any = None) -> None:
    """Refuse (naming the argument) a column with more distinct values than its limit, on Spark and
    Dask from their first :data:`HEAD_ROWS` rows only (a Spark ``limit``, Dask's first partition):
    scores passed as labels, or a row id, are refused before the aggregation at the cost of a glance.
    A column whose many values come later is caught by the count itself (:data:`MAX_CELLS`).
    The in-memory engines count first and check their table. ``head``: Spark's first rows, of at
    least these columns and :data:`HEAD_ROWS` rows (or all), already read (:func:`glance`).

    >>> import pandas as pd
    >>> check_distinct(pd.DataFrame({"y": [0.5, 0.25]}), {"y_true": "y"}, {"y_true": 1})  # pandas: not here
    """
    frame = to_narwhals(data)
    engine = engine_name(frame)
    cols = list(dict.fromkeys(columns[a] for a in limits))
    if engine == "spark":
        from .spark import _native

        if head is None:
            head = _native(frame).select(*cols).limit(HEAD_ROWS).toArrow()
        head = head.slice(0, HEAD_ROWS)
        distinct = {c: len(head.column(c).drop_null().unique()) for c in cols}
    elif engine == "dask":
        head = _nw_native(frame)[cols].head(HEAD_ROWS, npartitions=1)
        distinct = {c: int(head[c].nunique(dropna=True)) for c in cols}
    else:
        return
    for arg, limit in limits.items():
        if distinct[columns[arg]] > limit:
            raise _too_many_values(arg, columns[arg], limit, f" in its first {HEAD_ROWS:,} rows")


def _nw_native(frame: Any) -> Any:
    import narwhals as nw

    return nw.to_native(frame)


def count_columns(
    data: Any,
    columns: Mapping[str, str],
    *,
    bins: Mapping[str, Sequence[float]] | None = None,
    limits: Mapping[str, int] | None = None,
    max_cells: int | None = None,
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
        ``limits``): beyond, :class:`~confusionlab.bias.engines.TooManyCells` reaches the caller, who
        says what to do. The in-memory engines hold their rows already and count them all.

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
    cols = [columns[a] for a in args]
    # every argument its own key (a column named twice, e.g. y_true = groups, is counted twice)
    distinct = list(dict.fromkeys(cols))
    binned = tuple(
        (columns[a], edges if isinstance(edges, Knots) else tuple(float(e) for e in edges))
        for a, edges in (bins or {}).items()
    )
    request = CountRequest(
        distinct[0],
        LabelSelection(positive_values=None, threshold=None),
        None,
        facets=tuple(distinct[1:]),
        bins=binned,
        columnar=True,
        max_cells=max_cells if max_cells is not None else MAX_CELLS if limits else None,
    )
    try:
        cells = count_cells(frame, request)
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
    key_of = {c: ("_l" if i == 0 else facet_key(i - 1)) for i, c in enumerate(distinct)}
    values = {a: [_scalar(v) for v in cells.keys[key_of[columns[a]]]] for a in args}
    by_column = {c: a for a in reversed(args) for c in [columns[a]]}
    missing = {by_column[c]: int(m) for c, m in cells.missing.items()}
    lows = {
        a: np.asarray(cells.keys[f"_lo{i}"], dtype=np.float64)
        for i, (c, spec) in enumerate(binned)
        if isinstance(spec, Knots)
        for a in args
        if columns[a] == c
    }
    return Table(values, np.asarray(cells.n, dtype=np.int64), missing, lows)


#: Scores per bin in the sample Spark draws for the quantile edges (10⁴ bins: 5·10⁵ scores).
SAMPLE_PER_BIN = 50
#: Scores Spark reads for the knots of :class:`Knots` (the first rows; all rows, hashed, if those were unlike the rest):
#: 780 a knot interval. Normal scores, 10⁷ rows, 10⁴ bins: the largest possible AUC difference 4.016e-5 from
#: 5·10⁴ rows, 4.014e-5 from 2·10⁵, 3.998e-5 for exact quantile bins; the glance 0.04 s less (RESULTS.md).
KNOT_SAMPLE = 50_000
#: Knots of the piecewise-linear distribution function (evenly spaced in probability) …
KNOTS = 64
#: … and the tail probabilities added to them (each side), where a distribution bends most.
TAIL_PROBS = (1e-5, 1e-4, 1e-3, 3e-3, 1e-2)


@dataclass(frozen=True)
class Knots:
    """A monotone map from a score to one of ``bins`` bins: ``floor(bins · F(x))``, ``F`` piecewise linear.

    ``F`` passes through ``(x[i], c[i] / bins)`` with slope ``a[i] / bins`` up to ``x[i + 1]``
    (0 below ``x[0]``, clamped to the last bin at and above ``x[-1]``): a sample's distribution
    function through a few quantiles, so the bins hold about equal counts. A few dozen
    comparisons and one multiply-add per row, which an engine evaluates as a column expression
    (Spark: one ``CASE``, generated code), where a binary search over 10⁴ edges is a function
    call per row (``Bucketizer``). The bins are intervals of scores because the map is
    non-decreasing; the engine reports each cell's smallest score (:attr:`Table.lows`), and
    those are the bins' lower edges, so the counted table is exactly the array path's on the
    scores replaced by their bin's lower edge. Infinite scores map to bin −1 (refused).

    >>> k = knots_from_sample(np.arange(100.0), 4)
    >>> k.bin_of(np.array([-5.0, 0.0, 24.9, 25.0, 99.0, 1e9, np.inf])).tolist()
    [0, 0, 0, 1, 3, 3, -1]
    """

    x: tuple[float, ...]
    c: tuple[float, ...]
    a: tuple[float, ...]
    bins: int

    def bin_of(self, s: np.ndarray) -> np.ndarray:
        """The bins of the scores ``s`` (numpy; the engines build the same arithmetic)."""
        s = np.asarray(s, dtype=np.float64)
        x = np.asarray(self.x)
        i = np.clip(np.searchsorted(x, s, side="right") - 1, 0, max(len(x) - 2, 0))
        with np.errstate(invalid="ignore", over="ignore"):
            u = np.asarray(self.c)[i] + (s - x[i]) * np.asarray(self.a)[i]
        u = np.where(s >= x[-1], self.bins - 1.0, u)
        out = np.floor(np.clip(u, 0.0, self.bins - 1.0)).astype(np.int64)
        return np.where(np.isinf(s), -1, out)


def knots_from_sample(x: np.ndarray, bins: int) -> Knots:
    """:class:`Knots` for ``bins`` bins from a sample ``x`` of the (finite, non-missing) scores.

    The knots are the sample's quantiles at :data:`KNOTS` even steps and at :data:`TAIL_PROBS`
    (and one minus them); ``F`` at a knot is the share of the sample below it.

    >>> k = knots_from_sample(np.array([0.0, 1.0, 2.0, 3.0]), 2)
    >>> k.x, k.bins
    ((0.0, 1.0, 2.0, 3.0), 2)
    """
    x = np.sort(np.asarray(x, dtype=np.float64)[np.isfinite(x)])
    if x.size == 0:
        return Knots((0.0,), (0.0,), (0.0,), bins)
    tails = np.asarray(TAIL_PROBS)
    probs = np.unique(np.concatenate([np.linspace(0.0, 1.0, KNOTS + 1), tails, 1.0 - tails]))
    knots = np.unique(np.quantile(x, probs, method="lower"))
    share = np.searchsorted(x, knots, side="left") / x.size
    c = share * bins
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        a = np.diff(c) / np.diff(knots)
    # knots a subnormal apart (0 and 5e-324) would make a slope infinite, and 0·inf a NaN bin at the
    # knot itself: the largest double keeps the map finite and non-decreasing (the next knot starts higher)
    a = np.append(np.minimum(a, np.finfo(np.float64).max), 0.0)
    return Knots(tuple(knots.tolist()), tuple(c.tolist()), tuple(a.tolist()), int(bins))


def score_binning(data: Any, column: str, bins: int, *, spread: bool = False, head: Any = None) -> np.ndarray | Knots:
    """How the engine bins ``column`` into ``bins`` bins: increasing edges (:func:`score_edges`), or on
    Spark :class:`Knots` (from the first :data:`KNOT_SAMPLE` rows, or with ``spread`` from a hashed
    sample of all rows: a pass more, taken when the first rows were unlike the rest). ``head``: Spark's
    first rows, of at least this column and :data:`KNOT_SAMPLE` rows (or all), already read
    (:func:`glance`).

    >>> import pandas as pd
    >>> score_binning(pd.DataFrame({"s": [0.1, 0.2, 0.3, 0.4]}), "s", 2).tolist()  # numpy's "lower" quantiles
    [0.1, 0.2]
    """
    frame = to_narwhals(data)
    if engine_name(frame) != "spark":
        return score_edges(frame, column, bins)
    from pyspark.sql import functions as F

    from .spark import _native, _to_numpy

    df = _native(frame)
    if spread:
        rows = df.count()  # no filter: Spark counts without reading a column where it can
        fraction = min(1.0, KNOT_SAMPLE / max(rows, 1))
        ticket = F.pmod(F.xxhash64(F.monotonically_increasing_id(), F.lit("confusionlab")), F.lit(1 << 30))
        sample = df.select(column).where(ticket < F.lit(int(fraction * (1 << 30))))
    elif head is not None:
        x = np.asarray(head.slice(0, KNOT_SAMPLE).column(column).to_numpy(zero_copy_only=False), dtype=np.float64)
        return knots_from_sample(x, bins)
    else:
        sample = df.select(column).limit(KNOT_SAMPLE)
    x = _to_numpy(sample, column)  # missing values arrive as NaN and are left out with the infinite ones
    return knots_from_sample(x, bins)


def _scalar(v: Any) -> Any:
    return v.item() if isinstance(v, np.generic) else v


def _missing_free(frame: Any, column: str) -> Any:
    import narwhals as nw

    from . import missing_expr

    schema = frame.collect_schema()
    return frame.filter(~missing_expr(column, schema)).select(nw.col(column))


def score_edges(data: Any, column: str, bins: int) -> np.ndarray:
    """Increasing quantile edges of ``column`` for ``bins`` bins of about equal counts, computed by the engine.

    The edges are the column's quantiles at 0, 1/bins, …, (bins − 1)/bins (missing values
    left out), duplicates merged: bin ``j`` holds the values from ``edges[j]`` up to
    ``edges[j + 1]`` (the first bin also anything below ``edges[0]``). Spark: a
    Bernoulli sample of about :data:`SAMPLE_PER_BIN` values per bin drawn by Spark (the only
    scores that leave the cluster; Spark's own ``approxQuantile`` took 4-5 s per 10⁶ rows,
    3-5× the count) and its sample quantiles; Dask: its approximate
    ``quantile`` over about one partition in eight, spread evenly (at least two; a fraction
    of a pass, so that binning costs little more than the count: the bins are about equal
    when the partitions are alike, and the stated AUC bound is exact for any bins); every
    other engine: the exact sample quantiles (numpy's "lower").

    >>> import pandas as pd
    >>> score_edges(pd.DataFrame({"s": [0.1, 0.2, 0.3, 0.4, None]}), "s", 2).tolist()
    [0.1, 0.2]
    """
    frame = to_narwhals(data)
    probs = np.arange(bins) / bins
    engine = engine_name(frame)
    import narwhals as nw

    if engine == "spark":
        from .spark import _missing, _native

        df = _native(frame).where(~_missing(_native(frame), column)).select(column)
        rows = df.count()
        if rows == 0:
            return np.zeros(0)
        fraction = min(1.0, SAMPLE_PER_BIN * bins / rows)
        if fraction < 1.0:
            # rows chosen by a hash of their position, not by Spark's sampler: its generator is the
            # one of F.rand, so sample(seed=s) keeps exactly the rows where a column rand(s) is small
            from pyspark.sql import functions as F

            ticket = F.pmod(F.xxhash64(F.monotonically_increasing_id(), F.lit("confusionlab")), F.lit(1 << 30))
            sample = df.where(ticket < F.lit(int(fraction * (1 << 30))))
        else:
            sample = df
        x = (
            np.asarray(sample.toArrow().column(column).to_numpy(), dtype=np.float64)
            if hasattr(sample, "toArrow")
            else np.asarray([r[0] for r in sample.collect()], dtype=np.float64)
        )
        values = np.quantile(x, probs, method="lower") if x.size else np.zeros(0)
    elif engine == "dask":
        ddf = nw.to_native(frame)
        parts = ddf.npartitions
        if parts > 2:  # about one partition in eight, spread evenly: a fraction of a pass
            keep = np.unique(np.linspace(0, parts - 1, num=max(2, -(-parts // 8))).round().astype(int))
            ddf = ddf.partitions[keep.tolist()]
        s = ddf[column]
        s = s[~s.isna()]
        values = np.asarray(s.quantile(probs.tolist()).compute(), dtype=np.float64)
    else:
        part = _missing_free(frame, column)
        part = part.collect() if isinstance(part, nw.LazyFrame) else part
        x = part[column].to_numpy().astype(np.float64)
        if x.size == 0:
            return np.zeros(0)
        values = np.quantile(x, probs, method="lower")
    return np.unique(values[np.isfinite(values)])


def distinct_at_most(data: Any, column: str, limit: int) -> int:
    """The number of distinct non-missing values of ``column``, counted by the engine, or ``limit + 1`` if more.

    Only Spark and Dask frames are counted here (the in-memory engines count their table
    at once, then check it): a column with more distinct values than ``limit`` would
    bring that many cells to the client.

    >>> import pandas as pd
    >>> distinct_at_most(pd.DataFrame({"s": [0.1, 0.2, 0.2]}), "s", 10)
    2
    """
    frame = to_narwhals(data)
    engine = engine_name(frame)
    import narwhals as nw

    if engine == "spark":
        from .spark import _missing, _native

        df = _native(frame)
        return int(df.where(~_missing(df, column)).select(column).distinct().limit(limit + 1).count())
    if engine == "dask":
        s = nw.to_native(frame)[column]
        return min(int(s.dropna().nunique().compute()), limit + 1)
    part = _missing_free(frame, column).unique()
    part = part.collect() if isinstance(part, nw.LazyFrame) else part
    return min(len(part), limit + 1)
