"""The standard error of a mean of items, naive or cluster-robust (the intraclass correlation, the
design effect and the effective size are :mod:`confusionlab.models.cluster`'s, shared with every job).

Small pure functions of arrays: ``values`` holds one number per item (its mean score over its
rows), ``clusters`` each item's cluster as an integer code ``0 … C − 1`` (every code present).
Without clusters each item is its own cluster and the clustered error is the naive one up to the
finite-cluster factor.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["clustered_std_error", "naive_std_error"]


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
