"""The true value of a function of two independent Beta rates, by quadrature, for many rows at once.

Thousands of rows (a bias audit's groups × metrics) have true values that are functions of two
rates, q_x ~ Beta(a_x, b_x) and q_y ~ Beta(a_y, b_y) independently: the difference ``q_x − q_y``
(DPL, DPPL, RD, SD, AD, DAR, DRR), its absolute value (TVD, KS), √2 times that (LP), or the ratio
``q_y / q_x`` (DI).
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
about 1e-10 of the exact integral (tested against ``scipy.integrate.quad``).

A difference whose other rate is several times wider than the integrating one (an audit's group
against the rest of a large table: about 30 times) reads a cdf that is smooth on the integrating
rate's scale: its rows integrate instead with the Gauss–Jacobi rule of the integrating rate's own Beta
density (:func:`_gauss_jacobi`; 20 to 70 nodes, :data:`PANEL_CLASSES`), exact for polynomials of
twice that degree, unless the other rate holds mass near 0 or 1 (:data:`KINK_MASS`), where its cdf is
not smooth. Same accuracy (tested), a seventh of the nodes. Every step is a numpy
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
#: Panels a difference may use where the other rate's σ is several times the integrating rate's.
PANEL_CLASSES = (4, 7, 14, 28)
#: A difference uses the few-node rule only where the other rate has at most KINK_MASS of its mass within
#: KINK_REACH integrating σ of 0 or 1 (where its cdf is not smooth).
KINK_REACH, KINK_MASS = 10.0, 1e-14
#: Points of each cubic Hermite table of a Beta cdf.
TABLE_POINTS = 2001
#: Most float64 elements of one chunk's (rows × grid × nodes) arrays (2 MB each: they stay in the cache,
#: which made the quadrature about a third faster than chunks of 24 MB).
CHUNK_ELEMENTS = 250_000

_GL_X, _GL_W = np.polynomial.legendre.leggauss(GAUSS_NODES)


def _log_pdf(x: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return special.xlogy(a - 1.0, x) + special.xlog1py(b - 1.0, -x) - special.betaln(a, b)


def _nodes(a: np.ndarray, b: np.ndarray, panels: int = PANELS) -> tuple[np.ndarray, np.ndarray]:
    """Nodes u (rows × Q) and weights (the Beta(a, b) mass each stands for, rows × Q).

    The support [F⁻¹(TRIM), F⁻¹(1 − TRIM)] is cut into ``panels`` equal panels in the
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
    width = (s_hi - s_lo) / panels
    start = s_lo + width * np.arange(panels)[None, :]  # rows × panels
    s = (start[:, :, None] + width[:, :, None] * (_GL_X[None, None, :] + 1.0) / 2.0).reshape(a.shape[0], -1)
    gw = np.tile(_GL_W / 2.0, panels)[None, :] * width
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        u = np.where(left, s ** (1.0 / a), np.where(right, 1.0 - s ** (1.0 / b), s))
        # du/ds: (1/a) s^(1/a − 1) for s = u^a; (1/b) s^(1/b − 1) for s = (1 − u)^b
        jac = np.where(left, s ** (1.0 / a - 1.0) / a, np.where(right, s ** (1.0 / b - 1.0) / b, 1.0))
        w = gw * np.exp(_log_pdf(u, a, b)) * jac
    w = np.where(np.isfinite(w), w, 0.0)
    return u, w * ((1.0 - 2.0 * TRIM) / w.sum(axis=1, keepdims=True))


def _gauss_jacobi(a: np.ndarray, b: np.ndarray, panels: int) -> tuple[np.ndarray, np.ndarray]:
    """Gauss nodes of the Beta(a, b) density itself (Gauss–Jacobi, ``panels`` × GAUSS_NODES of them), rows × Q.

    The rule integrates every polynomial of degree below twice the number of nodes exactly against the
    Beta density (Golub–Welsch: the eigenvalues of the Jacobi matrix of the Beta weight on [0, 1] and the
    squared first components of its eigenvectors), so it needs far fewer nodes than the composite rule
    where the other rate's cdf is smooth on the integrating rate's scale.
    """
    n = panels * GAUSS_NODES
    al, be = b[:, None] - 1.0, a[:, None] - 1.0  # Jacobi weight (1 − x)^al (1 + x)^be on [−1, 1], u = (1 + x)/2
    k = np.arange(n, dtype=np.float64)[None, :]
    s = 2.0 * k + al + be
    with np.errstate(divide="ignore", invalid="ignore"):
        diag = np.where(k == 0, (be - al) / (al + be + 2.0), (be**2 - al**2) / (s * (s + 2.0)))
    k1 = k[:, 1:]
    s1 = s[:, 1:]
    off2 = np.where(
        k1 == 1,
        4.0 * (1.0 + al) * (1.0 + be) / ((2.0 + al + be) ** 2 * (3.0 + al + be)),
        4.0 * k1 * (k1 + al) * (k1 + be) * (k1 + al + be) / (s1**2 * (s1 + 1.0) * (s1 - 1.0)),
    )
    jac = np.zeros((a.size, n, n))
    i = np.arange(n)
    jac[:, i, i] = (1.0 + diag) / 2.0
    jac[:, i[:-1], i[1:]] = jac[:, i[1:], i[:-1]] = np.sqrt(off2) / 2.0
    u, vec = np.linalg.eigh(jac)
    w = vec[:, 0, :] ** 2
    return np.clip(u, 0.0, 1.0), w * ((1.0 - 2.0 * TRIM) / w.sum(axis=1, keepdims=True))


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
        coef = np.concatenate([below, cells, above], axis=1).reshape(-1, 4)  # rows·(K + 1) cells
        self.columns = [np.ascontiguousarray(coef[:, k]) for k in range(4)]  # one gather each, contiguous
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
        s = np.clip(pos, -1.0, TABLE_POINTS - 1.0)
        j = np.floor(s)
        cell = j.astype(np.intp)
        cell += (rows * (TABLE_POINTS + 1) + 1).reshape(shape)
        s -= j  # in [0, 1); the constant cells before and after the table ignore it
        out = np.take(self.columns[3], cell)
        for k in (2, 1, 0):
            out *= s
            out += np.take(self.columns[k], cell)
        return out

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

        def sd(a: np.ndarray, b: np.ndarray) -> np.ndarray:
            return np.sqrt(a * b / ((a + b) ** 2 * (a + b + 1.0)))

        # the ratio's integrand F_y(t·u) varies over u on the scale σ_y / t and 1 − F_x(v / t) over v on
        # the scale t·σ_x: integrate over x where t ≤ σ_y / σ_x (the integrand wider than the nodes' rate)
        self.ratio_switch = sd(self.ay, self.by) / sd(self.ax, self.bx)
        # each side integrates over one rate and reads the other's cdf from its table, built only for
        # the rows that use it (a difference's row uses one side; a ratio's rows may use both). A
        # difference's integrand varies on the scale of the other rate's σ, r times the integrating
        # rate's: its panels are PANELS / r (at least MIN_PANELS; PANELS where a density is singular)
        self.panels = np.full(self.ax.size, PANELS, dtype=np.intp)
        if kind == "difference":
            sx, sy = sd(self.ax, self.bx), sd(self.ay, self.by)
            r = np.where(self.over_x, sy / sx, sx / sy)
            smooth = np.minimum.reduce([self.ax, self.bx, self.ay, self.by]) > 1.0
            # the other rate's cdf has a kink at 0 and 1 (its density ∝ v^(a−1) there); where it holds mass
            # within a few integrating σ of an end the integrand is not smooth there: the composite rule
            with np.errstate(invalid="ignore", over="ignore"):
                reach = KINK_REACH * np.where(self.over_x, sx, sy)
                pa, pb = np.where(self.over_x, self.ay, self.ax), np.where(self.over_x, self.by, self.bx)
                near_end = special.betainc(pa, pb, np.minimum(reach, 1.0)) + special.betaincc(
                    pa, pb, np.maximum(1.0 - reach, 0.0)
                )
            smooth &= near_end <= KINK_MASS
            for panels in sorted(PANEL_CLASSES, reverse=True):
                self.panels[smooth & (PANELS / r <= panels)] = panels
        self.sides: dict[tuple[bool, int], tuple[np.ndarray, np.ndarray, np.ndarray, _HermiteTable]] = {}
        for ox in (True, False):
            for panels in PANEL_CLASSES:
                if kind == "ratio":
                    used = np.arange(self.ax.size) if panels == PANELS else np.zeros(0, dtype=np.intp)
                else:
                    used = np.flatnonzero((self.over_x == ox) & (self.panels == panels))
                if used.size == 0:
                    continue
                local = np.full(self.ax.size, -1, dtype=np.intp)
                local[used] = np.arange(used.size)
                rule = _nodes if panels == PANELS else _gauss_jacobi
                if ox:
                    u, w = rule(self.ax[used], self.bx[used], panels)
                    table = _HermiteTable(self.ay[used], self.by[used])
                else:
                    u, w = rule(self.ay[used], self.by[used], panels)
                    table = _HermiteTable(self.ax[used], self.bx[used])
                self.sides[ox, panels] = (local, u, w, table)

    def at(self, rows: np.ndarray, t: np.ndarray) -> np.ndarray:
        """cdf of the rows ``rows`` at ``t`` (shape (len(rows), M)), chunked over rows."""
        rows = np.asarray(rows, dtype=np.intp)
        out = np.empty(t.shape, dtype=np.float64)
        per_row = t.shape[1] * max(side[1].shape[1] for side in self.sides.values())
        chunk = max(1, CHUNK_ELEMENTS // max(per_row, 1))
        for start in range(0, rows.size, chunk):
            r = rows[start : start + chunk]
            out[start : start + chunk] = self._at(r, t[start : start + chunk])
        return out

    def _at(self, r: np.ndarray, t: np.ndarray) -> np.ndarray:
        if self.kind == "ratio":
            # each row's points up to its switch integrate over x, the others over y; a side is computed
            # only for the rows that have points on it (most rows have all their points on one side)
            low = t <= self.ratio_switch[r][:, None]
            out = np.empty(t.shape, dtype=np.float64)
            for ox, rows_of in ((True, low.any(axis=1)), (False, ~low.all(axis=1))):
                pick = np.flatnonzero(rows_of)
                if pick.size:
                    part = self._part(r[pick], t[pick], (ox, PANELS))
                    mask = low[pick] if ox else ~low[pick]
                    out[pick] = np.where(mask, part, out[pick])
            return out
        out = np.empty(t.shape, dtype=np.float64)
        for ox, panels in self.sides:
            pick = np.flatnonzero((self.over_x[r] == ox) & (self.panels[r] == panels))
            if pick.size:
                out[pick] = self._part(r[pick], t[pick], (ox, panels))
        return out

    def _part(self, r: np.ndarray, t: np.ndarray, side: tuple[bool, int]) -> np.ndarray:
        """Rows that all integrate over the same rate (``side``: over x?, panels) with the same panels."""
        ox = side[0]
        local, u, w, table = self.sides[side]
        r = local[r]
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
            val *= w
            total = val.sum(axis=-1)
            # over x, Σ w (1 − F_y) = Σ w − Σ w F_y
            return w.sum(axis=-1) - total if ox else total
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
