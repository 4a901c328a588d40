"""What a threshold choice optimises: the expected cost per example, or a metric.

The expected cost per example at a threshold is ``(cost_fp·FP + cost_fn·FN)/N``; its true value
is ``cost_fp·(1 − π)·FPR + cost_fn·π·(1 − TPR)`` with ``π`` the prevalence. A metric is read from
:data:`~confusionlab.METRICS`. The bounds of either over a box of rates (:meth:`Objective.bounds`)
are exact for the metrics of :data:`MONOTONE`: each is non-decreasing in the TPR, non-increasing
in the FPR and monotone in ``π`` at fixed rates, so its extremes over the box lie at its corners
(the cost is linear in each). MCC, Cohen's κ, markedness and the likelihood ratios are not
monotone so and are not offered.

The best candidate is the smallest cost (the largest metric) among the eligible ones; values
equal up to a relative ``TIE`` (rounding: ``0.1·3 + 0.3·0`` and ``0.1·0 + 0.3·1`` differ in the
last bit) are tied, and of tied candidates the lowest threshold is chosen — the first of the
ascending thresholds, as scikit-learn's ``TunedThresholdClassifierCV`` takes the first maximum.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..metrics import Metric

__all__ = ["MONOTONE", "TIE", "Objective", "best_index", "is_monotone"]

#: Metrics whose bounds over a box of (TPR, FPR, prevalence) lie at its corners.
MONOTONE = (
    "accuracy",
    "balanced_accuracy",
    "informedness",
    "recall",
    "tnr",
    "precision",
    "npv",
    "jaccard",
    "g_mean",
    "fowlkes_mallows",
)
#: Relative difference below which two candidates' values are tied.
TIE = 1e-12


def is_monotone(metric: Metric) -> bool:
    """Whether ``metric`` is one of :data:`MONOTONE` or an F-beta score.

    >>> from confusionlab.metrics import get_metric
    >>> is_monotone(get_metric("f2")), is_monotone(get_metric("mcc"))
    (True, False)
    """
    return metric.name in MONOTONE or (metric.name.startswith("f") and metric.name[1:2].isdigit())


def rate_cells(tpr: np.ndarray, fpr: np.ndarray, prevalence: np.ndarray) -> tuple[np.ndarray, ...]:
    """The cells' probabilities ``(tp, fn, fp, tn)`` at the rates and the prevalence."""
    return prevalence * tpr, prevalence * (1.0 - tpr), (1.0 - prevalence) * fpr, (1.0 - prevalence) * (1.0 - fpr)


@dataclass(frozen=True)
class Objective:
    """The expected cost ``(cost_fp, cost_fn)`` (minimised) or a :class:`Metric` (maximised)."""

    cost: tuple[float, float] | None = None
    metric: Metric | None = None

    @property
    def minimize(self) -> bool:
        return self.cost is not None

    @property
    def name(self) -> str:
        """``"expected cost"`` or the metric's name."""
        return "expected cost" if self.metric is None else self.metric.name

    def values(self, tp: np.ndarray, fn: np.ndarray, fp: np.ndarray, tn: np.ndarray) -> np.ndarray:
        """Per candidate: the cost per example, or the metric (NaN where it is 0/0)."""
        if self.cost is not None:
            c_fp, c_fn = self.cost
            total = tp + fn + fp + tn
            return (c_fp * np.asarray(fp, np.float64) + c_fn * np.asarray(fn, np.float64)) / total
        assert self.metric is not None
        return self.metric.values(tp, fn, fp, tn, undefined=np.nan)

    def bounds(
        self,
        tpr: tuple[np.ndarray, np.ndarray],
        fpr: tuple[np.ndarray, np.ndarray],
        prevalence: tuple[float, float],
    ) -> tuple[np.ndarray, np.ndarray]:
        """The smallest and the largest true value over the boxes ``tpr × fpr × prevalence``
        (``(low, high)`` each), exact for the cost and the :data:`MONOTONE` metrics.

        >>> o = Objective(cost=(1.0, 4.0))
        >>> lo, hi = o.bounds((np.array([0.5]), np.array([0.7])), (np.array([0.1]), np.array([0.2])), (0.2, 0.3))
        >>> round(float(lo[0]), 4), round(float(hi[0]), 4)  # 0.8·0.1 + 4·0.2·0.3; 0.7·0.2 + 4·0.3·0.5
        (0.32, 0.74)
        """
        best = [(tpr[1], fpr[0], pi) for pi in prevalence]
        worst = [(tpr[0], fpr[1], pi) for pi in prevalence]
        if self.cost is not None:
            c_fp, c_fn = self.cost

            def cost(t: np.ndarray, f: np.ndarray, pi: float) -> np.ndarray:
                return c_fp * (1.0 - pi) * f + c_fn * pi * (1.0 - t)

            low = np.minimum(*(cost(*corner) for corner in best))
            high = np.maximum(*(cost(*corner) for corner in worst))
            return low, high
        metric = self.metric
        assert metric is not None
        lo_range, hi_range = metric.range

        def value(t: np.ndarray, f: np.ndarray, pi: float, fill: float) -> np.ndarray:
            out = metric.values(*rate_cells(t, f, np.float64(pi)), undefined=np.nan)
            return np.where(np.isnan(out), fill, out)

        low = np.minimum(*(value(*corner, lo_range) for corner in worst))
        high = np.maximum(*(value(*corner, hi_range) for corner in best))
        return low, high


def best_index(values: np.ndarray, eligible: np.ndarray, minimize: bool) -> int:
    """The chosen candidate: the best eligible value, of tied ones the first (the lowest threshold).

    >>> best_index(np.array([0.3, 0.1, 0.1 + 1e-17, 0.2]), np.ones(4, bool), minimize=True)
    1
    >>> best_index(np.array([0.9, 0.5, 0.9]), np.array([False, True, True]), minimize=False)
    2
    """
    v = np.where(eligible & ~np.isnan(values), values, np.inf if minimize else -np.inf)
    best = float(v.min() if minimize else v.max())
    slack = TIE * max(abs(best), 1e-300)
    near = v <= best + slack if minimize else v >= best - slack
    return int(np.flatnonzero(near)[0])
