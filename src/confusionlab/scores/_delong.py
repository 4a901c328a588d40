"""DeLong's variance of the AUC by sorting (Sun & Xu, 2014) and its logit-scale interval.

With ``p`` positives ``X`` and ``n`` negatives ``Y`` and ψ(x, y) = 1 if x > y, ½ if x = y,
0 otherwise, the AUC is the mean of ψ over all ``p·n`` pairs. DeLong, DeLong &
Clarke-Pearson (1988) write its variance with the *placement values*
``V10(Xᵢ) = mean_j ψ(Xᵢ, Yⱼ)`` and ``V01(Yⱼ) = mean_i ψ(Xᵢ, Yⱼ)``:

    Var(AUC) ≈ S10 / p + S01 / n,   S10 = var(V10, ddof=1),  S01 = var(V01, ddof=1).

Sun & Xu observed that the placements are midrank differences, so nothing is computed
pair by pair: ``n·V10(x) = #{Y < x} + ½·#{Y = x}`` is read off the sorted scores. Here
the placements are constant on each tie block (see
:func:`confusionlab.scores._input.tie_blocks`: two sorts and one merge), so the AUC and
both variances are sums over the blocks: O(N log N), about one sort. For a paired
comparison the placements are needed per example: ``searchsorted`` gives them.

The interval is built on the logit scale, ``logit(A) ± z·√Var / (A(1 − A))`` mapped back
with the logistic function, so it stays inside (0, 1). At the boundary — the classes
perfectly separated (AUC 0 or 1) or no spread at all (DeLong's variance 0, e.g. constant
scores) — the sample says nothing about the variance; the *boundary rule* then takes the
AUC half a pair away from the boundary, A* = (U + ½)/(p·n + 1) with U = p·n·AUC, and the
variance of Hanley & McNeil (1982) at A*,

    Var = [A*(1 − A*) + (p − 1)(Q1 − A*²) + (n − 1)(Q2 − A*²)] / (p·n),
    Q1 = A*/(2 − A*),  Q2 = 2A*²/(1 + A*),

which is positive for every finite sample, so the interval keeps a positive width. At AUC 0 or 1
that width grows with the sample on the logit scale (about z·√n at ``p = n``: the interval tends to
[0, 1]), so there the default interval is the score interval (:func:`score_interval`), whose
width shrinks as the classes grow; the boundary rule is what ``method="delong"`` (or ``"logit"``)
gives there.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from scipy.optimize import brentq
from scipy.special import expit, logit, owens_t
from scipy.stats import norm

from ._input import Scores

__all__ = ["binormal_variance", "delong_variance", "logit_interval", "placements", "score_interval"]


def placements(s: Scores, positives: np.ndarray | None = None, negatives: np.ndarray | None = None):
    """``(V10, V01)``: each positive's share of negatives beaten and each negative's share of
    positives beating it (ties count ½). Given ``positives``/``negatives`` (unsorted, e.g. in the
    examples' order for a paired comparison) the placements are returned in that order."""
    x = s.positives if positives is None else positives
    y = s.negatives if negatives is None else negatives
    v10 = (np.searchsorted(s.negatives, x, "left") + np.searchsorted(s.negatives, x, "right")) / (2.0 * s.n)
    v01 = 1.0 - (np.searchsorted(s.positives, y, "left") + np.searchsorted(s.positives, y, "right")) / (2.0 * s.p)
    return v10, v01


def auc_and_variance(s: Scores) -> tuple[float, float]:
    """``(AUC, DeLong's variance)``; the variance is 0 when a class has a single example.

    The placements are constant on a tie block, so the sums run over the blocks: a positive
    in block ``k`` has ``2n·V10 = 2N_{<k} + N_k`` and a negative ``2p·V01 = 2P_{>k} + P_k``
    (integers: the AUC comes from the exact ``2U = Σ_k P_k·(2N_{<k} + N_k)``). Two passes over
    the blocks, a chunk at a time (:meth:`Scores.chunks`): the first sums 2U, the second the
    squared deviations of the placements from the AUC.
    """
    p, n = s.p, s.n
    twice_u, below = 0, 0
    for pos, neg in s.chunks():
        twice_below = np.cumsum(neg)
        twice_below += below
        below = int(twice_below[-1]) if twice_below.size else below
        twice_below *= 2
        twice_below -= neg
        twice_below *= pos
        twice_u += int(twice_below.sum())
    auc = twice_u / (2.0 * p * n)  # 2U is an exact integer
    s10 = s01 = 0.0
    below, above = 0, p
    for pos, neg in s.chunks():
        twice_below = np.cumsum(neg)
        twice_below += below
        below = int(twice_below[-1]) if twice_below.size else below
        twice_below *= 2
        twice_below -= neg
        s10 += _weighted_deviation(twice_below, 1.0 / (2.0 * n), pos, auc)
        # 2P_{>k} + P_k = 2·(positives above the chunk's start − cumsum(P)_k) + P_k
        twice_above = np.cumsum(pos)
        np.subtract(above, twice_above, out=twice_above)
        above = int(twice_above[-1]) if twice_above.size else above
        twice_above *= 2
        twice_above += pos
        s01 += _weighted_deviation(twice_above, 1.0 / (2.0 * p), neg, auc)
    s10 = s10 / (p - 1.0) if p > 1 else 0.0
    s01 = s01 / (n - 1.0) if n > 1 else 0.0
    return auc, s10 / p + s01 / n


def _weighted_deviation(twice: np.ndarray, scale: float, counts: np.ndarray, mean: float) -> float:
    """``Σ_k counts_k·(scale·twice_k − mean)²`` through one float buffer."""
    d = np.multiply(twice, scale)  # float64
    d -= mean
    d *= d
    d *= counts  # not np.dot: BLAS threads on a chunk cost more than they bring (and fight on a busy machine)
    return float(d.sum())


def hanley_mcneil_variance(auc: float, p: int, n: int) -> float:
    """Hanley & McNeil's (1982) variance of the AUC at ``auc`` with ``p`` positives, ``n`` negatives."""
    q1 = auc / (2.0 - auc)
    q2 = 2.0 * auc * auc / (1.0 + auc)
    return (auc * (1 - auc) + (p - 1) * (q1 - auc * auc) + (n - 1) * (q2 - auc * auc)) / (p * n)


def delong_variance(auc: float, variance: float, p: int, n: int) -> tuple[float, float]:
    """``(A, Var)`` the logit interval is built from: DeLong's, or the boundary rule's."""
    pairs = p * n
    u = auc * pairs
    if variance > 0 and 0.0 < auc < 1.0:
        return auc, variance
    shrunk = (u + 0.5) / (pairs + 1.0)
    return shrunk, hanley_mcneil_variance(shrunk, p, n)


def logit_interval(centre: float, variance: float, confidence: float, inflation: float = 1.0) -> tuple[float, float]:
    """``expit(logit(A) ± z·√(inflation·Var)/(A(1 − A)))`` (``inflation`` 2 for a next test set).

    >>> lo, hi = logit_interval(0.8, 0.001, 0.95)
    >>> round(lo, 4), round(hi, 4)
    (0.7308, 0.8549)
    """
    z = float(norm.ppf(0.5 + confidence / 2.0))
    half = z * math.sqrt(inflation * variance) / (centre * (1.0 - centre))
    eta = float(logit(centre))
    # around the centre also when the half-width is below the logistic's rounding (a tiny confidence)
    return min(float(expit(eta - half)), centre), max(float(expit(eta + half)), centre)


# ---------------------------------------------------------------- small classes: the score interval
#: Below this many examples in the smaller class, ``method="auto"`` uses :func:`score_interval`.
SMALL_CLASS = 100


def binormal_variance(theta: Any, p: int, n: int) -> Any:
    """The AUC's variance at AUC ``theta`` under the equal-variance binormal model (the exact
    variance of the Mann–Whitney AUC there):

        Var = [θ(1 − θ) + (p + n − 2)(Q − θ²)] / (p·n),   Q = Φ₂(δ, δ; ½) = Φ(δ) − 2·T(δ, 1/√3),

    δ = Φ⁻¹(θ), ``Q`` the probability that a positive beats two negatives (or two positives one
    negative; the same by symmetry), ``T`` Owen's T function. 0 at θ = 0 or 1.

    >>> round(float(binormal_variance(0.5, 10, 10)), 6), 21 / 1200  # no ties at θ = ½: (N + 1)/(12pn)
    (0.0175, 0.0175)
    """
    theta = np.asarray(theta, dtype=np.float64)
    delta = norm.ppf(theta)
    with np.errstate(invalid="ignore"):
        q = np.where(np.isfinite(delta), norm.cdf(delta) - 2.0 * owens_t(delta, 1.0 / math.sqrt(3.0)), theta)
    return np.maximum(theta * (1 - theta) + (p + n - 2) * (q - theta * theta), 0.0) / (p * n)


def score_interval(
    auc: float, variance: float, p: int, n: int, confidence: float, inflation: float = 1.0
) -> tuple[float, float]:
    """The score-type interval: every θ with ``(Â − θ)² ≤ z²·r·V_BN(θ)``, ``V_BN`` the binormal
    variance (:func:`binormal_variance`) and ``r = max(1, V / V_BN(Â))``: DeLong's variance ``V``
    where it is the larger, carried to other θ by the binormal shape; the binormal variance where
    DeLong's sample estimate is smaller (a small class at a high AUC). Like Wilson's interval for
    a proportion, it keeps a positive width at AUC 0 or 1 and stays inside [0, 1].

    >>> lo, hi = score_interval(1.0, 0.0, 20, 500, 0.95)
    >>> round(lo, 4), hi
    (0.9644, 1.0)
    """
    if auc >= 1.0:  # the mirror image of AUC 0 (V_BN(θ) = V_BN(1 − θ)), where θ near the boundary is exact
        return 1.0 - score_interval(0.0, variance, n, p, confidence, inflation)[1], 1.0
    z2 = float(norm.ppf(0.5 + confidence / 2.0)) ** 2 * inflation
    if z2 == 0.0:  # a confidence so small that ½ + confidence/2 rounds to ½: the interval is the point
        return auc, auc
    at = float(binormal_variance(auc, p, n))
    r = max(1.0, variance / at) if at > 0 else 1.0

    def excess(theta: float) -> float:
        return (auc - theta) ** 2 - z2 * r * float(binormal_variance(theta, p, n))

    # Â itself is inside; at Â = 0 (V_BN = 0 there) start a hair above it, closer the larger the sample
    above = auc if auc > 0.0 else next((h for h in 10.0 ** -np.arange(9, 300) if excess(h) < 0), 0.0)
    lo = brentq(excess, 0.0, auc, xtol=1e-12) if excess(0.0) > 0 and excess(auc) < 0 else 0.0
    tol = 1e-12 if auc > 0.0 else min(1e-12, 1e-9 * above)  # the upper end is of the hair's order
    hi = brentq(excess, above, 1.0, xtol=tol) if excess(1.0) > 0 and excess(above) < 0 else 1.0
    return float(min(lo, auc)), float(max(hi, auc))
