"""The true value of a function of two independent Beta rates, by quadrature, for many rows at once.

An audit judges thousands of (group, metric) rows whose true values are functions of two
facets' rates, q_x ~ Beta(a_x, b_x) and q_y ~ Beta(a_y, b_y) independently: DPL, DPPL, RD, SD, AD,
DAR, DRR are ``q_x − q_y``, TVD and KS its absolute value, LP √2 times that, DI ``q_y / q_x``.
Their cdf is one integral over the rate whose posterior is narrower (the integrand is then
smooth on the scale of the nodes):

* difference, integrating over x: P(q_x − q_y ≤ t) = ∫ f_x(u) (1 − F_y(u − t)) du, or over y:
  ∫ f_y(v) F_x(t + v) dv;
* ratio, over x: P(q_y / q_x ≤ t) = ∫ f_x(u) F_y(t·u) du, or over y: ∫ f_y(v) (1 − F_x(v / t)) dv.

The integral is composite Gauss–Legendre (:data:`PANELS` panels of :data:`GAUSS_NODES` nodes)
over the integrating rate's support trimmed at tails of :data:`TRIM` (after the substitution
s = u^a, or s = (1 − u)^b, which removes the density's singularity when a < 1 or b < 1), and the
other rate's cdf is read from a cubic Hermite table of its exact cdf and density at
:data:`TABLE_POINTS` points (``scipy.special.betainc`` and the Beta density): the cdf is within
about 1e-10 of the exact integral (tested against ``scipy.integrate.quad``). Every step is a numpy
operation over (rows × grid × nodes) arrays, in chunks of at most :data:`CHUNK_ELEMENTS` elements,
and a row's numbers do not depend on which other rows share its chunk.
"""

from __future__ import annotations

import numpy as np
from scipy import special

__all__ = ["GAUSS_NODES", "PANELS", "TABLE_POINTS", "TRIM", "TwoBetaCdf", "cdf_on"]

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
