"""The expected calibration error, the Brier score, and their stratified bootstrap.

``ECE = Σ_b (k_b/N)·|ō_b − q̄_b|`` over the non-empty bins, with ``k_b`` the bin's count,
``ō_b`` its observed frequency and ``q̄_b`` its mean forecast; the Brier score is
``(1/N)·Σ_i (q_i − y_i)²``. Their intervals come from one bootstrap stratified by bin:
each resample draws, in every bin, ``k_b`` of that bin's (forecast, outcome) pairs with
replacement, so the bins and their counts stay those observed; the interval is the
central one of the resampled values by the library's discrete quantile rule (smallest
value whose empirical CDF reaches (1 ∓ c)/2). The cost is ``n_resamples × N`` draws,
made in chunks of at most :data:`CHUNK` indices.
"""

from __future__ import annotations

import numpy as np

from ._bins import Bins
from ._poisson_binomial import central_interval

__all__ = ["CHUNK", "bootstrap", "brier_score", "expected_calibration_error", "percentile_interval"]

#: Most indices drawn at once by the bootstrap (about 16 MiB of int64).
CHUNK = 1 << 21
#: Bytes per resample held at once (the ECE and Brier values, and a bin's partial sums).
BYTES_PER_RESAMPLE = 48.0


def expected_calibration_error(bins: Bins) -> float:
    """``Σ_b (k_b/N)·|ō_b − q̄_b|``."""
    total = float(bins.counts.sum())
    return float(np.sum(bins.counts / total * np.abs(bins.observed_frequency - bins.mean_forecast)))


def brier_score(bins: Bins) -> float:
    """``(1/N)·Σ_i (q_i − y_i)²``."""
    return float(np.mean((bins.q - bins.y) ** 2))


def bootstrap(bins: Bins, n_resamples: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """``(ece, brier)``: ``n_resamples`` values of each from the bootstrap stratified by bin."""
    total = float(bins.counts.sum())
    ece = np.zeros(n_resamples)
    brier = np.zeros(n_resamples)
    squared = (bins.q - bins.y) ** 2
    for b, k in enumerate(bins.counts.tolist()):
        start = int(bins.starts[b])
        q, y, d = (arr[start : start + k] for arr in (bins.q, bins.y, squared))
        rows = max(1, CHUNK // k)
        for first in range(0, n_resamples, rows):
            r = min(rows, n_resamples - first)
            idx = rng.integers(0, k, size=(r, k))
            ece[first : first + r] += np.abs(y[idx].sum(axis=1) - q[idx].sum(axis=1)) / total
            brier[first : first + r] += d[idx].sum(axis=1) / total
    return ece, brier


def percentile_interval(draws: np.ndarray, confidence: float) -> tuple[float, float]:
    """The central ``confidence`` interval of equally weighted ``draws`` (the library's quantile rule).

    >>> percentile_interval(np.arange(1.0, 101.0), 0.9)
    (5.0, 95.0)
    """
    values = np.sort(draws)
    lo, hi = central_interval(np.ones(values.size), confidence)
    return float(values[lo]), float(values[hi])
