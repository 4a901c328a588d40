"""The arguments of :func:`~confusionlab.compare_paired`, :func:`~confusionlab.paired.compare_paired_cells`
and :func:`~confusionlab.rank_models` that do not depend on the data, checked once into one frozen
:class:`Options` that the array path and the ``data=`` path (``_data``) both take whole."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .._validation import (
    InvalidParameterError,
    check_choice,
    check_n_draws,
    check_progress,
    check_random_state,
    check_tolerance,
    check_undefined,
)
from ..metrics import Metric, get_metric
from ..models import TARGETS
from ._model import check_model

__all__ = ["METHODS", "Options", "check_options", "check_true_value_question"]

#: How the probabilities are computed.
METHODS = ("auto", "exact", "monte-carlo")


@dataclass(frozen=True)
class Options:
    """The paired comparison's (and ranking's) arguments that do not depend on the data, checked."""

    metric: Metric
    model: str
    tolerance: float
    #: As given (N or (p, n)); checked against the observed class sizes once they are counted.
    future_size: Any
    #: As given; checked against the labels once they are known.
    positive: Any
    undefined: float
    method: str
    n_draws: int
    #: As given (checked): each comparison draws from its own generator of it.
    random_state: Any
    target: str
    progress: bool = False


def check_true_value_question(model: str, future_size: Any, method: str) -> None:
    """Refuse what the true-value question cannot take: the plug-in model (its rates are taken as
    known), a future size (the true value is the limit of a growing test set), exact enumeration."""
    if model != "paired-beta-binomial":
        raise InvalidParameterError(
            f"target='true_value' is the posterior of the classifiers' true values under the Dirichlet posterior "
            f"of the agreement cells; got model={model!r}, which takes them as known. Use "
            "model='paired-beta-binomial' (the default), or target='next_test_set'"
        )
    if future_size is not None:
        raise InvalidParameterError(
            f"target='true_value' has no test-set size (it is the limit of a growing one); got "
            f"future_size={future_size!r}. Leave future_size out, or use target='next_test_set'"
        )
    if method == "exact":
        raise InvalidParameterError(
            "method='exact' enumerates the counts of a new test set; target='true_value' is estimated from n_draws "
            "draws of the posterior (method='auto' or 'monte-carlo')"
        )


def check_options(
    *,
    metric: Any,
    model: Any,
    tolerance: Any,
    future_size: Any,
    undefined: Any,
    method: Any,
    n_draws: Any,
    random_state: Any,
    target: Any,
    positive: Any = None,
    progress: Any = False,
    stacklevel: int,
) -> Options:
    """Check every argument of the paired comparison that does not need the data. ``stacklevel`` as
    the caller's own :func:`warnings.warn` would take it (for an old model name's FutureWarning).

    >>> o = check_options(metric="accuracy", model="paired-beta-binomial", tolerance=1e-12, future_size=None,
    ...                   undefined=0.0, method="auto", n_draws=1000, random_state=0, target="true_value",
    ...                   stacklevel=1)
    >>> o.metric.name, o.method, o.progress
    ('accuracy', 'auto', False)
    """
    metric = get_metric(metric)
    model = check_model(model, stacklevel=stacklevel + 1)
    tolerance = check_tolerance(tolerance)
    undefined_value = check_undefined(undefined, allow_exclude=False)
    assert undefined_value is not None
    n_draws = check_n_draws(n_draws)
    method = check_choice(method, "method", METHODS)
    target = check_choice(target, "target", TARGETS)
    if target == "true_value":
        check_true_value_question(model, future_size, method)
    check_random_state(random_state)  # refused here, not on first use
    return Options(
        metric=metric,
        model=model,
        tolerance=tolerance,
        future_size=future_size,
        positive=positive,
        undefined=undefined_value,
        method=method,
        n_draws=n_draws,
        random_state=random_state,
        target=target,
        progress=check_progress(progress),
    )
