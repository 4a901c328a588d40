"""Validation at the boundary: prediction matrices, reference samples and categories.

Everything in :mod:`confusionlab.stability` accepts predictions as a *refits × objects*
matrix (numpy array, nested lists, pandas DataFrame, xarray DataArray or anything else
``numpy.asarray`` understands). Missing predictions are ``NaN``, ``None``, pandas
``<NA>``/``NaT`` and the string ``'nan'`` that numpy makes of ``np.nan`` inside a string
array: the library's one :func:`~confusionlab._validation.missing_mask` decides, and a
missing value is never a category. A nominal or ordinal scale takes at most
:data:`MAX_CATEGORIES` distinct values. The helpers here turn such input into a float
matrix (metric scale) or into category codes (:func:`encode`); counting the categories is
the job of :mod:`confusionlab.stability._counting`. Bad input raises
:class:`~confusionlab.InvalidParameterError` naming the argument. Internals trust what
comes out of here.
"""

from __future__ import annotations

import numbers
from typing import Any, Literal

import numpy as np

from .._validation import InvalidParameterError, missing_mask
from ._checks import STABILITY_SCALES, check_scale

Scale = Literal["nominal", "ordinal", "metric"]
SCALES: tuple[str, ...] = STABILITY_SCALES

__all__ = [
    "MAX_CATEGORIES",
    "SCALES",
    "Scale",
    "as_float",
    "as_matrix",
    "as_sample",
    "categories_from_dtype",
    "check_scale",
    "encode",
]

_MAX_SHOWN = 5

#: Most distinct values a nominal or ordinal scale accepts. Categorical predictions
#: (classes, levels) have a handful; thousands of distinct values are almost certainly a
#: continuous measure, for which ``scale="metric"`` is the right (and linear-time) choice.
MAX_CATEGORIES = 5_000


def _to_array(obj: Any, name: str) -> np.ndarray:
    if obj is None:
        raise InvalidParameterError(f"{name} must be array-like; got None")
    to_numpy = getattr(obj, "to_numpy", None)
    try:
        arr = to_numpy() if callable(to_numpy) else np.asarray(obj)
    except ValueError as exc:  # ragged nested sequences
        raise InvalidParameterError(
            f"{name} must be a rectangular array (refits × objects); it looks ragged: {exc}"
        ) from None
    arr = np.asarray(arr)
    if arr.dtype.kind in "SVc":
        raise InvalidParameterError(f"{name} has unsupported dtype {arr.dtype}")
    if arr.dtype == object and arr.ndim and any(isinstance(v, list | tuple) for v in arr.flat):
        raise InvalidParameterError(f"{name} must be a rectangular array (refits × objects); it is ragged")
    return arr


def as_matrix(predictions: Any, name: str = "predictions") -> np.ndarray:
    """Return ``predictions`` as a 2-D array of shape (refits, objects).

    Raises
    ------
    InvalidParameterError
        If the input is ragged, not 2-D, has fewer than two refits or no objects.
    """
    arr = _to_array(predictions, name)
    if arr.ndim != 2:
        hint = " For a single object pass a column, e.g. np.asarray(x)[:, None]." if arr.ndim == 1 else ""
        raise InvalidParameterError(f"{name} must be 2-D (refits × objects); got {arr.ndim}-D shape {arr.shape}.{hint}")
    n_refits, n_objects = arr.shape
    if n_refits < 2:
        raise InvalidParameterError(
            f"{name} needs at least 2 refits (rows) to measure stability; got shape {arr.shape}"
        )
    if n_objects < 1:
        raise InvalidParameterError(f"{name} needs at least 1 object (column); got shape {arr.shape}")
    return arr


def as_sample(values: Any, name: str) -> np.ndarray:
    """Return a reference sample (any shape, pooled) as a flat array; at least 2 values."""
    arr = _to_array(values, name).reshape(-1)
    if arr.size < 2:
        raise InvalidParameterError(f"{name} needs at least 2 values; got {arr.size}")
    return arr


#: The largest magnitude ``scale="metric"`` accepts: sums of squared differences of values up to
#: this stay far inside float64 (``(2·1e100)² · 1e12 pairs ≈ 4e212``).
MAX_METRIC_VALUE = 1e100
#: The smallest largest magnitude it accepts (all values below it: their squares underflow).
MIN_METRIC_SCALE = 1e-100


def as_float(arr: np.ndarray, name: str) -> np.ndarray:
    """Convert to float64 with NaN for missing values, or raise an InvalidParameterError naming ``name``.

    Only numbers are accepted (strings such as ``"1.5"`` are refused, not parsed); missing
    values (None, NaN, pandas ``<NA>``) become NaN; infinities, magnitudes beyond
    :data:`MAX_METRIC_VALUE` and data all of whose magnitudes lie below :data:`MIN_METRIC_SCALE` are refused.
    """
    if arr.dtype.kind in "biuf":
        out = arr.astype(np.float64, copy=False)
    elif arr.dtype == object:
        missing = missing_mask(arr)
        valid = arr[~missing]
        if not all(isinstance(v, numbers.Real) for v in valid):
            kinds = sorted({type(v).__name__ for v in valid if not isinstance(v, numbers.Real)})
            raise InvalidParameterError(f"{name} must be numeric for scale='metric'; got values of type {kinds}")
        out = np.full(arr.shape, np.nan)
        out[~missing] = valid.astype(np.float64)
    else:
        raise InvalidParameterError(f"{name} must be numeric for scale='metric'; got values of dtype {arr.dtype}")
    if np.isinf(out).any():
        raise InvalidParameterError(f"{name} contains infinite values")
    largest = float(np.abs(out[~np.isnan(out)]).max(initial=0.0))
    if largest > MAX_METRIC_VALUE:  # unchecked, 1e300 gives NaN or 1.0
        raise InvalidParameterError(
            f"{name} holds values beyond ±{MAX_METRIC_VALUE:.0e}, whose squared differences overflow float64; "
            "divide the predictions (and the reference) by one constant first: the measures are scale-free"
        )
    if 0.0 < largest < MIN_METRIC_SCALE:  # unchecked, 1e-160 drifts and 1e-300 is called "constant"
        raise InvalidParameterError(
            f"{name} holds only values below ±{MIN_METRIC_SCALE:.0e}, whose squared differences underflow "
            "float64; multiply the predictions (and the reference) by one constant first: the measures are scale-free"
        )
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
    raise InvalidParameterError(f"{name} mixes value types {kinds}; use one type for all categories")


def _encode_one(valid: np.ndarray, categories: np.ndarray, order: np.ndarray, name: str) -> np.ndarray:
    """Codes (positions in ``categories``) of ``valid``; unknown values raise InvalidParameterError."""
    ordered = categories[order]
    if valid.size == 0:
        return np.zeros(0, dtype=np.intp)
    try:
        idx = np.searchsorted(ordered, valid)
    except TypeError:
        raise InvalidParameterError(
            f"{name} values ({valid.dtype}) cannot be compared with categories ({categories.dtype})"
        ) from None
    idx = np.minimum(idx, ordered.size - 1)
    ok = ordered[idx] == valid
    if not np.all(ok):
        unknown = np.unique(valid[~ok])
        shown = ", ".join(repr(v.item() if hasattr(v, "item") else v) for v in unknown[:_MAX_SHOWN])
        more = f" and {unknown.size - _MAX_SHOWN} more" if unknown.size > _MAX_SHOWN else ""
        raise InvalidParameterError(
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


def categories_from_dtype(obj: Any) -> np.ndarray | None:
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
            cats = categories_from_dtype(obj)
            if cats is not None:
                categories = cats
                break
    if categories is None:
        nonempty = [v for v in valids if v.size]
        if not nonempty:
            raise InvalidParameterError(f"{arrays[0][2]} contains no non-missing values")
        kinds = {v.dtype.kind for v in nonempty}
        if len(kinds) > 1 and not kinds <= set("biuf"):
            raise InvalidParameterError(
                f"{' and '.join(n for _, _, n in arrays)} mix numbers and strings; pass categories= explicitly"
            )
        if ordinal and not kinds <= set("biuf"):
            raise InvalidParameterError(
                f"scale='ordinal' with non-numeric values in {' and '.join(n for _, _, n in arrays)} needs "
                "categories= listing the categories in their order (lowest first)"
            )
        cats = _unique_values(np.concatenate(nonempty))
        if cats.size > MAX_CATEGORIES:
            names = " and ".join(n for _, _, n in arrays)
            raise InvalidParameterError(
                f"{names} take {cats.size:,} distinct values, more than MAX_CATEGORIES = "
                f"{MAX_CATEGORIES:,} for {'an ordinal' if ordinal else 'a nominal'} scale: this is almost "
                "certainly a continuous measure (e.g. regression outputs or probabilities); use "
                "scale='metric'"
            )
    else:
        if isinstance(categories, str) or np.ndim(categories) != 1:
            raise InvalidParameterError(f"categories must be a 1-D sequence; got {categories!r}")
        cats = np.asarray(list(categories))
        if cats.size < 1:
            raise InvalidParameterError("categories must not be empty")
        if cats.size > MAX_CATEGORIES:
            raise InvalidParameterError(
                f"categories has {cats.size:,} entries, more than MAX_CATEGORIES = {MAX_CATEGORIES:,}: "
                "that many categories are almost certainly a continuous measure; use scale='metric'"
            )
        if cats.dtype == object:
            cats = _homogeneous(cats, "categories")
        if np.unique(cats).size != cats.size:
            raise InvalidParameterError(f"categories contains duplicates: {cats.tolist()!r}")
    order = np.argsort(cats, kind="stable")
    codes = []
    for (_, arr, name), valid, missing in zip(arrays, valids, masks, strict=True):
        out = np.full(arr.shape, -1, dtype=np.intp)
        out[~missing] = _encode_one(valid, cats, order, name)
        codes.append(out)
    return codes, cats
