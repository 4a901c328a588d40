"""Exact grouping of lattice points by metric value.

The PMF of a metric is the push-forward of a lattice PMF: the masses of all
lattice points with the *same* metric value are added. "Same" is decided on exact
rational keys (:class:`~confusionlab.metrics.ExactForm`), never on float equality,
yet the work is one sort, faster than the inexact ``np.unique`` on floats:

1. If the denominator is constant (accuracy, balanced accuracy … inside a slice),
   the integer numerator is the key: counted with ``bincount`` when its range is
   small, else sorted as integers.
2. Otherwise the float ``f = num / den`` is a key that never splits a value:
   numerator and denominator are integers below 2**53, so both are exact floats
   and IEEE division rounds the real ratio correctly; equal ratios give the very
   same double. It can only *merge* distinct ratios that round to the same
   double, so:

   * if ``D**2 * V < 2**51`` (``D`` the largest denominator, ``V`` the largest
     ``|f|``), distinct ratios differ by at least ``1/D**2``, more than the
     spacing of doubles near ``V``: ``f`` is injective, nothing to check;
   * otherwise each pair of neighbours with identical ``f`` is checked exactly,
     ``num_a * den_b == num_b * den_a``, in wrapping int64 arithmetic, which is
     exact modulo 2**64. Identical doubles bound the true difference by
     ``D**2 * V * 2**-51``; while that is below 2**63, zero modulo 2**64 proves
     equality, so the check is exact, not probabilistic.
3. Beyond 2**53 the ratios are reduced by their gcd first (canonical pairs,
   compared as integers).
4. Beyond int64 (MCC at N = 100,000), :func:`group_clustered` sorts on the ratio in
   float64, whose relative error is bounded, and decides the few runs of
   neighbours closer than that bound with Python integers.

Any run of identical doubles holding distinct exact values (never seen in
practice, but handled) is re-sorted with :class:`fractions.Fraction`.

The sort (:func:`~confusionlab.sorting.sort_doubles`, with
:func:`~confusionlab.sorting.sort_exactly` and :func:`~confusionlab.sorting.resolve_collisions` in
:mod:`confusionlab.sorting`) is numpy's vectorised int64 sort of packed keys — the double's order-
preserving bits with the point's index in the low bits — rather than an ``argsort`` (about three
times slower); the few neighbours the packing leaves unordered (doubles within ``2**k`` ulps) are
re-sorted on the doubles. Groups are then summed from their first point, the few tied points added
in sorted order (or by runs of the sorted masses when ties are many), and each group's value is
computed once, from one representative. Slice forms
(:meth:`~confusionlab.metrics.Metric._exact_on_slice`) bring bounds that spare the scans of the
lattice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise

import numpy as np

from .metrics import ExactForm
from .sorting import gather, resolve_collisions, sort_exactly

__all__ = [
    "APPROXIMATE_RELATIVE_ERROR",
    "EXACT_FLOAT",
    "WRAP_LIMIT",
    "Grouped",
    "group_clustered",
    "group_exact",
    "group_sorted",
    "injective",
    "merge_equal_doubles",
    "resolve_collisions",  # from confusionlab.sorting
    "sort_exactly",  # from confusionlab.sorting
]

#: Integers below this are exact doubles: a ratio of two of them is correctly rounded.
EXACT_FLOAT = 2.0**53
#: Largest bound ``D**2 * V`` for which identical doubles are decided exactly by int64
#: cross-products modulo 2**64: then ``|num_a*den_b - num_b*den_a| < D**2 * V * 2**-51 < 2**62``.
WRAP_LIMIT = 2.0**113


@dataclass(frozen=True)
class Grouped:
    """Unique exact values (ascending), their masses and lattice-point counts."""

    values: np.ndarray
    masses: np.ndarray
    counts: np.ndarray
    strategy: str


def group_exact(form: ExactForm, weights: np.ndarray, defined: np.ndarray | None = None) -> Grouped:
    """Group lattice points on the exact value of ``form`` (distinct rationals stay apart even
    when they are the same double: a distribution merges those, :func:`merge_equal_doubles`).

    Parameters
    ----------
    form : ExactForm
        Integer numerators and denominators (broadcastable to ``weights``), as
        int64 or as float64 holding integers below 2**53.
    weights : ndarray
        Mass of each lattice point.
    defined : ndarray of bool, optional
        Points to group (default: all; the caller removes undefined points).

    Returns
    -------
    Grouped
    """
    return _group_exact_keys(form, weights, defined)


def merge_equal_doubles(grouped: Grouped) -> Grouped:
    """``grouped`` with neighbouring values equal as doubles merged (masses and counts added):
    a distribution has one atom per double (F-beta at β = 10¹¹ has ratios closer than a
    double's spacing).

    >>> g = Grouped(np.array([0.0, 0.5, 0.5, 1.0]), np.array([0.1, 0.2, 0.3, 0.4]), np.array([1, 1, 2, 1]), "float")
    >>> m = merge_equal_doubles(g)
    >>> m.values.tolist(), m.masses.tolist(), m.counts.tolist()
    ([0.0, 0.5, 1.0], [0.1, 0.5, 0.4], [1, 3, 1])
    """
    values = grouped.values
    if values.size < 2 or bool(np.all(values[1:] != values[:-1])):
        return grouped
    starts = np.flatnonzero(np.r_[True, values[1:] != values[:-1]])
    return Grouped(
        values[starts],
        np.add.reduceat(grouped.masses, starts),
        np.add.reduceat(grouped.counts, starts),
        grouped.strategy,
    )


def _group_exact_keys(form: ExactForm, weights: np.ndarray, defined: np.ndarray | None) -> Grouped:
    """:func:`group_exact` on the exact keys (values distinct as rationals)."""
    shape = np.shape(weights)
    w = np.asarray(weights, dtype=np.float64).reshape(-1)
    if defined is not None:
        excluded = np.flatnonzero(~np.asarray(defined).reshape(-1))
        if 0 < excluded.size <= w.size // 64:  # a few points out (0/0, x/0): no copies of the lattice
            grouped = _group_excluding(form, w, shape, excluded)
            if grouped is not None:
                return grouped

    def flat(a: np.ndarray) -> np.ndarray:
        out = np.broadcast_to(a, shape).reshape(-1)
        return out if defined is None else out[keep]

    if defined is None:
        den_view = np.asarray(form.den)  # often 1-D or constant along an axis: cheap to scan
    else:
        keep = np.asarray(defined).reshape(-1)
        w = w[keep]
        den_view = flat(form.den)
    if w.size == 0:
        empty = np.empty(0)
        return Grouped(empty, empty, np.empty(0, dtype=np.int64), "empty")

    if form.bounds is not None:  # upper bounds known without scanning the lattice
        nmax, dmax, vmax = form.bounds
        if nmax < EXACT_FLOAT and dmax < EXACT_FLOAT:
            f = flat(np.true_divide(form.num, form.den)) if defined is None else flat(form.num) / flat(form.den)
            grouped = _group_float(form, f, flat(form.num), flat(form.den), w, float(dmax) ** 2 * vmax)
            if grouped is not None:
                return grouped
    else:
        dmin, dmax = den_view.min(), den_view.max()
        if dmin == dmax:
            return _group_integer_keys(form, flat(form.num).astype(np.int64, copy=False), int(dmax), w)
        num_view = np.asarray(form.num) if defined is None else flat(form.num)
        nmax = max(-int(num_view.min()), int(num_view.max()))
        if nmax < EXACT_FLOAT and dmax < EXACT_FLOAT:
            f = flat(np.true_divide(form.num, form.den)) if defined is None else num_view / den_view
            vmax = max(-float(f.min()), float(f.max()))
            grouped = _group_float(form, f, flat(form.num), flat(form.den), w, float(dmax) ** 2 * vmax)
            if grouped is not None:
                return grouped
    num, den = flat(form.num).astype(np.int64, copy=False), flat(form.den).astype(np.int64, copy=False)
    g = np.gcd(num, den)
    num, den = num // g, den // g
    f = num / den.astype(np.float64)
    return group_sorted(form, f, num, den, w, check="reduced", strategy="gcd")


def _group_float(
    form: ExactForm,
    f: np.ndarray,
    num: np.ndarray,
    den: np.ndarray,
    w: np.ndarray,
    bound: float,
    skip: int = 0,
) -> Grouped | None:
    """The float paths, given ``bound = D**2 * V`` (None: beyond the wrapped check)."""
    if injective(bound):
        return group_sorted(form, f, num, den, w, check=None, strategy="float-injective", skip=skip)
    if bound < WRAP_LIMIT:
        return group_sorted(form, f, num, den, w, check="wrapped", strategy="float+check", skip=skip)
    return None


def _group_excluding(form: ExactForm, w: np.ndarray, shape: tuple[int, ...], excluded: np.ndarray) -> Grouped | None:
    """The float paths of :func:`group_exact` with a few points left out, on the whole lattice.

    The left-out points get the ratio −inf: every other ratio is finite (``den > 0``), so
    they sort first and are dropped from the sorted order, instead of copying the lattice
    without them. The bounds (largest numerator, denominator and ratio) are taken over
    all points, or the left-out ones set to harmless values, so they can only be larger
    than the defined points' — the checks stay exact. Returns None where another path
    applies (a constant denominator, integers beyond 2**53, ratios beyond the wrapped check).
    """
    num = np.broadcast_to(form.num, shape).reshape(-1)
    den = np.broadcast_to(form.den, shape).reshape(-1)
    if form.bounds is not None:
        nmax, dmax, vmax = form.bounds
    else:
        dmax = den.max()
        kept_den = den.copy()
        kept_den[excluded] = dmax
        if kept_den.min() == dmax:  # constant on the defined points: integer keys are cheaper
            return None
        nmax = max(-float(num.min()), float(num.max()))
    if not (nmax < EXACT_FLOAT and dmax < EXACT_FLOAT):
        return None
    with np.errstate(divide="ignore", invalid="ignore"):
        f = np.true_divide(num, den)
    if form.bounds is None:
        f[excluded] = 0.0
        vmax = max(-float(f.min()), float(f.max()))
    f[excluded] = -np.inf
    return _group_float(form, f, num, den, w, float(dmax) ** 2 * vmax, skip=excluded.size)


def injective(bound: float) -> bool:
    """Whether doubles separate distinct ratios below ``bound``.

    Parameters
    ----------
    bound : float
        ``D**2 * V`` for ratios of integers below :data:`EXACT_FLOAT` (``D`` the largest
        denominator, ``V`` the largest ``|num/den|``; ``D * V`` for one constant denominator).

    Returns
    -------
    bool
        True when distinct ratios differ by more than the spacing of doubles near ``V``, so
        that equal doubles mean equal ratios.

    Examples
    --------
    >>> injective(1e6), injective(2.0**60)
    (True, False)
    """
    return bound < 2.0**51


def _group_integer_keys(form: ExactForm, key: np.ndarray, den: int, w: np.ndarray) -> Grouped:
    kmin = int(key.min())
    shifted = key - kmin
    step = int(np.gcd.reduce(shifted)) or 1  # e.g. balanced accuracy at p = n: keys are multiples of n
    span = (int(key.max()) - kmin) // step
    if span <= 4 * key.size + (1 << 16):
        if step > 1:
            shifted = shifted // step
        counts = np.bincount(shifted, minlength=span + 1)
        masses = np.bincount(shifted, weights=w, minlength=span + 1)
        present = np.flatnonzero(counts)
        keys = present * step + kmin
        return Grouped(form.value(keys, np.full(keys.shape, den)), masses[present], counts[present], "bincount")
    order = np.argsort(key, kind="stable")
    ks = key[order]
    starts = np.concatenate(([0], np.flatnonzero(ks[1:] != ks[:-1]) + 1))
    counts = np.diff(starts, append=ks.size)
    masses = np.add.reduceat(w[order], starts)
    keys = ks[starts]
    return Grouped(form.value(keys, np.full(keys.shape, den)), masses, counts, "integer-sort")


#: Up to one tie in this many points, groups are summed from their first point (else by runs).
_FEW_TIES = 8


def group_sorted(
    form: ExactForm,
    f: np.ndarray,
    num: np.ndarray | None,
    den: np.ndarray | None,
    w: np.ndarray,
    *,
    check: str | None,
    strategy: str,
    skip: int = 0,
) -> Grouped:
    """Group points on exact values by one sort (:func:`sort_exactly`), adding their masses.

    Parameters
    ----------
    form : ExactForm
        The metric's exact form (turns a representative ratio into the metric's value).
    f : ndarray
        Each point's ratio ``num/den`` as a correctly rounded double (never NaN).
    num, den : ndarray or None
        The exact numerators and denominators, read only to decide identical doubles.
    w : ndarray
        Each point's mass.
    check : {None, "wrapped", "reduced"}
        How neighbours with identical doubles are decided (see :func:`sort_exactly`).
    strategy : str
        The name recorded in the result.
    skip : int, default 0
        The number of smallest points (ratio −inf) left out.

    Returns
    -------
    Grouped
        The distinct values ascending, their masses and numbers of points.

    Examples
    --------
    >>> from confusionlab.metrics import get_metric
    >>> form = get_metric("recall").exact(np.array([1, 2, 1]), np.array([1, 2, 3]), 0, 0)
    >>> f = np.asarray(form.num / form.den, dtype=np.float64)
    >>> g = group_sorted(form, f, None, None, np.array([0.5, 0.25, 0.25]), check=None, strategy="demo")
    >>> g.values.tolist(), g.masses.tolist(), g.counts.tolist()
    ([0.25, 0.5], [0.25, 0.75], [1, 2])
    """
    order, same = sort_exactly(f, num, den, check=check, skip=skip)
    ties = np.flatnonzero(same)  # order[i + 1] joins the group of order[i]
    if ties.size > order.size // _FEW_TIES:  # many ties: sum each group's run of the sorted masses
        starts = np.flatnonzero(np.concatenate(([True], ~same)))
        counts = np.empty(starts.size, dtype=np.int64)
        np.subtract(starts[1:], starts[:-1], out=counts[:-1])
        counts[-1] = order.size - starts[-1]
        masses = np.add.reduceat(gather(w, order), starts)
        reps = gather(order, starts)  # one representative per group
    else:  # few ties: the first point of each group, then the others added in sorted order
        if ties.size:
            first = np.ones(order.size, dtype=bool)
            first[ties + 1] = False
            reps = order[first]
        else:
            reps = order
        masses = gather(w, reps)
        counts = np.ones(reps.size, dtype=np.int64)
        if ties.size:
            group = ties - np.arange(ties.size)  # ties before position i + 1: the group's index
            np.add.at(masses, group, gather(w, gather(order, ties + 1)))  # in order, as a run sum would
            np.add.at(counts, group, 1)
    # f holds num/den: one representative per group gives the value without touching num, den again
    ratios = gather(f, reps)
    values = ratios if form.kind == "ratio" and form.scale == 1.0 else form.value(ratios, 1, overwrite=True)
    return Grouped(values, masses, counts, strategy)


#: Relative error bound of a metric's ratio num/den evaluated in float64 from integer
#: counts with N**2 < 2**53: the degree-2 terms (TP·TN − FP·FN, …) are exact, so only
#: the few final products and the division round, each by at most 2**-53.
APPROXIMATE_RELATIVE_ERROR = 8 * 2.0**-53


def group_clustered(
    ratio: np.ndarray,
    weights: np.ndarray,
    exact_ratios: Callable[[np.ndarray], list[Fraction]],
    value_of: Callable[[np.ndarray], np.ndarray],
    exact_pairs: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]] | None = None,
) -> Grouped:
    """Group on exact values when the exact integers do not fit in 64 bits.

    ``ratio`` is each point's ``num/den`` evaluated in float64 with relative error at
    most :data:`APPROXIMATE_RELATIVE_ERROR`. After one sort on it, two neighbours whose
    floats differ by more than twice that error are in their true order and distinct;
    only the runs of neighbours closer than that (few: exact ties, and the rare
    distinct values within a few ulps) are decided with Python integers, by
    ``exact_ratios(indices)`` (the :class:`~fractions.Fraction` ``num/den`` of those
    points), re-sorted and split exactly.

    Parameters
    ----------
    ratio, weights : ndarray
        Flat arrays over the points to group.
    exact_ratios : callable
        Positions into ``ratio`` → their exact ratios.
    value_of : callable
        Ratios (float) → metric values.
    exact_pairs : callable, optional
        Positions into ``ratio`` → their exact ``(num, den)`` as object arrays of Python
        integers. With it, the runs whose members are all exactly equal (the usual case:
        mirror ties such as MCC(TP, TN) = MCC(TN, TP) when p = n) are found by
        cross-multiplication in array operations, and only the others are sorted with
        :class:`~fractions.Fraction` (without it, a symmetric MCC slice at p = n = 50,000
        spent 25 s making a Fraction of every tied point).
    """
    order = np.argsort(ratio, kind="stable")
    fs = ratio[order]
    scale = np.maximum(np.abs(fs[1:]), np.abs(fs[:-1]))
    close = np.abs(fs[1:] - fs[:-1]) <= 2 * APPROXIMATE_RELATIVE_ERROR * scale
    same = np.zeros(fs.size - 1, dtype=bool)
    if close.any():
        order = order.copy()
        edges = np.diff(np.r_[0, close.astype(np.int8), 0])
        starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)  # runs of close pairs
        if exact_pairs is not None:  # runs of exactly equal members need no sort
            first = np.repeat(starts, ends - starts)  # each close pair (i, i + 1) against its run's first
            second = np.flatnonzero(close) + 1
            in_run = np.zeros(order.size, dtype=bool)
            in_run[first] = in_run[second] = True
            at = np.flatnonzero(in_run)  # sorted positions of the runs' members, ascending
            num, den = exact_pairs(order[at])
            a, b = np.searchsorted(at, first), np.searchsorted(at, second)
            equal = np.asarray(num[a] * den[b] == num[b] * den[a], dtype=bool)
            run_of_pair = np.repeat(np.arange(starts.size), ends - starts)
            mixed = np.zeros(starts.size, dtype=bool)
            np.logical_or.at(mixed, run_of_pair, ~equal)
            same[close] = True  # runs of equal members: every close pair joins its group
            same[close] &= np.repeat(~mixed, ends - starts)
            starts, ends = starts[mixed], ends[mixed]  # the rest: sorted exactly below
        members = np.concatenate([order[s : e + 1] for s, e in zip(starts, ends, strict=True)] or [order[:0]])
        exact = dict(zip(members.tolist(), exact_ratios(members), strict=True)) if members.size else {}
        for s, e in zip(starts, ends, strict=True):
            run = sorted(order[s : e + 1].tolist(), key=exact.__getitem__)
            order[s : e + 1] = run
            same[s:e] = [exact[a] == exact[b] for a, b in pairwise(run)]
    starts = np.concatenate(([0], np.flatnonzero(~same) + 1))
    counts = np.diff(starts, append=order.size)
    masses = np.add.reduceat(weights[order], starts)
    return Grouped(value_of(ratio[order][starts]), masses, counts, "float+exact-ties")
