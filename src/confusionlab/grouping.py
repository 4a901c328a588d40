"""Exact grouping of lattice points by metric value (SPEC A4).

The PMF of a metric is the push-forward of a lattice PMF: the masses of all
lattice points with the *same* metric value are added. "Same" is decided on exact
rational keys (:class:`~confusionlab.metrics.ExactForm`), never on float equality,
yet the work is one float sort, as fast as the inexact ``np.unique`` on floats:

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
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise

import numpy as np

from .metrics import ExactForm

__all__ = ["APPROXIMATE_RELATIVE_ERROR", "Grouped", "group_clustered", "group_exact", "sort_exactly"]

_EXACT_FLOAT = 2.0**53
_WRAP_LIMIT = 2.0**113  # then |num_a*den_b - num_b*den_a| < D**2 * V * 2**-51 < 2**62


@dataclass(frozen=True)
class Grouped:
    """Unique exact values (ascending), their masses and lattice-point counts."""

    values: np.ndarray
    masses: np.ndarray
    counts: np.ndarray
    strategy: str


def group_exact(form: ExactForm, weights: np.ndarray, defined: np.ndarray | None = None) -> Grouped:
    """Group lattice points on the exact value of ``form``.

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

    dmin, dmax = den_view.min(), den_view.max()
    if dmin == dmax:
        return _group_integer_keys(form, flat(form.num).astype(np.int64, copy=False), int(dmax), w)
    num_view = np.asarray(form.num) if defined is None else flat(form.num)
    nmax = max(-int(num_view.min()), int(num_view.max()))
    if nmax < _EXACT_FLOAT and dmax < _EXACT_FLOAT:
        f = flat(np.true_divide(form.num, form.den)) if defined is None else num_view / den_view
        vmax = max(-float(f.min()), float(f.max()))
        bound = float(dmax) ** 2 * vmax
        if _injective(bound):
            return _group_sorted(form, f, None, None, w, check=None, strategy="float-injective")
        if bound < _WRAP_LIMIT:
            return _group_sorted(form, f, flat(form.num), flat(form.den), w, check="wrapped", strategy="float+check")
    num, den = flat(form.num).astype(np.int64, copy=False), flat(form.den).astype(np.int64, copy=False)
    g = np.gcd(num, den)
    num, den = num // g, den // g
    f = num / den.astype(np.float64)
    return _group_sorted(form, f, num, den, w, check="reduced", strategy="gcd")


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
    dmax = den.max()
    kept_den = den.copy()
    kept_den[excluded] = dmax
    if kept_den.min() == dmax:  # constant on the defined points: integer keys are cheaper
        return None
    nmax = max(-float(num.min()), float(num.max()))
    if not (nmax < _EXACT_FLOAT and dmax < _EXACT_FLOAT):
        return None
    with np.errstate(divide="ignore", invalid="ignore"):
        f = np.true_divide(num, den)
    f[excluded] = 0.0
    bound = float(dmax) ** 2 * max(-float(f.min()), float(f.max()))
    f[excluded] = -np.inf
    if _injective(bound):
        return _group_sorted(form, f, None, None, w, check=None, strategy="float-injective", skip=excluded.size)
    if bound < _WRAP_LIMIT:
        return _group_sorted(form, f, num, den, w, check="wrapped", strategy="float+check", skip=excluded.size)
    return None


def _injective(bound: float) -> bool:
    """Whether ``D**2 * V`` is small enough for doubles to separate distinct ratios."""
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


def sort_exactly(
    f: np.ndarray,
    num: np.ndarray | None = None,
    den: np.ndarray | None = None,
    *,
    check: str | None = None,
    skip: int = 0,
) -> tuple[np.ndarray, np.ndarray]:
    """Sort points by exact value: the permutation, and which neighbours are exactly equal.

    ``f`` holds each point's ratio ``num/den`` as a correctly rounded double (see the
    module docstring for why that never splits a value). ``check`` says how neighbours
    with identical doubles are decided: ``None`` (doubles are injective here),
    ``"wrapped"`` (int64 cross-products modulo 2**64, exact below the module's bound)
    or ``"reduced"`` (``num``, ``den`` are gcd-reduced: compare them). Runs of one double
    holding distinct exact values are re-sorted with :class:`~fractions.Fraction`. The
    ``skip`` smallest points (ratio −inf: left out) are dropped from the order.

    Returns
    -------
    order : ndarray
        Indices sorting the points by value.
    same : ndarray of bool, length ``f.size - 1``
        ``same[i]``: the points ``order[i]`` and ``order[i + 1]`` have the same exact value.

    Examples
    --------
    >>> num, den = np.array([2, 1, 3]), np.array([4, 2, 4])
    >>> order, same = sort_exactly(num / den, num, den, check="wrapped")
    >>> order.tolist(), same.tolist()
    ([0, 1, 2], [True, False])
    """
    # numpy's default argsort (introsort, vectorised where the CPU allows) is
    # deterministic and about twice as fast here as the stable timsort; ties are
    # decided below, never by the order within a run of equal doubles.
    order = np.argsort(f)
    if skip:
        order = order[skip:]
    fs = f[order]
    same = fs[1:] == fs[:-1]
    if check is not None and num is not None and den is not None and same.any():
        pairs = np.flatnonzero(same)  # only neighbours with identical doubles need a check
        first, second = order[pairs], order[pairs + 1]
        if check == "reduced":  # reduced pairs are canonical
            equal = (num[first] == num[second]) & (den[first] == den[second])
        else:
            equal = _wrapped_equal(num, den, first, second)
        if not equal.all():  # identical doubles, distinct exact values
            order, same = _resolve_collisions(order, same, pairs[~equal], num, den)
    return order, same


def _group_sorted(
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
    order, same = sort_exactly(f, num, den, check=check, skip=skip)
    starts = np.concatenate(([0], np.flatnonzero(~same) + 1))
    counts = np.diff(starts, append=order.size)
    masses = np.add.reduceat(w[order], starts)
    # f holds num/den: one representative per group gives the value without touching num, den again
    ratios = f[order[starts]]
    values = ratios if form.kind == "ratio" and form.scale == 1.0 else form.value(ratios, 1.0)
    return Grouped(values, masses, counts, strategy)


def _wrapped_equal(num: np.ndarray, den: np.ndarray, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """``num_a * den_b - num_b * den_a == 0`` for the pairs ``(first, second)``, modulo 2**64.

    int64 products wrap around, which is exact arithmetic modulo 2**64; the caller
    guarantees the true difference is below 2**63 in size, so zero modulo 2**64
    means zero.
    """
    n1, d1 = num[first].astype(np.int64, copy=False), den[first].astype(np.int64, copy=False)
    n2, d2 = num[second].astype(np.int64, copy=False), den[second].astype(np.int64, copy=False)
    return n2 * d1 == n1 * d2


def _resolve_collisions(
    order: np.ndarray, same: np.ndarray, bad_pairs: np.ndarray, num: np.ndarray, den: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Re-sort the runs of identical doubles that hold distinct exact values."""
    order = order.copy()
    same = same.copy()
    run_starts = np.flatnonzero(np.r_[True, ~same])
    run_ends = np.r_[run_starts[1:], order.size]
    for run in np.unique(np.searchsorted(run_starts, bad_pairs, side="right") - 1):
        lo, hi = int(run_starts[run]), int(run_ends[run])
        members = order[lo:hi]
        exact = [Fraction(int(num[i]), int(den[i])) for i in members]
        ranked = sorted(range(len(members)), key=exact.__getitem__)
        order[lo:hi] = members[ranked]
        sorted_exact = [exact[i] for i in ranked]
        same[lo : hi - 1] = [x == y for x, y in pairwise(sorted_exact)]
    return order, same


#: Relative error bound of a metric's ratio num/den evaluated in float64 from integer
#: counts with N**2 < 2**53: the degree-2 terms (TP·TN − FP·FN, …) are exact, so only
#: the few final products and the division round, each by at most 2**-53.
APPROXIMATE_RELATIVE_ERROR = 8 * 2.0**-53


def group_clustered(
    ratio: np.ndarray,
    weights: np.ndarray,
    exact_ratios: Callable[[np.ndarray], list[Fraction]],
    value_of: Callable[[np.ndarray], np.ndarray],
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
        members = np.concatenate([order[s : e + 1] for s, e in zip(starts, ends, strict=True)])
        exact = dict(zip(members.tolist(), exact_ratios(members), strict=True))
        for s, e in zip(starts, ends, strict=True):
            run = sorted(order[s : e + 1].tolist(), key=exact.__getitem__)
            order[s : e + 1] = run
            same[s:e] = [exact[a] == exact[b] for a, b in pairwise(run)]
    starts = np.concatenate(([0], np.flatnonzero(~same) + 1))
    counts = np.diff(starts, append=order.size)
    masses = np.add.reduceat(weights[order], starts)
    return Grouped(value_of(ratio[order][starts]), masses, counts, "float+exact-ties")
