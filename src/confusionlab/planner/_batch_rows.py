"""The contour readers and band sorting of :func:`~._half_width.contour_half_widths`, for many windows at once."""

from __future__ import annotations

import numpy as np

from ..metrics import Metric
from ._contour_rows import fbeta_root, mcc_root


def _ratios(metric: Metric, p: int, n: int, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The exact ratio at ``(TP, TN) = (x, y)`` (integer-valued arrays, broadcast), element by
    element the arithmetic of :meth:`MccRows.f` and :meth:`FbetaRows.f`."""
    if metric.name == "mcc":
        pf, nf = float(p), float(n)
        x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
        r = nf * x + (pf * y - pf * nf)
        s = y - x
        return (r * np.abs(r)) / (pf * nf * ((nf - s) * (pf + s)))
    x, y = np.asarray(x, dtype=np.int64), np.asarray(y, dtype=np.int64)
    form = metric.exact(x, p - x, n - y, y, as_float=True)
    return np.true_divide(form.num, form.den)


class _BatchRows:
    """:class:`MccRows` or :class:`FbetaRows` for many windows of one slice (p, n) at once.

    Window ``k`` has rows ``tp_lo[k] + i`` (``i < rows[k]``) and columns ``tn_lo[k] + j``
    (``j < cols[k]``); every method takes the windows' indices ``k`` broadcast against the
    rows ``i`` and columns ``j`` and gives, element by element, what the one-window reader
    gives (the same doubles). The ratios are read from ``grid = (tp0, tn0, F)``, the ratios
    of a window holding every window (``F[i, j]`` at ``(tp0 + i, tn0 + j)``), when given.
    """

    def __init__(self, metric: Metric, tp_lo: np.ndarray, rows: np.ndarray, tn_lo: np.ndarray, cols: np.ndarray,
                 p: int, n: int, grid: tuple | None) -> None:  # fmt: skip
        self.metric, self.p, self.n, self.grid = metric, p, n, grid
        self.tp_lo, self.rows = tp_lo.astype(np.int64), rows.astype(np.int64)
        self.tn_lo, self.cols = tn_lo.astype(np.int64), cols.astype(np.int64)
        self.mcc = metric.name == "mcc"
        if not self.mcc:
            unit = [metric.exact(*(np.array([int(c == j)]) for c in range(4))) for j in range(3)]
            self.A, self.r, self.s = float(unit[0].num[0]), float(unit[1].den[0]), float(unit[2].den[0])

    def defined(self) -> np.ndarray:
        """Per window, :meth:`Rows.defined`."""
        if not self.mcc:
            return np.ones(self.tp_lo.size, dtype=bool)
        s_lo = self.tn_lo - (self.tp_lo + self.rows - 1)
        s_hi = self.tn_lo + self.cols - 1 - self.tp_lo
        return (self.n - s_hi > 0) & (self.p + s_lo > 0)

    def to_ratio(self, v: np.ndarray) -> np.ndarray:
        return np.copysign(v * v, v) if self.mcc else v

    def f(self, k: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """The ratio at rows ``i``, columns ``j`` of windows ``k`` (a row past a window's last,
        padding, reads some ratio of the grid: callers mask it)."""
        if self.grid is None:
            return _ratios(self.metric, self.p, self.n, self.tp_lo[k] + i, self.tn_lo[k] + np.asarray(j))
        tp0, tn0, F = self.grid
        row = np.minimum(self.tp_lo[k] + i - tp0, F.shape[0] - 1)
        return F.ravel()[row * F.shape[1] + (self.tn_lo[k] - tn0 + j)]

    def root(self, k: np.ndarray, i: np.ndarray, t: np.ndarray) -> np.ndarray:
        """:meth:`MccRows.root` / :meth:`FbetaRows.root`, element by element."""
        x = (self.tp_lo[k] + i).astype(np.float64)
        if self.mcc:
            return mcc_root(float(self.p), float(self.n), x, t)
        return fbeta_root(self.A, self.r, self.s, self.p, self.n, x, t)

    def count(self, ks: np.ndarray, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`Rows.count` of windows ``ks`` at thresholds ``t`` (shape ``(len(ks), T)``): the
        counts, shape ``(len(ks), T, max rows)`` (0 on the rows a window does not have), and
        per window whether they were confirmed (where not, the one-window reader returns None)."""
        k = ks[:, None, None]
        i = np.arange(int(self.rows[ks].max()))[None, None, :]
        t = np.asarray(t, dtype=np.float64)[:, :, None]
        valid = i < self.rows[k]
        cols = self.cols[k]
        with np.errstate(invalid="ignore", divide="ignore"):
            y = self.root(k, i, t)
            finite = np.isfinite(y)
            whole = np.where(finite, False, self.f(k, i, cols - 1) <= t)
        guess = np.where(finite, np.floor(np.where(finite, y, 0.0)) - self.tn_lo[k] + 1, np.where(whole, cols, 0))
        c = np.where(valid, np.clip(guess, 0, cols), 0).astype(np.intp)
        confirmed = np.zeros(ks.size, dtype=bool)
        with np.errstate(invalid="ignore", divide="ignore"):
            for _ in range(3):  # as Rows.count: confirm, step where needed
                below_ok = (c == 0) | (self.f(k, i, np.maximum(c - 1, 0)) <= t) | ~valid
                above_ok = (c == cols) | (self.f(k, i, np.minimum(c, cols - 1)) > t) | ~valid
                confirmed |= (below_ok & above_ok).all(axis=(1, 2))
                if confirmed.all():
                    break
                c = c - ~below_ok + ~above_ok
        return c, confirmed


def _distinct(marginals: list[tuple[int, np.ndarray]]) -> tuple[list[tuple[int, np.ndarray]], np.ndarray]:
    """The distinct marginals (by identity) and each entry's index among them."""
    index: dict[int, int] = {}
    distinct: list[tuple[int, np.ndarray]] = []
    which = np.empty(len(marginals), dtype=np.intp)
    for k, (lo, pmf) in enumerate(marginals):
        key = id(pmf)
        if key not in index:
            index[key] = len(distinct)
            distinct.append((lo, pmf))
        which[k] = index[key]
    return distinct, which


class _Padded:
    """Distinct marginals as rows of one zero-padded array, with their sums, means and variances
    computed as :func:`contour_half_width` computes them (and, ``cumulative``, each one's cdf
    ``[0, cumsum(pmf)…]`` padded with its total)."""

    def __init__(self, marginals: list[tuple[int, np.ndarray]], cumulative: bool) -> None:
        self.lo = np.array([lo for lo, _ in marginals], dtype=np.int64)
        self.size = np.array([pmf.size for _, pmf in marginals], dtype=np.int64)
        width = int(self.size.max())
        self.pmf = np.zeros((len(marginals), width))
        self.cum = np.zeros((len(marginals), width + 1)) if cumulative else None
        self.stats = np.empty((len(marginals), 3))
        for u, (lo, pmf) in enumerate(marginals):
            self.pmf[u, : pmf.size] = pmf
            if self.cum is not None:
                np.cumsum(pmf, out=self.cum[u, 1 : pmf.size + 1])
                self.cum[u, pmf.size + 1 :] = self.cum[u, pmf.size]
            x = lo + np.arange(pmf.size, dtype=np.float64)
            total = float(pmf.sum())
            mean = float(np.sum(pmf * x)) / total
            self.stats[u] = total, mean, float(np.sum(pmf * (x - mean) ** 2)) / total


def _band_quantiles(
    m: _BatchRows, ks: np.ndarray, at: np.ndarray, c_all: np.ndarray, counts: np.ndarray, sizes: np.ndarray,
    masses: np.ndarray, levels: np.ndarray, margin: np.ndarray, tp_pmf: np.ndarray, tn_pmf: np.ndarray,
    quantiles: np.ndarray, neighbours: np.ndarray, accepted: np.ndarray,
) -> None:  # fmt: skip
    """The quantile atoms of windows ``ks[at]`` (both sides) from their bands' points, sorted per
    segment (as :func:`_quantile_atom`); fills ``quantiles`` and ``neighbours`` and clears
    ``accepted`` where a level is not cleared by the margin."""
    rows_max = counts.shape[2]
    seg_k = np.repeat(at, 2)  # segment s = (window seg_k[s], side seg_side[s])
    seg_side = np.tile(np.arange(2), at.size)
    seg_size = sizes[seg_k, seg_side]
    row_counts = counts[seg_k, seg_side].ravel()  # (segments × rows)
    row_lo = c_all[seg_k, seg_side].ravel()
    point = np.repeat(np.arange(row_counts.size), row_counts)  # each point's (segment, row)
    first = np.cumsum(row_counts) - row_counts
    seg_of, i = np.divmod(point, rows_max)
    win = seg_k[seg_of]
    j = row_lo[point] + (np.arange(point.size) - first[point])
    fs = m.f(ks[win], i, j)
    w = tp_pmf[win, i] * tn_pmf[win, j]
    order = np.lexsort((fs, seg_of))
    fs, w, seg_of = fs[order], w[order], seg_of[order]
    begin = np.cumsum(seg_size) - seg_size
    end_seg = begin + seg_size
    G = np.cumsum(w)
    base = np.where(begin > 0, G[np.maximum(begin - 1, 0)], 0.0)
    below = masses[seg_k, seg_side]
    cs = below[seg_of] + (G - base[seg_of])
    level = levels[seg_k, seg_side]
    marg = margin[seg_k]
    k_at = begin + np.add.reduceat((cs < level[seg_of]).astype(np.int64), begin)
    reached = k_at < end_seg
    q = fs[np.minimum(k_at, fs.size - 1)]
    start = begin + np.add.reduceat((fs < q[seg_of]).astype(np.int64), begin)
    stop = begin + np.add.reduceat((fs <= q[seg_of]).astype(np.int64), begin)
    before = np.where(start > begin, cs[np.maximum(start - 1, 0)], below)
    clear = reached & (cs[np.maximum(stop - 1, 0)] >= level + marg) & (before < level - marg)
    smaller = np.where(start > begin, fs[np.maximum(start - 1, 0)], np.nan)
    larger = np.where(stop < end_seg, fs[np.minimum(stop, fs.size - 1)], np.nan)
    # a neighbour outside the band: the largest ratio below the lower contour, the smallest above the upper
    for s in np.flatnonzero(clear & ((start == begin) | (stop == end_seg))).tolist():
        k, side = int(seg_k[s]), int(seg_side[s])
        rows = np.arange(int(m.rows[ks[k]]))
        if start[s] == begin[s]:
            c_lo = c_all[k, side, : rows.size]
            has = c_lo > 0
            smaller[s] = float(np.max(m.f(ks[k], rows[has], c_lo[has] - 1))) if has.any() else q[s]
        if stop[s] == end_seg[s]:
            c_hi = c_all[k, 2 + side, : rows.size]
            has = c_hi < m.cols[ks[k]]
            larger[s] = float(np.min(m.f(ks[k], rows[has], c_hi[has]))) if has.any() else q[s]
    quantiles[seg_k, seg_side] = q
    neighbours[seg_k, seg_side, 0] = smaller
    neighbours[seg_k, seg_side, 1] = larger
    accepted[seg_k[~clear]] = False
