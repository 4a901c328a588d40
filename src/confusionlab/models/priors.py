"""The symmetric priors of the models: a name or a number of pseudo-counts."""

from __future__ import annotations

from typing import Any

from .._validation import (
    InvalidParameterError,
    check_positive_real,
)

__all__ = ["MAX_PRIOR", "PRIORS", "resolve_prior"]


#: Prior names and their pseudo-count α = β.
PRIORS = {"uniform": 1.0, "bayes-laplace": 1.0, "jeffreys": 0.5}
#: Largest numeric prior: four cells of it still add up to a finite double.
MAX_PRIOR = 1e300


def resolve_prior(prior: Any) -> float:
    """The symmetric prior parameter α = β: a name from :data:`PRIORS` or a positive number.

    >>> resolve_prior("jeffreys"), resolve_prior(2)
    (0.5, 2.0)
    >>> resolve_prior("flat")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: unknown prior 'flat'; expected one of ['bayes-laplace', 'jeffreys', ...
    """
    if isinstance(prior, str):
        key = prior.strip().lower().replace("_", "-")
        if key not in PRIORS:
            raise InvalidParameterError(
                f"unknown prior {prior!r}; expected one of {sorted(PRIORS)} or a positive number"
            )
        return PRIORS[key]
    value = check_positive_real(prior, "prior")
    if value > MAX_PRIOR:
        raise InvalidParameterError(
            f"prior must be at most {MAX_PRIOR:g} pseudo-counts, got {prior!r}; a prior that large is already "
            "a point mass at rate ½ (try 1e12 for the same answer)"
        )
    return value
