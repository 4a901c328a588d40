"""Paired comparison of classifiers scored on the same test set.

Two classifiers scored on the same examples err on the same hard ones, so their metrics
on a new test set are correlated; comparing them as if independent
(:func:`confusionlab.compare`) overstates the uncertainty of the difference. Here the
model is per true class the table of agreement cells (both predict positive, only A,
only B, neither).

* :func:`compare_paired` / :func:`compare_paired_cells` → :class:`PairedComparison`:
  P(metric_A > metric_B), ties decided exactly, the two marginals, the difference,
  ``prob_equivalent(margin)`` and ``verdict(margin, confidence)``.
* :func:`rank_models` → :class:`Ranking`: k ≥ 2 classifiers on one test set.
* :class:`PairedCounts`: the 2 × 4 table of agreement cells.

The models are :data:`confusionlab.models.PAIRED_MODELS`: under ``"paired-beta-binomial"``
(the default) each classifier alone is exactly the core's ``"beta-binomial"`` model, under
``"paired-binomial"`` exactly its ``"binomial"``.
"""

from __future__ import annotations

import warnings
from typing import Any

from ..models import PAIRED_MODELS
from ._compare import EXACT_WORK_LIMIT, MAX_BOX_POINTS, compare_paired, compare_paired_cells
from ._counts import CELLS, PairedCounts
from ._ranking import MAX_CLASSIFIERS, Ranking, rank_models
from ._result import PairedComparison, PairedJoint

__all__ = [
    "CELLS",
    "EXACT_WORK_LIMIT",
    "MAX_BOX_POINTS",
    "MAX_CLASSIFIERS",
    "PairedComparison",
    "PairedCounts",
    "PairedJoint",
    "Ranking",
    "compare_paired",
    "compare_paired_cells",
    "rank_models",
]

#: Old names of this package's constants → (new name, value).
_RENAMED = {
    "MAX_MODELS": ("MAX_CLASSIFIERS (it counts classifiers, not models)", MAX_CLASSIFIERS),
    "MODELS": ("confusionlab.models.PAIRED_MODELS (the models' names changed too)", PAIRED_MODELS),
}


def __getattr__(name: str) -> Any:
    if name in _RENAMED:
        new, value = _RENAMED[name]
        warnings.warn(
            f"confusionlab.paired.{name} is renamed {new}; the old name will stop working in the next release",
            FutureWarning,
            stacklevel=2,
        )
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
