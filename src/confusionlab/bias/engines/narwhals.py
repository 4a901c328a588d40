"""Count cells with one narwhals group-by: polars, pyarrow, DuckDB and other engines.

The key expressions (facet d?, label, prediction, group) and one missing-value
flag per key column are grouped in a single query, so a lazy engine (polars
lazy, DuckDB) hands back only the small table, never rows. Rows with a missing
key value form their own cells, which give the per-column missing counts and
are never part of the count table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import Cells, CountRequest, facet_expr, missing_expr

__all__ = ["count_cells", "group_count"]


def count_cells(frame: Any, request: CountRequest) -> Cells:
    """The count table of ``request`` on a narwhals-wrapped frame (see :mod:`confusionlab.bias.engines`).

    Examples
    --------
    >>> import pyarrow as pa
    >>> from confusionlab.bias.engines import to_narwhals
    >>> from confusionlab.bias.selection import facet_selection, label_selection
    >>> t = pa.table({"y": [1, 0, None, 1], "s": ["F", "M", "M", None]})
    >>> req = CountRequest("y", label_selection([1]), facet_selection("s", ["F"]))
    >>> c = count_cells(to_narwhals(t), req)
    >>> c.n, c.missing, c.dropped
    ([1, 1], {'y': 1, 's': 1}, 2)
    """
    import narwhals as nw

    if request.bins:  # binning by search is no narwhals expression: the key columns alone, counted by pandas
        from .pandas import count_native

        columns = list(dict.fromkeys(col for _, col in request.checked))
        part = frame.select(*columns)
        part = part.collect() if isinstance(part, nw.LazyFrame) else part
        return count_native(part.to_pandas(), request)
    keys = request.key_columns(nw.col, facet_expr, lambda column, threshold: column > threshold)
    return group_count(frame, keys, request.checked)


def group_count(frame: Any, keys: dict[str, Any], checked: Sequence[tuple[str, str]]) -> Cells:
    """Count the rows by the key expressions ``keys`` in one narwhals group-by.

    ``checked`` lists ``(argument, column)`` pairs whose missing values are counted per
    column (rows with any of them form no cell: ``Cells.dropped``).
    """
    import narwhals as nw

    schema = frame.collect_schema()
    flags = {f"_m{i}": missing_expr(col, schema) for i, (_, col) in enumerate(checked)}
    work = frame
    if isinstance(frame, nw.DataFrame) and frame.implementation.is_polars():
        work = frame.lazy()  # one optimised query instead of eager step-by-step expressions
    names = [*keys, *flags]
    agg = work.select(**keys, **flags).group_by(*names, drop_null_keys=False).agg(nw.len().alias("_n"))
    if isinstance(agg, nw.LazyFrame):
        agg = agg.collect()
    table = {k: agg[k].to_list() for k in [*names, "_n"]}
    rows = ({k: column[i] for k, column in table.items()} for i in range(len(table["_n"])))
    return Cells.from_rows(rows, list(keys), checked, count="_n")
