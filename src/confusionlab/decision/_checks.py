"""The arguments only the decision job takes, checked at the boundary (each refusal names its argument)."""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping
from typing import Any

import numpy as np

from .._validation import InvalidParameterError, check_probability, short_repr
from ..metrics import Metric, get_metric

__all__ = ["check_cost", "check_maximize", "check_subject_to"]


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
