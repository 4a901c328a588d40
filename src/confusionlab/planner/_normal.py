"""The normal-limit plan: where the exact search would take minutes, the labelled approximation.

The exact search evaluates every size near the crossing whose calibrated approximation
could meet the goal: about ``4·N·g`` sizes (``g ≥`` :data:`~._criterion.DRIFT_ALLOWANCE`,
the search's allowance), each one exact distribution. At N ≈ 10⁵ with MCC (integers
beyond 2**53: no fast path, a lattice of a million points a size) that is minutes; at
N ≈ 10⁸ hundreds of thousands of sizes. :func:`exact_seconds` estimates that cost before
the search starts; ``method="auto"`` plans with :func:`normal_plan` when it exceeds
:data:`EXACT_BUDGET`, and the plan says so (``method="normal"``) with its error.

The normal plan is the smallest N whose normal (delta-method) half-width, computed with the
planned rounded counts (:func:`~._criterion.normal_half_width`), meets the goal; its error
is measured, not assumed: the exact half-width is computed at the largest size whose exact
evaluation is cheap (:data:`CALIBRATION_SECONDS`) and its relative difference from the
approximation, plus that distribution's granularity, is reported as
``approximation_error`` (the difference falls as N grows — skewness like 1/√min(p, n),
discreteness like the atoms' spacing — so at the plan it is at most about that).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from ._criterion import _ONE_SIDED, DRIFT_ALLOWANCE, _Evaluator, plan_counts
from ._search import TargetUnreachableError, with_slack

__all__ = ["EXACT_BUDGET", "exact_seconds", "normal_plan"]

#: Estimated seconds of exact search above which ``method="auto"`` gives the normal-limit plan.
EXACT_BUDGET = 10.0
#: Estimated seconds of one exact evaluation allowed at the size the normal plan is calibrated at.
CALIBRATION_SECONDS = 0.05
#: Sizes scanned below the bisection's crossing (and above it for the stable size): the
#: approximation's rounding jumps are local.
LOCAL_SCAN = 4096
#: Seconds per lattice point of a full distribution (grouping and sorting; measured ≈ 0.5 µs).
_SECONDS_PER_POINT = 5e-7
#: Seconds of one evaluation by a fast path (contour, integer keys, one class).
_FAST_SECONDS = 0.003
#: Seconds of one true-value evaluation (a quadrature of TRUE_VALUE_NODES² nodes).
_TRUE_VALUE_SECONDS = 0.03
#: Largest lattice (rows × columns) the fast paths are counted on.
_FAST_POINTS = 4_000_000


def _windows(N: int, prevalence: float, tpr: float, tnr: float, ev: _Evaluator) -> tuple[float, float]:
    """Lattice rows and columns of the predictive at N (about 15 sd of each count, at least 1)."""
    p, n, tp, tn = plan_counts(N, prevalence, tpr, tnr)
    out = []
    for s, t in ((tp, p), (tn, n)):
        var = s * (t - s) / t if t > 0 else 0.0
        if ev.model != "binomial":
            var *= 2.0  # the rate's uncertainty roughly doubles the predictive variance
        out.append(max(1.0, 15.0 * math.sqrt(max(var, 0.0))))
    return out[0], out[1]


def evaluation_seconds(ev: _Evaluator, N: int) -> float:
    """Estimated seconds of one exact evaluation at N (the fast path's, or the full distribution's).

    The fast paths (contour, integer keys) need MCC's integers below 2**53 and a lattice of at
    most :data:`_FAST_POINTS` (beyond, the band between two contours outgrows what they sort
    and they build the lattice); metrics of one class read one marginal; the true value is a
    quadrature of fixed size.
    """
    if ev.target == "true_value":
        return _TRUE_VALUE_SECONDS
    rows, cols = _windows(N, ev.prevalence, ev.tpr, ev.tnr, ev)
    side = _ONE_SIDED.get(ev.metric.name)
    if side is not None:
        return _FAST_SECONDS + _SECONDS_PER_POINT * (rows if side == "p" else cols)
    name = ev.metric.name
    points = rows * cols
    fast = points <= _FAST_POINTS and (
        name == "balanced_accuracy" or ((name == "mcc" or name[:1] == "f") and ev.metric.magnitude(N) < 2**53)
    )
    if fast:
        return _FAST_SECONDS
    return _FAST_SECONDS + _SECONDS_PER_POINT * points


def exact_seconds(ev: _Evaluator, N: int) -> float:
    """Estimated seconds of the exact search and stable-size check ending near N: about
    ``4·N·g + 20`` evaluations (``g = max(DRIFT_ALLOWANCE, 1/min(p, n))``, the band of sizes
    the scans cannot rule out), each :func:`evaluation_seconds`."""
    p, n, _, _ = plan_counts(N, ev.prevalence, ev.tpr, ev.tnr)
    g = max(DRIFT_ALLOWANCE, 1.0 / max(1, min(p, n)))
    return (4.0 * N * g + 20.0) * evaluation_seconds(ev, N)


def crossing(approximate: Callable[[np.ndarray], np.ndarray], goal: float, lo: int, hi: int) -> int | None:
    """The smallest size in ``[lo, hi]`` whose approximation is ≤ ``goal`` near the crossing:
    bisection on a geometric grid (the approximation falls like 1/√N), then a scan of the
    :data:`LOCAL_SCAN` sizes below it. None when even ``hi`` is above the goal."""
    goal = with_slack(goal)
    if not approximate(np.array([hi], dtype=np.int64))[0] <= goal:
        return None
    a, b = lo, hi  # invariant: a(b) ≤ goal
    if approximate(np.array([a], dtype=np.int64))[0] <= goal:
        return a
    while b - a > 1:
        m = (a + b) // 2
        if approximate(np.array([m], dtype=np.int64))[0] <= goal:
            b = m
        else:
            a = m
    start = max(lo, b - LOCAL_SCAN)
    sizes = np.arange(start, b + 1, dtype=np.int64)
    ok = np.flatnonzero(approximate(sizes) <= goal)
    return int(sizes[ok[0]])


def stable_crossing(approximate: Callable[[np.ndarray], np.ndarray], goal: float, start: int, horizon: int) -> int:
    """The smallest size from which every size up to ``min(horizon, start + LOCAL_SCAN)`` has its
    approximation ≤ ``goal`` (beyond, the smooth 1/√N fall dominates the rounding jumps)."""
    goal = with_slack(goal)
    end = min(horizon, start + LOCAL_SCAN)
    sizes = np.arange(start, end + 1, dtype=np.int64)
    bad = np.flatnonzero(~(approximate(sizes) <= goal))
    return int(sizes[bad[-1]] + 1) if bad.size else start


def calibration_size(ev: _Evaluator, N: int, min_size: int) -> int:
    """The largest size ≤ N (on a geometric grid) whose exact evaluation is estimated to take at
    most :data:`CALIBRATION_SECONDS`."""
    grid = np.unique(np.round(np.geomspace(max(min_size, 2), max(N, 3), 64)).astype(np.int64))
    cheap = [int(s) for s in grid if evaluation_seconds(ev, int(s)) <= CALIBRATION_SECONDS]
    return max(cheap) if cheap else int(grid[0])


def normal_plan(
    ev: _Evaluator,
    approximate: Callable[[np.ndarray], np.ndarray],
    half_width: float,
    *,
    min_size: int,
    max_size: int,
) -> tuple[int, float, int, int, float, dict[int, float]]:
    """The normal-limit plan: ``(N, half_width, N_stable, horizon, error, curve)``.

    ``N`` is the smallest size (:func:`crossing`) whose normal half-width meets the goal,
    ``half_width`` that approximation there, ``N_stable`` by :func:`stable_crossing` (checked
    up to ``horizon = min(2·N, max_size, N + LOCAL_SCAN)``);
    ``error`` the relative difference of exact and normal half-width at the calibration size
    (:func:`calibration_size`) plus its granularity; ``curve`` holds the one exact size.
    """
    N = crossing(approximate, half_width, min_size, max_size)
    if N is None:
        h_max = float(approximate(np.array([max_size], dtype=np.int64))[0])
        raise TargetUnreachableError(
            f"no N up to {max_size:,} (max_size) reaches the half-width {half_width:g} even in the normal limit "
            f"(± {h_max:.4g} at N = {max_size:,}); ask for a larger half_width, a lower confidence, or raise max_size",
            best_N=max_size,
            best_half_width=h_max,
            max_size=max_size,
            curve={},
        )
    h = float(approximate(np.array([N], dtype=np.int64))[0])
    horizon = min(2 * N, max_size, N + LOCAL_SCAN)  # how far the stable size is checked here
    N_stable = stable_crossing(approximate, half_width, N, horizon)
    at = calibration_size(ev, N, min_size)
    exact_h, grain = ev.criterion(ev.matrix(at))
    a = float(approximate(np.array([at], dtype=np.int64))[0])
    error = abs(exact_h / a - 1.0) + grain if math.isfinite(exact_h) and a > 0 else math.inf
    return N, h, N_stable, horizon, error, {at: exact_h}
