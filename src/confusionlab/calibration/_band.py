"""The exact consistency band of a reliability diagram.

Given the forecasts, if they were calibrated the number of positives ``K_b`` in bin
``b`` would be Poisson-binomial with that bin's forecasts, and the bins' counts would
be independent (the bins depend on the forecasts only). Each bin's band is the central
interval ``[lo_b, hi_b]`` of ``K_b`` (the library's interval rule: it holds at least the
level asked), divided by the bin's count. Each bin is taken at level ``c^(1/B)``
(Šidák) for ``B`` non-empty bins, so that, by independence,

    P(every K_b ∈ [lo_b, hi_b]) = ∏_b P(K_b ∈ [lo_b, hi_b]) ≥ (c^(1/B))^B = c:

the band holds all the observed frequencies of calibrated forecasts with probability
at least ``c`` — exactly, with no resampling (Bröcker & Smith's consistency bars
resample the outcomes; these are their exact counterpart).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import check_confidence
from ._poisson_binomial import PoissonBinomial

__all__ = ["ConsistencyBand", "consistency_band", "sidak_level"]


def sidak_level(confidence: float, tests: int) -> float:
    """The level each of ``tests`` independent intervals takes so that all hold at ``confidence``.

    >>> round(sidak_level(0.95, 10), 6)
    0.994884
    """
    return float(check_confidence(confidence) ** (1.0 / tests))


@dataclass(frozen=True)
class ConsistencyBand:
    """Per non-empty bin, the range of observed frequencies consistent with calibration.

    ``lower, upper = band`` unpacks the frequencies.

    Attributes
    ----------
    lower, upper : numpy.ndarray
        The band's ends as frequencies (``lower_count / counts``, ``upper_count / counts``).
    lower_count, upper_count : numpy.ndarray
        The band's ends as numbers of positives.
    confidence : float
        The simultaneous level over all bins.
    per_bin_confidence : float
        The level of each bin's interval, ``confidence ** (1 / bins)``.
    outside : numpy.ndarray
        For each bin, whether its observed frequency lies outside the band.
    error_bound : float
        The largest bound on any bin's CDF error (the PMFs' ℓ₁ error bound).
    """

    lower: np.ndarray
    upper: np.ndarray
    lower_count: np.ndarray
    upper_count: np.ndarray
    confidence: float
    per_bin_confidence: float
    outside: np.ndarray
    error_bound: float

    def __iter__(self) -> Any:
        return iter((self.lower, self.upper))


def consistency_band(
    pmfs: list[PoissonBinomial], counts: np.ndarray, positives: np.ndarray, confidence: float
) -> ConsistencyBand:
    """The band at simultaneous level ``confidence`` from the bins' Poisson-binomial PMFs."""
    level = sidak_level(confidence, len(pmfs))
    ends = np.array([pb.interval(level) for pb in pmfs], dtype=np.int64).reshape(-1, 2)
    lo, hi = ends[:, 0], ends[:, 1]
    return ConsistencyBand(
        lower=lo / counts,
        upper=hi / counts,
        lower_count=lo,
        upper_count=hi,
        confidence=float(confidence),
        per_bin_confidence=level,
        outside=(positives < lo) | (positives > hi),
        error_bound=max((pb.error_bound for pb in pmfs), default=0.0),
    )
