"""The arguments only calibration takes: the forecasts and how many of them fit in memory."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import InvalidParameterError, check_memory, missing_mask, refuse_missing, short_repr, to_numpy

__all__ = ["check_forecast_size", "check_forecasts"]


def check_forecast_size(values: Any, name: str, *, bytes_per_forecast: float, advice: str) -> int | None:
    """The number of forecasts in ``values``, read without converting them, and its memory checked.

    A request for more forecasts than :func:`memory_limit` can hold is refused
    (:class:`TooLargeError`) before anything is allocated, even when ``values`` is a
    view that holds no memory of its own (``np.broadcast_to(0.5, 10**9)``). ``None``
    when the length cannot be read without iterating (a generator).

    >>> check_forecast_size([0.2, 0.7], "y_prob", bytes_per_forecast=80, advice="use fewer")
    2
    >>> import numpy as np
    >>> check_forecast_size(np.broadcast_to(0.5, 10**9), "y_prob", bytes_per_forecast=80, advice="use fewer")
    Traceback (most recent call last):
    ...
    confusionlab.TooLargeError: y_prob with 1,000,000,000 forecasts would need about 74.5 GiB, ...
    """
    try:
        size = len(values)
    except TypeError:
        return None
    check_memory(float(size) * bytes_per_forecast, f"{name} with {size:,} forecasts", advice)
    return size


def check_forecasts(values: Any, name: str = "y_prob") -> np.ndarray:
    """Forecast probabilities as a 1-D float64 array, each a number in [0, 1].

    NaN, missing values, infinities, numbers outside [0, 1], strings and 2-D input
    (one column per class) are refused, naming the argument and the first offending
    position.

    >>> check_forecasts([0.1, 1, 0]).tolist()
    [0.1, 1.0, 0.0]
    >>> check_forecasts([0.1, 1.2])
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: y_prob must hold probabilities in [0, 1]; got 1.2 at position 1
    >>> check_forecasts([0.1, float("nan")])
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: y_prob has 1 missing value (None/NaN/<NA>) at position 1; drop or fill it first
    """
    if values is None or isinstance(values, (str, bytes)):
        raise InvalidParameterError(f"{name} must be an array of probabilities, got {short_repr(values)}")
    try:
        arr = to_numpy(values)
    except (TypeError, InvalidParameterError):
        raise InvalidParameterError(f"{name} must be an array of probabilities, got {short_repr(values)}") from None
    if arr.ndim == 2:
        raise InvalidParameterError(
            f"{name} must be one-dimensional (the probability of the positive class), got shape {arr.shape}; "
            "for a (samples × classes) matrix pass one column and positive=<that class>"
        )
    if arr.ndim != 1:
        raise InvalidParameterError(f"{name} must be one-dimensional, got shape {arr.shape}")
    refuse_missing(missing_mask(arr), name)
    if arr.dtype.kind not in "biufO":
        raise InvalidParameterError(f"{name} must hold numbers (probabilities), got dtype {arr.dtype}")
    try:
        out = np.asarray(arr, dtype=np.float64)
    except (TypeError, ValueError):
        raise InvalidParameterError(f"{name} must hold numbers (probabilities), got {short_repr(values)}") from None
    refuse_missing(np.isnan(out), name)  # e.g. the string 'nan' among objects
    bad = np.flatnonzero((out < 0.0) | (out > 1.0))
    if bad.size:
        raise InvalidParameterError(
            f"{name} must hold probabilities in [0, 1]; got {float(out[bad[0]])!r} at position {int(bad[0])}"
        )
    return out
