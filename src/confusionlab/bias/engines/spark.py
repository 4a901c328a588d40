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

from collections.abc import Sequence
from typing import Any

from ..selection import FacetSelection
from . import Cells, CountRequest

__all__ = ["count_cells", "is_spark"]


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


def _missing(df: Any, col: str) -> Any:
    """Spark boolean column: the value in ``col`` is missing (null, or NaN in a float column)."""
    from pyspark.sql import functions as F
    from pyspark.sql.types import DoubleType, FloatType

    expr = F.col(col).isNull()
    if isinstance(df.schema[col].dataType, (DoubleType, FloatType)):
        expr = expr | F.isnan(F.col(col))
    return expr


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


def _aggregate(df: Any, keys: dict[str, Any], checked: Sequence[tuple[str, str]], columnar: bool = False) -> Cells:
    """One ``groupBy(keys + missing flags).count()``; the cells collected and split by missingness."""
    from pyspark.sql import functions as F

    flags = {f"_m{i}": _missing(df, col) for i, (_, col) in enumerate(checked)}
    names = [*keys, *flags]
    # Keys of rows with a missing value are nulled so that they collapse into one cell per pattern.
    any_missing = F.lit(False)
    for f in flags.values():
        any_missing = any_missing | f
    cols = [F.when(any_missing, F.lit(None)).otherwise(e).alias(k) for k, e in keys.items()]
    cols += [f.alias(k) for k, f in flags.items()]
    table = df.select(*cols).groupBy(*names).count()
    if columnar and hasattr(table, "toArrow"):  # Spark >= 4: one Arrow batch, no Row objects
        arrow = table.toArrow()
        columns = {k: arrow.column(k).to_pylist() for k in [*names, "count"]}
        rows = ({k: v[i] for k, v in columns.items()} for i in range(arrow.num_rows))
        return Cells.from_rows(rows, list(keys), checked, count="count")
    return Cells.from_rows(table.collect(), list(keys), checked, count="count")


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

    df = _native(frame)
    binned: dict[str, str] = {}
    for i, (col, edges) in enumerate(request.bins):  # Spark's own binary search over the edges, in the JVM
        from pyspark.ml.feature import Bucketizer

        binned[col] = f"_bin{i}"
        if not edges:  # one bin
            df = df.withColumn(binned[col], F.lit(0))
            continue
        splits = [float("-inf"), *map(float, edges), float("inf")]
        df = Bucketizer(splits=splits, inputCol=col, outputCol=binned[col], handleInvalid="keep").transform(df)

    def bucket(name: str, edges: tuple[float, ...]) -> Any:
        return F.col(binned[name]).cast("int")

    keys = request.key_columns(F.col, _facet, lambda column, threshold: column > F.lit(threshold), bucket)
    return _aggregate(df, keys, request.checked, request.columnar)
