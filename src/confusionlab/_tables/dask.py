"""Count cells on a Dask DataFrame: the pandas counter on each partition, summed here.

A tree of small tables instead of a shuffling group-by: each partition returns
at most a few dozen rows (its cells, and one row per column with missing
values), and nothing else leaves the workers; each partition leaves out its own rows
with missing values. Quantile edges come from Dask's approximate ``quantile`` over a few
partitions, the first rows from the first partition.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .request import Cells, CountRequest, Moments, TooManyCells

__all__ = [
    "REMOTE",
    "count_cells",
    "distinct_at_most",
    "glance",
    "head_distinct",
    "moment_cells",
    "percentiles",
    "score_binning",
    "score_edges",
]

#: The rows are on the workers: columns of too many values are refused before a table is brought here.
REMOTE = True

_KIND = "_kind"  # "cell", "missing" (of the column in _COL) or "dropped"
_COL = "_col"


def count_cells(frame: Any, request: CountRequest) -> Cells:
    """The count table of ``request`` on a narwhals-wrapped Dask frame.

    Examples
    --------
    >>> import dask.dataframe as dd, pandas as pd
    >>> from confusionlab._tables import OneOf, Values, to_narwhals
    >>> df = pd.DataFrame({"y": [1, 0, None, 1], "s": ["F", "M", "M", "F"]})
    >>> req = CountRequest({"f": OneOf(("s",), ("F",)), "l": Values("y")})
    >>> c = count_cells(to_narwhals(dd.from_pandas(df, npartitions=2)), req)
    >>> sum(c.n), c.missing, c.dropped     # cells of each partition; the caller adds them up
    (3, {'y': 1}, 1)
    """
    import narwhals as nw
    import pandas as pd

    from .pandas import count_native

    ddf = nw.to_native(frame)
    if request.columnar:
        return _tree_sum(ddf, request)
    names = [*request.names, _KIND, _COL, "_n"]
    meta = pd.DataFrame({c: pd.Series(dtype=object if c != "_n" else np.int64) for c in names})

    def partial(pdf: Any) -> Any:
        cells = count_native(pdf, request)
        dropped = [cells.dropped] if cells.dropped else []  # only rows that carry information
        extra = len(cells.missing) + len(dropped)
        rows: dict[str, list[Any]] = {k: list(v) + [None] * extra for k, v in cells.keys.items()}
        rows[_KIND] = ["cell"] * len(cells.n) + ["missing"] * len(cells.missing) + ["dropped"] * len(dropped)
        rows[_COL] = [None] * (len(cells.n) + extra)
        rows[_COL][len(cells.n) : len(cells.n) + len(cells.missing)] = list(cells.missing)
        rows["_n"] = list(cells.n) + list(cells.missing.values()) + dropped
        return pd.DataFrame({c: pd.Series(rows[c], dtype=meta[c].dtype) for c in names})

    parts = ddf[request.columns].map_partitions(partial, meta=meta).compute()
    out = Cells({k: [] for k in request.names}, [])
    cols = {k: parts[k].tolist() for k in [*request.names, _KIND, _COL, "_n"]}
    for i, kind in enumerate(cols[_KIND]):
        n = int(cols["_n"][i])
        if kind == "cell":
            for k in request.names:
                out.keys[k].append(cols[k][i])
            out.n.append(n)
        elif kind == "missing":
            out.missing[cols[_COL][i]] = out.missing.get(cols[_COL][i], 0) + n
        else:
            out.dropped += n
    return out


def _partial(pdf: Any, request: CountRequest) -> tuple[dict[tuple[Any, ...], int], dict[str, int], int]:
    """One partition's cells as ``{key tuple: rows}``, its missing counts and dropped rows."""
    from .pandas import count_native

    cells = count_native(pdf, request)
    if request.max_cells is not None and len(cells.n) > request.max_cells:
        raise TooManyCells(request.max_cells)  # on the worker: the table never travels
    keys = zip(*(cells.keys[k] for k in request.names), strict=True)
    return dict(zip(keys, cells.n, strict=True)), cells.missing, cells.dropped


def _merge(
    *parts: tuple[dict[tuple[Any, ...], int], dict[str, int], int], max_cells: int | None = None
) -> tuple[dict, dict, int]:
    cells: dict[tuple[Any, ...], int] = {}
    missing: dict[str, int] = {}
    dropped = 0
    for c, m, d in parts:
        for k, n in c.items():
            cells[k] = cells.get(k, 0) + n
        for k, n in m.items():
            missing[k] = missing.get(k, 0) + n
        dropped += d
        if max_cells is not None and len(cells) > max_cells:
            raise TooManyCells(max_cells)
    return cells, missing, dropped


def _moment_partial(pdf: Any, request: CountRequest, moments: Moments) -> tuple[dict, dict[str, int], int]:
    """One partition's cells as ``{key tuple: [rows, min, max, sum1, …]}``, its missing counts and dropped rows."""
    from .pandas import moment_native

    cells = moment_native(pdf, request, moments)
    if request.max_cells is not None and len(cells.n) > request.max_cells:
        raise TooManyCells(request.max_cells)  # on the worker: the table never travels
    keys = zip(*(cells.keys[k] for k in request.names), strict=True)
    stats = zip(cells.n, *(cells.moments[k] for k in moments.names), strict=True)
    return {key: list(row) for key, row in zip(keys, stats, strict=True)}, cells.missing, cells.dropped


def _moment_merge(*parts: tuple[dict, dict[str, int], int], max_cells: int | None = None) -> tuple[dict, dict, int]:
    """Partitions' cells with their moments, added up (the smallest of the minima, the largest of the maxima)."""
    cells: dict[tuple[Any, ...], list[Any]] = {}
    missing: dict[str, int] = {}
    dropped = 0
    for c, m, d in parts:
        for k, row in c.items():
            old = cells.get(k)
            if old is None:
                cells[k] = list(row)
                continue
            cells[k] = [old[0] + row[0], min(old[1], row[1]), max(old[2], row[2])]
            cells[k] += [a + b for a, b in zip(old[3:], row[3:], strict=True)]
        for k, n in m.items():
            missing[k] = missing.get(k, 0) + n
        dropped += d
        if max_cells is not None and len(cells) > max_cells:
            raise TooManyCells(max_cells)
    return cells, missing, dropped


def moment_cells(frame: Any, request: CountRequest, moments: Moments) -> Cells:
    """The cells of ``request``, each with the :class:`Moments` of its rows: each partition's table
    aggregated on its worker (:func:`~.pandas.moment_native`), the tables merged on the workers.

    >>> import dask.dataframe as dd, pandas as pd
    >>> from confusionlab._tables import Values, to_narwhals
    >>> ddf = dd.from_pandas(pd.DataFrame({"y": [1, 1, 0, 1], "q": [0.5, 0.25, 0.5, 1.0]}), npartitions=2)
    >>> c = moment_cells(to_narwhals(ddf), CountRequest({"l": Values("y")}), Moments("q", 1))
    >>> sorted(zip(c.keys["l"], c.n, c.moments["min"], c.moments["sum1"]))
    [(0, 1, 0.5, 0.5), (1, 3, 0.25, 1.75)]
    """
    import narwhals as nw

    columns = list(dict.fromkeys([*request.columns, moments.column]))
    cells, missing, dropped = _tree(
        nw.to_native(frame)[columns],
        lambda pdf: _moment_partial(pdf, request, moments),
        _moment_merge,
        request.max_cells,
        ({}, {}, 0),
    )
    keys = list(cells)
    rows = list(cells.values())
    out = Cells({k: [key[i] for key in keys] for i, k in enumerate(request.names)}, [int(r[0]) for r in rows])
    out.moments = {name: [float(r[1 + i]) for r in rows] for i, name in enumerate(moments.names)}
    out.missing, out.dropped = missing, dropped
    return out


def _tree(ddf: Any, partial: Any, merge: Any, max_cells: int | None, empty: Any, fan_in: int = 8) -> Any:
    """``partial`` of every partition on its worker, the results merged on the workers in a tree of
    ``fan_in`` (``merge(*parts, max_cells=…)``), so one result reaches the client."""
    import dask
    import pandas as pd

    def boxed(pdf: Any) -> Any:  # fused with the partition's own tasks: counted where it lives
        return pd.DataFrame({"t": pd.Series([partial(pdf)], dtype=object)})

    meta = pd.DataFrame({"t": pd.Series([], dtype=object)})
    parts = ddf.map_partitions(boxed, meta=meta).to_delayed()
    tasks = [dask.delayed(lambda frame: frame["t"].iloc[0])(part) for part in parts]
    while len(tasks) > 1:
        tasks = [dask.delayed(merge)(*tasks[i : i + fan_in], max_cells=max_cells) for i in range(0, len(tasks), fan_in)]
    return dask.compute(tasks[0])[0] if tasks else empty


def _tree_sum(ddf: Any, request: CountRequest) -> Cells:
    """A large table (the cells of scores): each partition's counted on its worker and the tables
    summed on the workers in a tree (:func:`_tree`), so one table reaches the client (not one per
    partition, which for 10⁴ score bins and 100 partitions is 2·10⁶ rows)."""
    cells, missing, dropped = _tree(
        ddf[request.columns], lambda pdf: _partial(pdf, request), _merge, request.max_cells, ({}, {}, 0)
    )
    keys = list(cells)
    out = Cells({k: [key[i] for key in keys] for i, k in enumerate(request.names)}, list(cells.values()))
    out.missing, out.dropped = missing, dropped
    return out


def percentiles(frame: Any, column: str, percents: np.ndarray) -> np.ndarray:
    """Percentiles of the non-missing values of ``column`` at ``percents``: Dask's approximate ``quantile``
    over every partition (the caller replaces the ends by the exact extremes of its table)."""
    import narwhals as nw

    s = nw.to_native(frame)[column]
    s = s[~s.isna()]
    probs = (np.asarray(percents, dtype=np.float64) / 100.0).tolist()
    return np.asarray(s.astype("float64").quantile(probs).compute(), dtype=np.float64)


def distinct_at_most(frame: Any, column: str, limit: int) -> int:
    """The number of distinct non-missing values of ``column``, counted on the workers, or ``limit + 1`` if more."""
    import narwhals as nw

    s = nw.to_native(frame)[column]
    return min(int(s.dropna().nunique().compute()), limit + 1)


def score_edges(frame: Any, column: str, bins: int) -> np.ndarray:
    """Increasing quantile edges of ``column`` for ``bins`` bins: Dask's approximate ``quantile`` over
    about one partition in eight, spread evenly (at least two; a fraction of a pass, so that binning
    costs little more than the count: the bins are about equal when the partitions are alike)."""
    import narwhals as nw

    ddf = nw.to_native(frame)
    parts = ddf.npartitions
    if parts > 2:  # about one partition in eight, spread evenly: a fraction of a pass
        keep = np.unique(np.linspace(0, parts - 1, num=max(2, -(-parts // 8))).round().astype(int))
        ddf = ddf.partitions[keep.tolist()]
    s = ddf[column]
    s = s[~s.isna()]
    values = np.asarray(s.quantile((np.arange(bins) / bins).tolist()).compute(), dtype=np.float64)
    return np.unique(values[np.isfinite(values)])


def score_binning(frame: Any, column: str, bins: int, *, sample: int, spread: bool, head: Any) -> np.ndarray:
    """How ``column`` is binned into ``bins`` bins: its quantile edges (:func:`score_edges`)."""
    return score_edges(frame, column, bins)


def glance(frame: Any, columns: Sequence[str], rows: int) -> None:
    """None: the first partition is read where it is needed (:func:`head_distinct`)."""
    return None


def head_distinct(frame: Any, columns: Sequence[str], rows: int, head: Any) -> dict[str, int]:
    """The distinct non-missing values of each of ``columns`` in the first ``rows`` rows (of the first partition).

    The first partition's ``head`` on its worker: Dask's own ``head(rows, npartitions=1)`` warns
    (``Insufficient elements for head``) whenever that partition is shorter than ``rows``, which is
    the ordinary case here and no news to the user.

    >>> import dask.dataframe as dd, pandas as pd
    >>> from confusionlab._tables import to_narwhals
    >>> ddf = dd.from_pandas(pd.DataFrame({"y": [0, 1, 2, 2], "g": ["a"] * 4}), npartitions=2)
    >>> head_distinct(to_narwhals(ddf), ["y", "g"], 10_000, None)   # the first partition: rows 0 and 1
    {'y': 2, 'g': 1}
    """
    import narwhals as nw

    part = nw.to_native(frame)[list(columns)].partitions[0]
    first = part.map_partitions(lambda pdf: pdf.head(rows)).compute()
    return {c: int(first[c].nunique(dropna=True)) for c in columns}
