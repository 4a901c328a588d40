"""Exact PMFs of confusion-matrix metrics (SPEC A4) and their comparison.

:func:`metric_distribution` pushes a model's lattice PMF (see
:mod:`confusionlab.models`) through a metric, grouping lattice points on exact
values (:mod:`confusionlab.grouping`). The result, a :class:`MetricDistribution`,
speaks scipy.stats' vocabulary: ``pmf``, ``cdf``, ``sf``, ``ppf``, ``mean``,
``var``, ``std``, ``interval``, ``rvs`` and ``to_scipy``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
from scipy import stats

from ._validation import check_choice, check_probability
from .confusion import ConfusionMatrix
from .grouping import group_exact
from .metrics import ExactForm, Metric, get_metric
from .models import MODELS, simplex_model, slice_model

__all__ = ["MAX_LATTICE_POINTS", "Comparison", "MetricDistribution", "compare", "metric_distribution"]

#: Largest lattice (after pruning) that :func:`metric_distribution` groups in memory.
MAX_LATTICE_POINTS = 20_000_000
_INT64_SAFE = 2**62


class MetricDistribution:
    """The exact discrete distribution of a metric.

    Attributes
    ----------
    values : ndarray
        Distinct metric values, ascending.
    probabilities : ndarray
        Mass of each value. They sum to ``1 - pruned_mass`` (minus
        ``undefined_mass`` when undefined points are excluded).
    multiplicities : ndarray
        Number of lattice points giving each value.
    undefined_mass : float
        Mass of the lattice points where the metric is 0/0.
    pruned_mass : float
        Mass of the lattice tails dropped for speed (0 when ``tolerance=0``).
    metric, model : str

    Notes
    -----
    Moments, quantiles and the cdf are those of the *retained* mass, normalised
    to 1: the pruned tails (at most ``2 * tolerance``) and, with
    ``undefined="exclude"``, the undefined points are left out.
    """

    def __init__(
        self,
        values: np.ndarray,
        probabilities: np.ndarray,
        multiplicities: np.ndarray,
        *,
        metric: str,
        model: str,
        undefined_mass: float = 0.0,
        undefined_points: int = 0,
        pruned_mass: float = 0.0,
        lattice_points: int | None = None,
        strategy: str = "",
    ) -> None:
        self.values = np.asarray(values, dtype=np.float64)
        self.probabilities = np.asarray(probabilities, dtype=np.float64)
        self.multiplicities = np.asarray(multiplicities, dtype=np.int64)
        for arr in (self.values, self.probabilities, self.multiplicities):
            arr.setflags(write=False)
        self.metric = metric
        self.model = model
        self.undefined_mass = float(undefined_mass)
        self.undefined_points = int(undefined_points)
        self.pruned_mass = float(pruned_mass)
        self.lattice_points = int(self.multiplicities.sum()) if lattice_points is None else lattice_points
        self.strategy = strategy

    @cached_property
    def _p(self) -> np.ndarray:
        """Probabilities of the retained mass, normalised to 1."""
        total = self.probabilities.sum()
        return self.probabilities / total if total > 0 else self.probabilities

    @cached_property
    def _cdf(self) -> np.ndarray:
        return np.cumsum(self._p)

    # -- scipy.stats vocabulary ---------------------------------------------------------
    def pmf(self, x: Any) -> np.ndarray | float:
        """Probability of exactly the value(s) ``x`` (0 off the support)."""
        x = np.asarray(x, dtype=np.float64)
        idx = np.clip(np.searchsorted(self.values, x), 0, max(self.values.size - 1, 0))
        out = np.where(self.values[idx] == x, self._p[idx], 0.0) if self.values.size else np.zeros_like(x)
        return out if out.ndim else float(out)

    def cdf(self, x: Any) -> np.ndarray | float:
        """P(metric <= x)."""
        x = np.asarray(x, dtype=np.float64)
        idx = np.searchsorted(self.values, x, side="right")
        out = np.where(idx > 0, self._cdf[np.maximum(idx - 1, 0)], 0.0)
        return out if out.ndim else float(out)

    def sf(self, x: Any) -> np.ndarray | float:
        """P(metric > x)."""
        out = 1.0 - np.asarray(self.cdf(x))
        return out if out.ndim else float(out)

    def ppf(self, q: Any) -> np.ndarray | float:
        """Smallest value ``v`` with ``cdf(v) >= q`` (the discrete quantile)."""
        q = np.asarray(q, dtype=np.float64)
        if np.any((q < 0) | (q > 1) | np.isnan(q)):
            raise ValueError("q must lie in [0, 1]")
        idx = np.searchsorted(self._cdf, q - 1e-12, side="left")
        out = self.values[np.minimum(idx, self.values.size - 1)]
        return out if out.ndim else float(out)

    # Sums, not np.dot: BLAS threads cost milliseconds on a busy machine for tiny vectors.
    def mean(self) -> float:
        return float(np.sum(self._p * self.values))

    def var(self) -> float:
        mu = self.mean()
        return float(np.sum(self._p * (self.values - mu) ** 2))

    def std(self) -> float:
        return float(np.sqrt(self.var()))

    def median(self) -> float:
        return float(self.ppf(0.5))

    def interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """Central interval holding at least ``confidence`` of the mass (as scipy)."""
        c = check_probability(confidence, "confidence")
        return float(self.ppf((1 - c) / 2)), float(self.ppf((1 + c) / 2))

    def mode(self) -> float:
        """The most probable value."""
        return float(self.values[np.argmax(self.probabilities)])

    def support(self) -> tuple[float, float]:
        return float(self.values[0]), float(self.values[-1])

    def rvs(self, size: int | tuple[int, ...] = 1, random_state: Any = None) -> np.ndarray:
        """Random draws of the metric."""
        rng = np.random.default_rng(random_state)
        return rng.choice(self.values, size=size, p=self._p)

    def to_scipy(self) -> stats.rv_discrete:
        """A frozen ``scipy.stats.rv_discrete`` over the same values and (normalised) masses."""
        return stats.rv_discrete(name=self.metric, values=(self.values, self._p))

    def __len__(self) -> int:
        return self.values.size

    def __repr__(self) -> str:
        return (
            f"MetricDistribution(metric={self.metric!r}, model={self.model!r}, "
            f"distinct_values={len(self)}, mean={self.mean():.4g}, std={self.std():.4g}, "
            f"undefined_mass={self.undefined_mass:.3g}, pruned_mass={self.pruned_mass:.3g})"
        )


def _check_undefined(undefined: Any) -> float | None:
    if isinstance(undefined, str):
        if undefined.strip().lower() != "exclude":
            raise ValueError(f"undefined must be a number or 'exclude', got {undefined!r}")
        return None
    if isinstance(undefined, bool) or not isinstance(undefined, (int, float, np.floating, np.integer)):
        raise TypeError(f"undefined must be a number or 'exclude', got {undefined!r}")
    value = float(undefined)
    if value != value:
        raise ValueError("undefined must be a number or 'exclude', not NaN")
    return value


def _integer_arithmetic(metric: Metric, largest_total: int, counts: tuple[np.ndarray, ...]) -> bool:
    """Whether the exact form must be computed in int64 (False: float64 is exact).

    Refuses sizes whose exact integers could overflow int64.
    """
    bound = metric.magnitude(largest_total)
    if bound < 2**53:
        return False
    if bound < _INT64_SAFE:
        return True
    floats = [np.asarray(c, dtype=np.float64) for c in counts]
    form = metric._exact(*floats)
    big = max(float(np.abs(form.num).max()), float(np.abs(form.den).max()))
    if big >= _INT64_SAFE / 4:
        raise ValueError(
            f"{metric.name}'s exact keys need integers beyond 64 bits at this size (up to {big:.3g}); "
            f"exact grouping is refused rather than risk overflow. Use a smaller future_size, or "
            f"compute the metric's moments from the marginals instead"
        )
    return True


def metric_distribution(
    cm: ConfusionMatrix,
    metric: str | Metric,
    model: str = "beta-binomial",
    *,
    prior: Any = "uniform",
    future_size: int | tuple[int, int] | None = None,
    tolerance: float = 1e-12,
    undefined: float | str = 0.0,
) -> MetricDistribution:
    """The exact distribution of ``metric`` for a new test set under ``model``.

    Parameters
    ----------
    cm : ConfusionMatrix
        The observed confusion matrix.
    metric : str or Metric
        A name from :data:`~confusionlab.METRICS` (aliases and ``"f<beta>"`` accepted).
    model : {"beta-binomial", "binomial", "dirichlet-multinomial"}
        See :mod:`confusionlab.models`. The first two keep ``p`` and ``n`` fixed (a
        slice); the third spreads mass over the whole simplex.
    prior : {"uniform", "jeffreys"} or float, default "uniform"
        Symmetric prior α = β (beta-binomial) or Dirichlet concentration added to
        each cell (dirichlet-multinomial). Ignored by the binomial model.
    future_size : (p, n) or int, optional
        Size of the predicted test set: ``(p, n)`` for the slice models, ``N`` for
        the dirichlet-multinomial model. Default: the observed size.
    tolerance : float, default 1e-12
        Each marginal drops tails of total mass at most ``tolerance`` (the joint
        loses at most ``2 * tolerance``); the loss is ``pruned_mass``. ``0`` keeps
        the full lattice.
    undefined : float or "exclude", default 0.0
        Value given to points where the metric is 0/0 (the paper's convention is
        0), or ``"exclude"`` to leave them out. Their mass is ``undefined_mass``.

    Returns
    -------
    MetricDistribution

    Notes
    -----
    Values are grouped on exact rational keys (SPEC A4), so ties are never split
    by floating-point error: at p = 20, n = 40 balanced accuracy has exactly 81
    distinct values where float grouping finds 115.

    Examples
    --------
    >>> cm = ConfusionMatrix(tp=16, fn=4, fp=8, tn=32)
    >>> d = metric_distribution(cm, "balanced_accuracy", tolerance=0)
    >>> len(d), int(d.multiplicities.sum())
    (81, 861)
    >>> round(d.mean(), 3), round(d.std(), 3)
    (0.779, 0.078)
    >>> lo, hi = metric_distribution(cm, "mcc", "binomial").interval(0.95)
    """
    if not isinstance(cm, ConfusionMatrix):
        raise TypeError(f"cm must be a ConfusionMatrix, got {type(cm).__name__}")
    m = get_metric(metric)
    model = check_choice(model, "model", MODELS)
    tolerance = check_probability(tolerance, "tolerance")
    undefined_value = _check_undefined(undefined)

    if model == "dirichlet-multinomial":
        if future_size is not None and not isinstance(future_size, (int, np.integer)):
            raise TypeError("future_size of the dirichlet-multinomial model is one total N")
        sm = simplex_model(cm, prior=prior, future_size=future_size, tolerance=tolerance)
        cols = tuple(sm.counts[:, j] for j in range(4))
        largest, weights, pruned = sm.N, sm.pmf, sm.pruned_mass
    else:
        if future_size is not None and (not isinstance(future_size, tuple) or len(future_size) != 2):
            raise TypeError(f"future_size of the {model} model is a pair (p, n), got {future_size!r}")
        sl = slice_model(cm, model, prior=prior, future_size=future_size, tolerance=tolerance)
        if sl.size > MAX_LATTICE_POINTS:
            raise ValueError(
                f"the {model} lattice has {sl.size:,} points after pruning, more than "
                f"{MAX_LATTICE_POINTS:,}; raise tolerance (e.g. 1e-9) or use a smaller future_size"
            )
        tp, tn = sl.tp, sl.tn
        cols = (tp, sl.p - tp, sl.n - tn, tn)
        largest, weights, pruned = sl.p + sl.n, sl.joint(), sl.pruned_mass

    use_int = _integer_arithmetic(m, largest, cols)
    form: ExactForm = m.exact(*cols, as_float=not use_int)
    shape = np.shape(weights)
    undef = np.broadcast_to(form.undefined_mask(), shape)
    n_undef = int(np.count_nonzero(undef))
    grouped = group_exact(form, weights, defined=~undef if n_undef else None)
    values, masses, counts = grouped.values, grouped.masses, grouped.counts
    undef_mass = float(np.asarray(weights)[undef].sum()) if n_undef else 0.0
    if n_undef and undefined_value is not None:
        values, masses, counts = _merge_value(values, masses, counts, undefined_value, undef_mass, n_undef)
    return MetricDistribution(
        values,
        masses,
        counts,
        metric=m.name,
        model=model,
        undefined_mass=undef_mass,
        undefined_points=n_undef,
        pruned_mass=pruned,
        lattice_points=int(np.prod(shape)),
        strategy=grouped.strategy,
    )


def _merge_value(
    values: np.ndarray, masses: np.ndarray, counts: np.ndarray, value: float, mass: float, points: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    i = int(np.searchsorted(values, value))
    if i < values.size and values[i] == value:
        masses, counts = masses.copy(), counts.copy()
        masses[i] += mass
        counts[i] += points
        return values, masses, counts
    return np.insert(values, i, value), np.insert(masses, i, mass), np.insert(counts, i, points)


@dataclass(frozen=True)
class Comparison:
    """Result of :func:`compare`: how two independent metric distributions relate.

    Attributes
    ----------
    prob_greater, prob_equal, prob_less : float
        P(A > B), P(A = B), P(A < B) (normalised retained masses).
    difference : MetricDistribution
        Distribution of A − B.
    """

    prob_greater: float
    prob_equal: float
    prob_less: float
    difference: MetricDistribution


def compare(
    a: MetricDistribution, b: MetricDistribution, *, max_pairs: int = 4_000_000, bins: int = 2001
) -> Comparison:
    """Compare classifier A's metric with classifier B's on independent test sets.

    Parameters
    ----------
    a, b : MetricDistribution
        Distributions of the same metric.
    max_pairs : int, default 4,000,000
        Up to this many value pairs the difference A − B is enumerated pair by
        pair (grouped on values rounded to 12 decimals). Beyond it both
        distributions are binned with a common width h = (range of A − B) / ``bins``
        and the histograms convolved: each pair's difference is then placed
        within h of its true value. ``prob_greater``, ``prob_equal`` and
        ``prob_less`` are exact either way.

    Examples
    --------
    >>> da = metric_distribution(ConfusionMatrix(tp=16, fn=4, fp=8, tn=32), "mcc")
    >>> db = metric_distribution(ConfusionMatrix(tp=14, fn=6, fp=10, tn=30), "mcc")
    >>> c = compare(da, db)
    >>> 0.5 < c.prob_greater < 1
    True
    """
    if not isinstance(a, MetricDistribution) or not isinstance(b, MetricDistribution):
        raise TypeError("compare needs two MetricDistribution objects")
    if a.metric != b.metric:
        raise ValueError(f"cannot compare different metrics: {a.metric!r} and {b.metric!r}")
    pa, pb = a._p, b._p
    below = np.searchsorted(b.values, a.values, side="left")
    upto = np.searchsorted(b.values, a.values, side="right")
    cdf_b = np.r_[0.0, b._cdf]
    greater = float(np.sum(pa * cdf_b[below]))
    equal = float(np.sum(pa * (cdf_b[upto] - cdf_b[below])))
    less = max(0.0, 1.0 - greater - equal)
    if a.values.size * b.values.size <= max_pairs:
        diff = np.subtract.outer(a.values, b.values).ravel()
        mass = np.multiply.outer(pa, pb).ravel()
        uniq, inv = np.unique(np.round(diff, 12), return_inverse=True)
        dmass = np.bincount(inv, weights=mass)
        dcount = np.bincount(inv, weights=np.multiply.outer(a.multiplicities, b.multiplicities).ravel())
        strategy = "pairs"
    else:
        uniq, dmass, dcount = _binned_difference(a, b, pa, pb, bins)
        strategy = f"binned({bins})"
    diff_dist = MetricDistribution(
        uniq,
        dmass,
        dcount.astype(np.int64),
        metric=f"{a.metric} difference",
        model=f"{a.model} - {b.model}",
        strategy=strategy,
    )
    return Comparison(greater, equal, less, diff_dist)


def _binned_difference(
    a: MetricDistribution, b: MetricDistribution, pa: np.ndarray, pb: np.ndarray, bins: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Histogram of A − B from the convolution of the two histograms (common width)."""
    width = ((a.values[-1] - a.values[0]) + (b.values[-1] - b.values[0])) / bins or 1.0
    ia = np.floor((a.values - a.values[0]) / width).astype(np.int64)
    ib = np.floor((b.values - b.values[0]) / width).astype(np.int64)
    mass_a, count_a = np.bincount(ia, weights=pa), np.bincount(ia, weights=a.multiplicities)
    mass_b, count_b = np.bincount(ib, weights=pb), np.bincount(ib, weights=b.multiplicities)
    # index k of the convolution is ia - ib + (len(b bins) - 1)
    dmass = np.convolve(mass_a, mass_b[::-1])
    dcount = np.rint(np.convolve(count_a, count_b[::-1]))
    shift = np.arange(dmass.size) - (mass_b.size - 1)
    centres = a.values[0] - b.values[0] + shift * width
    keep = dcount > 0
    return centres[keep], np.clip(dmass[keep], 0.0, None), dcount[keep]
