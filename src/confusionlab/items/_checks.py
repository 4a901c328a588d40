"""The arguments only the item jobs take: scores per row, item and cluster ids, their sizes checked
before anything is allocated."""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from .._arrays import check_same_length
from .._errors import InvalidParameterError, short_repr
from .._memory import check_memory
from .._missing import as_labels, missing_mask, to_numpy

__all__ = ["BYTES_PER_ROW", "check_ids", "check_rows", "check_scores"]

#: Peak bytes per row of building an item table (the scores, two codes, sorted copies, sums).
BYTES_PER_ROW = 96.0


def check_rows(values: Any, name: str) -> None:
    """Refuse (:class:`TooLargeError`) more rows than the memory limit holds, read without converting
    ``values`` (a view such as ``np.broadcast_to(1.0, 10**10)`` holds no memory of its own).

    >>> import numpy as np
    >>> check_rows(np.broadcast_to(1.0, 10**10), "scores")
    Traceback (most recent call last):
    ...
    confusionlab.TooLargeError: scores with 10,000,000,000 rows would need about 894.1 GiB, ...
    """
    try:
        size = len(values)
    except TypeError:
        return
    check_memory(float(size) * BYTES_PER_ROW, f"{name} with {size:,} rows", "evaluate a sample of the items")


def check_scores(values: Any, name: str = "scores") -> np.ndarray:
    """Scores as a 1-D float64 array: numbers (0/1, booleans or partial credit), finite, none missing.

    Letter grades ("C", "I", "P", "N") are refused with the mapping to use; the readers of
    evaluation logs (``read_inspect_log``) apply it.

    >>> check_scores([1, 0, 0.5, True]).tolist()
    [1.0, 0.0, 0.5, 1.0]
    >>> check_scores([1.0, float("nan")])
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: scores has 1 NaN or missing value, the first at position 1; drop or ...
    >>> check_scores(["C", "I"])
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: scores must hold numbers (1 correct, 0 wrong, or partial credit), got 'C' \
of type str; map letter grades first (C = 1, P = 0.5, I = N = 0), as read_inspect_log does
    """
    if values is None or isinstance(values, (str, bytes, dict)):
        raise InvalidParameterError(f"{name} must be an array of numbers, got {short_repr(values)}")
    check_rows(values, name)
    try:
        arr = to_numpy(values)
    except (TypeError, InvalidParameterError):
        raise InvalidParameterError(f"{name} must be an array of numbers, got {short_repr(values)}") from None
    if arr.ndim != 1:
        raise InvalidParameterError(f"{name} must be one-dimensional (one score per row), got shape {arr.shape}")
    missing = missing_mask(arr) if arr.dtype.kind in "fO" else np.zeros(arr.shape, bool)
    if missing.any():
        where = np.flatnonzero(missing)
        count = int(where.size)
        raise InvalidParameterError(
            f"{name} has {count} NaN or missing value{'s' if count != 1 else ''}, the first at position "
            f"{int(where[0])}; drop or fill {'them' if count != 1 else 'it'} first"
        )
    if arr.dtype.kind not in "biuf":
        bad = next((v for v in arr.tolist() if not isinstance(v, numbers.Real)), None)
        if bad is not None or arr.dtype.kind != "O":
            shown = bad if bad is not None else arr.ravel()[0]
            raise InvalidParameterError(
                f"{name} must hold numbers (1 correct, 0 wrong, or partial credit), got {shown!r} of type "
                f"{type(shown).__name__}; map letter grades first (C = 1, P = 0.5, I = N = 0), as read_inspect_log does"
            )
    out = np.asarray(arr, dtype=np.float64)
    bad = np.flatnonzero(~np.isfinite(out))
    if bad.size:
        raise InvalidParameterError(f"{name} must be finite, got {float(out[bad[0]])!r} at position {int(bad[0])}")
    if out.size and float(np.abs(out).max()) > 1e15:
        raise InvalidParameterError(f"{name} must be scores of at most 1e15 in size, got {float(np.abs(out).max())!r}")
    return out


def check_ids(values: Any, name: str, length: int) -> np.ndarray | None:
    """Item or cluster ids, one per row (None stays None): labels of any hashable type, none missing.

    >>> check_ids(["a", "b"], "item", 2).tolist()
    ['a', 'b']
    >>> check_ids(["a"], "cluster", 2)
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: scores and cluster must match: the same length, one label per example; ...
    """
    if values is None:
        return None
    if isinstance(values, (str, bytes)):
        raise InvalidParameterError(
            f"{name} must be an array of ids (one per row), got the string {values!r}; with data= pass a column name"
        )
    check_rows(values, name)
    try:
        ids = as_labels(values, name)
    except TypeError:
        raise InvalidParameterError(f"{name} must be an array of ids, got {short_repr(values)}") from None
    check_same_length({"scores": np.empty(length), name: ids}, "an item evaluation")
    return ids
