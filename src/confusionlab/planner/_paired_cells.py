"""The agreement cells of two classifiers planned from their accuracies, and the true difference's interval.

Two classifiers scored on the same items put each item in one of four cells: both right, only A
right, only B right, both wrong. From the accuracies a, b and the correlation ρ of the two
classifiers' errors (the phi coefficient of the two 0/1 error indicators, the same as that of
the correctness indicators) the cells' shares are (:func:`cell_shares`)

    p00 = (1 − a)(1 − b) + ρ·√(a(1 − a)·b(1 − b)),  p10 = (1 − b) − p00,
    p01 = (1 − a) − p00,  p11 = 1 − p10 − p01 − p00,

and at a size N the planned cells are these shares times N, rounded to whole items that add up
to N (:func:`planned_cells`, the largest remainders). The true accuracy difference of the cells
(n11, n10, n01, n00) is θ10 − θ01 under the posterior Dirichlet(cells + ½) of
:func:`~confusionlab.compare_paired_cells` (``target="true_value"``, ½ per cell);
:func:`difference_quantiles` computes its quantiles by quadrature (no draws), and
:func:`normal_half_width` its normal approximation.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import optimize, special

from .._validation import InvalidParameterError

__all__ = ["CELL_NAMES", "cell_shares", "difference_quantiles", "normal_half_width", "planned_cells"]

#: The four cells, in order.
CELL_NAMES = ("both right", "only A right", "only B right", "both wrong")
#: Gauss-Legendre nodes of the quadrature over the share of discordant items: the probabilities
#: agreed with 4,096 nodes within 1.4e-6 (a grid of differences at cells from (3, 1, 0, 0) to
#: (40000, 3000, 2000, 5000)), a few millionths of the half-width.
QUADRATURE_NODES = 256
_NODES, _WEIGHTS = np.polynomial.legendre.leggauss(QUADRATURE_NODES)


def correlation_range(accuracy_a: float, accuracy_b: float) -> tuple[float, float]:
    """The correlations of the errors for which no cell's share is negative.

    >>> [round(r, 4) for r in correlation_range(0.8, 0.8)]
    [-0.25, 1.0]
    """
    ea, eb = 1.0 - accuracy_a, 1.0 - accuracy_b
    spread = math.sqrt(ea * (1.0 - ea) * eb * (1.0 - eb))
    return (max(0.0, ea + eb - 1.0) - ea * eb) / spread, (min(ea, eb) - ea * eb) / spread


def cell_shares(accuracy_a: float, accuracy_b: float, correlation: float) -> np.ndarray:
    """The shares (both right, only A right, only B right, both wrong), refusing a negative one.

    >>> cell_shares(0.8, 0.7, 0.0).round(4).tolist()
    [0.56, 0.24, 0.14, 0.06]
    >>> cell_shares(0.8, 0.7, 0.9)
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: correlation=0.9 with accuracies 0.8 and 0.7 gives a negative share ...
    """
    lo, hi = correlation_range(accuracy_a, accuracy_b)
    if not lo - 1e-12 <= correlation <= hi + 1e-12:
        raise InvalidParameterError(
            f"correlation={correlation:g} with accuracies {accuracy_a:g} and {accuracy_b:g} gives a negative share "
            f"of items in a cell (both right, only A, only B, both wrong): with these accuracies the correlation "
            f"of the two classifiers' errors must lie in [{lo:.4g}, {hi:.4g}]"
        )
    ea, eb = 1.0 - accuracy_a, 1.0 - accuracy_b
    both_wrong = ea * eb + correlation * math.sqrt(ea * (1.0 - ea) * eb * (1.0 - eb))
    shares = np.array([0.0, eb - both_wrong, ea - both_wrong, both_wrong])
    shares = np.clip(shares, 0.0, 1.0)
    shares[0] = max(0.0, 1.0 - shares[1:].sum())
    return shares


def planned_cells(shares: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """The cells at each size: ``shares`` × N rounded to whole items adding up to N (each cell gets
    its floor, the items left go to the largest remainders, ties to the first cell).

    >>> planned_cells(np.array([0.56, 0.24, 0.14, 0.06]), np.array([10, 100])).tolist()
    [[6, 2, 1, 1], [56, 24, 14, 6]]
    """
    sizes = np.asarray(sizes, dtype=np.int64)
    exact = np.round(np.multiply.outer(sizes.astype(np.float64), shares), 9)
    cells = np.floor(exact).astype(np.int64)
    left = sizes - cells.sum(axis=1)
    order = np.argsort(-(exact - cells), axis=1, kind="stable")
    rank = np.argsort(order, axis=1, kind="stable")
    return cells + (rank < left[:, None])


def _posterior(cells: np.ndarray, prior: float) -> tuple[float, float, float]:
    """Dirichlet parameters of (only A right, only B right) and of the two concordant cells together."""
    a = np.asarray(cells, dtype=np.float64) + prior
    return float(a[1]), float(a[2]), float(a[0] + a[3])


def normal_half_width(cells: np.ndarray, prior: float, confidence: float) -> np.ndarray:
    """z·sd of θ10 − θ01 under Dirichlet(cells + prior), rows of ``cells`` at once.

    With m = α/α₀ the posterior means, Var = (m10 + m01 − (m10 − m01)²)/(α₀ + 1).

    >>> round(float(normal_half_width(np.array([[56, 24, 14, 6]]), 0.5, 0.95)[0]), 4)
    0.1179
    """
    a = np.asarray(cells, dtype=np.float64) + prior
    total = a.sum(axis=-1)
    m10, m01 = a[..., 1] / total, a[..., 2] / total
    z = float(special.ndtri(0.5 + confidence / 2.0))
    return z * np.sqrt((m10 + m01 - (m10 - m01) ** 2) / (total + 1.0))


def difference_cdf(d: float, a10: float, a01: float, rest: float) -> float:
    """P(θ10 − θ01 ≤ d) under Dirichlet(rest-cells, a10, a01): with S = θ10 + θ01 ~ Beta(a10 + a01, rest)
    and R = θ10/S ~ Beta(a10, a01) independent of S, P(S(2R − 1) ≤ d) = E[F_R((1 + d/S)/2)],
    integrated over S's probability scale u from u* = P(S ≤ |d|) (below it the event is certain
    for d > 0, impossible for d < 0) by Gauss-Legendre."""
    start = float(special.betainc(a10 + a01, rest, abs(d))) if d != 0 else 0.0
    u = start + (1.0 - start) * (_NODES + 1.0) / 2.0
    s = special.betaincinv(a10 + a01, rest, u)
    with np.errstate(divide="ignore", invalid="ignore"):
        x = np.clip((1.0 + d / s) / 2.0, 0.0, 1.0)
    x = np.where(s > 0, x, 1.0 if d >= 0 else 0.0)
    inner = float(np.dot(_WEIGHTS, special.betainc(a10, a01, x))) * (1.0 - start) / 2.0
    return (start if d > 0 else 0.0) + inner


def difference_quantiles(cells: np.ndarray, prior: float, probs: tuple[float, ...]) -> list[float]:
    """Quantiles of the true accuracy difference θ10 − θ01 under Dirichlet(cells + prior), each
    the root of :func:`difference_cdf` (Brent's method, to 1e-13).

    >>> [round(q, 4) for q in difference_quantiles(np.array([56, 24, 14, 6]), 0.5, (0.025, 0.975))]
    [-0.0203, 0.2158]
    """
    a10, a01, rest = _posterior(cells, prior)
    total = a10 + a01 + rest
    mean = (a10 - a01) / total
    spread = math.sqrt(((a10 + a01) / total - mean**2) / (total + 1.0))
    lo, hi = max(-1.0, mean - 40.0 * spread), min(1.0, mean + 40.0 * spread)
    return [
        float(optimize.brentq(lambda d, q=q: difference_cdf(d, a10, a01, rest) - q, lo, hi, xtol=1e-13, rtol=1e-13))
        for q in probs
    ]
