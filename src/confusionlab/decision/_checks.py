"""The arguments only the decision job takes, checked at the boundary (each refusal names its argument)."""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping
from typing import Any

import numpy as np

from .._validation import (
    InvalidParameterError,
    check_probability,
    check_real,
    missing_mask,
    short_repr,
    to_numpy,
)
from ..metrics import Metric, get_metric

__all__ = [
    "DEFAULT_THRESHOLDS",
    "check_cost",
    "check_harm",
    "check_maximize",
    "check_models",
    "check_prevalence",
    "check_risks",
    "check_subject_to",
    "check_thresholds",
]


# -- threshold choice --------------------------------------------------------------------------
def check_cost(value: Any, name: str = "cost") -> tuple[float, float]:
    """``(cost_fp, cost_fn)``: two finite numbers ≥ 0, not both 0.

    >>> check_cost((1, 5))
    (1.0, 5.0)
    >>> check_cost((1, -5))
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: cost must be (cost_fp, cost_fn), two finite numbers >= 0; got cost_fn = -5
    """
    if isinstance(value, (str, bytes, Mapping)) or not hasattr(value, "__len__") or len(value) != 2:
        raise InvalidParameterError(
            f"{name} must be (cost_fp, cost_fn): the cost of a false positive and of a false negative, "
            f"got {short_repr(value)}"
        )
    pair = []
    for part, v in zip(("cost_fp", "cost_fn"), value, strict=True):
        real = isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_))
        if not real or not math.isfinite(float(v)) or float(v) < 0.0:
            raise InvalidParameterError(
                f"{name} must be (cost_fp, cost_fn), two finite numbers >= 0; got {part} = {short_repr(v)}"
            )
        pair.append(float(v))
    if pair[0] == 0.0 and pair[1] == 0.0:
        raise InvalidParameterError(f"{name} must not be (0, 0): every threshold would cost nothing")
    return pair[0], pair[1]


def check_maximize(value: Any, monotone: Any, name: str = "maximize") -> Metric:
    """The metric to maximise: a name of :data:`~confusionlab.METRICS` that ``monotone(metric)`` accepts.

    >>> from confusionlab.decision._objective import is_monotone
    >>> check_maximize("f1", is_monotone).name
    'f1'
    >>> check_maximize("mcc", is_monotone)
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: maximize='mcc' is not offered: ...
    """
    try:
        metric = get_metric(value)
    except InvalidParameterError as err:
        raise InvalidParameterError(f"{name}: {err}") from None
    if not monotone(metric):
        raise InvalidParameterError(
            f"{name}={value!r} is not offered: its bounds after selection need a metric that rises with "
            "the TPR and falls with the FPR (accuracy, balanced_accuracy, informedness, recall, tnr, precision, "
            "npv, jaccard, g_mean, fowlkes_mallows, f1 or any f<beta>), or pass cost=(cost_fp, cost_fn)"
        )
    return metric


def check_subject_to(value: Any, allowed: Mapping[str, Any], name: str = "subject_to") -> dict[str, float]:
    """``{metric: bound}``: each metric one of ``allowed`` (aliases resolved), each bound in [0, 1].

    >>> from confusionlab.decision._constraint import CONSTRAINTS
    >>> check_subject_to({"specificity": 0.9, "ppv": 0.5}, CONSTRAINTS)
    {'tnr': 0.9, 'precision': 0.5}
    >>> check_subject_to({"precision": 1.5}, CONSTRAINTS)
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: subject_to['precision'] must lie in [0, 1], got 1.5
    """
    if value is None:
        return {}
    if not isinstance(value, Mapping) or not value:
        raise InvalidParameterError(
            f"{name} must be a dict {{metric: lowest value}}, e.g. {{'precision': 0.9}}; got {short_repr(value)}"
        )
    out: dict[str, float] = {}
    for key, bound in value.items():
        try:
            metric = get_metric(key)
        except InvalidParameterError:
            metric = None
        if metric is None or metric.name not in allowed:
            raise InvalidParameterError(
                f"{name}: {short_repr(key)} cannot be constrained; the constraints are {sorted(allowed)} "
                "(aliases such as 'specificity' and 'ppv' accepted)"
            )
        if metric.name in out:
            raise InvalidParameterError(f"{name} names {metric.name!r} twice")
        out[metric.name] = check_probability(bound, f"{name}[{key!r}]")
    return out


# -- decision curve ----------------------------------------------------------------------------

#: dcurves' default thresholds: 0.00, 0.01, …, 0.99 (``[i / 100 for i in range(100)]``, the same doubles).
DEFAULT_THRESHOLDS = np.array([i / 100 for i in range(100)])
#: Most points (thresholds × models) a curve takes: each point's P(best), EVPI and interval take
#: milliseconds of quadrature (about 6 ms for all three, measured), so 5,000 points stay within half
#: a minute; a finer grid says nothing more.
MAX_POINTS = 5_000


def check_curve_size(n_thresholds: int, n_models: int) -> None:
    """Refuse more than :data:`MAX_POINTS` thresholds × models, naming ``thresholds``, before any counting.

    >>> check_curve_size(100, 50)
    >>> check_curve_size(2_000, 3)
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: thresholds: 2,000 thresholds × 3 model(s) = 6,000 points, more than 5,000 ...
    """
    points = n_thresholds * n_models
    if points > MAX_POINTS:
        raise InvalidParameterError(
            f"thresholds: {n_thresholds:,} thresholds × {n_models} model(s) = {points:,} points, more than "
            f"{MAX_POINTS:,} (each point's P(best), EVPI and interval take milliseconds of quadrature); use a "
            "coarser grid of thresholds or fewer models"
        )


def check_risks(values: Any, name: str, length: int | None = None) -> np.ndarray:
    """Predicted risks as a 1-D float64 array, each a probability in [0, 1].

    NaN or missing values, infinities and numbers outside [0, 1] are refused, naming the
    argument and the first offending position (a score that is not a risk, such as a
    margin or a marker, must first be turned into one, e.g. by a logistic model).

    >>> check_risks([0.1, 1, 0], "y_score").tolist()
    [0.1, 1.0, 0.0]
    >>> check_risks([0.1, 6.7], "y_score['marker']")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: y_score['marker'] must hold risks (probabilities in [0, 1]); got 6.7 at \
position 1 — turn scores into risks first (e.g. a logistic model of the outcome on the score)
    """
    if values is None or isinstance(values, (str, bytes)):
        raise InvalidParameterError(f"{name} must be an array of risks, got {short_repr(values)}")
    try:
        arr = to_numpy(values)
    except (TypeError, InvalidParameterError):
        raise InvalidParameterError(f"{name} must be an array of risks, got {short_repr(values)}") from None
    if arr.ndim != 1:
        raise InvalidParameterError(f"{name} must be one-dimensional (one risk per example), got shape {arr.shape}")
    if arr.dtype.kind not in "biufO":
        raise InvalidParameterError(f"{name} must hold numbers (risks), got dtype {arr.dtype}")
    if length is not None and arr.shape[0] != length:
        raise InvalidParameterError(
            f"{name} must have one risk per label: length {length} (as y_true), got {arr.shape[0]}"
        )
    nan = missing_mask(arr)  # None, NaN, pandas <NA> (a nullable column reads as objects)
    if nan.any():
        where = np.flatnonzero(nan)
        raise InvalidParameterError(
            f"{name} has {where.size} NaN or missing value(s), the first at position {int(where[0])}; "
            "drop or fill those rows first"
        )
    try:
        out = np.asarray(arr, dtype=np.float64)
    except (TypeError, ValueError):
        raise InvalidParameterError(f"{name} must hold numbers (risks), got {short_repr(values)}") from None
    bad = np.flatnonzero((out < 0.0) | (out > 1.0))
    if bad.size:
        raise InvalidParameterError(
            f"{name} must hold risks (probabilities in [0, 1]); got {float(out[bad[0]])!r} at position "
            f"{int(bad[0])} — turn scores into risks first (e.g. a logistic model of the outcome on the score)"
        )
    return out + 0.0


def check_thresholds(value: Any) -> np.ndarray:
    """Threshold probabilities: increasing, distinct, each in [0, 1) (default dcurves' 0.00, …, 0.99).

    >>> check_thresholds(None)[[0, 1, -1]].tolist()
    [0.0, 0.01, 0.99]
    >>> check_thresholds([0.1, 1.0])
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: thresholds must lie in [0, 1) (at 1 the harm of a false positive ...
    """
    if value is None:
        return DEFAULT_THRESHOLDS.copy()
    if isinstance(value, (str, bytes)):
        raise InvalidParameterError(f"thresholds must be numbers in [0, 1), got {short_repr(value)}")
    try:
        t = np.asarray(to_numpy(value), dtype=np.float64).ravel()
    except (TypeError, ValueError, InvalidParameterError):
        raise InvalidParameterError(f"thresholds must be numbers in [0, 1), got {short_repr(value)}") from None
    if t.size == 0 or t.size > MAX_POINTS:
        raise InvalidParameterError(f"thresholds must hold 1 to {MAX_POINTS:,} numbers, got {t.size}")
    if np.isnan(t).any() or (t < 0).any() or (t >= 1).any():
        raise InvalidParameterError(
            "thresholds must lie in [0, 1) (at 1 the harm of a false positive is infinite), got "
            f"{short_repr(t.tolist())}"
        )
    if (np.diff(t) <= 0).any():
        raise InvalidParameterError("thresholds must be increasing and distinct")
    return t + 0.0


def check_prevalence(value: Any) -> float | None:
    """A prevalence strictly between 0 and 1 (for a case-control sample), or None (the observed one)."""
    if value is None:
        return None
    return check_probability(value, "prevalence", open_interval=True)


def check_harm(value: Any, names: list[Any]) -> dict[Any, float]:
    """The harm of each model (a finite number; a mapping model name → harm, others 0).

    >>> check_harm(0.01, ["a", "b"]), check_harm({"b": 0.02}, ["a", "b"])
    ({'a': 0.01, 'b': 0.01}, {'a': 0.0, 'b': 0.02})
    """
    if isinstance(value, Mapping):
        unknown = [k for k in value if k not in names]
        if unknown:
            raise InvalidParameterError(f"harm names {unknown!r}, which are not models; the models are {names!r}")
        given = {k: _finite(v, f"harm[{k!r}]") for k, v in value.items()}
        return {name: given.get(name, 0.0) for name in names}
    harm = _finite(value, "harm")
    return dict.fromkeys(names, harm)


def _finite(value: Any, name: str) -> float:
    out = check_real(value, name, "a finite number")
    if not np.isfinite(out):
        raise InvalidParameterError(f"{name} must be a finite number, got {out}")
    return out


def check_models(y_score: Any) -> dict[Any, Any]:
    """``{name: risks}``: a dict of models as given, or one array named ``"model"``.

    "all" and "none" are the two reference strategies and cannot name a model.
    """
    if isinstance(y_score, Mapping):
        if not y_score:
            raise InvalidParameterError("y_score is an empty dict; give {name: risks} for at least one model")
        taken = [k for k in y_score if isinstance(k, str) and k in ("all", "none")]
        if taken:
            raise InvalidParameterError(
                f"y_score names a model {taken[0]!r}, the name of a reference strategy; rename it"
            )
        return dict(y_score)
    return {"model": y_score}
