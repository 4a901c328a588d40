"""MCC's and the F-scores' exact central interval on a slice from their contours (one window)."""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np

from ..metrics import Metric
from ._contour_rows import rows_for
from ._quantile_atoms import _LEVEL_MARGIN, _half_width_from_ratios, _quantile_atom

#: Most lattice points between a quantile's two bracketing contours that
#: :func:`contour_half_width` sorts (more: the bracket is narrowed or the lattice pass is used).
_BAND_POINTS = 20_000


def contour_half_width(
    metric: Metric, tp_pmf: np.ndarray, tp_lo: int, tn_pmf: np.ndarray, tn_lo: int, p: int, n: int, confidence: float
) -> tuple[float, float] | None:
    """Exact half-width (and granularity) of MCC's or an F-score's central interval from its contours.

    The cdf at a ratio threshold t is ``Σ_TP P(TP)·F_TN(c_TP(t))``, ``c_TP(t)`` the
    length of the row's prefix with ``f ≤ t`` (:class:`Rows`): O(rows) per threshold.
    Each quantile is bracketed between two thresholds around the normal (delta-method)
    quantile whose cdfs are checked to lie below and above the level (± ``_LEVEL_MARGIN``);
    only the lattice points between the two contours are formed and sorted. As in
    :func:`lattice_half_width` the result must clear the level by the margin on both
    sides, and the value is the core's map of the quantile ratio; otherwise (another
    metric, integers from 2**53, 0/0 points, a bracket not found) None.
    """
    if not metric.magnitude(p + n) < 2**53:
        return None
    R, C = tp_pmf.size, tn_pmf.size
    m = rows_for(metric, tp_lo, R, tn_lo, C, p, n)
    if m is None or not m.defined():
        return None
    cum_tn = np.concatenate(([0.0], np.cumsum(tn_pmf)))
    total = float(tp_pmf.sum()) * float(tn_pmf.sum())
    margin = _LEVEL_MARGIN * total

    # delta-method moments of the metric from the marginals' moments
    ia, ib = m.tp, tn_lo + np.arange(C, dtype=np.float64)
    sa, sb = float(tp_pmf.sum()), float(tn_pmf.sum())
    ma, mb = float(np.sum(tp_pmf * ia)) / sa, float(np.sum(tn_pmf * ib)) / sb
    va, vb = float(np.sum(tp_pmf * (ia - ma) ** 2)) / sa, float(np.sum(tn_pmf * (ib - mb) ** 2)) / sb
    da, db = max(math.sqrt(va), 1e-3), max(math.sqrt(vb), 1e-3)
    a = np.array([ma, ma + da, ma - da, ma, ma])
    d = np.array([mb, mb, mb, mb + db, mb - db])
    v = metric.values(a, p - a, n - d, d, undefined=np.nan)
    centre, ga, gb = float(v[0]), float(v[1] - v[2]) / (2 * da), float(v[3] - v[4]) / (2 * db)
    sd = math.sqrt(ga * ga * va + gb * gb * vb)
    if not (math.isfinite(centre) and math.isfinite(sd) and sd > 0):
        return None
    low, high = metric.range

    qs = np.array([(1 - confidence) / 2, (1 + confidence) / 2])
    levels = (qs - 1e-12) * total
    guess = centre + np.array([NormalDist().inv_cdf(min(max(q, 1e-15), 1 - 1e-15)) for q in qs]) * sd
    width = np.full(2, 0.05 * sd)
    for _ in range(7):  # brackets whose cdfs lie clear below and above each level
        ends = np.concatenate([np.maximum(guess - width, low), np.minimum(guess + width, high)])
        c_all = m.count(m.to_ratio(ends))
        if c_all is None:
            return None
        masses = np.sum(tp_pmf * cum_tn[c_all], axis=1)
        low_ok = masses[:2] < levels - margin
        high_ok = masses[2:] >= levels + margin
        if low_ok.all() and high_ok.all():
            break
        guess = guess - width * ~low_ok + width * ~high_ok
        width = np.where(low_ok & high_ok, width, 2 * width)
    else:
        return None
    quantiles, neighbours = [], []
    for side in range(2):
        level, below = levels[side], float(masses[side])
        c_lo, c_hi = c_all[side], c_all[2 + side]
        counts = c_hi - c_lo
        size = int(counts.sum())
        if size > _BAND_POINTS:
            return None
        # the points strictly between the contours: row i, columns c_lo[i] .. c_hi[i] - 1
        rows = np.repeat(np.arange(R), counts)
        starts = np.cumsum(counts) - counts
        cols = c_lo[rows] + (np.arange(size) - starts[rows])
        fs = m.f(rows, cols)
        order = np.argsort(fs)  # ties (equal ratios) are summed whole: their order does not matter
        fs = fs[order]
        atom = _quantile_atom(fs, below + np.cumsum(tp_pmf[rows[order]] * tn_pmf[cols[order]]), below, level, margin)
        if atom is None:
            return None
        qf, start, end = atom
        # neighbouring ratios: below the lower contour the largest is a row's last point in it
        if start > 0:
            smaller = fs[start - 1]
        else:
            has = c_lo > 0
            smaller = float(np.max(m.f(np.flatnonzero(has), c_lo[has] - 1))) if has.any() else qf
        if end < size:
            larger = fs[end]
        else:
            has = c_hi < C
            larger = float(np.min(m.f(np.flatnonzero(has), c_hi[has]))) if has.any() else qf
        quantiles.append(qf)
        neighbours.append((smaller, larger))
    form = metric.exact(np.array([1]), np.array([1]), np.array([1]), np.array([1]), as_float=True)
    return _half_width_from_ratios(form, quantiles, neighbours)
