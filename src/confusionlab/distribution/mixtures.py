"""Mixtures of metric distributions (refits of a model).

A model refitted R times (other seeds) and scored on a new test set gives, for "a new
refit scored on a new test set", the equal-weight **mixture** of the refits'
distributions; its variance splits by the law of total variance
(:func:`~confusionlab.distribution.decompose`).

:func:`mixture` pools any distributions of one metric value by value. Refits scored on
one test set share the true labels, so their confusion matrices share ``p`` and ``n``:
one slice. :func:`slice_mixture` then computes the mixture as the push-forward of one
lattice PMF, the average of the refits' joint PMFs,

    W = (1/R) Σ_r tp_r ⊗ tn_r = (1/R) · Aᵀ B,

with A (R × P) and B (R × Q) the refits' marginals aligned on the union of their
windows: one matrix product, and one exact grouping instead of R. Each refit's mean
and variance — the decomposition — come from the same lattice values V:
mean_r = Σ_ij A_ri B_rj V_ij / Σ_ij A_ri B_rj = rowsum((A V) ⊙ B) / mass_r.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import (
    DEFAULT_TOLERANCE,
    MAX_TOLERANCE,
    InvalidParameterError,
    TooLargeError,
    check_choice,
    check_memory,
    check_tolerance,
    check_undefined,
)
from ..confusion import ConfusionMatrix
from ..metrics import Metric, get_metric
from ..models import SLICE_MODELS, slice_model
from .arithmetic import lattice_bytes
from .lean import _lean_pooled
from .moments import _component_moments, _one_blas_thread
from .pmf import MetricDistribution
from .pushforward import lattice_distribution
from .variance import decompose

__all__ = [
    "EXACT_MIXTURE_POINTS",
    "LEAN_POINTS",
    "MIXTURE_EXTRA_BYTES",
    "SliceMixture",
    "mixture",
    "mixture_bytes",
    "slice_mixture",
]


def mixture(distributions: Sequence[MetricDistribution], *, model: str | None = None) -> MetricDistribution:
    """The equal-weight mixture of distributions of one metric (values pooled exactly).

    Parameters
    ----------
    distributions : sequence of MetricDistribution
        Of the same metric (e.g. one per refit).
    model : str, optional
        Name recorded in the result (default: ``"<model> mixture of R"``).

    Returns
    -------
    MetricDistribution
        Probabilities averaged, pruned and undefined masses averaged, multiplicities
        summed; the question (``target``) of the first, the largest ``cdf_error``, the
        ``method`` "monte-carlo" when a component was sampled. A
        single distribution is returned as it is.

    Raises
    ------
    confusionlab.InvalidParameterError
        When ``distributions`` is empty, holds something else than MetricDistribution
        objects, or distributions of different metrics.

    See Also
    --------
    slice_mixture : the same mixture for matrices of one slice, from one grouping.
    decompose : the split of the mixture's variance.

    Examples
    --------
    >>> from confusionlab import ConfusionMatrix, metric_distribution
    >>> a = metric_distribution(ConfusionMatrix(tp=8, fn=2, fp=3, tn=7), "recall")
    >>> b = metric_distribution(ConfusionMatrix(tp=5, fn=5, fp=3, tn=7), "recall")
    >>> m = mixture([a, b])
    >>> round(m.mean(), 6) == round((a.mean() + b.mean()) / 2, 6)
    True
    >>> mixture([a, metric_distribution(ConfusionMatrix(tp=8, fn=2, fp=3, tn=7), "f1")])
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: distributions must all be of one metric, got ['recall', 'f1']
    """
    if isinstance(distributions, MetricDistribution) or not isinstance(distributions, Sequence):
        raise InvalidParameterError(
            f"distributions must be a sequence of MetricDistribution, got {type(distributions).__name__}"
        )
    if not distributions:
        raise InvalidParameterError("distributions is empty: a mixture needs at least one distribution")
    strangers = sorted({type(d).__name__ for d in distributions if not isinstance(d, MetricDistribution)})
    if strangers:
        raise InvalidParameterError(f"distributions must hold MetricDistribution objects only, got {strangers}")
    metrics = list(dict.fromkeys(d.metric for d in distributions))
    if len(metrics) > 1:
        raise InvalidParameterError(f"distributions must all be of one metric, got {metrics}")
    first = distributions[0]
    if len(distributions) == 1:
        return first
    r = float(len(distributions))
    values = np.concatenate([d.values for d in distributions])
    uniq, inverse = np.unique(values, return_inverse=True)
    probs = np.bincount(inverse, weights=np.concatenate([d.probabilities for d in distributions]) / r)
    mult = np.bincount(inverse, weights=np.concatenate([d.multiplicities for d in distributions]))
    out = MetricDistribution(
        uniq,
        probs,
        np.rint(mult).astype(np.int64),
        metric=first.metric,
        model=model or f"{first.model} mixture of {len(distributions)}",
        undefined_mass=sum(d.undefined_mass for d in distributions) / r,
        undefined_points=sum(d.undefined_points for d in distributions),
        pruned_mass=sum(d.pruned_mass for d in distributions) / r,
        lattice_points=sum(d.lattice_points for d in distributions),
        strategy="mixture",
        undefined_excluded=first.undefined_excluded,
        check_total=True,
        target=first.target,
        cdf_error=max(d.cdf_error for d in distributions),
        # the mean of R independent Monte Carlo estimates, each with its own standard error
        mc_error=math.sqrt(sum(d.mc_error**2 for d in distributions)) / r,
        method=next((m for m in ("monte-carlo", "quadrature") if any(d.method == m for d in distributions)), "exact"),
    )
    return out


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
        """Law of total variance of the mixture (:func:`decompose` of the components' moments)."""
        return decompose(self.means, self.variances)


def slice_mixture(
    cms: Sequence[ConfusionMatrix],
    metric: str | Metric,
    model: str = "beta-binomial",
    *,
    prior: Any = "uniform",
    tolerance: float = DEFAULT_TOLERANCE,
    undefined: float | str = 0.0,
    max_points: float | None = None,
) -> SliceMixture:
    """The mixture of ``metric_distribution(cm, metric, model)`` over ``cms`` (one slice), exactly.

    Parameters
    ----------
    cms : sequence of ConfusionMatrix
        Matrices with the same ``p`` and ``n`` (e.g. one per refit of a model).
    metric, model, prior, tolerance, undefined
        As for :func:`~confusionlab.metric_distribution` (slice models only).
    max_points : float, optional
        Refuse (:class:`~confusionlab.TooLargeError`, before anything is allocated) a union
        lattice of more points: a work budget, e.g. :data:`EXACT_MIXTURE_POINTS` (default: only
        the memory limit refuses).

    Returns
    -------
    SliceMixture
        Equal, value for value, to pooling the R distributions with weight 1/R, and
        their means and variances; computed with one grouping of the union lattice.

    See Also
    --------
    mixture : the same pooling for any distributions of one metric.

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
    model = check_choice(model, "model", SLICE_MODELS)
    tolerance = check_tolerance(tolerance)
    undefined_value = check_undefined(undefined)
    if isinstance(cms, ConfusionMatrix) or not isinstance(cms, Sequence) or len(cms) == 0:
        raise InvalidParameterError(f"cms must be a non-empty sequence of ConfusionMatrix, got {type(cms).__name__}")
    if not all(isinstance(cm, ConfusionMatrix) for cm in cms):
        raise InvalidParameterError("cms must hold ConfusionMatrix objects only")
    p, n = cms[0].p, cms[0].n
    if any(cm.p != p or cm.n != n for cm in cms):
        shapes = sorted({(cm.p, cm.n) for cm in cms})
        raise InvalidParameterError(
            f"cms must share one slice: the same positives p and negatives n (one test set's labels), got {shapes}"
        )

    components = {cm.as_tuple(): slice_model(cm, model, prior=prior, tolerance=tolerance) for cm in cms}
    order = [components[cm.as_tuple()] for cm in cms]
    tp_lo = min(sl.tp_lo for sl in order)
    tp_hi = max(sl.tp_lo + sl.tp_pmf.size for sl in order)
    tn_lo = min(sl.tn_lo for sl in order)
    tn_hi = max(sl.tn_lo + sl.tn_pmf.size for sl in order)
    size_p, size_q, r = tp_hi - tp_lo, tn_hi - tn_lo, len(order)
    if max_points is not None and float(size_p) * size_q > max_points:
        raise TooLargeError(
            f"the {model} lattice of {size_p:,} × {size_q:,} (TP, TN) points covering {r} matrices is above "
            f"max_points={max_points:,.0f}; pool the matrices' own distributions (method='auto': sampled where large)"
        )
    check_memory(
        mixture_bytes(m, p + n, size_p, size_q, r),
        f"the {model} lattice of {size_p:,} × {size_q:,} (TP, TN) points covering {r} matrices",
        (
            f"raise tolerance (now {tolerance:g}; at most {MAX_TOLERANCE:g}), or pool the matrices' own "
            "distributions: mixture([metric_distribution(cm, metric, method='auto') for cm in cms]) (what "
            "evaluate does)"
        ),
    )
    a, b = np.zeros((r, size_p)), np.zeros((r, size_q))
    for i, sl in enumerate(order):
        a[i, sl.tp_lo - tp_lo : sl.tp_lo - tp_lo + sl.tp_pmf.size] = sl.tp_pmf
        b[i, sl.tn_lo - tn_lo : sl.tn_lo - tn_lo + sl.tn_pmf.size] = sl.tn_pmf
    with _one_blas_thread():  # small products: threads only cost on a busy machine
        weights = a.T @ b
    weights /= r
    tp = np.arange(tp_lo, tp_hi, dtype=np.int64)[:, None]
    tn = np.arange(tn_lo, tn_hi, dtype=np.int64)[None, :]
    cols = (tp, p - tp, n - tn, tn)
    pruned = float(np.mean([sl.pruned_mass for sl in order]))
    label = f"{model} mixture of {r}"
    pooled = None
    if size_p * size_q >= LEAN_POINTS:
        pooled = _lean_pooled(m, tp, tn, (p, n), weights, tolerance == 0, pruned, label, undefined_value)
    if pooled is None:
        keep = weights > 0  # the bounding box of the windows has corners no component reaches
        pooled = lattice_distribution(
            m,
            cols,
            weights,
            largest=p + n,
            pruned=pruned,
            model=label,
            undefined=undefined_value,
            keep=None if tolerance == 0 or keep.all() else keep,  # tolerance 0: the whole slice, as one component
            slice_pn=(p, n),  # one slice: the metric's slice form (fewer passes, bounds without a scan)
        )
    del weights
    with _one_blas_thread():
        means, variances = _component_moments(m, cols, a, b, undefined_value)
    return SliceMixture(pooled, means, variances)


#: Most points of a union lattice whose mixture :func:`~confusionlab.evaluate`'s
#: ``method="auto"`` computes exactly (about a second and 400 MB a metric kept: the distribution
#: has up to one atom a point); beyond, the refits' own distributions are sampled (Monte Carlo
#: of the same model, labelled).
EXACT_MIXTURE_POINTS = 10_000_000
#: Union lattices of at least this many points take :func:`_lean_pooled` (one exact
#: float key a point, sorted once, no copies of the lattice); smaller ones the general
#: grouping of :func:`~confusionlab.distribution.lattice_distribution`, bit for bit as before.
LEAN_POINTS = 1 << 20


#: Bytes per point of a slice mixture beyond the grouping's own (:func:`lattice_bytes`):
#: the pooled weights, the mask of reached points and the components' moments.
MIXTURE_EXTRA_BYTES = 24


def mixture_bytes(m: Metric, largest_total: int, size_p: int, size_q: int, r: int) -> float:
    """Peak bytes of :func:`slice_mixture` on a union lattice of ``size_p × size_q`` points
    and ``r`` components: the metric's grouping price (:func:`lattice_bytes`, by its
    arithmetic at ``largest_total``) plus :data:`MIXTURE_EXTRA_BYTES` a point, and the
    components' aligned marginals. Checked against tracemalloc's peaks in the tests.

    >>> from confusionlab.metrics import get_metric
    >>> mixture_bytes(get_metric("recall"), 100, 10, 10, 2)
    5920.0
    """
    return float(size_p) * size_q * (lattice_bytes(m, largest_total) + MIXTURE_EXTRA_BYTES) + 8.0 * r * (
        size_p + size_q
    )
