"""The Poisson-binomial distribution: the number of successes among independent Bernoulli trials.

If forecasts ``q_1, …, q_k`` are calibrated, the number of positives among their
``k`` examples is Poisson-binomial: its PMF is the coefficient list of the polynomial
``∏ (1 − q_i + q_i·x)``. It is computed here by divide and conquer: the ``k`` factors
are multiplied in pairs, the pairs' products in pairs, and so on (a balanced tree of
depth ⌈log₂ k⌉); small products directly, large ones through the real FFT. The work is
O(k log² k) and the memory O(k), estimated before anything is allocated.

Error bound
-----------
The function returns, with the PMF, a bound ``E`` on the ℓ₁ error of the computed PMF,
``Σ_j |p̂_j − p_j| ≤ E``, so that every value of the computed CDF is within ``E`` of the
exact one. It is the sum over the tree's nodes of each product's own rounding error:
an error in a factor reaches the root multiplied by the ℓ₁ norms of the other factors,
which are probability vectors (norm 1), so errors add and are never amplified.

* A direct product of nonnegative vectors of lengths ``m ≤ m′`` sums at most ``m``
  nonnegative terms per coefficient, so its ℓ₁ error is at most ``γ_m = mε/(1 − mε)``
  (ε the float64 unit round-off, 2⁻⁵³).
* An FFT product of length ``L`` follows Higham's model of the FFT (*Accuracy and
  Stability of Numerical Algorithms*, 2nd ed., Thm 24.2): each transform has relative
  ℓ₂ error ``t = ⌈log₂ L⌉·η/(1 − ⌈log₂ L⌉·η)`` with ``η = ε + γ₄(√2 + ε)``; through the
  pointwise product (whose factors are bounded by 1 in modulus) and the inverse
  transform, ``‖ĉ − c‖₂ ≤ t(‖a‖₂ + ‖b‖₂ + ‖c‖₂) + 4ε‖c‖₂``, and the ℓ₁ error is at
  most √(2d + 1) times that for a product of degree 2d. The norms are the computed
  ones and the node's bound is widened by 10 % for second-order terms. numpy's FFT is
  mixed-radix rather than radix-2, so the bound is the model's; the tests check it
  against exact rational arithmetic.

Negative coefficients (FFT round-off) are set to 0, which only moves them closer to
the exact nonnegative values. At 10⁵ forecasts the bound is of the order of 10⁻¹⁰.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._validation import check_confidence, check_memory
from ._checks import check_forecasts

__all__ = ["PoissonBinomial", "binomial_pmf", "central_interval", "pmf_bytes", "poisson_binomial_pmf"]

_EPS = float(np.finfo(np.float64).eps) / 2  # unit round-off, 2**-53
#: Products whose factors have at most this many coefficients are computed directly.
DIRECT_MAX = 32
#: Peak bytes per forecast of the tree (two levels of float64 rows, one of complex transforms).
_BYTES_PER_FORECAST = 96.0
#: The slack of the library's discrete quantile rule (as MetricDistribution.ppf).
_QUANTILE_SLACK = 1e-12


def _gamma(n: float) -> float:
    return n * _EPS / (1.0 - n * _EPS)


def pmf_bytes(k: int) -> float:
    """Peak bytes :func:`poisson_binomial_pmf` needs for ``k`` forecasts (an estimate, checked first)."""
    return _BYTES_PER_FORECAST * float(1 << max(0, (max(k, 1) - 1).bit_length())) + 1024.0


@dataclass(frozen=True)
class PoissonBinomial:
    """The PMF of a Poisson-binomial count and the bound on its ℓ₁ error.

    Attributes
    ----------
    pmf : numpy.ndarray
        ``pmf[j]`` = P(``offset`` + j successes): the whole support ``0 … k`` when ``offset``
        is 0, or the part of it that holds all but a stated mass (:func:`binomial_pmf`).
    error_bound : float
        ``Σ_j |pmf[j] − exact_j| ≤ error_bound`` (so each CDF value is within it), the mass
        left outside the stored counts included.
    offset : int, default 0
        The count of ``pmf[0]``.
    """

    pmf: np.ndarray
    error_bound: float
    offset: int = 0

    def interval(self, confidence: float = 0.95) -> tuple[int, int]:
        """The central interval of the count, by the library's discrete quantile rule."""
        lo, hi = central_interval(self.pmf, confidence)
        return lo + self.offset, hi + self.offset


def poisson_binomial_pmf(p: np.ndarray, *, direct_max: int = DIRECT_MAX) -> PoissonBinomial:
    """PMF of the number of successes among independent trials of success probabilities ``p``.

    Parameters
    ----------
    p : numpy.ndarray
        Success probabilities in [0, 1] (NaN, infinities, values outside [0, 1] and strings are
        refused with an :class:`~confusionlab.InvalidParameterError` naming ``p``).
    direct_max : int, default :data:`DIRECT_MAX`
        Factors up to this many coefficients are multiplied directly, longer ones by FFT.

    Returns
    -------
    PoissonBinomial
        The PMF (``len(p) + 1`` values) and the bound on its ℓ₁ error (module docstring).

    Raises
    ------
    TooLargeError
        Before allocating, when the tree would need more than ``memory_limit()``.

    Examples
    --------
    >>> pb = poisson_binomial_pmf(np.array([0.5, 0.5]))
    >>> pb.pmf.tolist(), pb.error_bound < 1e-15
    ([0.25, 0.5, 0.25], True)
    """
    p = check_forecasts(p, "p")  # unchecked, [1.5] gives a PMF with -0.5, None and NaN one of NaN
    k = p.size
    if k == 0:
        return PoissonBinomial(np.ones(1), 0.0)
    check_memory(
        pmf_bytes(k),
        f"the Poisson-binomial PMF of {k:,} forecasts in one bin",
        "use more bins (fewer forecasts per bin)",
    )
    size = 1 << (k - 1).bit_length()
    rows = np.zeros((size, 2))
    rows[:, 0] = 1.0
    rows[:k, 0] = 1.0 - p
    rows[:k, 1] = p
    bound = k * _EPS  # rounding of 1 − q at the leaves
    degree = 1  # every row holds the coefficients of a polynomial of degree ≤ ``degree``
    while rows.shape[0] > 1:
        a, b = rows[0::2], rows[1::2]
        m = degree + 1
        if m <= direct_max:
            out = np.zeros((a.shape[0], 2 * degree + 1))
            for j in range(m):
                out[:, j : j + m] += a[:, j : j + 1] * b
            bound += a.shape[0] * _gamma(m)
        else:
            from scipy import fft as sp_fft  # here: ``import confusionlab`` does not load scipy

            length = sp_fft.next_fast_len(2 * degree + 1, real=True)
            out = sp_fft.irfft(sp_fft.rfft(a, n=length) * sp_fft.rfft(b, n=length), n=length)[:, : 2 * degree + 1]
            np.maximum(out, 0.0, out=out)
            logs = math.ceil(math.log2(length))
            eta = _EPS + _gamma(4) * (math.sqrt(2.0) + _EPS)
            t = logs * eta / (1.0 - logs * eta)
            norms = np.sqrt(np.einsum("ij,ij->i", a, a)) + np.sqrt(np.einsum("ij,ij->i", b, b))
            out_norm = np.sqrt(np.einsum("ij,ij->i", out, out))
            node = t * (norms + out_norm) + 4.0 * _EPS * out_norm
            bound += 1.1 * math.sqrt(2 * degree + 1) * float(node.sum())
        rows = out
        degree *= 2
    pmf = rows[0, : k + 1].copy()
    return PoissonBinomial(pmf, float(bound))


#: The binomial's tails left out of :func:`binomial_pmf`'s stored range, each at most this mass.
_BINOMIAL_TAIL = 1e-18
#: A per-value allowance for the rounding of scipy's binomial PMF (Boost's, accurate to a few ulps).
_BINOMIAL_ROUNDING = 64.0 * _EPS


def binomial_pmf(k: int, p: float) -> PoissonBinomial:
    """The binomial PMF of ``k`` trials of probability ``p``, stored only where its mass is.

    The Poisson-binomial of ``k`` equal forecasts ``p``. Only the counts between scipy's
    quantiles at 10⁻¹⁸ and 1 − 10⁻¹⁸ are stored (about 18 standard deviations each side), so
    the memory follows √k rather than k: 10⁸ trials at ½ need ≈ 1.4 MB, where the whole
    support would need 800 MB. ``error_bound`` is the mass outside plus a rounding
    allowance of 64 ulps per stored value.

    >>> pb = binomial_pmf(10**8, 0.5)
    >>> pb.interval(0.95), pb.pmf.size < 200_000, pb.error_bound < 1e-9
    ((49990200, 50009800), True, True)
    >>> binomial_pmf(4, 0.5).pmf.round(12).tolist()
    [0.0625, 0.25, 0.375, 0.25, 0.0625]
    """
    from scipy.stats import binom  # here: ``import confusionlab`` does not load scipy

    if k == 0 or p <= 0.0 or p >= 1.0:
        return PoissonBinomial(np.ones(1), 0.0, 0 if k == 0 or p <= 0.0 else int(k))
    lo = int(binom.ppf(_BINOMIAL_TAIL, k, p))
    m = int(binom.ppf(_BINOMIAL_TAIL, k, 1.0 - p))  # the upper tail as the lower one of k − X
    hi = k - m
    counts = np.arange(lo, hi + 1)
    pmf = binom.pmf(counts, k, p)
    outside = float(binom.cdf(lo - 1, k, p) + binom.cdf(m - 1, k, 1.0 - p))
    return PoissonBinomial(pmf, outside + counts.size * _BINOMIAL_ROUNDING, lo)


def central_interval(pmf: np.ndarray, confidence: float = 0.95) -> tuple[int, int]:
    """The central interval ``(lo, hi)`` of a count with PMF ``pmf`` (values 0, 1, …).

    The library's rule (as :meth:`MetricDistribution.interval`): the probabilities are
    normalised, ``lo`` is the smallest count with CDF ≥ (1 − c)/2 and ``hi`` the
    smallest with CDF ≥ (1 + c)/2 (each with a slack of 10⁻¹²). So at most (1 − c)/2
    of the mass lies below ``lo`` and at most (1 − c)/2 above ``hi``: the interval
    holds at least ``confidence``.

    >>> central_interval(np.array([0.25, 0.5, 0.25]), 0.5)
    (0, 1)
    >>> central_interval(np.array([0.25, 0.5, 0.25]), 0.9)
    (0, 2)
    """
    c = check_confidence(confidence)
    total = float(pmf.sum())
    cdf = np.minimum(np.cumsum(pmf / total if total > 0 else pmf), 1.0)
    cdf[-1] = 1.0
    q = np.array([(1.0 - c) / 2.0, (1.0 + c) / 2.0]) - _QUANTILE_SLACK
    lo, hi = np.minimum(np.searchsorted(cdf, q, side="left"), cdf.size - 1)
    return int(lo), int(hi)
