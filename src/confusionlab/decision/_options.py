"""The decision job's arguments that do not depend on the data, checked once into one frozen object that
the array path and the ``data=`` path (``_data``) both take whole."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import InvalidParameterError, check_confidence
from ..models import DEFAULTS, resolve_prior
from ._checks import check_cost, check_maximize, check_prevalence, check_subject_to, check_thresholds
from ._constraint import CONSTRAINTS
from ._objective import Objective, is_monotone

__all__ = ["ChoiceOptions", "CurveOptions", "check_choice_options", "check_curve_options"]


# -- threshold choice --------------------------------------------------------------------------
@dataclass(frozen=True)
class ChoiceOptions:
    """:func:`~confusionlab.choose_threshold`'s arguments that do not depend on the data, checked."""

    objective: Objective
    #: ``{rate: lowest value}``, the rates' registry names.
    subject_to: dict[str, float]
    #: As given; checked against the labels once they are known.
    positive: Any
    confidence: float
    #: The prior pseudo-count α of the posteriors (pointwise interval, ``prob_constraint``).
    alpha: float


def check_choice_options(
    *, cost: Any, maximize: Any, subject_to: Any, positive: Any, confidence: Any, prior: Any
) -> ChoiceOptions:
    """Check every argument of :func:`~confusionlab.choose_threshold` that does not need the data.

    >>> o = check_choice_options(cost=None, maximize="recall", subject_to={"precision": 0.9}, positive=None,
    ...                          confidence=0.95, prior=None)
    >>> o.objective.name, o.subject_to, o.alpha
    ('recall', {'precision': 0.9}, 0.5)
    >>> check_choice_options(cost=(1, 1), maximize="f1", subject_to=None, positive=None, confidence=0.95, prior=None)
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: pass cost=(cost_fp, cost_fn) or maximize=<metric>, not both
    """
    if (cost is None) == (maximize is None):
        raise InvalidParameterError(
            "pass cost=(cost_fp, cost_fn) or maximize=<metric>, not both"
            if cost is not None
            else "pass cost=(cost_fp, cost_fn) or maximize=<metric>: what the threshold should optimise"
        )
    objective = (
        Objective(cost=check_cost(cost))
        if cost is not None
        else Objective(metric=check_maximize(maximize, is_monotone))
    )
    constraints = check_subject_to(subject_to, CONSTRAINTS)
    alpha = DEFAULTS["choose_threshold"].alpha["true_value"] if prior is None else resolve_prior(prior)
    return ChoiceOptions(objective, constraints, positive, check_confidence(confidence), alpha)


# -- decision curve ----------------------------------------------------------------------------
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
