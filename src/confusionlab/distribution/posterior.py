"""A metric's distribution from a posterior: its weighted atoms or equal-weight draws, and what they tell.

A posterior (or posterior predictive) model pushed through a metric gives values with weights
(an exact lattice) or equal-weight Monte Carlo draws; :func:`posterior_distribution` and
:func:`sampled_distribution` turn them into a :class:`~confusionlab.distribution.MetricDistribution`
(values where the metric is undefined become its ``undefined_mass``; equal float values are one
atom). :func:`interval_mc_error` says how far a Monte Carlo interval's ends may move with another
``random_state``, :func:`prob_sign_real` how probable the observed sign is.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from .pmf import MetricDistribution

__all__ = ["PROGRESS_DELAY", "interval_mc_error", "posterior_distribution", "prob_sign_real", "sampled_distribution"]

#: Seconds of work before a progress bar of a posterior's computation appears.
PROGRESS_DELAY = 0.5


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
    question (:data:`confusionlab.models.TARGETS`): the model is "posterior predictive" for the next
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
    >>> interval_mc_error(posterior_distribution(np.array([0.1, 0.2]), 0.5, metric="x", strategy="exact"), 0.95)
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
