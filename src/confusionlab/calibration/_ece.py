"""The expected calibration error, the Brier score, and their stratified bootstrap.

``ECE = Σ_b (k_b/N)·|ō_b − q̄_b|`` over the non-empty bins, with ``k_b`` the bin's count,
``ō_b`` its observed frequency and ``q̄_b`` its mean forecast; the Brier score is
``(1/N)·Σ_i (q_i − y_i)²``. Their intervals come from one bootstrap stratified by bin:
each resample draws, in every bin, ``k_b`` of that bin's (forecast, outcome) pairs with
replacement, so the bins and their counts stay those observed; the interval is the
central one of the resampled values by the library's discrete quantile rule (smallest
value whose empirical CDF reaches (1 ∓ c)/2).

How a resample is drawn
-----------------------
A resample needs, per bin, only three sums over the drawn pairs: the number of positives
``K*``, the sum of the forecasts ``S*`` and the sum of the squared errors ``D*``
(``ECE* = Σ_b |K*_b − S*_b| / N`` and ``Brier* = Σ_b D*_b / N``). Drawing the ``k_b``
pairs one by one costs ``n_resamples × N`` draws (38 s at 10⁶ forecasts and 2000
resamples). Instead:

* **Small bins, exactly.** Bins of at most :data:`EXACT_MAX` forecasts are resampled
  pair by pair, smallest first, while the total stays within :data:`EXACT_BUDGET` draws.
* **Other bins: K* exactly, S* and D* by the central limit theorem.** The number of
  drawn positives is exactly ``K* ~ Binomial(k_b, k⁺_b / k_b)``. Given ``K* = m``, ``S*``
  and ``D*`` are sums of ``m`` independent draws from the bin's positives and ``k_b − m``
  from its negatives; they are drawn from the bivariate normal with those sums' exact
  means and covariance (the within-class moments, ``ddof=0``). ``K*`` has no error.

The error is stated, not hoped for. By Goldstein's ℓ₁ Berry–Esseen bound (L. Goldstein,
*Bounds on the constant in the mean central limit theorem*, Ann. Probab. 38 (2010)
1672–1689: for independent centred summands the Wasserstein-1 distance of their
standardised sum from N(0, 1) is at most ``Σ E|X_i|³`` — constant 1), the Wasserstein-1
distance between the exact and the normal ``S*`` given ``K* = m`` is at most
``r(m) = (m·ρ⁺ + (k − m)·ρ⁻) / (m·σ²⁺ + (k − m)·σ²⁻)`` (``ρ`` the class's third absolute
central moment of the forecasts, ``σ²`` its variance). Coupling ``K*`` identically and
the bins independently, ``|ECE* − ECE*′| ≤ Σ_b |S*_b − S*′_b| / N``, so the resampled ECE's
distribution is within Wasserstein-1 distance

    ε_ECE = Σ_b E_m[r_b(m)] / N       (m ~ Binomial, summed exactly over 0…k_b)

of the exact bootstrap's: there is a coupling under which each approximate resample
differs from an exact one by at most ``ε_ECE`` on average. Likewise for the Brier score
with the moments of the squared errors. ``r`` is of the order of the spread of the
forecasts within a bin, so ``ε`` is of the order of ``bins × spread / N`` — at 10⁶
forecasts in 10 bins about 10⁻⁶, a thousandth of the interval's width. The bound is
:attr:`BootstrapDraws.ece_error` (``Calibration.bootstrap_error``).

Bins known by their sums only
-----------------------------
When the bins were counted where the data lives (:func:`~._bins.bins_from_sums`: per bin and
outcome the count, the sums of the forecasts' powers 1 … 4 and their extremes), no bin can be
resampled pair by pair: every bin is drawn the second way, with the same exact within-class
means, variances and covariance (``S*`` and ``D*`` are polynomials of degree ≤ 2 in each
forecast, so their first two moments need the power sums up to 4). The third absolute central
moments of the bound are replaced by an upper bound, ``range × variance`` (``|X − μ| ≤ range``),
so :attr:`BootstrapDraws.ece_error` stays a bound. The Brier score itself is exact:
``Σ_i (q_i − y_i)² = Σ_negatives q² + Σ_positives (1 − 2q + q²)``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._bins import Bins
from ._poisson_binomial import central_interval

__all__ = [
    "CHUNK",
    "EXACT_BUDGET",
    "EXACT_MAX",
    "BootstrapDraws",
    "bootstrap",
    "brier_score",
    "expected_calibration_error",
    "percentile_interval",
]

#: Most indices drawn at once by the pair-by-pair bootstrap (about 16 MiB of int64).
CHUNK = 1 << 21
#: Bytes per resample held at once (the ECE and Brier values, a bin's draws and normals).
BYTES_PER_RESAMPLE = 48.0
#: Bins of at most this many forecasts are resampled pair by pair (exactly).
EXACT_MAX = 1000
#: Most pair-by-pair draws in all (``n_resamples × Σ k_b`` over the exact bins).
EXACT_BUDGET = 20_000_000


@dataclass(frozen=True)
class BootstrapDraws:
    """The resampled ECEs and Brier scores, with the bound on their approximation.

    Attributes
    ----------
    ece, brier : numpy.ndarray
        ``n_resamples`` resampled values of each (from the same resamples).
    ece_error, brier_error : float
        Bounds on the Wasserstein-1 distance between the distribution drawn and the exact
        stratified bootstrap's (0 when every bin was resampled pair by pair).
    exact_bins, normal_bins : int
        Bins resampled pair by pair, and bins whose sums were drawn by the normal approximation.
    """

    ece: np.ndarray
    brier: np.ndarray
    ece_error: float
    brier_error: float
    exact_bins: int
    normal_bins: int


def expected_calibration_error(bins: Bins) -> float:
    """``Σ_b (k_b/N)·|ō_b − q̄_b|``."""
    total = float(bins.counts.sum())
    return float(np.sum(bins.counts / total * np.abs(bins.observed_frequency - bins.mean_forecast)))


def brier_score(bins: Bins) -> float:
    """``(1/N)·Σ_i (q_i − y_i)²`` (from the power sums when the bins are :attr:`~Bins.summarised`)."""
    if bins.q is None:
        neg, pos = bins.class_sums[:, 0], bins.class_sums[:, 1]
        total = neg[:, 2].sum() + (pos[:, 0] - 2.0 * pos[:, 1] + pos[:, 2]).sum()
        return float(total / bins.counts.sum())
    return float(np.mean((bins.q - bins.y) ** 2))


def _exact_bins(counts: np.ndarray, n_resamples: int, exact_max: int, budget: int) -> np.ndarray:
    """Which bins are resampled pair by pair: the smallest ones within ``exact_max`` and ``budget``."""
    exact = np.zeros(counts.size, dtype=bool)
    used = 0
    for b in np.argsort(counts, kind="stable").tolist():
        k = int(counts[b])
        if k > exact_max or used + n_resamples * k > budget:
            break
        exact[b] = True
        used += n_resamples * k
    return exact


def _resample_exactly(q, y, d, n_resamples, rng, out_s, out_d):
    """``K* − S*`` and ``D*`` of ``n_resamples`` pair-by-pair resamples of one bin."""
    k = q.size
    rows = max(1, CHUNK // k)
    for first in range(0, n_resamples, rows):
        r = min(rows, n_resamples - first)
        idx = rng.integers(0, k, size=(r, k))
        out_s[first : first + r] = y[idx].sum(axis=1) - q[idx].sum(axis=1)
        out_d[first : first + r] = d[idx].sum(axis=1)


def _moments(x: np.ndarray) -> tuple[float, float, float]:
    """Mean, variance and third absolute central moment (``ddof=0``; zeros when empty)."""
    if x.size == 0:
        return 0.0, 0.0, 0.0
    mu = float(x.mean())
    c = x - mu
    return mu, float(np.mean(c * c)), float(np.mean(np.abs(c) ** 3))


def _wasserstein_bound(k: int, p: float, rho: tuple[float, float], var: tuple[float, float]) -> float:
    """``E_m[(m·ρ⁺ + (k − m)·ρ⁻) / (m·σ²⁺ + (k − m)·σ²⁻)]`` for ``m ~ Binomial(k, p)``."""
    m = np.arange(k + 1, dtype=np.float64)
    num = m * rho[0] + (k - m) * rho[1]
    den = m * var[0] + (k - m) * var[1]
    r = np.divide(num, den, out=np.zeros_like(num), where=den > 0)
    from scipy import stats  # here, not at the top: ``import confusionlab`` does not load scipy.stats

    return float(np.dot(stats.binom.pmf(np.arange(k + 1), k, p), r))


#: A class's moments for the normal draw: mean, variance and third absolute central moment (or a bound
#: on it) of the forecasts, the same of the squared errors, and the forecasts' covariance with them.
ClassMoments = tuple[float, float, float, float, float, float, float]


def _array_classes(q: np.ndarray, y: np.ndarray, d: np.ndarray) -> tuple[int, list[ClassMoments]]:
    """The positives' and the negatives' :data:`ClassMoments` of one bin's forecasts (and the positives)."""
    pos = y > 0.5
    classes = []
    for mask in (pos, ~pos):
        qc, dc = q[mask], d[mask]
        mq, vq, rq = _moments(qc)
        md, vd, rd = _moments(dc)
        cov = float(np.mean((qc - mq) * (dc - md))) if qc.size else 0.0
        classes.append((mq, vq, rq, md, vd, rd, cov))
    return int(pos.sum()), classes


def _sum_classes(sums: np.ndarray, ranges: np.ndarray) -> tuple[int, list[ClassMoments]]:
    """:data:`ClassMoments` of one bin from its power sums (``sums[c, j] = Σ q^j`` over outcome ``c``) and
    forecast ranges; the third absolute moments bounded by ``range × variance``."""
    classes = []
    for c in (1, 0):
        n = sums[c, 0]
        if n <= 0:
            classes.append((0.0,) * 7)
            continue
        m1, m2, m3, m4 = (sums[c, j] / n for j in range(1, 5))
        lo, hi = ranges[c]
        vq = max(m2 - m1 * m1, 0.0)
        if c == 0:  # d = q²
            md, second, cross = m2, m4, m3
            spread = hi * hi - lo * lo
        else:  # d = (1 − q)² = 1 − 2q + q²
            md = 1.0 - 2.0 * m1 + m2
            second = 1.0 - 4.0 * m1 + 6.0 * m2 - 4.0 * m3 + m4
            cross = m1 - 2.0 * m2 + m3
            spread = (1.0 - lo) ** 2 - (1.0 - hi) ** 2
        vd = max(second - md * md, 0.0)
        classes.append((m1, vq, (hi - lo) * vq, md, vd, max(spread, 0.0) * vd, cross - m1 * md))
    return round(float(sums[1, 0])), classes


def _resample_normally(
    k: int, n_pos: int, classes: list[ClassMoments], n_resamples: int, rng: np.random.Generator, out_s, out_d
) -> tuple[float, float]:
    """``K* − S*`` and ``D*`` with ``K*`` binomial and ``(S*, D*)`` normal given ``K*``; the two bounds."""
    (mq1, vq1, rq1, md1, vd1, rd1, c1), (mq0, vq0, rq0, md0, vd0, rd0, c0) = classes
    m = rng.binomial(k, n_pos / k, size=n_resamples).astype(np.float64)
    rest = k - m
    mean_s, var_s = m * mq1 + rest * mq0, m * vq1 + rest * vq0
    mean_d, var_d = m * md1 + rest * md0, m * vd1 + rest * vd0
    cov = m * c1 + rest * c0
    z = rng.standard_normal((2, n_resamples))
    sd_s = np.sqrt(var_s)
    slope = np.divide(cov, sd_s, out=np.zeros_like(cov), where=sd_s > 0)
    out_s[:] = m - (mean_s + sd_s * z[0])
    out_d[:] = mean_d + slope * z[0] + np.sqrt(np.maximum(var_d - slope**2, 0.0)) * z[1]
    p = n_pos / k
    return (
        _wasserstein_bound(k, p, (rq1, rq0), (vq1, vq0)),
        _wasserstein_bound(k, p, (rd1, rd0), (vd1, vd0)),
    )


def bootstrap(
    bins: Bins,
    n_resamples: int,
    rng: np.random.Generator,
    *,
    exact_max: int = EXACT_MAX,
    exact_budget: int = EXACT_BUDGET,
) -> BootstrapDraws:
    """``n_resamples`` resampled ECEs and Brier scores, stratified by bin (see the module docstring).

    ``exact_max=0`` draws every bin by the normal approximation; ``exact_max`` and
    ``exact_budget`` at least ``N`` and ``n_resamples × N`` resample every bin pair by pair.
    :attr:`~Bins.summarised` bins are all drawn the second way, from their power sums.
    """
    total = float(bins.counts.sum())
    ece = np.zeros(n_resamples)
    brier = np.zeros(n_resamples)
    summarised = bins.q is None
    squared = None if summarised else (bins.q - bins.y) ** 2
    if summarised:
        exact = np.zeros(bins.counts.size, dtype=bool)
    else:
        exact = _exact_bins(bins.counts, n_resamples, exact_max, exact_budget)
    s_row, d_row = np.empty(n_resamples), np.empty(n_resamples)
    err_s = err_d = 0.0
    for b, k in enumerate(bins.counts.tolist()):
        if summarised:
            n_pos, classes = _sum_classes(bins.class_sums[b], bins.class_ranges[b])
        else:
            start = int(bins.starts[b])
            q, y, d = (arr[start : start + k] for arr in (bins.q, bins.y, squared))
            if exact[b]:
                _resample_exactly(q, y, d, n_resamples, rng, s_row, d_row)
            else:
                n_pos, classes = _array_classes(q, y, d)
        if not exact[b]:
            e_s, e_d = _resample_normally(k, n_pos, classes, n_resamples, rng, s_row, d_row)
            err_s, err_d = err_s + e_s, err_d + e_d
        ece += np.abs(s_row) / total
        brier += d_row / total
    n_exact = int(exact.sum())
    return BootstrapDraws(
        ece=ece,
        brier=brier,
        ece_error=err_s / total,
        brier_error=err_d / total,
        exact_bins=n_exact,
        normal_bins=int(exact.size - n_exact),
    )


def percentile_interval(draws: np.ndarray, confidence: float) -> tuple[float, float]:
    """The central ``confidence`` interval of equally weighted ``draws`` (the library's quantile rule).

    >>> percentile_interval(np.arange(1.0, 101.0), 0.9)
    (5.0, 95.0)
    """
    values = np.sort(draws)
    lo, hi = central_interval(np.ones(values.size), confidence)
    return float(values[lo]), float(values[hi])
