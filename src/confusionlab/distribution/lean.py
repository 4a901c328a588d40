"""The pooled distribution of a large union lattice with one float key a point."""

from __future__ import annotations

import math

import numpy as np

from ..grouping import group_sorted, injective
from ..metrics import Metric
from .arithmetic import key_arithmetic
from .pmf import MetricDistribution

__all__ = []


#: Rows of the lattice whose exact keys are computed at a time by :func:`_lean_pooled`.
_LEAN_ROWS = 64


def _lean_pooled(
    m: Metric,
    tp: np.ndarray,
    tn: np.ndarray,
    pn: tuple[int, int],
    weights: np.ndarray,
    whole: bool,
    pruned: float,
    label: str,
    undefined: float | None,
) -> MetricDistribution | None:
    """The pooled distribution of one large union lattice (``tp`` a column, ``tn`` a row,
    ``weights`` its masses), grouped on exact keys with the memory of one float key a point.

    The keys ``num/den`` are computed a block of rows at a time into one array; points of
    zero weight (corners of the windows' bounding box no component reaches; kept when
    ``whole``, the lattice of ``tolerance=0``) get a key below every other and are dropped
    after the one sort (:func:`~confusionlab.sorting.sort_exactly`'s ``skip``), instead of copying the
    lattice without them. The keys are exact where doubles separate distinct ratios:
    ``D * V < 2**51`` for a constant denominator ``D`` (the balanced family on a slice),
    ``D**2 * V < 2**51`` otherwise (:mod:`confusionlab.grouping`). Returns None — the
    caller takes the general grouping — where that does not hold, where the integers are
    not exact doubles, where the metric has 0/0 or x/0 points on the kept lattice, or where
    the denominator is constant and the keys few (one bincount is cheaper).
    """

    p, n = pn
    shape = weights.shape
    if key_arithmetic(m, p + n, (tp, p - tp, n - tn, tn)) != "float":
        return None
    # a constant denominator and few integer keys (the rates, accuracy) are cheaper counted by the
    # general path's bincount: told from a 3 × 3 sample (adjacent points give the keys' step) before
    # any key is computed, and decided exactly below
    at_p, at_q = np.unique([0, 1, shape[0] - 1]), np.unique([0, 1, shape[1] - 1])
    probe = m._exact_on_slice(tp[at_p], tn[:, at_q], p, n, as_float=True)
    probe_num = np.broadcast_to(probe.num, (at_p.size, at_q.size)).reshape(-1)
    probe_den = np.broadcast_to(probe.den, (at_p.size, at_q.size)).reshape(-1)
    if (probe_den == probe_den[0]).all() and probe_den[0] != 0:
        probe_step = int(np.gcd.reduce((probe_num - probe_num[0]).astype(np.int64))) or 1
        if (probe_num.max() - probe_num.min()) // probe_step <= 4 * weights.size + (1 << 16):
            return None
    keys = np.empty(shape)
    dmin, dmax, nmin, nmax, vmax = math.inf, 0.0, math.inf, -math.inf, 0.0
    form, first, step = None, None, 0  # step: gcd of the numerators' differences while den is constant
    for lo in range(0, shape[0], _LEAN_ROWS):
        rows = slice(lo, lo + _LEAN_ROWS)
        block = keys[rows]
        form = m._exact_on_slice(tp[rows], tn, p, n, as_float=True)
        num = np.broadcast_to(form.num, block.shape)
        den = np.broadcast_to(form.den, block.shape)
        kept = np.ones(block.shape, dtype=bool) if whole else weights[rows] > 0
        special = den == 0
        if form.undefined is not None:
            special = special | np.broadcast_to(form.undefined, block.shape)
        if (special & kept).any():
            return None
        with np.errstate(divide="ignore", invalid="ignore"):
            np.divide(num, den, out=block)
        if not kept.all():
            block[~kept] = -np.inf
        if kept.any():
            dmin = min(dmin, float(den.min(where=kept, initial=math.inf)))
            dmax = max(dmax, float(den.max(where=kept, initial=0.0)))
            nmin = min(nmin, float(num.min(where=kept, initial=math.inf)))
            nmax = max(nmax, float(num.max(where=kept, initial=-math.inf)))
            vmax = max(vmax, float(np.abs(block).max(where=kept, initial=0.0)))
            if dmin == dmax:
                first = float(num[kept][0]) if first is None else first
                step = math.gcd(step, int(np.gcd.reduce((num[kept] - first).astype(np.int64))))
    out = np.isneginf(keys)
    excluded = int(np.count_nonzero(out))
    if form is None or excluded == keys.size or not max(abs(nmin), abs(nmax), dmax) < 2.0**53:
        return None
    if excluded:  # just below the smallest key, not −inf: the keys' range stays narrow (cheaper to sort)
        keys[out] = np.nextafter(keys.min(where=~out, initial=math.inf), -math.inf)
    del out
    if dmin == dmax:
        if (nmax - nmin) // max(step, 1) <= 4 * (keys.size - excluded) + (1 << 16):
            return None  # few integer keys: the general path counts them with one bincount
        bound = dmax * vmax  # distinct ratios of one denominator differ by at least 1/D
    else:
        bound = dmax**2 * vmax
    if not injective(bound):
        return None
    grouped = group_sorted(
        form, keys.reshape(-1), None, None, weights.reshape(-1), check=None, strategy="float-injective", skip=excluded
    )
    return MetricDistribution(
        grouped.values,
        grouped.masses,
        grouped.counts,
        metric=m.name,
        model=label,
        pruned_mass=pruned,
        lattice_points=keys.size - excluded,
        strategy=f"{grouped.strategy} (lean)",
        undefined_excluded=undefined is None,
        check_total=True,
    )
