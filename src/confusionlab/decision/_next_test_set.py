"""The next test set's net benefit: its exact PMF on the lattice of count tables, and its central interval.

A new test set of the same size ``N`` under the posterior predictive of the four cells (the
Dirichlet-multinomial with α added to each count). Its net benefit ``(TP′ − w·FP′)/N − harm``
depends on (TP′, FP′) only; grouped by the decision, the number of test positives
``A′ = TP′ + FP′`` is beta-binomial (N, TP + FP + 2α, FN + TN + 2α) and, given it, TP′ is
beta-binomial (A′, TP + α, FP + α): the PMF over the ``(N + 1)(N + 2)/2`` points with 0 ≤ TP′ ≤ A′ ≤ N
is exact. With a given prevalence π₀ the classes keep their sizes (a slice): TP′ ~ beta-binomial
(P, TP + α, FN + α) and FP′ ~ beta-binomial (N₋, FP + α, TN + α) independently, and
NB′ = π₀·TP′/P − w·(1 − π₀)·FP′/N₋ − harm on the ``(P + 1)(N₋ + 1)`` points.
"""

from __future__ import annotations

import numpy as np
from scipy import stats

from .._validation import check_memory

__all__ = ["lattice_interval", "lattice_pmf"]

#: Bytes per lattice point while one threshold's PMF is built and sorted.
BYTES_PER_POINT = 48.0


def lattice_pmf(tp: int, fp: int, fn: int, tn: int, t: float, alpha: float, harm: float, prevalence: float | None):
    """``(values, probabilities)`` of the next test set's net benefit at threshold ``t``, over the lattice.

    >>> v, p = lattice_pmf(3, 1, 1, 5, 0.2, 1.0, 0.0, None)
    >>> round(float(p.sum()), 12), v.size  # (N + 1)(N + 2)/2 points with N = 10
    (1.0, 66)
    """
    w = t / (1.0 - t)
    if prevalence is None:
        n_total = tp + fp + fn + tn
        a = np.arange(n_total + 1)
        pa = stats.betabinom.pmf(a, n_total, tp + fp + 2 * alpha, fn + tn + 2 * alpha)
        rows, cols = np.tril_indices(n_total + 1)  # rows: A′, cols: TP′ ≤ A′
        prob = pa[rows] * stats.betabinom.pmf(cols, rows, tp + alpha, fp + alpha)
        value = (cols - w * (rows - cols)) / n_total - harm
        return value, prob
    p, n = tp + fn, fp + tn
    pt = stats.betabinom.pmf(np.arange(p + 1), p, tp + alpha, fn + alpha)
    pf = stats.betabinom.pmf(np.arange(n + 1), n, fp + alpha, tn + alpha)
    value = prevalence * np.arange(p + 1)[:, None] / p - w * (1 - prevalence) * np.arange(n + 1)[None, :] / n - harm
    return value.ravel(), (pt[:, None] * pf[None, :]).ravel()


def _central(value: np.ndarray, prob: np.ndarray, confidence: float) -> tuple[float, float]:
    """The central interval of a discrete distribution: the smallest values whose cdf reaches
    ``(1 − confidence)/2`` and ``(1 + confidence)/2``."""
    order = np.argsort(value, kind="stable")
    v, cdf = value[order], np.cumsum(prob[order])
    cdf /= cdf[-1]
    tail = (1.0 - confidence) / 2.0
    lo = np.searchsorted(cdf, tail - 1e-12, side="left")
    hi = np.searchsorted(cdf, 1.0 - tail - 1e-12, side="left")
    return float(v[min(lo, v.size - 1)]), float(v[min(hi, v.size - 1)])


def lattice_interval(tp, fp, fn, tn, t, alpha: float, harm: float, prevalence: float | None, confidence: float):
    """The next test set's central interval of net benefit at each threshold (arrays ``lower``, ``upper``)."""
    n_total = int(tp[0] + fp[0] + fn[0] + tn[0])
    p = int(tp[0] + fn[0])
    points = (n_total + 1) * (n_total + 2) / 2 if prevalence is None else (p + 1) * (n_total - p + 1)
    check_memory(
        BYTES_PER_POINT * points,
        f"the next test set's lattice of {int(points):,} count tables",
        "ask for the true value (target='true_value'), which has no lattice",
    )
    lower, upper = np.empty(len(t)), np.empty(len(t))
    for j in range(len(t)):
        v, pr = lattice_pmf(int(tp[j]), int(fp[j]), int(fn[j]), int(tn[j]), float(t[j]), alpha, harm, prevalence)
        lower[j], upper[j] = _central(v, pr, confidence)
    return lower, upper
