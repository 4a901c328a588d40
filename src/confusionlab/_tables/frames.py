"""Any dataframe as a narwhals frame, its columns, and the narwhals expressions every engine shares.

:func:`to_narwhals` wraps pandas, polars, pyarrow, DuckDB, Dask and PySpark frames;
:func:`check_columns` refuses a column that is not in the data, naming the argument;
:func:`missing_expr` is the one definition of a missing value (null, or NaN in a float
column). :func:`memory_score_edges` and :func:`memory_distinct_at_most` are the
in-memory engines' quantile edges and distinct count (pandas, polars, pyarrow, DuckDB).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._validation import InvalidParameterError

__all__ = [
    "check_columns",
    "collect",
    "column_names",
    "memory_distinct_at_most",
    "memory_percentiles",
    "memory_score_edges",
    "missing_expr",
    "to_narwhals",
]


def to_narwhals(data: Any) -> Any:
    """Wrap a pandas/polars/pyarrow/DuckDB/Dask/PySpark frame in narwhals (eager or lazy).

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


def collect(res: Any) -> Any:
    """A narwhals result, collected if it is lazy."""
    import narwhals as nw

    return res.collect() if isinstance(res, nw.LazyFrame) else res


def missing_expr(col: str, schema: Any) -> Any:
    """narwhals expression: the value in ``col`` is missing (null, or NaN in a float column)."""
    import narwhals as nw

    expr = nw.col(col).is_null()
    if schema[col].is_float():
        expr = expr | nw.col(col).is_nan()
    return expr


def _missing_free(frame: Any, column: str) -> Any:
    import narwhals as nw

    schema = frame.collect_schema()
    return frame.filter(~missing_expr(column, schema)).select(nw.col(column))


def memory_score_edges(frame: Any, column: str, bins: int) -> np.ndarray:
    """The exact sample quantiles (numpy's "lower") of ``column`` at 0, 1/bins, …, (bins − 1)/bins,
    missing values left out, duplicates and infinite edges dropped.

    >>> import pandas as pd
    >>> memory_score_edges(to_narwhals(pd.DataFrame({"s": [0.1, 0.2, 0.3, 0.4, None]})), "s", 2).tolist()
    [0.1, 0.2]
    """
    x = collect(_missing_free(frame, column))[column].to_numpy().astype(np.float64)
    if x.size == 0:
        return np.zeros(0)
    values = np.quantile(x, np.arange(bins) / bins, method="lower")
    return np.unique(values[np.isfinite(values)])


def memory_distinct_at_most(frame: Any, column: str, limit: int) -> int:
    """The number of distinct non-missing values of ``column``, or ``limit + 1`` if more.

    >>> import pandas as pd
    >>> memory_distinct_at_most(to_narwhals(pd.DataFrame({"s": [0.1, 0.2, 0.2]})), "s", 10)
    2
    """
    return min(len(collect(_missing_free(frame, column).unique())), limit + 1)


def memory_percentiles(frame: Any, column: str, percents: np.ndarray) -> np.ndarray:
    """``numpy.percentile`` (linear) of the non-missing values of ``column`` at ``percents``: the exact
    sample percentiles, value for value those of the same values as an array.

    >>> import pandas as pd
    >>> memory_percentiles(to_narwhals(pd.DataFrame({"s": [0.4, 0.1, None, 0.2]})), "s", [0, 50, 100]).tolist()
    [0.1, 0.2, 0.4]
    """
    x = collect(_missing_free(frame, column))[column].to_numpy().astype(np.float64)
    if x.size == 0:
        return np.zeros(0)
    with np.errstate(invalid="ignore"):  # infinite values (refused by the caller) make NaN percentiles
        return np.percentile(x, np.asarray(percents, dtype=np.float64))
