"""The simplex's lattice and what travels with it, computed without a widget.

The drawn matrices in the lattice order (:func:`lattice_columns`) and in the browser's
drawing order by level of detail (:func:`drawing_order`, :func:`drawing_permutation`,
:func:`level_ends`), the thinning of a large simplex (:func:`simplex_stride`), a metric's
values as a table of distinct floats and one code per point (:func:`encode_values`).
"""

from __future__ import annotations

import functools
from math import comb

import numpy as np

from .._validation import InvalidParameterError, check_int

#: Largest N accepted. N = 300 has 4,590,551 matrices; above MAX_POINTS the simplex is
#: drawn thinned (see :func:`simplex_stride`).
MAX_N = 300

#: Default largest number of simplex points drawn one by one (N = 178 has 971,635;
#: every N up to 150, 585,276 points, is drawn whole).
MAX_POINTS = 1_000_000


def simplex_stride(N: int, max_points: int) -> int:
    """Smallest k such that the matrices with TP, FN and FP multiples of k number at most
    ``max_points``; there are ``C(N // k + 3, 3)`` of them.

    Examples
    --------
    >>> simplex_stride(150, 1_000_000)
    1
    >>> simplex_stride(300, 1_000_000)
    2
    """
    k = 1
    while comb(N // k + 3, 3) > max_points:
        k += 1
    return k


def drawing_order(N: int, stride: int = 1) -> tuple[np.ndarray, list[int]]:
    """The matrices the simplex draws, in drawing order: counts (M, 4) and the ends of the levels.

    The drawn matrices are those whose TP, FN and FP are multiples of ``stride``
    (all of them when ``stride`` is 1), enumerated with TP, then FN + FP, then FN
    increasing (the order of :func:`~confusionlab.lattice.simplex_points`, the *lattice
    order*) and then grouped, in that order within each group, by level of detail: the
    coarse surface of the tetrahedron (a count is 0; TP, FN and FP even multiples of the
    stride), the rest of the surface, the coarse interior, the rest. ``ends`` are the ends
    of the four levels (the last is M). The browser enumerates the same points in the
    same order from ``(N, stride)`` alone (``js/confusion_simplex/lattice.js``), so only
    per-point values travel; :func:`drawing_permutation` maps this order to the lattice
    order.

    Parameters
    ----------
    N : int
        Number of examples (0 or more).
    stride : int
        Positive step of TP, FN and FP.

    Examples
    --------
    >>> counts, ends = drawing_order(2)
    >>> counts[:3].tolist(), ends
    ([[0, 0, 0, 2], [0, 0, 2, 0], [0, 2, 0, 0]], [4, 10, 10, 10])
    """
    order, ends = drawing_permutation(N, stride)
    return np.take(lattice_columns(N, stride).astype(np.int64), order, axis=0), ends


def drawing_permutation(N: int, stride: int = 1) -> tuple[np.ndarray, list[int]]:
    """Where each drawn point sits in the lattice order: ``order`` (M,) and the ends of the levels.

    Point ``i`` of :func:`drawing_order` is matrix ``order[i]`` of :func:`lattice_columns`
    (TP, then FN + FP, then FN increasing). The widget sends one code per matrix in the
    lattice order; the browser reorders them with the same permutation, which it builds
    while it enumerates the points (view geometry, ``js/confusion_simplex/lattice.js``).

    Examples
    --------
    >>> order, ends = drawing_permutation(2)
    >>> order.tolist(), ends
    ([0, 3, 5, 9, 1, 2, 4, 6, 7, 8], [4, 10, 10, 10])
    """
    return _level_order(lattice_columns(N, stride), stride)


def _level_order(columns: np.ndarray, stride: int) -> tuple[np.ndarray, list[int]]:
    """:func:`drawing_permutation` of the lattice ``columns`` (:func:`lattice_columns`)."""
    small = columns[:, :3].astype(np.int64)
    if stride > 1:
        small //= stride
    a, b, c = small.T
    surface = (columns == 0).any(axis=1)
    odd = ((a | b | c) & 1).astype(bool)
    # Stable grouping by level (coarse surface, surface, coarse interior, rest): one
    # boolean mask per level instead of a sort.
    masks = (surface & ~odd, surface & odd, ~surface & ~odd, ~surface & odd)
    parts = [np.flatnonzero(m) for m in masks]
    ends = np.cumsum([part.size for part in parts]).tolist()
    return np.concatenate(parts), ends


def level_ends(N: int, stride: int = 1) -> list[int]:
    """Ends of the four levels of :func:`drawing_order`, counted without enumerating a point.

    Interior matrices (every count positive) have ``a, b, c >= 1`` with ``a + b + c <= K``,
    ``K = (N - 1) // stride``: ``C(K, 3)`` of them; the coarse ones (``a, b, c`` even)
    number ``C(M // 2 + 3, 3)`` with ``M = N // stride``, of which ``C(K // 2, 3)`` are
    interior.

    Examples
    --------
    >>> level_ends(2), level_ends(100)
    ([4, 10, 10, 10], [5002, 20002, 38426, 176851])
    """
    N = check_int(N, "N", minimum=0)
    stride = check_int(stride, "stride", minimum=1)
    M, K = N // stride, max(N - 1, 0) // stride
    total, interior = comb(M + 3, 3), comb(K, 3)
    coarse, coarse_interior = comb(M // 2 + 3, 3), comb(K // 2, 3)
    coarse_surface = coarse - coarse_interior
    surface = total - interior
    return [coarse_surface, surface, surface + coarse_interior, total]


def lattice_columns(N: int, stride: int = 1) -> np.ndarray:
    """The drawn matrices (TP, FN, FP, TN) in the lattice order, shape (M, 4), float64 (column-major).

    The order of :func:`~confusionlab.lattice.simplex_counts` (TP, then FN + FP, then
    FN increasing) restricted to TP, FN and FP multiples of ``stride``; the codes the
    widget sends follow it. Counts up to N = 300 are exact in float64, the type the
    metrics compute in.

    Examples
    --------
    >>> lattice_columns(1).tolist()
    [[0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]]
    """
    N, stride = _checked_lattice(N, stride)
    # Block a (TP = stride·a) holds the pairs (b, c) with b + c <= M - a in the order of
    # s = b + c, then b: the first (M - a + 1)(M - a + 2)/2 pairs of one list, so each
    # column is written block by block from slices of that list (no index arrays).
    M = N // stride
    b, c = _pairs(M)
    lengths = [(M - a + 1) * (M - a + 2) // 2 for a in range(M + 1)]
    columns = np.empty((sum(lengths), 4), dtype=np.float64, order="F")  # contiguous columns
    tp, fn, fp, tn = columns.T
    start = 0
    for a, length in enumerate(lengths):
        end = start + length
        tp[start:end] = stride * a
        fn[start:end] = b[:length]
        fp[start:end] = c[:length]
        start = end
    if stride > 1:
        columns[:, 1:3] *= stride
    np.subtract(N - tp, fn, out=tn)
    tn -= fp
    return columns


def _checked_lattice(N: int, stride: int) -> tuple[int, int]:
    """``(N, stride)`` checked: integers, N >= 0, stride >= 1, at most 10 × MAX_POINTS matrices."""
    N = check_int(N, "N", minimum=0)
    stride = check_int(stride, "stride", minimum=1)
    if comb(N // stride + 3, 3) > 10 * MAX_POINTS:
        raise InvalidParameterError(
            f"the simplex N={N} with stride={stride} has {comb(N // stride + 3, 3):,} points, more than "
            f"{10 * MAX_POINTS:,}; use a larger stride (simplex_stride)."
        )
    return N, stride


@functools.lru_cache(maxsize=1)
def _pair_list(M: int) -> tuple[np.ndarray, np.ndarray]:
    """(b, c) of every b + c <= M, in the order of s = b + c, then b (float64, read-only)."""
    s = np.repeat(np.arange(M + 1), np.arange(1, M + 2))
    b = (np.arange(s.size) - s * (s + 1) // 2).astype(np.float64)
    c = s - b
    b.flags.writeable = c.flags.writeable = False
    return b, c


def _pairs(M: int) -> tuple[np.ndarray, np.ndarray]:
    """The first pairs of :func:`_pair_list`: those with b + c <= M (one list serves every M <= MAX_N)."""
    b, c = _pair_list(max(M, MAX_N))
    size = (M + 1) * (M + 2) // 2
    return b[:size], c[:size]


def encode_values(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct values and per-point codes: ``table[codes]`` equals ``values`` exactly.

    The table is sorted (NaN last, once; -0.0 and 0.0 are one entry); codes are uint16
    when the table has at most 65,536 entries, else uint32. Equal floats share a code
    and distinct floats never do (values one ulp apart are two entries).

    Examples
    --------
    >>> table, codes = encode_values(np.array([0.5, -1.0, 0.5, np.nan]))
    >>> table.tolist(), codes.tolist(), codes.dtype.name
    ([-1.0, 0.5, nan], [1, 0, 1, 2], 'uint16')
    """
    values = np.asarray(values, dtype=np.float64).ravel()
    # np.unique(values, return_inverse=True) without its int64 inverse and NaN search:
    # one argsort (NaN last), a flag where the sorted value changes, and each run of
    # equal values given its rank in the narrow code type, scattered back.
    order = np.argsort(values)
    ordered = values[order]
    new = np.empty(values.size, dtype=bool)
    new[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    if values.size and np.isnan(ordered[-1]):  # NaNs sort last; NaN != NaN, so keep the first one only
        new[int(np.searchsorted(ordered, np.nan)) + 1 :] = False  # searchsorted finds the first NaN
    starts = np.flatnonzero(new)
    table = ordered[starts]
    codes = np.empty(values.size, dtype=np.uint16 if table.size <= 65_536 else np.uint32)
    codes[order] = np.repeat(np.arange(table.size, dtype=codes.dtype), np.diff(starts, append=values.size))
    return table, codes
