"""The true-value quadrature of two Beta rates as it was before issue 20's second pass (commit 8b8600b).

Kept only as ``benchmarks/bench_audit.py --groups``'s in-run baseline: every row integrates with the
composite rule (28 panels × 5 Gauss–Legendre nodes), both sides' 4,001-point cdf tables are built for every
row, equal rows are computed again. The module below is that commit's ``confusionlab.bias._quadrature`` and
its ``beta_pair_distributions``, unchanged but for the imports.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special

from confusionlab.bias.uncertainty import MIN_BETA_PARAMETER, PROGRESS_DELAY
from confusionlab.distribution import MetricDistribution

#: Tail mass beyond which a rate's support is trimmed (each side).
TRIM = 1e-13
#: Composite Gauss–Legendre: panels over the trimmed support, and nodes per panel.
PANELS, GAUSS_NODES = 28, 5
#: Points of each cubic Hermite table of a Beta cdf.
TABLE_POINTS = 4001
#: Most float64 elements of one chunk's (rows × grid × nodes) arrays (about 24 MB each).
CHUNK_ELEMENTS = 3_000_000

_GL_X, _GL_W = np.polynomial.legendre.leggauss(GAUSS_NODES)


def _log_pdf(x: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return special.xlogy(a - 1.0, x) + special.xlog1py(b - 1.0, -x) - special.betaln(a, b)


def _nodes(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Nodes u (rows × Q) and weights (the Beta(a, b) mass each stands for, rows × Q).

    The support [F⁻¹(TRIM), F⁻¹(1 − TRIM)] is cut into :data:`PANELS` equal panels in the
    variable s: s = u when a, b ≥ 1; s = u^a when a < 1 (density ∝ u^(a−1) near 0, and
    u^(a−1) du = ds / a is smooth); s = (1 − u)^b when b < 1. The weights are the Gauss weights
    times the density times du/ds, renormalised to the mass kept (1 − 2·TRIM ≈ 1).
    """
    a, b = a[:, None], b[:, None]
    lo, hi = special.betaincinv(a, b, TRIM), special.betainccinv(a, b, TRIM)
    left, right = a < 1.0, (b < 1.0) & ~(a < 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        s_lo = np.where(left, lo**a, np.where(right, (1.0 - hi) ** b, lo))
        s_hi = np.where(left, hi**a, np.where(right, (1.0 - lo) ** b, hi))
    width = (s_hi - s_lo) / PANELS
    start = s_lo + width * np.arange(PANELS)[None, :]  # rows × panels
    s = (start[:, :, None] + width[:, :, None] * (_GL_X[None, None, :] + 1.0) / 2.0).reshape(a.shape[0], -1)
    gw = np.tile(_GL_W / 2.0, PANELS)[None, :] * width
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        u = np.where(left, s ** (1.0 / a), np.where(right, 1.0 - s ** (1.0 / b), s))
        # du/ds: (1/a) s^(1/a − 1) for s = u^a; (1/b) s^(1/b − 1) for s = (1 − u)^b
        jac = np.where(left, s ** (1.0 / a - 1.0) / a, np.where(right, s ** (1.0 / b - 1.0) / b, 1.0))
        w = gw * np.exp(_log_pdf(u, a, b)) * jac
    w = np.where(np.isfinite(w), w, 0.0)
    return u, w * ((1.0 - 2.0 * TRIM) / w.sum(axis=1, keepdims=True))


class _HermiteTable:
    """Cubic Hermite interpolation of Beta(a, b) cdfs (one per row) on a uniform grid; 0 below, 1 above.

    Each cell's cubic is stored as its four coefficients (Horner form in the cell's local
    coordinate), with a constant cell 0 before the table and 1 after it, so one gather and
    six arithmetic operations evaluate it. Where the density is singular (a < 1 at 0, or
    b < 1 at 1) the table is uniform in z = x^a (or z = (1 − x)^b), in which the cdf is smooth.
    """

    def __init__(self, a: np.ndarray, b: np.ndarray) -> None:
        self.mode = np.where(a < 1.0, 1, np.where(b < 1.0, 2, 0))
        a, b = a[:, None], b[:, None]
        self.a, self.b = a, b
        x_lo, x_hi = special.betaincinv(a, b, TRIM), special.betainccinv(a, b, TRIM)
        mode = self.mode[:, None]
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            z_lo = np.where(mode == 1, x_lo**a, np.where(mode == 2, (1.0 - x_hi) ** b, x_lo))
            z_hi = np.where(mode == 1, x_hi**a, np.where(mode == 2, (1.0 - x_lo) ** b, x_hi))
            step = (z_hi - z_lo) / (TABLE_POINTS - 1)
            z = z_lo + step * np.arange(TABLE_POINTS)[None, :]
            x = np.where(mode == 1, z ** (1.0 / a), np.where(mode == 2, 1.0 - z ** (1.0 / b), z))
            x = np.clip(x, 0.0, 1.0)
            # dF/dz = f(x)·dx/dz: dx/dz = (1/a) z^(1/a − 1), or −(1/b) z^(1/b − 1)
            jac = np.where(mode == 1, z ** (1.0 / a - 1.0) / a, np.where(mode == 2, -(z ** (1.0 / b - 1.0)) / b, 1.0))
            F = special.betainc(a, b, x)
            dF = np.exp(_log_pdf(x, a, b)) * jac * step
        dF = np.where(np.isfinite(dF), dF, 0.0)
        f0, f1, d0, d1 = F[:, :-1], F[:, 1:], dF[:, :-1], dF[:, 1:]
        cells = np.stack([f0, d0, 3.0 * (f1 - f0) - 2.0 * d0 - d1, 2.0 * (f0 - f1) + d0 + d1], axis=-1)
        rows = a.shape[0]
        # cell 0: before the table (the cdf is 0 in z = x; 1 in z = (1 − x)^b, which decreases in x)
        below = np.zeros((rows, 1, 4))
        above = np.zeros((rows, 1, 4))
        flip = (self.mode == 2)[:, None]
        below[:, 0, 0] = np.where(flip[:, 0], 1.0, 0.0)
        above[:, 0, 0] = np.where(flip[:, 0], 0.0, 1.0)
        self.coef = np.concatenate([below, cells, above], axis=1).reshape(-1, 4)  # rows·(K + 1) cells
        self.inv = 1.0 / step[:, 0]
        self.origin = z_lo[:, 0] * self.inv  # position = z·inv − origin

    def positions(self, rows: np.ndarray, x: np.ndarray) -> np.ndarray:
        """Table positions of ``x`` (shape (R, ...)) for ``rows`` (the z-transform where singular)."""
        shape = (rows.size,) + (1,) * (x.ndim - 1)
        z = x
        mode = self.mode[rows]
        if mode.any():
            m = mode.reshape(shape)
            a, b = self.a[rows].reshape(shape), self.b[rows].reshape(shape)
            with np.errstate(divide="ignore", invalid="ignore"):
                xc = np.clip(x, 0.0, 1.0)
                z = np.where(m == 1, xc**a, np.where(m == 2, (1.0 - xc) ** b, x))
                # beyond [0, 1]: before the table (z increasing in x) or after it (z = (1 − x)^b)
                before, after = np.where(m == 2, np.inf, -np.inf), np.where(m == 2, -np.inf, np.inf)
                z = np.where(x < 0.0, before, np.where(x > 1.0, after, z))
        return z * self.inv[rows].reshape(shape) - self.origin[rows].reshape(shape)

    def at_positions(self, rows: np.ndarray, pos: np.ndarray) -> np.ndarray:
        """The cdfs at table positions ``pos`` (shape (R, ...))."""
        shape = (rows.size,) + (1,) * (pos.ndim - 1)
        j = np.floor(np.clip(pos, -1.0, TABLE_POINTS - 1.0))
        s = np.clip(pos - j, 0.0, 1.0)  # the constant cells before and after the table ignore it
        cell = (j + 1.0).astype(np.intp)
        cell += (rows * (TABLE_POINTS + 1)).reshape(shape)
        c = self.coef[cell]
        return c[..., 0] + s * (c[..., 1] + s * (c[..., 2] + s * c[..., 3]))

    def __call__(self, rows: np.ndarray, x: np.ndarray) -> np.ndarray:
        return self.at_positions(rows, self.positions(rows, x))


def _over_x(x: tuple[np.ndarray, np.ndarray], y: tuple[np.ndarray, np.ndarray], kind: str) -> np.ndarray:
    """Which rows integrate over the x rate (its posterior the narrower; for the ratio, relatively)."""

    def sd(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.sqrt(a * b / ((a + b) ** 2 * (a + b + 1.0)))

    sx, sy = sd(*x), sd(*y)
    if kind == "ratio":
        sx, sy = sx / (x[0] / (x[0] + x[1])), sy / (y[0] / (y[0] + y[1]))
    return sx <= sy


class TwoBetaCdf:
    """The cdf of ``q_x − q_y`` (``kind="difference"``) or ``q_y / q_x`` (``"ratio"``) for many rows.

    Parameters are arrays of shape (R,): q_x ~ Beta(ax, bx), q_y ~ Beta(ay, by). Call
    :meth:`at` with the rows and the points (shape (R, M)) where the cdfs are wanted.
    """

    def __init__(self, kind: str, ax: np.ndarray, bx: np.ndarray, ay: np.ndarray, by: np.ndarray) -> None:
        self.kind = kind
        self.ax, self.bx, self.ay, self.by = (np.asarray(v, dtype=np.float64) for v in (ax, bx, ay, by))
        self.over_x = _over_x((self.ax, self.bx), (self.ay, self.by), kind)
        # each side integrates over one rate and reads the other's cdf from its table
        self.sides = {
            True: (*_nodes(self.ax, self.bx), _HermiteTable(self.ay, self.by)),
            False: (*_nodes(self.ay, self.by), _HermiteTable(self.ax, self.bx)),
        }

        def sd(a: np.ndarray, b: np.ndarray) -> np.ndarray:
            return np.sqrt(a * b / ((a + b) ** 2 * (a + b + 1.0)))

        # the ratio's integrand F_y(t·u) varies over u on the scale σ_y / t and 1 − F_x(v / t) over v on
        # the scale t·σ_x: integrate over x where t ≤ σ_y / σ_x (the integrand wider than the nodes' rate)
        self.ratio_switch = sd(self.ay, self.by) / sd(self.ax, self.bx)

    def at(self, rows: np.ndarray, t: np.ndarray) -> np.ndarray:
        """cdf of the rows ``rows`` at ``t`` (shape (len(rows), M)), chunked over rows."""
        rows = np.asarray(rows, dtype=np.intp)
        out = np.empty(t.shape, dtype=np.float64)
        per_row = t.shape[1] * self.sides[True][0].shape[1]
        chunk = max(1, CHUNK_ELEMENTS // max(per_row, 1))
        for start in range(0, rows.size, chunk):
            r = rows[start : start + chunk]
            out[start : start + chunk] = self._at(r, t[start : start + chunk])
        return out

    def _at(self, r: np.ndarray, t: np.ndarray) -> np.ndarray:
        if self.kind == "ratio":
            return np.where(t <= self.ratio_switch[r][:, None], self._part(r, t, True), self._part(r, t, False))
        out = np.empty(t.shape, dtype=np.float64)
        for ox in (True, False):
            pick = np.flatnonzero(self.over_x[r] == ox)
            if pick.size:
                out[pick] = self._part(r[pick], t[pick], ox)
        return out

    def _part(self, r: np.ndarray, t: np.ndarray, ox: bool) -> np.ndarray:
        """Rows that all integrate over the same rate (``ox``: over x)."""
        u, w, table = self.sides[ox]
        u, w = u[r][:, None, :], w[r][:, None, :]
        tt = t[:, :, None]
        plain = not table.mode[r].any()
        if self.kind == "difference":
            # over x: 1 − F_y(u − t); over y: F_x(t + u); without a z-transform the table position
            # is an affine function of u minus (or plus) one of t
            if plain:
                inv, origin = table.inv[r][:, None, None], table.origin[r][:, None, None]
                pos = (u * inv - origin) - tt * inv if ox else (u * inv - origin) + tt * inv
            else:
                pos = table.positions(r, u - tt if ox else tt + u)
            val = table.at_positions(r, pos)
            if ox:
                val = 1.0 - val
        else:
            # over x: F_y(t·u); over y: 1 − F_x(u / t) (t > 0; the ratio is ≥ 0)
            with np.errstate(divide="ignore", invalid="ignore"):
                arg = tt * u if ox else np.where(tt > 0, u / np.where(tt > 0, tt, 1.0), np.inf)
            val = table(r, arg)
            if not ox:
                val = 1.0 - val
        return (val * w).sum(axis=-1)


def cdf_on(cdf: TwoBetaCdf, rows: np.ndarray, points: np.ndarray) -> np.ndarray:
    """``cdf.at(rows, points)`` clipped to [0, 1] (the rule's rounding can leave it a hair outside)."""
    return np.clip(cdf.at(rows, points), 0.0, 1.0)


#: Points of the grid on which the true-value cdf of a function of two rates is computed
#: (see :func:`beta_pair_distributions`).
_CDF_POINTS = 801
#: Grid points per tail, at tail masses geometric from 1e-10 to ½ (neighbours 4.6 % of the tail apart).
_TAIL_POINTS = 500
#: Points of the coarse pass that finds where a row's mass is.
_COARSE_POINTS = 200
#: Rows whose grids are placed together (the cdf itself is computed in bounded chunks, see
#: :mod:`._quadrature`).
_ROW_BLOCK = 64


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
    :class:`._quadrature.TwoBetaCdf` (within about 1e-10 of the exact integral where both
    densities vanish at 0 and 1, i.e. every Beta parameter > 1; within 1e-3 where a count is 0,
    whose density is nonzero or infinite at an end; tested against ``scipy.integrate.quad``) on a
    grid of about 1,400 values per row spanning the distribution up to tails of 1e-10 (evenly,
    or geometrically for the ratio; 2 × :data:`_TAIL_POINTS` of them placed at tail masses
    geometric from 1e-10 to ½). The atoms are the grid's cells with the cdf's increments: an
    interval end is exact up to one cell (in the tails about 4.6 % of the tail mass; in the bulk
    about 1/400 of the range), with no Monte Carlo error. All rows share every numpy
    operation (a row's numbers do not depend on the other rows); ``progress`` shows a bar over
    the rows. A Beta parameter below :data:`MIN_BETA_PARAMETER` (a prior of a few pseudo-counts
    of 1e-216 on an empty cell) is computed as that minimum: such a rate is a point mass at 0
    or 1 either way, and its cdf moves by less than 1e-6 (Beta(a, b) puts mass 1 − O(a·23) below
    1e-10 for a ≤ 1e-8).
    """
    from scipy import stats
    from tqdm.auto import tqdm

    params = np.maximum(np.asarray(params, dtype=np.float64).reshape(-1, 4), MIN_BETA_PARAMETER)
    n_rows = params.shape[0]
    base = "ratio" if kind == "ratio" else "difference"
    eps = 1e-10
    out: list[MetricDistribution] = []
    show = bool(progress)
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
                out.append(_grid_distribution(kind, grid, fine[i, : grid.size], metrics[start + i]))
            bar.update(p.shape[0])
    return out


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
