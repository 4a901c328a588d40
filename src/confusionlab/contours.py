"""Metric contours (isolines) in ROC space.

Each metric's ``level`` contour on the slice with ``p`` positives and ``n``
negatives is a curve in (x, y) = (FPR, TPR). The metric registry holds each
contour as a parametric curve written from its equation (parallel lines, the F1
pencil through (−p/n, 0), MCC half-ellipses, …); this module samples it, clips it
to a window — the unit square, or beyond it on request — and returns polylines
whose every vertex lies on the contour.
"""

from __future__ import annotations

import numpy as np

from ._validation import (
    InvalidParameterError,
    check_count,
    check_finite_real,
    check_int,
    check_rate,
    check_window,
)
from .metrics import Metric, ParametricCurve, get_metric

__all__ = ["EXTENDED_WINDOW", "MAX_SAMPLES", "UNIT_SQUARE", "contour", "mcc_eccentricity"]

#: Most samples per contour branch that :func:`contour` draws.
MAX_SAMPLES = 100_000

UNIT_SQUARE = (0.0, 1.0, 0.0, 1.0)
#: Window used by ``extend=True``: half a unit beyond the square on every side.
EXTENDED_WINDOW = (-0.5, 1.5, -0.5, 1.5)
_EDGE = 1e-12


def contour(
    metric: str | Metric,
    level: float,
    p: int,
    n: int,
    *,
    extend: bool = False,
    window: tuple[float, float, float, float] | None = None,
    num: int = 400,
) -> list[np.ndarray]:
    """The ``level`` contour of ``metric`` in ROC space as polylines.

    Parameters
    ----------
    metric : str or Metric
        Name from :data:`~confusionlab.METRICS`.
    level : float
        The metric value k.
    p, n : int
        Positives and negatives of the slice (both > 0).
    extend : bool, default False
        Clip to :data:`EXTENDED_WINDOW` instead of the unit square, showing the
        contour beyond the reachable rates (the authors' "limits" toggle).
    window : (x0, x1, y0, y1), optional
        Any other clipping window; overrides ``extend``.
    num : int, default 400
        Samples per branch, 2 to :data:`MAX_SAMPLES` (straight lines need only the
        two ends, which are always exact).

    Returns
    -------
    list of ndarray, shape (m, 2)
        Polylines of (FPR, TPR) points; an empty list when the level is not
        attained inside the window.

    Examples
    --------
    >>> [line] = contour("balanced_accuracy", 0.75, p=20, n=40)
    >>> np.round(line[[0, -1]], 12).tolist()
    [[0.0, 0.5], [0.5, 1.0]]
    >>> [half_ellipse] = contour("mcc", 0.5, p=20, n=80, extend=True)
    >>> bool(np.allclose(half_ellipse[[0, -1]], [[0, 0], [1, 1]]))
    True
    """
    m = get_metric(metric)
    p = check_count(p, "p")
    n = check_count(n, "n")
    if p == 0 or n == 0:
        raise InvalidParameterError(f"contours live on slices with p > 0 and n > 0, got p={p}, n={n}")
    level = check_finite_real(level, "level")
    num = check_int(num, "num", minimum=2, maximum=MAX_SAMPLES)
    lo, hi = m.range
    if not lo <= level <= hi:
        return []
    x0, x1, y0, y1 = check_window((EXTENDED_WINDOW if extend else UNIT_SQUARE) if window is None else window)
    lines: list[np.ndarray] = []
    for curve in m.contour_curves(level, p, n):
        lines.extend(_clip(curve, (x0, x1, y0, y1), num))
    return lines


def _clip(curve: ParametricCurve, window: tuple[float, float, float, float], num: int) -> list[np.ndarray]:
    t0, t1 = curve.t_range(window)
    if curve.spacing == "cosine":
        t = t0 + (t1 - t0) * (1 - np.cos(np.linspace(0.0, np.pi, num))) / 2
    else:
        t = np.linspace(t0, t1, num)
    inside = _inside(curve, t, window)
    if not inside.any():
        return []
    edges = np.diff(inside.astype(np.int8))
    starts = np.flatnonzero(edges == 1) + 1
    ends = np.flatnonzero(edges == -1)
    if inside[0]:
        starts = np.r_[0, starts]
    if inside[-1]:
        ends = np.r_[ends, num - 1]
    # refine every crossing onto the window's edge at once: entries, then exits
    enter = starts > 0
    leave = ends < num - 1
    t_out = np.r_[t[starts[enter] - 1], t[ends[leave] + 1]]
    t_in = np.r_[t[starts[enter]], t[ends[leave]]]
    crossing = _bisect(curve, window, t_out, t_in)
    t_enter = np.full(starts.size, np.nan)
    t_enter[enter] = crossing[: enter.sum()]
    t_leave = np.full(ends.size, np.nan)
    t_leave[leave] = crossing[enter.sum() :]
    lines = []
    for s, e, a, b in zip(starts, ends, t_enter, t_leave, strict=True):
        tt = t[s : e + 1]
        if not np.isnan(a):
            tt = np.r_[a, tt]
        if not np.isnan(b):
            tt = np.r_[tt, b]
        x, y = curve.xy(tt)
        pts = np.column_stack([np.broadcast_to(x, tt.shape), np.broadcast_to(y, tt.shape)])
        if pts.shape[0] >= 2 and np.ptp(pts, axis=0).max() > 1e-9:  # drop invisible specks
            lines.append(pts)
    return lines


def _inside(
    curve: ParametricCurve, t: np.ndarray, window: tuple[float, float, float, float], edge: float = _EDGE
) -> np.ndarray:
    """Which parameters give a point in the window (``edge`` of slack for round-off)."""
    x0, x1, y0, y1 = window
    with np.errstate(all="ignore"):
        x, y = curve.xy(np.asarray(t, dtype=np.float64))
        x = np.broadcast_to(x, np.shape(t))
        y = np.broadcast_to(y, np.shape(t))
        return (
            np.isfinite(x) & np.isfinite(y) & (x >= x0 - edge) & (x <= x1 + edge) & (y >= y0 - edge) & (y <= y1 + edge)
        )


def _bisect(
    curve: ParametricCurve, window: tuple[float, float, float, float], t_out: np.ndarray, t_in: np.ndarray
) -> np.ndarray:
    """Parameters of the window crossings between outside and inside samples (vectorised)."""
    t_out, t_in = np.array(t_out, dtype=np.float64), np.array(t_in, dtype=np.float64)
    if t_in.size == 0:
        return t_in
    for _ in range(64):
        mid = 0.5 * (t_out + t_in)
        if np.all((mid == t_in) | (mid == t_out)):  # adjacent doubles: converged
            break
        ok = _inside(curve, mid, window, edge=0.0)
        t_in = np.where(ok, mid, t_in)
        t_out = np.where(ok, t_out, mid)
    return t_in


def mcc_eccentricity(level: float, prevalence: float) -> float:
    """Eccentricity of the ellipse carrying the MCC = ±``level`` contours.

    MCC = k on the slice of prevalence π reads, in ROC coordinates (x = FPR, y = TPR),
    π(1−π)(y−x)² = k²·u(1−u) with u = πy + (1−π)x (square both sides of MCC's
    definition written in rates), a conic through (0, 0) and (1, 1): an ellipse for
    0 < |k| ≤ 1, whose eccentricity follows from the eigenvalues of its quadratic form.

    >>> round(mcc_eccentricity(0.5, 0.5), 3)
    0.866
    """
    k = check_finite_real(level, "level")
    pi = check_rate(prevalence, "prevalence")
    if not 0 < abs(k) <= 1:
        raise InvalidParameterError(f"level must satisfy 0 < |level| <= 1 (MCC's range without 0), got {k}")
    k2 = k * k
    d = np.array([-1.0, 1.0])
    u = np.array([1 - pi, pi])
    q = pi * (1 - pi) * np.outer(d, d) + k2 * np.outer(u, u)
    small, large = np.linalg.eigvalsh(q)
    return float(np.sqrt(1 - small / large))
