"""Balanced accuracy's exact central interval on a slice from its integer keys ``n·TP + p·TN``."""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np

from ._quantile_atoms import _LEVEL_MARGIN

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
    whose normalised cdf reaches the level, compared exactly: the rule of
    :meth:`MetricDistribution.ppf`) is found by a √W-ary search over the W integers of a bracket,
    started from a bracket around the normal quantile that is checked (and widened to
    the whole window if the check fails), without forming or sorting the lattice. The
    search looks for the level − 1e-12, and the result is accepted only once the cdf is
    computed at the quantile key q and at q − 1 and found at least ``_LEVEL_MARGIN`` above,
    resp. below, that (the cdf being monotone, that pins q down, for the level itself too,
    whatever rounding did during the search); its value is
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
