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
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Any

import numpy as np

from ..distribution import MetricDistribution
from ..metrics import Metric


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


def _quantile_atom(fs: np.ndarray, cs: np.ndarray, below: float, level: float, margin: float) -> tuple | None:
    """The atom of a band of sorted ratios ``fs`` (cumulative masses ``cs``, mass ``below`` under
    the band) where the cdf crosses ``level``: ``(ratio, start, end)`` with ``fs[start:end]`` equal
    to it, or None when the band does not reach the level or the cdf passes within ``margin`` of it
    just below or at the atom (then rounding could move the quantile: the caller declines)."""
    k = int(np.searchsorted(cs, level, side="left"))
    if k >= fs.size:
        return None
    q = fs[k]
    start = int(np.searchsorted(fs, q, side="left"))
    end = int(np.searchsorted(fs, q, side="right"))
    before = cs[start - 1] if start > 0 else below
    if not (cs[end - 1] >= level + margin and before < level - margin):
        return None
    return q, start, end


def _half_width_from_ratios(form: Any, quantiles: list, neighbours: list) -> tuple[float, float]:
    """Half-width and granularity (as :func:`interval_half_width`) from the interval's two
    quantiles and each one's neighbouring atoms, all given as ratios of the exact ``form``."""
    values = form.value(np.array(quantiles), np.ones(2))
    lo_value, hi_value = float(values[0]), float(values[1])
    h = (hi_value - lo_value) / 2
    if not h > 0:
        return h, 1.0
    gaps = []
    for (smaller, larger), value in zip(neighbours, (lo_value, hi_value), strict=True):
        near = form.value(np.array([smaller, larger]), np.ones(2))
        gaps.append(max(value - float(near[0]), float(near[1]) - value))
    return h, (gaps[0] + gaps[1]) / 2 / h


# ----------------------------------------------------------------------------- balanced accuracy, exactly and fast
#: The fast lattice evaluation of balanced accuracy defers to :func:`metric_distribution`
#: when a cumulative mass lies within this margin of an interval's level (far above the
#: rounding of either sum, far below any mass that matters).
_LEVEL_MARGIN = 1e-9
#: Most thresholds evaluated per step of the quantile search (√ of the bracket: two steps).
_SEARCH_WIDTH = 128


def lattice_cdf(t: np.ndarray, pmf_a: np.ndarray, lo_a: int, a: int, cum_b: np.ndarray, lo_b: int, b: int):
    """Mass of ``a·A + b·B ≤ t`` for each integer threshold ``t``, A and B independent on windows
    starting at ``lo_a``, ``lo_b`` (``cum_b``: 0, then the cumulative masses of B).

    The floor of ``(t − a·A)/b`` is taken in float64, exact while the keys stay below 2**50
    (a multiple of ``b`` divides exactly; any other quotient is at least 1/b from an
    integer, far more than the rounding): the caller checks that bound.
    """
    base = (a * (lo_a + np.arange(pmf_a.size, dtype=np.int64)) + b * (lo_b - 1)).astype(np.float64)
    j = np.floor((t.astype(np.float64)[None, :] - base[:, None]) / b)  # 1 + the largest B with a·A + b·B ≤ t
    np.clip(j, 0, cum_b.size - 1, out=j)
    return np.sum(pmf_a[:, None] * cum_b[j.astype(np.intp)], axis=0)


def balanced_accuracy_half_width(
    tp_pmf: np.ndarray, tp_lo: int, tn_pmf: np.ndarray, tn_lo: int, p: int, n: int, confidence: float
) -> tuple[float, float] | None:
    """Exact half-width (and granularity) of balanced accuracy's central interval, from its integer keys.

    Balanced accuracy is ``key/(2pn)`` with the integer key ``n·TP + p·TN`` (the exact
    form :func:`metric_distribution` groups on), TP and TN independent with the pruned
    marginals of :func:`~confusionlab.models.slice_model`. P(key ≤ t) is a sum over the
    smaller marginal of the other's cdf, so each discrete quantile (the smallest key
    whose normalised cdf reaches the level − 1e-12, the rule of
    :meth:`MetricDistribution.ppf`) is found by a √W-ary search over the W integers of a bracket,
    started from a bracket around the normal quantile that is checked (and widened to
    the whole window if the check fails), without forming or sorting the lattice. The
    result is accepted only once the cdf is computed at the quantile key q and at q − 1
    and found at least ``_LEVEL_MARGIN`` above, resp. below, the level (the cdf being
    monotone, that pins q down whatever rounding did during the search); its value is
    ``key/(2pn)`` computed as the core computes it, so the half-width is the core's bit
    for bit. Otherwise (a cumulative mass within the margin of a level, where rounding
    could decide) it returns None and the caller builds the distribution.
    """
    # A: the marginal summed over (the smaller window), B: the one whose cdf is read.
    if tp_pmf.size <= tn_pmf.size:
        pmf_a, lo_a, a, pmf_b, lo_b, b = tp_pmf, tp_lo, n, tn_pmf, tn_lo, p
    else:
        pmf_a, lo_a, a, pmf_b, lo_b, b = tn_pmf, tn_lo, p, tp_pmf, tp_lo, n
    g = math.gcd(a, b)  # keys are multiples of gcd(p, n): search them in its units (p = n: TP + TN)
    a, b = a // g, b // g
    sum_a, sum_b = float(pmf_a.sum()), float(pmf_b.sum())
    total = sum_a * sum_b
    cum_b = np.concatenate(([0.0], np.cumsum(pmf_b)))

    def cdf(t: np.ndarray) -> np.ndarray:
        return lattice_cdf(t, pmf_a, lo_a, a, cum_b, lo_b, b) / total

    k_min = a * lo_a + b * lo_b
    k_max = a * (lo_a + pmf_a.size - 1) + b * (lo_b + pmf_b.size - 1)
    if k_max >= 2**50:  # beyond the exact float arithmetic of lattice_cdf
        return None
    levels = np.array([(1 - confidence) / 2, (1 + confidence) / 2]) - 1e-12
    # A bracket around the normal quantiles, checked: cdf(lo) < level <= cdf(hi).
    ia = lo_a + np.arange(pmf_a.size)
    ib = lo_b + np.arange(pmf_b.size)
    mean_a, mean_b = float(np.sum(pmf_a * ia)) / sum_a, float(np.sum(pmf_b * ib)) / sum_b
    var_a = float(np.sum(pmf_a * (ia - mean_a) ** 2)) / sum_a
    var_b = float(np.sum(pmf_b * (ib - mean_b) ** 2)) / sum_b
    sd = math.sqrt(a * a * var_a + b * b * var_b)
    z = np.array([NormalDist().inv_cdf(min(max(q, 1e-300), 1 - 1e-16)) for q in levels])
    guess = a * mean_a + b * mean_b + z * sd
    spread = 0.1 * sd + max(a, b)
    lo = np.clip(np.floor(guess - spread), k_min - 1, k_max).astype(np.int64)
    hi = np.clip(np.ceil(guess + spread), k_min - 1, k_max).astype(np.int64)
    at = cdf(np.concatenate([lo, hi]))
    for s in range(2):
        if not at[s] < levels[s]:  # the quantile lies below the bracket
            lo[s], hi[s] = k_min - 1, lo[s]
        elif not at[2 + s] >= levels[s]:  # above it
            lo[s], hi[s] = hi[s], k_max
    width = int(np.max(hi - lo))
    size = min(_SEARCH_WIDTH, max(4, math.isqrt(width) + 1))  # two steps when the bracket held
    steps = np.arange(size, dtype=np.int64)
    while np.any(hi - lo > 1):
        ts = [lo[s] + 1 + (steps * max(int(hi[s] - lo[s]) - 1, 0)) // size for s in range(2)]
        values = cdf(np.concatenate(ts))
        for s in range(2):
            reached = values[s * size : (s + 1) * size] >= levels[s]
            k = int(np.argmax(reached)) if reached.any() else size
            if k < size:
                hi[s] = ts[s][k]
            if k > 0:
                lo[s] = ts[s][k - 1]
    # hi: the quantile keys, accepted only when the cdf is clear of the levels on both sides.
    edges = cdf(np.concatenate([hi, hi - 1]))
    if not (np.all(edges[:2] >= levels + _LEVEL_MARGIN) and np.all(edges[2:] < levels - _LEVEL_MARGIN)):
        return None
    den = float(2 * p * n)
    lo_value, hi_value = float(hi[0] * g) / den, float(hi[1] * g) / den
    h = (hi_value - lo_value) / 2
    if not h > 0:
        return h, 1.0
    # Granularity: the larger gap to a neighbouring lattice key, at each end.
    keys_a = a * (lo_a + np.arange(pmf_a.size, dtype=np.int64))
    last_b = lo_b + pmf_b.size - 1
    gaps = []
    for q in hi:
        above = (q - keys_a) // b + 1  # smallest B with key > q
        below = -((keys_a - q) // b) - 1  # largest B with key < q
        up = (above >= lo_b) & (above <= last_b)
        down = (below >= lo_b) & (below <= last_b)
        value = float(q * g) / den
        gap_up = float(np.min(keys_a[up] + b * above[up]) * g) / den - value if up.any() else 0.0
        gap_down = value - float(np.max(keys_a[down] + b * below[down]) * g) / den if down.any() else 0.0
        gaps.append(max(gap_up, gap_down))
    return h, (gaps[0] + gaps[1]) / 2 / h


# ----------------------------------------------------------------------------- any ratio metric, exactly and fast
#: Buckets of the one counting pass of :func:`lattice_half_width`.
_BUCKETS = 4096


def lattice_ratios(metric: Metric, tp: np.ndarray, tn: np.ndarray, p: int, n: int) -> tuple[np.ndarray, Any] | None:
    """The ratio ``num/den`` of the metric's exact form at every lattice point ``(TP, TN)``, as
    :func:`~confusionlab.grouping.group_exact` computes it (``num`` and ``den`` exact in
    float64, one correctly rounded division), and the form (for its value map); None where
    the core would not take that path (integers from 2**53, special points, custom forms).

    MCC's integers are formed without the general four-count products: ``TP·TN − FP·FN =
    n·TP + p·TN − p·n`` and ``(TP+FP)(FN+TN)(TP+FN)(FP+TN) = p·n·(n − s)(p + s)`` with
    ``s = TN − TP`` (so the denominator is a strided view of one vector over ``s``). Every
    intermediate is an integer below 2**53 (the metric's ``magnitude`` bound), hence exact:
    the same integers as the core's, the same double ratios.
    """
    if not metric.magnitude(p + n) < 2**53:
        return None
    if metric.name == "mcc":
        r = np.add.outer(float(n) * tp, float(p) * tn - float(p) * float(n))
        num = r * np.abs(r)
        s = np.arange(int(tn[0]) - int(tp[-1]), int(tn[-1]) - int(tp[0]) + 1, dtype=np.float64)
        dvec = float(p) * float(n) * ((n - s) * (p + s))
        if not np.all(dvec > 0):
            return None
        # den[i, j] = dvec[(tn[j] - tp[i]) - s[0]] = dvec[(tp.size - 1 - i) + j]
        window = np.lib.stride_tricks.sliding_window_view(dvec, tn.size)
        den = window[::-1][window.shape[0] - tp.size :]
        form = metric.exact(np.array([1]), np.array([1]), np.array([1]), np.array([1]), as_float=True)
        return num / den, form
    tpc, tnr = tp.astype(np.int64)[:, None], tn.astype(np.int64)[None, :]
    form = metric.exact(tpc, p - tpc, n - tnr, tnr, as_float=True)
    if form.kind not in ("ratio", "signed_square") or form.undefined is not None:
        return None
    den = np.asarray(form.den)
    if not np.all(den > 0):
        return None
    return np.broadcast_to(np.true_divide(form.num, den), (tp.size, tn.size)), form


def lattice_half_width(
    metric: Metric, tp_pmf: np.ndarray, tp_lo: int, tn_pmf: np.ndarray, tn_lo: int, p: int, n: int, confidence: float
) -> tuple[float, float] | None:
    """Exact half-width (and granularity) of a metric's central interval without grouping the lattice.

    The quantiles of :meth:`MetricDistribution.interval` are read from the per-point ratios
    ``f = num/den`` of the metric's exact form (:func:`lattice_ratios`, the doubles the core
    sorts). The value is a non-decreasing function ``g`` of ``f`` (``g`` = identity or a
    signed square root, the core's map from a group's ratio to its value), so the smallest
    value whose cdf reaches a level is ``g`` of the smallest ratio whose cdf reaches it: no
    value needs grouping, only the ratios near the two levels sorting. One pass counts the
    masses in :data:`_BUCKETS` buckets of ``f`` (the bucket index is monotone in ``f``);
    the points of the buckets where the cdf crosses a level (± ``_LEVEL_MARGIN``) are sorted.
    As for balanced accuracy, the result is accepted only when the cdf at the quantile and
    just below it are at least ``_LEVEL_MARGIN`` clear of the level (summation order cannot
    decide then); otherwise, and wherever the core takes another arithmetic path (integers
    from 2**53, 0/0 or x/0 points), None: the caller builds the distribution.
    """
    tp = (tp_lo + np.arange(tp_pmf.size)).astype(np.float64)
    tn = (tn_lo + np.arange(tn_pmf.size)).astype(np.float64)
    got = lattice_ratios(metric, tp, tn, p, n)
    if got is None:
        return None
    f, form = got
    f = np.ascontiguousarray(f)
    w = np.multiply.outer(tp_pmf, tn_pmf)
    total = float(tp_pmf.sum()) * float(tn_pmf.sum())
    fmin, fmax = float(f.min()), float(f.max())
    if not (math.isfinite(fmin) and math.isfinite(fmax) and total > 0):
        return None
    levels = (np.array([(1 - confidence) / 2, (1 + confidence) / 2]) - 1e-12) * total
    margin = _LEVEL_MARGIN * total
    if fmax > fmin:
        scale = (_BUCKETS - 1) / (fmax - fmin)
        bucket = ((f - fmin) * scale).astype(np.intp).ravel()  # monotone in f: subtraction, product, floor
        cum = np.cumsum(np.bincount(bucket, weights=w.ravel(), minlength=_BUCKETS))
    else:
        bucket, cum = np.zeros(f.size, dtype=np.intp), np.array([total])
    flat, wflat = f.ravel(), w.ravel()
    quantiles, neighbours = [], []
    for level in levels:
        first = int(np.searchsorted(cum, level - margin, side="left"))
        last = min(int(np.searchsorted(cum, level + margin, side="left")), cum.size - 1)
        below = float(cum[first - 1]) if first > 0 else 0.0
        sel = np.flatnonzero((bucket >= first) & (bucket <= last))
        fs, ws = flat[sel], wflat[sel]
        order = np.argsort(fs, kind="stable")
        fs = fs[order]
        atom = _quantile_atom(fs, below + np.cumsum(ws[order]), below, level, margin)
        if atom is None:
            return None
        q, start, end = atom
        # Neighbouring ratios: a lower bucket holds only smaller ratios, a higher one only larger.
        if start > 0:
            smaller = fs[start - 1]
        else:
            rest = flat[bucket < first]
            smaller = rest.max() if rest.size else q
        if end < fs.size:
            larger = fs[end]
        else:
            rest = flat[bucket > last]
            larger = rest.min() if rest.size else q
        quantiles.append(q)
        neighbours.append((smaller, larger))
    return _half_width_from_ratios(form, quantiles, neighbours)


# ----------------------------------------------------------------------------- MCC along its contours
#: Most lattice points between a quantile's two bracketing contours that
#: :func:`contour_half_width` sorts (more: the bracket is narrowed or the lattice pass is used).
_BAND_POINTS = 20_000


class Rows:
    """A metric's exact ratios on a (TP, TN) window, row by row, without forming the lattice.

    For the metrics below the ratio ``f = num/den`` that the core sorts on (every integer
    below 2**53: the same double, see :func:`lattice_ratios`) is non-decreasing in TN
    along a row (TP fixed), so the points of a row with ``f ≤ t`` are a prefix, whose
    length :meth:`count` finds from a real root of ``f = t`` along the row, confirmed (or
    stepped) with the exact ratios.
    """

    def __init__(self, tp_lo: int, rows: int, tn_lo: int, cols: int, p: int, n: int) -> None:
        self.tp = (tp_lo + np.arange(rows)).astype(np.float64)
        self.tn_lo, self.cols, self.p, self.n = tn_lo, cols, p, n

    def f(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """The exact ratio at rows ``i``, columns ``j`` (arrays of the same shape)."""
        raise NotImplementedError

    def root(self, t: np.ndarray) -> np.ndarray:
        """Real TN where ``f`` crosses each threshold ``t[k]`` (shape ``(len(t), 1)``) on
        each row (NaN where it does not); a guess, confirmed by :meth:`count`."""
        raise NotImplementedError

    def defined(self) -> bool:
        """Whether every point of the window has ``den > 0`` (no 0/0 or x/0 point)."""
        return True

    def to_ratio(self, v: np.ndarray) -> np.ndarray:
        """Metric values → ratios (the value is a non-decreasing function of the ratio)."""
        return v

    def count(self, t: np.ndarray) -> np.ndarray | None:
        """For each threshold ``t[k]`` and row ``i``, the number of columns with ``f ≤ t[k]``
        (shape ``(len(t), rows)``); None if a guess could not be confirmed exactly (the
        caller falls back)."""
        t = np.asarray(t, dtype=np.float64)[:, None]
        with np.errstate(invalid="ignore", divide="ignore"):
            y = self.root(t)
        rows = np.broadcast_to(np.arange(self.tp.size)[None, :], y.shape)
        whole = self.f(rows, np.full(y.shape, self.cols - 1)) <= t
        finite = np.isfinite(y)
        guess = np.where(finite, np.floor(np.where(finite, y, 0.0)) - self.tn_lo + 1, np.where(whole, self.cols, 0))
        c = np.clip(guess, 0, self.cols).astype(np.intp)
        for _ in range(3):  # the root is accurate to far less than a column; confirm, step if needed
            below_ok = (c == 0) | (self.f(rows, np.maximum(c - 1, 0)) <= t)
            above_ok = (c == self.cols) | (self.f(rows, np.minimum(c, self.cols - 1)) > t)
            if below_ok.all() and above_ok.all():
                return c
            c = c - ~below_ok + ~above_ok
        return None


class MccRows(Rows):
    """MCC: ``f(TP, TN) = r·|r| / (p·n·(n − s)(p + s))`` with ``r = n·TP + p·TN − p·n`` and
    ``s = TN − TP`` (the core's integers, formed without the four-count products).

    Non-decreasing in TN: ∂MCC/∂TN has the sign of ``2p·PP·PN − (TP·TN − FP·FN)(PP − PN)``
    (PP = TP + FP, PN = FN + TN), which expands to a polynomial in TP, FN, FP, TN with
    positive coefficients only, ``2a²b + a²d + 3abc + acd + 2ab² + 3abd + b²c + bcd + ad² +
    bc²`` (a, b, c, d = TP, FN, FP, TN); ``f = sign·MCC²`` and a correctly rounded division
    keep the order. The root is that of ``r² = t·p·n·PP·PN`` (a quadratic in TN) on the
    side of the sign of t.
    """

    def defined(self) -> bool:
        # TP + FP = n − s > 0 and FN + TN = p + s > 0 for every s = TN − TP of the window
        s_lo = self.tn_lo - self.tp[-1]
        s_hi = self.tn_lo + self.cols - 1 - self.tp[0]
        return bool(self.n - s_hi > 0 and self.p + s_lo > 0)

    def to_ratio(self, v: np.ndarray) -> np.ndarray:
        return np.copysign(v * v, v)

    def f(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        p, n = float(self.p), float(self.n)
        x = self.tp[i]
        y = self.tn_lo + j.astype(np.float64)
        r = n * x + (p * y - p * n)
        s = y - x
        return (r * np.abs(r)) / (p * n * ((n - s) * (p + s)))

    def root(self, t: np.ndarray) -> np.ndarray:
        return mcc_root(float(self.p), float(self.n), self.tp[None, :], t)


class FbetaRows(Rows):
    """F-beta: the core's ``f = A·TP / (A·TP + r·FN + s·FP)`` (``A = r + s``, β² = r/s),
    read from the metric's exact form. Non-decreasing in TN: the numerator does not depend
    on it and the denominator falls by ``s`` per step (FP = n − TN). The root is linear:
    ``TN = n − (A·TP/t − A·TP − r·FN)/s``.
    """

    def __init__(self, metric: Metric, *args: int) -> None:
        super().__init__(*args)
        self.metric = metric
        unit = [metric.exact(*(np.array([int(k == j)]) for k in range(4))) for j in range(3)]
        self.A, self.r, self.s = float(unit[0].num[0]), float(unit[1].den[0]), float(unit[2].den[0])

    def f(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        x = self.tp[i].astype(np.int64)
        y = self.tn_lo + j.astype(np.int64)
        form = self.metric.exact(x, self.p - x, self.n - y, y, as_float=True)
        return np.true_divide(form.num, form.den)

    def root(self, t: np.ndarray) -> np.ndarray:
        return fbeta_root(self.A, self.r, self.s, self.p, self.n, self.tp[None, :], t)


def mcc_root(p: float, n: float, x: np.ndarray, t: np.ndarray) -> np.ndarray:
    """The TN at which MCC's row TP = ``x`` (p positives, n negatives) crosses ``t``: the larger root
    of the quadratic for t ≥ 0, the smaller below."""
    c0 = n * x - p * n
    k = np.abs(t) * p * n
    a2 = p * p + k
    a1 = 2 * p * c0 - k * (n + 2 * x - p)
    a0 = c0 * c0 - k * (n + x) * (p - x)
    root = np.sqrt(a1 * a1 - 4 * a2 * a0)
    return (-a1 + np.where(t >= 0, root, -root)) / (2 * a2)


def fbeta_root(A: float, r: float, s: float, p: float, n: float, x: np.ndarray, t: np.ndarray) -> np.ndarray:
    """The TN at which F-beta's row TP = ``x`` crosses ``t`` (``A``, ``r``, ``s``: the reader's
    constants); NaN where t ≤ 0 or TP = 0 (a row of zeros: no crossing inside, the row is all below
    or all above)."""
    ax = A * x
    y = n - (ax / t - ax - r * (p - x)) / s
    return np.where((t > 0) & (x > 0), y, np.nan)


def rows_for(metric: Metric, tp_lo: int, rows: int, tn_lo: int, cols: int, p: int, n: int) -> Rows | None:
    """The row reader of ``metric`` (MCC, F-beta), or None."""
    if metric.name == "mcc":
        return MccRows(tp_lo, rows, tn_lo, cols, p, n)
    fbeta = metric.name == "f1" or (metric.name[:1] == "f" and metric.name[1:].replace(".", "", 1).isdigit())
    if fbeta:
        form = metric.exact(np.array([1]), np.array([1]), np.array([1]), np.array([1]))
        if form.kind == "ratio" and form.scale == 1.0 and form.undefined is None:
            return FbetaRows(metric, tp_lo, rows, tn_lo, cols, p, n)
    return None


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
