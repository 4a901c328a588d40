"""Uncertainty models for a confusion matrix (SPEC A3).

* ``binomial`` — the paper's plug-in model: TP ~ Bin(p, TP/p) and
  TN ~ Bin(n, TN/n), independent, ``p`` and ``n`` fixed.
* ``beta-binomial`` — the paper's main model, the posterior predictive of a new
  test set: TP ~ BetaBin(p, TP + α, FN + β), TN ~ BetaBin(n, TN + α, FP + β),
  independent; prior α = β = 1 (uniform) by default, ½ (Jeffreys) as an option.
* ``dirichlet-multinomial`` — prevalence uncertain too (beyond the paper):
  (TP, FN, FP, TN) of a new test set of size N ~ DirMult(N, counts + prior), a
  mass over the whole simplex.

Each model can predict a test set of another size (``future_size``). Marginal
tails lighter than a tolerance are pruned; the pruned mass is reported.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import special, stats

from ._validation import check_count, check_positive_real
from .confusion import ConfusionMatrix
from .lattice import SimplexPoints, simplex_points

__all__ = [
    "MODELS",
    "PRIORS",
    "SimplexModel",
    "SliceModel",
    "prune_tails",
    "resolve_prior",
    "simplex_model",
    "slice_model",
]

MODELS = ("binomial", "beta-binomial", "dirichlet-multinomial")
PRIORS = {"uniform": 1.0, "bayes-laplace": 1.0, "jeffreys": 0.5}


def resolve_prior(prior: Any) -> float:
    """The symmetric prior parameter α = β: a name from :data:`PRIORS` or a positive number."""
    if isinstance(prior, str):
        key = prior.strip().lower().replace("_", "-")
        if key not in PRIORS:
            raise ValueError(f"unknown prior {prior!r}; expected one of {sorted(PRIORS)} or a positive number")
        return PRIORS[key]
    return check_positive_real(prior, "prior")


def prune_tails(pmf: np.ndarray, tolerance: float) -> tuple[int, int, float]:
    """Indices ``lo, hi`` (inclusive) keeping all but tails of mass <= tolerance/2 each.

    Returns ``(lo, hi, dropped_mass)``; nothing is dropped when ``tolerance == 0``.

    >>> prune_tails(np.array([1e-20, 0.5, 0.5, 1e-20]), 1e-12)
    (1, 2, 2e-20)
    """
    if tolerance == 0:
        return 0, pmf.size - 1, 0.0
    half = tolerance / 2
    left = np.cumsum(pmf)
    right = np.cumsum(pmf[::-1])
    lo = int(np.searchsorted(left, half, side="right"))
    hi = pmf.size - 1 - int(np.searchsorted(right, half, side="right"))
    if lo > hi:  # a single point carries almost everything
        lo = hi = int(np.argmax(pmf))
        return lo, hi, float(pmf.sum() - pmf[lo])
    dropped = float((left[lo - 1] if lo > 0 else 0.0) + (right[pmf.size - 2 - hi] if hi < pmf.size - 1 else 0.0))
    return lo, hi, dropped


@dataclass(frozen=True)
class SliceModel:
    """Independent marginals of TP and TN on a slice (p, n), tails pruned.

    ``tp_pmf[i]`` is the mass of ``TP = tp_lo + i`` (likewise TN). The joint mass
    of (TP, TN) is the outer product.
    """

    model: str
    p: int
    n: int
    tp_lo: int
    tp_pmf: np.ndarray
    tn_lo: int
    tn_pmf: np.ndarray
    pruned_mass: float

    @property
    def tp(self) -> np.ndarray:
        """TP values as a column, int64."""
        return np.arange(self.tp_lo, self.tp_lo + self.tp_pmf.size, dtype=np.int64)[:, None]

    @property
    def tn(self) -> np.ndarray:
        """TN values as a row, int64."""
        return np.arange(self.tn_lo, self.tn_lo + self.tn_pmf.size, dtype=np.int64)[None, :]

    @property
    def size(self) -> int:
        return self.tp_pmf.size * self.tn_pmf.size

    def joint(self) -> np.ndarray:
        """Joint mass over the kept lattice, shape (len(tp), len(tn))."""
        return np.multiply.outer(self.tp_pmf, self.tn_pmf)


def _marginal(model: str, successes: int, trials: int, future: int, prior: float, what: str) -> np.ndarray:
    k = np.arange(future + 1)
    if model == "binomial":
        if trials == 0:
            if future == 0:
                return np.ones(1)
            raise ValueError(
                f"the binomial model needs observed {what} to estimate a rate; use the "
                "beta-binomial model, whose prior covers an empty class"
            )
        return stats.binom.pmf(k, future, successes / trials)
    return stats.betabinom.pmf(k, future, successes + prior, trials - successes + prior)


def slice_model(
    cm: ConfusionMatrix,
    model: str = "beta-binomial",
    *,
    prior: Any = "uniform",
    future_size: tuple[int, int] | None = None,
    tolerance: float = 1e-12,
) -> SliceModel:
    """Marginal PMFs of TP and TN for a new test set (binomial or beta-binomial).

    Parameters
    ----------
    cm : ConfusionMatrix
        The observed matrix.
    model : {"binomial", "beta-binomial"}
    prior : {"uniform", "jeffreys"} or float
        Symmetric Beta(α, α) prior of the beta-binomial model.
    future_size : (p, n), optional
        Positives and negatives of the predicted test set (default: as observed).
    tolerance : float
        Each marginal drops tails of total mass at most ``tolerance``.

    Examples
    --------
    >>> m = slice_model(ConfusionMatrix(tp=16, fn=4, fp=8, tn=32), tolerance=0)
    >>> m.tp_pmf.size, m.tn_pmf.size, m.pruned_mass
    (21, 41, 0.0)
    """
    p_new, n_new = (
        (cm.p, cm.n)
        if future_size is None
        else (
            check_count(future_size[0], "future_size[0] (positives)"),
            check_count(future_size[1], "future_size[1] (negatives)"),
        )
    )
    alpha = resolve_prior(prior)
    tp_full = _marginal(model, cm.tp, cm.p, p_new, alpha, "positives")
    tn_full = _marginal(model, cm.tn, cm.n, n_new, alpha, "negatives")
    tp_lo, tp_hi, tp_drop = prune_tails(tp_full, tolerance)
    tn_lo, tn_hi, tn_drop = prune_tails(tn_full, tolerance)
    pruned = tp_drop + tn_drop - tp_drop * tn_drop
    return SliceModel(model, p_new, n_new, tp_lo, tp_full[tp_lo : tp_hi + 1], tn_lo, tn_full[tn_lo : tn_hi + 1], pruned)


@dataclass(frozen=True)
class SimplexModel:
    """Dirichlet-multinomial mass over the simplex of size ``N`` (kept points only)."""

    N: int
    counts: np.ndarray  # (M, 4) TP, FN, FP, TN
    pmf: np.ndarray
    pruned_mass: float
    points: SimplexPoints


def dirichlet_multinomial_logpmf(counts: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    """log DirMult(x | N, alpha) for rows ``x`` of ``counts`` summing to N (vectorised)."""
    counts = np.asarray(counts, dtype=np.int64)
    N = int(counts[0].sum()) if counts.size else 0
    a0 = float(np.sum(alpha))
    out = np.full(counts.shape[0], special.gammaln(N + 1) + special.gammaln(a0) - special.gammaln(N + a0))
    k = np.arange(N + 1)
    for j, a in enumerate(alpha):
        table = special.gammaln(k + a) - special.gammaln(a) - special.gammaln(k + 1)
        out += table[counts[:, j]]
    return out


def simplex_model(
    cm: ConfusionMatrix,
    *,
    prior: Any = "uniform",
    future_size: int | None = None,
    tolerance: float = 1e-12,
) -> SimplexModel:
    """Dirichlet-multinomial posterior predictive over all matrices of size N.

    The smallest masses summing to at most ``tolerance`` are pruned.

    >>> m = simplex_model(ConfusionMatrix(tp=2, fn=1, fp=1, tn=2), tolerance=0)
    >>> len(m.pmf), round(float(m.pmf.sum()), 12)
    (84, 1.0)
    """
    N = cm.N if future_size is None else check_count(future_size, "future_size")
    alpha = np.array(cm.as_tuple(), dtype=np.float64) + resolve_prior(prior)
    pts = simplex_points(N)
    pmf = np.exp(dirichlet_multinomial_logpmf(pts.counts, alpha))
    if tolerance == 0:
        return SimplexModel(N, pts.counts, pmf, 0.0, pts)
    order = np.argsort(pmf)
    light = np.cumsum(pmf[order]) <= tolerance
    drop = order[light]
    keep = np.ones(pmf.size, dtype=bool)
    keep[drop] = False
    return SimplexModel(N, pts.counts[keep], pmf[keep], float(pmf[drop].sum()), pts)
