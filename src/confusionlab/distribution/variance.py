"""The law of total variance of an equal-weight mixture: a test-set part and a refit part.

A model refitted R times (other seeds) and scored on a new test set gives the mixture of
the refits' distributions. Its variance splits into the mean of the refits' variances
(the spread a new test set adds) and the variance, ddof = 0, of their means (the spread
between refits): :func:`decompose`, the one implementation of that split.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._validation import (
    InvalidParameterError,
    check_real_array,
)

__all__ = ["decompose", "decompose_rows"]


def decompose(means: Any, variances: Any) -> dict[str, float]:
    """Law of total variance of an equal-weight mixture, from its components' moments.

    ``test_set_sd² = mean of the variances`` (the spread a new test set adds),
    ``refit_sd² = variance (ddof = 0) of the means`` (the spread between refits) and
    ``total_sd² = their sum`` (the mixture's own variance).

    Parameters
    ----------
    means, variances : array-like of float
        Each component's mean and variance (one per refit).

    Returns
    -------
    dict
        ``{"test_set_sd", "refit_sd", "total_sd"}``.

    Notes
    -----
    Infinite moments are reported, not hidden. A component whose mean is ±inf (a metric
    that is ±inf with positive mass, e.g. LR+ where FPR = 0 < TPR) has an infinite
    variance, so the test-set part is inf; the spread of means some of which are
    infinite is undefined (NaN); the total is the mixture's variance: inf, or NaN when
    +inf and −inf both carry mass (or a component's mean is already NaN). A single
    component has no refit spread (0).

    Examples
    --------
    >>> parts = decompose([0.5, 0.7], [0.01, 0.03])
    >>> [round(parts[k] ** 2, 6) for k in ("test_set_sd", "refit_sd", "total_sd")]
    [0.02, 0.01, 0.03]
    >>> decompose([float("inf"), 0.5], [float("inf"), 0.01])
    {'test_set_sd': inf, 'refit_sd': nan, 'total_sd': inf}
    """
    m = check_real_array(means, "means")
    v = check_real_array(variances, "variances")
    if m.size == 0 or m.size != v.size:
        raise InvalidParameterError(
            f"means and variances must hold one number per component each, got {m.size} and {v.size}"
        )
    if np.any(v < 0):
        raise InvalidParameterError(f"variances must be ≥ 0 (or NaN), got {v[v < 0][:3].tolist()}")
    test = float(np.mean(v))  # inf when a variance is, NaN when one is NaN
    if m.size <= 1:
        refit = 0.0
        total = test
    elif np.all(np.isfinite(m)):
        refit = float(np.var(m))
        total = test + refit
    else:
        infinite = m[np.isinf(m)]
        refit = math.nan
        both_signs = infinite.size and (infinite > 0).any() and (infinite < 0).any()
        total = math.nan if np.isnan(m).any() or both_signs or math.isnan(test) else math.inf
    return {"test_set_sd": math.sqrt(test), "refit_sd": math.sqrt(refit), "total_sd": math.sqrt(total)}


def decompose_rows(means: np.ndarray, variances: np.ndarray) -> list[dict[str, float]]:
    """:func:`decompose` of each row of ``means`` and ``variances`` (shape (groups, R)), in
    array operations; the rows with an infinite or NaN mean go through :func:`decompose`."""
    m = np.asarray(means, dtype=np.float64)
    v = np.asarray(variances, dtype=np.float64)
    test = np.mean(v, axis=1)
    refit = np.var(m, axis=1) if m.shape[1] > 1 else np.zeros(m.shape[0])
    with np.errstate(invalid="ignore"):
        sds = np.sqrt(np.stack([test, refit, test + refit], axis=1)).tolist()
    finite = np.isfinite(m).all(axis=1).tolist()
    keys = ("test_set_sd", "refit_sd", "total_sd")
    return [dict(zip(keys, row, strict=True)) if ok else decompose(m[i], v[i])
            for i, (row, ok) in enumerate(zip(sds, finite, strict=True))]  # fmt: skip
