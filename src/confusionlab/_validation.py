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
    >>> from confusionlab._validation import check_confidence
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
    if isinstance(value, np.ndarray) and value.ndim == 0:  # a numpy scalar array is a total
        value = value.item()
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


# ---- paired
def check_shape(value: Any, name: str, shape: tuple[int, ...], what: str) -> np.ndarray:
    """``value`` as an object array of exactly ``shape`` (its entries are checked by the caller).

    >>> check_shape([[1, 2], [3, 4]], "cells", (2, 2), "a 2 × 2 table").shape
    (2, 2)
    >>> check_shape("abcd", "row", (4,), "four counts")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: row must be four counts, got 'abcd' (shape ())
    """
    try:
        arr = np.asarray(value, dtype=object)
    except (ValueError, TypeError):
        arr = np.empty(0, dtype=object)
    if isinstance(value, (str, bytes)) or arr.shape != shape:
        raise InvalidParameterError(f"{name} must be {what}, got {value!r:.80} (shape {arr.shape})")
    return arr


def check_same_length(arrays: dict[str, Any], what: str) -> int:
    """The common length of label arrays that hold one label per example (at least one example).

    >>> check_same_length({"y_true": [1, 0], "pred_a": [1, 1]}, "a comparison")
    2
    >>> check_same_length({"y_true": [1, 0], "pred_a": [1]}, "a comparison")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: y_true and pred_a must match: the same length, one label per example; ...
    """
    names = list(arrays)
    lengths = [len(v) for v in arrays.values()]
    listed = _and(names)
    if len(set(lengths)) > 1:
        raise InvalidParameterError(
            f"{listed} must match: the same length, one label per example; got {_and([str(v) for v in lengths])}"
        )
    if not lengths or lengths[0] == 0:
        raise InvalidParameterError(f"{listed} are empty: {what} needs at least one example")
    return lengths[0]


def check_binary_labels(labels: Sequence[Any], positive: Any, names: Sequence[str], what: str) -> None:
    """Refuse more than two distinct labels unless ``positive`` says which one is the positive class.

    >>> check_binary_labels([0, 1], None, ["y_true", "pred_a"], "a paired comparison")
    >>> check_binary_labels([0.2, 0.7, 1], None, ["y_true", "pred_a"], "a paired comparison")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: y_true and pred_a hold 3 distinct labels (0.2, 0.7, 1); a paired ...
    """
    if len(labels) > 2 and positive is None:
        shown = ", ".join(map(repr, labels[:6])) + (" …" if len(labels) > 6 else "")
        raise InvalidParameterError(
            f"{_and(list(names))} hold {len(labels)} distinct labels ({shown}); {what} needs binary predicted "
            "labels (threshold scores first), or positive=<label> to count that class against all the others"
        )


def check_classifiers(predictions: Any, maximum: int, name: str = "predictions") -> list[str]:
    """The names of ``predictions`` (a dict name → predicted labels): 2 to ``maximum``, distinct as strings.

    >>> check_classifiers({"a": [1], "b": [0]}, 12)
    ['a', 'b']
    >>> check_classifiers({"a": [1]}, 12)
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: predictions must hold at least two classifiers, got 1
    """
    if not isinstance(predictions, dict):
        raise InvalidParameterError(f"{name} must be a dict name -> predicted labels, got {type(predictions).__name__}")
    names = [str(k) for k in predictions]
    if len(names) < 2:
        raise InvalidParameterError(f"{name} must hold at least two classifiers, got {len(names)}")
    if len(names) > maximum:
        raise InvalidParameterError(
            f"{name} may hold at most {maximum} classifiers (2**k agreement cells per class), got {len(names)}"
        )
    if len(set(names)) != len(names):
        raise InvalidParameterError(f"classifier names must be distinct as strings, got {names!r}")
    return names


def check_test_set_size(value: Any, p: int, n: int, name: str = "future_size") -> tuple[int, int]:
    """``(positives, negatives)`` of the predicted test set: :func:`check_future_size`, with ``None``
    the observed ``(p, n)``, and a test set of no example refused.

    >>> check_test_set_size(None, 20, 40), check_test_set_size(90, 20, 40), check_test_set_size((5, 0), 20, 40)
    ((20, 40), (30, 60), (5, 0))
    >>> check_test_set_size(0, 20, 40)
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: future_size must hold at least one example, got 0
    """
    size = check_future_size(value, p, n, name)
    if size is None:
        return p, n
    if size[0] + size[1] == 0:
        raise InvalidParameterError(f"{name} must hold at least one example, got {value!r}")
    return size


def check_paired_model(value: Any, choices: Sequence[str], name: str = "model") -> str:
    """One of the paired models ``choices``; a one-classifier model's name is refused with its paired form.

    >>> check_paired_model("paired-binomial", ("paired-beta-binomial", "paired-binomial"))
    'paired-binomial'
    >>> check_paired_model("binomial", ("paired-beta-binomial", "paired-binomial"))
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: model='binomial' is a model of one classifier; two classifiers ...
    """
    try:
        return check_choice(value, name, tuple(choices))
    except InvalidParameterError:
        if isinstance(value, str) and f"paired-{value.strip().lower().replace('_', '-')}" in choices:
            paired = f"paired-{value.strip().lower().replace('_', '-')}"
            raise InvalidParameterError(
                f"{name}={value!r} is a model of one classifier; two classifiers scored on the same test set "
                f"take a paired model, one of {sorted(choices)}: {name}={paired!r} is the one under which each "
                f"classifier alone is exactly {value!r}"
            ) from None
        raise


def check_observed_class(observed: int, future: int, what: str, model: str) -> None:
    """A plug-in model estimates a class's cell shares from its observed examples: refuse to predict
    examples of a class that was never observed.

    >>> check_observed_class(0, 3, "negatives", "paired-binomial")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: the paired-binomial model needs observed negatives to estimate ...
    """
    if future > 0 and observed == 0:
        raise InvalidParameterError(
            f"the {model} model needs observed {what} to estimate the cell shares, and future_size asks for "
            f"{future:,}; use model='paired-beta-binomial', whose prior covers an empty class"
        )


def _and(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return ", ".join(items) if len(items) < 2 else ", ".join(items[:-1]) + " and " + items[-1]


def check_member(value: Any, name: str, members: Sequence[str]) -> str:
    """``value`` if it is exactly one of ``members`` (names such as a ranking's classifiers; case counts).

    >>> check_member("b", "a", ["a", "b"])
    'b'
    >>> check_member("B", "a", ["a", "b"])
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: a must be one of ['a', 'b'], got 'B'
    """
    if not isinstance(value, str) or value not in members:
        raise InvalidParameterError(f"{name} must be one of {list(members)}, got {value!r}")
    return value


def check_nonempty(total: int, name: str, what: str) -> int:
    """``total`` (a number of examples) if it is at least one.

    >>> check_nonempty(0, "the paired counts", "a comparison")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: the paired counts hold no example; a comparison needs at least one
    """
    if total < 1:
        raise InvalidParameterError(f"{name} hold no example; {what} needs at least one")
    return total


# ---- stability
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


def check_real_array(value: Any, name: str) -> np.ndarray:
    """``value`` flattened to a float64 array (strings, None and non-numbers refused).

    >>> check_real_array([[1, 2], [3, 4]], "stability").tolist()
    [1.0, 2.0, 3.0, 4.0]
    """
    if isinstance(value, (str, bytes)) or value is None:
        raise InvalidParameterError(f"{name} must be an array of numbers; got {value!r}")
    try:
        return np.asarray(value, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        raise InvalidParameterError(f"{name} must be a 1-D array of numbers; got {value!r}"[:300]) from None


__all__ += ["STABILITY_SCALES", "check_categories", "check_learner_counts", "check_real_array", "check_scale"]


# ---- core
__all__ += [
    "check_finite_real",
    "check_future_total",
    "check_instance",
    "check_positive_count",
    "check_quantiles",
    "check_window",
]


def _shown(value: Any, limit: int = 80) -> str:
    """``repr(value)``, cut to ``limit`` characters (a message never prints a whole array)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def check_instance(value: Any, name: str, cls: type | tuple[type, ...], what: str) -> Any:
    """``value`` itself if it is an instance of ``cls``; ``what`` names the expected type.

    >>> check_instance("mcc", "metric", str, "a metric name")
    'mcc'
    >>> check_instance(3, "metric", str, "a metric name")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: metric must be a metric name, got int 3
    """
    if not isinstance(value, cls):
        raise InvalidParameterError(f"{name} must be {what}, got {type(value).__name__} {_shown(value)}")
    return value


def check_positive_count(value: Any, name: str) -> int:
    """A count of at least 1 (a class size, a number of panels), as a Python ``int``.

    >>> check_positive_count(20, "p")
    20
    >>> check_positive_count(0, "p")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: p must be at least 1, got 0
    """
    result = check_count(value, name)
    if result < 1:
        raise InvalidParameterError(f"{name} must be at least 1, got {result}")
    return result


def check_finite_real(value: Any, name: str, *, what: str = "a finite number") -> float:
    """A finite real number (a contour level, a reference value), as a float; ``what`` words the refusal.

    >>> check_finite_real(-0.5, "level")
    -0.5
    >>> check_finite_real(float("inf"), "level")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: level must be a finite number, got inf
    """
    fvalue = _real(value, name, what)
    if not math.isfinite(fvalue):
        raise InvalidParameterError(f"{name} must be {what}, got {fvalue}")
    return fvalue


def check_quantiles(value: Any, name: str = "q") -> np.ndarray:
    """Probabilities of quantiles (a number or an array of them), each in [0, 1].

    >>> check_quantiles([0.025, 0.975]).tolist()
    [0.025, 0.975]
    >>> check_quantiles(1.5)
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: q must lie in [0, 1], got 1.5
    """
    if isinstance(value, (str, bytes, bool, np.bool_)):
        raise InvalidParameterError(f"{name} must be numbers in [0, 1], got {_shown(value)}")
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise InvalidParameterError(f"{name} must be numbers in [0, 1], got {_shown(value)}") from None
    bad = ~((arr >= 0) & (arr <= 1))  # NaN too
    if np.any(bad):
        shown = float(arr[bad].reshape(-1)[0])
        raise InvalidParameterError(f"{name} must lie in [0, 1], got {shown!r}")
    return arr


def check_window(value: Any, name: str = "window") -> tuple[float, float, float, float]:
    """A rectangle ``(x0, x1, y0, y1)`` of finite numbers with ``x0 < x1`` and ``y0 < y1``.

    >>> check_window((0, 1, 0, 1))
    (0.0, 1.0, 0.0, 1.0)
    >>> check_window((1, 0, 0, 1))
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: window must be (x0, x1, y0, y1) with x0 < x1 and y0 < y1, got (1.0, ...
    """
    try:
        x0, x1, y0, y1 = (float(v) for v in value)
    except (TypeError, ValueError):
        raise InvalidParameterError(f"{name} must be four numbers (x0, x1, y0, y1), got {_shown(value)}") from None
    box = (x0, x1, y0, y1)
    if not (x0 < x1 and y0 < y1) or not all(map(math.isfinite, box)):
        raise InvalidParameterError(f"{name} must be (x0, x1, y0, y1) with x0 < x1 and y0 < y1, got {box}")
    return box


def check_future_total(value: Any, name: str = "future_size", *, model: str = "dirichlet-multinomial") -> int | None:
    """The size ``N`` of the next test set for a model without a fixed prevalence; ``None`` keeps the observed size.

    The simplex model (``dirichlet-multinomial``) lets the numbers of positives and
    negatives vary, so it takes a total only: a pair ``(p, n)`` is refused, with the
    advice to pass ``N = p + n`` (:func:`check_future_size` is the rule of the models
    that keep ``p`` and ``n`` fixed).

    >>> check_future_total(None) is None, check_future_total(30)
    (True, 30)
    >>> check_future_total((10, 20))
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: future_size of the dirichlet-multinomial model is one total N ...
    """
    if value is None:
        return None
    if isinstance(value, np.ndarray) and value.ndim == 0:  # a numpy scalar array is a total
        value = value.item()
    if not isinstance(value, (str, bytes)) and hasattr(value, "__len__"):
        try:
            hint = f"; pass future_size={sum(int(v) for v in value)} (N = p + n)" if len(value) == 2 else ""
        except (TypeError, ValueError):
            hint = ""
        raise InvalidParameterError(
            f"{name} of the {model} model is one total N (the model has no fixed prevalence: the numbers of "
            f"positives and negatives vary with the test set), got {_shown(value)}{hint}"
        )
    return check_count(value, name)


# ---- bias
__all__ += [
    "check_column_names",
    "check_exactly_one",
    "check_flag",
    "check_names",
    "check_threshold",
    "check_value_list",
]


def check_flag(value: Any, name: str) -> bool:
    """``True`` or ``False`` (numpy booleans too); anything else, 0 and 1 included, is refused.

    >>> check_flag(True, "dropna")
    True
    >>> check_flag(1, "dropna")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: dropna must be True or False, got 1
    """
    if not isinstance(value, (bool, np.bool_)):
        raise InvalidParameterError(f"{name} must be True or False, got {value!r:.80}")
    return bool(value)


def check_column_names(value: Any, name: str, *, allow_empty: bool = False) -> list[str]:
    """A column name or a list of distinct column names, as a list.

    >>> check_column_names("sex", "facets"), check_column_names(("sex", "race"), "facets")
    (['sex'], ['sex', 'race'])
    >>> check_column_names(["sex", "sex"], "facets")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: facets lists a column twice: ['sex', 'sex']
    """
    names = [value] if isinstance(value, str) else value
    if (
        not isinstance(names, Sequence)
        or isinstance(names, bytes)
        or (not names and not allow_empty)
        or not all(isinstance(c, str) for c in names)
    ):
        what = "a list of column names" if allow_empty else "a column name or a non-empty list of column names"
        raise InvalidParameterError(f"{name} must be {what}, got {value!r:.80}")
    if len(set(names)) != len(names):
        raise InvalidParameterError(f"{name} lists a column twice: {value!r:.80}")
    return list(names)


def check_names(value: Any, name: str, choices: Sequence[str], what: str) -> list[str]:
    """A name or a non-empty list of distinct names, each one of ``choices``.

    ``what`` describes the names (``"metric names such as ['DPPL', 'DI']"``).

    >>> check_names(["DI", "DPPL"], "metrics", ("DPPL", "DI", "RD"), "metric names")
    ['DI', 'DPPL']
    >>> check_names(["GE"], "metrics", ("DPPL", "DI"), "metric names")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: metrics: ['GE'] are not among ['DPPL', 'DI']
    """
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, Sequence) or not names or not all(isinstance(m, str) for m in names):
        raise InvalidParameterError(f"{name} must be a non-empty list of {what}, got {value!r:.80}")
    bad = [m for m in names if m not in choices]
    if bad:
        raise InvalidParameterError(f"{name}: {bad!r} are not among {list(choices)}")
    if len(set(names)) != len(names):
        raise InvalidParameterError(f"{name} lists a name twice: {value!r:.80}")
    return list(names)


def check_value_list(value: Any, name: str) -> tuple[Any, ...] | None:
    """A non-empty list of hashable values without a missing one (``None`` passes through).

    Used for the values that select rows (``facet_values``, ``positive_values``): a
    missing value is never a category, so it cannot select anything. Tuples count as
    one value each (a combination of several columns).

    >>> check_value_list(["F", ("F", "B")], "facet_values")
    ('F', ('F', 'B'))
    >>> check_value_list([None], "facet_values")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: facet_values must not contain missing values (None/NaN/<NA>), got [None]: ...
    """
    if value is None:
        return None
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise InvalidParameterError(f"{name} must be a list of values, got {value!r:.80}")
    if len(value) == 0:
        raise InvalidParameterError(f"{name} must not be empty, got {value!r}")
    flat = np.empty(sum(len(v) if isinstance(v, tuple) else 1 for v in value), dtype=object)
    flat[:] = [x for v in value for x in (v if isinstance(v, tuple) else (v,))]
    if missing_mask(flat).any():
        raise InvalidParameterError(
            f"{name} must not contain missing values (None/NaN/<NA>), got {value!r:.80}: missing values are "
            "never a category (pass dropna=True to drop the rows that have them)"
        )
    try:
        hash(tuple(value))
    except TypeError:
        raise InvalidParameterError(
            f"{name} must hold hashable values (str, numbers, tuples), got {value!r:.80}"
        ) from None
    return tuple(value)


def check_threshold(value: Any, name: str) -> int | float:
    """A finite number that splits a numeric column (an integer stays an ``int``).

    >>> check_threshold(40, "facet_threshold"), check_threshold(0.5, "label_threshold")
    (40, 0.5)
    """
    fvalue = _real(value, name, "a number")
    if not math.isfinite(fvalue):
        raise InvalidParameterError(f"{name} must be a finite number, got {value!r}")
    return int(value) if isinstance(value, numbers.Integral) else fvalue


def check_exactly_one(**named: Any) -> str:
    """The name of the one argument of ``named`` that is not None; refuses none or several.

    >>> check_exactly_one(positive_values=[1], label_threshold=None)
    'positive_values'
    >>> check_exactly_one(facet_values=None, facet_threshold=None)
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: give exactly one of facet_values and facet_threshold, got ...
    """
    given = [k for k, v in named.items() if v is not None]
    if len(given) != 1:
        shown = ", ".join(f"{k}={v!r:.60}" for k, v in named.items())
        raise InvalidParameterError(f"give exactly one of {' and '.join(named)}, got {shown}")
    return given[0]


# ---- calibration
__all__ += ["check_forecast_size", "check_forecasts"]


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
    confusionlab._validation.TooLargeError: y_prob with 1,000,000,000 forecasts would need about 74.5 GiB, ...
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
    confusionlab.InvalidParameterError: y_prob has 1 NaN or missing value, the first at position 1; ...
    """
    if values is None or isinstance(values, (str, bytes)):
        raise InvalidParameterError(f"{name} must be an array of probabilities, got {_shown(values)}")
    try:
        arr = _to_numpy(values)
    except (TypeError, InvalidParameterError):
        raise InvalidParameterError(f"{name} must be an array of probabilities, got {_shown(values)}") from None
    if arr.ndim == 2:
        raise InvalidParameterError(
            f"{name} must be one-dimensional (the probability of the positive class), got shape {arr.shape}; "
            "for a (samples × classes) matrix pass one column and positive=<that class>"
        )
    if arr.ndim != 1:
        raise InvalidParameterError(f"{name} must be one-dimensional, got shape {arr.shape}")
    if arr.dtype.kind not in "biufO":
        raise InvalidParameterError(f"{name} must hold numbers (probabilities), got dtype {arr.dtype}")
    try:
        out = np.asarray(arr, dtype=np.float64)
    except (TypeError, ValueError):
        raise InvalidParameterError(f"{name} must hold numbers (probabilities), got {_shown(values)}") from None
    nan = np.isnan(out)
    if nan.any():
        where = np.flatnonzero(nan)
        count = int(where.size)
        raise InvalidParameterError(
            f"{name} has {count} NaN or missing value{'s' if count != 1 else ''}, the first at position "
            f"{int(where[0])}; drop or fill {'them' if count != 1 else 'it'} first"
        )
    bad = np.flatnonzero((out < 0.0) | (out > 1.0))
    if bad.size:
        raise InvalidParameterError(
            f"{name} must hold probabilities in [0, 1]; got {float(out[bad[0]])!r} at position {int(bad[0])}"
        )
    return out


# ---- scores
__all__ += ["check_alternative", "check_omitted", "check_score_classes", "check_score_threshold", "check_scores"]


def check_scores(value: Any, name: str, length: int) -> np.ndarray:
    """Real scores (higher = more positive) as a 1-D float64 array of ``length``; NaN and ±inf refused.

    >>> check_scores([0.2, 0.9], "y_score", 2).tolist()
    [0.2, 0.9]
    >>> check_scores([0.2, float("nan")], "y_score", 2)
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: y_score has 1 value(s) that are NaN or infinite, the first at position 1; ...
    """
    if isinstance(value, (str, bytes)) or value is None:
        raise InvalidParameterError(f"{name} must be an array of real scores, got {_shown(value)}")
    to_numpy = getattr(value, "to_numpy", None)
    raw = np.asarray(to_numpy() if callable(to_numpy) else value)
    if raw.dtype.kind not in "iuf":
        raise InvalidParameterError(
            f"{name} must hold real numbers (scores, higher = more positive), got dtype {raw.dtype}: "
            f"{_shown(raw.tolist())}"
        )
    scores = raw.astype(np.float64, copy=False)
    if scores.ndim != 1:
        raise InvalidParameterError(f"{name} must be one-dimensional, got shape {scores.shape}")
    if scores.shape[0] != length:
        raise InvalidParameterError(
            f"{name} must have one score per label: length {length} (as y_true), got {scores.shape[0]}"
        )
    bad = ~np.isfinite(scores)
    if bad.any():
        raise InvalidParameterError(
            f"{name} has {int(bad.sum())} value(s) that are NaN or infinite, the first at position "
            f"{int(np.flatnonzero(bad)[0])}; drop those rows or fill them first"
        )
    return scores


def check_score_classes(labels: Sequence[Any], positive: Any, name: str = "y_true") -> None:
    """Refuse true labels that cannot be split into positives and negatives (``labels``: the distinct ones).

    >>> check_score_classes([0, 1], None)
    >>> check_score_classes(["spam"], None)
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: y_true holds one class only ('spam'); a curve of scores needs ...
    """
    if len(labels) < 2:
        shown = ", ".join(map(repr, labels)) or "no examples"
        raise InvalidParameterError(
            f"{name} holds one class only ({shown}); a curve of scores needs positive and negative examples"
        )
    if positive is None and len(labels) > 2:
        shown = ", ".join(map(repr, labels[:6])) + (" …" if len(labels) > 6 else "")
        raise InvalidParameterError(
            f"{name} holds {len(labels)} classes ({shown}); pass positive=<label> to score that class against "
            "the others"
        )
    if positive is not None and not any(_same_score_label(v, positive) for v in labels):
        raise InvalidParameterError(
            f"positive={positive!r} does not occur in {name} (labels: {_shown(list(labels))}); check its spelling "
            "and type"
        )


def _same_score_label(a: Any, b: Any) -> bool:
    number = (bool, int, float, np.number, np.bool_)
    if isinstance(a, number) and isinstance(b, number):
        return bool(a == b)
    return type(a) is type(b) and bool(a == b)


def check_score_threshold(value: Any, name: str = "threshold") -> float:
    """A threshold on scores: any real number but NaN (±inf allowed: nobody / everybody positive).

    >>> check_score_threshold(0.5), check_score_threshold(float("inf"))
    (0.5, inf)
    """
    fvalue = _real(value, name, "a real number")
    if math.isnan(fvalue):
        raise InvalidParameterError(f"{name} must be a real number, got nan")
    return fvalue


def check_alternative(value: Any, name: str = "alternative") -> str:
    """The alternative of a test: ``"greater"``, ``"less"`` or ``"two-sided"``.

    >>> check_alternative("greater")
    'greater'
    """
    return check_choice(value, name, ("greater", "less", "two-sided"))


def check_omitted(value: Any, name: str, because: str) -> None:
    """Refuse an argument that must be left out (``because`` says why).

    >>> check_omitted(None, "score_b", "score_a is a dict of classifiers")
    >>> check_omitted([0.1], "score_b", "score_a is a dict of classifiers")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: score_b must be omitted when score_a is a dict of classifiers, got [0.1]
    """
    if value is not None:
        raise InvalidParameterError(f"{name} must be omitted when {because}, got {_shown(value)}")


def check_score_matrix(value: Any, name: str, rows: int, classes: int) -> np.ndarray:
    """A (samples × classes) matrix of finite real scores, one column per class (at least 3 classes).

    >>> check_score_matrix([[0.2, 0.5, 0.3], [0.6, 0.1, 0.3]], "y_score", 2, 3).shape
    (2, 3)
    """
    if classes < 3:
        raise InvalidParameterError(
            f"a score matrix needs at least three classes in y_true, got {classes}; for two classes pass the "
            f"positive class's scores as a 1-D {name}"
        )
    matrix = np.asarray(getattr(value, "to_numpy", lambda: value)())
    if matrix.ndim != 2 or matrix.shape != (rows, classes):
        raise InvalidParameterError(
            f"{name} must be a (samples × classes) matrix of shape ({rows}, {classes}) — one column per class of "
            f"y_true, in sorted order — got shape {matrix.shape}"
        )
    columns = [check_scores(matrix[:, j], f"{name}[:, {j}]", rows) for j in range(classes)]
    return np.column_stack(columns)


__all__ += ["check_score_matrix"]


def check_multi_class(value: Any, score_ndim: int, name: str = "multi_class") -> str | None:
    """``None`` for one column of scores; ``"ovr"`` or ``"hand-till"`` for a score matrix (then required).

    >>> check_multi_class(None, 1) is None, check_multi_class("ovr", 2)
    (True, 'ovr')
    >>> check_multi_class(None, 2)
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: y_score is a (samples × classes) matrix: pass multi_class='ovr' or ...
    """
    if value is None:
        if score_ndim == 2:
            raise InvalidParameterError(
                "y_score is a (samples × classes) matrix: pass multi_class='ovr' or 'hand-till', or the positive "
                "class's column alone for two classes"
            )
        return None
    return check_choice(value, name, ("ovr", "hand-till"))


__all__ += ["check_multi_class"]


# ---- F2
__all__ += ["check_labels_not_scores"]


def check_labels_not_scores(values: np.ndarray, name: str) -> np.ndarray:
    """Refuse real-valued scores where class labels are expected (``values`` as read by
    :func:`as_labels`): a float array holding a non-integer number is a score vector, and
    treating each distinct score as a class gives thousands of classes and misleading advice.

    >>> check_labels_not_scores(np.array([0.0, 1.0, 1.0]), "y_pred").tolist()
    [0.0, 1.0, 1.0]
    >>> check_labels_not_scores(np.array([0.1, 0.7]), "y_pred")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: y_pred holds scores, not labels (non-integer numbers such as 0.1); ...
    """
    arr = np.asarray(values)
    if arr.dtype.kind == "f" and arr.size:
        fractional = np.flatnonzero(arr != np.round(arr))
        if fractional.size:
            raise InvalidParameterError(
                f"{name} holds scores, not labels (non-integer numbers such as {float(arr[fractional[0]])!r}); pass "
                f"predicted labels: threshold the scores first (e.g. {name} = y_score >= 0.5, or the classifier's "
                "predict() instead of predict_proba())"
            )
    return values


__all__ += ["check_assurance_tolerance"]


def check_assurance_tolerance(value: Any, default: float) -> float:
    """The tail mass per marginal left out of the assurance enumeration: in [0, :data:`MAX_TOLERANCE`],
    its message stating the planner's own ``default`` (not the models' ``tolerance`` default).

    >>> check_assurance_tolerance(1e-3, 1e-3)
    0.001
    >>> check_assurance_tolerance(0.5, 1e-3)
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: assurance_tolerance must lie in [0, 0.01] (the mass of the test outcomes ...
    """
    fvalue = _real(value, "assurance_tolerance", "a small non-negative number (mass left out per marginal)")
    if math.isnan(fvalue) or not 0.0 <= fvalue <= MAX_TOLERANCE:
        raise InvalidParameterError(
            f"assurance_tolerance must lie in [0, {MAX_TOLERANCE}] (the mass of the test outcomes left out of the "
            f"enumeration per marginal; default {default:g}), got {value!r}"
        )
    return fvalue


# ---- hostile
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


__all__ += ["check_points", "check_support"]


def check_points(value: Any, name: str = "x") -> np.ndarray:
    """Real numbers (a number or an array of them) at which a distribution is evaluated; NaN allowed.

    Strings, ``None``, booleans and arrays holding them are refused (``np.asarray``
    would read ``None`` as NaN and a string as an error of its own).

    >>> check_points([0.5, 1]).tolist()
    [0.5, 1.0]
    >>> check_points("0.5")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: x must be real numbers, got '0.5'
    """
    if value is None or isinstance(value, (str, bytes, bool, np.bool_)):
        raise InvalidParameterError(f"{name} must be real numbers, got {_shown(value)}")
    raw = np.asarray(value)
    if raw.dtype.kind not in "biuf" and not (
        raw.dtype.kind == "O"
        and all(isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_)) for v in raw.flat)
    ):
        raise InvalidParameterError(f"{name} must be real numbers, got {_shown(value)}")
    if raw.dtype.kind == "b":
        raise InvalidParameterError(f"{name} must be real numbers, got booleans {_shown(value)}")
    return raw.astype(np.float64)


def check_support(values: np.ndarray, probabilities: np.ndarray, multiplicities: np.ndarray) -> None:
    """The atoms of a discrete distribution: values strictly increasing, probabilities finite and ≥ 0.

    >>> check_support(np.array([0.0, 1.0]), np.array([0.5, 0.5]), np.array([1, 1]))
    >>> check_support(np.array([1.0, 0.0]), np.array([0.5, 0.5]), np.array([1, 1]))
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: values must be strictly increasing (one atom per value), got ...
    """
    if values.ndim != 1 or probabilities.shape != values.shape or multiplicities.shape != values.shape:
        raise InvalidParameterError(
            f"values, probabilities and multiplicities must be 1-D of one length, got shapes {values.shape}, "
            f"{probabilities.shape} and {multiplicities.shape}"
        )
    if np.isnan(values).any() or np.any(np.diff(values) <= 0):
        raise InvalidParameterError(
            f"values must be strictly increasing (one atom per value), got {_shown(values.tolist())}"
        )
    if not np.all(np.isfinite(probabilities)) or np.any(probabilities < 0):
        raise InvalidParameterError(
            f"probabilities must be finite and non-negative, got {_shown(probabilities.tolist())}"
        )


__all__ += ["MAX_BETA", "check_beta", "check_learner_numbers"]

#: Largest ``beta`` of an F-beta score (and smallest ``1/MAX_BETA``): beta² must stay a finite, nonzero double.
MAX_BETA = 1e150


def check_beta(value: Any, name: str = "beta") -> float:
    """The ``beta`` of an F-beta score: a positive number with ``beta²`` a finite, nonzero double.

    >>> check_beta(2)
    2.0
    >>> check_beta(1e300)
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: beta must lie in [1e-150, 1e+150] (beta² must be a finite, nonzero ...
    """
    fvalue = check_positive_real(value, name)
    if not 1 / MAX_BETA <= fvalue <= MAX_BETA:
        raise InvalidParameterError(
            f"{name} must lie in [{1 / MAX_BETA:g}, {MAX_BETA:g}] (beta² must be a finite, nonzero double; beyond, "
            f"F-beta is recall or precision themselves), got {_shown(value)}"
        )
    return fvalue


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


# ---- progress bars of long work
__all__ += ["check_progress"]


def _interactive() -> bool:
    """Whether a person is watching: an IPython kernel (Jupyter) or a terminal on stderr."""
    import sys

    shell = sys.modules.get("IPython")
    if shell is not None:
        ip = shell.get_ipython()
        if ip is not None and getattr(ip, "kernel", None) is not None:
            return True
    stream = sys.stderr
    return stream is not None and hasattr(stream, "isatty") and stream.isatty()


def check_progress(value: Any) -> bool:
    """Whether to show a progress bar: ``True``, ``False``, or ``None`` (auto: only in Jupyter or
    a terminal, never when output is captured or redirected).

    >>> check_progress(False), check_progress(True)
    (False, True)
    >>> check_progress("yes")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: progress must be True, False or None (auto: a bar only in Jupyter or a ...
    """
    if value is None:
        return _interactive()
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise InvalidParameterError(
        f"progress must be True, False or None (auto: a bar only in Jupyter or a terminal), got {value!r}"
    )
