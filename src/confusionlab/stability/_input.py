"""Validation at the boundary: prediction matrices, reference samples and categories.

Everything in :mod:`confusionlab.stability` accepts predictions as a *refits × objects*
matrix (numpy array, nested lists, pandas DataFrame, xarray DataArray or anything else
``numpy.asarray`` understands). Missing predictions are ``NaN``, ``None``, pandas
``<NA>``/``NaT`` and the string ``'nan'`` that numpy makes of ``np.nan`` inside a string
array: the library's one :func:`~confusionlab._validation.missing_mask` decides, and a
missing value is never a category. A nominal or ordinal scale takes at most
:data:`MAX_CATEGORIES` distinct values. The helpers here turn such input into either a
float matrix (metric scale) or category counts (nominal and ordinal scales). Internals
trust what comes out of here.
"""

from __future__ import annotations

import itertools
import numbers
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Literal

import numpy as np

from .._validation import check_memory, missing_mask

Scale = Literal["nominal", "ordinal", "metric"]
SCALES: tuple[str, ...] = ("nominal", "ordinal", "metric")

__all__ = [
    "MAX_CATEGORIES",
    "SCALES",
    "Scale",
    "as_float",
    "as_matrix",
    "as_sample",
    "category_counts",
    "check_scale",
    "encode",
    "object_counts",
]

_MAX_SHOWN = 5

#: Most distinct values a nominal or ordinal scale accepts. Categorical predictions
#: (classes, levels) have a handful; thousands of distinct values are almost certainly a
#: continuous measure, for which ``scale="metric"`` is the right (and linear-time) choice.
MAX_CATEGORIES = 5_000


def check_scale(scale: Any) -> str:
    """Return ``scale`` if it names a supported scale, else raise a ValueError."""
    if not isinstance(scale, str) or scale not in SCALES:
        raise ValueError(f"scale must be one of {SCALES}; got {scale!r}")
    return scale


def _to_array(obj: Any, name: str) -> np.ndarray:
    if obj is None:
        raise TypeError(f"{name} must be array-like; got None")
    to_numpy = getattr(obj, "to_numpy", None)
    try:
        arr = to_numpy() if callable(to_numpy) else np.asarray(obj)
    except ValueError as exc:  # ragged nested sequences
        raise ValueError(f"{name} must be a rectangular array (refits × objects); it looks ragged: {exc}") from None
    arr = np.asarray(arr)
    if arr.dtype.kind in "SVc":
        raise TypeError(f"{name} has unsupported dtype {arr.dtype}")
    if arr.dtype == object and arr.ndim and any(isinstance(v, list | tuple) for v in arr.flat):
        raise ValueError(f"{name} must be a rectangular array (refits × objects); it is ragged")
    return arr


def as_matrix(predictions: Any, name: str = "predictions") -> np.ndarray:
    """Return ``predictions`` as a 2-D array of shape (refits, objects).

    Raises
    ------
    ValueError
        If the input is ragged, not 2-D, has fewer than two refits or no objects.
    """
    arr = _to_array(predictions, name)
    if arr.ndim != 2:
        hint = " For a single object pass a column, e.g. np.asarray(x)[:, None]." if arr.ndim == 1 else ""
        raise ValueError(f"{name} must be 2-D (refits × objects); got {arr.ndim}-D shape {arr.shape}.{hint}")
    n_refits, n_objects = arr.shape
    if n_refits < 2:
        raise ValueError(f"{name} needs at least 2 refits (rows) to measure stability; got shape {arr.shape}")
    if n_objects < 1:
        raise ValueError(f"{name} needs at least 1 object (column); got shape {arr.shape}")
    return arr


def as_sample(values: Any, name: str) -> np.ndarray:
    """Return a reference sample (any shape, pooled) as a flat array; at least 2 values."""
    arr = _to_array(values, name).reshape(-1)
    if arr.size < 2:
        raise ValueError(f"{name} needs at least 2 values; got {arr.size}")
    return arr


def as_float(arr: np.ndarray, name: str) -> np.ndarray:
    """Convert to float64 with NaN for missing values, or raise a TypeError naming ``name``.

    Only numbers are accepted (strings such as ``"1.5"`` are refused, not parsed); missing
    values (None, NaN, pandas ``<NA>``) become NaN.
    """
    if arr.dtype.kind in "biuf":
        out = arr.astype(np.float64, copy=False)
    elif arr.dtype == object:
        missing = missing_mask(arr)
        valid = arr[~missing]
        if not all(isinstance(v, numbers.Real) for v in valid):
            kinds = sorted({type(v).__name__ for v in valid if not isinstance(v, numbers.Real)})
            raise TypeError(f"{name} must be numeric for scale='metric'; got values of type {kinds}")
        out = np.full(arr.shape, np.nan)
        out[~missing] = valid.astype(np.float64)
    else:
        raise TypeError(f"{name} must be numeric for scale='metric'; got values of dtype {arr.dtype}")
    if np.isinf(out).any():
        raise ValueError(f"{name} contains infinite values")
    return out


def _homogeneous(values: np.ndarray, name: str) -> np.ndarray:
    """Valid (non-missing) values as an array with one comparable dtype."""
    if values.dtype != object:
        return values
    items = list(values)
    if all(isinstance(v, str) for v in items):
        return np.asarray(items, dtype=str)
    if all(isinstance(v, bool | int | float | np.number | np.bool_) for v in items):
        return np.asarray(items, dtype=np.float64)
    kinds = sorted({type(v).__name__ for v in items})
    raise TypeError(f"{name} mixes value types {kinds}; use one type for all categories")


def _encode_one(valid: np.ndarray, categories: np.ndarray, order: np.ndarray, name: str) -> np.ndarray:
    """Codes (positions in ``categories``) of ``valid``; unknown values raise ValueError."""
    ordered = categories[order]
    if valid.size == 0:
        return np.zeros(0, dtype=np.intp)
    try:
        idx = np.searchsorted(ordered, valid)
    except TypeError:
        raise TypeError(
            f"{name} values ({valid.dtype}) cannot be compared with categories ({categories.dtype})"
        ) from None
    idx = np.minimum(idx, ordered.size - 1)
    ok = ordered[idx] == valid
    if not np.all(ok):
        unknown = np.unique(valid[~ok])
        shown = ", ".join(repr(v.item() if hasattr(v, "item") else v) for v in unknown[:_MAX_SHOWN])
        more = f" and {unknown.size - _MAX_SHOWN} more" if unknown.size > _MAX_SHOWN else ""
        raise ValueError(
            f"{name} contains values not in categories: {shown}{more}. "
            "Pass a categories list that contains every observed value."
        )
    return order[idx]


def _unique_values(valid: np.ndarray) -> np.ndarray:
    """Sorted distinct values; O(n) for small integer-valued ranges."""
    if valid.size and valid.dtype.kind in "iuf":
        lo, hi = valid.min(), valid.max()
        if hi - lo < 1_000_000 and (valid.dtype.kind in "iu" or np.all(valid == np.round(valid))):
            shift = (valid - lo).astype(np.intp)
            present = np.flatnonzero(np.bincount(shift, minlength=int(hi - lo) + 1))
            return (present + lo).astype(valid.dtype)
    return np.unique(valid)


def _categories_from_dtype(obj: Any) -> np.ndarray | None:
    """Categories of a pandas categorical Series/DataFrame, else None."""
    dtypes = getattr(obj, "dtypes", None)
    dtype = getattr(obj, "dtype", None)
    candidates = list(dtypes) if dtypes is not None and hasattr(dtypes, "__iter__") else [dtype]
    cats = []
    for d in candidates:
        c = getattr(d, "categories", None)
        if c is None:
            return None
        cats.append(np.asarray(c))
    if not cats or any(len(c) != len(cats[0]) or np.any(c != cats[0]) for c in cats):
        return None
    return cats[0]


def _check_categories(categories: Any) -> np.ndarray | None:
    """``categories`` as a 1-D array with no missing entry (None stays None)."""
    if categories is None:
        return None
    if isinstance(categories, (str, bytes)) or not hasattr(categories, "__iter__"):
        raise TypeError(f"categories must be a 1-D sequence; got {categories!r}"[:300])
    try:
        cats = np.asarray(list(categories))
    except (TypeError, ValueError):
        raise TypeError(f"categories must be a 1-D sequence of values; got {categories!r}"[:300]) from None
    if cats.ndim != 1:
        raise TypeError(f"categories must be a 1-D sequence; got shape {cats.shape}")
    if cats.size < 1:
        raise ValueError("categories must not be empty")
    if cats.dtype.kind in "SVc":
        raise TypeError(f"categories has unsupported dtype {cats.dtype}")
    if missing_mask(cats).any():
        raise ValueError(f"categories must not contain missing values (None/NaN/<NA>); got {cats.tolist()!r}"[:300])
    return cats


def encode(
    arrays: list[tuple[Any, np.ndarray, str]],
    categories: Any,
    *,
    ordinal: bool,
) -> tuple[list[np.ndarray], np.ndarray]:
    """Encode categorical arrays into integer codes sharing one category list.

    Parameters
    ----------
    arrays
        ``(original_object, array, argument_name)`` triples; the original object is only
        inspected for a pandas categorical dtype.
    categories
        The category list (in order for ordinal data), or None to use the observed values
        (sorted; numbers only for ordinal data).
    ordinal
        Whether the order of the categories matters.

    Returns
    -------
    codes, categories
        One int array per input (same shape, ``-1`` for missing values) and the categories.
    """
    valids, masks = [], []
    for _, arr, name in arrays:
        missing = missing_mask(arr)
        masks.append(missing)
        valids.append(_homogeneous(arr[~missing], name))
    if categories is None:
        for obj, _, _ in arrays:
            cats = _categories_from_dtype(obj)
            if cats is not None:
                categories = cats
                break
    if categories is None:
        nonempty = [v for v in valids if v.size]
        if not nonempty:
            raise ValueError(f"{arrays[0][2]} contains no non-missing values")
        kinds = {v.dtype.kind for v in nonempty}
        if len(kinds) > 1 and not kinds <= set("biuf"):
            raise TypeError(
                f"{' and '.join(n for _, _, n in arrays)} mix numbers and strings; pass categories= explicitly"
            )
        if ordinal and not kinds <= set("biuf"):
            raise ValueError(
                f"scale='ordinal' with non-numeric values in {' and '.join(n for _, _, n in arrays)} needs "
                "categories= listing the categories in their order (lowest first)"
            )
        cats = _unique_values(np.concatenate(nonempty))
        if cats.size > MAX_CATEGORIES:
            names = " and ".join(n for _, _, n in arrays)
            raise ValueError(
                f"{names} take {cats.size:,} distinct values, more than MAX_CATEGORIES = "
                f"{MAX_CATEGORIES:,} for {'an ordinal' if ordinal else 'a nominal'} scale: this is almost "
                "certainly a continuous measure (e.g. regression outputs or probabilities); use "
                "scale='metric'"
            )
    else:
        if isinstance(categories, str) or np.ndim(categories) != 1:
            raise TypeError(f"categories must be a 1-D sequence; got {categories!r}")
        cats = np.asarray(list(categories))
        if cats.size < 1:
            raise ValueError("categories must not be empty")
        if cats.size > MAX_CATEGORIES:
            raise ValueError(
                f"categories has {cats.size:,} entries, more than MAX_CATEGORIES = {MAX_CATEGORIES:,}: "
                "that many categories are almost certainly a continuous measure; use scale='metric'"
            )
        if cats.dtype == object:
            cats = _homogeneous(cats, "categories")
        if np.unique(cats).size != cats.size:
            raise ValueError(f"categories contains duplicates: {cats.tolist()!r}")
    order = np.argsort(cats, kind="stable")
    codes = []
    for (_, arr, name), valid, missing in zip(arrays, valids, masks, strict=True):
        out = np.full(arr.shape, -1, dtype=np.intp)
        out[~missing] = _encode_one(valid, cats, order, name)
        codes.append(out)
    return codes, cats


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


def _fast_numeric_counts(
    arrays: list[tuple[Any, np.ndarray, str, bool]], categories: Any
) -> tuple[list[np.ndarray], np.ndarray] | None:
    """Counts for numeric arrays holding a few integer-like categories, or None.

    One comparison pass per candidate category, no sorting and no code matrix. Returns None
    (caller falls back to :func:`encode`, which also produces the error messages) when
    the data are not numeric, take non-integer or unknown values, or span too many values.
    """
    if any(arr.dtype.kind not in "biuf" for _, arr, _, _ in arrays):
        return None
    if categories is None:
        for obj, _, _, _ in arrays:
            if _categories_from_dtype(obj) is not None:
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
_THREADS = 4
_THREAD_VALUES = 1_000_000


def _column_counts(x: np.ndarray, targets: np.ndarray, nan: bool = False) -> np.ndarray:
    """Per column of the 2-D ``x``: how many entries equal each target (and are NaN, if ``nan``).

    Returns an int64 array of shape (targets + nan, columns); its last row counts NaN when
    ``nan`` is true. The matrix is compared in blocks that stay in cache and the comparison
    masks are summed as narrow integers: no code matrix, no sort, no copy of the matrix (a
    Fortran-ordered matrix is read through its C-ordered transpose). A large matrix is cut
    into ranges of objects counted on one thread each (numpy's comparisons release the GIL;
    the counts are integers, so the result does not depend on the threads).
    """
    transposed = not x.flags.c_contiguous and x.T.flags.c_contiguous
    count = _row_counts if transposed else _block_counts
    data = x.T if transposed else x
    n_objects = data.shape[0] if transposed else data.shape[1]
    workers = min(_THREADS, os.cpu_count() or 1, x.size // _THREAD_VALUES)
    if workers < 2:
        return count(data, targets, nan)
    edges = np.linspace(0, n_objects, workers + 1).astype(int)
    ranges = list(itertools.pairwise(edges.tolist()))
    part = (lambda a, b: data[a:b]) if transposed else (lambda a, b: data[:, a:b])
    with ThreadPoolExecutor(workers) as pool:
        counts = list(pool.map(lambda r: count(part(*r), targets, nan), ranges))
    return np.concatenate(counts, axis=1)


def _block_counts(x: np.ndarray, targets: np.ndarray, nan: bool) -> np.ndarray:
    """:func:`_column_counts` of a matrix whose rows are contiguous (one thread)."""
    n_rows, n_cols = x.shape
    k = targets.size
    rows = int(min(255, max(1, _BLOCK_BYTES // max(1, n_cols * (x.itemsize + k + nan)))))
    hits = np.empty((k + nan, rows, n_cols), dtype=bool)
    part = np.empty((k + nan, n_cols), dtype=np.uint8)
    window = np.zeros((k + nan, n_cols), dtype=np.uint8)  # exact while it sums at most 255 rows
    total = np.zeros((k + nan, n_cols), dtype=np.int64)
    contiguous_rows = x.strides[1] == x.itemsize
    buf = None if contiguous_rows else np.empty((rows, n_cols), dtype=x.dtype)
    column_targets = targets.reshape(k, 1, 1)
    in_window = 0
    for start in range(0, n_rows, rows):
        block = x[start : start + rows]
        b = block.shape[0]
        if buf is not None:  # a strided view: one small copy per block, never the whole matrix
            np.copyto(buf[:b], block)
            block = buf[:b]
        h = hits[:, :b]
        if k:
            np.equal(block, column_targets, out=h[:k])
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


def _own_dtype_counts(x: np.ndarray, targets: np.ndarray, nan: bool) -> np.ndarray:
    """:func:`_column_counts` comparing in ``x``'s own dtype (an int8 matrix is never widened).

    Targets that ``x``'s dtype cannot hold exactly (2.5 or 300 for int8) match nothing.
    """
    if x.dtype == targets.dtype:
        return _column_counts(x, targets, nan)
    with np.errstate(invalid="ignore", over="ignore"):
        own = targets.astype(x.dtype)
        exact = own.astype(targets.dtype) == targets
    counts = _column_counts(x, own[exact], nan)
    out = np.zeros((targets.size + nan, x.shape[1]), dtype=np.int64)
    out[np.flatnonzero(np.append(exact, True) if nan else exact)] = counts
    return out


def _row_counts(xt: np.ndarray, targets: np.ndarray, nan: bool) -> np.ndarray:
    """:func:`_column_counts` of ``xt.T`` for a C-ordered ``xt`` (objects × refits)."""
    n_objects, n_refits = xt.shape
    k = targets.size
    rows = int(max(1, _BLOCK_BYTES // max(1, n_refits * (xt.itemsize + k + nan))))
    cols = 65_535  # uint16 sums are exact up to here
    hits = np.empty((k + nan, rows, min(n_refits, cols)), dtype=bool)
    part = np.empty((k + nan, rows), dtype=np.uint16)
    total = np.zeros((k + nan, n_objects), dtype=np.int64)
    column_targets = targets.reshape(k, 1, 1)
    for start in range(0, n_objects, rows):
        for first in range(0, n_refits, cols):
            block = xt[start : start + rows, first : first + cols]
            b, r = block.shape
            h = hits[:, :b, :r]
            if k:
                np.equal(block, column_targets, out=h[:k])
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


def _unknown_values(pieces: list[np.ndarray], targets: np.ndarray, limit: int) -> np.ndarray | None:
    """Sorted distinct non-missing values of ``pieces`` not among ``targets``; None past ``limit``."""
    found = np.zeros(0, dtype=targets.dtype)
    for x in pieces:
        rows = int(min(255, max(1, _BLOCK_BYTES // max(1, x.shape[1] * x.itemsize))))
        for start in range(0, x.shape[0], rows):
            block = x[start : start + rows]
            new = block[~np.isin(block, targets)]
            if new.dtype.kind == "f":
                new = new[~np.isnan(new)]
            if new.size:
                found = np.union1d(found, new)
                if found.size > limit:
                    return None
    return found


def _blocked_counts(
    arrays: list[tuple[Any, np.ndarray, str, bool]], categories: np.ndarray | None
) -> tuple[list[np.ndarray], np.ndarray] | None:
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
    if categories is None and any(_categories_from_dtype(obj) is not None for obj, _, _, _ in arrays):
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
        targets = categories
    else:
        targets = sample[: sample.size - nan] + (0.0 if sample.dtype.kind == "f" else 0)  # -0.0 is 0.0
        if targets.size > _BLOCK_MAX_CATEGORIES:
            return None
    compare = np.result_type(targets.dtype, *dtypes)
    if compare.kind == "f" and any(d.kind in "iu" and d.itemsize == 8 for d in dtypes):
        return None  # 64-bit integers compared as floats could collide
    targets = targets.astype(compare)
    for _attempt in range(3):
        if targets.size:
            for _, arr, name, per_object in arrays:
                if per_object:  # int64 totals (NaN row included) and their transpose, byte masks
                    check_memory(
                        20.0 * arr.shape[1] * (targets.size + 1),
                        f"category counts of {name} ({arr.shape[1]:,} objects × {targets.size:,} categories)",
                        "pass fewer objects at a time (stability is a mean over objects) or fewer categories",
                    )
        counts, short = [], []
        for ps in pieces:
            counts.append([])
            for p in ps:
                if not targets.size:  # nothing but missing values in the sample
                    short.append(p)
                    continue
                with_nan = nan and p.dtype.kind == "f"
                c = _own_dtype_counts(p, targets, with_nan)
                counts[-1].append(c[: targets.size])
                if np.any(c.sum(axis=0) != p.shape[0]):  # missing values or unknown values
                    missing = 0 if with_nan or p.dtype.kind != "f" else _column_counts(p, targets[:0], True)[0]
                    if np.any(c.sum(axis=0) + missing != p.shape[0]):
                        short.append(p)
        if not short:
            break
        if categories is not None:
            return None
        new = _unknown_values(short, targets, _BLOCK_MAX_CATEGORIES - targets.size)
        if new is None or not new.size:  # too many categories, or nothing but missing values
            return None
        targets = np.union1d(targets, new.astype(compare) + (0.0 if compare.kind == "f" else 0))
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
    used = np.zeros(targets.size, dtype=bool)
    for c in out:
        used |= (c.reshape(-1, targets.size) > 0).any(axis=0)
    if not used.all():  # pragma: no cover - every target was seen in the data
        out, targets = [c[..., used] for c in out], targets[used]
    return out, _category_dtype(targets, dtypes)


def _category_dtype(cats: np.ndarray, dtypes: list[np.dtype]) -> np.ndarray:
    """Observed categories in the dtype the other paths give them.

    Integer-valued categories spanning fewer than 64 values are int64 (all inputs integer or
    boolean) or float64; any other set keeps the dtype numpy gives the pooled values.
    """
    integral = cats.dtype.kind in "biu" or bool(np.all(cats == np.round(cats)))
    if integral and float(cats.max()) - float(cats.min()) < _FAST_MAX_CATEGORIES:
        return cats.astype(np.int64 if all(d.kind in "biu" for d in dtypes) else np.float64)
    return cats.astype(np.result_type(*dtypes))


def category_counts(
    arrays: list[tuple[Any, np.ndarray, str, bool]],
    categories: Any,
    *,
    ordinal: bool,
) -> tuple[list[np.ndarray], np.ndarray]:
    """Category counts of categorical arrays sharing one category list.

    Parameters
    ----------
    arrays
        ``(original_object, array, argument_name, per_object)`` tuples. With
        ``per_object`` the array is refits × objects and its counts have shape
        (objects, K); otherwise the array is pooled and its counts have shape (K,).
    categories, ordinal
        As for :func:`encode`.

    Returns
    -------
    counts, categories

    Notes
    -----
    Three paths give identical counts and categories (tests/stability/test_blocked_counts.py):
    numeric data with at most 16 categories are compared with each category block by block
    (:func:`_blocked_counts`: one read of the matrix, no sort); integer-like data spanning
    fewer than 64 values are compared on an int8 copy (:func:`_fast_numeric_counts`);
    anything else is coded with a sort (:func:`encode`) and counted with ``np.bincount``.

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
    categories = _check_categories(categories)
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
