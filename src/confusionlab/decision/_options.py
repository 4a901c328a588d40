"""The arguments of the decision job that do not depend on the data, checked once into frozen options
that the array path and the ``data=`` path (``_data``) take whole.

Sections: :class:`CurveOptions` (``decision_curve``); the threshold choice adds its own below.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import check_confidence
from ..models import DEFAULTS, resolve_prior
from ._checks import check_prevalence, check_thresholds

__all__ = ["CurveOptions", "check_curve_options"]

# ----------------------------------------------------------------------------- decision curve


@dataclass(frozen=True)
class CurveOptions:
    """:func:`~confusionlab.decision_curve`'s arguments that do not depend on the data, checked."""

    thresholds: np.ndarray
    #: None: the observed prevalence (a cohort); else the given one (a case-control sample).
    prevalence: float | None
    #: As given (a number or {model: harm}); checked against the models' names.
    harm: Any
    #: As given; checked against the labels once they are known.
    positive: Any
    #: The Dirichlet prior's α on each of the four cells.
    alpha: float
    confidence: float


def check_curve_options(
    *, thresholds: Any, prevalence: Any, harm: Any, positive: Any, confidence: Any, prior: Any
) -> CurveOptions:
    """Check every argument of :func:`~confusionlab.decision_curve` that does not need the data.

    >>> o = check_curve_options(thresholds=None, prevalence=None, harm=0.0, positive=None, confidence=0.95,
    ...                         prior=None)
    >>> o.thresholds.size, o.alpha
    (100, 0.5)
    """
    row = DEFAULTS["decision_curve"]
    alpha = row.alpha[row.target] if prior is None else resolve_prior(prior)
    return CurveOptions(
        thresholds=check_thresholds(thresholds),
        prevalence=check_prevalence(prevalence),
        harm=harm,
        positive=positive,
        alpha=alpha,
        confidence=check_confidence(confidence),
    )
