"""Sorting lattice points by exact value with one int64 sort: :func:`sort_doubles` (the doubles'
order, with which neighbours are identical doubles), :func:`sort_exactly` (identical doubles
decided exactly: wrapped int64 cross-products or gcd-reduced pairs) and
:func:`resolve_collisions` (the rare runs of one double holding distinct exact values, re-sorted
with :class:`fractions.Fraction`). :mod:`confusionlab.grouping` adds the masses of each group;
its docstring says why a correctly rounded double never splits a value.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

import numpy as np

__all__ = ["gather", "resolve_collisions", "sort_doubles", "sort_exactly"]

_LOW_63 = np.int64(0x7FFFFFFFFFFFFFFF)
#: Points per block in loops that keep their temporaries in cache.
_BLOCK = 1 << 15
#: Beyond one near pair in this many points, :func:`sort_doubles` checks every neighbour.
_DENSE_RUNS = 16


def gather(a: np.ndarray, at: np.ndarray) -> np.ndarray:
    """``a[at]`` for indices known to be valid: ``np.take`` without the bounds checks (twice
    as fast as fancy indexing on large index arrays)."""
    return np.take(a, at, mode="clip")


def sort_doubles(f: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sort doubles with one int64 sort: the permutation, and which neighbours are identical doubles.

    numpy sorts int64 and float64 arrays with a vectorised quicksort (several times faster
    than ``argsort``, which has to move indices along). So each double is mapped to an int64
    that sorts like it (its bits, the 63 low ones flipped when negative), its ``k`` low
    bits are replaced by the point's index (``k`` bits hold every index), and these packed
    keys are sorted as integers; the index is read back from the low bits. Truncating the
    low bits keeps the order between doubles whose high bits differ, so only neighbours
    with equal high bits — the identical doubles, and doubles a few ulps apart (within
    ``2**k`` ulps) — can be out of order: those short runs are re-sorted on the doubles
    themselves (ties in index order). −0.0 and +0.0 fall in two
    adjacent runs (of −0.0 and the tiniest negative doubles, and of +0.0 and the tiniest
    positive ones), which are treated as one.

    ``f`` must hold no NaN (−inf and +inf are fine).

    Returns
    -------
    order : ndarray of int64
        Indices sorting ``f`` ascending; identical doubles in index order.
    same : ndarray of bool, length ``f.size - 1``
        ``same[i]``: ``f[order[i]] == f[order[i + 1]]``.

    Examples
    --------
    >>> order, same = sort_doubles(np.array([0.5, -2.0, 0.5, -0.0, 0.0]))
    >>> order.tolist(), same.tolist()
    ([1, 3, 4, 0, 2], [False, True, False, True])
    """
    f = np.ascontiguousarray(f, dtype=np.float64).reshape(-1)
    size = f.size
    if size < 2:
        return np.arange(size, dtype=np.int64), np.zeros(0, dtype=bool)
    k = (size - 1).bit_length()
    bits = f.view(np.int64)
    key = np.empty(size, dtype=np.int64)
    ukey = key.view(np.uint64)

    def ordered(x: float) -> int:  # the int64 that sorts like the double x
        b = int(np.float64(x).view(np.int64))
        return b ^ 0x7FFFFFFFFFFFFFFF if b < 0 else b

    # the keys are taken relative to the smallest, so that a narrow range of doubles keeps more of
    # its bits: shift drops only the low bits the range and the index leave no room for
    smallest, largest = float(f.min()), float(f.max())
    base = -1 if smallest == 0 else ordered(smallest)  # −0.0 (ordered −1) sorts with +0.0 (ordered 0)
    shift = max(0, ((0 if largest == 0 else ordered(largest)) - base).bit_length() + k - 63)
    base_u, shift_u = np.uint64(base % 2**64), np.uint64(shift)
    # block by block, so that each block stays in cache through the six steps
    block = min(size, _BLOCK)
    index = np.arange(block, dtype=np.uint64)
    for lo in range(0, size, block):
        part, b = key[lo : lo + block], bits[lo : lo + block]
        np.right_shift(b, 63, out=part)  # −1 where negative: flip the 63 low bits (larger magnitudes lower)
        part &= _LOW_63
        part ^= b
        upart = ukey[lo : lo + block]
        upart -= base_u  # modulo 2**64: the distance from the smallest, below 2**(63 - k + shift)
        upart >>= shift_u
        upart <<= np.uint64(k)
        upart |= index[: part.size]
        index += np.uint64(block)
    key.sort()
    near = np.empty(size - 1, dtype=bool)  # below 2**k exactly where the high bits agree
    temp = np.empty(block, dtype=np.int64)
    for lo in range(0, size - 1, block):
        hi = min(size - 1, lo + block)
        x = np.bitwise_xor(key[lo + 1 : hi + 1], key[lo:hi], out=temp[: hi - lo])
        np.less(x.view(np.uint64), np.uint64(1 << k), out=near[lo:hi])
    # the runs of −0.0 (ordered −1) and +0.0 (ordered 0): in one run already, or in two adjacent ones
    positive, negative = (0 - base) >> shift, (-1 - base) >> shift
    zero = int(np.searchsorted(key, positive << k)) if positive != negative and 0 <= negative else 0
    signed_zeros = 0 < zero < size and key[zero - 1] >= negative << k and key[zero] < (positive + 1) << k
    if signed_zeros:
        near[zero - 1] = True  # one run: −0.0 == +0.0
    order = key
    order &= np.int64((1 << k) - 1)
    count = int(np.count_nonzero(near))
    if count == 0:
        return order, np.zeros(size - 1, dtype=bool)
    if count > size // _DENSE_RUNS:  # many ties: check every neighbour
        pos, members, fm, opens = None, order, gather(f, order), ~near
    else:  # a few: only the points of the runs of near neighbours
        in_run = np.zeros(size, dtype=bool)
        in_run[:-1] = near
        in_run[1:] |= near
        pos = np.flatnonzero(in_run)
        members = gather(order, pos)
        fm = gather(f, members)
        opens = ~near[pos[:-1]]  # opens[i]: pos[i + 1] starts a new run
    # a run is in index order: it is sorted unless a neighbour inside it decreases
    down = fm[1:] < fm[:-1]
    down &= ~opens
    if signed_zeros:  # −0.0 and +0.0 compare equal: put them in index order too
        down[zero - 1 if pos is None else int(np.searchsorted(pos, zero - 1))] = True
    if down.any():  # runs out of order (distinct doubles a few ulps apart): re-sort them
        starts = np.flatnonzero(opens) + 1  # members[starts[i]] opens a run
        bounds = np.unique(np.searchsorted(starts, np.flatnonzero(down), side="right"))
        lo = np.concatenate(([0], starts))[bounds]
        hi = np.concatenate((starts, [members.size]))[bounds]
        lengths = hi - lo
        run = np.repeat(np.arange(lo.size), lengths)
        # the indices lo[i] … hi[i] − 1 of every run, concatenated, without a loop over runs
        sub = np.arange(int(lengths.sum()), dtype=np.int64) - np.repeat(np.cumsum(lengths) - lengths - lo, lengths)
        perm = sub[np.lexsort((members[sub], fm[sub], run))]
        members[sub], fm[sub] = members[perm], fm[perm]  # in place in order when pos is None
        if pos is not None:
            order[pos[sub]] = members[sub]
    equal = fm[1:] == fm[:-1]
    if pos is None:
        return order, equal
    same = np.zeros(size - 1, dtype=bool)
    inside = ~opens
    same[pos[:-1][inside]] = equal[inside]
    return order, same


def sort_exactly(
    f: np.ndarray,
    num: np.ndarray | None = None,
    den: np.ndarray | None = None,
    *,
    check: str | None = None,
    skip: int = 0,
) -> tuple[np.ndarray, np.ndarray]:
    """Sort points by exact value: the permutation, and which neighbours are exactly equal.

    ``f`` holds each point's ratio ``num/den`` as a correctly rounded double, never NaN
    (see :mod:`confusionlab.grouping` for why that never splits a value). ``check`` says how neighbours
    with identical doubles are decided: ``None`` (doubles are injective here),
    ``"wrapped"`` (int64 cross-products modulo 2**64, exact below :data:`~confusionlab.grouping.WRAP_LIMIT`)
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
    order, same = sort_doubles(f)
    if skip:
        order, same = order[skip:], same[skip:]
    if check is not None and num is not None and den is not None and same.any():
        pairs = np.flatnonzero(same)  # only neighbours with identical doubles need a check
        first, second = gather(order, pairs), gather(order, pairs + 1)
        if check == "reduced":  # reduced pairs are canonical
            equal = (num[first] == num[second]) & (den[first] == den[second])
        else:
            equal = _wrapped_equal(num, den, first, second)
        if not equal.all():  # identical doubles, distinct exact values
            order, same = resolve_collisions(order, same, pairs[~equal], num, den)
    return order, same


def _wrapped_equal(num: np.ndarray, den: np.ndarray, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """``num_a * den_b - num_b * den_a == 0`` for the pairs ``(first, second)``, modulo 2**64.

    int64 products wrap around, which is exact arithmetic modulo 2**64; the caller
    guarantees the true difference is below 2**63 in size, so zero modulo 2**64
    means zero.
    """
    n1, d1 = (gather(x, first).astype(np.int64, copy=False) for x in (num, den))
    n2, d2 = (gather(x, second).astype(np.int64, copy=False) for x in (num, den))
    return n2 * d1 == n1 * d2


def resolve_collisions(
    order: np.ndarray, same: np.ndarray, bad_pairs: np.ndarray, num: np.ndarray, den: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Re-sort the runs of identical doubles that hold distinct exact values.

    Parameters
    ----------
    order : ndarray
        Indices sorting the points by their doubles.
    same : ndarray of bool
        ``same[i]``: the points ``order[i]`` and ``order[i + 1]`` were taken as equal.
    bad_pairs : ndarray of int
        Positions ``i`` whose pair has identical doubles but distinct exact values.
    num, den : ndarray
        The exact numerators and denominators.

    Returns
    -------
    order, same : ndarray
        New arrays: each run that holds a bad pair sorted by :class:`~fractions.Fraction`,
        and ``same`` recomputed exactly within it.

    Examples
    --------
    >>> num, den = np.array([1, 6004799503160661]), np.array([3, 18014398509481984])
    >>> order, same = resolve_collisions(np.array([0, 1]), np.array([True]), np.array([0]), num, den)
    >>> order.tolist(), same.tolist()
    ([1, 0], [False])
    """
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
