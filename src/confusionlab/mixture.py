"""Exact mixtures of metric distributions that share one slice (refits of a model).

Refits of a model scored on one test set share the true labels, so their confusion
matrices share ``p`` and ``n``: one slice. The equal-weight mixture of their
distributions ("a new refit scored on a new test set") is then the push-forward of
one lattice PMF, the average of the refits' joint PMFs,

    W = (1/R) Σ_r tp_r ⊗ tn_r = (1/R) · Aᵀ B,

with A (R × P) and B (R × Q) the refits' marginals aligned on the union of their
windows: one matrix product, and one exact grouping instead of R. Each refit's mean
and variance — the law-of-total-variance decomposition — come from the same lattice
values V: mean_r = Σ_ij A_ri B_rj V_ij / Σ_ij A_ri B_rj = rowsum((A V) ⊙ B) / mass_r.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

from ._validation import DEFAULT_TOLERANCE, check_choice, check_memory, check_tolerance, check_undefined
from .confusion import ConfusionMatrix
from .distribution import BYTES_PER_LATTICE_POINT, MetricDistribution, _tolerance_advice, lattice_distribution
from .metrics import Metric, get_metric
from .models import slice_model

__all__ = ["SliceMixture", "slice_mixture"]


@dataclass(frozen=True)
class SliceMixture:
    """The equal-weight mixture of the metric's distributions for several matrices of one slice.

    Attributes
    ----------
    distribution : MetricDistribution
        The mixture (exact values, masses averaged over the components).
    means, variances : ndarray
        Each component's mean and variance (of its retained mass, as
        :meth:`MetricDistribution.mean` and :meth:`~MetricDistribution.var` give them).
    """

    distribution: MetricDistribution
    means: np.ndarray
    variances: np.ndarray

    def decompose(self) -> dict[str, float]:
        """Law of total variance: test_set_sd² = mean of the variances, refit_sd² = variance
        (ddof = 0) of the means, total_sd² = their sum.

        Infinite moments (a metric that is ±inf with positive mass) give infinite
        test-set and total parts and an undefined (NaN) refit part.
        """
        test = float(np.mean(self.variances))
        if not np.all(np.isfinite(self.means)):
            return {"test_set_sd": np.inf, "refit_sd": np.nan, "total_sd": np.inf}
        refit = float(np.var(self.means)) if self.means.size > 1 else 0.0
        return {
            "test_set_sd": float(np.sqrt(test)),
            "refit_sd": float(np.sqrt(refit)),
            "total_sd": float(np.sqrt(test + refit)),
        }


def slice_mixture(
    cms: Sequence[ConfusionMatrix],
    metric: str | Metric,
    model: str = "beta-binomial",
    *,
    prior: Any = "uniform",
    tolerance: float = DEFAULT_TOLERANCE,
    undefined: float | str = 0.0,
) -> SliceMixture:
    """The mixture of ``metric_distribution(cm, metric, model)`` over ``cms`` (one slice), exactly.

    Parameters
    ----------
    cms : sequence of ConfusionMatrix
        Matrices with the same ``p`` and ``n`` (e.g. one per refit of a model).
    metric, model, prior, tolerance, undefined
        As for :func:`~confusionlab.metric_distribution` (slice models only).

    Returns
    -------
    SliceMixture
        Equal, value for value, to pooling the R distributions with weight 1/R, and
        their means and variances; computed with one grouping of the union lattice.

    Examples
    --------
    >>> from confusionlab import ConfusionMatrix, metric_distribution
    >>> cms = [ConfusionMatrix(tp=16, fn=4, fp=8, tn=32), ConfusionMatrix(tp=14, fn=6, fp=6, tn=34)]
    >>> mix = slice_mixture(cms, "f1")
    >>> one = [metric_distribution(cm, "f1") for cm in cms]
    >>> bool(abs(mix.distribution.mean() - (one[0].mean() + one[1].mean()) / 2) < 1e-12)
    True
    >>> bool(abs(mix.means[1] - one[1].mean()) < 1e-12)
    True
    """
    m = get_metric(metric)
    model = check_choice(model, "model", ("binomial", "beta-binomial"))
    tolerance = check_tolerance(tolerance)
    undefined_value = check_undefined(undefined)
    if isinstance(cms, ConfusionMatrix) or not isinstance(cms, Sequence) or len(cms) == 0:
        raise TypeError(f"cms must be a non-empty sequence of ConfusionMatrix, got {type(cms).__name__}")
    if not all(isinstance(cm, ConfusionMatrix) for cm in cms):
        raise TypeError("cms must hold ConfusionMatrix objects only")
    p, n = cms[0].p, cms[0].n
    if any(cm.p != p or cm.n != n for cm in cms):
        raise ValueError("cms must share one slice: the same positives p and negatives n (one test set's labels)")

    components = {cm.as_tuple(): slice_model(cm, model, prior=prior, tolerance=tolerance) for cm in cms}
    order = [components[cm.as_tuple()] for cm in cms]
    tp_lo = min(sl.tp_lo for sl in order)
    tp_hi = max(sl.tp_lo + sl.tp_pmf.size for sl in order)
    tn_lo = min(sl.tn_lo for sl in order)
    tn_hi = max(sl.tn_lo + sl.tn_pmf.size for sl in order)
    size_p, size_q, r = tp_hi - tp_lo, tn_hi - tn_lo, len(order)
    check_memory(
        float(size_p) * size_q * (BYTES_PER_LATTICE_POINT + 16) + 8.0 * r * (size_p + size_q),
        f"the {model} lattice of {size_p:,} × {size_q:,} (TP, TN) points covering {r} matrices",
        _tolerance_advice(tolerance),
    )
    a, b = np.zeros((r, size_p)), np.zeros((r, size_q))
    for i, sl in enumerate(order):
        a[i, sl.tp_lo - tp_lo : sl.tp_lo - tp_lo + sl.tp_pmf.size] = sl.tp_pmf
        b[i, sl.tn_lo - tn_lo : sl.tn_lo - tn_lo + sl.tn_pmf.size] = sl.tn_pmf
    with threadpool_limits(limits=1, user_api="blas"):  # small products: threads only cost on a busy machine
        weights = (a.T @ b) / r
    tp = np.arange(tp_lo, tp_hi, dtype=np.int64)[:, None]
    tn = np.arange(tn_lo, tn_hi, dtype=np.int64)[None, :]
    cols = (tp, p - tp, n - tn, tn)
    pruned = float(np.mean([sl.pruned_mass for sl in order]))
    keep = weights > 0  # the bounding box of the windows has corners no component reaches
    mixture = lattice_distribution(
        m,
        cols,
        weights,
        largest=p + n,
        pruned=pruned,
        model=f"{model} mixture of {r}",
        undefined=undefined_value,
        keep=None if tolerance == 0 or keep.all() else keep,  # tolerance 0: the whole slice, as one component
    )
    with threadpool_limits(limits=1, user_api="blas"):
        means, variances = _component_moments(m, cols, a, b, undefined_value)
    return SliceMixture(mixture, means, variances)


def _component_moments(
    m: Metric, cols: tuple[np.ndarray, ...], a: np.ndarray, b: np.ndarray, undefined: float | None
) -> tuple[np.ndarray, np.ndarray]:
    """Each component's mean and variance of its retained mass, from the lattice values.

    E_r[f] = Σ_ij a_ri b_rj f_ij is one matrix product, (a f) · b summed per row; only
    the indicator products that can be non-zero (excluded 0/0 points, ±inf values)
    are computed.
    """
    with np.errstate(all="ignore"):
        values = m.values(*cols, undefined=np.nan)
    undefined_points = np.isnan(values)
    finite = np.isfinite(values)
    if undefined is not None:
        values = np.where(undefined_points, undefined, values)
        finite |= undefined_points
        undefined_points = np.zeros_like(undefined_points)
    kept = finite & ~undefined_points

    def expect(f: np.ndarray) -> np.ndarray:
        return np.einsum("rq,rq->r", a @ np.ascontiguousarray(f, dtype=np.float64), b)

    mass = expect(kept) if not kept.all() else a.sum(axis=1) * b.sum(axis=1)
    if not finite.all():  # ±inf values: a component whose mass reaches them has infinite moments
        plus, minus = expect(values == np.inf), expect(values == -np.inf)
    else:
        plus = minus = np.zeros(a.shape[0])
    v = np.where(kept, values, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        means = expect(v) / mass
        centre = float(np.nanmean(means)) if np.isfinite(means).any() else 0.0
        d = np.where(kept, values - centre, 0.0)  # centred: no cancellation in E[d²] − E[d]²
        variances = np.maximum(expect(d * d) / mass - (means - centre) ** 2, 0.0)
    means = np.where(plus > 0, np.where(minus > 0, np.nan, np.inf), np.where(minus > 0, -np.inf, means))
    variances = np.where((plus > 0) | (minus > 0), np.where(np.isnan(means), np.nan, np.inf), variances)
    return means, variances
