"""The arguments only the stability measures take: scales, categories, learner counts and the
policy for an undefined result.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import InvalidParameterError, check_points, missing_mask

__all__ = [
    "ON_UNDEFINED",
    "STABILITY_SCALES",
    "check_categories",
    "check_learner_counts",
    "check_learner_numbers",
    "check_on_undefined",
    "check_scale",
]


#: The measurement scales of :mod:`confusionlab.stability`.
STABILITY_SCALES: tuple[str, ...] = ("nominal", "ordinal", "metric")


def check_scale(value: Any, name: str = "scale") -> str:
    """The measurement scale of stability predictions: ``"nominal"``, ``"ordinal"`` or ``"metric"``.

    >>> check_scale("ordinal")
    'ordinal'
    >>> check_scale("ratio")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: scale must be one of ('nominal', 'ordinal', 'metric'); got 'ratio'
    """
    if not isinstance(value, str) or value not in STABILITY_SCALES:
        raise InvalidParameterError(f"{name} must be one of {STABILITY_SCALES}; got {value!r}")
    return value


def check_categories(value: Any, name: str = "categories") -> np.ndarray | None:
    """A category list as a non-empty 1-D array with no missing entry (None stays None).

    >>> check_categories(["neg", "pos"]).tolist()
    ['neg', 'pos']
    >>> check_categories(["neg", None])
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: categories must not contain missing values (None/NaN/<NA>); got ['neg', None]
    """
    if value is None:
        return None
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise InvalidParameterError(f"{name} must be a 1-D sequence; got {value!r}"[:300])
    try:
        cats = np.asarray(list(value))
    except (TypeError, ValueError):
        raise InvalidParameterError(f"{name} must be a 1-D sequence of values; got {value!r}"[:300]) from None
    if cats.ndim != 1:
        raise InvalidParameterError(f"{name} must be a 1-D sequence; got shape {cats.shape}")
    if cats.size < 1:
        raise InvalidParameterError(f"{name} must not be empty")
    if cats.dtype.kind in "SVc":
        raise InvalidParameterError(f"{name} has unsupported dtype {cats.dtype}")
    if missing_mask(cats).any():
        raise InvalidParameterError(
            f"{name} must not contain missing values (None/NaN/<NA>); got {cats.tolist()!r}"[:300]
        )
    return cats


def check_learner_counts(value: Any, name: str = "n_learners", *, maximum: int = 2**53) -> np.ndarray:
    """A grid of numbers of learners: a non-empty 1-D sequence of positive integers ≤ ``maximum``.

    >>> check_learner_counts([10, 50.0, 250]).tolist()
    [10, 50, 250]
    >>> check_learner_counts([10, 0])
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: n_learners must hold positive integers; got [10, 0]
    """
    if isinstance(value, (str, bytes)) or value is None:
        raise InvalidParameterError(f"{name} must be a 1-D sequence of counts; got {value!r}")
    grid = np.asarray(value)
    if grid.ndim != 1 or grid.size < 1 or grid.dtype.kind not in "iuf":
        raise InvalidParameterError(f"{name} must be a non-empty 1-D sequence of counts; got {value!r}"[:300])
    if not np.all(np.isfinite(grid)) or np.any(grid < 1) or np.any(grid != np.round(grid)):
        raise InvalidParameterError(f"{name} must hold positive integers; got {grid.tolist()}"[:300])
    if np.any(grid > maximum):
        raise InvalidParameterError(f"{name} must be at most {maximum:.3g}; got {float(grid.max()):.3g}")
    return grid.astype(np.int64)


#: The policies for a result that is undefined as a whole.
ON_UNDEFINED = ("warn", "nan", "raise")


def check_on_undefined(value: Any) -> str:
    """The policy for a result that is undefined as a whole: ``"warn"``, ``"nan"`` or ``"raise"``."""
    if not isinstance(value, str) or value not in ON_UNDEFINED:
        raise InvalidParameterError(f"on_undefined must be one of {ON_UNDEFINED}, got {value!r}")
    return value


def check_learner_numbers(value: Any, name: str = "n_learners") -> np.ndarray:
    """Numbers of learners at which a fit is read: real numbers ≥ 0 (a number or an array), as floats.

    >>> check_learner_numbers([1, 10]).tolist()
    [1.0, 10.0]
    >>> check_learner_numbers(-1)
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: n_learners must be numbers ≥ 0, got -1.0
    """
    arr = check_points(value, name)
    bad = ~(arr >= 0)  # NaN too
    if np.any(bad):
        raise InvalidParameterError(f"{name} must be numbers ≥ 0, got {float(arr[bad].reshape(-1)[0])!r}")
    return arr
