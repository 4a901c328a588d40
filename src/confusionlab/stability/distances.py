r"""Distance functions δ and mean disagreement over ordered pairs.

All stability measures and Krippendorff's α share one building block: the mean distance
δ over the *ordered pairs of distinct elements* (pairs without replacement) of a sample.
For categorical data the sample is summarised by its category counts :math:`n_c`, and

.. math::

    \bar\delta = \frac{\sum_c \sum_k n_c\, n_k\, \delta(c, k)}{n (n - 1)},
    \qquad n = \sum_c n_c ,

which equals the mean over ordered pairs because δ(c, c) = 0. For metric data
δ(x, y) = (x − y)² and the mean over ordered pairs is twice the sample variance
(``ddof=1``), so no pair is ever formed explicitly.

Distances
---------
nominal
    δ(c, k) = [c ≠ k]
ordinal
    δ(c, k) = (Σ_{g=min(c,k)}^{max(c,k)} m_g − (m_c + m_k)/2)², with m_g the category counts
    of a reference sample (Krippendorff's ordinal metric)
metric
    δ(x, y) = (x − y)²
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .._validation import InvalidParameterError, check_int, check_memory

__all__ = [
    "mean_pair_distance",
    "mean_pair_squared_difference",
    "nominal_distances",
    "ordinal_distances",
    "ordinal_positions",
    "pair_distance_sums",
]


def _check_matrix_memory(k: int, name: str) -> None:
    check_memory(
        4.0 * 8.0 * k * k,
        f"a {k:,} × {k:,} distance matrix ({name})",
        "the stability measures never need it: phi, psi and krippendorff_alpha work from "
        "category counts (pair_distance_sums)",
    )


def nominal_distances(n_categories: int) -> np.ndarray:
    """Nominal distance matrix δ(c, k) = [c ≠ k].

    Parameters
    ----------
    n_categories : int
        Number of categories K (≥ 1).

    Returns
    -------
    numpy.ndarray
        K × K matrix of zeros (diagonal) and ones.

    Examples
    --------
    >>> from confusionlab.stability.distances import nominal_distances
    >>> nominal_distances(3)
    array([[0., 1., 1.],
           [1., 0., 1.],
           [1., 1., 0.]])
    """
    k = check_int(n_categories, "n_categories", minimum=1)
    _check_matrix_memory(k, "n_categories")
    return 1.0 - np.eye(k)


def ordinal_distances(reference_counts: ArrayLike) -> np.ndarray:
    r"""Krippendorff's ordinal distance matrix from reference category counts.

    Parameters
    ----------
    reference_counts : array_like of shape (K,)
        Counts m_g of each category (in category order) in the reference sample.

    Returns
    -------
    numpy.ndarray
        K × K symmetric matrix with
        δ(c, k) = (Σ_{g=min(c,k)}^{max(c,k)} m_g − (m_c + m_k)/2)².

    Examples
    --------
    With counts (2, 3, 5): δ(0, 1) = (2 + 3 − 2.5)² = 6.25 and
    δ(0, 2) = (2 + 3 + 5 − 3.5)² = 42.25.

    >>> from confusionlab.stability.distances import ordinal_distances
    >>> ordinal_distances([2, 3, 5])
    array([[ 0.  ,  6.25, 42.25],
           [ 6.25,  0.  , 16.  ],
           [42.25, 16.  ,  0.  ]])
    """
    m = _as_counts(reference_counts)
    _check_matrix_memory(m.size, "reference_counts")
    cum = np.concatenate(([0.0], np.cumsum(m)))
    lo = np.minimum.outer(np.arange(m.size), np.arange(m.size))
    hi = np.maximum.outer(np.arange(m.size), np.arange(m.size))
    between = cum[hi + 1] - cum[lo]  # Σ_{g=lo}^{hi} m_g
    delta = (between - (m[:, None] + m[None, :]) / 2.0) ** 2
    np.fill_diagonal(delta, 0.0)
    return delta


def _as_counts(reference_counts: ArrayLike) -> np.ndarray:
    try:
        m = np.asarray(reference_counts, dtype=np.float64)
    except (TypeError, ValueError):
        raise InvalidParameterError(
            f"reference_counts must be a 1-D array of counts; got {reference_counts!r}"[:300]
        ) from None
    if m.ndim != 1 or m.size < 1 or not np.all(np.isfinite(m)) or np.any(m < 0):
        raise InvalidParameterError(
            f"reference_counts must be a 1-D array of non-negative counts; got {m.tolist()}"[:300]
        )
    return m


def ordinal_positions(reference_counts: ArrayLike) -> np.ndarray:
    r"""Mid-rank position of each category: :math:`t_c = \sum_{g<c} m_g + m_c/2`.

    Krippendorff's ordinal distance is the squared difference of these positions: for
    c < k, :math:`\sum_{g=c}^{k} m_g - (m_c + m_k)/2 = (\sum_{g<k} m_g + m_k/2) -
    (\sum_{g<c} m_g + m_c/2) = t_k - t_c`, hence δ(c, k) = (t_k − t_c)². The ordinal
    scale is therefore the metric scale applied to mid-ranks, and mean distances need no
    K × K matrix.

    Examples
    --------
    >>> from confusionlab.stability.distances import ordinal_positions
    >>> ordinal_positions([2, 3, 5])
    array([1. , 3.5, 7.5])
    >>> float((ordinal_positions([2, 3, 5])[2] - 1.0) ** 2)  # δ(0, 2) = 42.25, as above
    42.25
    """
    m = _as_counts(reference_counts)
    return np.cumsum(m) - m / 2.0


def pair_distance_sums(counts: ArrayLike, positions: ArrayLike | None = None) -> np.ndarray:
    r"""Σ_{c,k} n_c n_k δ(c, k) per row of category counts, in O(K) per row.

    Parameters
    ----------
    counts : array_like of shape (..., K)
        Category counts.
    positions : array_like of shape (K,), optional
        :func:`ordinal_positions` for the ordinal distance; None for the nominal one.

    Returns
    -------
    numpy.ndarray of shape (...)
        Nominal: :math:`n^2 - \sum_c n_c^2`. Ordinal: :math:`2 n \sum_c n_c (t_c - \bar t)^2`
        with :math:`\bar t` the count-weighted mean position (the ordered-pair sum of squared
        differences of the positions). Divide by n(n − 1) for :func:`mean_pair_distance`.

    Examples
    --------
    >>> from confusionlab.stability.distances import pair_distance_sums
    >>> float(pair_distance_sums([2, 1]))  # (a, a, b): 4 disagreeing ordered pairs
    4.0
    """
    c = np.asarray(counts, dtype=np.float64)
    n = c.sum(axis=-1)
    if positions is None:
        return n * n - np.sum(c * c, axis=-1)
    t = np.asarray(positions, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(n > 0, (c @ t) / np.where(n > 0, n, 1.0), 0.0)
    spread = np.sum(c * (t - mean[..., None]) ** 2, axis=-1)
    return 2.0 * n * spread


def mean_pair_distance(counts: ArrayLike, delta: ArrayLike) -> np.ndarray:
    r"""Mean δ over ordered pairs of distinct elements, from category counts.

    Parameters
    ----------
    counts : array_like of shape (..., K)
        Category counts of one sample per leading index (e.g. one row per object).
    delta : array_like of shape (K, K)
        Distance matrix with zero diagonal.

    Returns
    -------
    numpy.ndarray of shape (...)
        :math:`\sum_{c,k} n_c n_k \delta_{ck} / (n(n-1))`; NaN where n < 2 (no pair).

    Examples
    --------
    Predictions (a, a, b): of the 6 ordered pairs, 4 disagree.

    >>> from confusionlab.stability.distances import mean_pair_distance, nominal_distances
    >>> float(mean_pair_distance([2, 1], nominal_distances(2)))
    0.6666666666666666
    """
    c = np.asarray(counts, dtype=np.float64)
    d = np.asarray(delta, dtype=np.float64)
    n = c.sum(axis=-1)
    num = np.einsum("...c,ck,...k->...", c, d, c)
    pairs = n * (n - 1.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(pairs > 0, num / np.where(pairs > 0, pairs, 1.0), np.nan)
    return out


def mean_pair_squared_difference(values: ArrayLike, axis: int = 0) -> np.ndarray:
    """Mean (x_j − x_l)² over ordered pairs j ≠ l, skipping NaN: twice the ddof=1 variance.

    Parameters
    ----------
    values : array_like
        Metric values; NaN marks missing values, which are skipped.
    axis : int
        Axis holding the sample (refits for a prediction matrix).

    Returns
    -------
    numpy.ndarray
        NaN where fewer than two values are present.

    Examples
    --------
    Pairs of (1, 2, 4): squared differences 1, 9, 4 in both orders, mean 14/3.

    >>> from confusionlab.stability.distances import mean_pair_squared_difference
    >>> round(float(mean_pair_squared_difference([1.0, 2.0, 4.0])), 6)
    4.666667
    """
    x = np.asarray(values, dtype=np.float64)
    present = ~np.isnan(x)
    n = present.sum(axis=axis)
    if present.all():
        ss = np.sum((x - x.mean(axis=axis, keepdims=True)) ** 2, axis=axis)
    else:
        filled = np.where(present, x, 0.0)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = filled.sum(axis=axis, keepdims=True) / np.expand_dims(n, axis)
        ss = np.sum(np.where(present, (filled - mean) ** 2, 0.0), axis=axis)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n >= 2, 2.0 * ss / np.where(n >= 2, n - 1.0, 1.0), np.nan)
