"""Mixtures of metric distributions (refits of a model) and the split of their spread.

A model refitted R times (other seeds) and scored on a new test set gives, for "a new
refit scored on a new test set", the equal-weight **mixture** of the refits'
distributions. Its variance splits by the law of total variance into a test-set part
(the mean of the refits' variances) and a refit part (the variance, ddof = 0, of their
means): :func:`decompose`, the one implementation of that split.

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
from threadpoolctl import ThreadpoolController

from ._validation import (
    DEFAULT_TOLERANCE,
    MAX_TOLERANCE,
    InvalidParameterError,
    check_choice,
    check_memory,
    check_tolerance,
    check_undefined,
)
from .confusion import ConfusionMatrix
from .distribution import MetricDistribution, lattice_bytes, lattice_distribution
from .metrics import Metric, get_metric
from .models import SLICE_MODELS, slice_model

__all__ = ["MIXTURE_EXTRA_BYTES", "SliceMixture", "decompose", "mixture", "mixture_bytes", "slice_mixture"]


def decompose(means: Any, variances: Any) -> dict[str, float]:
    """Law of total variance of an equal-weight mixture, from its components' moments.

    ``test_set_sd² = mean of the variances`` (the spread a new test set adds),
    ``refit_sd² = variance (ddof = 0) of the means`` (the spread between refits) and
    ``total_sd² = their sum`` (the mixture's own variance).

    Parameters
    ----------
    means, variances : array-like of float
        Each component's mean and variance (one per refit).

    Returns
    -------
    dict
        ``{"test_set_sd", "refit_sd", "total_sd"}``.

    Notes
    -----
    Infinite moments are reported, not hidden. A component whose mean is ±inf (a metric
    that is ±inf with positive mass, e.g. LR+ where FPR = 0 < TPR) has an infinite
    variance, so the test-set part is inf; the spread of means some of which are
    infinite is undefined (NaN); the total is the mixture's variance: inf, or NaN when
    +inf and −inf both carry mass (or a component's mean is already NaN). A single
    component has no refit spread (0).

    Examples
    --------
    >>> parts = decompose([0.5, 0.7], [0.01, 0.03])
    >>> [round(parts[k] ** 2, 6) for k in ("test_set_sd", "refit_sd", "total_sd")]
    [0.02, 0.01, 0.03]
    >>> decompose([float("inf"), 0.5], [float("inf"), 0.01])
    {'test_set_sd': inf, 'refit_sd': nan, 'total_sd': inf}
    """
    m = np.asarray(means, dtype=np.float64).ravel()
    v = np.asarray(variances, dtype=np.float64).ravel()
    test = float(np.mean(v))  # inf when a variance is, NaN when one is NaN
    if m.size <= 1:
        refit = 0.0
        total = test
    elif np.all(np.isfinite(m)):
        refit = float(np.var(m))
        total = test + refit
    else:
        infinite = m[np.isinf(m)]
        refit = math.nan
        both_signs = infinite.size and (infinite > 0).any() and (infinite < 0).any()
        total = math.nan if np.isnan(m).any() or both_signs or math.isnan(test) else math.inf
    return {"test_set_sd": math.sqrt(test), "refit_sd": math.sqrt(refit), "total_sd": math.sqrt(total)}


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
        weights = (a.T @ b) / r
    tp = np.arange(tp_lo, tp_hi, dtype=np.int64)[:, None]
    tn = np.arange(tn_lo, tn_hi, dtype=np.int64)[None, :]
    cols = (tp, p - tp, n - tn, tn)
    pruned = float(np.mean([sl.pruned_mass for sl in order]))
    keep = weights > 0  # the bounding box of the windows has corners no component reaches
    pooled = lattice_distribution(
        m,
        cols,
        weights,
        largest=p + n,
        pruned=pruned,
        model=f"{model} mixture of {r}",
        undefined=undefined_value,
        keep=None if tolerance == 0 or keep.all() else keep,  # tolerance 0: the whole slice, as one component
    )
    with _one_blas_thread():
        means, variances = _component_moments(m, cols, a, b, undefined_value)
    return SliceMixture(pooled, means, variances)


_CONTROLLER: list[ThreadpoolController] = []


def _one_blas_thread() -> Any:
    """A context limiting BLAS to one thread. threadpoolctl's controller is built once:
    each ``threadpool_limits`` call re-reads the loaded libraries (about 9 ms, most of a
    small group's mixture)."""
    if not _CONTROLLER:
        _CONTROLLER.append(ThreadpoolController())
    return _CONTROLLER[0].limit(limits=1, user_api="blas")


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
