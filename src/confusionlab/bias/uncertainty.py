"""Posterior predictive uncertainty of count-based bias metrics (beyond Clarify).

Every count-based metric is a function of small per-facet count tables. Each
table is given a conjugate model and the metric is pushed through the
posterior predictive distribution of a *new* sample with the same facet sizes:

* binary outcome per facet (labels for DPL and the KL family on a binary label;
  predictions for DPPL and DI): ``k' ~ BetaBin(n, k + α, n − k + α)``,
  independently for facets a and d. **Exact**: the metric is evaluated on the
  (k'_a, k'_d) lattice weighted by the outer product of the two PMFs; each
  marginal drops at most ``tolerance`` of its mass from its tails (at most
  ``tolerance/2`` per tail, the core's convention, default
  :data:`~confusionlab._validation.DEFAULT_TOLERANCE`) and the dropped mass is
  reported. When the pruned lattice still has more than ``max_points``
  points, the same model is sampled (Monte Carlo) instead.
* facet sizes (CI): ``n'_d ~ BetaBin(N, n_d + α, n_a + α)``, exact.
* several cells per facet (confusion matrices for DCA…TE; multi-valued labels
  for the KL family), per subgroup (CDDL, CDDPL) or overall (GE):
  ``cells' ~ DirMult(n, cells + α)`` per facet / subgroup at its observed size,
  by **Monte Carlo** with ``n_draws`` draws (default 20,000) from
  ``random_state`` (an integer seed, default 0, a SeedSequence or a Generator;
  see :func:`~confusionlab._validation.check_random_state`), so results are
  reproducible. With 20,000 draws a 95 % interval end is within about ±0.002
  of its quantile level. Draws are made in chunks of at most
  :data:`CHUNK_BYTES` and reduced to the metric chunk by chunk, so memory stays
  bounded whatever the number of subgroups; a request that would still exceed
  :func:`~confusionlab._validation.memory_limit` is refused before allocating.

``α`` is the prior (:func:`confusionlab.models.resolve_prior`): 1 (uniform,
default) or 0.5 (Jeffreys). The result is the core's
:class:`~confusionlab.distribution.MetricDistribution` (``pmf``, ``cdf``,
``ppf``, ``interval``, ``to_scipy`` …); lattice points or draws where the
metric is undefined (e.g. no shared label value) are its ``undefined_mass``
and are left out, and atoms are merged on equal float values (these metrics
involve ratios and logarithms, so no exact integer key is used).
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from .._deprecation import renamed_arguments
from .._validation import (
    DEFAULT_TOLERANCE,
    InvalidParameterError,
    check_choice,
    check_count,
    check_int,
    check_memory,
    check_n_draws,
    check_progress,
    check_random_state,
    check_tolerance,
)
from ..distribution import MetricDistribution
from ..models import TARGETS, dirichlet_multinomial_rows, dirichlet_rows, marginal, resolve_prior

__all__ = [
    "CDD_MC_BUDGET",
    "CHUNK_BYTES",
    "DEFAULT_N_DRAWS",
    "DEFAULT_SAMPLES",
    "TARGETS",
    "cdd_distribution",
    "dirichlet_multinomial_draws",
    "exact_binary_facets",
    "exact_binary_facets_shared",
    "exact_facet_sizes",
    "interval_mc_error",
    "posterior_distribution",
    "prob_sign_real",
    "sampled_distribution",
    "sampled_metric",
    "sampled_metrics",
]

#: Subgroup × draw pairs CDDL/CDDPL draw by Monte Carlo (a few seconds); beyond, the normal
#: distribution with the exact mean and variance of the sum over the subgroups (central limit).
CDD_MC_BUDGET = 5_000_000
#: Seconds of work before a progress bar appears.
PROGRESS_DELAY = 0.5

#: Monte Carlo draws where an uncertainty is not exact (interval ends within about ±0.002 of their level).
DEFAULT_N_DRAWS = 20_000
#: The old name of :data:`DEFAULT_N_DRAWS`.
DEFAULT_SAMPLES = DEFAULT_N_DRAWS
DEFAULT_MAX_POINTS = 1_000_000
#: Quantile nodes of the beta posterior of a facet's true share (CI's true value).
_SHARE_NODES = 100_000
#: Working memory of one chunk of Monte Carlo draws (gamma variates, probabilities, counts).
CHUNK_BYTES = 64 * 1024**2
#: Bytes kept per Monte Carlo draw once reduced to a metric value (value, sort, atoms, weights).
_BYTES_PER_DRAW = 64
#: Bytes per drawn cell while a chunk is drawn (gamma float64, normalised copy, int64 counts, temporaries).
_BYTES_PER_CELL = 40


def check_samples(n_samples: Any, name: str = "n_samples", *, minimum: int = 1, cells: int = 1) -> int:
    """Deprecated: :func:`confusionlab._validation.check_n_draws` (the library's one name is ``n_draws``)."""
    warnings.warn(
        "check_samples is renamed confusionlab._validation.check_n_draws; the old name will stop working in the "
        "next release",
        FutureWarning,
        stacklevel=2,
    )
    return _check_draws(n_samples, name, minimum=minimum, cells=cells)


def _check_draws(n_draws: Any, name: str = "n_draws", *, minimum: int = 1, cells: int = 1) -> int:
    """A number of Monte Carlo draws, refused before allocating the stored draws (``cells`` count cells each).

    >>> _check_draws(20_000)
    20000
    >>> _check_draws(10**9)
    Traceback (most recent call last):
    ...
    confusionlab.TooLargeError: n_draws=1,000,000,000 Monte Carlo draws would need about ...
    """
    return check_n_draws(n_draws, name, minimum=minimum, bytes_per_draw=_BYTES_PER_DRAW + 8.0 * cells)


def _describe(random_state: Any) -> str:
    if isinstance(random_state, numbers.Integral):
        return f"random_state {int(random_state)}"
    return f"random_state {type(random_state).__name__}"


def posterior_distribution(
    values: np.ndarray,
    weights: np.ndarray | float,
    *,
    metric: str,
    strategy: str,
    pruned_mass: float = 0.0,
    target: str = "next_test_set",
) -> MetricDistribution | None:
    """Group weighted atoms into a :class:`~confusionlab.distribution.MetricDistribution`.

    NaN values (the metric is undefined there) go to ``undefined_mass`` and are
    left out; equal float values are merged (the multiplicity counts them).
    Returns None when the metric is undefined everywhere. ``target`` names the
    question (:data:`TARGETS`): the model is "posterior predictive" for the next
    sample, "posterior" for the true value.

    Examples
    --------
    >>> d = posterior_distribution(np.array([0.3, -0.1, 0.3, np.nan]), np.full(4, 0.25),
    ...                            metric="DPL", strategy="exact")
    >>> d.values.tolist(), d.multiplicities.tolist(), d.undefined_mass
    ([-0.1, 0.3], [1, 2], 0.25)
    """
    v = np.asarray(values, dtype=np.float64).ravel()
    atoms = _unit_weight_atoms(v, weights, pruned_mass)
    if atoms is None:
        w = np.broadcast_to(np.asarray(weights, dtype=np.float64), np.shape(values)).ravel()
        total = w.sum()
        if total <= 0:
            return None
        w = w * ((1.0 - pruned_mass) / total)  # the atoms carry all but the pruned mass
        bad = np.isnan(v)
        undefined = float(w[bad].sum())
        v, w = v[~bad], w[~bad]
        if v.size == 0:
            return None
        uniq, inv = np.unique(v, return_inverse=True)
        atoms = (uniq, np.bincount(inv, weights=w), np.bincount(inv), undefined)
    uniq, probabilities, multiplicities, undefined = atoms
    if uniq.size == 0:
        return None
    return MetricDistribution(
        uniq,
        probabilities,
        multiplicities,
        metric=metric,
        model="posterior" if target == "true_value" else "posterior predictive",
        undefined_mass=undefined,
        pruned_mass=pruned_mass,
        lattice_points=int(v.size),
        strategy=strategy,
        undefined_excluded=True,
        check_total=True,
        target=target,
    )


def _unit_weight_atoms(
    v: np.ndarray, weights: Any, pruned_mass: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, float] | None:
    """The atoms of :func:`posterior_distribution` for draws of weight 1, by one sort; None otherwise.

    Bit for bit what the general path gives: every draw weighs ``x = (1 −
    pruned_mass)/n``, so an atom of ``c`` draws gets ``np.bincount``'s running
    sum of ``c`` copies of ``x``, which is the ``c``-th element of
    ``cumsum([x] * c_max)``; the undefined mass is the same (pairwise) sum of
    copies of ``x``. A sort replaces the argsort and inverse of ``np.unique``.
    With a negative zero among the values the representative of the atom 0
    would depend on the sort order, so those fall back to the general path.
    """
    if np.ndim(weights) != 0 or float(weights) != 1.0 or v.size == 0:
        return None
    zero = v == 0.0
    if zero.any() and np.signbit(v[zero]).any():  # checked before sorting: numpy's sort may turn −0.0 into 0.0
        return None
    x = 1.0 * ((1.0 - pruned_mass) / float(v.size))
    bad = np.isnan(v)
    n_bad = int(np.count_nonzero(bad))
    undefined = float(np.full(n_bad, x).sum())
    s = np.sort(v[~bad] if n_bad else v)
    if s.size == 0:
        return s, s, np.zeros(0, dtype=np.intp), undefined
    starts = np.flatnonzero(np.concatenate(([True], s[1:] != s[:-1])))
    counts = np.diff(np.append(starts, s.size))
    running = np.cumsum(np.full(int(counts.max()), x))
    return s[starts], running[counts - 1], counts, undefined


def sampled_distribution(
    samples: np.ndarray, *, metric: str, random_state: Any = 0, target: str = "next_test_set"
) -> MetricDistribution | None:
    """Equal-weight Monte Carlo draws as a distribution (``strategy`` records how).

    ``random_state`` is only recorded in ``strategy`` (the draws are given).

    Examples
    --------
    >>> sampled_distribution(np.array([0.1, 0.2]), metric="AD").strategy
    'monte carlo: 2 draws, random_state 0'
    """
    s = np.asarray(samples, dtype=np.float64)
    return posterior_distribution(
        s, 1.0, metric=metric, strategy=f"monte carlo: {s.size} draws, {_describe(random_state)}", target=target
    )


def interval_mc_error(dist: MetricDistribution | None, confidence: float) -> float:
    """How far a Monte Carlo interval's ends may move with another ``random_state`` (0 when exact).

    For ``n`` equal-weight draws the end at tail level ``q`` is an order statistic;
    the ranks ``n·q ± 1.96·√(n·q·(1 − q))`` bound the draws' own 95 % uncertainty
    about the true quantile, so the value returned is the largest distance from an
    end to the draw at either of those ranks, over both ends (a distribution-free
    Monte Carlo error, no density estimate needed). NaN without a distribution.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> d = sampled_distribution(rng.normal(size=20_000), metric="x")
    >>> e = interval_mc_error(d, 0.95); bool(0.01 < e < 0.1)    # about 1.96·0.024
    True
    >>> interval_mc_error(exact_facet_sizes(lambda s: s[..., 1] / s.sum(-1), np.array([60, 40])), 0.95)
    0.0
    """
    if dist is None:
        return float("nan")
    if not dist.strategy.startswith("monte carlo"):
        return 0.0
    n = float(dist.lattice_points)
    tail = (1.0 - confidence) / 2.0
    delta = 1.96 * math.sqrt(tail * (1.0 - tail) / n)
    worst = 0.0
    for q in (tail, 1.0 - tail):
        end = float(dist.ppf(q))
        near = [float(dist.ppf(min(max(x, 0.0), 1.0))) for x in (q - delta, q + delta)]
        worst = max([worst, *(abs(x - end) for x in near if math.isfinite(x) and math.isfinite(end))])
    return worst


def prob_sign_real(dist: MetricDistribution, observed: float, no_bias: float = 0.0) -> float:
    """Probability that the metric lies strictly on the observed side of ``no_bias``.

    NaN when the observed value is the no-bias value (there is no sign to confirm).

    Examples
    --------
    >>> d = posterior_distribution(np.array([-0.1, 0.2, 0.3]), np.ones(3), metric="DPL",
    ...                            strategy="exact")
    >>> round(prob_sign_real(d, 0.25), 4)
    0.6667
    """
    if observed == no_bias or np.isnan(observed):
        return float("nan")
    if observed > no_bias:
        p = float(dist.sf(no_bias))
    else:
        p = float(dist.cdf(no_bias)) - float(dist.pmf(no_bias))
    return min(1.0, max(0.0, p))


def _support(
    successes: int, trials: int, prior: float, tolerance: float, what: str
) -> tuple[np.ndarray, np.ndarray, float]:
    """Support and PMF of BetaBin(trials, successes + α, trials − successes + α), tails pruned.

    The core's :func:`confusionlab.models.marginal`: the window is located analytically
    (never the whole support at large sizes), refused before allocating above the memory
    limit, and at most ``tolerance`` of the mass is dropped (returned as the third item).
    """
    advice = "compute the metric on a subsample, or raise the memory limit"
    m = marginal("beta-binomial", successes, trials, trials, prior, tolerance, what, advice=advice)
    return np.arange(m.lo, m.lo + m.pmf.size), m.pmf, m.dropped


def exact_facet_sizes(
    fn: Callable[[np.ndarray], np.ndarray],
    sizes: np.ndarray,
    prior: str | float = "uniform",
    tolerance: float = DEFAULT_TOLERANCE,
    metric: str = "CI",
    target: str = "next_test_set",
) -> MetricDistribution | None:
    """Exact distribution of a function of ``[n_a, n_d]`` with n_d' ~ BetaBin(N, n_d+α, n_a+α).

    ``tolerance`` is the mass dropped from the tails of n_d' (at most half on each side).
    With ``target="true_value"`` the question is the facets' true shares: π_d ~
    Beta(n_d + α, n_a + α) (the limit of n_d'/N' as the new sample grows), given by its
    quantiles at ``(i + ½)/K`` for ``K = 100,000`` (equal weights; the cdf is within
    1/(2K) of the exact one, and ``fn`` is applied to the sizes ``[N(1 − π), N·π]``).

    Examples
    --------
    >>> from confusionlab.bias.label_metrics import class_imbalance
    >>> d = exact_facet_sizes(class_imbalance, np.array([60, 40]))
    >>> lo, hi = d.interval(0.95); bool(lo < 0.2 < hi)
    True
    """
    al = resolve_prior(prior)
    tolerance = check_tolerance(tolerance)
    na, nd = (check_count(v, f"sizes[{i}]") for i, v in enumerate(np.asarray(sizes).ravel().tolist()))
    if check_choice(target, "target", TARGETS) == "true_value":
        from scipy import stats

        nodes = (np.arange(_SHARE_NODES) + 0.5) / _SHARE_NODES
        share = stats.beta.ppf(nodes, nd + al, na + al)
        total = float(na + nd)
        vals = fn(np.stack([total * (1.0 - share), total * share], axis=-1))
        return posterior_distribution(
            vals,
            1.0,
            metric=metric,
            strategy=f"quantiles of the beta posterior ({_SHARE_NODES:,} nodes)",
            target="true_value",
        )
    k, pmf, pruned = _support(nd, na + nd, al, tolerance, "size of facet d")
    vals = fn(np.stack([na + nd - k, k], axis=-1))
    return posterior_distribution(vals, pmf, metric=metric, strategy="exact (beta-binomial)", pruned_mass=pruned)


@renamed_arguments(n_samples="n_draws")
def exact_binary_facets(
    fn: Callable[[np.ndarray], np.ndarray], outcomes: np.ndarray, *, metric: str = "", **options: Any
) -> MetricDistribution | None:
    """Distribution of ``fn`` of per-facet ``[negative, positive]`` counts, shape (2, 2).

    Each facet's positives k' ~ BetaBin(n, k + α, n − k + α) at its observed
    size n, independently. Exact on the pruned lattice (each marginal drops at
    most ``tolerance`` of its mass) when it has at most ``max_points`` points,
    otherwise ``n_draws`` Monte Carlo draws from the same model.

    Parameters
    ----------
    fn : callable
        Maps counts of shape (..., 2, 2) to metric values of shape (...).
    outcomes : array_like of int, shape (2, 2)
    metric : str
        The metric's name, recorded in the distribution.
    **options
        ``prior``, ``tolerance``, ``max_points``, ``n_draws``, ``random_state``:
        as in :func:`exact_binary_facets_shared`, whose single-metric form this is.

    Examples
    --------
    >>> from confusionlab.bias.label_metrics import difference_in_proportions
    >>> d = exact_binary_facets(difference_in_proportions, np.array([[60, 40], [75, 25]]))
    >>> d.strategy, round(d.mean(), 3)
    ('exact (beta-binomial lattice)', 0.147)
    """
    return exact_binary_facets_shared({metric: fn}, outcomes, **options)[metric]


@renamed_arguments(n_samples="n_draws")
def exact_binary_facets_shared(
    fns: Mapping[str, Callable[[np.ndarray], np.ndarray]],
    outcomes: np.ndarray,
    prior: str | float = "uniform",
    tolerance: float = DEFAULT_TOLERANCE,
    max_points: int = DEFAULT_MAX_POINTS,
    n_draws: int = DEFAULT_N_DRAWS,
    random_state: Any = 0,
    target: str = "next_test_set",
) -> dict[str, MetricDistribution | None]:
    """:func:`exact_binary_facets` of several metrics of the same outcomes, sharing the work.

    The two pruned marginals, the lattice and its weights (or, past
    ``max_points``, the Monte Carlo draws) are built once and every function
    of ``fns`` (metric name → function) is evaluated on them, so each result
    is exactly ``exact_binary_facets(fn, outcomes, …, metric=name)`` (the same
    lattice, weights, draws and ``random_state``) at a fraction of the cost.

    Parameters
    ----------
    fns : mapping
        Metric name → function of counts of shape (..., 2, 2).
    outcomes : array_like of int, shape (2, 2)
        ``[negative, positive]`` counts of facet *a*, then of facet *d*.
    prior : "uniform", "jeffreys" or float
    tolerance : float
        Mass each marginal may drop from its tails.
    max_points : int
        Largest lattice computed exactly; beyond it, Monte Carlo draws.
    n_draws : int
        Monte Carlo draws past ``max_points``.
    random_state : None, int, SeedSequence or Generator
    target : {"next_test_set", "true_value"}
        The question. ``"next_test_set"``: the beta-binomial lattice above.
        ``"true_value"``: the facets' true rates, q ~ Beta(k + α, n − k + α) each:
        exactly by :func:`beta_pair_distributions` for the differences, their absolute
        value, LP and DI; other functions by ``n_draws`` Monte Carlo draws (the metric of
        the two rates, given as counts at the observed sizes).

    Examples
    --------
    >>> from confusionlab.bias import label_metrics as lm
    >>> o = np.array([[60, 40], [75, 25]])
    >>> both = exact_binary_facets_shared({"DPL": lm.difference_in_proportions, "TVD": lm.total_variation_distance}, o)
    >>> both["DPL"].interval(0.9) == exact_binary_facets(lm.difference_in_proportions, o, metric="DPL").interval(0.9)
    True
    """
    al = resolve_prior(prior)
    tolerance = check_tolerance(tolerance)
    max_points = check_int(max_points, "max_points", minimum=1)
    check_memory(float(max_points) * 96.0, f"max_points={max_points:,} lattice points", "lower max_points")
    o = _cells(outcomes, "outcomes")
    if o.shape != (2, 2):
        raise InvalidParameterError(
            f"outcomes must have shape (2, 2) ([negative, positive] of facets a, d), got {o.shape}"
        )
    if check_choice(target, "target", TARGETS) == "true_value":
        out: dict[str, MetricDistribution | None] = {}
        rest = {}
        for name, fn in fns.items():
            kind = _rate_kind(fn)
            if kind is None or min(int(o[0].sum()), int(o[1].sum())) == 0:
                rest[name] = fn
            else:
                out[name] = _two_rates_exact(kind, o, al, metric=name)
        if rest:
            values = sampled_metrics(rest, o, n_draws=n_draws, random_state=random_state, prior=prior, target=target)
            for name, v in values.items():
                out[name] = sampled_distribution(v, metric=name, random_state=random_state, target=target)
        return {name: out[name] for name in fns}
    na, nd = int(o[0].sum()), int(o[1].sum())
    ka, pa, pra = _support(int(o[0, 1]), na, al, tolerance, "positives of facet a")
    kd, pd, prd = _support(int(o[1, 1]), nd, al, tolerance, "positives of facet d")
    if ka.size * kd.size <= max_points:
        ga, gd = np.meshgrid(ka, kd, indexing="ij")
        grid = np.stack([np.stack([na - ga, ga], -1), np.stack([nd - gd, gd], -1)], axis=-2)
        weights = np.outer(pa, pd)
        pruned = pra + prd - pra * prd
        return {
            name: posterior_distribution(
                fn(grid), weights, metric=name, strategy="exact (beta-binomial lattice)", pruned_mass=pruned
            )
            for name, fn in fns.items()
        }
    values = sampled_metrics(fns, o, n_draws=n_draws, random_state=random_state, prior=prior)
    return {name: sampled_distribution(v, metric=name, random_state=random_state) for name, v in values.items()}


#: Points of the grid on which the true-value cdf of a function of two rates is computed
#: (see :func:`beta_pair_distributions`).
_CDF_POINTS = 801
#: Grid points per tail, at tail masses geometric from 1e-10 to ½ (neighbours 4.6 % of the tail apart).
_TAIL_POINTS = 500
#: Points of the coarse pass that finds where a row's mass is.
_COARSE_POINTS = 200
#: Rows whose grids are placed together (the cdf itself is computed in bounded chunks, see
#: :mod:`._quadrature`).
_ROW_BLOCK = 64


def _rate_kind(fn: Callable) -> str | None:
    """Which function of the two facets' rates ``fn`` is, when its true value can be computed exactly."""
    from . import label_metrics as lm

    kinds = {
        lm.difference_in_proportions: "difference",
        lm.total_variation_distance: "absolute difference",
        lm.kolmogorov_smirnov: "absolute difference",
        lm.lp_norm: "lp",
    }
    if getattr(fn, "__name__", "") == "_di_from_outcomes":
        return "ratio"
    return kinds.get(fn)


#: Confusion-count metrics whose true value is a difference of two facets' Beta rates (the
#: Dirichlet posterior of a facet's four cells aggregates to a Beta for any rate of cell sums):
#: name → (facet of the first rate, its success cells, its failure cells, facet of the second rate).
#: Cells are (tp, fn, fp, tn) = 0..3; a rate of two cells each has 2α (AD's accuracy).
CONFUSION_RATES: dict[str, tuple[int, tuple[int, ...], tuple[int, ...], int]] = {
    "RD": (0, (0,), (1,), 1),  # recall_a − recall_d
    "DAR": (0, (0,), (2,), 1),  # precision_a − precision_d
    "SD": (1, (3,), (2,), 0),  # TNR_d − TNR_a
    "DRR": (1, (3,), (1,), 0),  # NPV_d − NPV_a
    "AD": (0, (0, 3), (1, 2), 1),  # accuracy_a − accuracy_d
}


def beta_pair_of_outcomes(kind: str, o: np.ndarray, al: float) -> tuple[str, tuple[float, float, float, float]]:
    """(kind, (a_x, b_x, a_y, b_y)) of a function of the facets' positive rates, from outcomes (2, 2)."""
    o = np.asarray(o)
    return kind, (o[0, 1] + al, o[0, 0] + al, o[1, 1] + al, o[1, 0] + al)


def beta_pair_of_confusion(name: str, cm: np.ndarray, al: float) -> tuple[str, tuple[float, float, float, float]]:
    """(``"difference"``, (a_x, b_x, a_y, b_y)) of a confusion-count metric of :data:`CONFUSION_RATES`."""
    first, succ, fail, second = CONFUSION_RATES[name]
    cm = np.asarray(cm, dtype=np.float64)
    k = len(succ)

    def params(f: int) -> tuple[float, float]:
        return float(cm[f, list(succ)].sum()) + k * al, float(cm[f, list(fail)].sum()) + k * al

    return "difference", (*params(first), *params(second))


#: Smallest Beta parameter the quadrature of :func:`beta_pair_distributions` computes with.
MIN_BETA_PARAMETER = 1e-8


def beta_pair_distributions(
    kind: str,
    params: np.ndarray,
    metrics: list[str],
    *,
    progress: bool | None = False,
) -> list[MetricDistribution]:
    """True-value distributions of a function of two independent Beta rates, for many rows at once.

    ``params`` is (R, 4): q_x ~ Beta(a_x, b_x), q_y ~ Beta(a_y, b_y) per row; ``kind`` is
    ``"difference"`` (q_x − q_y: DPL, DPPL, RD, SD, AD, DAR, DRR), ``"absolute difference"``
    (TVD, KS), ``"lp"`` (√2 |q_x − q_y|) or ``"ratio"`` (q_y / q_x: DI). The cdf is computed by
    :class:`._quadrature.TwoBetaCdf` (within about 1e-10 of the exact integral where both
    densities vanish at 0 and 1, i.e. every Beta parameter > 1; within 1e-3 where a count is 0,
    whose density is nonzero or infinite at an end; tested against ``scipy.integrate.quad``) on a
    grid of about 1,400 values per row spanning the distribution up to tails of 1e-10 (evenly,
    or geometrically for the ratio; 2 × :data:`_TAIL_POINTS` of them placed at tail masses
    geometric from 1e-10 to ½). The atoms are the grid's cells with the cdf's increments: an
    interval end is exact up to one cell (in the tails about 4.6 % of the tail mass; in the bulk
    about 1/400 of the range), with no Monte Carlo error. Rows with equal parameters are computed
    once. All rows share every numpy
    operation (a row's numbers do not depend on the other rows); ``progress`` shows a bar over
    the rows. A Beta parameter below :data:`MIN_BETA_PARAMETER` (a prior of a few pseudo-counts
    of 1e-216 on an empty cell) is computed as that minimum: such a rate is a point mass at 0
    or 1 either way, and its cdf moves by less than 1e-6 (Beta(a, b) puts mass 1 − O(a·23) below
    1e-10 for a ≤ 1e-8).
    """
    from scipy import stats
    from tqdm.auto import tqdm

    from ._quadrature import TwoBetaCdf, cdf_on

    params = np.maximum(np.asarray(params, dtype=np.float64).reshape(-1, 4), MIN_BETA_PARAMETER)
    # rows with the same parameters (groups of equal counts) are computed once
    params, where = np.unique(params, axis=0, return_inverse=True)
    where = where.reshape(-1)
    n_rows = params.shape[0]
    base = "ratio" if kind == "ratio" else "difference"
    eps = 1e-10
    out: list[tuple[np.ndarray, np.ndarray]] = []
    show = check_progress(progress)
    with tqdm(total=n_rows, desc="true values", delay=PROGRESS_DELAY, disable=not show, leave=False) as bar:
        for start in range(0, n_rows, _ROW_BLOCK):
            p = params[start : start + _ROW_BLOCK]
            rows = np.arange(p.shape[0])
            ax, bx, ay, by = p.T
            cdf = TwoBetaCdf(base, ax, bx, ay, by)
            lo_x, hi_x = stats.beta.ppf(eps, ax, bx), stats.beta.isf(eps, ax, bx)
            lo_y, hi_y = stats.beta.ppf(eps, ay, by), stats.beta.isf(eps, ay, by)
            if base == "ratio":
                coarse = np.geomspace(
                    np.maximum(lo_y / hi_x, 1e-300), hi_y / np.maximum(lo_x, 1e-300), _COARSE_POINTS, axis=-1
                )
            else:
                coarse = np.linspace(lo_x - hi_y, hi_x - lo_y, _COARSE_POINTS, axis=-1)
            c = cdf_on(cdf, rows, coarse)
            tails = np.geomspace(eps, 0.5, _TAIL_POINTS)
            levels = np.r_[tails, 1.0 - tails[::-1]]
            grids = []
            for i in range(p.shape[0]):
                ci, co = c[i], coarse[i]
                lo = co[max(int(np.searchsorted(ci, eps)) - 1, 0)]
                hi = co[min(int(np.searchsorted(ci, 1.0 - eps)), co.size - 1)]
                keep = np.r_[True, np.diff(ci) > 0]
                placed = np.interp(levels, ci[keep], co[keep])
                grids.append(np.unique(np.r_[placed, np.linspace(lo, hi, _CDF_POINTS // 2)]))
            width = max(g.size for g in grids)
            padded = np.stack([np.pad(g, (0, width - g.size), mode="edge") for g in grids])
            fine = cdf_on(cdf, rows, padded)
            for i, grid in enumerate(grids):
                out.append((grid, fine[i, : grid.size]))
            bar.update(p.shape[0])
    return [_grid_distribution(kind, *out[j], metrics[i]) for i, j in enumerate(where.tolist())]


def _grid_distribution(kind: str, grid: np.ndarray, cdf: np.ndarray, metric: str) -> MetricDistribution:
    """Atoms from a cdf on a grid: each cell's mass at its midpoint (the first at the grid's lower end)."""
    cdf = np.maximum.accumulate(np.clip(cdf, 0.0, 1.0))
    cdf[-1] = 1.0
    values = np.r_[grid[0], (grid[1:] + grid[:-1]) / 2.0]
    probabilities = np.diff(cdf, prepend=0.0)
    if kind in ("absolute difference", "lp"):
        # |D| ≤ t ⟺ −t ≤ D ≤ t: fold the grid of D onto its absolute values
        t = np.unique(np.abs(grid))
        cdf_abs = np.interp(t, grid, cdf) - np.interp(-t, grid, cdf, left=0.0, right=1.0)
        cdf_abs = np.maximum.accumulate(np.clip(cdf_abs, 0.0, 1.0))
        cdf_abs[-1] = 1.0
        values, probabilities = t * (math.sqrt(2.0) if kind == "lp" else 1.0), np.diff(cdf_abs, prepend=0.0)
    # neighbouring grid points of a posterior concentrated to a few ulps share a midpoint: one atom
    values, where = np.unique(values, return_inverse=True)
    probabilities = np.bincount(where, weights=probabilities, minlength=values.size)
    keep = probabilities > 0
    return MetricDistribution(
        values[keep],
        probabilities[keep] / probabilities[keep].sum(),
        np.ones(int(keep.sum()), dtype=np.int64),
        metric=metric,
        model="posterior",
        lattice_points=int(keep.sum()),
        strategy=f"exact (quadrature of the beta posteriors, {grid.size} cdf points)",
        check_total=True,
        target="true_value",
    )


def _two_rates_exact(kind: str, o: np.ndarray, al: float, *, metric: str) -> MetricDistribution | None:
    """The true value of a function of the facets' rates q_a, q_d (independent Beta posteriors), one row.

    ``difference`` q_a − q_d (DPL, DPPL), its absolute value (TVD, KS on a binary label; LP is
    √2 times it) and ``ratio`` q_d / q_a (DI): :func:`beta_pair_distributions` of one row.
    """
    kind, pars = beta_pair_of_outcomes(kind, o, al)
    return beta_pair_distributions(kind, np.array([pars]), [metric])[0]


def _cells(cells: Any, name: str) -> np.ndarray:
    c = np.asarray(cells)
    if c.dtype.kind not in "iu":
        if c.dtype.kind == "f" and np.isfinite(c).all() and (c == np.round(c)).all():
            if c.size and np.abs(c).max() >= 2.0**62:
                raise InvalidParameterError(
                    f"{name} holds a count of {np.abs(c).max():g}, beyond 64-bit integer counts"
                )
            c = c.astype(np.int64)
        else:
            raise InvalidParameterError(f"{name} must be an array of integer counts, got dtype {c.dtype}")
    if c.ndim == 0 or c.shape[-1] == 0:
        raise InvalidParameterError(f"{name} must have at least one cell along its last axis, got shape {c.shape}")
    if c.size and c.min() < 0:
        raise InvalidParameterError(f"{name} must be non-negative counts, got a minimum of {int(c.min())}")
    return c.astype(np.int64, copy=False)


def _chunk_size(n_cells: int) -> int:
    per_draw = float(n_cells) * _BYTES_PER_CELL
    check_memory(
        per_draw,
        f"one Monte Carlo draw of {n_cells:,} count cells",
        "use fewer subgroups or label values (e.g. group them), or raise the memory limit",
    )
    return max(1, int(CHUNK_BYTES // per_draw))


@renamed_arguments(n_samples="n_draws")
def dirichlet_multinomial_draws(
    cells: np.ndarray,
    n_draws: int = DEFAULT_N_DRAWS,
    random_state: Any = 0,
    prior: str | float = "uniform",
) -> np.ndarray:
    """Posterior predictive draws of count vectors at the observed sizes.

    Parameters
    ----------
    cells : array_like of int, shape (..., K)
        Observed counts; each vector along the last axis (a facet, a subgroup ×
        facet, …) gets its own ``DirMult(n, cells + α)`` with its observed total n.
    n_draws : int
        Number of draws; all of them are returned, so the request is refused
        (:class:`~confusionlab.TooLargeError`) when they would not
        fit in :func:`~confusionlab._validation.memory_limit`. To reduce draws to
        a metric in bounded memory, use :func:`sampled_metric`.
    random_state : None, int, SeedSequence or Generator
    prior : "uniform", "jeffreys" or float

    Returns
    -------
    ndarray of int64, shape (n_draws, ..., K)

    Examples
    --------
    >>> x = dirichlet_multinomial_draws(np.array([[3, 1], [0, 4]]), n_draws=5, random_state=1)
    >>> x.shape, x.sum(axis=-1).tolist()[0]
    ((5, 2, 2), [4, 4])
    """
    al = resolve_prior(prior)
    c = _cells(cells, "cells")
    n_draws = _check_draws(n_draws, cells=c.size)
    rng = check_random_state(random_state)
    k = c.shape[-1]
    flat = c.reshape(-1, k)
    n = flat.sum(axis=-1)
    chunk = _chunk_size(flat.size)
    out = np.empty((n_draws, *flat.shape), dtype=np.int64)
    for start in range(0, n_draws, chunk):
        stop = min(n_draws, start + chunk)
        out[start:stop] = dirichlet_multinomial_rows(rng, flat, n, stop - start, al)
    return out.reshape(n_draws, *c.shape)


@renamed_arguments(n_samples="n_draws")
def sampled_metric(fn: Callable[[np.ndarray], np.ndarray], cells: np.ndarray, **options: Any) -> np.ndarray:
    """``fn`` of Dirichlet-multinomial posterior predictive draws, in bounded memory.

    The draws of :func:`dirichlet_multinomial_draws` are made in chunks of at
    most :data:`CHUNK_BYTES` and each chunk is reduced to ``fn``'s values
    before the next is drawn, so the working memory does not grow with
    ``n_draws × cells`` (a CDDL over 5,000 subgroups needs tens of MB, not
    10 GB). The draws are those of :func:`dirichlet_multinomial_draws` with the
    same ``random_state``.

    Parameters
    ----------
    fn : callable
        Maps counts of shape (S, ...cells.shape) to values of shape (S,).
    cells : array_like of int, shape (..., K)
    **options
        ``n_draws``, ``random_state``, ``prior``: as in :func:`sampled_metrics`,
        whose single-function form this is.

    Returns
    -------
    ndarray of float64, shape (n_draws,)

    Examples
    --------
    >>> cells = np.array([[30, 10], [20, 20]])
    >>> share = lambda x: x[..., 1, 1] / x[..., 1].sum(axis=-1)
    >>> v = sampled_metric(share, cells, n_draws=1000, random_state=0)
    >>> bool(np.all(v == share(dirichlet_multinomial_draws(cells, 1000, random_state=0))))
    True
    """
    return sampled_metrics({"": fn}, cells, **options)[""]


@renamed_arguments(n_samples="n_draws")
def sampled_metrics(
    fns: Mapping[str, Callable[[np.ndarray], np.ndarray]],
    cells: np.ndarray,
    *,
    n_draws: int = DEFAULT_N_DRAWS,
    random_state: Any = 0,
    prior: str | float = "uniform",
    target: str = "next_test_set",
    progress: bool | None = False,
) -> dict[str, np.ndarray]:
    """:func:`sampled_metric` of several functions on the same draws (drawn once, chunk by chunk).

    Each chunk of draws is reduced by every function of ``fns`` (name →
    function) before the next is drawn; ``result[name]`` is exactly
    ``sampled_metric(fns[name], cells, …)`` with the same arguments.

    Parameters
    ----------
    fns : mapping
        Name → function of counts of shape (S, ...cells.shape) to values of shape (S,).
    cells : array_like of int, shape (..., K)
    n_draws : int
        Number of draws (the values of every function are kept: refused
        before allocating above the memory limit).
    random_state : None, int, SeedSequence or Generator
    prior : "uniform", "jeffreys" or float
    target : {"next_test_set", "true_value"}
        ``"next_test_set"``: Dirichlet-multinomial counts at the observed sizes
        (posterior predictive). ``"true_value"``: the true cell probabilities,
        Dirichlet(cells + α), given to the functions as expected counts at the
        observed sizes (floats), so each function reads the true rates.
    progress : bool or None, default False
        A progress bar over the chunks (tqdm's: a widget in Jupyter); None shows
        it only in an interactive session. The draws are the same either way.

    Examples
    --------
    >>> cells = np.array([[30, 10], [20, 20]])
    >>> fns = {"d": lambda x: x[..., 1, 1] / 40.0, "a": lambda x: x[..., 0, 1] / 40.0}
    >>> v = sampled_metrics(fns, cells, n_draws=1000, random_state=0)
    >>> bool(np.all(v["a"] == sampled_metric(fns["a"], cells, n_draws=1000, random_state=0)))
    True
    """
    al = resolve_prior(prior)
    c = _cells(cells, "cells")
    n_draws = check_n_draws(n_draws, bytes_per_draw=_BYTES_PER_DRAW * max(len(fns), 1))
    rng = check_random_state(random_state)
    k = c.shape[-1]
    flat = c.reshape(-1, k)
    n = flat.sum(axis=-1)
    draw = dirichlet_rows if check_choice(target, "target", TARGETS) == "true_value" else dirichlet_multinomial_rows
    show = check_progress(progress)
    chunk = _chunk_size(flat.size)
    out = {name: np.empty(n_draws, dtype=np.float64) for name in fns}
    from tqdm.auto import tqdm

    with tqdm(total=n_draws, desc="draws", delay=PROGRESS_DELAY, disable=not show, leave=False) as bar:
        for start in range(0, n_draws, chunk):
            stop = min(n_draws, start + chunk)
            draws = draw(rng, flat, n, stop - start, al).reshape(stop - start, *c.shape)
            for name, fn in fns.items():
                out[name][start:stop] = np.asarray(fn(draws), dtype=np.float64).reshape(stop - start)
            bar.update(stop - start)
    return out


def _cdd_moments(g: np.ndarray, al: float, target: str) -> tuple[float, float]:
    """Exact mean and variance of CDD = Σ_i (n_i/n)(D_i − A_i) under the subgroups' independent models.

    ``g`` is (G, 2 facets, 2 outcomes). In subgroup i (Dirichlet(cells + α) over its
    four cells) D_i = (d's share of the negatives) and A_i = (d's share of the
    positives) are, given the split into negatives and positives, independent
    beta(-binomial) shares (the Dirichlet's aggregation property): for the true value
    D_i ~ Beta(α_dn, α_an) and A_i ~ Beta(α_dp, α_ap); for a new sample of the same
    size the split m ~ BetaBin(n_i, α_an + α_dn, α_ap + α_dp) and D_i = BetaBin(m, α_dn,
    α_an)/m (0 when m = 0, as the metric), A_i alike with n_i − m. Linear in the rows.
    """
    from scipy import stats

    c = g.reshape(g.shape[0], 4).astype(np.float64) + al  # a_neg, a_pos, d_neg, d_pos
    an, ap, dn, dp = c.T
    n_i = g.reshape(g.shape[0], 4).sum(axis=1).astype(np.float64)
    n = n_i.sum()
    w = n_i / n
    mu_d, mu_a = dn / (dn + an), dp / (dp + ap)

    def beta_var(a: np.ndarray, b: np.ndarray, m: Any = None) -> np.ndarray:
        v = a * b / ((a + b) ** 2 * (a + b + 1.0))
        return v if m is None else v * (a + b + m) / np.where(m > 0, m, 1.0)

    if target == "true_value":
        mean_t = mu_d - mu_a
        var_t = beta_var(dn, an) + beta_var(dp, ap)
    else:
        sizes = n_i.astype(np.int64)
        owner = np.repeat(np.arange(sizes.size), sizes + 1)
        m = (np.arange(owner.size) - np.repeat(np.cumsum(sizes + 1) - (sizes + 1), sizes + 1)).astype(np.float64)
        pm = stats.betabinom.pmf(m, sizes[owner], (an + dn)[owner], (ap + dp)[owner])
        k = sizes[owner] - m
        has_d, has_a = m > 0, k > 0
        md, ma = mu_d[owner], mu_a[owner]
        e_d = np.where(has_d, md, 0.0)
        e_a = np.where(has_a, ma, 0.0)
        e_d2 = np.where(has_d, md**2 + beta_var(dn[owner], an[owner], m), 0.0)
        e_a2 = np.where(has_a, ma**2 + beta_var(dp[owner], ap[owner], k), 0.0)
        mean_t = np.bincount(owner, pm * (e_d - e_a), minlength=sizes.size)
        second = np.bincount(owner, pm * (e_d2 + e_a2 - 2.0 * e_d * e_a), minlength=sizes.size)
        var_t = np.maximum(second - mean_t**2, 0.0)
    return float(np.sum(w * mean_t)), float(np.sum(w**2 * var_t))


def cdd_distribution(
    g: np.ndarray,
    *,
    metric: str = "CDDL",
    prior: str | float = "uniform",
    n_draws: int = DEFAULT_N_DRAWS,
    random_state: Any = 0,
    target: str = "next_test_set",
    progress: bool | None = None,
) -> MetricDistribution | None:
    """The distribution of CDDL (or CDDPL) from per-subgroup outcomes ``g`` of shape (G, 2, 2).

    Each subgroup is one Dirichlet-multinomial (or, for the true value, Dirichlet)
    vector over its four (facet × outcome) cells at its observed size. With at most
    :data:`CDD_MC_BUDGET` subgroup × draw pairs, ``n_draws`` Monte Carlo draws (a
    progress bar when it takes long, see :func:`sampled_metrics`); beyond (thousands
    of subgroups), CDD is a sum of that many independent bounded terms and is given as
    the normal distribution with its **exact** mean and variance
    (:func:`_cdd_moments`, linear in the rows; strategy ``"normal approximation …"``),
    at ``n_draws`` equally weighted quantile nodes — seconds instead of minutes, and
    deterministic.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> g = rng.multinomial(30, [0.4, 0.1, 0.3, 0.2], size=2000).reshape(2000, 2, 2)
    >>> d = cdd_distribution(g)                  # 2,000 subgroups × 20,000 draws: past CDD_MC_BUDGET
    >>> d.strategy
    'normal approximation: exact mean and variance over 2,000 independent subgroups'
    >>> few = cdd_distribution(g[:50], n_draws=4000)  # Monte Carlo: the same mean within its error
    >>> few.strategy, bool(abs(few.mean() - _cdd_moments(g[:50], 1.0, "next_test_set")[0]) < 0.005)
    ('monte carlo: 4000 draws, random_state 0', True)
    """
    al = resolve_prior(prior)
    target = check_choice(target, "target", TARGETS)
    cells = _cells(g, "g")
    n_groups = cells.shape[0]
    n_draws = check_n_draws(n_draws, bytes_per_draw=_BYTES_PER_DRAW)
    if n_groups * n_draws <= CDD_MC_BUDGET:

        def cdd(draws: np.ndarray) -> np.ndarray:
            return _lm().conditional_demographic_disparity(draws.reshape(*draws.shape[:-1], 2, 2))

        values = sampled_metric(
            cdd,
            cells.reshape(n_groups, 4),
            n_draws=n_draws,
            random_state=random_state,
            prior=prior,
            target=target,
            progress=progress,
        )
        return sampled_distribution(values, metric=metric, random_state=random_state, target=target)
    from scipy import stats

    mean, var = _cdd_moments(cells, al, target)
    nodes = (np.arange(n_draws) + 0.5) / n_draws
    values = mean + math.sqrt(var) * stats.norm.ppf(nodes)
    return posterior_distribution(
        values,
        1.0,
        metric=metric,
        strategy=f"normal approximation: exact mean and variance over {n_groups:,} independent subgroups",
        target=target,
    )


def _lm() -> Any:
    from . import label_metrics

    return label_metrics
