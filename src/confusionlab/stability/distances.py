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

Distances (SPEC C1)
-------------------
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

__all__ = [
    "mean_pair_distance",
    "mean_pair_squared_difference",
    "metric_distance",
    "nominal_distances",
    "ordinal_distances",
]


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
    if int(n_categories) < 1:
        raise ValueError(f"n_categories must be >= 1; got {n_categories!r}")
    k = int(n_categories)
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
    m = np.asarray(reference_counts, dtype=np.float64)
    if m.ndim != 1 or m.size < 1 or np.any(m < 0):
        raise ValueError("reference_counts must be a 1-D array of non-negative counts")
    cum = np.concatenate(([0.0], np.cumsum(m)))
    lo = np.minimum.outer(np.arange(m.size), np.arange(m.size))
    hi = np.maximum.outer(np.arange(m.size), np.arange(m.size))
    between = cum[hi + 1] - cum[lo]  # Σ_{g=lo}^{hi} m_g
    delta = (between - (m[:, None] + m[None, :]) / 2.0) ** 2
    np.fill_diagonal(delta, 0.0)
    return delta


def metric_distance(x: ArrayLike, y: ArrayLike) -> np.ndarray:
    """Metric distance δ(x, y) = (x − y)², elementwise.

    Examples
    --------
    >>> from confusionlab.stability.distances import metric_distance
    >>> metric_distance([1.0, 2.0], [4.0, 2.5])
    array([9.  , 0.25])
    """
    return (np.asarray(x, dtype=np.float64) - np.asarray(y, dtype=np.float64)) ** 2


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
