"""Paired comparison of classifiers scored on the same test set (SPEC E5).

* :func:`compare_paired` / :func:`compare_paired_cells` → :class:`PairedComparison`:
  P(metric_A > metric_B), ties decided exactly, the two marginals, the difference,
  ``prob_equivalent(margin)`` and ``verdict(margin, confidence)``.
* :func:`rank_models` → :class:`Ranking`: k ≥ 2 classifiers on one test set.
* :class:`PairedCounts`: the 2 × 4 table of agreement cells.
"""

from __future__ import annotations

from ._compare import (
    EXACT_WORK_LIMIT,
    MAX_BOX_POINTS,
    PairedComparison,
    PairedJoint,
    compare_paired,
    compare_paired_cells,
)
from ._counts import CELLS, PairedCounts
from ._model import MODELS
from ._ranking import MAX_MODELS, Ranking, rank_models

__all__ = [
    "CELLS",
    "EXACT_WORK_LIMIT",
    "MAX_BOX_POINTS",
    "MAX_MODELS",
    "MODELS",
    "PairedComparison",
    "PairedCounts",
    "PairedJoint",
    "Ranking",
    "compare_paired",
    "compare_paired_cells",
    "rank_models",
]
