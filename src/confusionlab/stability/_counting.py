"""The counting engine: category counts per object of a refits × objects matrix.

Every categorical measure (phi, psi, Fleiss' κ, Gwet's AC1, Krippendorff's α) starts from
the same table: for each object, how many refits predicted each category, and for the
reference sample, how many values fall in each category. :func:`category_counts` builds
it by the cheapest of three paths, which give identical counts and categories
(``tests/stability/test_blocked_counts.py`` proves it):

1. *blocked comparison* (:func:`_blocked_counts`): numeric data taking at most
   :data:`_BLOCK_MAX_CATEGORIES` distinct values are compared with each category, block by
   block in cache, summing the comparison masks as narrow integers. One read of the matrix,
   no sort, no code matrix; one pass by default, or a large matrix cut into ranges of objects
   counted on up to :data:`_THREADS` threads when cores are idle (:func:`_workers`; numpy's comparisons
   release the GIL, and integer counts do not depend on the threads);
2. *small integers* (:func:`_fast_numeric_counts`): integer-like data spanning fewer than
   :data:`_FAST_MAX_CATEGORIES` values are compared on an int8 copy;
3. *codes* (:func:`~confusionlab.stability._input.encode`, then :func:`object_counts`):
   anything else is coded with a sort and counted with ``np.bincount``. This path also
   produces every error message about the values (unknown categories, mixed types).

Inputs arrive validated by :mod:`confusionlab.stability._input`; missing values are never
counted.
"""

from __future__ import annotations

import itertools
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from .._validation import check_memory
from ._checks import check_categories
from ._input import categories_from_dtype, encode

__all__ = ["CountInput", "Counted", "category_counts", "object_counts"]

#: One array to count: ``(original_object, array, argument_name, per_object)``.
CountInput = tuple[Any, np.ndarray, str, bool]
#: Counts (one array per input) and the category list they share.
Counted = tuple[list[np.ndarray], np.ndarray]


def object_counts(codes: np.ndarray, n_categories: int) -> np.ndarray:
    """Category counts per object (column) of a refits × objects code matrix.

    ``codes`` holds category positions with ``-1`` for missing values; the result has shape
    (objects, categories).
    """
    n_objects = codes.shape[1]
    flat = codes + n_categories * np.arange(n_objects)[None, :]
    flat = flat[codes >= 0]
    return np.bincount(flat, minlength=n_objects * n_categories).reshape(n_objects, n_categories)


_FAST_MAX_CATEGORIES = 64


def _range(x: np.ndarray) -> tuple[float, float]:
    """(min, max) ignoring NaN; NaN, NaN for an all-NaN array."""
    return float(np.fmin.reduce(x, axis=None)), float(np.fmax.reduce(x, axis=None))


def _as_int8(x: np.ndarray) -> np.ndarray | None:
    """``x`` as int8 if it holds only integers in [-128, 127] (no NaN), else None.

    One cast and one comparison: the round trip fails for NaN, fractions and values out of
    range, so no separate range or integrality pass is needed.
    """
    if x.size < 100_000 or x.dtype.kind not in "biuf":
        return None
    x2 = x.reshape(x.shape[0], -1)
    small = np.empty(x2.shape, dtype=np.int8)
    rows = max(1, 131_072 // x2.shape[1])  # blocks that stay in cache between cast and check
    with np.errstate(invalid="ignore", over="ignore"):  # NaN/out-of-range cast to garbage
        for start in range(0, x2.shape[0], rows):
            block, out = x2[start : start + rows], small[start : start + rows]
            np.copyto(out, block, casting="unsafe")
            if not np.array_equal(out, block):
                return None
    return small.reshape(x.shape)


def _fast_numeric_counts(arrays: list[CountInput], categories: Any) -> Counted | None:
    """Counts for numeric arrays holding a few integer-like categories, or None.

    One comparison pass per candidate category, no sorting and no code matrix. Returns None
    (caller falls back to :func:`encode`, which also produces the error messages) when
    the data are not numeric, take non-integer or unknown values, or span too many values.
    """
    if any(arr.dtype.kind not in "biuf" for _, arr, _, _ in arrays):
        return None
    if categories is None:
        for obj, _, _, _ in arrays:
            if categories_from_dtype(obj) is not None:
                return None
    smalls = [_as_int8(arr) for _, arr, _, _ in arrays]
    ranges = [
        _range(arr) if small is None else (float(small.min()), float(small.max()))
        for (_, arr, _, _), small in zip(arrays, smalls, strict=True)
    ]
    if categories is None:
        lo = float(np.fmin.reduce([r[0] for r in ranges]))
        hi = float(np.fmax.reduce([r[1] for r in ranges]))
        if not (np.isfinite(lo) and np.isfinite(hi)) or hi - lo >= _FAST_MAX_CATEGORIES:
            return None
        candidates = np.arange(np.ceil(lo), np.floor(hi) + 1)
        if candidates.size == 0:  # e.g. only 0.25 and 0.75: no integer in range
            return None
    else:
        if isinstance(categories, str) or np.ndim(categories) != 1:
            return None
        candidates = np.asarray(list(categories))
        if (
            candidates.dtype.kind not in "biuf"
            or candidates.size == 0
            or candidates.size > _FAST_MAX_CATEGORIES
            or np.unique(candidates).size != candidates.size
        ):
            return None
    out = []
    for (_, arr, _, per_object), small in zip(arrays, smalls, strict=True):
        x = arr if per_object else arr.reshape(-1, 1)
        # comparisons on the 1-byte copy move 8× less memory than on float64
        x_small = None if small is None else small.reshape(x.shape)
        acc = np.int16 if x.shape[0] < 2**15 else np.int64  # narrow accumulators: less traffic
        counts = np.stack(
            [
                np.count_nonzero(x == v, axis=0)
                if x_small is None or not -128 <= v <= 127 or v != int(v)
                else (x_small == int(v)).sum(axis=0, dtype=acc)
                for v in candidates
            ],
            axis=1,
        ).astype(np.int64)
        total = counts.sum(axis=1)
        if np.any(total != x.shape[0]):  # missing values, or values outside the candidates
            present = x.shape[0] - (np.count_nonzero(np.isnan(x), axis=0) if x.dtype.kind == "f" else 0)
            if np.any(total != present):
                return None
        out.append(counts if per_object else counts[0])
    if categories is None:
        used = np.zeros(candidates.size, dtype=bool)
        for counts in out:
            used |= (counts.reshape(-1, candidates.size) > 0).any(axis=0)
        if not used.any():
            return None
        out = [c[..., used] for c in out]
        candidates = candidates[used]
        if all(arr.dtype.kind in "biu" for _, arr, _, _ in arrays):
            candidates = candidates.astype(np.int64)
    return out, candidates


# ------------------------------------------------------------------ blocked counting (few categories)
#: Most categories the blocked comparison path handles; each costs one comparison per value.
_BLOCK_MAX_CATEGORIES = 16
#: Bytes of a block and its comparison masks, which stay in the L2 cache together.
_BLOCK_BYTES = 640 * 1024
#: Values at each end of each array that seed the category list before the counting pass.
_SAMPLE = 2048
#: Most threads one count uses, and the fewest values that make a thread worth starting.
#: One: on a 2-core machine, two threads on 1,000 × 10,000 nominal took 11–16 ms
#: of wall time against 7–12 ms for one pass even at load 0.7 (their CPU time equal to the wall
#: time: the second core was not there to be had), and more under load. A machine where a second
#: thread gets a core of its own may set 2; :func:`_workers` still refuses busy cores.
_THREADS = 1
_THREAD_VALUES = 1_000_000


def _workers(n_values: int) -> int:
    """Threads for counting ``n_values`` values: at most :data:`_THREADS`, the cores, and the idle cores.

    One pass is memory traffic plus about one comparison per value and category; a second
    thread overlaps the two only when it gets a core of its own. A thread that waits for a
    core busy with another job makes the count slower than one thread (2 cores: 1,000 ×
    10,000 nominal, 8.9 ms of CPU on one thread against 11.4 ms and a slower wall time on two
    at load 4). So the threads are capped by the cores the one-minute load average leaves
    idle, counting this process's own running thread as idle. The counts are integers:
    the result does not depend on the threads.
    """
    cores = os.cpu_count() or 1
    workers = min(_THREADS, cores, n_values // _THREAD_VALUES)
    if workers < 2:
        return 1
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # pragma: no cover - Windows has no load average
        return workers
    return max(1, min(workers, int(cores + 1.0 - load)))


def _column_counts(x: np.ndarray, keys: np.ndarray, nan: bool = False) -> np.ndarray:
    """Per column of the 2-D ``x``: how many entries equal each key (and are NaN, if ``nan``).

    Returns an int64 array of shape (keys + nan, columns); its last row counts NaN when
    ``nan`` is true. The matrix is compared in blocks that stay in cache and the comparison
    masks are summed as narrow integers: no code matrix, no sort, no copy of the matrix (a
    Fortran-ordered matrix is read through its C-ordered transpose). A large matrix is cut
    into ranges of objects counted on one thread each when cores are idle (:func:`_workers`;
    numpy's comparisons release the GIL; the counts are integers, so the result does not
    depend on the threads).
    """
    transposed = not x.flags.c_contiguous and x.T.flags.c_contiguous
    count = _row_counts if transposed else _block_counts
    data = x.T if transposed else x
    n_objects = data.shape[0] if transposed else data.shape[1]
    workers = _workers(x.size)
    if workers < 2:
        return count(data, keys, nan)
    edges = np.linspace(0, n_objects, workers + 1).astype(int)
    ranges = list(itertools.pairwise(edges.tolist()))
    part = (lambda a, b: data[a:b]) if transposed else (lambda a, b: data[:, a:b])
    with ThreadPoolExecutor(workers) as pool:
        counts = list(pool.map(lambda r: count(part(*r), keys, nan), ranges))
    return np.concatenate(counts, axis=1)


def _block_counts(x: np.ndarray, keys: np.ndarray, nan: bool) -> np.ndarray:
    """:func:`_column_counts` of a matrix whose rows are contiguous (one thread)."""
    n_rows, n_cols = x.shape
    k = keys.size
    rows = int(min(255, max(1, _BLOCK_BYTES // max(1, n_cols * (x.itemsize + k + nan)))))
    hits = np.empty((k + nan, rows, n_cols), dtype=bool)
    part = np.empty((k + nan, n_cols), dtype=np.uint8)
    window = np.zeros((k + nan, n_cols), dtype=np.uint8)  # exact while it sums at most 255 rows
    total = np.zeros((k + nan, n_cols), dtype=np.int64)
    contiguous_rows = x.strides[1] == x.itemsize
    buf = None if contiguous_rows else np.empty((rows, n_cols), dtype=x.dtype)
    column_keys = keys.reshape(k, 1, 1)
    in_window = 0
    for start in range(0, n_rows, rows):
        block = x[start : start + rows]
        b = block.shape[0]
        if buf is not None:  # a strided view: one small copy per block, never the whole matrix
            np.copyto(buf[:b], block)
            block = buf[:b]
        h = hits[:, :b]
        if k:
            np.equal(block, column_keys, out=h[:k])
        if nan:
            np.isnan(block, out=h[k])
        if in_window + b > 255:
            total += window
            window.fill(0)
            in_window = 0
        np.add.reduce(h.view(np.uint8), axis=1, out=part)
        np.add(window, part, out=window)
        in_window += b
    total += window
    return total


def _own_dtype_counts(x: np.ndarray, keys: np.ndarray, nan: bool) -> np.ndarray:
    """:func:`_column_counts` comparing in ``x``'s own dtype (an int8 matrix is never widened).

    Targets that ``x``'s dtype cannot hold exactly (2.5 or 300 for int8) match nothing.
    """
    if x.dtype == keys.dtype:
        return _column_counts(x, keys, nan)
    with np.errstate(invalid="ignore", over="ignore"):
        own = keys.astype(x.dtype)
        exact = own.astype(keys.dtype) == keys
    counts = _column_counts(x, own[exact], nan)
    out = np.zeros((keys.size + nan, x.shape[1]), dtype=np.int64)
    out[np.flatnonzero(np.append(exact, True) if nan else exact)] = counts
    return out


def _row_counts(xt: np.ndarray, keys: np.ndarray, nan: bool) -> np.ndarray:
    """:func:`_column_counts` of ``xt.T`` for a C-ordered ``xt`` (objects × refits)."""
    n_objects, n_refits = xt.shape
    k = keys.size
    rows = int(max(1, _BLOCK_BYTES // max(1, n_refits * (xt.itemsize + k + nan))))
    cols = 65_535  # uint16 sums are exact up to here
    hits = np.empty((k + nan, rows, min(n_refits, cols)), dtype=bool)
    part = np.empty((k + nan, rows), dtype=np.uint16)
    total = np.zeros((k + nan, n_objects), dtype=np.int64)
    column_keys = keys.reshape(k, 1, 1)
    for start in range(0, n_objects, rows):
        for first in range(0, n_refits, cols):
            block = xt[start : start + rows, first : first + cols]
            b, r = block.shape
            h = hits[:, :b, :r]
            if k:
                np.equal(block, column_keys, out=h[:k])
            if nan:
                np.isnan(block, out=h[k])
            np.add.reduce(h.view(np.uint8), axis=2, dtype=np.uint16, out=part[:, :b])
            total[:, start : start + b] += part[:, :b]
    return total


def _pieces(arr: np.ndarray, per_object: bool) -> list[np.ndarray]:
    """2-D views to count: the matrix itself, or a pooled sample cut into rows (no copy)."""
    if per_object:
        return [arr]
    flat = arr.reshape(-1)
    cols = 8192
    if flat.size <= 8 * cols:
        return [flat.reshape(1, -1)]
    split = flat.size - flat.size % cols
    pieces = [flat[:split].reshape(-1, cols)]
    if split < flat.size:
        pieces.append(flat[split:].reshape(1, -1))
    return pieces


def _unknown_values(pieces: list[np.ndarray], keys: np.ndarray, limit: int) -> np.ndarray | None:
    """Sorted distinct non-missing values of ``pieces`` not among ``keys``; None past ``limit``."""
    found = np.zeros(0, dtype=keys.dtype)
    for x in pieces:
        rows = int(min(255, max(1, _BLOCK_BYTES // max(1, x.shape[1] * x.itemsize))))
        for start in range(0, x.shape[0], rows):
            block = x[start : start + rows]
            new = block[~np.isin(block, keys)]
            if new.dtype.kind == "f":
                new = new[~np.isnan(new)]
            if new.size:
                found = np.union1d(found, new)
                if found.size > limit:
                    return None
    return found


def _blocked_counts(arrays: list[CountInput], categories: np.ndarray | None) -> Counted | None:
    """Counts of numeric arrays taking a few distinct values, by comparison; or None.

    The category list is seeded from a small sample (or is ``categories``); one pass
    compares every value with every category, block by block in cache. A value equal to no
    category makes its column's count fall short: NaN explains the shortfall (missing, skipped)
    or the values are searched, added and counted again. Returns None (caller falls back)
    for non-numeric data, pandas categoricals, more than :data:`_BLOCK_MAX_CATEGORIES`
    categories, or values outside the given ``categories`` (the fallback names them).
    """
    dtypes = [arr.dtype for _, arr, _, _ in arrays]
    if any(d.kind not in "biuf" for d in dtypes):
        return None
    if categories is None and any(categories_from_dtype(obj) is not None for obj, _, _, _ in arrays):
        return None
    pieces = [_pieces(arr, per_object) for _, arr, _, per_object in arrays]
    # a sample: the first and last values of each array (contiguous, cheap to read)
    sample = np.unique(np.concatenate([v for ps in pieces for p in ps for v in (p[0][:_SAMPLE], p[-1][-_SAMPLE:])]))
    nan = sample.dtype.kind == "f" and bool(np.isnan(sample[-1]))  # then count NaN in the same pass
    if categories is not None:
        if (
            categories.dtype.kind not in "biuf"
            or categories.size > _BLOCK_MAX_CATEGORIES
            or np.unique(categories).size != categories.size
        ):
            return None
        keys = categories
    else:
        keys = sample[: sample.size - nan] + (0.0 if sample.dtype.kind == "f" else 0)  # -0.0 is 0.0
        if keys.size > _BLOCK_MAX_CATEGORIES:
            return None
    compare = np.result_type(keys.dtype, *dtypes)
    if compare.kind == "f" and any(d.kind in "iu" and d.itemsize == 8 for d in dtypes):
        return None  # 64-bit integers compared as floats could collide
    keys = keys.astype(compare)
    for _attempt in range(3):
        if keys.size:
            for _, arr, name, per_object in arrays:
                if per_object:  # int64 totals (NaN row included) and their transpose, byte masks
                    check_memory(
                        20.0 * arr.shape[1] * (keys.size + 1),
                        f"category counts of {name} ({arr.shape[1]:,} objects × {keys.size:,} categories)",
                        "pass fewer objects at a time (stability is a mean over objects) or fewer categories",
                    )
        counts, short = [], []
        for ps in pieces:
            counts.append([])
            for p in ps:
                if not keys.size:  # nothing but missing values in the sample
                    short.append(p)
                    continue
                with_nan = nan and p.dtype.kind == "f"
                c = _own_dtype_counts(p, keys, with_nan)
                counts[-1].append(c[: keys.size])
                if np.any(c.sum(axis=0) != p.shape[0]):  # missing values or unknown values
                    missing = 0 if with_nan or p.dtype.kind != "f" else _column_counts(p, keys[:0], True)[0]
                    if np.any(c.sum(axis=0) + missing != p.shape[0]):
                        short.append(p)
        if not short:
            break
        if categories is not None:
            return None
        new = _unknown_values(short, keys, _BLOCK_MAX_CATEGORIES - keys.size)
        if new is None or not new.size:  # too many categories, or nothing but missing values
            return None
        keys = np.union1d(keys, new.astype(compare) + (0.0 if compare.kind == "f" else 0))
    else:  # pragma: no cover - the last pass counts every value found by the search
        return None
    out = []
    for (_, _, _, per_object), cs in zip(arrays, counts, strict=True):
        if per_object:
            out.append(np.ascontiguousarray(cs[0].T))
        else:
            out.append(sum(c.sum(axis=1) for c in cs))
    if categories is not None:
        return out, categories
    used = np.zeros(keys.size, dtype=bool)
    for c in out:
        used |= (c.reshape(-1, keys.size) > 0).any(axis=0)
    if not used.all():  # pragma: no cover - every key was seen in the data
        out, keys = [c[..., used] for c in out], keys[used]
    return out, _category_dtype(keys, dtypes)


def _category_dtype(cats: np.ndarray, dtypes: list[np.dtype]) -> np.ndarray:
    """Observed categories in the dtype the other paths give them.

    Integer-valued categories spanning fewer than 64 values are int64 (all inputs integer or
    boolean) or float64; any other set keeps the dtype numpy gives the pooled values.
    """
    integral = cats.dtype.kind in "biu" or bool(np.all(cats == np.round(cats)))
    if integral and float(cats.max()) - float(cats.min()) < _FAST_MAX_CATEGORIES:
        return cats.astype(np.int64 if all(d.kind in "biu" for d in dtypes) else np.float64)
    return cats.astype(np.result_type(*dtypes))


def category_counts(arrays: list[CountInput], categories: Any, *, ordinal: bool) -> Counted:
    """Category counts of categorical arrays sharing one category list.

    Parameters
    ----------
    arrays
        ``(original_object, array, argument_name, per_object)`` tuples. With
        ``per_object`` the array is refits × objects and its counts have shape
        (objects, K); otherwise the array is pooled and its counts have shape (K,).
    categories, ordinal
        As for :func:`~confusionlab.stability._input.encode`.

    Returns
    -------
    counts, categories

    Notes
    -----
    The three paths of the module docstring give identical counts and categories; the
    code path (:func:`~confusionlab.stability._input.encode`) raises the errors about the
    values.

    Examples
    --------
    >>> import numpy as np
    >>> pred = np.array([[0.0, 1.0], [0.0, np.nan], [2.0, 1.0]])
    >>> (counts, m), cats = category_counts(
    ...     [(pred, pred, "predictions", True), (np.ones(3), np.ones(3), "reference", False)], None, ordinal=False
    ... )
    >>> counts.tolist(), m.tolist(), cats.tolist()
    ([[2, 0, 1], [0, 2, 0]], [0, 3, 0], [0.0, 1.0, 2.0])
    """
    categories = check_categories(categories)
    fast = _blocked_counts(arrays, categories)
    if fast is None:
        fast = _fast_numeric_counts(arrays, categories)
    if fast is not None:
        return fast
    codes, cats = encode([(o, a, n) for o, a, n, _ in arrays], categories, ordinal=ordinal)
    for c, (_, _, name, per_object) in zip(codes, arrays, strict=True):
        if per_object:
            check_memory(
                2.0 * 8.0 * c.shape[1] * cats.size,
                f"category counts of {name} ({c.shape[1]:,} objects × {cats.size:,} categories)",
                "pass fewer objects at a time (stability is a mean over objects) or fewer categories",
            )
    out = []
    for c, (_, _, _, per_object) in zip(codes, arrays, strict=True):
        if per_object:
            out.append(object_counts(c, cats.size))
        else:
            flat = c.reshape(-1)
            out.append(np.bincount(flat[flat >= 0], minlength=cats.size))
    return out, cats
