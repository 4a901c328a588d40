"""Exact central intervals of a metric on one slice, without building its whole PMF.

The planner evaluates a metric's interval half-width at many test sizes; a full
:func:`~confusionlab.metric_distribution` sorts every lattice point each time. The paths here
return the same interval, bit for bit, from less work — or decline (return ``None``), and the
caller builds the distribution:

- balanced accuracy from its integer keys (key = n·TP + p·TN; the cdf at a key is a short sum
  over one class);
- MCC and the F-scores along their contours: each lattice row is monotone in TN, so the cdf
  at a threshold is a sum over rows and only the points between two bracketing contours are
  sorted;
- other two-class ratio metrics in one pass: the ratios the core sorts on, counted into
  buckets, only the buckets holding an interval end sorted;
- MCC and the F-scores for many windows of one slice at once (:func:`contour_half_widths`,
  the test outcomes of the planner's assurance): the contour path's steps for all of them
  together, the same results.

Each path declines when a cumulative mass lies within ``_LEVEL_MARGIN`` of an interval's
level, on 0/0 points, or when its integers could exceed 2**53.

This module holds :func:`interval_half_width` (the reference every path matches, read from a
built distribution) and the many-window driver :func:`contour_half_widths`, and gives every
path's entry point; each path lives in its own module:

=========================  ==========================================================
``_quantile_atoms``        the quantile atoms and the half-width from sorted ratios
``_balanced_accuracy``     balanced accuracy from its integer keys
``_ratio_half_width``      any ratio metric in one counting pass
``_contour_rows``          MCC's and the F-scores' row readers (a contour's root per row)
``_contour_half_width``    MCC and the F-scores along their contours, one window
``_batch_rows``            the row readers and band sorting for many windows at once
=========================  ==========================================================
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np

from ..distribution import MetricDistribution
from ..metrics import Metric
from ._balanced_accuracy import balanced_accuracy_half_width
from ._batch_rows import _band_quantiles, _BatchRows, _distinct, _Padded, _ratios
from ._contour_half_width import _BAND_POINTS, contour_half_width
from ._contour_rows import MccRows, rows_for
from ._quantile_atoms import _LEVEL_MARGIN
from ._ratio_half_width import lattice_half_width, lattice_ratios

__all__ = [
    "MccRows",
    "balanced_accuracy_half_width",
    "contour_half_width",
    "contour_half_widths",
    "interval_half_width",
    "lattice_half_width",
    "lattice_ratios",
    "rows_for",
]


def interval_half_width(d: MetricDistribution, confidence: float) -> tuple[float, float]:
    """Half-width of ``d``'s central interval and its granularity.

    The granularity is the half-width change if both ends moved by one atom (the largest
    neighbouring gap), relative to the half-width: a planner reads it to tell a half-width
    that meets the goal by a step of the lattice from one that meets it by a margin.

    Parameters
    ----------
    d : MetricDistribution
        The metric's distribution at one size.
    confidence : float
        Level of the central interval, in (0, 1).

    Returns
    -------
    (float, float)
        The half-width and its relative granularity (1.0 for an empty or undefined interval).

    Examples
    --------
    >>> from confusionlab import ConfusionMatrix, metric_distribution
    >>> d = metric_distribution(ConfusionMatrix(tp=16, fn=4, fp=8, tn=32), "recall", target="next_test_set")
    >>> d.interval(0.95)  # recall moves in steps of 1/20
    (0.5, 1.0)
    >>> h, step = interval_half_width(d, 0.95)  # (1.0 - 0.5) / 2, and a step of 0.05 is a fifth of it
    >>> round(h, 12), round(step, 12)
    (0.25, 0.2)
    """
    lo, hi = d.interval(confidence)
    h = (hi - lo) / 2
    if not math.isfinite(h) or h <= 0:
        return h, 1.0
    v = d.values
    gaps = []
    for q in (lo, hi):
        i = int(np.searchsorted(v, q))
        around = v[max(i - 1, 0) : i + 2]
        around = around[np.isfinite(around)]
        gaps.append(float(np.max(np.diff(around))) if around.size > 1 else 0.0)
    return h, (gaps[0] + gaps[1]) / 2 / h


# ----------------------------------------------------------------------------- many outcomes at once
#: Most (window, threshold, row) cells of one batch of :func:`contour_half_widths` (its
#: temporaries, a dozen arrays of this many elements, stay in the processor's cache).
_BATCH_CELLS = 1 << 16
#: Most band points sorted together by :func:`contour_half_widths` (one window's may be more).
_BATCH_POINTS = 1 << 20
#: Most lattice points of the ratio grid :func:`contour_half_widths` keeps per slice (8 bytes each:
#: 16 MB; beyond, the ratios are computed where they are read).
_GRID_POINTS = 1 << 21
#: Windows evaluated at the one-window path's brackets to learn the offset of the exact
#: quantiles from the normal ones (:func:`contour_half_widths`).
_LEARN = 16
#: Narrowest bracket half-width of :func:`contour_half_widths`, in standard deviations.
_MIN_WIDTH = 0.002


def contour_half_widths(
    metric: Metric, p: int, n: int, tp: list[tuple[int, np.ndarray]], tn: list[tuple[int, np.ndarray]],
    confidence: float, hint: dict | None = None,
) -> list[tuple[float, float] | None]:  # fmt: skip
    """:func:`contour_half_width` for many windows of one slice (p, n) at once.

    Window ``k`` is ``tp[k] = (tp_lo, tp_pmf)`` × ``tn[k] = (tn_lo, tn_pmf)`` (the test
    outcomes of the planner's assurance share p and n and differ in their marginals).
    The steps of the one-window path are done for all windows together, element by
    element with the same arithmetic (the thresholds' contours, the lattice ratios);
    sums (the masses at a threshold, the band's cumulative masses) are taken in another
    order, and a result is accepted only where they clear the interval's levels by
    ``_LEVEL_MARGIN``, as there. So each entry is the one-window result — the
    distribution's interval, bit for bit, with the same granularity (both are fixed by
    the quantile atoms and their neighbouring lattice ratios, whichever bracket found
    them) — or None where a bracket or a level is not cleared (the caller then
    evaluates that window alone).

    Less work per window than the one-window path: the ratios are computed once on a
    window holding all of them (up to :data:`_GRID_POINTS`) and looked up; the brackets
    start narrower, at the normal quantile shifted by the offset the exact quantiles
    showed in earlier windows of the same slice and as wide as that offset varied
    (a bracket that does not hold its level moves and doubles, as there), so a band holds
    a few dozen points instead of a few thousand. ``hint``, a dict this function fills
    (the offsets and the grid), carries both to the next call for the same slice, p and n.
    """
    K = len(tp)
    out: list[tuple[float, float] | None] = [None] * K
    if not K or not metric.magnitude(p + n) < 2**53 or rows_for(metric, 0, 1, 0, 1, p, n) is None:
        return out
    hint = {} if hint is None else hint
    # one padded array per distinct marginal (outcomes share them: rows TP', columns TN')
    ua, ia = _distinct(tp)
    ub, ib = _distinct(tn)
    A = _Padded(ua, cumulative=False)
    B = _Padded(ub, cumulative=True)
    tp_lo, R = A.lo[ia], A.size[ia]
    tn_lo, C = B.lo[ib], B.size[ib]
    grid = _grid(metric, p, n, int(tp_lo.min()), int((tp_lo + R).max()), int(tn_lo.min()), int((tn_lo + C).max()), hint)
    m = _BatchRows(metric, tp_lo, R, tn_lo, C, p, n, grid)
    per = max(1, _BATCH_CELLS // (4 * int(R.max())))
    start = 0
    while start < K:
        # without a hint yet, a few windows first (at the one-window path's brackets) to learn it
        stop = min(K, start + (per if "offset" in hint else min(per, _LEARN)))
        ks = np.arange(start, stop)
        for k, result in zip(ks.tolist(), _contour_batch(metric, m, ks, ia[ks], ib[ks], A, B, confidence, hint),
                             strict=True):  # fmt: skip
            out[k] = result
        start = stop
    return out


def _grid(metric: Metric, p: int, n: int, tp_lo: int, tp_hi: int, tn_lo: int, tn_hi: int, hint: dict) -> tuple | None:
    """The lattice ratios on a window holding rows ``tp_lo…tp_hi − 1`` and columns
    ``tn_lo…tn_hi − 1``: ``hint["grid"]`` if it holds them, else computed (over the union with
    it) and kept there; None above :data:`_GRID_POINTS` points."""
    held = hint.get("grid")
    if held is not None:
        tp0, tn0, F = held
        if tp0 <= tp_lo and tp_hi <= tp0 + F.shape[0] and tn0 <= tn_lo and tn_hi <= tn0 + F.shape[1]:
            return held
        tp_lo, tp_hi = min(tp_lo, tp0), max(tp_hi, tp0 + F.shape[0])
        tn_lo, tn_hi = min(tn_lo, tn0), max(tn_hi, tn0 + F.shape[1])
    rows, cols = tp_hi - tp_lo, tn_hi - tn_lo
    if rows * cols > _GRID_POINTS:
        return None
    F = np.empty((rows, cols))
    y = np.arange(tn_lo, tn_hi, dtype=np.int64)[None, :]
    step = max(1, _BATCH_CELLS // cols)  # a block of rows at a time: the temporaries stay small
    with np.errstate(invalid="ignore", divide="ignore"):
        for start in range(0, rows, step):
            x = np.arange(tp_lo + start, min(tp_hi, tp_lo + start + step), dtype=np.int64)[:, None]
            F[start : start + x.shape[0]] = _ratios(metric, p, n, x, y)
    hint["grid"] = (tp_lo, tn_lo, F)
    return hint["grid"]


def _contour_batch(
    metric: Metric, m: _BatchRows, ks: np.ndarray, ia: np.ndarray, ib: np.ndarray, A: _Padded, B: _Padded,
    confidence: float, hint: dict,
) -> list[tuple[float, float] | None]:  # fmt: skip
    """:func:`contour_half_widths` for the windows ``ks`` of ``m`` (marginals ``A`` rows ``ia``,
    ``B`` rows ``ib``)."""
    K = ks.size
    p, n = m.p, m.n
    result: list[tuple[float, float] | None] = [None] * K
    rows_max = int(m.rows[ks].max())
    tp_pmf = A.pmf[ia, :rows_max]
    stats_a, stats_b = A.stats[ia], B.stats[ib]
    total = stats_a[:, 0] * stats_b[:, 0]
    margin = _LEVEL_MARGIN * total
    ma, va, mb, vb = stats_a[:, 1], stats_a[:, 2], stats_b[:, 1], stats_b[:, 2]
    da, db = np.maximum(np.sqrt(va), 1e-3), np.maximum(np.sqrt(vb), 1e-3)
    a = np.stack([ma, ma + da, ma - da, ma, ma], axis=1)
    d = np.stack([mb, mb, mb, mb + db, mb - db], axis=1)
    v = metric.values(a, p - a, n - d, d, undefined=np.nan)
    centre, ga, gb = v[:, 0], (v[:, 1] - v[:, 2]) / (2 * da), (v[:, 3] - v[:, 4]) / (2 * db)
    with np.errstate(invalid="ignore"):
        sd = np.sqrt(ga * ga * va + gb * gb * vb)
    live = m.defined()[ks] & np.isfinite(centre) & np.isfinite(sd) & (sd > 0)
    low, high = metric.range
    qs = np.array([(1 - confidence) / 2, (1 + confidence) / 2])
    levels = (qs - 1e-12)[None, :] * total[:, None]
    z = np.array([NormalDist().inv_cdf(min(max(q, 1e-15), 1 - 1e-15)) for q in qs])
    normal = centre[:, None] + z[None, :] * sd[:, None]
    if "offset" in hint:
        guess = normal + hint["offset"][None, :] * sd[:, None]
        width = hint["width"][None, :] * sd[:, None]
    else:  # the one-window path's bracket
        guess, width = normal.copy(), 0.05 * sd[:, None] * np.ones(2)
    c_all = np.zeros((K, 4, rows_max), dtype=np.intp)
    masses = np.zeros((K, 4))
    bracketed = np.zeros(K, dtype=bool)
    active = live.copy()
    for _ in range(12):  # as contour_half_width (from a narrower start): brackets clear below and above each level
        at = np.flatnonzero(active)
        if not at.size:
            break
        ends = np.concatenate([np.maximum(guess[at] - width[at], low), np.minimum(guess[at] + width[at], high)], axis=1)
        c, confirmed = m.count(ks[at], m.to_ratio(ends))
        rows = c.shape[2]
        got = np.sum(tp_pmf[at, None, :rows] * B.cum[ib[at, None, None], c], axis=2)
        low_ok = got[:, :2] < levels[at] - margin[at, None]
        high_ok = got[:, 2:] >= levels[at] + margin[at, None]
        done = confirmed & low_ok.all(axis=1) & high_ok.all(axis=1)
        c_all[at[done], :, :rows] = c[done]
        masses[at[done]] = got[done]
        bracketed[at[done]] = True
        active[at[~confirmed | done]] = False
        step = ~done & confirmed
        moved = at[step]
        guess[moved] = guess[moved] - width[moved] * ~low_ok[step] + width[moved] * ~high_ok[step]
        width[moved] = np.where(low_ok[step] & high_ok[step], width[moved], 2 * width[moved])
    # the band between each quantile's contours: one segment per (window, side)
    counts = c_all[:, 2:, :] - c_all[:, :2, :]  # (K, 2, rows)
    sizes = counts.sum(axis=2)
    ok = bracketed & (sizes <= _BAND_POINTS).all(axis=1) & (sizes > 0).all(axis=1)
    quantiles = np.full((K, 2), np.nan)
    neighbours = np.full((K, 2, 2), np.nan)
    # the bands of a group of windows sorted together, at most _BATCH_POINTS points (or one window)
    ready = np.flatnonzero(ok)
    group = np.cumsum(sizes[ready].sum(axis=1)) // _BATCH_POINTS
    tn_pmf = B.pmf[ib]
    for g in np.unique(group).tolist():
        _band_quantiles(m, ks, ready[group == g], c_all, counts, sizes, masses, levels, margin, tp_pmf, tn_pmf,
                        quantiles, neighbours, ok)  # fmt: skip
    at = np.flatnonzero(ok)
    if not at.size:
        return result
    # as _half_width_from_ratios, element by element
    form = metric.exact(np.array([1]), np.array([1]), np.array([1]), np.array([1]), as_float=True)
    values = form.value(quantiles[at], np.ones((at.size, 2)))
    near = form.value(neighbours[at], np.ones((at.size, 2, 2)))
    h = (values[:, 1] - values[:, 0]) / 2
    gaps = np.maximum(values - near[:, :, 0], near[:, :, 1] - values)
    with np.errstate(invalid="ignore", divide="ignore"):
        grain = (gaps[:, 0] + gaps[:, 1]) / 2 / h
    for k, hk, gk in zip(at.tolist(), h.tolist(), grain.tolist(), strict=True):
        result[k] = (hk, gk) if hk > 0 else (hk, 1.0)
    # where the exact quantiles were, in standard deviations from the normal ones: the next hint
    offsets = (values - normal[at]) / sd[at, None]
    middle = np.median(offsets, axis=0)
    spread = np.max(np.abs(offsets - middle), axis=0)
    if "offset" in hint:  # keep the offset learnt, the width widened to what is seen now
        spread = np.abs(offsets - hint["offset"]).max(axis=0)
        middle = hint["offset"]
    hint["offset"], hint["width"] = middle, np.maximum(2 * spread, _MIN_WIDTH)
    return result
