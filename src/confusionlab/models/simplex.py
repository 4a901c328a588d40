"""The simplex model (dirichlet-multinomial): a mass over every matrix of size N."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
from scipy import special

from .._validation import (
    DEFAULT_TOLERANCE,
    check_future_total,
    check_instance,
    check_tolerance,
)
from ..confusion import ConfusionMatrix
from ..lattice import SimplexPoints, simplex_counts, simplex_points
from .priors import resolve_prior

__all__ = ["SimplexModel", "dirichlet_multinomial_logpmf", "simplex_model"]


@dataclass(frozen=True)
class SimplexModel:
    """Dirichlet-multinomial mass over the simplex of size ``N`` (kept points only)."""

    N: int
    counts: np.ndarray  # (M, 4) TP, FN, FP, TN
    pmf: np.ndarray
    pruned_mass: float

    @cached_property
    def points(self) -> SimplexPoints:
        """Every matrix of the simplex with its isometric coordinates (built when first asked)."""
        return simplex_points(self.N)


def dirichlet_multinomial_logpmf(counts: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    """log DirMult(x | N, alpha) for rows ``x`` of ``counts`` summing to N (vectorised)."""
    counts = np.asarray(counts, dtype=np.int64)
    N = int(counts[0].sum()) if counts.size else 0
    a0 = float(np.sum(alpha))
    # log Γ(k + a) − log Γ(a) = Σ_{j<k} log(a + j): rising factorials summed as logarithms stay
    # accurate for any a, where the difference of two huge log-gammas loses every digit (a ≈ 1e20).
    steps = np.arange(N, dtype=np.float64)
    out = np.full(counts.shape[0], special.gammaln(N + 1) - np.sum(np.log(a0 + steps)))
    k = np.arange(N + 1)
    for j, a in enumerate(alpha):
        table = np.concatenate(([0.0], np.cumsum(np.log(a + steps)))) - special.gammaln(k + 1)
        out += table[counts[:, j]]
    return out


def simplex_model(
    cm: ConfusionMatrix,
    *,
    prior: Any = "uniform",
    future_size: int | None = None,
    tolerance: float = DEFAULT_TOLERANCE,
) -> SimplexModel:
    """Dirichlet-multinomial posterior predictive over all matrices of size N.

    Parameters
    ----------
    cm : ConfusionMatrix
        The observed matrix.
    prior : {"uniform", "jeffreys"} or float
        Concentration added to each of the four cells.
    future_size : int, optional
        The total ``N`` of the predicted test set (default: as observed). A pair
        ``(p, n)`` is refused: this model does not fix the prevalence, so the numbers
        of positives and negatives are part of what it predicts; pass ``N = p + n``.
    tolerance : float
        The smallest masses summing to at most ``tolerance`` are pruned (at most
        :data:`~confusionlab._validation.MAX_TOLERANCE`).

    Examples
    --------
    >>> m = simplex_model(ConfusionMatrix(tp=2, fn=1, fp=1, tn=2), tolerance=0)
    >>> len(m.pmf), round(float(m.pmf.sum()), 12)
    (84, 1.0)
    """
    cm = check_instance(cm, "cm", ConfusionMatrix, "a ConfusionMatrix")
    N = check_future_total(future_size)
    N = cm.N if N is None else N
    tolerance = check_tolerance(tolerance)
    alpha = np.array(cm.as_tuple(), dtype=np.float64) + resolve_prior(prior)
    counts = simplex_counts(N)  # the isometric coordinates are not needed here (SimplexModel.points)
    pmf = np.exp(dirichlet_multinomial_logpmf(counts, alpha))
    if tolerance == 0:
        return SimplexModel(N, counts, pmf, 0.0)
    # The pruned points are the lightest whose running sum stays within the tolerance. Every
    # point below tolerance / M belongs to them (all of those together weigh less than it),
    # so only the points between tolerance / M and tolerance need sorting.
    sure = pmf < tolerance / pmf.size
    maybe = np.flatnonzero(~sure & (pmf <= tolerance))
    order = maybe[np.argsort(pmf[maybe], kind="stable")]
    light = float(pmf[sure].sum()) + np.cumsum(pmf[order]) <= tolerance
    keep = ~sure
    keep[order[light]] = False
    return SimplexModel(N, counts[keep], pmf[keep], float(pmf[~keep].sum()))
