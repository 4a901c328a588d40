"""The checks and choices :func:`~confusionlab.evaluate` makes before it counts anything, shared by
the array path (``_evaluate``) and the count-table path of ``data=`` (``_data``), so both refuse,
default and choose alike."""

from __future__ import annotations

from dataclasses import dataclass
from math import comb
from typing import Any

import numpy as np

from .._validation import (
    InvalidParameterError,
    check_choice,
    check_int,
    check_progress,
    check_random_state,
    check_tolerance,
)
from ..distribution import METHODS
from ..labels import positive_label
from ..lattice import MAX_SIMPLEX_POINTS, largest_simplex
from ..models import MODELS, SIMPLEX_MODELS, TABLE_PRIOR, TARGETS, default_alpha, resolve_prior
from ._metrics import DEFAULT_METRICS, DEFAULT_MULTICLASS_METRICS, _is_macro, metric_name
from ._sampling import check_macro_memory

#: Most Monte Carlo draws of a macro average an evaluation accepts.
MAX_DRAWS = 10**8


@dataclass(frozen=True)
class Options:
    """:func:`~confusionlab.evaluate`'s arguments that do not depend on the data, checked."""

    model: str
    method: str
    metrics: list[Any] | None
    target: str
    tolerance: float
    prior: float
    table_prior: float
    n_draws: int
    rng: np.random.Generator
    min_class_size: int
    progress: bool
    #: The positive class as given (checked against the labels once they are known).
    positive: Any = None

    def evaluation_arguments(self) -> dict[str, Any]:
        """The keyword arguments of :class:`Evaluation` these options set."""
        return {
            "model": self.model,
            "target": self.target,
            "tolerance": self.tolerance,
            "prior": self.prior,
            "table_prior": self.table_prior,
            "n_draws": self.n_draws,
            "rng": self.rng,
            "min_class_size": self.min_class_size,
            "progress": self.progress,
            "method": self.method,
        }


def check_options(
    *,
    model: Any,
    method: Any,
    metrics: Any,
    target: Any,
    tolerance: Any,
    prior: Any,
    n_draws: Any,
    random_state: Any,
    min_class_size: Any,
    progress: Any,
    positive: Any = None,
) -> Options:
    """Check every argument of :func:`~confusionlab.evaluate` that does not need the data."""
    model = check_choice(model, "model", MODELS)
    method = check_choice(method, "method", METHODS)
    if isinstance(metrics, str):  # one metric name, not its characters
        metrics = [metrics]
    target = check_choice(target, "target", TARGETS)
    tolerance = check_tolerance(tolerance)
    alpha = default_alpha("evaluate", target) if prior is None else resolve_prior(prior)
    return Options(
        model=model,
        method=method,
        metrics=None if metrics is None else list(metrics),
        target=target,
        tolerance=tolerance,
        prior=alpha,
        table_prior=TABLE_PRIOR if prior is None else alpha,
        n_draws=check_int(n_draws, "n_draws", minimum=1, maximum=MAX_DRAWS),
        rng=check_random_state(random_state),
        min_class_size=check_int(min_class_size, "min_class_size", minimum=0),
        progress=check_progress(progress),
        positive=positive,
    )


def check_target_model(options: Options) -> None:
    """Refuse the true value outside the beta-binomial model (its posterior is that model's limit)."""
    model = options.model
    if options.target == "true_value" and model != "beta-binomial":
        raise InvalidParameterError(
            f"target='true_value' is the posterior of the metric under the Beta posteriors of the rates, the limit "
            f"of the beta-binomial model; got model={model!r}. Use model='beta-binomial' (the default), or "
            "target='next_test_set'"
        )


def check_simplex_fits(options: Options, m: int) -> None:
    """Refuse ``method="exact"`` beyond the simplex model's largest test set, before anything is built."""
    model = options.model
    if options.method == "exact" and model in SIMPLEX_MODELS and comb(m + 3, 3) > MAX_SIMPLEX_POINTS:
        raise InvalidParameterError(
            f"model={model!r} spreads each distribution over the simplex of C(N + 3, 3) matrices, "
            f"{comb(m + 3, 3):,} for N = {m:,} test objects, more than the {MAX_SIMPLEX_POINTS:,} it builds; use "
            "method='auto' (Monte Carlo of the same model where exact does not fit), model='beta-binomial' (exact "
            f"at any size; the prevalence fixed), or a test set of at most {largest_simplex()} objects"
        )


def positive_and_metrics(
    classes: list[Any], positive: Any, options: Options, n_vectors_drawn: int
) -> tuple[list[Any], int | None, list[str]]:
    """The classes (the positive label added when no example holds it), the positive class's
    index (None for a multi-class evaluation without ``positive``) and the metrics evaluated;
    the macro averages' Monte Carlo memory is checked before anything is computed."""
    metrics = options.metrics
    k = len(classes)
    if k > 2 and positive is None:
        asked = [name for name in (metrics or ()) if not _is_macro(metric_name(name, "metrics"))]
        if asked:
            raise InvalidParameterError(
                f"metrics {asked!r} are binary but y_true and the predictions hold {k} classes; pass "
                "positive=<label> (one class against the rest), or use macro averages ('macro_f1') and per_class()"
            )
    positive_index = None
    if k <= 2 or positive is not None:
        label = positive_label(classes, positive)
        if not any(c == label for c in classes):  # no positive at all (1 of 0/1 labels): p = 0
            classes = [*classes, label]
            k = len(classes)
        positive_index = next(i for i, c in enumerate(classes) if c == label)
    chosen = metrics if metrics is not None else list(DEFAULT_METRICS if k <= 2 else DEFAULT_MULTICLASS_METRICS)
    if not chosen:
        raise InvalidParameterError("metrics is empty; give at least one metric name")
    chosen = [metric_name(name, "metrics") for name in chosen]
    if any(_is_macro(name) for name in chosen):
        check_macro_memory(options.n_draws, max(1, options.n_draws // n_vectors_drawn), k)
    return classes, positive_index, chosen
