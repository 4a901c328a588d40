"""Count cells on a pandas DataFrame: numpy codes and one ``bincount``.

The same table as the narwhals group-by (:mod:`.narwhals`), faster on pandas:
each key column becomes small integer codes (hash-free for a small integer
range), the codes are combined into one flat index and counted with
``numpy.bincount``. Rows with a missing value (``isna``: None, NaN, ``<NA>``,
``NaT``, in numpy and nullable dtypes alike) are counted per column and left
out before any key is computed, so a nullable column never yields ``<NA>`` as
a key. The quantile edges and the distinct count are the in-memory ones of
:mod:`.frames`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .frames import memory_distinct_at_most, memory_percentiles, memory_score_edges
from .request import Cells, CountRequest, Moments

__all__ = [
    "REMOTE",
    "count_cells",
    "count_native",
    "distinct_at_most",
    "glance",
    "head_distinct",
    "moment_cells",
    "moment_native",
    "percentiles",
    "score_binning",
    "score_edges",
]

#: The rows are in this process: a count table is never too large to bring here.
REMOTE = False


def count_cells(frame: Any, request: CountRequest) -> Cells:
    """The count table of ``request`` on a narwhals-wrapped pandas frame."""
    import narwhals as nw

    return count_native(nw.to_native(frame), request)


def count_native(df: Any, request: CountRequest) -> Cells:
    """The count table of ``request`` on a pandas DataFrame (also one Dask partition).

    Examples
    --------
    >>> import pandas as pd
    >>> from confusionlab._tables.request import OneOf, Values
    >>> df = pd.DataFrame({"y": [1, 0, 1], "s": ["F", "M", None]})
    >>> c = count_native(df, CountRequest({"f": OneOf(("s",), ("F",)), "l": Values("y")}))
    >>> c.keys["f"], c.keys["l"], c.n, c.missing
    ([False, True], [0, 1], [1, 1], {'s': 1})
    """
    df, missing, dropped = _drop_missing(df, request.columns)
    return _count(df, request, missing, dropped)


def _drop_missing(df: Any, columns: Sequence[str]) -> tuple[Any, dict[str, int], int]:
    """``df`` without the rows missing a value in ``columns``, the missing values per column and the rows left out."""
    missing: dict[str, int] = {}
    drop = np.zeros(len(df), dtype=bool)
    for col in columns:
        s = df[col]
        if isinstance(s.dtype, np.dtype) and s.dtype.kind in "biu":
            continue  # numpy integers and booleans cannot hold a missing value
        m = s.isna().to_numpy(dtype=bool)
        k = int(m.sum())
        if k:
            missing[col] = k
            drop |= m
    dropped = int(drop.sum())
    return (df.loc[~drop] if dropped else df), missing, dropped


def _values(s: Any) -> np.ndarray:
    """numpy values of a Series without missing entries (nullable dtypes to their numpy dtype)."""
    numpy_dtype = getattr(s.dtype, "numpy_dtype", None)
    if not isinstance(s.dtype, np.dtype) and numpy_dtype is not None and numpy_dtype.kind in "biuf":
        return s.to_numpy(dtype=numpy_dtype)
    return s.to_numpy()


def _codes(s: Any) -> tuple[np.ndarray, list[Any]]:
    """Integer codes and the values they stand for (hash-free for small integer ranges)."""
    import pandas as pd

    a = _values(s)
    if a.dtype.kind == "b":
        return a, [False, True]
    if a.dtype.kind in "iu" and a.size:
        lo, hi = int(a.min()), int(a.max())
        if hi - lo <= 1 << 16:
            codes = a if lo == 0 else a.astype(np.int64) - lo
            return codes, list(range(lo, hi + 1))
    codes, uniques = pd.factorize(s, use_na_sentinel=False)
    return codes, list(uniques)


def _isin(s: Any, values: Sequence[Any]) -> np.ndarray:
    a = _values(s)
    if (
        a.dtype.kind in "biuf"
        and len(values) <= 8
        and all(isinstance(v, (int, float, np.number)) and not isinstance(v, bool) for v in values)
    ):
        out = np.zeros(a.shape, dtype=bool)
        for v in values:
            out |= a == v
        return out
    return s.isin(list(values)).to_numpy(dtype=bool)


def _greater(s: Any, threshold: float) -> np.ndarray:
    return _values(s) > threshold


def _one_of(df: Any, columns: tuple[str, ...], values: tuple[Any, ...]) -> np.ndarray:
    """Boolean array: the row's value (one column) or combination (several) is one of ``values``."""
    n = len(df)
    if len(columns) == 1:
        return _isin(df[columns[0]], values)
    f = np.zeros(n, dtype=bool)
    for combo in values:
        term = np.ones(n, dtype=bool)
        for c, v in zip(columns, combo, strict=True):
            term &= (df[c] == v).to_numpy(dtype=bool)
        f |= term
    return f


class _Keys:
    """The keys of a request as pandas Series (a column, its bins) and boolean arrays (the flags)."""

    def __init__(self, df: Any) -> None:
        self.df = df

    def values(self, column: str) -> Any:
        return self.df[column]

    def bins(self, column: str, edges: Any) -> Any:
        import pandas as pd

        x = np.asarray(_values(self.df[column]), dtype=np.float64)
        b = np.searchsorted(np.asarray(edges, dtype=np.float64), x, side="right")
        return pd.Series(np.where(np.isinf(x), -1, b))  # an infinite score: bin −1, refused by the caller

    def above(self, column: str, threshold: float) -> np.ndarray:
        return _greater(self.df[column], threshold)

    def one_of(self, columns: tuple[str, ...], values: tuple[Any, ...]) -> np.ndarray:
        return _one_of(self.df, columns, values)


def _key_codes(df: Any, request: CountRequest) -> list[tuple[str, np.ndarray, list[Any]]]:
    """Per key: its name, the rows' integer codes and the values the codes stand for."""
    columns = request.key_columns(_Keys(df))
    # a boolean key (a flag) is its own code; a column's values are coded
    return [(k, v, [False, True]) if isinstance(v, np.ndarray) else (k, *_codes(v)) for k, v in columns.items()]


def _count(df: Any, request: CountRequest, missing: dict[str, int], dropped: int) -> Cells:
    parts = _key_codes(df, request)
    cells, counts = _tally([codes for _, codes, _ in parts], [max(len(u), 1) for _, _, u in parts], len(df))
    keys = {name: [u[i] for i in ix.tolist()] for (name, _, u), ix in zip(parts, cells, strict=True)}
    return Cells(keys, counts.tolist(), missing, dropped)


def moment_cells(frame: Any, request: CountRequest, moments: Moments) -> Cells:
    """The cells of ``request`` on a narwhals-wrapped pandas frame, each with the :class:`Moments` of its rows."""
    import narwhals as nw

    return moment_native(nw.to_native(frame), request, moments)


def moment_native(df: Any, request: CountRequest, moments: Moments) -> Cells:
    """The cells of ``request`` on a pandas DataFrame (also one Dask partition), each with the smallest,
    the largest value and the sums of powers of ``moments.column`` over its rows (numpy ``bincount``).

    Examples
    --------
    >>> import pandas as pd
    >>> from confusionlab._tables.request import Values
    >>> df = pd.DataFrame({"y": [1, 0, 1, 1], "q": [0.5, 0.25, 0.75, None]})
    >>> c = moment_native(df, CountRequest({"l": Values("y")}), Moments("q", 2))
    >>> c.keys["l"], c.n, c.moments, c.missing
    ([0, 1], [1, 2], {'min': [0.25, 0.5], 'max': [0.25, 0.75], 'sum1': [0.25, 1.25], 'sum2': [0.0625, 0.8125]}, \
{'q': 1})
    """
    df, missing, dropped = _drop_missing(df, list(dict.fromkeys([*request.columns, moments.column])))
    parts = _key_codes(df, request)
    codes = [c for _, c, _ in parts]
    sizes = [max(len(u), 1) for _, _, u in parts]
    if math.prod(sizes) < 2**62:
        flat = np.zeros(len(df), dtype=np.int64)
        for c, k in zip(codes, sizes, strict=True):
            flat *= k
            flat += c
        cells, cell_of = np.unique(flat, return_inverse=True)
        ix = list(np.unravel_index(cells, sizes))
    else:
        rows, cell_of = np.unique(np.stack([c.astype(np.int64) for c in codes], axis=1), axis=0, return_inverse=True)
        ix = list(rows.T)
    cell_of = cell_of.ravel()
    x = np.asarray(_values(df[moments.column]), dtype=np.float64)
    m = len(ix[0]) if ix else 0
    counts = np.bincount(cell_of, minlength=m)
    out: dict[str, list[float]] = {}
    if m:
        order = np.argsort(cell_of, kind="stable")
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
        sorted_x = x[order]
        out["min"] = np.minimum.reduceat(sorted_x, starts).tolist()
        out["max"] = np.maximum.reduceat(sorted_x, starts).tolist()
    else:
        out["min"], out["max"] = [], []
    power = np.ones_like(x)
    for j in range(1, moments.powers + 1):
        power *= x
        out[f"sum{j}"] = np.bincount(cell_of, weights=power, minlength=m).tolist()
    keys = {name: [u[i] for i in k.tolist()] for (name, _, u), k in zip(parts, ix, strict=True)}
    return Cells(keys, counts.tolist(), missing, dropped, moments=out)


def percentiles(frame: Any, column: str, percents: np.ndarray) -> np.ndarray:
    """``numpy.percentile`` of the non-missing values of ``column`` at ``percents`` (exact, linear)."""
    return memory_percentiles(frame, column, percents)


def _tally(codes: list[np.ndarray], sizes: list[int], n: int) -> tuple[list[np.ndarray], np.ndarray]:
    """The distinct combinations of ``codes`` (one code array per key, ``codes[k] < sizes[k]``) and their counts.

    The codes are combined into one flat index (mixed radix) and counted with
    ``bincount`` when the index space is small, ``unique`` otherwise; with more
    combinations than an int64 index holds (an audit of many wide facet
    columns) the rows of codes are made unique instead.
    """
    if math.prod(sizes) < 2**62:
        total = int(np.prod(sizes, dtype=np.float64))
        flat = np.zeros(n, dtype=np.int64)
        for c, k in zip(codes, sizes, strict=True):
            flat *= k
            flat += c
        if total <= max(4 * n, 1 << 20):
            counts = np.bincount(flat, minlength=total)
            cells = np.flatnonzero(counts)
            counts = counts[cells]
        else:
            cells, counts = np.unique(flat, return_counts=True)
        return list(np.unravel_index(cells, sizes)), counts
    rows, counts = np.unique(np.stack([c.astype(np.int64) for c in codes], axis=1), axis=0, return_counts=True)
    return list(rows.T), counts


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
    """None: the rows are here, a glance at the first ones would save nothing."""
    return None


def head_distinct(frame: Any, columns: Sequence[str], rows: int, head: Any) -> None:
    """None: the table is counted first and checked after."""
    return None
