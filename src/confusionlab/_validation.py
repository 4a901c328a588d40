"""The library's argument checks: one convention, one error, every argument named.

Internals trust their inputs; every public function validates its arguments here (or with
its job's own ``_checks`` module, beside the job), so errors name the argument and the
offending value, and one convention means the same thing everywhere:

* counts are non-negative integers (:func:`check_count`);
* ``tolerance`` is the probability mass a model may drop from each marginal's tails
  (:func:`check_tolerance`, default :data:`DEFAULT_TOLERANCE`);
* ``confidence`` is the level of a central interval, in (0, 1) (:func:`check_confidence`);
* ``random_state`` is ``None``, an integer seed, a :class:`numpy.random.SeedSequence`
  or a :class:`numpy.random.Generator` (:func:`check_random_state`);
* ``undefined`` is the *value* a metric takes where it is 0/0 (:func:`check_undefined`);
* missing values are never a category (:mod:`confusionlab._missing`: :func:`missing_mask`,
  :func:`as_labels`);
* nothing allocates in proportion to its input before :func:`check_memory`
  (:mod:`confusionlab._memory`) has compared the estimate with :func:`memory_limit`.

The errors (:mod:`confusionlab._errors`), the memory check, the missing-value readers and
the checks of array arguments (:mod:`confusionlab._arrays`) live in their own modules and
are importable from here too: this module is the one door to the checks.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np

from ._arrays import (
    check_classifiers,
    check_labels_not_scores,
    check_points,
    check_quantiles,
    check_real_array,
    check_same_length,
    check_support,
    check_window,
)
from ._errors import InvalidParameterError, TooLargeError, join_and, short_repr
from ._memory import check_memory, format_bytes, memory_limit, set_memory_limit
from ._missing import as_labels, missing_mask, refuse_missing, to_numpy

__all__ = [
    "DEFAULT_TOLERANCE",
    "MAX_BETA",
    "MAX_COUNT",
    "MAX_TOLERANCE",
    "InvalidParameterError",
    "TooLargeError",
    "as_labels",
    "check_beta",
    "check_choice",
    "check_classifiers",
    "check_confidence",
    "check_count",
    "check_finite_real",
    "check_flag",
    "check_future_size",
    "check_future_total",
    "check_half_width",
    "check_instance",
    "check_int",
    "check_labels_not_scores",
    "check_margin",
    "check_memory",
    "check_n_draws",
    "check_n_resamples",
    "check_names",
    "check_points",
    "check_positive_count",
    "check_positive_real",
    "check_probability",
    "check_progress",
    "check_quantiles",
    "check_random_state",
    "check_rate",
    "check_real",
    "check_real_array",
    "check_same_length",
    "check_score_threshold",
    "check_support",
    "check_tolerance",
    "check_undefined",
    "check_window",
    "format_bytes",
    "join_and",
    "memory_limit",
    "missing_mask",
    "refuse_missing",
    "set_memory_limit",
    "short_repr",
    "to_numpy",
]


# ----------------------------------------------------------------------------- numbers
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


def check_real(value: Any, name: str, what: str) -> float:
    """``value`` as a float if it is a real number (booleans refused); ``what`` names what is expected.

    >>> check_real(3, "margin", "a number")
    3.0
    >>> check_real("3", "margin", "a number")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: margin must be a number, got str '3'
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise InvalidParameterError(f"{name} must be {what}, got {type(value).__name__} {value!r}")
    return float(value)


def check_probability(value: Any, name: str, *, open_interval: bool = False) -> float:
    """Return ``value`` as a float in [0, 1] (or (0, 1) when ``open_interval``)."""
    fvalue = check_real(value, name, "a real number")
    if math.isnan(fvalue):
        raise InvalidParameterError(f"{name} must be a number in [0, 1], got NaN")
    if open_interval and not 0.0 < fvalue < 1.0:
        raise InvalidParameterError(f"{name} must lie strictly between 0 and 1, got {fvalue}")
    if not 0.0 <= fvalue <= 1.0:
        raise InvalidParameterError(f"{name} must lie in [0, 1], got {fvalue}")
    return fvalue


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


def check_confidence(value: Any, name: str = "confidence") -> float:
    """The level of a central interval: a float strictly between 0 and 1.

    >>> check_confidence(0.95)
    0.95
    """
    return check_probability(value, name, open_interval=True)


def check_positive_real(value: Any, name: str) -> float:
    """Return ``value`` as a finite float > 0."""
    fvalue = check_real(value, name, "a positive real number")
    if not math.isfinite(fvalue) or fvalue <= 0:
        raise InvalidParameterError(f"{name} must be a finite positive number, got {value!r}")
    return fvalue


def check_finite_real(value: Any, name: str, *, what: str = "a finite number") -> float:
    """A finite real number (a contour level, a reference value), as a float; ``what`` words the refusal.

    >>> check_finite_real(-0.5, "level")
    -0.5
    >>> check_finite_real(float("inf"), "level")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: level must be a finite number, got inf
    """
    fvalue = check_real(value, name, what)
    if not math.isfinite(fvalue):
        raise InvalidParameterError(f"{name} must be {what}, got {fvalue}")
    return fvalue


def check_half_width(value: Any, name: str = "half_width") -> float:
    """The half-width an interval must reach: a finite number > 0.

    >>> check_half_width(0.05)
    0.05
    >>> check_half_width(0)
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: half_width must be a finite number > 0 (the ± an interval must reach), got 0
    """
    fvalue = check_real(value, name, "a positive number")
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
    fvalue = check_real(value, name, "a non-negative number")
    if not (math.isfinite(fvalue) and fvalue >= 0):
        raise InvalidParameterError(
            f"{name} must be a finite number ≥ 0 (the half-width of the band of practical equivalence), got {value!r}"
        )
    return fvalue


def check_score_threshold(value: Any, name: str = "threshold") -> float:
    """A threshold on scores: any real number but NaN (±inf allowed: nobody / everybody positive).

    >>> check_score_threshold(0.5), check_score_threshold(float("inf"))
    (0.5, inf)
    """
    fvalue = check_real(value, name, "a real number")
    if math.isnan(fvalue):
        raise InvalidParameterError(f"{name} must be a real number, got nan")
    return fvalue


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
            f"F-beta is recall or precision themselves), got {short_repr(value)}"
        )
    return fvalue


# ----------------------------------------------------------------------------- tolerance and undefined values
#: The one default of ``tolerance`` (mass dropped from each marginal's tails).
DEFAULT_TOLERANCE = 1e-12


#: Largest ``tolerance`` accepted: more than 1 % of the mass is not pruning, it changes
#: the answer (a 95 % interval is decided by tails of 2.5 %).
MAX_TOLERANCE = 0.01


def check_tolerance(value: Any, name: str = "tolerance") -> float:
    """Mass a model may drop from each marginal's tails: a float in [0, :data:`MAX_TOLERANCE`].

    ``0`` keeps every lattice point.

    >>> check_tolerance(1e-9)
    1e-09
    """
    fvalue = check_real(value, name, "a small non-negative number (mass dropped per marginal)")
    if math.isnan(fvalue) or not 0.0 <= fvalue <= MAX_TOLERANCE:
        raise InvalidParameterError(
            f"{name} must lie in [0, {MAX_TOLERANCE}] (the probability mass dropped from each marginal's "
            f"tails; default {DEFAULT_TOLERANCE:g}), got {value!r}"
        )
    return fvalue


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
    fvalue = check_real(value, "undefined", what)
    if math.isnan(fvalue):
        raise InvalidParameterError(f"undefined must be {what}, not NaN")
    return fvalue


# ----------------------------------------------------------------------------- names, choices and flags
def check_choice(value: Any, name: str, choices: dict[str, Any] | tuple[str, ...]) -> str:
    """Return ``value`` if it is one of ``choices`` (case-insensitive, '_' and '-' alike)."""
    if not isinstance(value, str):
        raise InvalidParameterError(f"{name} must be a string, one of {sorted(choices)}, got {value!r}")
    normal = value.strip().lower().replace("_", "-")
    for choice in choices:
        if choice.lower().replace("_", "-") == normal:
            return choice
    raise InvalidParameterError(f"unknown {name} {value!r}; expected one of {sorted(choices)}")


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
        raise InvalidParameterError(f"{name} must be {what}, got {type(value).__name__} {short_repr(value)}")
    return value


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


# ----------------------------------------------------------------------------- draws, resamples, seeds and progress
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


# ----------------------------------------------------------------------------- sizes of a future test set
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
            f"positives and negatives vary with the test set), got {short_repr(value)}{hint}"
        )
    return check_count(value, name)
