"""The statistics of items that come in clusters: the cluster-robust standard error of a mean, the
intraclass correlation, the design effect and the effective size.

Small pure functions of arrays: ``values`` holds one number per item (its mean score over its
rows), ``clusters`` each item's cluster as an integer code ``0 … C − 1`` (every code present).
Without clusters each item is its own cluster and the clustered error is the naive one up to the
finite-cluster factor.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["clustered_std_error", "design_effect", "effective_size", "icc", "naive_std_error"]


def naive_std_error(values: np.ndarray) -> float:
    """The sample standard deviation over √n: the error of a mean of independent items.

    NaN for fewer than two items.

    >>> naive_std_error(np.array([1.0, 0.0, 1.0, 1.0]))  # √(0.25) / 2
    0.25
    """
    n = values.size
    if n < 2:
        return math.nan
    return float(np.std(values, ddof=1) / math.sqrt(n))


def clustered_std_error(values: np.ndarray, clusters: np.ndarray) -> float:
    """The cluster-robust standard error of the mean of ``values``.

    ``√(C/(C − 1) · Σ_c (Σ_{i∈c} (x_i − x̄))²) / n`` over the ``n`` items in ``C`` clusters: the
    sandwich estimator of Miller (2024, "Adding error bars to evals", Appendix A) with the
    finite-cluster correction C/(C − 1), as Inspect's ``stderr(cluster=)`` computes it. NaN for
    fewer than two clusters.

    >>> clustered_std_error(np.array([1.0, 1.0, 0.0, 0.0]), np.array([0, 0, 1, 1]))  # √(2·(1 + 1))/4
    0.5
    """
    n = values.size
    count = int(clusters.max()) + 1 if n else 0
    if count < 2:
        return math.nan
    sums = np.bincount(clusters, weights=values - values.mean(), minlength=count)
    return float(math.sqrt(count / (count - 1) * float(np.dot(sums, sums))) / n)


def icc(values: np.ndarray, clusters: np.ndarray) -> float:
    """The intraclass correlation of ``values`` within clusters: the one-way ANOVA estimator.

    ``(MSB − MSW) / (MSB + (n₀ − 1)·MSW)`` with ``n₀ = (n − Σ m_c²/n)/(C − 1)`` for clusters of
    sizes ``m_c`` (equal sizes: ``n₀ = m``). It can fall below 0 by chance (down to
    ``−1/(n₀ − 1)``); it is returned as estimated. NaN for fewer than two clusters, for clusters
    of one item each, or when every value is equal.

    >>> icc(np.array([1.0, 1.0, 0.0, 0.0]), np.array([0, 0, 1, 1]))  # identical within, distinct between
    1.0
    >>> icc(np.array([1.0, 0.0, 1.0, 0.0]), np.array([0, 0, 1, 1]))  # every cluster alike: −1/(n₀ − 1)
    -1.0
    """
    n = values.size
    count = int(clusters.max()) + 1 if n else 0
    if count < 2 or n <= count:
        return math.nan
    sizes = np.bincount(clusters, minlength=count).astype(np.float64)
    means = np.bincount(clusters, weights=values, minlength=count) / sizes
    grand = values.mean()
    between = float(np.dot(sizes, (means - grand) ** 2)) / (count - 1)
    within = float(np.sum((values - means[clusters]) ** 2)) / (n - count)
    n0 = (n - float(np.dot(sizes, sizes)) / n) / (count - 1)
    denominator = between + (n0 - 1.0) * within
    if denominator <= 0.0:
        return math.nan
    return (between - within) / denominator


def design_effect(icc: float, sizes: np.ndarray) -> float:
    """How many times the variance of a mean exceeds that of as many independent items.

    ``1 + (Σ m_c²/n − 1)·ρ`` for clusters of sizes ``m_c`` (``n = Σ m_c``) whose items correlate
    with ``ρ`` within a cluster (equal sizes: Kish's ``1 + (m − 1)·ρ``). A negative or undefined
    ICC (chance, or clusters of one item) is taken as 0: the design effect is then 1.

    >>> design_effect(0.1, np.array([10, 10, 10]))
    1.9
    >>> design_effect(float("nan"), np.array([1, 1]))
    1.0
    """
    rho = icc if icc > 0.0 else 0.0  # NaN > 0 is False
    n = float(sizes.sum())
    return 1.0 + (float(np.dot(sizes, sizes)) / n - 1.0) * rho


def effective_size(n: int, design_effect: float) -> float:
    """The number of independent items that would give a mean the same variance: ``n / deff``.

    >>> effective_size(300, 1.5)
    200.0
    """
    return n / design_effect
