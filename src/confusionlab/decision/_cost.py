"""Drummond & Holte's cost curve: the lower envelope of the ROC points' cost lines, and its band.

With probability cost ``PC = p·C(−|+) / (p·C(−|+) + (1 − p)·C(+|−))`` (the class prior times the
cost of missing a positive, normalised), an operating point (FPR, TPR) has normalised expected
cost ``NEC(PC) = (1 − TPR)·PC + FPR·(1 − PC)``: a line from FPR at PC = 0 to 1 − TPR at PC = 1. The
classifier's cost curve is the lower envelope of its points' lines, which only the vertices of the
ROC convex hull reach (Drummond & Holte 2006).

The band maps Campbell's simultaneous ROC band: with probability ≥ c the true point at every
threshold lies in its box ``[FPR̂ ± d₋] × [TPR̂ ± d₊]`` (``d`` the exact KS quantiles at √c). A
line grows with FPR and falls with TPR, so the true envelope lies above the envelope of the boxes'
best corners (FPR̂ − d₋, TPR̂ + d₊) and below the envelope of their worst corners (FPR̂ + d₋, TPR̂ − d₊),
at every PC at once.
"""

from __future__ import annotations

import numpy as np

__all__ = ["envelope", "upper_hull"]


def upper_hull(fpr: np.ndarray, tpr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The vertices of the ROC convex hull (the upper hull of the points with (0, 0) and (1, 1)).

    >>> f, t = upper_hull(np.array([0.0, 0.1, 0.5, 1.0]), np.array([0.0, 0.6, 0.7, 1.0]))
    >>> f.tolist(), t.tolist()  # (0.5, 0.7) lies below the segment from (0.1, 0.6) to (1, 1)
    ([0.0, 0.1, 1.0], [0.0, 0.6, 1.0])
    """
    x = np.concatenate([[0.0], fpr, [1.0]])
    y = np.concatenate([[0.0], tpr, [1.0]])
    order = np.lexsort((-y, x))
    x, y = x[order], y[order]
    keep = np.concatenate([[True], x[1:] != x[:-1]])  # the highest TPR at each FPR
    x, y = x[keep], y[keep]
    hull: list[int] = []
    for i in range(x.size):
        while len(hull) >= 2:
            a, b = hull[-2], hull[-1]
            if (x[b] - x[a]) * (y[i] - y[a]) - (y[b] - y[a]) * (x[i] - x[a]) >= 0:  # b not above a→i
                hull.pop()
            else:
                break
        hull.append(i)
    return x[hull], y[hull]


def envelope(fpr: np.ndarray, tpr: np.ndarray, pc: np.ndarray) -> np.ndarray:
    """The normalised expected cost of the best point at each probability cost ``pc``.

    >>> envelope(np.array([0.1]), np.array([0.6]), np.array([0.0, 0.5, 1.0])).tolist()
    [0.0, 0.25, 0.0]
    """
    f, t = upper_hull(np.clip(fpr, 0.0, 1.0), np.clip(tpr, 0.0, 1.0))
    lines = (1.0 - t)[None, :] * pc[:, None] + f[None, :] * (1.0 - pc[:, None])
    return lines.min(axis=1)
