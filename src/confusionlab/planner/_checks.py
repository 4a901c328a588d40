"""The arguments only the planners take."""

from __future__ import annotations

import math
from typing import Any

from .._validation import MAX_TOLERANCE, InvalidParameterError, check_choice, check_real
from ..models import TARGETS, default_alpha, resolve_prior

__all__ = ["check_assurance_tolerance", "plan_prior"]


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
    fvalue = check_real(value, "assurance_tolerance", "a small non-negative number (mass left out per marginal)")
    if math.isnan(fvalue) or not 0.0 <= fvalue <= MAX_TOLERANCE:
        raise InvalidParameterError(
            f"assurance_tolerance must lie in [0, {MAX_TOLERANCE}] (the mass of the test outcomes left out of the "
            f"enumeration per marginal; default {default:g}), got {value!r}"
        )
    return fvalue


def plan_prior(prior: Any, target: str) -> float:
    """The prior α a plan assumes: ``prior`` resolved, or when it is None the default of
    :func:`~confusionlab.metric_distribution` and :func:`~confusionlab.evaluate` for the question —
    Jeffreys' α = ½ for ``target="true_value"``, the uniform α = 1 for ``"next_test_set"``
    (:func:`confusionlab.models.default_alpha`).

    >>> plan_prior(None, "true_value"), plan_prior(None, "next_test_set"), plan_prior("uniform", "true_value")
    (0.5, 1.0, 1.0)
    """
    target = check_choice(target, "target", TARGETS)
    if prior is None:
        return default_alpha("plan_test_size", target)
    return resolve_prior(prior)
