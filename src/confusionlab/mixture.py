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
    TooLargeError,
    check_choice,
    check_memory,
    check_real_array,
    check_tolerance,
    check_undefined,
)
from .confusion import ConfusionMatrix
from .distribution import (
    TOTAL_MASS_TOLERANCE,
    MetricDistribution,
    checked_in_bulk,
    lattice_bytes,
    lattice_distribution,
)
from .metrics import Metric, get_metric
from .models import SLICE_MODELS, slice_model

__all__ = [
    "BATCH_POINTS",
    "EXACT_MIXTURE_POINTS",
    "MIXTURE_EXTRA_BYTES",
    "SliceMixture",
    "decompose",
    "decompose_rows",
    "mixture",
    "mixture_bytes",
    "slice_mixture",
    "slice_mixtures",
]


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
    m = check_real_array(means, "means")
    v = check_real_array(variances, "variances")
    if m.size == 0 or m.size != v.size:
        raise InvalidParameterError(
            f"means and variances must hold one number per component each, got {m.size} and {v.size}"
        )
    if np.any(v < 0):
        raise InvalidParameterError(f"variances must be ≥ 0 (or NaN), got {v[v < 0][:3].tolist()}")
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


def decompose_rows(means: np.ndarray, variances: np.ndarray) -> list[dict[str, float]]:
    """:func:`decompose` of each row of ``means`` and ``variances`` (shape (groups, R)), in
    array operations; the rows with an infinite or NaN mean go through :func:`decompose`."""
    m = np.asarray(means, dtype=np.float64)
    v = np.asarray(variances, dtype=np.float64)
    test = np.mean(v, axis=1)
    refit = np.var(m, axis=1) if m.shape[1] > 1 else np.zeros(m.shape[0])
    with np.errstate(invalid="ignore"):
        sds = np.sqrt(np.stack([test, refit, test + refit], axis=1)).tolist()
    finite = np.isfinite(m).all(axis=1).tolist()
    keys = ("test_set_sd", "refit_sd", "total_sd")
    return [dict(zip(keys, row, strict=True)) if ok else decompose(m[i], v[i])
            for i, (row, ok) in enumerate(zip(sds, finite, strict=True))]  # fmt: skip


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
#: Rows of the lattice whose exact keys are computed at a time by :func:`_lean_pooled`.
_LEAN_ROWS = 64


def _lean_pooled(
    m: Metric,
    tp: np.ndarray,
    tn: np.ndarray,
    pn: tuple[int, int],
    weights: np.ndarray,
    whole: bool,
    pruned: float,
    label: str,
    undefined: float | None,
) -> MetricDistribution | None:
    """The pooled distribution of one large union lattice (``tp`` a column, ``tn`` a row,
    ``weights`` its masses), grouped on exact keys with the memory of one float key a point.

    The keys ``num/den`` are computed a block of rows at a time into one array; points of
    zero weight (corners of the windows' bounding box no component reaches; kept when
    ``whole``, the lattice of ``tolerance=0``) get a key below every other and are dropped
    after the one sort (:func:`~confusionlab.grouping.sort_exactly`'s ``skip``), instead of copying the
    lattice without them. The keys are exact where doubles separate distinct ratios:
    ``D * V < 2**51`` for a constant denominator ``D`` (the balanced family on a slice),
    ``D**2 * V < 2**51`` otherwise (:mod:`confusionlab.grouping`). Returns None — the
    caller takes the general grouping — where that does not hold, where the integers are
    not exact doubles, where the metric has 0/0 or x/0 points on the kept lattice, or where
    the denominator is constant and the keys few (one bincount is cheaper).
    """
    from .distribution import _arithmetic
    from .grouping import _group_sorted, _injective

    p, n = pn
    shape = weights.shape
    if _arithmetic(m, p + n, (tp, p - tp, n - tn, tn)) != "float":
        return None
    # a constant denominator and few integer keys (the rates, accuracy) are cheaper counted by the
    # general path's bincount: told from a 3 × 3 sample (adjacent points give the keys' step) before
    # any key is computed, and decided exactly below
    at_p, at_q = np.unique([0, 1, shape[0] - 1]), np.unique([0, 1, shape[1] - 1])
    probe = m._exact_on_slice(tp[at_p], tn[:, at_q], p, n, as_float=True)
    probe_num = np.broadcast_to(probe.num, (at_p.size, at_q.size)).reshape(-1)
    probe_den = np.broadcast_to(probe.den, (at_p.size, at_q.size)).reshape(-1)
    if (probe_den == probe_den[0]).all() and probe_den[0] != 0:
        probe_step = int(np.gcd.reduce((probe_num - probe_num[0]).astype(np.int64))) or 1
        if (probe_num.max() - probe_num.min()) // probe_step <= 4 * weights.size + (1 << 16):
            return None
    keys = np.empty(shape)
    dmin, dmax, nmin, nmax, vmax = math.inf, 0.0, math.inf, -math.inf, 0.0
    form, first, step = None, None, 0  # step: gcd of the numerators' differences while den is constant
    for lo in range(0, shape[0], _LEAN_ROWS):
        rows = slice(lo, lo + _LEAN_ROWS)
        block = keys[rows]
        form = m._exact_on_slice(tp[rows], tn, p, n, as_float=True)
        num = np.broadcast_to(form.num, block.shape)
        den = np.broadcast_to(form.den, block.shape)
        kept = np.ones(block.shape, dtype=bool) if whole else weights[rows] > 0
        special = den == 0
        if form.undefined is not None:
            special = special | np.broadcast_to(form.undefined, block.shape)
        if (special & kept).any():
            return None
        with np.errstate(divide="ignore", invalid="ignore"):
            np.divide(num, den, out=block)
        if not kept.all():
            block[~kept] = -np.inf
        if kept.any():
            dmin = min(dmin, float(den.min(where=kept, initial=math.inf)))
            dmax = max(dmax, float(den.max(where=kept, initial=0.0)))
            nmin = min(nmin, float(num.min(where=kept, initial=math.inf)))
            nmax = max(nmax, float(num.max(where=kept, initial=-math.inf)))
            vmax = max(vmax, float(np.abs(block).max(where=kept, initial=0.0)))
            if dmin == dmax:
                first = float(num[kept][0]) if first is None else first
                step = math.gcd(step, int(np.gcd.reduce((num[kept] - first).astype(np.int64))))
    out = np.isneginf(keys)
    excluded = int(np.count_nonzero(out))
    if form is None or excluded == keys.size or not max(abs(nmin), abs(nmax), dmax) < 2.0**53:
        return None
    if excluded:  # just below the smallest key, not −inf: the keys' range stays narrow (cheaper to sort)
        keys[out] = np.nextafter(keys.min(where=~out, initial=math.inf), -math.inf)
    del out
    if dmin == dmax:
        if (nmax - nmin) // max(step, 1) <= 4 * (keys.size - excluded) + (1 << 16):
            return None  # few integer keys: the general path counts them with one bincount
        bound = dmax * vmax  # distinct ratios of one denominator differ by at least 1/D
    else:
        bound = dmax**2 * vmax
    if not _injective(bound):
        return None
    grouped = _group_sorted(
        form, keys.reshape(-1), None, None, weights.reshape(-1), check=None, strategy="float-injective", skip=excluded
    )
    return MetricDistribution(
        grouped.values,
        grouped.masses,
        grouped.counts,
        metric=m.name,
        model=label,
        pruned_mass=pruned,
        lattice_points=keys.size - excluded,
        strategy=f"{grouped.strategy} (lean)",
        undefined_excluded=undefined is None,
        check_total=True,
    )


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
    m: Metric,
    cols: tuple[np.ndarray, ...],
    a: np.ndarray,
    b: np.ndarray,
    undefined: float | None,
    valid: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Each component's mean and variance of its retained mass, from the lattice values.

    E_r[f] = Σ_ij a_ri b_rj f_ij is one matrix product, (a f) · b summed per row; only
    the indicator products that can be non-zero (excluded 0/0 points, ±inf values)
    are computed. ``a``, ``b`` (and ``cols``) may carry leading batch axes (groups, by
    :func:`slice_mixtures`); ``valid`` then marks the points of each padded lattice.
    """
    with np.errstate(all="ignore"):
        values = m.values(*cols, undefined=np.nan)
    # the whole lattice: a metric of TN alone (specificity) gives a row, and a @ row fails
    values = np.broadcast_to(values, np.broadcast_shapes(*(np.shape(c) for c in cols)))
    undefined_points = np.isnan(values)
    finite = np.isfinite(values)
    if undefined is not None:
        values = np.where(undefined_points, undefined, values)
        finite |= undefined_points
        undefined_points = np.zeros_like(undefined_points)
    kept = finite & ~undefined_points
    if valid is not None:
        kept = kept & valid  # padding: a and b are 0 there

    def expect(f: np.ndarray) -> np.ndarray:
        return np.einsum("...rq,...rq->...r", a @ np.ascontiguousarray(f, dtype=np.float64), b)

    every = bool(kept.all())  # then no masked copies of the lattice's values
    mass = expect(kept) if not every else a.sum(axis=-1) * b.sum(axis=-1)
    if not finite.all():  # ±inf values: a component whose mass reaches them has infinite moments
        plus, minus = expect(values == np.inf), expect(values == -np.inf)
    else:
        plus = minus = np.zeros(a.shape[:-1])
    v = values if every else np.where(kept, values, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        means = expect(v) / mass
        present = ~np.isnan(means)
        centre = np.where(present, means, 0.0).sum(axis=-1, keepdims=True) / np.maximum(
            present.sum(axis=-1, keepdims=True), 1
        )
        centre = np.where(np.isfinite(means).any(axis=-1, keepdims=True), centre, 0.0)
        d = values - centre[..., None]  # centred: no cancellation in E[d²] − E[d]²
        if not every:
            d[~kept] = 0.0
        np.multiply(d, d, out=d)
        variances = np.maximum(expect(d) / mass - (means - centre) ** 2, 0.0)
    means = np.where(plus > 0, np.where(minus > 0, np.nan, np.inf), np.where(minus > 0, -np.inf, means))
    variances = np.where((plus > 0) | (minus > 0), np.where(np.isnan(means), np.nan, np.inf), variances)
    return means, variances


# ----------------------------------------------------------------------------- many slices at once
#: Largest union lattice (points) of one group that :func:`slice_mixtures` batches; larger
#: ones are left to :func:`slice_mixture` (their own grouping costs more than the call).
BATCH_POINTS = 4096
#: Points (groups × padded lattice) processed in one chunk of :func:`slice_mixtures`.
BATCH_CHUNK_POINTS = 1 << 20


def _gather(
    chunk: np.ndarray, lo_r: np.ndarray, u: np.ndarray, table: np.ndarray, lo: np.ndarray, width: int
) -> np.ndarray:
    """The marginals of the chunk's (group, run) pairs on each group's union window, shape
    (groups, R, width): ``table`` holds the distinct marginals (a zero column last, for padding)."""
    pos = lo[chunk, None, None] + np.arange(width)[None, None, :] - lo_r[chunk][:, :, None]
    pad = table.shape[1] - 1
    pos = np.where((pos >= 0) & (pos < pad), pos, pad)
    return table[u[chunk][:, :, None], pos]


def slice_mixtures(
    counts: Any,
    metric: str | Metric | Sequence[str | Metric],
    model: str = "beta-binomial",
    *,
    prior: Any = "uniform",
    tolerance: float = DEFAULT_TOLERANCE,
    undefined: float = 0.0,
) -> Any:
    """:func:`slice_mixture` of many groups at once, in array operations across the groups.

    Parameters
    ----------
    counts : array-like of int, shape (groups, R, 4)
        Each group's R matrices (TP, FN, FP, TN), one slice per group (the same p and n
        within a group).
    metric : str, Metric or sequence of them
        As for :func:`slice_mixture`; several metrics share the chunks' marginals, weights
        and lattices.
    model, prior, tolerance, undefined
        As for :func:`slice_mixture` (``undefined`` a number: 0/0 points take that value).

    Returns
    -------
    list of SliceMixture or None
        For each group, equal to ``slice_mixture`` of its matrices (values, multiplicities,
        undefined points; masses and moments to rounding), or None where the group is not
        batched: a union lattice above :data:`BATCH_POINTS` points, or keys whose doubles
        might merge distinct values (the caller computes those one by one). For a sequence
        of metrics: ``{metric name: that list}``.

    Notes
    -----
    The union lattices are padded to the largest of a chunk of groups (at most
    :data:`BATCH_CHUNK_POINTS` points a chunk); the refits' marginals are computed once
    per distinct (count, size) and gathered; the pooled weights are one batched matrix
    product; the grouping is one sort on (group, num/den), exact because the chunk's
    bound ``D**2 * V`` is below 2**51 (:mod:`confusionlab.grouping`), then one more on
    (group, value) that merges the 0/0 and x/0 points as :func:`lattice_distribution` does.

    Examples
    --------
    >>> cms = [[(16, 4, 8, 32), (14, 6, 6, 34)], [(3, 1, 2, 4), (2, 2, 1, 5)]]
    >>> batched = slice_mixtures(cms, "f1")
    >>> one = slice_mixture([ConfusionMatrix(tp=3, fn=1, fp=2, tn=4), ConfusionMatrix(tp=2, fn=2, fp=1, tn=5)], "f1")
    >>> bool(np.allclose(batched[1].distribution.probabilities, one.distribution.probabilities, atol=1e-15))
    True
    """
    from .distribution import _arithmetic
    from .grouping import _injective
    from .models import _shared_marginal, resolve_prior

    several = isinstance(metric, Sequence) and not isinstance(metric, str)
    ms = list(dict.fromkeys(get_metric(x) for x in (metric if several else [metric])))  # type: ignore[union-attr]
    model = check_choice(model, "model", SLICE_MODELS)
    tolerance = check_tolerance(tolerance)
    undefined_value = check_undefined(undefined)
    alpha = resolve_prior(prior)
    c4 = np.asarray(counts, dtype=np.int64)
    if c4.ndim != 3 or c4.shape[2] != 4 or c4.shape[1] == 0 or np.any(c4 < 0):
        raise InvalidParameterError(f"counts must be (groups, R, 4) non-negative counts, got shape {c4.shape}")
    n_groups, r, _ = c4.shape
    outs: dict[str, list[SliceMixture | None]] = {m.name: [None] * n_groups for m in ms}
    if n_groups == 0 or undefined_value is None:
        return outs if several else outs[ms[0].name]
    tp, fn, fp, tn = (c4[..., i] for i in range(4))
    p, n = tp + fn, fp + tn
    if np.any(p != p[:, :1]) or np.any(n != n[:, :1]):
        raise InvalidParameterError("counts must share one slice per group: the same p and n in every run")
    p, n = p[:, 0], n[:, 0]

    def marginals(k: np.ndarray, size: np.ndarray, what: str) -> tuple[np.ndarray, ...]:
        """lo, length, dropped of every (group, run), and the distinct marginals padded in one table."""
        stride = int(size.max()) + 1  # (count, size) as one integer key: a 1-D unique, not a row sort
        keys, inverse = np.unique(k.reshape(-1) + stride * np.repeat(size, r), return_inverse=True)
        made = [_shared_marginal(model, int(a % stride), int(a // stride), int(a // stride), alpha, tolerance, what)
                for a in keys]  # fmt: skip
        lo = np.array([x.lo for x in made], dtype=np.int64)
        length = np.array([x.pmf.size for x in made], dtype=np.int64)
        table = np.zeros((len(made), int(length.max()) + 1))  # the last column stays 0: padding
        for i, x in enumerate(made):
            table[i, : x.pmf.size] = x.pmf
        dropped = np.array([x.dropped for x in made])
        inverse = inverse.reshape(n_groups, r)
        return lo[inverse], length[inverse], dropped[inverse], inverse, table

    tp_lo_r, tp_len_r, tp_drop, tp_u, tp_table = marginals(tp, p, "positives (TP)")
    tn_lo_r, tn_len_r, tn_drop, tn_u, tn_table = marginals(tn, n, "negatives (TN)")
    tp_lo, tp_hi = tp_lo_r.min(axis=1), (tp_lo_r + tp_len_r).max(axis=1)
    tn_lo, tn_hi = tn_lo_r.min(axis=1), (tn_lo_r + tn_len_r).max(axis=1)
    size_p, size_q = tp_hi - tp_lo, tn_hi - tn_lo
    pruned = (tp_drop + tn_drop - tp_drop * tn_drop).mean(axis=1)
    points = size_p * size_q
    todo = np.flatnonzero(points <= BATCH_POINTS)
    todo = todo[np.lexsort((size_q[todo], size_p[todo]))]
    start = 0
    while start < todo.size:  # chunks of groups with similar windows, padded to the chunk's largest
        stop = start + 1
        while stop < todo.size:
            pm, qm = size_p[todo[stop]], size_q[todo[start : stop + 1]].max()
            if (stop + 1 - start) * pm * qm > BATCH_CHUNK_POINTS:
                break
            stop += 1
        chunk = todo[start:stop]
        start = stop

        pm, qm = int(size_p[chunk].max()), int(size_q[chunk].max())
        a = _gather(chunk, tp_lo_r, tp_u, tp_table, tp_lo, pm)
        b = _gather(chunk, tn_lo_r, tn_u, tn_table, tn_lo, qm)
        with _one_blas_thread():
            weights = np.matmul(a.transpose(0, 2, 1), b) / r  # (groups, P, Q)
        valid = (np.arange(pm)[None, :, None] < size_p[chunk, None, None]) & (
            np.arange(qm)[None, None, :] < size_q[chunk, None, None]
        )
        pc, nc = p[chunk, None, None], n[chunk, None, None]
        tpv = np.minimum(tp_lo[chunk, None, None] + np.arange(pm)[None, :, None], pc)
        tnv = np.minimum(tn_lo[chunk, None, None] + np.arange(qm)[None, None, :], nc)
        cols = (tpv, pc - tpv, nc - tnv, tnv)
        largest = int((p[chunk] + n[chunk]).max())
        for m in ms:  # the chunk's marginals, weights and lattice are shared by the metrics
            out = outs[m.name]
            arithmetic = _arithmetic(m, largest, cols)
            if arithmetic == "clustered":
                continue
            form = m.exact(*cols, as_float=arithmetic != "int64")
            shape = weights.shape
            keep = valid if tolerance == 0 else valid & (weights > 0)
            num = np.broadcast_to(np.asarray(form.num, dtype=np.float64), shape)
            den = np.broadcast_to(np.asarray(form.den, dtype=np.float64), shape)
            regular = keep & (den != 0)
            if form.undefined is not None:
                regular &= ~np.broadcast_to(form.undefined, shape)
            with np.errstate(divide="ignore", invalid="ignore"):
                f = num / den
            if regular.any():
                dmax = float(den[regular].max())
                vmax = float(np.abs(f[regular]).max())
                if not (num[regular].__abs__().max() < 2.0**53 and dmax < 2.0**53 and _injective(dmax**2 * vmax)):
                    continue
            gid = np.broadcast_to(np.arange(chunk.size)[:, None, None], shape)
            # the regular points: one sort on (group, num/den), one value per run of equal keys
            g_reg, f_reg, w_reg = gid[regular], f[regular], weights[regular]
            order = np.lexsort((f_reg, g_reg))
            g_reg, f_reg, w_reg = g_reg[order], f_reg[order], w_reg[order]
            starts = np.flatnonzero(np.r_[True, (g_reg[1:] != g_reg[:-1]) | (f_reg[1:] != f_reg[:-1])])
            seg_g = g_reg[starts]
            seg_w = np.add.reduceat(w_reg, starts) if starts.size else np.empty(0)
            seg_c = np.diff(np.r_[starts, g_reg.size])
            seg_v = f_reg[starts].copy()
            seg_v = seg_v if form.kind == "ratio" and form.scale == 1.0 else form.value(seg_v, 1, overwrite=True)
            # the special points (0/0: the undefined value; x/0: ±inf), merged as lattice_distribution does
            where, undefined_at, sign_at = form.special_points(shape)
            kept_special = keep.reshape(-1)[where]
            where, undefined_at, sign_at = where[kept_special], undefined_at[kept_special], sign_at[kept_special]
            sp_g = gid.reshape(-1)[where]
            sp_w = weights.reshape(-1)[where]
            sp_v = np.where(undefined_at, undefined_value, np.where(sign_at > 0, np.inf, -np.inf))
            undef_mass = np.bincount(sp_g[undefined_at], weights=sp_w[undefined_at], minlength=chunk.size)
            undef_points = np.bincount(sp_g[undefined_at], minlength=chunk.size)
            all_g = np.r_[seg_g, sp_g]
            all_v = np.r_[seg_v, sp_v]
            all_w = np.r_[seg_w, sp_w]
            all_c = np.r_[seg_c, np.ones(sp_g.size, dtype=np.int64)]
            order = np.lexsort((all_v, all_g))
            all_g, all_v, all_w, all_c = all_g[order], all_v[order], all_w[order], all_c[order]
            firsts = np.flatnonzero(np.r_[True, (all_g[1:] != all_g[:-1]) | (all_v[1:] != all_v[:-1])])
            values = all_v[firsts]
            masses = np.add.reduceat(all_w, firsts)
            mults = np.add.reduceat(all_c, firsts)
            bounds = np.searchsorted(all_g[firsts], np.arange(chunk.size + 1))
            lattice_points = np.count_nonzero(keep.reshape(chunk.size, -1), axis=1)
            # the checks MetricDistribution makes of each, made here at once: atoms strictly increasing
            # within each group (one sort on (group, value) made them so), masses finite, ≥ 0, summing to 1
            if np.isnan(values).any() or not np.all(np.isfinite(masses)) or np.any(masses < 0):
                raise ArithmeticError(f"the batched {m.name} mixtures hold NaN values or invalid masses; please report")
            totals = np.bincount(all_g[firsts], weights=masses, minlength=chunk.size) + pruned[chunk]
            if np.any(np.abs(totals - 1.0) > TOTAL_MASS_TOLERANCE):
                worst = float(totals[np.argmax(np.abs(totals - 1.0))])
                raise ArithmeticError(
                    f"a batched {m.name} mixture ({model}) lost precision: its probabilities and pruned mass add up "
                    f"to {worst!r}, not 1; please report this with the counts that produced it"
                )
            with _one_blas_thread():
                means, variances = _component_moments(m, cols, a, b, undefined_value, valid)
            label = f"{model} mixture of {r}"
            with checked_in_bulk():
                made = [
                    MetricDistribution(
                        values[bounds[i] : bounds[i + 1]],
                        masses[bounds[i] : bounds[i + 1]],
                        mults[bounds[i] : bounds[i + 1]],
                        metric=m.name,
                        model=label,
                        undefined_mass=float(undef_mass[i]),
                        undefined_points=int(undef_points[i]),
                        pruned_mass=float(pruned[g]),
                        lattice_points=int(lattice_points[i]),
                        strategy="float-injective (batched over groups)",
                    )
                    for i, g in enumerate(chunk)
                ]
            for i, g in enumerate(chunk):
                out[g] = SliceMixture(made[i], means[i], variances[i])
    return outs if several else outs[ms[0].name]
