"""``cost_curve(y_true, y_score)`` → :class:`CostCurve`: Drummond & Holte's cost curve with its band."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._result import Result, new_figure
from .._validation import check_confidence
from ..palette import NEUTRAL, THEME
from ..scores import roc_curve
from ._band import ks_quantile, statement_level
from ._cost import envelope, upper_hull

__all__ = ["CostBand", "CostCurve", "cost_curve"]

#: Probability costs the curve and its band are evaluated at.
GRID = 501


@dataclass(frozen=True)
class CostBand:
    """``lower``, ``upper`` normalised expected costs at each ``probability_cost``, simultaneous."""

    probability_cost: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    confidence: float

    def __iter__(self):
        yield self.lower
        yield self.upper


class CostCurve(Result):
    """Normalised expected cost against probability cost: the lower envelope of the ROC points' lines.

    Built by :func:`confusionlab.cost_curve`. ``probability_cost`` is a grid of [0, 1]; ``cost`` the
    envelope there; ``hull_fpr``, ``hull_tpr`` the ROC convex hull's vertices (the points the envelope
    touches); ``fpr``, ``tpr`` every ROC point; ``p``, ``n`` the class sizes. :attr:`value` is the area
    under the cost curve (the expected cost over uniformly distributed probability costs).
    :attr:`target` is the question the band answers: ``"true_value"``, where the true cost curve lies.
    """

    title = "Cost curve"
    #: The question the band and :meth:`interval` answer: the true cost curve.
    target = "true_value"

    def __init__(self, fpr: np.ndarray, tpr: np.ndarray, p: int, n: int) -> None:
        self.fpr, self.tpr, self.p, self.n = fpr, tpr, p, n
        self.probability_cost = np.linspace(0.0, 1.0, GRID)
        self.cost = envelope(fpr, tpr, self.probability_cost)
        self.hull_fpr, self.hull_tpr = upper_hull(fpr, tpr)

    @property
    def value(self) -> float:
        """The area under the cost curve (trapezoids on the grid; the envelope is piecewise linear)."""
        pc, c = self.probability_cost, self.cost
        return float(np.sum((c[1:] + c[:-1]) * np.diff(pc)) / 2.0)

    def band(self, confidence: float = 0.95) -> CostBand:
        """The band around the true cost curve at every probability cost at once (Campbell's ROC band mapped)."""
        confidence = check_confidence(confidence)
        level = statement_level(confidence, 2)
        d_p, d_n = ks_quantile(self.p, level), ks_quantile(self.n, level)
        pc = self.probability_cost
        lower = envelope(self.fpr - d_n, self.tpr + d_p, pc)
        upper = envelope(self.fpr + d_n, self.tpr - d_p, pc)
        return CostBand(pc, lower, np.minimum(upper, np.minimum(pc, 1.0 - pc)), confidence)

    def interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """The area's range over every cost curve inside the band (simultaneous, so at least ``confidence``).

        The rows are assumed independent (one draw each): with several rows per patient, passage or
        speaker this interval is too narrow.
        """
        band = self.band(confidence)
        pc = self.probability_cost

        def area(c: np.ndarray) -> float:
            return float(np.sum((c[1:] + c[:-1]) * np.diff(pc)) / 2.0)

        return area(band.lower), area(band.upper)

    def to_frame(self) -> Any:
        """One row per probability cost: the envelope, the 95 % band and the question it answers (target)."""
        import pandas as pd

        band = self.band(0.95)
        return pd.DataFrame(
            {
                "probability_cost": self.probability_cost,
                "cost": self.cost,
                "band_lower": band.lower,
                "band_upper": band.upper,
                "target": self.target,
            }
        )

    def summary(self, confidence: float = 0.95) -> str:
        """The area under the cost curve and its simultaneous range, in words."""
        lo, hi = self.interval(confidence)
        return (
            f"Area under the cost curve {self.value:.3g} (trivial classifiers: 0.25); every cost curve inside "
            f"the {confidence:.0%} simultaneous band has an area in [{lo:.3g}, {hi:.3g}]; the envelope touches "
            f"{self.hull_fpr.size - 2} of the ROC points."
        )

    def plot(self, ax: Any = None) -> Any:
        """The hull points' cost lines (grey), the envelope, its 95 % band and the trivial classifiers."""
        fig, ax = new_figure(ax, figsize=(5.0, 4.2))
        pc = self.probability_cost
        for f, t in zip(self.hull_fpr, self.hull_tpr, strict=True):
            ax.plot([0, 1], [f, 1 - t], color=NEUTRAL, lw=0.5, alpha=0.6)
        band = self.band(0.95)
        ax.fill_between(pc, band.lower, band.upper, color=THEME["accent"], alpha=0.2, lw=0, label="95 % band")
        ax.plot(pc, self.cost, color=THEME["accent"], lw=1.6, label="cost curve")
        ax.plot([0, 0.5, 1], [0, 0.5, 0], color="black", lw=0.8, ls="--", label="trivial classifiers")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 0.55)
        ax.set_xlabel("probability cost PC(+)")
        ax.set_ylabel("normalised expected cost")
        ax.set_title(f"Cost curve (area {self.value:.3g})", fontsize=9)
        ax.legend(loc="upper right", fontsize=8, frameon=False)
        return fig

    def __repr__(self) -> str:
        return f"CostCurve(area={self.value:.4g}, p={self.p}, n={self.n}, hull_points={self.hull_fpr.size})"


def cost_curve(y_true: Any, y_score: Any, *, positive: Any = None, data: Any = None) -> CostCurve:
    """Drummond & Holte's cost curve of one classifier's scores, with its simultaneous band.

    The rows are assumed independent (one draw each): with several rows per patient, passage or speaker
    the intervals are too narrow (for clustered rows see ``cluster=`` of :func:`~confusionlab.evaluate`,
    :func:`~confusionlab.compare_paired` and :func:`~confusionlab.roc_curve`).

    Parameters
    ----------
    y_true : array-like of labels
        Two labels of any type (``positive`` as in :func:`~confusionlab.roc_curve`).
    y_score : array-like of real numbers
        Scores, higher = more positive (need not be risks).
    positive : label, optional
        The positive class.
    data : DataFrame, optional
        Any engine :func:`~confusionlab.roc_curve` reads: ``y_true`` and ``y_score`` are then columns.

    Returns
    -------
    CostCurve
        ``.probability_cost``, ``.cost`` (the envelope), ``.band(confidence)``, ``.plot()``.

    Examples
    --------
    >>> import confusionlab as cl
    >>> c = cl.cost_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> c.hull_fpr.tolist(), c.hull_tpr.tolist()  # (0, 0) and (0.5, 0.5) lie under the hull
    ([0.0, 0.5, 1.0], [0.5, 1.0, 1.0])
    >>> round(float(c.cost[250]), 4)  # at PC = ½: the best point (0.5, 1) or (0, 0.5) costs ¼
    0.25
    """
    roc = roc_curve(y_true, y_score, positive=positive, data=data)
    return CostCurve(np.asarray(roc.fpr), np.asarray(roc.tpr), int(roc.p), int(roc.n))
