"""The ROC band the choice's simultaneous band stands on: every true operating point at once.

The band of :mod:`._selection` holds on the event that the positives' rates are within ``d_pos``
and the negatives' within ``d_neg`` of the truth at every threshold. On that event the true
operating point ``(FPR(t), TPR(t)) = (x, y)`` of every threshold ``t`` satisfies
``FPR̂(t) ≤ x + d_neg`` and ``FPR̂(t) ≥ x − d_neg``, hence, the staircase ``R̂`` being monotone,

    max(0, bottom(x − d_neg) − d_pos) ≤ y ≤ min(1, top(x + d_neg) + d_pos),

with ``top(u)`` the largest TPR̂ of a candidate whose FPR̂ ≤ ``u`` and ``bottom(u)`` the smallest
TPR̂ of a candidate whose FPR̂ ≥ ``u`` (Campbell 1994's band, read at the staircase's vertices,
where a diagonal step of tied scores is taken at its corners: wider, never narrower). It is the
picture of the same event, so the iso-cost line through the chosen point and the cost band agree.
"""

from __future__ import annotations

import numpy as np

from ._candidates import Candidates

__all__ = ["GRID", "roc_band_edges"]

#: Points of the uniform FPR grid the band is evaluated on (besides the staircase's own steps).
GRID = 401
#: Most candidates whose steps (``FPR̂ ± d_neg``) are added to the grid.
STEPS = 5000


def roc_band_edges(c: Candidates, d_pos: float, d_neg: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(fpr, lower, upper)``: the band's edges on a grid of FPRs in [0, 1].

    >>> from ._candidates import candidates_from_blocks
    >>> c = candidates_from_blocks(np.array([0.1, 0.5, 0.9]), np.array([0, 1, 1]), np.array([1, 1, 0]))
    >>> x, lo, hi = roc_band_edges(c, 0.0, 0.0)  # no uncertainty: the staircase itself
    >>> at = np.searchsorted(x, [0.0, 0.25, 0.5, 1.0])
    >>> lo[at].tolist(), hi[at].tolist()
    ([0.0, 1.0, 1.0, 1.0], [0.5, 0.5, 1.0, 1.0])
    """
    fpr = (c.fp / c.n)[::-1]  # from "none positive" (0, 0) to "all positive" (1, 1), both non-decreasing
    tpr = (c.tp / c.p)[::-1]
    grid = np.linspace(0.0, 1.0, GRID)
    if fpr.size <= STEPS:
        grid = np.concatenate([grid, fpr - d_neg, fpr + d_neg, fpr])
    x = np.unique(np.clip(grid, 0.0, 1.0))
    top_at = np.searchsorted(fpr, x + d_neg, side="right") - 1  # ≥ 0: the first vertex has FPR̂ = 0 ≤ x + d
    bottom_at = np.searchsorted(fpr, x - d_neg, side="left")  # ≤ last: the last vertex has FPR̂ = 1 ≥ x − d
    upper = np.minimum(1.0, tpr[top_at] + d_pos)
    lower = np.maximum(0.0, tpr[np.minimum(bottom_at, fpr.size - 1)] - d_pos)
    return x, lower, upper
