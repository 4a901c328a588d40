"""The p-value of calibration: how often calibrated forecasts give an ECE at least as large.

If the forecasts were calibrated, each outcome would be a Bernoulli draw with its own
forecast; the ECE depends on the outcomes only through the bins' numbers of positives
``K_b`` (``ECE = Σ_b |K_b − S_b| / N``, with ``S_b`` the sum of bin ``b``'s forecasts),
and ``K_b`` is exactly Poisson-binomial with bin ``b``'s forecasts. So drawing every
outcome from its forecast and summing is the same, in distribution, as drawing each
``K_b`` from its exact PMF — which costs ``n_draws × bins`` draws instead of
``n_draws × N``. The p-value is ``(1 + #{ECE* ≥ ECE}) / (1 + n_draws)`` (Davison &
Hinkley's Monte Carlo p-value, valid at every ``n_draws``: under calibration
P(p ≤ α) ≤ α); its Monte Carlo standard error is ``√(p(1 − p)/n_draws)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ._poisson_binomial import PoissonBinomial

__all__ = ["CalibrationTest", "calibration_test", "ece_statistic", "monte_carlo_test", "null_ece"]

#: Relative tolerance under which a drawn ECE counts as equal to the observed one.
_TIE = 1e-12


#: The attributes ``p_value()`` used to return and ``test()`` returns now.
MOVED_TO_TEST = ("p_value", "mc_error", "statistic", "n_draws")


@dataclass(frozen=True)
class CalibrationTest:
    """The Monte Carlo test of calibration.

    Attributes
    ----------
    p_value : float
        P(ECE ≥ observed | calibrated), estimated as ``(1 + hits) / (1 + n_draws)``.
    mc_error : float
        Its Monte Carlo standard error, ``√(p(1 − p) / n_draws)``.
    statistic : float
        The observed ECE.
    n_draws : int
        Monte Carlo draws of the outcomes.
    """

    p_value: float
    mc_error: float
    statistic: float
    n_draws: int

    def __float__(self) -> float:
        return self.p_value


def ece_statistic(positives: np.ndarray, sums: np.ndarray, total: int) -> np.ndarray:
    """``Σ_b |K_b − S_b| / N`` over the last axis (the ECE, written in counts)."""
    return np.abs(positives - sums).sum(axis=-1) / total


def calibration_test(
    pmfs: list[PoissonBinomial],
    positives: np.ndarray,
    sums: np.ndarray,
    total: int,
    n_draws: int,
    rng: np.random.Generator,
) -> CalibrationTest:
    """The test from the bins' PMFs, observed positives and forecast sums (see the module docstring)."""
    observed = float(ece_statistic(positives.astype(np.float64), sums, total))
    return monte_carlo_test(null_ece(pmfs, sums, total, n_draws, rng), observed)


def null_ece(
    pmfs: list[PoissonBinomial], sums: np.ndarray, total: int, n_draws: int, rng: np.random.Generator
) -> np.ndarray:
    """``n_draws`` ECEs of calibrated outcomes, bin by bin: each bin's counts of positives drawn from
    its exact PMF (inverse CDF) and added in, so one bin's draws are held at a time (memory
    ``n_draws``, not ``n_draws × bins``)."""
    null = np.zeros(n_draws)
    for pb, s in zip(pmfs, sums.tolist(), strict=True):
        cdf = np.cumsum(pb.pmf)
        u = rng.random(n_draws) * cdf[-1]
        k = np.minimum(np.searchsorted(cdf, u, side="right"), cdf.size - 1) + pb.offset
        null += np.abs(k - s)
    return null / total


def monte_carlo_test(null: np.ndarray, observed: float) -> CalibrationTest:
    """The Monte Carlo p-value ``(1 + #{null ≥ observed}) / (1 + n_draws)`` and its standard error."""
    n_draws = int(null.size)
    hits = int(np.count_nonzero(null >= observed - _TIE * max(observed, 1.0)))
    p = (1 + hits) / (1 + n_draws)
    return CalibrationTest(p_value=p, mc_error=math.sqrt(p * (1.0 - p) / n_draws), statistic=observed, n_draws=n_draws)
