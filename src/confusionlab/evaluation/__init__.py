"""From a model's predictions to "how sure, for whom, would a refit agree?".

:func:`evaluate` takes the true labels, the predictions (one vector, or a refits × objects
matrix of refitted models on the same test set) and optional group labels, counts every
(refit, group) confusion table in one pass per refit, and returns an :class:`Evaluation`
whose distributions all come from the core:

* one prediction vector: exactly ``metric_distribution(ConfusionMatrix.from_predictions(...),
  metric, model=model)``, overall and per group;
* refits: the equal-weight **mixture** of the refits' exact distributions ("a new refit scored
  on a new test set") and the law-of-total-variance split of its variance into a test-set part
  (mean of the refits' variances) and a refit part (variance, ddof = 0, of their means), both
  from :mod:`confusionlab.distribution`;
* more than two classes: exact one-vs-rest distributions per class, and macro averages by
  Monte Carlo under the row-wise Dirichlet-multinomial model with a stated Monte Carlo error;
* the per-object stability of the refits from :mod:`confusionlab.stability` (psi and phi).

Every answer names its question (:data:`QUESTIONS`): ``target="true_value"`` (default) is
where the metric's true value lies; ``target="next_test_set"`` is what a new test set of
the same size will show (about √2 as wide).

The package holds one idea per module: ``_labels`` (label coding and count tables),
``_metrics`` (the metrics reported and the questions), ``_sampling`` (the Monte Carlo
sampler of macro averages), ``_evaluate`` (:func:`evaluate`), ``_result``
(:class:`Evaluation`), ``_distributions`` (how it computes and keeps its distributions),
``_figure`` and ``_page`` (its figure and its page).

Examples
--------
>>> ev = evaluate([1, 1, 0, 0, 1, 0, 1, 0], [1, 0, 0, 0, 1, 1, 1, 0], metrics=["recall"])
>>> ev.value
{'recall': 0.75}
>>> ev.question("recall")
'Where does the true Recall (TPR, sensitivity) lie, given this test set?'
"""

from __future__ import annotations

from ..distribution import mixture
from ._evaluate import MAX_DRAWS, evaluate
from ._labels import ALL, MAX_GROUPS
from ._metrics import (
    DEFAULT_METRICS,
    DEFAULT_MULTICLASS_METRICS,
    MACRO_PREFIX,
    MULTICLASS_MCC,
    QUESTIONS,
    metric_label,
    metric_name,
    multiclass_mcc,
)
from ._result import Evaluation, MetricValues

__all__ = [
    "ALL",
    "DEFAULT_METRICS",
    "DEFAULT_MULTICLASS_METRICS",
    "MACRO_PREFIX",
    "MAX_DRAWS",
    "MAX_GROUPS",
    "MULTICLASS_MCC",
    "QUESTIONS",
    "Evaluation",
    "MetricValues",
    "evaluate",
    "metric_label",
    "metric_name",
    "mixture",
    "multiclass_mcc",
]
