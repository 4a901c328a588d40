"""The slice models (``p`` and ``n`` fixed): independent TP and TN marginals."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import (
    DEFAULT_TOLERANCE,
    check_choice,
    check_future_size,
    check_instance,
    check_tolerance,
)
from ..confusion import ConfusionMatrix
from .marginals import shared_marginal
from .names import SLICE_MODELS
from .priors import resolve_prior

__all__ = ["SliceModel", "slice_model"]


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


def slice_model(
    cm: ConfusionMatrix,
    model: str = "beta-binomial",
    *,
    prior: Any = "uniform",
    future_size: int | tuple[int, int] | None = None,
    tolerance: float = DEFAULT_TOLERANCE,
) -> SliceModel:
    """Marginal PMFs of TP and TN for a new test set (binomial or beta-binomial).

    Parameters
    ----------
    cm : ConfusionMatrix
        The observed matrix.
    model : {"binomial", "beta-binomial"}
        One of :data:`SLICE_MODELS`.
    prior : {"uniform", "jeffreys"} or float
        Symmetric Beta(α, α) prior of the beta-binomial model.
    future_size : int or (p, n), optional
        Size of the predicted test set (default: as observed): a pair of positives
        and negatives, or a total ``N`` split in the observed proportions,
        ``p′ = ⌊N·p/(p + n) + ½⌋`` (see :func:`~confusionlab._validation.check_future_size`).
    tolerance : float
        Each marginal drops tails of total mass at most ``tolerance``.

    Examples
    --------
    >>> cm = ConfusionMatrix(tp=16, fn=4, fp=8, tn=32)
    >>> m = slice_model(cm, tolerance=0)
    >>> m.tp_pmf.size, m.tn_pmf.size, m.pruned_mass
    (21, 41, 0.0)
    >>> big = slice_model(cm, future_size=90)  # 90 · 20/60 = 30 positives
    >>> big.p, big.n
    (30, 60)
    """
    cm = check_instance(cm, "cm", ConfusionMatrix, "a ConfusionMatrix")
    p_new, n_new = check_future_size(future_size, cm.p, cm.n) or (cm.p, cm.n)
    model = check_choice(model, "model", SLICE_MODELS)
    alpha = resolve_prior(prior)
    tolerance = check_tolerance(tolerance)
    tp = shared_marginal(model, cm.tp, cm.p, p_new, alpha, tolerance, "positives (TP)")
    tn = shared_marginal(model, cm.tn, cm.n, n_new, alpha, tolerance, "negatives (TN)")
    pruned = tp.dropped + tn.dropped - tp.dropped * tn.dropped
    return SliceModel(model, p_new, n_new, tp.lo, tp.pmf, tn.lo, tn.pmf, pruned)
