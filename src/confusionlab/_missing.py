"""Missing values: None, NaN, NaT, pandas ``<NA>`` and the string ``'nan'`` are never a category.

:func:`to_numpy` reads any array-like (list, numpy, pandas, polars, pyarrow) keeping its
missing entries visible, :func:`missing_mask` finds them, and :func:`as_labels` reads a
label vector and refuses them, naming the first position.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ._errors import InvalidParameterError

__all__ = ["as_labels", "missing_mask", "refuse_missing", "to_numpy"]


def missing_mask(values: np.ndarray) -> np.ndarray:
    """Boolean mask of missing entries: None, NaN, NaT, pandas ``<NA>``, and ``'nan'`` in str arrays.

    numpy stores ``np.nan`` inside a list of strings as the string ``'nan'``; such an
    entry is missing, never a category.

    >>> missing_mask(np.asarray(["a", np.nan, "b"])).tolist()
    [False, True, False]
    >>> missing_mask(np.array([1.0, np.nan])).tolist()
    [False, True]
    """
    arr = np.asarray(values)
    kind = arr.dtype.kind
    if kind in "fc":
        return np.isnan(arr)
    if kind in "mM":
        return np.isnat(arr)
    if kind == "U":
        return arr == "nan"
    if kind == "O":
        flat = [_is_missing_scalar(v) for v in arr.flat]
        return np.asarray(flat, dtype=bool).reshape(arr.shape)
    return np.zeros(arr.shape, dtype=bool)


def _is_missing_scalar(v: Any) -> bool:
    if v is None:
        return True
    if isinstance(v, float | np.floating):
        return v != v
    if isinstance(v, np.datetime64 | np.timedelta64):
        return bool(np.isnat(v))
    # pandas.NA, pandas.NaT and polars' nulls come out of to_numpy() as these objects
    return type(v).__name__ in ("NAType", "NaTType")


def to_numpy(values: Any) -> np.ndarray:
    """A 1-D-able numpy view of an array-like: pandas/polars Series keep nulls as missing objects."""
    if isinstance(values, (str, bytes)):
        raise InvalidParameterError(f"expected an array of values, got the string {values!r}")
    if type(values).__module__.startswith("pyarrow"):
        return _arrow_to_numpy(values)
    if type(values).__module__.startswith("pandas") and hasattr(values, "isna"):
        # pandas nullable dtypes (Int64, boolean, string) and Categorical keep <NA>/NaN
        # only as object; Series, Index, ExtensionArray and Categorical alike
        if bool(np.asarray(values.isna()).any()):
            return np.asarray(values, dtype=object)
        return np.asarray(values)
    to_numpy = getattr(values, "to_numpy", None)
    if callable(to_numpy):
        arr = np.asarray(to_numpy())
        null_count = getattr(values, "null_count", None)  # polars
        if callable(null_count) and null_count() and arr.dtype.kind not in "fO":
            arr = np.asarray(values.to_list(), dtype=object)
        return arr
    if isinstance(values, np.ndarray):
        return values
    if isinstance(values, Sequence) or hasattr(values, "__array__") or hasattr(values, "__iter__"):
        items = values if isinstance(values, Sequence) else list(values)
        if any(_is_missing_scalar(v) for v in items):
            return np.asarray(list(items), dtype=object)
        return np.asarray(items)
    raise InvalidParameterError(f"expected an array of values, got {type(values).__name__}")


def _arrow_to_numpy(values: Any) -> np.ndarray:
    """A pyarrow Array or ChunkedArray as numpy: with a null, an object array holding ``None`` there.

    >>> import pyarrow as pa
    >>> _arrow_to_numpy(pa.array([1, None])).tolist()
    [1, None]
    """
    null_count = getattr(values, "null_count", 0)
    if null_count:
        return np.asarray(values.to_pylist(), dtype=object)
    try:
        return np.asarray(values.to_numpy(zero_copy_only=False))
    except TypeError:  # a ChunkedArray of an older pyarrow takes no argument
        return np.asarray(values.to_numpy())


def as_labels(values: Any, name: str, *, dropna: bool = False) -> np.ndarray:
    """A 1-D array of labels with no missing entries (or the positions of them refused).

    Parameters
    ----------
    values : array-like
        list, tuple, numpy array, pandas or polars Series.
    name : str
        The argument's name, for messages.
    dropna : bool, default False
        Return the non-missing entries instead of refusing. (Callers that must keep
        rows aligned use :func:`missing_mask` themselves.)

    >>> as_labels([1, 0, 1], "y_true").tolist()
    [1, 0, 1]
    >>> as_labels(["a", None], "y_true")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: y_true has 1 missing value (None/NaN/<NA>) at position 1; drop or ...
    """
    try:
        arr = to_numpy(values)
    except TypeError as exc:
        raise InvalidParameterError(f"{name}: {exc}") from None
    if arr.ndim != 1:
        raise InvalidParameterError(f"{name} must be one-dimensional, got shape {arr.shape}")
    missing = missing_mask(arr)
    if missing.any():
        if dropna:
            return arr[~missing]
        refuse_missing(missing, name, "or pass dropna=True where the function offers it")
    return arr


def refuse_missing(missing: np.ndarray, name: str, advice: str = "") -> None:
    """Refuse the missing entries flagged by ``missing`` (a boolean mask), naming ``name`` and their positions.

    >>> refuse_missing(np.array([False, False]), "y_score")
    >>> refuse_missing(np.array([False, True]), "y_score")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: y_score has 1 missing value (None/NaN/<NA>) at position 1; drop or fill it first
    """
    where = np.flatnonzero(missing)
    if not where.size:
        return
    shown = ", ".join(map(str, where[:5].tolist())) + (" …" if where.size > 5 else "")
    count = int(where.size)
    raise InvalidParameterError(
        f"{name} has {count} missing value{'s' if count != 1 else ''} (None/NaN/<NA>) at "
        f"position{'s' if count != 1 else ''} {shown}; drop or fill {'them' if count != 1 else 'it'} first"
        + (f", {advice}" if advice else "")
    )
