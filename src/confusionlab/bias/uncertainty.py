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

What is not about bias lives a layer down, in :mod:`confusionlab.distribution`, and keeps its
names here: a distribution from weighted atoms or draws, its Monte Carlo error and sign
(:mod:`~confusionlab.distribution.posterior`), the Dirichlet-multinomial draws reduced in
bounded memory (:mod:`~confusionlab.distribution.count_draws`), the true value of a function of
two Beta rates (:mod:`~confusionlab.distribution.two_beta`); CDDL and CDDPL are :mod:`._cdd`'s.
"""

from __future__ import annotations

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
    check_tolerance,
)
from ..distribution import MetricDistribution
from ..distribution.count_draws import (
    CHUNK_BYTES,
    DEFAULT_N_DRAWS,
    as_count_cells,
    dirichlet_multinomial_draws,
    sampled_metric,
    sampled_metrics,
)
from ..distribution.count_draws import check_draws as _check_draws
from ..distribution.posterior import PROGRESS_DELAY as PROGRESS_DELAY
from ..distribution.posterior import (
    interval_mc_error,
    posterior_distribution,
    prob_sign_real,
    sampled_distribution,
)
from ..distribution.two_beta import MIN_BETA_PARAMETER as MIN_BETA_PARAMETER
from ..distribution.two_beta import beta_pair_distributions
from ..models import TARGETS, marginal, resolve_prior
from ._cdd import CDD_MC_BUDGET, cdd_distribution

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

#: The old name of :data:`DEFAULT_N_DRAWS`.
DEFAULT_SAMPLES = DEFAULT_N_DRAWS
DEFAULT_MAX_POINTS = 1_000_000
#: Quantile nodes of the beta posterior of a facet's true share (CI's true value).
_SHARE_NODES = 100_000


def check_samples(n_samples: Any, name: str = "n_samples", *, minimum: int = 1, cells: int = 1) -> int:
    """Deprecated: :func:`confusionlab._validation.check_n_draws` (the library's one name is ``n_draws``)."""
    warnings.warn(
        "check_samples is renamed confusionlab._validation.check_n_draws; the old name will stop working in the "
        "next release",
        FutureWarning,
        stacklevel=2,
    )
    return _check_draws(n_samples, name, minimum=minimum, cells=cells)


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
    o = as_count_cells(outcomes, "outcomes")
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


def _two_rates_exact(kind: str, o: np.ndarray, al: float, *, metric: str) -> MetricDistribution | None:
    """The true value of a function of the facets' rates q_a, q_d (independent Beta posteriors), one row.

    ``difference`` q_a − q_d (DPL, DPPL), its absolute value (TVD, KS on a binary label; LP is
    √2 times it) and ``ratio`` q_d / q_a (DI): :func:`beta_pair_distributions` of one row.
    """
    kind, pars = beta_pair_of_outcomes(kind, o, al)
    return beta_pair_distributions(kind, np.array([pars]), [metric])[0]
