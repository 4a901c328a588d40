"""Contours as parametric curves in ROC space (x = FPR, y = TPR), and the usual ways to write them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class ParametricCurve:
    """A contour branch ``t -> (fpr(t), tpr(t))`` for ``t`` in ``[t_min, t_max]``.

    ``t_range(window)`` gives the parameter range that covers a window
    ``(x0, x1, y0, y1)``; ``xy(t)`` gives the points (NaN where the curve does
    not exist).
    """

    xy: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]
    t_range: Callable[[tuple[float, float, float, float]], tuple[float, float]]
    spacing: str = "linear"  # or "cosine" (denser at both ends)


def _x_param(y_of_x: Callable[[np.ndarray], np.ndarray]) -> ParametricCurve:
    return ParametricCurve(lambda t: (t, y_of_x(t)), lambda w: (w[0], w[1]))


def _y_param(x_of_y: Callable[[np.ndarray], np.ndarray]) -> ParametricCurve:
    return ParametricCurve(lambda t: (x_of_y(t), t), lambda w: (w[2], w[3]))


def _horizontal(y0: float) -> ParametricCurve:
    return _x_param(lambda x: np.full_like(x, y0))


def _vertical(x0: float) -> ParametricCurve:
    return _y_param(lambda y: np.full_like(y, x0))


def _u_param(d_of_u: Callable[[np.ndarray], np.ndarray], prevalence: float, *, u01: bool) -> ParametricCurve:
    """Curves written in u = π·TPR + (1−π)·FPR and d = TPR − FPR (MCC, markedness)."""

    def xy(u: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        d = d_of_u(u)
        return u - prevalence * d, u + (1 - prevalence) * d

    def t_range(w: tuple[float, float, float, float]) -> tuple[float, float]:
        if u01:
            return 0.0, 1.0
        lo = (1 - prevalence) * w[0] + prevalence * w[2]
        hi = (1 - prevalence) * w[1] + prevalence * w[3]
        return lo, hi

    return ParametricCurve(xy, t_range, "cosine" if u01 else "linear")
