"""The checks of array arguments: equal lengths, named classifiers, labels that are not scores,
real arrays, points and supports of a distribution, quantile levels and a plot window.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from ._errors import InvalidParameterError, join_and, short_repr

__all__ = [
    "check_classifiers",
    "check_labels_not_scores",
    "check_points",
    "check_quantiles",
    "check_real_array",
    "check_same_length",
    "check_support",
    "check_window",
]


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
    listed = join_and(names)
    if len(set(lengths)) > 1:
        raise InvalidParameterError(
            f"{listed} must match: the same length, one label per example; got {join_and([str(v) for v in lengths])}"
        )
    if not lengths or lengths[0] == 0:
        raise InvalidParameterError(f"{listed} are empty: {what} needs at least one example")
    return lengths[0]


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
        raise InvalidParameterError(f"{name} must be real numbers, got {short_repr(value)}")
    raw = np.asarray(value)
    if raw.dtype.kind not in "biuf" and not (
        raw.dtype.kind == "O"
        and all(isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_)) for v in raw.flat)
    ):
        raise InvalidParameterError(f"{name} must be real numbers, got {short_repr(value)}")
    if raw.dtype.kind == "b":
        raise InvalidParameterError(f"{name} must be real numbers, got booleans {short_repr(value)}")
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
            f"values must be strictly increasing (one atom per value), got {short_repr(values.tolist())}"
        )
    if not np.all(np.isfinite(probabilities)) or np.any(probabilities < 0):
        raise InvalidParameterError(
            f"probabilities must be finite and non-negative, got {short_repr(probabilities.tolist())}"
        )


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
        raise InvalidParameterError(f"{name} must be numbers in [0, 1], got {short_repr(value)}")
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise InvalidParameterError(f"{name} must be numbers in [0, 1], got {short_repr(value)}") from None
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
        raise InvalidParameterError(f"{name} must be four numbers (x0, x1, y0, y1), got {short_repr(value)}") from None
    box = (x0, x1, y0, y1)
    if not (x0 < x1 and y0 < y1) or not all(map(math.isfinite, box)):
        raise InvalidParameterError(f"{name} must be (x0, x1, y0, y1) with x0 < x1 and y0 < y1, got {box}")
    return box
