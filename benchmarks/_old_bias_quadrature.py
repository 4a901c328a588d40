"""The true-value quadrature of two Beta rates as it was before issue 20's vectorisation (one row at a time).

Kept only as ``benchmarks/bench_audit.py --groups``'s in-run baseline: cell masses at 301 points of the
integrating rate, the other rate's cdf linearly interpolated from a 4,001-point table, one row per call.
"""

from __future__ import annotations

import math

import numpy as np

from confusionlab.distribution import MetricDistribution

#: Points of the grid on which the true-value cdf of a function of two rates is computed, and
#: of the quadrature over the other rate (see :func:`_two_rates_exact`).
_CDF_POINTS, _QUADRATURE_POINTS = 801, 301
#: Points at which each beta cdf is tabulated for the quadrature (linear interpolation between them).
_CDF_TABLE = 4_001
#: Grid points per tail, at tail masses geometric from 1e-10 to ½ (neighbours 2.3 % of the tail apart).
_TAIL_POINTS = 1000


def _cell_masses(nodes: np.ndarray, a: float, b: float) -> np.ndarray:
    """Beta(a, b) mass of the cell around each node (edges halfway between nodes), summing to 1.

    Masses, not densities: exact for the rule and finite where the density is not (α < 1 at k = 0).
    """
    from scipy import special

    edges = np.r_[0.0, (nodes[1:] + nodes[:-1]) / 2.0, 1.0]
    w = np.diff(special.betainc(a, b, edges))
    return w / w.sum()


def _two_rates_exact(kind: str, o: np.ndarray, al: float, *, metric: str) -> MetricDistribution | None:
    """The true value of a function of the facets' rates q_a, q_d (independent Beta posteriors), by quadrature.

    ``difference`` q_a − q_d (DPL, DPPL), its absolute value (TVD, KS on a binary label; LP
    is √2 times it) and ``ratio`` q_d / q_a (DI). The cdf is computed on a grid of
    :data:`_CDF_POINTS` values spanning the distribution up to tails of 1e-10 (evenly, or
    geometrically for the ratio): P(q_a − q_d ≤ t) = ∫ f_d(y) F_a(t + y) dy and
    P(q_d / q_a ≤ t) = ∫ f_a(x) F_d(t·x) dx, each integral a sum over
    :data:`_QUADRATURE_POINTS` points of the integrating rate's support, weighted by the beta mass of
    the cell around each point.
    The atoms are the grid points with the cdf's increments: an interval end is exact up to
    one step of the grid (in the tails, about 1 % of the tail mass beyond the end; in the bulk about
    1/300 of the range), with no Monte Carlo error.
    """
    from scipy import special, stats

    eps = 1e-10
    ka, na, kd, nd = int(o[0, 1]), int(o[0].sum()), int(o[1, 1]), int(o[1].sum())
    ba, bd = stats.beta(ka + al, na - ka + al), stats.beta(kd + al, nd - kd + al)
    lo_a, hi_a, lo_d, hi_d = float(ba.ppf(eps)), float(ba.isf(eps)), float(bd.ppf(eps)), float(bd.isf(eps))
    # each beta cdf tabulated once on a fine grid and interpolated (linear: error below 1e-6, far below
    # the tail masses read), instead of an incomplete beta function per lattice point
    xs_a, xs_d = np.linspace(lo_a, hi_a, _CDF_TABLE), np.linspace(lo_d, hi_d, _CDF_TABLE)
    table_a = (xs_a, special.betainc(ka + al, na - ka + al, xs_a))
    table_d = (xs_d, special.betainc(kd + al, nd - kd + al, xs_d))
    if kind == "ratio":
        x = np.linspace(lo_a, hi_a, _QUADRATURE_POINTS)
        w = _cell_masses(x, ka + al, na - ka + al)

        def cdf_at(t: np.ndarray) -> np.ndarray:
            return np.interp(t[:, None] * x[None, :], *table_d, left=0.0, right=1.0) @ w

        coarse = np.geomspace(max(lo_d / hi_a, 1e-300), hi_d / max(lo_a, 1e-300), 200)
    else:
        y = np.linspace(lo_d, hi_d, _QUADRATURE_POINTS)
        w = _cell_masses(y, kd + al, nd - kd + al)

        def cdf_at(t: np.ndarray) -> np.ndarray:
            return np.interp(t[:, None] + y[None, :], *table_a, left=0.0, right=1.0) @ w

        coarse = np.linspace(lo_a - hi_d, hi_a - lo_d, 200)
    # a coarse pass finds where the mass is (tails of eps); the fine grid spans only that
    c = cdf_at(coarse)
    lo = coarse[max(int(np.searchsorted(c, eps)) - 1, 0)]
    hi = coarse[min(int(np.searchsorted(c, 1.0 - eps)), coarse.size - 1)]
    # fine points where the quantiles are: the coarse cdf inverted at levels geometric in both tails
    # (each about 2.3 % of its tail mass apart), and evenly spaced ones for the bulk
    tails = np.geomspace(eps, 0.5, _TAIL_POINTS)
    levels = np.r_[tails, 1.0 - tails[::-1]]
    keep = np.r_[True, np.diff(c) > 0]
    placed = np.interp(levels, c[keep], coarse[keep])
    grid = np.unique(np.r_[placed, np.linspace(lo, hi, _CDF_POINTS // 2)])
    cdf = cdf_at(grid)
    cdf = np.maximum.accumulate(np.clip(cdf, 0.0, 1.0))
    cdf[-1] = 1.0
    # each cell's mass at its midpoint (the first at the grid's lower end): a quantile is then
    # within half a cell of the exact one, on either side
    values = np.r_[grid[0], (grid[1:] + grid[:-1]) / 2.0]
    probabilities = np.diff(cdf, prepend=0.0)
    if kind in ("absolute difference", "lp"):
        # |D| ≤ t ⟺ −t ≤ D ≤ t: fold the grid of D onto its absolute values
        t = np.unique(np.abs(grid))
        cdf_abs = np.interp(t, grid, cdf) - np.interp(-t, grid, cdf, left=0.0, right=1.0)
        cdf_abs = np.maximum.accumulate(np.clip(cdf_abs, 0.0, 1.0))
        cdf_abs[-1] = 1.0
        values, probabilities = t * (math.sqrt(2.0) if kind == "lp" else 1.0), np.diff(cdf_abs, prepend=0.0)
    keep = probabilities > 0
    return MetricDistribution(
        values[keep],
        probabilities[keep] / probabilities[keep].sum(),
        np.ones(int(keep.sum()), dtype=np.int64),
        metric=metric,
        model="posterior",
        lattice_points=int(keep.sum()),
        strategy=f"exact (quadrature of the beta posteriors, {_CDF_POINTS} cdf points)",
        check_total=True,
        target="true_value",
    )
