"""Count cells on a pandas DataFrame: numpy codes and one ``bincount``.

The same table as the narwhals group-by (:mod:`.narwhals`), faster on pandas:
each key column becomes small integer codes (hash-free for a small integer
range), the codes are combined into one flat index and counted with
``numpy.bincount``. Rows with a missing value (``isna``: None, NaN, ``<NA>``,
``NaT``, in numpy and nullable dtypes alike) are counted per column and left
out before any key is computed, so a nullable column never yields ``<NA>`` as
a key.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..selection import FacetSelection
from . import Cells, CountRequest

__all__ = ["count_cells", "count_native"]


def count_cells(frame: Any, request: CountRequest) -> Cells:
    """The count table of ``request`` on a narwhals-wrapped pandas frame."""
    import narwhals as nw

    return count_native(nw.to_native(frame), request)


def count_native(df: Any, request: CountRequest) -> Cells:
    """The count table of ``request`` on a pandas DataFrame (also one Dask partition).

    Examples
    --------
    >>> import pandas as pd
    >>> from confusionlab.bias.selection import facet_selection, label_selection
    >>> df = pd.DataFrame({"y": [1, 0, 1], "s": ["F", "M", None]})
    >>> req = CountRequest("y", label_selection([1]), facet_selection("s", ["F"]), dropna=True)
    >>> c = count_native(df, req)
    >>> c.keys["_f"], c.keys["_l"], c.n, c.missing
    ([False, True], [0, 1], [1, 1], {'s': 1})
    """
    missing: dict[str, int] = {}
    drop = np.zeros(len(df), dtype=bool)
    for _, col in request.checked:
        s = df[col]
        if isinstance(s.dtype, np.dtype) and s.dtype.kind in "biu":
            continue  # numpy integers and booleans cannot hold a missing value
        m = s.isna().to_numpy(dtype=bool)
        k = int(m.sum())
        if k:
            missing[col] = k
            drop |= m
    dropped = int(drop.sum())
    if dropped:
        df = df.loc[~drop]
    return _count(df, request, missing, dropped)


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


def _in_facet(df: Any, facet: FacetSelection) -> np.ndarray:
    """Boolean array: the row is in facet *d*."""
    n = len(df)
    if facet.threshold is not None:
        return _greater(df[facet.columns[0]], facet.threshold)
    if len(facet.columns) == 1:
        return _isin(df[facet.columns[0]], facet.values or ())
    f = np.zeros(n, dtype=bool)
    for combo in facet.values or ():
        term = np.ones(n, dtype=bool)
        for c, v in zip(facet.columns, combo, strict=True):
            term &= (df[c] == v).to_numpy(dtype=bool)
        f |= term
    return f


def _count(df: Any, request: CountRequest, missing: dict[str, int], dropped: int) -> Cells:
    def bucket(name: str, edges: tuple[float, ...]) -> Any:
        import pandas as pd

        x = np.asarray(_values(df[name]), dtype=np.float64)
        b = np.searchsorted(np.asarray(edges, dtype=np.float64), x, side="right")
        return pd.Series(np.where(np.isinf(x), -1, b))  # an infinite score: bin −1, refused by the caller

    columns = request.key_columns(lambda c: df[c], lambda sel: _in_facet(df, sel), _greater, bucket)
    # a boolean key (facet d, a binarised label) is its own code; a column's values are coded
    parts = [(k, v, [False, True]) if isinstance(v, np.ndarray) else (k, *_codes(v)) for k, v in columns.items()]
    cells, counts = _tally([codes for _, codes, _ in parts], [max(len(u), 1) for _, _, u in parts], len(df))
    keys = {name: [u[i] for i in ix.tolist()] for (name, _, u), ix in zip(parts, cells, strict=True)}
    return Cells(keys, counts.tolist(), missing, dropped)


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
