"""Argument checks at the public boundary.

Internals trust their inputs; every public function validates here first so that
errors name the argument and the offending value.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

#: Counts above this are refused: they are not exactly representable as floats and
#: no test set is that large.
MAX_COUNT = 2**53


def check_count(value: Any, name: str) -> int:
    """Return ``value`` as a Python ``int`` if it is a valid count.

    Accepts Python and numpy integers, and floats with an integral value (as they
    come out of pandas). Refuses booleans, NaN, infinities, non-integral or
    negative numbers and counts above ``2**53``.

    Examples
    --------
    >>> check_count(16, "tp")
    16
    >>> check_count(4.0, "fn")
    4
    """
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be an integer count, got the boolean {value!r}")
    if isinstance(value, numbers.Integral):
        result = int(value)
    elif isinstance(value, numbers.Real):
        fvalue = float(value)
        if math.isnan(fvalue):
            raise ValueError(f"{name} must be an integer count, got NaN")
        if math.isinf(fvalue):
            raise ValueError(f"{name} must be an integer count, got {fvalue}")
        if not fvalue.is_integer():
            raise ValueError(f"{name} must be an integer count, got the non-integer {value!r}")
        result = int(fvalue)
    else:
        raise TypeError(f"{name} must be an integer count, got {type(value).__name__} {value!r}")
    if result < 0:
        raise ValueError(f"{name} must be a non-negative count, got {result}")
    if result > MAX_COUNT:
        raise ValueError(
            f"{name}={result} is absurdly large (more than 2**53); counts this large cannot be "
            "represented exactly"
        )
    return result


def check_probability(value: Any, name: str, *, open_interval: bool = False) -> float:
    """Return ``value`` as a float in [0, 1] (or (0, 1) when ``open_interval``)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {value!r}")
    fvalue = float(value)
    if math.isnan(fvalue):
        raise ValueError(f"{name} must be a number in [0, 1], got NaN")
    if open_interval and not 0.0 < fvalue < 1.0:
        raise ValueError(f"{name} must lie strictly between 0 and 1, got {fvalue}")
    if not 0.0 <= fvalue <= 1.0:
        raise ValueError(f"{name} must lie in [0, 1], got {fvalue}")
    return fvalue


def check_positive_real(value: Any, name: str) -> float:
    """Return ``value`` as a finite float > 0."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a positive real number, got {value!r}")
    fvalue = float(value)
    if not math.isfinite(fvalue) or fvalue <= 0:
        raise ValueError(f"{name} must be a finite positive number, got {value!r}")
    return fvalue


def check_choice(value: Any, name: str, choices: dict[str, Any] | tuple[str, ...]) -> str:
    """Return ``value`` if it is one of ``choices`` (case-insensitive, '_' and '-' alike)."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, one of {sorted(choices)}, got {value!r}")
    normal = value.strip().lower().replace("_", "-")
    for choice in choices:
        if choice.lower().replace("_", "-") == normal:
            return choice
    raise ValueError(f"unknown {name} {value!r}; expected one of {sorted(choices)}")
