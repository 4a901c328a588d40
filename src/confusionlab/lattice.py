"""The confusion simplex and its slices.

All binary confusion matrices with ``N`` examples are the weak compositions of
``N`` into four parts, ``C(N+3, 3)`` of them. The isometric map

    x = FN − TN/3,  y = FP − TN/3,  z = TP − TN/3

sends them onto a regular tetrahedron and preserves distances between count
vectors. A *slice* fixes ``p`` (so ``n = N − p``): a ``(p+1) × (n+1)`` lattice of
``(TP, TN)`` that ROC space shows rescaled by ``1/n`` and ``1/p``.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

import numpy as np

from ._validation import InvalidParameterError, check_count, check_memory

__all__ = [
    "MAX_SIMPLEX_POINTS",
    "SimplexPoints",
    "isometric",
    "largest_simplex",
    "simplex_counts",
    "simplex_points",
    "slice_lattice",
]

#: Largest simplex that :func:`simplex_points` builds (N = 492 has 20.3 million points).
MAX_SIMPLEX_POINTS = 20_000_000


def largest_simplex() -> int:
    """The largest ``N`` whose simplex, ``C(N+3, 3)`` points, is within :data:`MAX_SIMPLEX_POINTS`.

    Returns
    -------
    int
        The largest test-set size whose every confusion matrix :func:`simplex_points` builds.

    Examples
    --------
    >>> largest_simplex(), comb(largest_simplex() + 3, 3) <= MAX_SIMPLEX_POINTS < comb(largest_simplex() + 4, 3)
    (491, True)
    """
    N = round((6 * MAX_SIMPLEX_POINTS) ** (1 / 3))  # C(N+3, 3) ≈ (N+2)³/6
    while comb(N + 3, 3) > MAX_SIMPLEX_POINTS:
        N -= 1
    while comb(N + 4, 3) <= MAX_SIMPLEX_POINTS:
        N += 1
    return N


def slice_lattice(p: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The ``(TP, TN)`` lattice of the slice with ``p`` positives and ``n`` negatives.

    Returns ``tp`` as a column ``(p+1, 1)`` and ``tn`` as a row ``(1, n+1)`` (int64),
    which broadcast to the full ``(p+1, n+1)`` lattice without materialising it.

    Examples
    --------
    >>> tp, tn = slice_lattice(2, 3)
    >>> (tp + tn).shape
    (3, 4)
    """
    p = check_count(p, "p")
    n = check_count(n, "n")
    check_memory(
        8.0 * (p + n + 2),
        f"the axes of the slice p={p:,}, n={n:,}",
        "a slice this large cannot be enumerated; model it with tail pruning (confusionlab.models.slice_model)",
    )
    return np.arange(p + 1, dtype=np.int64)[:, None], np.arange(n + 1, dtype=np.int64)[None, :]


def isometric(tp: np.ndarray, fn: np.ndarray, fp: np.ndarray, tn: np.ndarray, *, centre: bool = True) -> np.ndarray:
    """Isometric 3-D coordinates ``(x, y, z)`` of confusion matrices, shape ``(..., 3)``.

    With ``centre=True`` the tetrahedron's centroid ``(N/6, N/6, N/6)`` is moved to
    the origin (``N`` taken per matrix).

    >>> isometric(np.array(0), np.array(0), np.array(0), np.array(3), centre=False)
    array([-1., -1., -1.])
    """
    tp, fn, fp, tn = (np.asarray(a, dtype=np.float64) for a in (tp, fn, fp, tn))
    third = tn / 3.0
    xyz = np.stack(np.broadcast_arrays(fn - third, fp - third, tp - third), axis=-1)
    if centre:
        xyz = xyz - ((tp + fn + fp + tn) / 6.0)[..., None]
    return xyz


@dataclass(frozen=True)
class SimplexPoints:
    """All ``C(N+3, 3)`` confusion matrices with ``N`` examples.

    Attributes
    ----------
    N : int
    counts : ndarray, shape (M, 4)
        Columns TP, FN, FP, TN (int64).
    xyz : ndarray, shape (M, 3)
        Centred isometric coordinates; TP is the z axis.
    """

    N: int
    counts: np.ndarray
    xyz: np.ndarray

    @property
    def tp(self) -> np.ndarray:
        return self.counts[:, 0]

    @property
    def fn(self) -> np.ndarray:
        return self.counts[:, 1]

    @property
    def fp(self) -> np.ndarray:
        return self.counts[:, 2]

    @property
    def tn(self) -> np.ndarray:
        return self.counts[:, 3]

    def __len__(self) -> int:
        return self.counts.shape[0]


def simplex_points(N: int) -> SimplexPoints:
    """Every confusion matrix with ``N`` examples and its isometric coordinates.

    Parameters
    ----------
    N : int
        Number of examples; ``C(N+3, 3)`` must not exceed :data:`MAX_SIMPLEX_POINTS`.

    Examples
    --------
    >>> pts = simplex_points(100)
    >>> len(pts)
    176851
    >>> bool((pts.counts.sum(axis=1) == 100).all())
    True
    """
    counts = simplex_counts(N)
    return SimplexPoints(int(N), counts, isometric(*counts.T))


def simplex_counts(N: int) -> np.ndarray:
    """Every confusion matrix with ``N`` examples as rows (TP, FN, FP, TN), in the order of
    :func:`simplex_points`: TP, then FN + FP, then FN increasing (no coordinates computed).

    Examples
    --------
    >>> simplex_counts(1).tolist()
    [[0, 0, 0, 1], [0, 0, 1, 0], [0, 1, 0, 0], [1, 0, 0, 0]]
    """
    N = check_count(N, "N")
    total = comb(N + 3, 3)
    if total > MAX_SIMPLEX_POINTS:
        raise InvalidParameterError(
            f"the simplex for N={N} has {total:,} points, more than the {MAX_SIMPLEX_POINTS:,} "
            f"this function builds in memory; use N <= {largest_simplex()}, or work on slices (slice_lattice)"
        )
    # (FN, FP) pairs ordered by FN + FP: those with FN + FP <= m are the first (m+1)(m+2)/2.
    s = np.repeat(np.arange(N + 1), np.arange(1, N + 2))
    first = np.arange(s.size) - s * (s + 1) // 2  # position within the anti-diagonal
    fn_t, fp_t = first, s - first
    remaining = N - np.arange(N + 1)  # for each TP: room left for FN + FP + TN
    lengths = (remaining + 1) * (remaining + 2) // 2
    starts = np.r_[0, np.cumsum(lengths)[:-1]]
    idx = np.arange(total) - np.repeat(starts, lengths)
    counts = np.empty((total, 4), dtype=np.int64)
    counts[:, 0] = np.repeat(np.arange(N + 1), lengths)
    np.take(fn_t, idx, out=counts[:, 1])
    np.take(fp_t, idx, out=counts[:, 2])
    np.subtract(N, counts[:, :3].sum(axis=1), out=counts[:, 3])
    return counts
