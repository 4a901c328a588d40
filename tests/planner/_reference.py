"""Independent reference for the planner: plain numpy/scipy, nothing from confusionlab.

The planned counts are SPEC E2's; the beta-binomial (or binomial) marginals are
``scipy.stats`` PMFs over the *whole* support (no pruning); metric values are the
textbook formulas; equal values are merged after rounding to 12 decimals (ties that
differ only by floating-point error); the interval is the discrete central interval
(smallest value whose cdf reaches (1 − c)/2, resp. (1 + c)/2, the cdf and the level compared
exactly, as ``MetricDistribution.ppf`` and scipy's ``rv_discrete`` compare them).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats


def counts(N: int, prevalence: float, tpr: float, tnr: float) -> tuple[int, int, int, int]:
    p = min(max(math.floor(prevalence * N + 0.5), 1), N - 1)
    n = N - p
    return p, n, math.floor(tpr * p + 0.5), math.floor(tnr * n + 0.5)


def marginal(model: str, successes: int, trials: int, prior: float = 1.0) -> np.ndarray:
    """The whole PMF over 0..trials; masses below 1e-17 (far below every level compared) are
    set to 0 so that the lattice can be restricted to the rest."""
    k = np.arange(trials + 1)
    if model == "binomial":
        pmf = stats.binom.pmf(k, trials, successes / trials)
    else:
        pmf = stats.betabinom.pmf(k, trials, successes + prior, trials - successes + prior)
    return np.where(pmf < 1e-17, 0.0, pmf)


def metric_values(metric: str, tp, fn, fp, tn) -> np.ndarray:
    tp, fn, fp, tn = (np.asarray(x, dtype=np.float64) for x in (tp, fn, fp, tn))
    with np.errstate(all="ignore"):
        if metric == "recall":
            v = tp / (tp + fn)
        elif metric == "tnr":
            v = tn / (tn + fp)
        elif metric == "balanced_accuracy":
            # one division of integers, (n·TP + p·TN) / (2pn): the correctly rounded value, so
            # that a half-width tied with the target (h = 0.1 at p = 65, n = 45) is decided exactly
            p, n = tp + fn, tn + fp
            v = (n * tp + p * tn) / (2 * p * n)
        elif metric == "accuracy":
            v = (tp + tn) / (tp + fn + fp + tn)
        elif metric == "f1":
            v = 2 * tp / (2 * tp + fp + fn)
        elif metric == "mcc":
            v = (tp * tn - fp * fn) / np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
        else:
            raise KeyError(metric)
    return np.where(np.isnan(v), 0.0, v)  # 0/0 -> 0, the paper's convention


def atoms(values: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values (ulp-level ties merged) ascending and their normalised cdf."""
    values = np.broadcast_to(values, np.broadcast_shapes(np.shape(values), np.shape(weights)))
    keys = np.round(values.ravel(), 12)
    _, first, inv = np.unique(keys, return_index=True, return_inverse=True)
    uniq = values.ravel()[first]  # each group's value as computed (the key only merges ulp-level ties)
    mass = np.bincount(inv.ravel(), weights=np.broadcast_to(weights, values.shape).ravel())
    return uniq, np.cumsum(mass) / mass.sum()


def levels(confidence: float) -> tuple[float, float]:
    return (1 - confidence) / 2, (1 + confidence) / 2


def central_interval(values: np.ndarray, weights: np.ndarray, confidence: float) -> tuple[float, float]:
    uniq, cdf = atoms(values, weights)
    lo, hi = (uniq[min(np.searchsorted(cdf, q), uniq.size - 1)] for q in levels(confidence))
    return float(lo), float(hi)


def clearance(values: np.ndarray, weights: np.ndarray, confidence: float) -> float:
    """Distance from each level of the central interval to the nearest step of the cdf (the
    cdf at its quantile and at the value before it), the smaller of the two: a level closer to a
    step than the arithmetic resolves is decided by rounding or by the masses pruned."""
    _, cdf = atoms(values, weights)
    steps = np.concatenate(([0.0], cdf))
    out = np.inf
    for q in levels(confidence):
        k = np.searchsorted(steps, q)
        out = min(out, abs(q - steps[max(k - 1, 0)]), abs(steps[min(k, steps.size - 1)] - q))
    return float(out)


def lattice(metric: str, tp: int, fn: int, fp: int, tn: int, model: str) -> tuple[np.ndarray, np.ndarray]:
    """The metric's value and mass at every outcome (TP', TN') of the next test set."""
    p, n = tp + fn, fp + tn
    wt = marginal(model, tp, p)
    wn = marginal(model, tn, n)
    TP = np.flatnonzero(wt)[:, None]
    TN = np.flatnonzero(wn)[None, :]
    return metric_values(metric, TP, p - TP, n - TN, TN), np.outer(wt[wt > 0], wn[wn > 0])


def half_width_of(metric: str, tp: int, fn: int, fp: int, tn: int, confidence=0.95, model="beta-binomial") -> float:
    lo, hi = central_interval(*lattice(metric, tp, fn, fp, tn, model), confidence)
    return (hi - lo) / 2


def level_clearance(metric: str, tp: int, fn: int, fp: int, tn: int, confidence=0.95, model="beta-binomial") -> float:
    """:func:`clearance` of the interval :func:`half_width_of` reads."""
    return clearance(*lattice(metric, tp, fn, fp, tn, model), confidence)


ONE_SIDED = {"recall": "p", "tnr": "n"}


def degenerate(metric: str, model: str, p: int, n: int, tp: int, tn: int) -> bool:
    """The binomial plug-in with 0 or all successes in a class the metric reads: no spread,
    the criterion undefined (the planner never accepts such a size)."""
    if model != "binomial":
        return False
    side = ONE_SIDED.get(metric)
    bad_p, bad_n = tp in (0, p), tn in (0, n)
    return bad_p if side == "p" else bad_n if side == "n" else bad_p or bad_n


def half_width(metric: str, N: int, prevalence: float, tpr: float, tnr: float, confidence=0.95, model="beta-binomial"):
    p, n, tp, tn = counts(N, prevalence, tpr, tnr)
    if degenerate(metric, model, p, n, tp, tn):
        return math.nan
    return half_width_of(metric, tp, p - tp, n - tn, tn, confidence, model)


def honest(metric: str, N: int, prevalence: float, tpr: float, tnr: float) -> bool:
    """The planned test set stands for the requested classifier: each class the metric reads is
    present without clipping and its rounded rate is within 0.05 of the requested one."""
    p = math.floor(prevalence * N + 0.5)
    n = N - p
    sides = {"recall": "p", "fnr": "p", "tnr": "n", "fpr": "n"}.get(metric)
    for count, rate, side in ((p, tpr, "p"), (n, tnr, "n")):
        if sides not in (None, side):
            continue
        if count < 1 or abs(math.floor(rate * count + 0.5) / count - rate) > 0.05 + 1e-12:
            return False
    return True


def first_honest(metric: str, prevalence: float, tpr: float, tnr: float) -> int:
    """The smallest N from which every N is honest (checked by scanning to where p, n ≥ 10)."""
    share = min(prevalence, 1 - prevalence)
    top = math.ceil(12 / share) + 2
    last = 1
    for N in range(2, top):
        if not honest(metric, N, prevalence, tpr, tnr):
            last = N
    return last + 1


#: A half-width within this relative distance of the goal meets it: float interval ends blur an
#: exact tie (recall's half-width 9/30 at p = 15 computes a few ulps above 0.3; the planner's
#: TIE_SLACK, proved in test_exact_ties.py).
TIE = 1 + 1e-12


def smallest_by_scan(metric, prevalence, tpr, tnr, target, confidence=0.95, model="beta-binomial", start=2, stop=10**6):
    """Scan every honest N from ``start``: the first whose half-width is at most ``target``."""
    start = max(start, first_honest(metric, prevalence, tpr, tnr))
    for N in range(start, stop):
        h = half_width(metric, N, prevalence, tpr, tnr, confidence, model)
        if h <= target * TIE:
            return N, h
    return None, None


def assurance(metric, N, prevalence, tpr, tnr, target, confidence=0.95, model="beta-binomial") -> float:
    """P(reported half-width <= target) over every outcome (TP', TN') of the test."""
    p, n, tp, tn = counts(N, prevalence, tpr, tnr)
    wt = marginal(model, tp, p)
    wn = marginal(model, tn, n)
    total = 0.0
    for a in range(p + 1):
        for b in range(n + 1):
            if wt[a] * wn[b] == 0:
                continue
            if half_width_of(metric, a, p - a, n - b, b, confidence, model) <= target * TIE:
                total += wt[a] * wn[b]
    return total
