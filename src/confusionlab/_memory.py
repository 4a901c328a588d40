"""Memory: the limit one call may allocate, and the check made before allocating.

Nothing allocates in proportion to its input before :func:`check_memory` has compared
the estimate with :func:`memory_limit` (default 2 GiB; :func:`set_memory_limit` or the
environment variable ``CONFUSIONLAB_MEMORY_LIMIT`` change it).
"""

from __future__ import annotations

import numbers
import os

import numpy as np

from ._errors import InvalidParameterError, TooLargeError

__all__ = ["check_memory", "format_bytes", "memory_limit", "set_memory_limit"]


#: The limit when neither :func:`set_memory_limit` nor ``CONFUSIONLAB_MEMORY_LIMIT`` sets one.
_DEFAULT_MEMORY_LIMIT = 2 * 1024**3
_memory_limit: int | None = None


def memory_limit() -> int:
    """Bytes one call may allocate for its working arrays (default 2 GiB).

    Set with :func:`set_memory_limit` or the environment variable
    ``CONFUSIONLAB_MEMORY_LIMIT`` (bytes, or with a suffix: ``"8G"``, ``"500M"``).
    """
    if _memory_limit is not None:
        return _memory_limit
    env = os.environ.get("CONFUSIONLAB_MEMORY_LIMIT")
    return _parse_bytes(env) if env else _DEFAULT_MEMORY_LIMIT


def set_memory_limit(limit: int | str | None) -> None:
    """Change :func:`memory_limit` for this process (``None`` restores the default).

    >>> set_memory_limit("4G"); memory_limit() == 4 * 1024**3
    True
    >>> set_memory_limit(None)
    """
    global _memory_limit
    _memory_limit = None if limit is None else _parse_bytes(limit)


def _parse_bytes(value: int | str) -> int:
    if isinstance(value, str):
        text = value.strip().upper().removesuffix("B").removesuffix("I")
        factor = {"K": 1024, "M": 1024**2, "G": 1024**3, "T": 1024**4}.get(text[-1:], 1)
        number = text[:-1] if factor != 1 else text
        try:
            result = int(float(number) * factor)
        except ValueError:
            raise InvalidParameterError(f"memory limit must be a number of bytes like '2G', got {value!r}") from None
    else:
        if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Integral):
            raise InvalidParameterError(f"memory limit must be an integer, got {type(value).__name__} {value!r}")
        result = int(value)
        if result < 1:
            raise InvalidParameterError(f"memory limit must be at least 1, got {result}")
    if result < 1:
        raise InvalidParameterError(f"memory limit must be positive, got {value!r}")
    return result


def format_bytes(nbytes: float) -> str:
    """``3.2 GiB``-style text.

    >>> format_bytes(3 * 1024**3)
    '3.0 GiB'
    """
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if abs(nbytes) < 1024 or unit == "PiB":
            return f"{nbytes:.0f} {unit}" if unit == "B" else f"{nbytes:.1f} {unit}"
        nbytes /= 1024
    raise AssertionError("unreachable")


def check_memory(nbytes: float, what: str, advice: str) -> None:
    """Refuse (:class:`TooLargeError`) before allocating ``nbytes`` above :func:`memory_limit`.

    Parameters
    ----------
    nbytes : float
        The estimate (a float, so that huge sizes cannot overflow).
    what : str
        What would be allocated, naming the argument that asks for it
        (``"n_boot=10**9 bootstrap draws"``).
    advice : str
        How to get an answer with less memory.

    >>> check_memory(10.0**12, "a lattice of 10**11 points", "raise tolerance")
    Traceback (most recent call last):
    ...
    confusionlab.TooLargeError: a lattice of 10**11 points would need about 931.3 GiB, ...
    """
    limit = memory_limit()
    if not nbytes <= limit:  # also catches NaN and inf
        raise TooLargeError(
            f"{what} would need about {format_bytes(float(nbytes))}, more than the memory limit of "
            f"{format_bytes(limit)} (confusionlab.set_memory_limit or CONFUSIONLAB_MEMORY_LIMIT change it); "
            f"{advice}"
        )
