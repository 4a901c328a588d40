"""Constraints on a threshold (``subject_to={"precision": 0.9}``): which candidates meet them, and how
sure a constraint is to hold at the chosen one.

A constraint is one of four rates, each the share of successes among the examples of one row or
column of the confusion matrix: precision ``TP/(TP + FP)``, recall ``TP/(TP + FN)``, specificity
``TN/(TN + FP)`` and NPV ``TN/(TN + FN)``. A candidate meets it when its empirical value is at least
the bound (a rate that is 0/0 there does not). At a threshold held fixed, the rate's posterior
under the symmetric prior α is ``Beta(successes + α, failures + α)`` (the binomial likelihood of
the row or column given its size), so ``P(rate ≥ bound)`` is its exact upper tail.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from scipy import stats

from ..confusion import ConfusionMatrix

__all__ = ["CONSTRAINTS", "meets", "prob_constraint"]

#: The constrainable rates: (successes, failures) of their Beta posteriors.
CONSTRAINTS: Mapping[str, tuple[str, str]] = {
    "precision": ("tp", "fp"),
    "recall": ("tp", "fn"),
    "tnr": ("tn", "fp"),
    "npv": ("tn", "fn"),
}


def _rate(successes: np.ndarray, failures: np.ndarray) -> np.ndarray:
    total = successes + failures
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(total > 0, successes / np.maximum(total, 1), np.nan)


def meets(counts: Mapping[str, np.ndarray], subject_to: Mapping[str, float]) -> np.ndarray:
    """Per candidate, whether every constraint's empirical rate reaches its bound (0/0 does not).

    >>> c = {"tp": np.array([8, 5, 0]), "fn": np.array([2, 5, 10]),
    ...      "fp": np.array([6, 1, 0]), "tn": np.array([4, 9, 10])}
    >>> meets(c, {"precision": 0.8}).tolist(), meets(c, {"precision": 0.5, "recall": 0.6}).tolist()
    ([False, True, False], [True, False, False])
    """
    ok = np.ones(np.shape(counts["tp"]), dtype=bool)
    for name, bound in subject_to.items():
        s, f = CONSTRAINTS[name]
        rate = _rate(np.asarray(counts[s], np.float64), np.asarray(counts[f], np.float64))
        ok &= ~np.isnan(rate) & (rate >= bound)
    return ok


def prob_constraint(cm: ConfusionMatrix, subject_to: Mapping[str, float], alpha: float) -> dict[str, float]:
    """``P(rate ≥ bound)`` for each constraint at the matrix ``cm``: the upper tail of its Beta posterior.

    >>> p = prob_constraint(ConfusionMatrix(tp=45, fn=5, fp=5, tn=45), {"precision": 0.85}, 0.5)
    >>> round(p["precision"], 4), round(float(stats.beta(45.5, 5.5).sf(0.85)), 4)
    (0.8394, 0.8394)
    """
    cells = {"tp": cm.tp, "fn": cm.fn, "fp": cm.fp, "tn": cm.tn}
    out = {}
    for name, bound in subject_to.items():
        s, f = CONSTRAINTS[name]
        out[name] = float(stats.beta(cells[s] + alpha, cells[f] + alpha).sf(bound))
    return out
