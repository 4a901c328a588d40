"""The arguments only the planners take."""

from __future__ import annotations

import math
from typing import Any

from .._validation import MAX_TOLERANCE, InvalidParameterError, check_real

__all__ = ["check_assurance_tolerance"]


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
