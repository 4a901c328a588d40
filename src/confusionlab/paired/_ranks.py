"""Exact ranks of metric values on a lattice of (TP, FP) points.

The paired comparison compares classifier A's metric with classifier B's point by
point, so it needs more than :func:`confusionlab.grouping.group_exact` gives (the
distinct values and their masses): it needs, for every lattice point, the *rank* of
its exact value among all distinct values. Two points get the same rank exactly
when their values are equal as real numbers; a smaller rank means a smaller value.

The proof is the one of :mod:`confusionlab.grouping`, whose :func:`~confusionlab.sorting.sort_exactly`
does the sorting:
each value is a strictly increasing function of the rational ``num/den`` of the
metric's :class:`~confusionlab.metrics.ExactForm`, so sorting the correctly rounded
doubles ``num/den`` sorts the values, equal ratios give identical doubles, and only
neighbours with identical doubles need an exact check (none when ``D²·V < 2**51``;
wrapped int64 products below 2**113; reduced pairs beyond 2**53). Runs of identical
doubles holding distinct ratios are re-sorted with :class:`fractions.Fraction`.

Beyond 64 bits (MCC at N ≳ 50,000, say) the few points of a Monte Carlo draw are ranked
with Python integers: each ratio ``num/den`` is divided as Python does it (correctly
rounded), so the same argument holds, and neighbours with identical doubles are compared
as :class:`fractions.Fraction`. That costs about a microsecond per point, so it is kept to
:data:`MAX_PYTHON_POINTS` points (an exact enumeration of a lattice that large is refused
before, by its memory estimate).

Points where the metric is 0/0 take the ``undefined`` value (0.0 by default, the
paper's convention) and tie with the defined points of exactly that value; x/0
points are ±inf and tie with each other.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..distribution import key_arithmetic as _arithmetic
from ..grouping import EXACT_FLOAT as _EXACT_FLOAT
from ..grouping import WRAP_LIMIT as _WRAP_LIMIT
from ..grouping import injective as _injective
from ..metrics import Metric
from ..sorting import resolve_collisions as _resolve_collisions
from ..sorting import sort_exactly

__all__ = ["MAX_PYTHON_POINTS", "Ranked", "exact_ranks"]

#: Points ranked with Python integers at most (beyond 64 bits): about a second.
MAX_PYTHON_POINTS = 4_000_000


@dataclass(frozen=True)
class Ranked:
    """``ranks[i]`` is the rank of point i's exact value; ``values[r]`` the float of rank r (ascending)."""

    ranks: np.ndarray
    values: np.ndarray


def exact_ranks(metric: Metric, tp: np.ndarray, fp: np.ndarray, p: int, n: int, undefined: float) -> Ranked:
    """Exact ranks of ``metric`` at the points ``(tp, fp)`` (same shape) of the slice ``(p, n)``.

    Raises
    ------
    ValueError
        When the exact keys need more than 64 bits and there are more than
        :data:`MAX_PYTHON_POINTS` points (use the Monte Carlo method).

    Examples
    --------
    >>> from confusionlab.metrics import get_metric
    >>> r = exact_ranks(get_metric("accuracy"), np.array([1, 2, 0]), np.array([1, 0, 0]), 2, 2, 0.0)
    >>> r.ranks.tolist(), r.values.tolist()
    ([0, 1, 0], [0.5, 1.0])
    """
    tp = np.asarray(tp, dtype=np.int64)
    fp = np.asarray(fp, dtype=np.int64)
    shape = tp.shape
    cols = (tp, p - tp, fp, n - fp)
    try:
        arithmetic = _arithmetic(metric, p + n, cols)
    except ValueError:  # degree-2 terms beyond 2**53: Python integers, exactly
        arithmetic = "clustered"
    if arithmetic == "clustered":
        if tp.size > MAX_PYTHON_POINTS:
            raise ValueError(
                f"{metric.name}'s exact keys at N = {p + n:,} need integers beyond 64 bits, and {tp.size:,} points "
                f"are more than the {MAX_PYTHON_POINTS:,} ranked with Python integers; use method='monte-carlo' "
                "(or a smaller future_size)"
            )
        return _python_ranks(metric, tp, fp, p, n, undefined)
    form = metric.exact(*cols, as_float=arithmetic == "float")
    where, undefined_at, sign_at = form.special_points(shape)
    size = int(np.prod(shape))
    defined = np.ones(size, dtype=bool)
    defined[where] = False
    num = np.broadcast_to(form.num, shape).reshape(-1)[defined]
    den = np.broadcast_to(form.den, shape).reshape(-1)[defined]
    ranks_defined, values = _rank_ratios(form, num, den)
    ranks = np.empty(size, dtype=np.int64)
    ranks[defined] = ranks_defined
    if where.size:
        special = np.where(undefined_at, undefined, np.where(sign_at > 0, np.inf, -np.inf))
        ranks, values = _merge_special(ranks, values, defined, where, special)
    return Ranked(ranks.reshape(shape), values)


def _python_ranks(metric: Metric, tp: np.ndarray, fp: np.ndarray, p: int, n: int, undefined: float) -> Ranked:
    """:func:`exact_ranks` with Python integers (keys beyond 64 bits; few points)."""
    shape = tp.shape
    size = tp.size
    flat_tp = [int(v) for v in tp.reshape(-1).tolist()]
    flat_fp = [int(v) for v in fp.reshape(-1).tolist()]
    cols = tuple(
        np.array(c, dtype=object) for c in (flat_tp, [p - v for v in flat_tp], flat_fp, [n - v for v in flat_fp])
    )
    form = metric._exact(*cols)
    where, undefined_at, sign_at = form.special_points((size,))
    defined = np.ones(size, dtype=bool)
    defined[where] = False
    num = np.broadcast_to(np.asarray(form.num, dtype=object), (size,))[defined]
    den = np.broadcast_to(np.asarray(form.den, dtype=object), (size,))[defined]
    ranks = np.empty(size, dtype=np.int64)
    values = np.empty(0)
    if num.size:
        f = np.array([int(a) / int(b) for a, b in zip(num.tolist(), den.tolist(), strict=True)], dtype=np.float64)
        order, same = sort_exactly(f)
        pairs = np.flatnonzero(same)
        if pairs.size:  # identical doubles: equal exactly when the cross products are
            first, second = order[pairs], order[pairs + 1]
            equal = np.array(
                [int(num[i]) * int(den[j]) == int(num[j]) * int(den[i]) for i, j in zip(first, second, strict=True)],
                dtype=bool,
            )
            if not equal.all():
                order, same = _resolve_collisions(order, same, pairs[~equal], num, den)
        group = np.concatenate(([0], np.cumsum(~same)))
        ranks_defined = np.empty(num.size, dtype=np.int64)
        ranks_defined[order] = group
        ranks[defined] = ranks_defined
        starts = np.concatenate(([0], np.flatnonzero(~same) + 1))
        reps = order[starts]
        values = np.asarray(form.value(f[reps], 1.0), dtype=np.float64)
    if where.size:
        special = np.where(undefined_at, undefined, np.where(sign_at > 0, np.inf, -np.inf))
        ranks, values = _merge_special(ranks, values, defined, where, special.astype(np.float64))
    return Ranked(ranks.reshape(shape), values)


def _rank_ratios(form, num: np.ndarray, den: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Ranks of the exact ratios ``num/den`` (``den > 0``) and the value of each rank."""
    if num.size == 0:
        return np.empty(0, dtype=np.int64), np.empty(0)
    dmin, dmax = den.min(), den.max()
    if dmin == dmax:  # constant denominator: the integer numerator is the key
        keys, inverse = np.unique(num, return_inverse=True)
        return inverse.reshape(-1).astype(np.int64), form.value(keys, np.full(keys.shape, dmax))
    nmax = max(-float(num.min()), float(num.max()))
    if nmax < _EXACT_FLOAT and float(dmax) < _EXACT_FLOAT:
        f = num / den if num.dtype.kind == "f" else num.astype(np.float64) / den.astype(np.float64)
        vmax = max(-float(f.min()), float(f.max()))
        bound = float(dmax) ** 2 * vmax
        if _injective(bound):
            order, same = sort_exactly(f)
        elif bound < _WRAP_LIMIT:
            order, same = sort_exactly(f, num.astype(np.int64), den.astype(np.int64), check="wrapped")
        else:
            order, same = sort_exactly(f, *_reduced(num, den), check="reduced")
    else:
        num, den = _reduced(num, den)
        order, same = sort_exactly(num / den.astype(np.float64), num, den, check="reduced")
    group = np.concatenate(([0], np.cumsum(~same)))
    ranks = np.empty(num.size, dtype=np.int64)
    ranks[order] = group
    starts = np.concatenate(([0], np.flatnonzero(~same) + 1))
    reps = order[starts]
    values = form.value(num[reps], den[reps])
    return ranks, np.asarray(values, dtype=np.float64)


def _reduced(num: np.ndarray, den: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``num/den`` in lowest terms (int64)."""
    n64, d64 = num.astype(np.int64), den.astype(np.int64)
    g = np.gcd(n64, d64)
    return n64 // g, d64 // g


def _merge_special(
    ranks: np.ndarray, values: np.ndarray, defined: np.ndarray, where: np.ndarray, special: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Give 0/0 and x/0 points the rank of their value (±inf, or ``undefined``), inserting new ranks."""
    distinct = np.unique(special)
    shift = np.zeros(values.size + 1, dtype=np.int64)  # new ranks inserted before old rank r
    mapping: dict[float, tuple[int, bool]] = {}
    for s in distinct.tolist():
        j = int(np.searchsorted(values, s, side="left"))
        if j < values.size and values[j] == s:
            mapping[s] = (j, False)
        else:
            mapping[s] = (j, True)
            shift[j] += 1
    offset = np.cumsum(shift)  # offset[r] = new ranks inserted at positions <= r
    new_values = np.empty(values.size + int(shift.sum()))
    old_new = np.arange(values.size) + offset[: values.size]
    new_values[old_new] = values
    out = ranks.copy()
    out[defined] = old_new[ranks[defined]] if values.size else ranks[defined]
    inserted_before = {}
    for s in distinct.tolist():  # ascending, so inserts at the same j keep their order
        j, new = mapping[s]
        if new:
            k = inserted_before.get(j, 0)
            r = j + (offset[j - 1] if j > 0 else 0) + k
            inserted_before[j] = k + 1
            new_values[r] = s
            mapping[s] = (r, True)
        else:
            mapping[s] = (int(old_new[j]), False)
    out[where] = [mapping[s][0] for s in special.tolist()]
    return out, new_values
