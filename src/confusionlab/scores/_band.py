"""Bands around the ROC and precision–recall curves, and the logit interval of the average precision.

Campbell's simultaneous band (1994)
-----------------------------------
The ROC curve is ``R(t) = 1 − G(F⁻¹(1 − t))`` with ``F``, ``G`` the negatives' and the
positives' score distributions. If the empirical distribution functions are within
``d_n`` of ``F`` and ``d_p`` of ``G`` everywhere — each with probability √confidence, the
exact finite-sample Kolmogorov–Smirnov quantiles ``d = kstwo(size).ppf(√confidence)`` —
then, both samples being independent, with probability ≥ confidence the whole true
curve lies in

    lower(t) = max(0, R̂(t − d_n) − d_p),   upper(t) = min(1, R̂(t + d_n) + d_p),

with ``R̂`` the empirical staircase (0 left of 0 and 1 right of 1). On a vertical step
``R̂`` is taken at the bottom of the step for the lower edge and at the top for the upper
edge; a diagonal step (a block of ties holding both classes) is linear.

The pointwise band gives, at each point of the staircase, the exact central interval of
the TPR on a new test set of the same size under the beta-binomial model (a uniform
prior on the TPR, updated by the observed ``tp`` of ``p``): it holds at each FPR on its
own, not over the whole curve.

The precision–recall band is the ROC band seen at the observed ``p``, ``n``: at recall
``r`` the FPR ranges over ``[f_lo(r), f_hi(r)]`` (the band's left and right edges at
height ``r``), and precision = ``p·r / (p·r + n·f)`` is decreasing in ``f``.

Boyd, Eng & Page (2013): the average precision's interval is ``expit(η ± z·τ)`` with
``η = logit(AP)`` and ``τ = (p·AP·(1 − AP))^−½``; at AP = 1 (or 0) the AP is first taken
half a positive from the boundary, ``(p·AP + ½)/(p + 1)``, so the interval keeps a width.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from scipy.special import expit, logit
from scipy.stats import betabinom, kstwo, norm

__all__ = ["PrecisionRecallBand", "RocBand", "ap_logit_interval", "roc_band"]

#: Points of the uniform FPR grid every band is evaluated on (besides the staircase's own).
GRID = 401


@dataclass(frozen=True)
class RocBand:
    """A band around an ROC curve: at each ``fpr`` of the grid, TPR within ``[lower, upper]``."""

    fpr: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    confidence: float
    kind: str


@dataclass(frozen=True)
class PrecisionRecallBand:
    """A band around a precision–recall curve: at each ``recall``, precision within ``[lower, upper]``."""

    recall: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    confidence: float
    kind: str


@lru_cache(maxsize=256)
def ks_quantile(size: int, level: float) -> float:
    """The exact finite-sample quantile of the Kolmogorov–Smirnov statistic ``sup |F̂ − F|`` of ``size`` draws.

    >>> round(ks_quantile(20, 0.95), 4)
    0.2941
    """
    return float(kstwo.ppf(level, size))


def _staircase_at(fpr: np.ndarray, tpr: np.ndarray, t: np.ndarray, top: bool) -> np.ndarray:
    """R̂(t) on the staircase path (fpr non-decreasing, from 0 to 1): at an FPR holding a vertical
    step, its top (``top``) or its bottom; between two FPRs, the segment from the top of one step
    to the bottom of the next (a diagonal step of ties, or the level of a flat one)."""
    t = np.clip(t, 0.0, 1.0)
    first = np.concatenate([[True], fpr[1:] != fpr[:-1]])
    last = np.concatenate([fpr[1:] != fpr[:-1], [True]])
    u, bottom, high = fpr[first], tpr[first], tpr[last]
    k = np.clip(np.searchsorted(u, t, side="right") - 1, 0, u.size - 1)
    on_step = u[k] == t
    nxt = np.minimum(k + 1, u.size - 1)
    width = u[nxt] - u[k]
    with np.errstate(invalid="ignore", divide="ignore"):
        between = high[k] + (bottom[nxt] - high[k]) * np.where(width > 0, (t - u[k]) / width, 0.0)
    return np.where(on_step, high[k] if top else bottom[k], between)


def roc_band(fpr: np.ndarray, tpr: np.ndarray, p: int, n: int, confidence: float, kind: str) -> RocBand:
    """Campbell's simultaneous band (``kind="simultaneous"``) or the pointwise beta-binomial band."""
    if kind == "pointwise":
        tp = np.rint(tpr * p)
        lo, hi = betabinom.interval(confidence, p, tp + 1, p - tp + 1)
        return RocBand(fpr.copy(), lo / p, hi / p, confidence, kind)
    level = math.sqrt(confidence)
    d_p, d_n = ks_quantile(p, level), ks_quantile(n, level)
    grid = np.unique(np.concatenate([np.linspace(0.0, 1.0, GRID), np.clip(fpr - d_n, 0, 1), np.clip(fpr + d_n, 0, 1)]))
    lower = np.where(grid - d_n < 0, 0.0, _staircase_at(fpr, tpr, grid - d_n, top=False)) - d_p
    upper = np.where(grid + d_n > 1, 1.0, _staircase_at(fpr, tpr, grid + d_n, top=True)) + d_p
    return RocBand(grid, np.clip(lower, 0.0, 1.0), np.clip(upper, 0.0, 1.0), confidence, kind)


def precision_recall_band(band: RocBand, p: int, n: int, points: int = GRID) -> PrecisionRecallBand:
    """The ROC ``band`` mapped to precision at the observed ``p``, ``n`` (recall on a uniform grid in (0, 1])."""
    recall = np.linspace(0.0, 1.0, points)[1:]
    # f_lo(r): the smallest FPR whose upper edge reaches r; f_hi(r): the largest FPR whose lower edge is ≤ r
    k_lo = np.searchsorted(band.upper, recall, side="left")
    f_lo = band.fpr[np.minimum(k_lo, band.fpr.size - 1)]
    k_hi = np.searchsorted(band.lower, recall, side="right") - 1
    f_hi = np.where(k_hi + 1 >= band.fpr.size, 1.0, band.fpr[np.minimum(k_hi + 1, band.fpr.size - 1)])
    f_hi = np.where(k_hi < 0, band.fpr[0], f_hi)
    upper = p * recall / (p * recall + n * f_lo)
    lower = p * recall / (p * recall + n * f_hi)
    return PrecisionRecallBand(recall, lower, upper, band.confidence, band.kind)


def ap_logit_interval(ap: float, p: int, confidence: float, inflation: float = 1.0) -> tuple[float, float]:
    """Boyd, Eng & Page's logit interval of the average precision (``inflation`` 2 for a next test set).

    >>> lo, hi = ap_logit_interval(0.8, 100, 0.95)
    >>> round(lo, 4), round(hi, 4)
    (0.7102, 0.8672)
    """
    centre = (p * ap + 0.5) / (p + 1.0) if ap <= 0.0 or ap >= 1.0 else ap
    tau = 1.0 / math.sqrt(p * centre * (1.0 - centre))
    z = float(norm.ppf(0.5 + confidence / 2.0))
    eta = float(logit(centre))
    half = z * tau * math.sqrt(inflation)
    return float(expit(eta - half)), float(expit(eta + half))
