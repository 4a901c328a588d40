"""The interval of the population's ECE: every bin's mean outcome bounded at once, then projected.

Given the forecasts and their bins, the population's ECE is ``θ = Σ_b (k_b/N)·|Δ_b|`` with
``Δ_b = p̄_b − q̄_b``, the bin's mean true probability of the outcome minus its mean forecast.
The plug-in ``Σ_b (k_b/N)·|ō_b − q̄_b|`` is biased upwards (``|·|`` of a noisy difference), and a
bootstrap of it is centred on that bias: for calibrated forecasts (θ = 0) a percentile interval
held 0 in none of 200 test sets.

Instead each bin's ``p̄_b`` gets a Clopper–Pearson interval at level ``c^(1/B)`` (Šidák over the
``B`` independent bins), so that with probability at least ``c`` every ``p̄_b`` lies in its
interval; then ``θ`` lies between the smallest and the largest ``Σ_b (k_b/N)·|Δ_b|`` over those
intervals. The number of positives of a bin is Poisson-binomial with mean ``k_b·p̄_b``, whose
tails are no heavier than the binomial's with that mean (Hoeffding, *On the distribution of the
number of successes in independent trials*, Ann. Math. Statist. 27 (1956) 713–721), so the
Clopper–Pearson interval of the binomial is conservative for ``p̄_b``. The interval holds the
population's ECE with probability at least ``c`` (measured: benchmarks/RESULTS.md); it holds 0
exactly when every bin's interval holds its mean forecast, and it is never a point (a bin of one
forecast leaves ``p̄_b`` anywhere in [0, 1] but for the outcome's side).
"""

from __future__ import annotations

import numpy as np

from ._bins import Bins

__all__ = ["ece_interval"]


def ece_interval(bins: Bins, confidence: float) -> tuple[float, float]:
    """The central ``confidence`` interval of the population's ECE (see the module docstring).

    >>> from ._bins import bin_forecasts
    >>> b = bin_forecasts(np.array([0.2, 0.2, 0.8, 0.8]), np.array([0, 1, 1, 1], bool), 2, "uniform")
    >>> lo, hi = ece_interval(b, 0.9)
    >>> lo, round(hi, 3)
    (0.0, 0.713)
    """
    from scipy import special  # here, not at import: `import confusionlab` loads no scipy

    k = bins.counts.astype(np.float64)
    positives = bins.positives.astype(np.float64)
    alpha = -np.expm1(np.log(confidence) / k.size)  # 1 − c^(1/B), without cancellation
    low = np.where(positives > 0, special.betaincinv(np.maximum(positives, 1), k - positives + 1, alpha / 2), 0.0)
    high = np.where(positives < k, special.betaincinv(positives + 1, np.maximum(k - positives, 1), 1 - alpha / 2), 1.0)
    q = bins.mean_forecast
    nearest = np.maximum.reduce([np.zeros_like(q), low - q, q - high])
    farthest = np.maximum(np.abs(low - q), np.abs(high - q))
    w = k / k.sum()
    return float(np.sum(w * nearest)), float(np.sum(w * farthest))
