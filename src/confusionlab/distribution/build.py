"""The distribution of a metric for an observed matrix under one uncertainty model.

:func:`metric_distribution` chooses the way: the slice models' lattice (binomial,
beta-binomial), the simplex of the dirichlet-multinomial model, the true value's
quadrature, or Monte Carlo draws of the same model where the exact lattice does not fit.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from math import comb
from typing import Any

import numpy as np

from .._validation import (
    DEFAULT_TOLERANCE,
    MAX_TOLERANCE,
    InvalidParameterError,
    TooLargeError,
    check_choice,
    check_future_size,
    check_future_total,
    check_instance,
    check_int,
    check_memory,
    check_random_state,
    check_tolerance,
    check_undefined,
    memory_limit,
)
from ..confusion import ConfusionMatrix
from ..lattice import MAX_SIMPLEX_POINTS, largest_simplex
from ..metrics import Metric, get_metric
from ..models import MODELS, SIMPLEX_MODELS, TARGETS, default_alpha, resolve_prior, simplex_model, slice_model
from .arithmetic import _arithmetic_fits, lattice_bytes
from .origin import Origin
from .pmf import MetricDistribution
from .pushforward import lattice_distribution
from .sampled import DEFAULT_DRAWS, MAX_DISTRIBUTION_DRAWS, _sampled_distribution
from .true_value import _true_value_distribution

__all__ = ["METHODS", "metric_distribution", "shared_simplex"]


#: How a distribution is computed (``method`` of :func:`metric_distribution` and
#: :func:`~confusionlab.evaluate`): ``"exact"`` (the lattice, or the true value's quadrature),
#: ``"monte-carlo"`` (draws of the same model), ``"auto"`` (exact where it fits in memory,
#: else Monte Carlo).
METHODS = ("auto", "exact", "monte-carlo")


def _tolerance_advice(tolerance: float) -> str:
    sampled = "method='auto' (Monte Carlo of the same model where the exact lattice does not fit)"
    if tolerance >= MAX_TOLERANCE:
        return f"use {sampled}, or a smaller future_size"
    suggestion = min(MAX_TOLERANCE, tolerance * 1e3) if tolerance > 0 else DEFAULT_TOLERANCE
    return f"raise tolerance (now {tolerance:g}; try {suggestion:g}), use {sampled} or a smaller future_size"


_SHARED = threading.local()


@contextmanager
def shared_simplex() -> Iterator[None]:
    """Within the block, :func:`metric_distribution` keeps the last simplex model it built
    and reuses it for the next metric of the same matrix (the model is most of the cost of
    the dirichlet-multinomial distribution: several metrics of one matrix build it once)."""
    previous = getattr(_SHARED, "simplex", None)
    _SHARED.simplex = {}
    try:
        yield
    finally:
        _SHARED.simplex = previous


def _simplex_bytes(m: Metric, N: int) -> float:
    """Peak bytes of the simplex model's exact distribution at size ``N``: the counts and
    the masses of every point (with their sort for the pruning), then the grouping."""
    return float(comb(N + 3, 3)) * (32 + 8 * 4 + lattice_bytes(m, N))


def metric_distribution(
    cm: ConfusionMatrix,
    metric: str | Metric,
    model: str = "beta-binomial",
    *,
    prior: Any = None,
    future_size: int | tuple[int, int] | None = None,
    tolerance: float = DEFAULT_TOLERANCE,
    undefined: float | str = 0.0,
    target: str = "next_test_set",
    method: str = "exact",
    n_draws: int = DEFAULT_DRAWS,
    random_state: Any = 0,
) -> MetricDistribution:
    """The exact distribution of ``metric`` for a new test set under ``model``.

    The test set's rows are assumed independent (one draw each): with several rows per patient, passage or
    speaker the distribution is too narrow (for clustered rows see :func:`~confusionlab.evaluate`'s
    ``cluster=``).

    Parameters
    ----------
    cm : ConfusionMatrix
        The observed confusion matrix.
    metric : str or Metric
        A name from :data:`~confusionlab.METRICS` (aliases and ``"f<beta>"`` accepted).
    model : {"beta-binomial", "binomial", "dirichlet-multinomial"}
        See :mod:`confusionlab.models`. The first two keep ``p`` and ``n`` fixed (a
        slice); the third spreads mass over the whole simplex.
    prior : {"uniform", "jeffreys"} or float, optional
        Symmetric prior α = β (beta-binomial) or Dirichlet concentration added to
        each cell (dirichlet-multinomial). Ignored by the binomial model. Default:
        α = 1 (uniform) for the next test set, α = ½ (Jeffreys',
        :data:`TRUE_VALUE_PRIOR`) for ``target="true_value"`` — the defaults of
        :func:`confusionlab.evaluate`, chosen from a coverage study (Notes).
    future_size : int or (p, n), optional
        Size of the predicted test set; default: the observed size. The slice models
        (p and n fixed) take a pair ``(p, n)`` or a total ``N``, split in the observed
        proportions: ``p′ = ⌊N·p/(p + n) + ½⌋``, ``n′ = N − p′`` (at least one example
        of each class that was observed). The dirichlet-multinomial model takes ``N``
        only: its prevalence is not fixed, so a pair is refused (pass ``N = p + n``).
    tolerance : float, default 1e-12
        Each marginal drops tails of total mass at most ``tolerance`` (the joint
        loses at most ``2 * tolerance``); the loss is ``pruned_mass``. ``0`` keeps
        the full lattice. At most 0.01.
    undefined : float or "exclude", default 0.0
        Value given to points where the metric is 0/0 (the paper's convention is
        0), or ``"exclude"`` to leave them out. Their mass is ``undefined_mass``.
        Points where the metric is x/0 (x ≠ 0) are ±inf, not undefined.
    target : {"next_test_set", "true_value"}, default "next_test_set"
        The question answered. ``"next_test_set"``: what will a new test set of this
        size show (the paper's posterior predictive; exact). ``"true_value"``: where is
        the metric's true value, i.e. the posterior of the metric under
        TPR ~ Beta(TP + α, FN + α), TNR ~ Beta(TN + α, FP + α) (α from ``prior``,
        ½ by default) with the prevalence fixed at the observed p/N — the limit of a
        growing future test set, about 1/√2 as wide. Only with the beta-binomial model
        and without ``future_size``; computed by quadrature (below).
    method : {"exact", "auto", "monte-carlo"}, default "exact"
        ``"exact"``: the lattice (refused with :class:`TooLargeError` when it would not
        fit in memory). ``"monte-carlo"``: ``n_draws`` draws of the same model (any size).
        ``"auto"``: exact where the lattice fits in :func:`confusionlab.memory_limit`, else
        Monte Carlo. The result's :attr:`~MetricDistribution.method` says which was used.
        (``target="true_value"`` is a quadrature at every size; ``"monte-carlo"`` samples it.)
    n_draws : int, default 20,000
        Monte Carlo draws (``method="monte-carlo"``, or ``"auto"`` where exact does not fit).
    random_state : None, int or Generator, default 0
        Seed of the Monte Carlo draws.

    Returns
    -------
    MetricDistribution
        With ``target`` set; ``cdf_error`` bounds the quadrature error of ``"true_value"``.
        Its :attr:`~MetricDistribution.value` is the metric on ``cm``.

    Raises
    ------
    InvalidParameterError
        (a ValueError and a TypeError) for an invalid argument, naming it.
    TooLargeError
        (a ValueError) when the lattice would need more memory than
        :func:`confusionlab.memory_limit` allows; the message says how to get an answer.

    See Also
    --------
    compare : P(A > B) for two classifiers scored on independent test sets.
    confusionlab.compare_paired : The same question for two classifiers on one test set.
    confusionlab.evaluate : From predictions (groups, refits, several classes) to these distributions.
    confusionlab.plan_test_size : The test-set size at which this distribution's interval is narrow enough.

    Notes
    -----
    Values are grouped on exact rational keys: each metric is a ratio of integer
    polynomials in the counts (or the signed square root of one), and two lattice
    points are merged only when their ratios are equal as rational numbers
    (:mod:`confusionlab.grouping` proves the grouping exact). So ties are never split
    by floating-point error: at p = 20, n = 40 balanced accuracy has exactly 81
    distinct values where float grouping finds 115. Keys that need more than 64
    bits (MCC at N = 100,000) are sorted as floats with a bounded error and the few
    near-ties are decided with Python integers. The probabilities, the pruned mass
    and the excluded undefined mass are checked to add up to 1.

    ``target="true_value"`` is a product quadrature: each rate's Beta posterior is
    replaced by its K = :data:`TRUE_VALUE_NODES` quantiles at probabilities
    (i + ½)/K, each of mass 1/K, and the metric is evaluated at the K² pairs
    (p·TPR, p·(1 − TPR), n·(1 − TNR), n·TNR). Coupling each rate with its node (same
    quantile cell), the metric's event {M ≤ x} is misclassified only in the cells
    that its contour crosses; for a metric monotone in each rate (accuracy, balanced
    accuracy, F-scores, precision, MCC, …) these form a staircase of at most 2K − 1
    cells, so ``|cdf − exact cdf| ≤ (2K − 1)/K²`` (``cdf_error``, 0.005 at K = 400);
    moments are far more accurate (a midpoint rule in each rate).

    The true value's interval is a Bayesian interval, not a confidence interval, but it is
    read as one. Its coverage was simulated (``benchmarks/bench_coverage.py``, RESULTS.md:
    accuracy, balanced accuracy, F1 and MCC, N = 30–1,000, prevalence 0.5 and 0.1, rates 0.95
    and 0.7): with the default Jeffreys prior the 95 % interval covered 0.93–0.97 where
    outcomes were enumerated exactly (0.93–0.94 for an accurate classifier at N = 30); with
    ``prior="uniform"`` it covered only 0.81–0.85 there (the prior pulls an all-but-perfect
    classifier toward ½), and α = 0.1 covered 0.77. Elsewhere the priors agree within the
    study's Monte Carlo error (±0.024).

    ``method="monte-carlo"`` draws the same model: for the slice models each rate from its
    Beta posterior (the binomial: the observed rate), then the new test set's TP and TN
    from binomials; for the simplex the cells' shares from Dirichlet(counts + α), then a
    multinomial. Its ``mc_error`` is the standard error of the mean (sd/√n_draws) and its
    ``cdf_error`` the Dvoretzky–Kiefer–Wolfowitz bound √(ln(2/δ)/(2·n_draws)), δ =
    :data:`MC_CDF_RISK`: with probability ≥ 1 − δ the cdf is that close to the exact one
    everywhere (0.014 at 20,000 draws), so each end of an interval lies within the exact
    quantiles at levels shifted by ``cdf_error``.

    Examples
    --------
    >>> cm = ConfusionMatrix(tp=16, fn=4, fp=8, tn=32)
    >>> d = metric_distribution(cm, "balanced_accuracy", tolerance=0)
    >>> len(d), int(d.multiplicities.sum())
    (81, 861)
    >>> round(d.mean(), 3), round(d.std(), 3)
    (0.779, 0.078)
    >>> lo, hi = metric_distribution(cm, "mcc", "binomial").interval(0.95)
    >>> lr = metric_distribution(ConfusionMatrix(tp=16, fn=4, fp=1, tn=39), "lr_plus")
    >>> float(lr.values[-1]), round(lr.infinite_mass, 4), lr.mean()
    (inf, 0.2531, inf)

    The true value's posterior is narrower than the next test set's spread:

    >>> big = ConfusionMatrix(tp=160, fn=40, fp=80, tn=320)
    >>> nxt = metric_distribution(big, "balanced_accuracy")
    >>> true = metric_distribution(big, "balanced_accuracy", target="true_value")
    >>> true.target, round(true.std() / nxt.std(), 2)
    ('true_value', 0.7)

    A total future size is split in the observed proportions (20 : 40 here):

    >>> metric_distribution(cm, "accuracy", future_size=90).origin.future_size
    (30, 60)
    """
    cm = check_instance(cm, "cm", ConfusionMatrix, "a ConfusionMatrix")
    m = get_metric(metric)
    model = check_choice(model, "model", MODELS)
    tolerance = check_tolerance(tolerance)
    undefined_value = check_undefined(undefined)
    target = check_choice(target, "target", TARGETS)
    alpha = default_alpha("metric_distribution", target) if prior is None else resolve_prior(prior)
    method = check_choice(method, "method", METHODS)
    n_draws = check_int(n_draws, "n_draws", minimum=2, maximum=MAX_DISTRIBUTION_DRAWS)
    random_state = check_random_state(random_state)  # validated here, whichever path answers
    if target == "true_value":
        if model != "beta-binomial":
            raise InvalidParameterError(
                f"target='true_value' is the posterior of the metric under the Beta posteriors of the rates, the "
                f"limit of the beta-binomial model; got model={model!r}. Use model='beta-binomial' (the default)"
            )
        if future_size is not None:
            raise InvalidParameterError(
                f"target='true_value' has no test-set size (it is the limit of a growing one); got "
                f"future_size={future_size!r}. Leave future_size out, or use target='next_test_set'"
            )
        origin = Origin.of(cm, m, alpha, tolerance, (cm.p, cm.n), undefined_value)
        if method == "monte-carlo":
            return _sampled_distribution(
                cm, m, model, alpha, (cm.p, cm.n), undefined_value, target, n_draws, random_state, origin
            )
        return _true_value_distribution(cm, m, alpha, undefined_value, origin)

    def sampled(size: tuple[int, int] | int, origin: Origin) -> MetricDistribution:
        return _sampled_distribution(cm, m, model, alpha, size, undefined_value, target, n_draws, random_state, origin)

    if model in SIMPLEX_MODELS:
        total = check_future_total(future_size, model=model)
        big_n = cm.N if total is None else total
        origin = Origin.of(cm, m, alpha, tolerance, big_n, undefined_value)
        if method == "monte-carlo":
            return sampled(big_n, origin)
        fits = comb(big_n + 3, 3) <= MAX_SIMPLEX_POINTS and _simplex_bytes(m, big_n) <= memory_limit()
        if method == "auto" and not fits:
            return sampled(big_n, origin)
        if comb(big_n + 3, 3) > MAX_SIMPLEX_POINTS:
            raise InvalidParameterError(
                f"model={model!r} spreads the distribution over the simplex of C(N + 3, 3) matrices, "
                f"{comb(big_n + 3, 3):,} for N = {big_n:,}, more than the {MAX_SIMPLEX_POINTS:,} it builds; use "
                "method='auto' or 'monte-carlo' (draws of the same model, any size), a smaller future_size "
                f"(N <= {largest_simplex()}), or "
                "model='beta-binomial' (the prevalence fixed)"
            )
        check_memory(
            _simplex_bytes(m, big_n),
            f"the {model} simplex of {comb(big_n + 3, 3):,} matrices (N = {big_n:,})",
            "use method='auto' or 'monte-carlo' (draws of the same model), or a smaller future_size",
        )
        memo = getattr(_SHARED, "simplex", None)
        memo_key = (cm.as_tuple(), alpha, big_n, tolerance)
        sm = memo.get(memo_key) if memo is not None else None
        if sm is None:
            sm = simplex_model(cm, prior=alpha, future_size=total, tolerance=tolerance)
            if memo is not None:
                memo.clear()  # one model at a time: the simplex can weigh hundreds of MB
                memo[memo_key] = sm
        cols: tuple[np.ndarray, ...] = tuple(sm.counts[:, j] for j in range(4))
        largest, weights, pruned = sm.N, sm.pmf, sm.pruned_mass
    else:
        pair = check_future_size(future_size, cm.p, cm.n)
        if method == "monte-carlo":
            size = pair or (cm.p, cm.n)
            return sampled(size, Origin.of(cm, m, alpha, tolerance, size, undefined_value))
        try:
            sl = slice_model(cm, model, prior=alpha, future_size=pair, tolerance=tolerance)
            origin = Origin.of(cm, m, alpha, tolerance, (sl.p, sl.n), undefined_value)
            check_memory(
                float(sl.tp_pmf.size) * float(sl.tn_pmf.size) * lattice_bytes(m, sl.p + sl.n),
                f"the {model} lattice of {sl.tp_pmf.size:,} × {sl.tn_pmf.size:,} (TP, TN) points",
                _tolerance_advice(tolerance),
            )
            if method == "auto":
                _arithmetic_fits(m, sl.p + sl.n)
        except TooLargeError:
            if method != "auto":
                raise
            size = pair or (cm.p, cm.n)
            return sampled(size, Origin.of(cm, m, alpha, tolerance, size, undefined_value))
        tp, tn = sl.tp, sl.tn
        cols = (tp, sl.p - tp, sl.n - tn, tn)
        largest, weights, pruned = sl.p + sl.n, sl.joint(), sl.pruned_mass

    return lattice_distribution(
        m,
        cols,
        weights,
        largest=largest,
        pruned=pruned,
        model=model,
        undefined=undefined_value,
        slice_pn=None if model in SIMPLEX_MODELS else (sl.p, sl.n),
        origin=origin,
    )
