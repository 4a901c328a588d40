"""Count cells on a PySpark DataFrame: one ``groupBy(...).count()`` in Spark.

The key expressions (facet d?, label, prediction, group) and one missing-value
flag per key column are computed by Spark column expressions and grouped in a
single aggregation; only the small count table (a few dozen rows) is collected
to the driver, never a row of the data. Rows with a missing key value (null,
or NaN in a floating-point column) form their own cells, which give the
per-column missing counts and are never part of the table, exactly as in the
other engines.

:func:`count_cells` is the engine interface of :mod:`confusionlab.bias.engines`,
what :func:`confusionlab.bias.report` and :func:`confusionlab.bias.audit` both
use (an audit asks for every facet column at once, so an audit of many groups is
one Spark job). pyspark is imported only when a Spark frame arrives (the
``spark`` extra).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..selection import FacetSelection
from . import Cells, CountRequest, TooManyCells

__all__ = ["count_cells", "is_spark", "local_spark_session"]


def local_spark_session(app_name: str = "confusionlab", cores: int = 2, **config: str) -> Any:
    """A local SparkSession on ``cores`` cores, as the tests and benchmarks start it: UI and progress
    bar off, bound to 127.0.0.1, ``cores`` shuffle partitions, the workers on this Python.

    ``config`` adds Spark settings (dots as ``__``: ``spark__driver__memory="4g"``). The caller
    stops the session (``session.stop()``). Needs pyspark (the ``spark`` extra) and Java 17.

    >>> callable(local_spark_session)
    True
    """
    import sys

    from pyspark.sql import SparkSession

    builder = (
        SparkSession.builder.master(f"local[{cores}]")
        .appName(app_name)
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", str(cores))
        .config("spark.default.parallelism", str(cores))
        .config("spark.pyspark.python", sys.executable)  # Python workers (UDFs) run this interpreter
    )
    for key, value in config.items():
        builder = builder.config(key.replace("__", "."), value)
    session = builder.getOrCreate()
    session.sparkContext.setLogLevel("ERROR")
    return session


def is_spark(data: Any) -> bool:
    """Whether ``data`` is a PySpark DataFrame (classic or Spark Connect), without importing pyspark.

    Examples
    --------
    >>> import pandas as pd
    >>> is_spark(pd.DataFrame({"a": [1]}))
    False
    """
    return any(c.__module__.startswith("pyspark.sql") and c.__name__ == "DataFrame" for c in type(data).__mro__)


def _native(frame: Any) -> Any:
    import narwhals as nw

    return nw.to_native(frame) if isinstance(frame, (nw.DataFrame, nw.LazyFrame)) else frame


def _missing_sql(df: Any, col: str) -> str:
    """Spark SQL boolean: the value in ``col`` is missing (null, or NaN in a float column)."""
    from pyspark.sql.types import DoubleType, FloatType

    name = _sql_name(col)
    if isinstance(df.schema[col].dataType, (DoubleType, FloatType)):
        return f"({name} IS NULL OR isnan({name}))"
    return f"({name} IS NULL)"


def _missing(df: Any, col: str) -> Any:
    """:func:`_missing_sql` as a Spark column."""
    from pyspark.sql import functions as F

    return F.expr(_missing_sql(df, col))


def _to_numpy(df: Any, column: str) -> Any:
    """One column of a (small) Spark frame as a float64 numpy array (Arrow where Spark has it)."""
    import numpy as np

    if hasattr(df, "toArrow"):
        return np.asarray(df.toArrow().column(column).to_numpy(zero_copy_only=False), dtype=np.float64)
    rows = df.select(column).collect()  # pragma: no cover - Spark < 4
    return np.asarray([np.nan if r[0] is None else r[0] for r in rows], dtype=np.float64)  # pragma: no cover


def _sql_double(v: float) -> str:
    """``v`` as an exact Spark SQL DOUBLE literal: Python's shortest round-trip ``repr`` and the ``D``
    suffix (Spark parses it with Java's ``Double.parseDouble``), ±inf and NaN as casts of their names.

    >>> _sql_double(0.1), _sql_double(-5e-324), _sql_double(float("-inf"))
    ('(0.1D)', '(-5e-324D)', "CAST('-Infinity' AS DOUBLE)")
    """
    v = float(v)
    if math.isnan(v):
        return "CAST('NaN' AS DOUBLE)"
    if math.isinf(v):
        return f"CAST('{'-' if v < 0 else ''}Infinity' AS DOUBLE)"
    return f"({v!r}D)"


def _sql_array(values: Any, kind: str = "DOUBLE") -> str:
    """A constant Spark SQL array of ``values`` (``kind``: ``DOUBLE`` or ``INT``): one string literal,
    split and cast, which Spark folds to one array literal before it runs (building the grid from
    ``array(v0, v1, …)`` of 4,096 literals took the driver 0.3–0.4 s of analysis, this 0.1–0.2 s).
    The doubles are written as ``repr`` (shortest round-trip; ``Infinity``, ``-Infinity``, ``NaN``),
    which the cast parses exactly (Java's ``Double.parseDouble``).

    >>> _sql_array([0.1, float("inf"), -0.0])
    "CAST(split('0.1,Infinity,-0.0', ',') AS ARRAY<DOUBLE>)"
    >>> _sql_array([3, -1], "INT")
    "CAST(split('3,-1', ',') AS ARRAY<INT>)"
    """

    def text(v: Any) -> str:
        if kind == "INT":
            return str(int(v))
        v = float(v)
        if math.isnan(v):
            return "NaN"
        return ("-" if v < 0 else "") + "Infinity" if math.isinf(v) else repr(v)

    return f"CAST(split('{','.join(map(text, values))}', ',') AS ARRAY<{kind}>)"


def _sql_name(col: str) -> str:
    """``col`` quoted as a Spark SQL identifier (backticks, a backtick in the name doubled)."""
    return "`" + col.replace("`", "``") + "`"


def _knots_tree(x: str, knots: Any, leaf: Any) -> str:
    """The binary search of CASEs over the knot intervals of :class:`~.table.Knots` (log2(knots)
    comparisons of the SQL double ``x``), ``leaf(i)`` on interval ``i``: numpy's
    ``clip(searchsorted(x, s, "right") − 1, 0, len(x) − 2)``."""

    def tree(lo: int, hi: int) -> str:  # the knot intervals lo … hi − 1
        if hi - lo <= 1:
            return leaf(lo)
        mid = (lo + hi) // 2
        return f"CASE WHEN {x} < {_sql_double(knots.x[mid])} THEN {tree(lo, mid)} ELSE {tree(mid, hi)} END"

    return tree(0, max(len(knots.x) - 1, 1))


def _knots_bin_sql(col: str, knots: Any, line: str | None = None) -> str:
    """The bin of :class:`~.table.Knots` as one Spark SQL expression of nested ``CASE``s (generated
    code, no function call per row).

    The same arithmetic as :meth:`Knots.bin_of`: ``c[i] + (x − x[i])·a[i]`` on the knot interval
    ``[x[i], x[i + 1])`` (found by a binary search of CASEs, :func:`_knots_tree`, or given as the SQL
    ``line``), clamped to ``[0, bins − 1]`` before the floor (so no value overflows a long, ANSI mode or
    not); infinite scores → −1. Every number is an exact DOUBLE literal (:func:`_sql_double`); sent
    as one string, it is one call to the JVM, where a tree of ``Column`` objects is a py4j call per node.
    """
    x = f"CAST({_sql_name(col)} AS DOUBLE)"
    lit = _sql_double

    def leaf(i: int) -> str:
        return f"({lit(knots.c[i])} + ({x} - {lit(knots.x[i])}) * {lit(knots.a[i])})"

    top = lit(float(knots.bins - 1))
    u = f"CASE WHEN {x} >= {lit(knots.x[-1])} THEN {top} ELSE {line or _knots_tree(x, knots, leaf)} END"
    clamped = f"LEAST(GREATEST({u}, {lit(0.0)}), {top})"
    infinite = f"{x} = {lit(float('inf'))} OR {x} = {lit(float('-inf'))}"
    return f"CASE WHEN {infinite} THEN -1 ELSE CAST(FLOOR({clamped}) AS INT) END"


def _knots_bin(col: str, knots: Any) -> Any:
    """:func:`_knots_bin_sql` as a Spark column."""
    from pyspark.sql import functions as F

    return F.expr(_knots_bin_sql(col, knots))


#: Cells of the uniform grid over the knots' range that finds a score's knot interval (:func:`_grid_bin_items`).
GRID_CELLS = 4096


def _grid_cell(x: Any, x0: float, scale: float) -> Any:
    """The grid cell of each score in ``x`` (numpy), the arithmetic :func:`_grid_bin_items` has Spark do."""
    import numpy as np

    with np.errstate(invalid="ignore", over="ignore"):
        return np.floor(np.minimum(np.maximum((x - x0) * scale, 0.0), GRID_CELLS - 1.0)).astype(np.int64)


def _grid_bin_items(col: str, knots: Any) -> list[str] | None:
    """Spark SQL select items (for ``selectExpr``, each naming the one before it: lateral column
    aliases ``_b``, ``_i``) whose last, ``_bin``, is :meth:`Knots.bin_of` of the double column ``col``,
    the knot interval found by a uniform grid of :data:`GRID_CELLS` cells over ``[x[0], x[-1]]`` (a
    look-up of the cell, one of a knot, one comparison) instead of the binary search of
    :func:`_knots_bin_sql` (whose CASE tree dominated the count). None (then the CASE tree) when a cell
    holds two inner knots or more (scores below the second knot are in the first interval, at or above
    the last in the last bin), or the knots' range gives no finite positive scale.

    A score's cell, ``floor(clamp((x − x[0])·scale))``, is non-decreasing in the score, and the knots'
    own cells are computed here with the same double arithmetic (:func:`_grid_cell`): the knots in
    cells below a score's are at most the score, those above exceed it, so only the knot in the
    score's own cell needs a comparison: with ``_b`` the inner knots in the cells below the score's
    (looked up per cell), its interval is ``_b``, or one more if it reaches ``x[_b + 1]``, the next
    inner knot (the cell's own if it has one, else one of a higher cell, above the score). The
    interval is then numpy's ``clip(searchsorted(x, s, "right") − 1, 0, len(x) − 2)`` and the rest the same
    arithmetic, so the bins are identical. One select (one analysis by Spark's driver), the cell's first
    interval and the score's interval each computed once and read by the items after them.
    """
    import numpy as np

    x = np.asarray(knots.x, dtype=np.float64)
    if x.size < 2:
        return None
    with np.errstate(over="ignore", divide="ignore"):
        scale = float(GRID_CELLS / (x[-1] - x[0]))
    if not (math.isfinite(scale) and scale > 0.0):
        return None
    own = _grid_cell(x[1:-1], float(x[0]), scale)  # the inner knots' cells
    if np.any(np.diff(own) == 0):
        return None
    below = np.searchsorted(own, np.arange(GRID_CELLS), "left")  # per cell: the inner knots in the cells below it
    lit, name = _sql_double, _sql_name(col)
    t = f"({name} - {lit(x[0])}) * {lit(scale)}"
    xs = _sql_array(x)
    cell = f"CAST(FLOOR(LEAST(GREATEST({t}, {lit(0.0)}), {lit(GRID_CELLS - 1.0)})) AS INT)"
    first = f"{_sql_array(below.tolist(), 'INT')}[{cell}] AS _b"
    # the next inner knot, x[_b + 1]: the cell's own if it has one, else one of a higher cell (above the score)
    interval = f"LEAST(_b + CAST({name} >= {xs}[_b + 1] AS INT), {x.size - 2}) AS _i"
    line = f"{_sql_array(knots.c)}[_i] + ({name} - {xs}[_i]) * {_sql_array(knots.a)}[_i]"
    return [first, interval, f"{_knots_bin_sql(col, knots, line)} AS _bin"]


def _facet(sel: FacetSelection) -> Any:
    from pyspark.sql import functions as F

    if sel.threshold is not None:
        return F.col(sel.columns[0]) > F.lit(sel.threshold)
    if len(sel.columns) == 1:
        return F.col(sel.columns[0]).isin(list(sel.values or ()))
    expr = F.lit(False)
    for combo in sel.values or ():
        term = F.lit(True)
        for c, v in zip(sel.columns, combo, strict=True):
            term = term & (F.col(c) == F.lit(v))
        expr = expr | term
    return expr


def _aggregate(
    df: Any,
    keys: dict[str, Any],
    checked: Sequence[tuple[str, str]],
    columnar: bool = False,
    lows: dict[str, str] | None = None,
    max_cells: int | None = None,
) -> Cells:
    """One ``groupBy(keys + missing flags).count()`` (with ``lows``, name → column: each cell's smallest
    value of that column, too); the cells collected and split by missingness."""
    from pyspark.sql import functions as F

    flags = {f"_m{i}": _missing(df, col) for i, (_, col) in enumerate(checked)}
    names = [*keys, *flags]
    # Keys of rows with a missing value are nulled so that they collapse into one cell per pattern.
    any_missing = F.lit(False)
    for f in flags.values():
        any_missing = any_missing | f
    cols = [F.when(any_missing, F.lit(None)).otherwise(e).alias(k) for k, e in keys.items()]
    cols += [f.alias(k) for k, f in flags.items()]
    lows = lows or {}
    cols += [F.col(c).cast("double").alias(f"_v{k}") for k, c in lows.items()]
    grouped = df.select(*cols).groupBy(*names)
    if lows:
        table = grouped.agg(F.count(F.lit(1)).alias("count"), *(F.min(f"_v{k}").alias(k) for k in lows))
    else:
        table = grouped.count()
    out = [*keys, *lows]
    if max_cells is not None:  # never more than that many rows to the driver
        table = table.limit(max_cells + 1)
    if columnar and hasattr(table, "toArrow"):  # Spark >= 4: one Arrow batch, no Row objects
        arrow = table.toArrow()
        if max_cells is not None and arrow.num_rows > max_cells:
            raise TooManyCells(max_cells)
        columns = {k: arrow.column(k).to_pylist() for k in [*names, *lows, "count"]}
        rows = ({k: v[i] for k, v in columns.items()} for i in range(arrow.num_rows))
        return Cells.from_rows(rows, out, checked, count="count")
    rows = table.collect()
    if max_cells is not None and len(rows) > max_cells:
        raise TooManyCells(max_cells)
    return Cells.from_rows(rows, out, checked, count="count")


#: The packed key of a row whose label is missing (:func:`_count_packed`; one more if its score is
#: missing too): below every ``label · stride + code`` of a 32-bit label.
MISSING_LABEL_KEY = -(2**63)


def _packable(df: Any, request: CountRequest) -> Any:
    """The :class:`~.table.Knots` of ``request`` when it is (label, one score binned by them) with a
    label of at most 32 bits (boolean or integer), the cells handed over as Arrow: what
    :func:`_count_packed` counts. None otherwise."""
    from pyspark.sql.types import BooleanType, ByteType, IntegerType, ShortType

    from .table import Knots

    if len(request.bins) != 1 or not request.columnar or not hasattr(df, "toArrow"):
        return None
    col, knots = request.bins[0]
    simple = request.facet is None and request.predicted is None and request.group is None and not request.dropna
    if not (isinstance(knots, Knots) and simple and request.labels.threshold is None):
        return None
    if request.facets != (col,) or request.label == col:
        return None
    label_type = df.schema[request.label].dataType
    return knots if isinstance(label_type, (BooleanType, ByteType, ShortType, IntegerType)) else None


def _count_packed(df: Any, request: CountRequest, knots: Any) -> Cells:
    """The cells of (label, score binned by ``knots``) grouped by one long key per row,
    ``label · stride + code`` (``stride = bins + 3``; the code is the bin, −1 for an infinite
    score, −2 for a missing one; a missing label: :data:`MISSING_LABEL_KEY`, plus one if the score
    is missing too), each cell's count and smallest score, collected as Arrow and split by numpy.

    The same cells as :func:`_aggregate` (keys ``_l``, ``_k0``, ``_lo0``), at less cost: one long key
    instead of a tuple of keys and missing flags, and no Python object per cell (10⁷ rows, local[2],
    the CASE tree in both: 2.1–3.0 s → 1.3–1.6 s).
    """
    import numpy as np
    from pyspark.sql import functions as F
    from pyspark.sql.types import BooleanType

    label, score = request.label, request.bins[0][0]
    stride = knots.bins + 3
    rows = df.selectExpr(
        f"{_missing_sql(df, label)} AS ml",
        f"{_missing_sql(df, score)} AS ms",
        f"CAST({_sql_name(label)} AS BIGINT) AS l",
        f"CAST({_sql_name(score)} AS DOUBLE) AS v",
    )
    items = _grid_bin_items("v", knots) or [f"{_knots_bin_sql('v', knots)} AS _bin"]
    unlabelled = f"CAST({MISSING_LABEL_KEY + 1} AS BIGINT) - 1 + CAST(ms AS BIGINT)"  # −2⁶³ is no SQL literal
    code = "CAST(CASE WHEN ms THEN -2 ELSE _bin END AS BIGINT)"
    key = f"CASE WHEN ml THEN {unlabelled} ELSE l * {stride} + {code} END AS key"
    rows = rows.selectExpr(*items, key, "v")  # one select: the items name the ones before them
    table = rows.groupBy("key").agg(F.count(F.lit(1)).alias("count"), F.min("v").alias("low"))
    if request.max_cells is not None:  # never more than that many rows to the driver
        table = table.limit(request.max_cells + 1)
    arrow = table.toArrow()
    if request.max_cells is not None and arrow.num_rows > request.max_cells:
        raise TooManyCells(request.max_cells)
    keys = np.asarray(arrow.column("key").to_numpy(zero_copy_only=False), dtype=np.int64)
    n = np.asarray(arrow.column("count").to_numpy(zero_copy_only=False), dtype=np.int64)
    low = np.asarray(arrow.column("low").to_numpy(zero_copy_only=False), dtype=np.float64)
    no_label = keys <= MISSING_LABEL_KEY + 1
    codes = (keys + 2) % stride - 2
    no_score = (~no_label & (codes == -2)) | (keys == MISSING_LABEL_KEY + 1)
    cell = ~no_label & ~no_score
    y = (keys[cell] - codes[cell]) // stride
    values = y.astype(bool) if isinstance(df.schema[label].dataType, BooleanType) else y
    missing = {label: int(n[no_label].sum()), score: int(n[no_score].sum())}
    return Cells(
        {"_l": values.tolist(), "_k0": codes[cell].tolist(), "_lo0": low[cell].tolist()},
        n[cell].tolist(),
        {c: m for c, m in missing.items() if m},
        int(n[~cell].sum()),
    )


def count_cells(frame: Any, request: CountRequest) -> Cells:
    """The count table of ``request`` on a (narwhals-wrapped) PySpark DataFrame, in one aggregation.

    Parameters
    ----------
    frame : narwhals LazyFrame or pyspark.sql.DataFrame
    request : CountRequest

    Returns
    -------
    Cells
        The same cells as the pandas engine (:mod:`.pandas`) on the same rows.

    Examples
    --------
    Spark needs a running session; see ``tests/bias/test_spark.py``. The
    dispatch needs none:

    >>> from confusionlab.bias.engines import spark
    >>> spark.count_cells.__module__
    'confusionlab.bias.engines.spark'
    """
    from pyspark.sql import functions as F

    from .table import Knots

    df = _native(frame)
    knots = _packable(df, request)
    if knots is not None:
        return _count_packed(df, request, knots)
    binned: dict[str, str] = {}
    lows: dict[str, str] = {}
    for i, (col, edges) in enumerate(request.bins):
        binned[col] = f"_bin{i}"
        if isinstance(edges, Knots):  # one CASE of a few dozen knots, and each cell's smallest score
            df = df.withColumn(binned[col], _knots_bin(col, edges))
            lows[f"_lo{i}"] = col
            continue
        from pyspark.ml.feature import Bucketizer  # Spark's own binary search over the edges, in the JVM

        if not edges:  # one bin
            df = df.withColumn(binned[col], F.lit(0))
            continue
        splits = [float("-inf"), *map(float, edges), float("inf")]
        df = Bucketizer(splits=splits, inputCol=col, outputCol=binned[col], handleInvalid="keep").transform(df)

    def bucket(name: str, edges: tuple[float, ...]) -> Any:
        return F.col(binned[name]).cast("int")

    keys = request.key_columns(F.col, _facet, lambda column, threshold: column > F.lit(threshold), bucket)
    return _aggregate(df, keys, request.checked, request.columnar, lows, request.max_cells)
