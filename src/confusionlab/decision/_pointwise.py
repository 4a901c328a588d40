"""The value at a threshold held fixed in advance: the posterior of its true value.

The expected cost per example is ``cost_fp·θ_FP + cost_fn·θ_FN`` with ``θ`` the four cells'
probabilities, whose posterior under the symmetric prior α is ``Dirichlet(TP + α, FN + α, FP + α,
TN + α)``. Its distribution function is one integral: ``θ_FP = X ~ Beta(a_FP, a_FN + a_rest)`` and,
given ``X``, ``θ_FN = (1 − X)·B`` with ``B ~ Beta(a_FN, a_rest)`` independent of ``X``, so

    P(cost ≤ v) = E_X[ F_B((v − cost_fp·X) / (cost_fn·(1 − X))) ],

taken by the midpoint rule over ``NODES`` quantiles of ``X`` and inverted by root finding (first within
``BRACKET`` standard deviations of the mean, whose moments are the Dirichlet's). With
equal costs it is the Beta ``cost·Beta(a_FP + a_FN, a_rest)``, with one cost zero the other cell's
Beta, both exactly. A metric's value is the library's true-value posterior,
:func:`~confusionlab.metric_distribution` with ``target="true_value"`` (the rates' Beta posteriors).

This interval holds for a threshold fixed before the data were seen. At the threshold chosen as
the best on the same data it is too optimistic: see :mod:`._selection` for the valid one.
"""

from __future__ import annotations

import numpy as np
from scipy import optimize, special, stats

from ..confusion import ConfusionMatrix
from ..distribution import metric_distribution
from ._objective import Objective

__all__ = ["NODES", "cost_cdf", "pointwise_interval"]

#: Quantile nodes of the cost's one-dimensional integral.
NODES = 1000
#: Standard deviations either side of the mean where a quantile is looked for first.
BRACKET = 10.0


def _beta_interval(a: float, b: float, scale: float, confidence: float) -> tuple[float, float]:
    lo, hi = stats.beta(a, b).interval(confidence)
    return scale * float(lo), scale * float(hi)


def cost_cdf(
    v: float, cells: tuple[float, float, float], cost: tuple[float, float], nodes: np.ndarray | None = None
) -> float:
    """``P(cost_fp·θ_FP + cost_fn·θ_FN ≤ v)`` under ``Dirichlet(a_FP, a_FN, a_rest)`` (``cells``), both costs > 0;
    ``nodes``: the quantiles of ``θ_FP`` the integral is taken over (computed when not given).

    >>> round(cost_cdf(0.3, (3.0, 4.0, 10.0), (1.0, 2.0)), 3)
    0.026
    """
    a_fp, a_fn, a_rest = cells
    c_fp, c_fn = cost
    x = _nodes(a_fp, a_fn + a_rest) if nodes is None else nodes
    with np.errstate(divide="ignore", invalid="ignore"):
        arg = (v - c_fp * x) / (c_fn * (1.0 - x))
    return float(special.betainc(a_fn, a_rest, np.clip(arg, 0.0, 1.0)).mean())


def _nodes(a: float, b: float) -> np.ndarray:
    """The midpoint quantiles of ``Beta(a, b)``: the integral's nodes, each of weight 1/NODES."""
    return special.betaincinv(a, b, (np.arange(NODES) + 0.5) / NODES)


def pointwise_interval(
    cm: ConfusionMatrix, objective: Objective, alpha: float, confidence: float
) -> tuple[float, float]:
    """The central ``confidence`` interval of the true value at the fixed threshold giving ``cm``.

    >>> cm = ConfusionMatrix(tp=40, fn=10, fp=20, tn=130)
    >>> lo, hi = pointwise_interval(cm, Objective(cost=(1.0, 1.0)), 0.5, 0.95)
    >>> ref = stats.beta(30 + 1, 170 + 1).interval(0.95)
    >>> bool(abs(lo - ref[0]) < 1e-12 and abs(hi - ref[1]) < 1e-12)
    True
    """
    if objective.cost is None:
        assert objective.metric is not None
        dist = metric_distribution(cm, objective.metric, target="true_value", prior=alpha)
        lo, hi = dist.interval(confidence)
        return float(lo), float(hi)
    c_fp, c_fn = objective.cost
    a_fp, a_fn, a_rest = cm.fp + alpha, cm.fn + alpha, cm.tp + cm.tn + 2.0 * alpha
    if c_fn == 0.0:
        return _beta_interval(a_fp, a_fn + a_rest, c_fp, confidence)
    if c_fp == 0.0:
        return _beta_interval(a_fn, a_fp + a_rest, c_fn, confidence)
    if c_fp == c_fn:
        return _beta_interval(a_fp + a_fn, a_rest, c_fp, confidence)
    cells, top = (a_fp, a_fn, a_rest), max(c_fp, c_fn)
    tail = (1.0 - confidence) / 2.0
    nodes = _nodes(a_fp, a_fn + a_rest)
    total = a_fp + a_fn + a_rest
    mean = (c_fp * a_fp + c_fn * a_fn) / total
    var = (c_fp**2 * a_fp * (total - a_fp) + c_fn**2 * a_fn * (total - a_fn) - 2 * c_fp * c_fn * a_fp * a_fn) / (
        total**2 * (total + 1.0)
    )
    sd = float(np.sqrt(max(var, 0.0)))

    def excess(v: float, q: float) -> float:
        return cost_cdf(v, cells, (c_fp, c_fn), nodes) - q

    def quantile(q: float) -> float:
        lo, hi = max(0.0, mean - BRACKET * sd), min(top, mean + BRACKET * sd)
        if excess(lo, q) > 0.0 or excess(hi, q) < 0.0:  # outside the usual bracket: the whole range
            lo, hi = 0.0, top
        return float(optimize.brentq(excess, lo, hi, args=(q,), xtol=max(1e-7 * sd, 1e-15 * top)))

    return quantile(tail), quantile(1.0 - tail)
