"""Count cells with one narwhals group-by: polars, pyarrow, DuckDB and other engines.

The keys and one missing-value flag per column read are grouped in a single query, so a
lazy engine (polars lazy, DuckDB) hands back only the small table, never rows. Rows with
a missing value form their own cells, which give the per-column missing counts and are
never part of the count table. The quantile edges and the distinct count are the
in-memory ones of :mod:`.frames`.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

import numpy as np

from .frames import collect, memory_distinct_at_most, memory_percentiles, memory_score_edges, missing_expr
from .request import Cells, CountRequest, Moments

__all__ = [
    "REMOTE",
    "count_cells",
    "distinct_at_most",
    "glance",
    "group_count",
    "head_distinct",
    "moment_cells",
    "percentiles",
    "score_binning",
    "score_edges",
]

#: The rows are in this process (or a local engine's): a count table is never too large to bring here.
REMOTE = False


class _Keys:
    """The keys of a request as narwhals expressions."""

    def values(self, column: str) -> Any:
        import narwhals as nw

        return nw.col(column)

    def bins(self, column: str, edges: Any) -> Any:  # pragma: no cover - binned requests go to pandas
        raise NotImplementedError("binning by search is no narwhals expression")

    def above(self, column: str, threshold: float) -> Any:
        import narwhals as nw

        return nw.col(column) > threshold

    def one_of(self, columns: tuple[str, ...], values: tuple[Any, ...]) -> Any:
        import narwhals as nw

        if len(columns) == 1:
            return nw.col(columns[0]).is_in(list(values))
        terms = [
            nw.all_horizontal(*[nw.col(c) == v for c, v in zip(columns, combo, strict=True)], ignore_nulls=False)
            for combo in values
        ]
        return nw.any_horizontal(*terms, ignore_nulls=False)


def count_cells(frame: Any, request: CountRequest) -> Cells:
    """The count table of ``request`` on a narwhals-wrapped frame.

    Examples
    --------
    >>> import pyarrow as pa
    >>> from confusionlab._tables import OneOf, Values, to_narwhals
    >>> t = pa.table({"y": [1, 0, None, 1], "s": ["F", "M", "M", None]})
    >>> c = count_cells(to_narwhals(t), CountRequest({"f": OneOf(("s",), ("F",)), "l": Values("y")}))
    >>> c.n, c.missing, c.dropped
    ([1, 1], {'s': 1, 'y': 1}, 2)
    """
    if request.bins:  # binning by search is no narwhals expression: the key columns alone, counted by pandas
        from .pandas import count_native

        return count_native(_pandas_part(frame, request.columns), request)
    return group_count(frame, request.key_columns(_Keys()), request.columns)


def _pandas_part(frame: Any, columns: Sequence[str]) -> Any:
    """The ``columns`` of ``frame`` alone as a pandas DataFrame (DuckDB's HUGEINT and decimals as whole ints)."""
    import narwhals as nw

    part = collect(frame.select(*columns))
    native = part.to_pandas()
    for name, dtype in part.schema.items():
        if dtype.is_decimal() or dtype in (nw.Int128, nw.UInt128):  # DuckDB's HUGEINT: Decimal objects
            native[name] = np.asarray(_whole_decimals(native[name].tolist()), dtype=object)
    return native


def moment_cells(frame: Any, request: CountRequest, moments: Moments) -> Cells:
    """The cells of ``request``, each with the :class:`Moments` of its rows: the key columns and
    ``moments.column`` alone, aggregated by pandas (a bin by search is no narwhals expression)."""
    from .pandas import moment_native

    columns = list(dict.fromkeys([*request.columns, moments.column]))
    return moment_native(_pandas_part(frame, columns), request, moments)


def percentiles(frame: Any, column: str, percents: np.ndarray) -> np.ndarray:
    """``numpy.percentile`` of the non-missing values of ``column`` at ``percents`` (exact, linear)."""
    return memory_percentiles(frame, column, percents)


def group_count(frame: Any, keys: dict[str, Any], columns: Sequence[str]) -> Cells:
    """Count the rows by the key expressions ``keys`` in one narwhals group-by.

    The missing values of each of ``columns`` are counted (rows with any of them form no
    cell: ``Cells.dropped``).
    """
    import narwhals as nw

    schema = frame.collect_schema()
    flags = {f"_m{i}": missing_expr(col, schema) for i, col in enumerate(columns)}
    work = frame
    if isinstance(frame, nw.DataFrame) and frame.implementation.is_polars():
        work = frame.lazy()  # one optimised query instead of eager step-by-step expressions
    names = [*keys, *flags]
    agg = collect(work.select(**keys, **flags).group_by(*names, drop_null_keys=False).agg(nw.len().alias("_n")))
    table = {k: _whole_decimals(agg[k].to_list()) for k in [*names, "_n"]}
    rows = ({k: column[i] for k, column in table.items()} for i in range(len(table["_n"])))
    return Cells.from_rows(rows, list(keys), columns, count="_n")


def distinct_at_most(frame: Any, column: str, limit: int) -> int:
    """The number of distinct non-missing values of ``column``, or ``limit + 1`` if more."""
    return memory_distinct_at_most(frame, column, limit)


def score_edges(frame: Any, column: str, bins: int) -> np.ndarray:
    """Increasing quantile edges of ``column`` for ``bins`` bins: the exact sample quantiles."""
    return memory_score_edges(frame, column, bins)


def score_binning(frame: Any, column: str, bins: int, *, sample: int, spread: bool, head: Any) -> np.ndarray:
    """How ``column`` is binned into ``bins`` bins: its quantile edges (:func:`score_edges`)."""
    return score_edges(frame, column, bins)


def glance(frame: Any, columns: Sequence[str], rows: int) -> None:
    """None: the rows are at hand, a glance at the first ones would save nothing."""
    return None


def head_distinct(frame: Any, columns: Sequence[str], rows: int, head: Any) -> None:
    """None: the table is counted first and checked after."""
    return None


def _whole_decimals(values: list[Any]) -> list[Any]:
    """Whole ``Decimal`` values as ints (DuckDB hands HUGEINT and sums as Decimal); others unchanged.

    >>> from decimal import Decimal
    >>> _whole_decimals([Decimal(2) ** 70, Decimal("0.5"), "a", None])
    [1180591620717411303424, Decimal('0.5'), 'a', None]
    """
    return [int(v) if isinstance(v, Decimal) and v.is_finite() and v == v.to_integral_value() else v for v in values]
