"""The one set of argument checks for the whole library.

Internals trust their inputs; every public function of the core, of
:mod:`confusionlab.bias` and of :mod:`confusionlab.stability` validates here first,
so errors name the argument and the offending value, and one convention means the
same thing everywhere:

* counts are non-negative integers (:func:`check_count`);
* ``tolerance`` is the probability mass a model may drop from each marginal's tails
  (:func:`check_tolerance`, default :data:`DEFAULT_TOLERANCE`);
* ``confidence`` is the level of a central interval, in (0, 1) (:func:`check_confidence`);
* ``random_state`` is ``None``, an integer seed, a :class:`numpy.random.SeedSequence`
  or a :class:`numpy.random.Generator` (:func:`check_random_state`);
* ``undefined`` is the *value* a metric takes where it is 0/0 (:func:`check_undefined`);
  ``on_undefined`` is the *policy* for a result that is undefined as a whole
  (``"warn" | "nan" | "raise"``, :func:`check_on_undefined`);
* missing values (None, NaN, pandas ``<NA>``/``NaT``, and the string ``'nan'`` that numpy
  makes of ``np.nan`` in a string array) are never a category (:func:`missing_mask`,
  :func:`as_labels`);
* nothing allocates in proportion to its input before :func:`check_memory` has compared
  the estimate with :func:`memory_limit`.
"""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = [
    "DEFAULT_TOLERANCE",
    "MAX_COUNT",
    "MAX_TOLERANCE",
    "ON_UNDEFINED",
    "InvalidParameterError",
    "TooLargeError",
    "as_labels",
    "check_choice",
    "check_confidence",
    "check_count",
    "check_future_size",
    "check_half_width",
    "check_int",
    "check_margin",
    "check_memory",
    "check_n_draws",
    "check_n_resamples",
    "check_on_undefined",
    "check_positive_real",
    "check_probability",
    "check_random_state",
    "check_rate",
    "check_tolerance",
    "check_undefined",
    "format_bytes",
    "memory_limit",
    "missing_mask",
    "set_memory_limit",
]

#: Counts above this are refused: they are not exactly representable as floats and
#: no test set is that large.
MAX_COUNT = 2**53

#: The one default of ``tolerance`` (mass dropped from each marginal's tails).
DEFAULT_TOLERANCE = 1e-12
#: Largest ``tolerance`` accepted: more than 1 % of the mass is not pruning, it changes
#: the answer (a 95 % interval is decided by tails of 2.5 %).
MAX_TOLERANCE = 0.01

#: The policies for a result that is undefined as a whole.
ON_UNDEFINED = ("warn", "nan", "raise")

_DEFAULT_MEMORY_LIMIT = 2 * 1024**3
_memory_limit: int | None = None


class InvalidParameterError(ValueError, TypeError):
    """An argument has the wrong type or value.

    The one error for bad arguments in the whole library. It is both a
    :class:`ValueError` and a :class:`TypeError` (as scikit-learn's own
    ``InvalidParameterError``), so code written against either keeps working. The
    message names the argument and the offending value.

    Examples
    --------
    >>> try:
    ...     check_confidence(1.5)
    ... except InvalidParameterError as error:
    ...     print(error)
    confidence must lie strictly between 0 and 1, got 1.5
    """


InvalidParameterError.__module__ = "confusionlab"


class TooLargeError(ValueError):
    """A request would allocate more memory than :func:`memory_limit` allows.

    A :class:`ValueError`, raised *before* anything is allocated; the message says
    how to get an answer with less memory.
    """


# ----------------------------------------------------------------------------- numbers
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
        raise InvalidParameterError(f"{name} must be an integer count, got the boolean {value!r}")
    if isinstance(value, numbers.Integral):
        result = int(value)
    elif isinstance(value, numbers.Real):
        fvalue = float(value)
        if math.isnan(fvalue):
            raise InvalidParameterError(f"{name} must be an integer count, got NaN")
        if math.isinf(fvalue):
            raise InvalidParameterError(f"{name} must be an integer count, got {fvalue}")
        if not fvalue.is_integer():
            raise InvalidParameterError(f"{name} must be an integer count, got the non-integer {value!r}")
        result = int(fvalue)
    else:
        raise InvalidParameterError(f"{name} must be an integer count, got {type(value).__name__} {value!r}")
    if result < 0:
        raise InvalidParameterError(f"{name} must be a non-negative count, got {result}")
    if result > MAX_COUNT:
        raise InvalidParameterError(
            f"{name}={result} is absurdly large (more than 2**53); counts this large cannot be represented exactly"
        )
    return result


def check_int(value: Any, name: str, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """Return ``value`` as an ``int`` in ``[minimum, maximum]`` (integral floats refused).

    >>> check_int(2001, "bins", minimum=1)
    2001
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise InvalidParameterError(f"{name} must be an integer, got {type(value).__name__} {value!r}")
    result = int(value)
    if minimum is not None and result < minimum:
        raise InvalidParameterError(f"{name} must be at least {minimum}, got {result}")
    if maximum is not None and result > maximum:
        raise InvalidParameterError(f"{name} must be at most {maximum:,}, got {result:,}")
    return result


def _real(value: Any, name: str, what: str) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise InvalidParameterError(f"{name} must be {what}, got {type(value).__name__} {value!r}")
    return float(value)


def check_probability(value: Any, name: str, *, open_interval: bool = False) -> float:
    """Return ``value`` as a float in [0, 1] (or (0, 1) when ``open_interval``)."""
    fvalue = _real(value, name, "a real number")
    if math.isnan(fvalue):
        raise InvalidParameterError(f"{name} must be a number in [0, 1], got NaN")
    if open_interval and not 0.0 < fvalue < 1.0:
        raise InvalidParameterError(f"{name} must lie strictly between 0 and 1, got {fvalue}")
    if not 0.0 <= fvalue <= 1.0:
        raise InvalidParameterError(f"{name} must lie in [0, 1], got {fvalue}")
    return fvalue


def check_confidence(value: Any, name: str = "confidence") -> float:
    """The level of a central interval: a float strictly between 0 and 1.

    >>> check_confidence(0.95)
    0.95
    """
    return check_probability(value, name, open_interval=True)


def check_tolerance(value: Any, name: str = "tolerance") -> float:
    """Mass a model may drop from each marginal's tails: a float in [0, :data:`MAX_TOLERANCE`].

    ``0`` keeps every lattice point.

    >>> check_tolerance(1e-9)
    1e-09
    """
    fvalue = _real(value, name, "a small non-negative number (mass dropped per marginal)")
    if math.isnan(fvalue) or not 0.0 <= fvalue <= MAX_TOLERANCE:
        raise InvalidParameterError(
            f"{name} must lie in [0, {MAX_TOLERANCE}] (the probability mass dropped from each marginal's "
            f"tails; default {DEFAULT_TOLERANCE:g}), got {value!r}"
        )
    return fvalue


def check_positive_real(value: Any, name: str) -> float:
    """Return ``value`` as a finite float > 0."""
    fvalue = _real(value, name, "a positive real number")
    if not math.isfinite(fvalue) or fvalue <= 0:
        raise InvalidParameterError(f"{name} must be a finite positive number, got {value!r}")
    return fvalue


def check_choice(value: Any, name: str, choices: dict[str, Any] | tuple[str, ...]) -> str:
    """Return ``value`` if it is one of ``choices`` (case-insensitive, '_' and '-' alike)."""
    if not isinstance(value, str):
        raise InvalidParameterError(f"{name} must be a string, one of {sorted(choices)}, got {value!r}")
    normal = value.strip().lower().replace("_", "-")
    for choice in choices:
        if choice.lower().replace("_", "-") == normal:
            return choice
    raise InvalidParameterError(f"unknown {name} {value!r}; expected one of {sorted(choices)}")


def check_rate(value: Any, name: str) -> float:
    """A rate or prevalence strictly between 0 and 1 (NaN, bool and non-numbers refused).

    >>> check_rate(0.1, "prevalence")
    0.1
    >>> check_rate(1.0, "tpr")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: tpr must lie strictly between 0 and 1, got 1.0
    """
    return check_probability(value, name, open_interval=True)


def check_half_width(value: Any, name: str = "half_width") -> float:
    """The half-width an interval must reach: a finite number > 0.

    >>> check_half_width(0.05)
    0.05
    >>> check_half_width(0)
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: half_width must be a finite number > 0 (the ± an interval must reach), got 0
    """
    fvalue = _real(value, name, "a positive number")
    if not (math.isfinite(fvalue) and fvalue > 0):
        raise InvalidParameterError(f"{name} must be a finite number > 0 (the ± an interval must reach), got {value!r}")
    return fvalue


def check_margin(value: Any, name: str = "margin") -> float:
    """The half-width of the band of practical equivalence around a reference: a finite number ≥ 0.

    The same rule everywhere (bias verdicts, paired comparisons, audits): ``0`` asks
    whether the value equals the reference exactly, which has a positive probability
    for the library's discrete distributions.

    >>> check_margin(0.1)
    0.1
    >>> check_margin(float("nan"))
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: margin must be a finite number ≥ 0 (the half-width of the band ... got nan
    """
    fvalue = _real(value, name, "a non-negative number")
    if not (math.isfinite(fvalue) and fvalue >= 0):
        raise InvalidParameterError(
            f"{name} must be a finite number ≥ 0 (the half-width of the band of practical equivalence), got {value!r}"
        )
    return fvalue


def check_n_draws(value: Any, name: str = "n_draws", *, minimum: int = 1, bytes_per_draw: float = 0.0) -> int:
    """A number of Monte Carlo draws (the library's one name for it: ``n_draws``).

    With ``bytes_per_draw`` the memory the draws need is checked first (:func:`check_memory`).

    >>> check_n_draws(20_000)
    20000
    """
    n = check_int(value, name, minimum=minimum)
    if bytes_per_draw:
        check_memory(
            float(n) * bytes_per_draw,
            f"{name}={n:,} Monte Carlo draws",
            f"lower {name} (the Monte Carlo error of a probability shrinks as 1/√{name})",
        )
    return n


def check_n_resamples(
    value: Any, name: str = "n_resamples", *, minimum: int = 1, bytes_per_resample: float = 0.0
) -> int:
    """A number of bootstrap resamples (scipy's name: ``n_resamples``), memory checked like :func:`check_n_draws`.

    >>> check_n_resamples(2_000)
    2000
    """
    n = check_int(value, name, minimum=minimum)
    if bytes_per_resample:
        check_memory(float(n) * bytes_per_resample, f"{name}={n:,} bootstrap resamples", f"lower {name}")
    return n


def check_future_size(value: Any, p: int, n: int, name: str = "future_size") -> tuple[int, int] | None:
    """The size of the next test set as ``(positives, negatives)``; ``None`` keeps the observed size.

    One rule everywhere: ``future_size`` is either a pair ``(p, n)`` or a total ``N``.
    A total is split in the observed proportions, ``p′ = ⌊N·p/(p + n) + ½⌋`` (so
    ``N = p + n`` gives back ``(p, n)``), keeping at least one example of each class
    that was observed.

    >>> check_future_size(None, 20, 40) is None
    True
    >>> check_future_size(600, 20, 40), check_future_size((30, 30), 20, 40)
    ((200, 400), (30, 30))
    >>> check_future_size(-1, 20, 40)
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: future_size must be a non-negative count, got -1
    """
    if value is None:
        return None
    if isinstance(value, (str, bytes)) or (hasattr(value, "__len__") and len(value) != 2):
        raise InvalidParameterError(f"{name} must be a total N or a pair (positives, negatives), got {value!r}")
    if hasattr(value, "__len__"):
        return check_count(value[0], f"{name}[0] (positives)"), check_count(value[1], f"{name}[1] (negatives)")
    total = check_count(value, name)
    observed = p + n
    if observed == 0:
        raise InvalidParameterError(f"{name}={total} cannot be split into classes: the observed test set is empty")
    future_p = int((2 * total * p + observed) // (2 * observed))
    if p and total >= 2:
        future_p = max(future_p, 1)
    if n and total >= 2:
        future_p = min(future_p, total - 1)
    return future_p, total - future_p


def check_random_state(value: Any, name: str = "random_state") -> np.random.Generator:
    """A :class:`numpy.random.Generator` from ``None``, a seed, a SeedSequence or a Generator.

    >>> bool(check_random_state(0).integers(10) == np.random.default_rng(0).integers(10))
    True
    """
    if value is None or isinstance(value, (np.random.SeedSequence, np.random.Generator)):
        return np.random.default_rng(value)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral) or value < 0:
        raise InvalidParameterError(
            f"{name} must be None, a non-negative integer seed, a numpy SeedSequence or Generator, got {value!r}"
        )
    return np.random.default_rng(int(value))


def check_undefined(value: Any, *, allow_exclude: bool = True) -> float | None:
    """The value a metric takes where it is 0/0: a number, or ``"exclude"`` (returns None).

    >>> check_undefined(0.0), check_undefined("exclude")
    (0.0, None)
    """
    what = "a number or 'exclude'" if allow_exclude else "a number"
    if isinstance(value, str):
        if allow_exclude and value.strip().lower() == "exclude":
            return None
        raise InvalidParameterError(f"undefined must be {what}, got {value!r}")
    fvalue = _real(value, "undefined", what)
    if math.isnan(fvalue):
        raise InvalidParameterError(f"undefined must be {what}, not NaN")
    return fvalue


def check_on_undefined(value: Any) -> str:
    """The policy for a result that is undefined as a whole: ``"warn"``, ``"nan"`` or ``"raise"``."""
    if not isinstance(value, str) or value not in ON_UNDEFINED:
        raise InvalidParameterError(f"on_undefined must be one of {ON_UNDEFINED}, got {value!r}")
    return value


# ----------------------------------------------------------------------------- memory
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
        result = check_int(value, "memory limit", minimum=1)
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
    confusionlab._validation.TooLargeError: a lattice of 10**11 points would need about 931.3 GiB, ...
    """
    limit = memory_limit()
    if not nbytes <= limit:  # also catches NaN and inf
        raise TooLargeError(
            f"{what} would need about {format_bytes(float(nbytes))}, more than the memory limit of "
            f"{format_bytes(limit)} (confusionlab.set_memory_limit or CONFUSIONLAB_MEMORY_LIMIT change it); "
            f"{advice}"
        )


# ----------------------------------------------------------------------------- missing values
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


def _to_numpy(values: Any) -> np.ndarray:
    """A 1-D-able numpy view of an array-like: pandas/polars Series keep nulls as missing objects."""
    if isinstance(values, (str, bytes)):
        raise InvalidParameterError(f"expected an array of values, got the string {values!r}")
    to_numpy = getattr(values, "to_numpy", None)
    if callable(to_numpy):
        dtype = getattr(values, "dtype", None)
        # pandas nullable dtypes (Int64, boolean, string) keep <NA> only as object
        if dtype is not None and type(dtype).__module__.startswith("pandas") and hasattr(values, "isna"):
            if bool(values.isna().any()):
                return np.asarray(values.astype(object).to_numpy())
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
        arr = _to_numpy(values)
    except TypeError as exc:
        raise InvalidParameterError(f"{name}: {exc}") from None
    if arr.ndim != 1:
        raise InvalidParameterError(f"{name} must be one-dimensional, got shape {arr.shape}")
    missing = missing_mask(arr)
    if missing.any():
        if dropna:
            return arr[~missing]
        where = np.flatnonzero(missing)
        shown = ", ".join(map(str, where[:5].tolist())) + (" …" if where.size > 5 else "")
        count = int(where.size)
        raise InvalidParameterError(
            f"{name} has {count} missing value{'s' if count != 1 else ''} (None/NaN/<NA>) at "
            f"position{'s' if count != 1 else ''} {shown}; drop or fill {'them' if count != 1 else 'it'} first, "
            "or pass dropna=True where the function offers it"
        )
    return arr


# ---- evaluation and planning
def check_finite_real(value: Any, name: str, *, what: str = "a finite number") -> float:
    """Return ``value`` as a finite float (booleans, NaN, infinities and non-numbers refused).

    >>> check_finite_real(0.6, "value")
    0.6
    >>> check_finite_real(float("inf"), "value")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: value must be a finite number, got inf
    """
    fvalue = _real(value, name, what)
    if not math.isfinite(fvalue):
        raise InvalidParameterError(f"{name} must be {what}, got {value!r}")
    return fvalue
