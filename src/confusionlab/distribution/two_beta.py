"""True-value distributions of a function of two independent Beta rates, for many rows at once.

Two rates q_x ~ Beta(a_x, b_x) and q_y ~ Beta(a_y, b_y) (two groups' true positive rates, say)
and their difference, its absolute value, √2 times it, or their ratio: the cdf is computed by
quadrature (:mod:`~confusionlab.distribution.quadrature`) on a grid placed at the distribution's
quantiles, and its increments are the atoms of a :class:`~confusionlab.distribution.MetricDistribution`
(no Monte Carlo error).
"""

from __future__ import annotations

import math

import numpy as np

from .._validation import check_progress
from .pmf import MetricDistribution
from .posterior import PROGRESS_DELAY

__all__ = ["MIN_BETA_PARAMETER", "beta_pair_distributions"]

#: Points of the grid on which the true-value cdf of a function of two rates is computed
#: (see :func:`beta_pair_distributions`).
_CDF_POINTS = 801
#: Grid points per tail, at tail masses geometric from 1e-10 to ½ (neighbours 4.6 % of the tail apart).
_TAIL_POINTS = 500
#: Points of the coarse pass that finds where a row's mass is.
_COARSE_POINTS = 200
#: Rows whose grids are placed together (the cdf itself is computed in bounded chunks, see
#: :mod:`~confusionlab.distribution.quadrature`).
_ROW_BLOCK = 64

#: Smallest Beta parameter the quadrature of :func:`beta_pair_distributions` computes with.
MIN_BETA_PARAMETER = 1e-8


def beta_pair_distributions(
    kind: str,
    params: np.ndarray,
    metrics: list[str],
    *,
    progress: bool | None = False,
) -> list[MetricDistribution]:
    """True-value distributions of a function of two independent Beta rates, for many rows at once.

    ``params`` is (R, 4): q_x ~ Beta(a_x, b_x), q_y ~ Beta(a_y, b_y) per row; ``kind`` is
    ``"difference"`` (q_x − q_y: DPL, DPPL, RD, SD, AD, DAR, DRR), ``"absolute difference"``
    (TVD, KS), ``"lp"`` (√2 |q_x − q_y|) or ``"ratio"`` (q_y / q_x: DI). The cdf is computed by
    :class:`~confusionlab.distribution.quadrature.TwoBetaCdf` (within about 1e-10 of the exact integral where both
    densities vanish at 0 and 1, i.e. every Beta parameter > 1; within 1e-3 where a count is 0,
    whose density is nonzero or infinite at an end; tested against ``scipy.integrate.quad``) on a
    grid of about 1,400 values per row spanning the distribution up to tails of 1e-10 (evenly,
    or geometrically for the ratio; 2 × :data:`_TAIL_POINTS` of them placed at tail masses
    geometric from 1e-10 to ½). The atoms are the grid's cells with the cdf's increments: an
    interval end is exact up to one cell (in the tails about 4.6 % of the tail mass; in the bulk
    about 1/400 of the range), with no Monte Carlo error. Rows with equal parameters are computed
    once. All rows share every numpy
    operation (a row's numbers do not depend on the other rows); ``progress`` shows a bar over
    the rows. A Beta parameter below :data:`MIN_BETA_PARAMETER` (a prior of a few pseudo-counts
    of 1e-216 on an empty cell) is computed as that minimum: such a rate is a point mass at 0
    or 1 either way, and its cdf moves by less than 1e-6 (Beta(a, b) puts mass 1 − O(a·23) below
    1e-10 for a ≤ 1e-8).
    """
    from scipy import stats
    from tqdm.auto import tqdm

    from .quadrature import TwoBetaCdf, cdf_on

    params = np.maximum(np.asarray(params, dtype=np.float64).reshape(-1, 4), MIN_BETA_PARAMETER)
    # rows with the same parameters (groups of equal counts) are computed once
    params, where = np.unique(params, axis=0, return_inverse=True)
    where = where.reshape(-1)
    n_rows = params.shape[0]
    base = "ratio" if kind == "ratio" else "difference"
    eps = 1e-10
    out: list[tuple[np.ndarray, np.ndarray]] = []
    show = check_progress(progress)
    with tqdm(total=n_rows, desc="true values", delay=PROGRESS_DELAY, disable=not show, leave=False) as bar:
        for start in range(0, n_rows, _ROW_BLOCK):
            p = params[start : start + _ROW_BLOCK]
            rows = np.arange(p.shape[0])
            ax, bx, ay, by = p.T
            cdf = TwoBetaCdf(base, ax, bx, ay, by)
            lo_x, hi_x = stats.beta.ppf(eps, ax, bx), stats.beta.isf(eps, ax, bx)
            lo_y, hi_y = stats.beta.ppf(eps, ay, by), stats.beta.isf(eps, ay, by)
            if base == "ratio":
                coarse = np.geomspace(
                    np.maximum(lo_y / hi_x, 1e-300), hi_y / np.maximum(lo_x, 1e-300), _COARSE_POINTS, axis=-1
                )
            else:
                coarse = np.linspace(lo_x - hi_y, hi_x - lo_y, _COARSE_POINTS, axis=-1)
            c = cdf_on(cdf, rows, coarse)
            tails = np.geomspace(eps, 0.5, _TAIL_POINTS)
            levels = np.r_[tails, 1.0 - tails[::-1]]
            grids = []
            for i in range(p.shape[0]):
                ci, co = c[i], coarse[i]
                lo = co[max(int(np.searchsorted(ci, eps)) - 1, 0)]
                hi = co[min(int(np.searchsorted(ci, 1.0 - eps)), co.size - 1)]
                keep = np.r_[True, np.diff(ci) > 0]
                placed = np.interp(levels, ci[keep], co[keep])
                grids.append(np.unique(np.r_[placed, np.linspace(lo, hi, _CDF_POINTS // 2)]))
            width = max(g.size for g in grids)
            padded = np.stack([np.pad(g, (0, width - g.size), mode="edge") for g in grids])
            fine = cdf_on(cdf, rows, padded)
            for i, grid in enumerate(grids):
                out.append((grid, fine[i, : grid.size]))
            bar.update(p.shape[0])
    return [_grid_distribution(kind, *out[j], metrics[i]) for i, j in enumerate(where.tolist())]


def _grid_distribution(kind: str, grid: np.ndarray, cdf: np.ndarray, metric: str) -> MetricDistribution:
    """Atoms from a cdf on a grid: each cell's mass at its midpoint (the first at the grid's lower end)."""
    cdf = np.maximum.accumulate(np.clip(cdf, 0.0, 1.0))
    cdf[-1] = 1.0
    values = np.r_[grid[0], (grid[1:] + grid[:-1]) / 2.0]
    probabilities = np.diff(cdf, prepend=0.0)
    if kind in ("absolute difference", "lp"):
        # |D| ≤ t ⟺ −t ≤ D ≤ t: fold the grid of D onto its absolute values
        t = np.unique(np.abs(grid))
        cdf_abs = np.interp(t, grid, cdf) - np.interp(-t, grid, cdf, left=0.0, right=1.0)
        cdf_abs = np.maximum.accumulate(np.clip(cdf_abs, 0.0, 1.0))
        cdf_abs[-1] = 1.0
        values, probabilities = t * (math.sqrt(2.0) if kind == "lp" else 1.0), np.diff(cdf_abs, prepend=0.0)
    # neighbouring grid points of a posterior concentrated to a few ulps share a midpoint: one atom
    values, where = np.unique(values, return_inverse=True)
    probabilities = np.bincount(where, weights=probabilities, minlength=values.size)
    keep = probabilities > 0
    return MetricDistribution(
        values[keep],
        probabilities[keep] / probabilities[keep].sum(),
        np.ones(int(keep.sum()), dtype=np.int64),
        metric=metric,
        model="posterior",
        lattice_points=int(keep.sum()),
        strategy=f"exact (quadrature of the beta posteriors, {grid.size} cdf points)",
        check_total=True,
        target="true_value",
    )
