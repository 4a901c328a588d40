"""How large must a facet be? The smallest facet size for a bias metric's half-width.

:func:`plan_group_size` is the bias counterpart of :func:`confusionlab.planner.plan_test_size`:
the smallest size of facet d whose posterior interval for DPL, DPPL or DI
(:mod:`.uncertainty`, the same exact beta-binomial lattice a :class:`BiasReport` uses) is
at most ± ``half_width``, facet a's size and rate being given. The search is the
planner's :func:`~confusionlab.planner.smallest_size` (bracket with the normal
approximation, then scan every candidate), so the answer is the smallest size although
the half-width is not monotone in it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats

from .._validation import (
    DEFAULT_TOLERANCE,
    check_choice,
    check_confidence,
    check_count,
    check_half_width,
    check_int,
    check_rate,
    check_tolerance,
)
from ..distribution import TRUE_VALUE_NODES, MetricDistribution
from ..models import TARGETS, resolve_prior
from ..planner import DRIFT_ALLOWANCE, SizePlan, TargetUnreachableError, interval_half_width, smallest_size, stable_size
from . import label_metrics as lm
from .evaluator import _di_from_outcomes
from .uncertainty import exact_binary_facets

__all__ = ["GROUP_METRICS", "MAX_GROUP_SIZE", "GroupSizePlan", "plan_group_size"]

#: Metrics a facet size can be planned for: functions of each facet's binary outcome,
#: whose posteriors are exact lattices (DPL on labels, DPPL and DI on predictions).
GROUP_METRICS = {"DPL": lm.difference_in_proportions, "DPPL": lm.difference_in_proportions, "DI": _di_from_outcomes}
#: Largest facet size searched by default.
MAX_GROUP_SIZE = 100_000
#: Lattice points allowed per exact posterior (above it the report would sample; the plan refuses).
_MAX_POINTS = 10_000_000
#: The drift allowance of a group plan is ``GROUP_DRIFT / min(size_a, size_d)`` (the planner's own is
#: ``1 / min(p, n)``): where the facets' sizes are close (size_d near size_a) their lattices align,
#: atoms of the difference coincide and the exact half-width dips up to 1.4 % below its normal
#: approximation's trend (size_a = 213, rate_a = 0.652, rate_d = 0.242: ρ 0.986 at size_d 213–215
#: against ≥ 0.999 around the crossing at 224), which an allowance of 1/213 left unscanned.
GROUP_DRIFT = 3.0


@dataclass(frozen=True)
class GroupSizePlan(SizePlan):
    """The smallest facet-d size meeting a requested half-width (:func:`plan_group_size`).

    Attributes
    ----------
    metric : str
    size_d, size_a : int
        Planned size of facet d; the given size of facet a.
    positives_d, positives_a : int
        ⌊rate·size + ½⌋ of each facet (labels for DPL, predicted positives for DPPL, DI).
    half_width : float
        Achieved half-width at ``size_d``.
    requested_half_width : float
        The half-width asked for (``half_width=`` of :func:`plan_group_size`).
    target : {"true_value", "next_test_set"}
        The question planned for: the posterior of the true disparity, or the disparity
        new facets of these sizes will show.
    confidence : float
    curve : dict
        size_d → half-width for every size evaluated.
    N : int
        ``size_d`` under the name :class:`~confusionlab.TestSizePlan` gives its plan.
    N_stable : int
        The smallest facet-d size from which every larger size up to ``stable_horizon``
        meets the half-width (the half-width is not monotone in the size: ``size_d`` is the
        first that meets it, ``N_stable`` where it stops failing), as
        :attr:`TestSizePlan.N_stable <confusionlab.TestSizePlan.N_stable>`.
    stable_horizon : int
        How far "every larger size" was checked: ``min(2·N_stable, max_size)`` (exactly
        wherever the calibrated normal approximation cannot rule a failure out).

    Notes
    -----
    The result protocol: :attr:`value` is the metric at the planned counts,
    :meth:`interval` the central interval of its posterior there, :meth:`to_frame` the
    curve, :meth:`plot` the curve drawn, :meth:`view` the summary and the figure in a
    widget, :meth:`to_html` a page of all of it.

    Examples
    --------
    >>> plan = plan_group_size("DPPL", size_a=2000, rate_a=0.3, rate_d=0.2, half_width=0.05, target="next_test_set")
    >>> plan.size_d, plan.requested_half_width
    (726, 0.05)
    """

    title = "How large must the facet be?"
    _size_attribute = "size_d"
    _size_label = "size of facet d"

    metric: str
    size_d: int
    size_a: int
    positives_d: int
    positives_a: int
    half_width: float
    requested_half_width: float
    confidence: float
    curve: dict[int, float]
    prior: float = 1.0
    tolerance: float = DEFAULT_TOLERANCE
    target: str = "true_value"
    N_stable: int | None = None
    stable_horizon: int | None = None

    @property
    def N(self) -> int:
        """The planned size of facet d (``size_d``), under :class:`~confusionlab.TestSizePlan`'s name."""
        return self.size_d

    @property
    def value(self) -> float:
        """The metric at the planned counts."""
        return float(
            GROUP_METRICS[self.metric](_outcomes(self.size_a, self.positives_a, self.size_d, self.positives_d))
        )

    def distribution(self) -> MetricDistribution:
        """The posterior the criterion reads."""
        if self.target == "true_value":
            return _true_value_posterior(
                self.metric, self.size_a, self.positives_a, self.size_d, self.positives_d, self.prior
            )
        return _posterior(
            self.metric, self.size_a, self.positives_a, self.size_d, self.positives_d, self.prior, self.tolerance
        )

    def summary(self, confidence: float = 0.95) -> str:
        """The plan in one sentence, with the ``confidence`` interval at the planned sizes."""
        lo, hi = self.interval(check_confidence(confidence))
        question = "the true disparity" if self.target == "true_value" else "new facets of these sizes"
        return (
            f"{self.metric}: {self.size_d:,} objects in facet d (with {self.size_a:,} in facet a) is the smallest "
            f"size whose {self.confidence:.0%} interval for {question} is at most ± {self.requested_half_width:g} "
            f"(± {self.half_width:.4g} there); the {confidence:.0%} interval around {self.value:.3g} is "
            f"[{lo:.3g}, {hi:.3g}].{self._stable_sentence()}"
        )

    def _stable_sentence(self) -> str:
        if self.N_stable is None:
            return ""
        if self.N_stable == self.size_d:
            return f" Every size from {self.size_d:,} to {self.stable_horizon:,} (checked) meets it too."
        return (
            f" Some larger sizes miss it again (the half-width is not monotone): from {self.N_stable:,} on, every "
            f"size up to {self.stable_horizon:,} (checked) meets it."
        )


def _outcomes(size_a: int, k_a: int, size_d: int, k_d: int) -> np.ndarray:
    return np.array([[size_a - k_a, k_a], [size_d - k_d, k_d]])


def _posterior(metric: str, size_a: int, k_a: int, size_d: int, k_d: int, prior: float, tolerance: float):
    d = exact_binary_facets(
        GROUP_METRICS[metric],
        _outcomes(size_a, k_a, size_d, k_d),
        prior=prior,
        tolerance=tolerance,
        max_points=_MAX_POINTS,
        metric=metric,
    )
    if d is None or not d.strategy.startswith("exact"):
        advice = _smaller_facet_a(size_a, k_a, size_d, k_d, prior)
        raise ValueError(
            f"the exact {metric} posterior at facet sizes {size_a:,} and {size_d:,} has more than "
            f"{_MAX_POINTS:,} lattice points; {advice}"
        )
    return d


def _window(size: int, k: int, prior: float) -> float:
    """About how many counts a facet's predictive window holds (15 sd of its beta-binomial)."""
    a, b = k + prior, size - k + prior
    var = size * a * b * (a + b + size) / ((a + b) ** 2 * (a + b + 1))
    return 15.0 * math.sqrt(var) + 1.0


def _smaller_facet_a(size_a: int, k_a: int, size_d: int, k_d: int, prior: float) -> str:
    """Advice that leads to an exact plan when facet a's lattice is what is too large: a smaller
    size_a at the same rate (a facet that large is as good as known: its share of the variance,
    stated, is what changes), else a larger half_width."""
    rate = k_a / size_a
    w_d = _window(size_d, k_d, prior)
    fits = [
        10**e
        for e in range(2, 10)
        if 10**e < size_a and _window(10**e, math.floor(rate * 10**e + 0.5), prior) * w_d <= _MAX_POINTS / 4
    ]
    if not fits:
        return "ask for a larger half_width or a smaller max_size"
    s = max(fits)

    def share(size: int, k: int) -> float:  # the new facet's proportion: its predictive variance
        a, b = k + prior, size - k + prior
        return a * b * (a + b + size) / ((a + b) ** 2 * (a + b + 1) * size)

    v_d = share(size_d, k_d)
    v_big, v_small = share(size_a, k_a), share(s, math.floor(rate * s + 0.5))
    change = math.sqrt((v_d + v_small) / (v_d + v_big)) - 1.0
    return (
        f"facet a is what is too large: at size_a={size_a:,} its share of the variance is {v_big / (v_d + v_big):.2g}. "
        f"Pass size_a={s:,} (the same rate; the half-width changes by about {change:.2g} relatively, "
        "so the plan is a slightly conservative one for the larger facet), or target='true_value', or a larger "
        "half_width"
    )


def _infinite_upper_end(
    size_a: int, k_a: int, size_d: np.ndarray, k_d: np.ndarray, prior: float, confidence: float
) -> np.ndarray:
    """Facet-d sizes at which DI's predictive interval surely ends at +inf.

    DI is infinite when a new facet a shows no positive and facet d some:
    ``P(DI = ∞) = P(k_a′ = 0)·(1 − P(k_d′ = 0))``, each factor a beta-binomial probability
    of zero. Above the upper tail ``(1 − confidence)/2`` (with a margin far above the
    lattice's pruned mass) the interval's upper end, hence the half-width, is infinite.

    >>> _infinite_upper_end(5000, 1, np.array([1.0, 100.0]), np.array([0.0, 25.0]), 1.0, 0.95).tolist()
    [True, True]
    >>> _infinite_upper_end(5000, 500, np.array([100.0]), np.array([25.0]), 1.0, 0.95).tolist()
    [False]
    """
    none_a = stats.betabinom.pmf(0, size_a, k_a + prior, size_a - k_a + prior)
    none_d = stats.betabinom.pmf(0, size_d, k_d + prior, size_d - k_d + prior)
    return none_a * (1.0 - none_d) > (1.0 - confidence) / 2 + 1e-9


def _true_value_posterior(metric: str, size_a: int, k_a: int, size_d: int, k_d: int, prior: float):
    """The posterior of the metric's true value: each facet's rate ~ Beta(k + α, size − k + α),
    by the quantile product rule of :func:`~confusionlab.metric_distribution`'s true value
    (K nodes per rate at probabilities (i + ½)/K; cdf error at most (2K − 1)/K² for a
    metric monotone in each rate, as DPL, DPPL and DI are)."""
    k = TRUE_VALUE_NODES
    nodes = (np.arange(k) + 0.5) / k
    q_a = stats.beta.ppf(nodes, k_a + prior, size_a - k_a + prior)
    q_d = stats.beta.ppf(nodes, k_d + prior, size_d - k_d + prior)
    # each facet as the outcome counts [1 − q, q]: the metric's own function of the two rates
    outcomes = np.empty((k, k, 2, 2))
    outcomes[..., 0, 1], outcomes[..., 1, 1] = q_a[:, None], q_d[None, :]
    outcomes[..., 0, 0], outcomes[..., 1, 0] = 1 - outcomes[..., 0, 1], 1 - outcomes[..., 1, 1]
    values, counts = np.unique(np.asarray(GROUP_METRICS[metric](outcomes)).ravel(), return_counts=True)
    return MetricDistribution(
        values,
        counts / float(k * k),
        counts,
        metric=metric,
        model="beta-binomial",
        lattice_points=k * k,
        strategy=f"quadrature({k}x{k})",
        check_total=True,
        target="true_value",
        cdf_error=(2 * k - 1) / k**2,
    )


def plan_group_size(
    metric: str,
    *,
    size_a: int,
    rate_a: float,
    rate_d: float,
    half_width: float,
    confidence: float = 0.95,
    prior: Any = "uniform",
    tolerance: float = DEFAULT_TOLERANCE,
    max_size: int = MAX_GROUP_SIZE,
    target: str = "true_value",
) -> GroupSizePlan:
    """The smallest size of facet d whose ``metric`` interval is at most ± ``half_width``.

    The planned rows are assumed independent (one draw each): with several rows per person the plan is too
    small.

    Parameters
    ----------
    metric : {"DPL", "DPPL", "DI"}
        Bias metric: difference in positive proportions of labels (DPL) or of predicted
        labels (DPPL), disparate impact (DI).
    size_a : int
        Size of the other facet (a), at least 1.
    rate_a, rate_d : float
        Expected positive rates in facets a and d (labels for DPL, predictions for
        DPPL and DI), in (0, 1).
    half_width : float
        The goal: the largest half-width of the central interval accepted (recorded as
        ``requested_half_width``).
    confidence : float, default 0.95
    prior : {"uniform", "jeffreys"} or float
    tolerance : float, default 1e-12
        Tail mass each facet's marginal may drop.
    max_size : int, default 100,000
        Largest facet-d size searched.
    target : {"true_value", "next_test_set"}, default "true_value"
        The question. ``"true_value"``: the posterior of the true disparity (each facet's
        rate ~ Beta(k + α, size − k + α)); ``"next_test_set"``: the disparity that new
        facets of the same sizes will show (the plan of earlier releases, about √2 wider).

    Returns
    -------
    GroupSizePlan

    Raises
    ------
    confusionlab.InvalidParameterError
        Bad rates, confidence, half-width or size.
    TargetUnreachableError
        A ValueError (with ``best_N``, the best facet-d size found) when no size up to
        ``max_size`` reaches ``half_width`` — facet a's own uncertainty sets a floor that no
        size of facet d can go below.

    See Also
    --------
    confusionlab.plan_test_size : the same question for the size of a test set.
    report : the bias metrics, with their uncertainty, of a data set at hand.
    audit : every group and metric judged against a margin.

    Notes
    -----
    Criterion at a size ``n_d``: positives ``k = ⌊rate·size + ½⌋`` in each facet; for
    ``target="next_test_set"`` the posterior predictive distribution of the metric for new
    facets of the same sizes (``k' ~ BetaBin(size, k + α, size − k + α)`` per facet,
    independently, exact on the lattice:
    :func:`~confusionlab.bias.uncertainty.exact_binary_facets`), for ``"true_value"`` the
    posterior of the metric of the two rates (a quadrature); its central interval;
    half-width = (upper − lower)/2.

    Examples
    --------
    >>> plan = plan_group_size("DPPL", size_a=2000, rate_a=0.3, rate_d=0.2, half_width=0.05, target="next_test_set")
    >>> plan.size_d, round(plan.half_width, 4) <= 0.05
    (726, True)
    >>> true = plan_group_size("DPPL", size_a=2000, rate_a=0.3, rate_d=0.2, half_width=0.05)
    >>> true.target, true.size_d < 726
    ('true_value', True)
    """
    name = check_choice(metric, "metric", tuple(GROUP_METRICS))
    size_a = check_int(check_count(size_a, "size_a"), "size_a (facet a cannot be empty)", minimum=1)
    rate_a = check_rate(rate_a, "rate_a")
    rate_d = check_rate(rate_d, "rate_d")
    half_width = check_half_width(half_width)
    confidence = check_confidence(confidence)
    target = check_choice(target, "target", TARGETS)
    alpha = resolve_prior(prior)
    tolerance = check_tolerance(tolerance)
    max_size = check_int(max_size, "max_size", minimum=1, maximum=10**7)
    k_a = math.floor(rate_a * size_a + 0.5)
    z = float(stats.norm.ppf(0.5 + confidence / 2))

    def rate_moments(k: np.ndarray, size: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        a, b = k + alpha, size - k + alpha
        mean = a / (a + b)
        var = a * b / ((a + b) ** 2 * (a + b + 1))  # the rate's posterior
        if target == "next_test_set":  # the proportion in a new facet of the same size
            var = var * (a + b + size) / size
        return mean, var

    qa, va = rate_moments(np.float64(k_a), np.float64(size_a))

    def approximate(sizes: np.ndarray) -> np.ndarray:
        s = sizes.astype(np.float64)
        qd, vd = rate_moments(np.floor(rate_d * s + 0.5), s)
        var = va + vd if name != "DI" else vd / qa**2 + qd**2 * va / qa**4
        return z * np.sqrt(var)

    def infinite(sizes: np.ndarray) -> np.ndarray:
        s = sizes.astype(np.float64)
        return _infinite_upper_end(size_a, k_a, s, np.floor(rate_d * s + 0.5), alpha, confidence)

    cache: dict[tuple[int, int], tuple[float, float]] = {}

    def evaluate(size_d: int) -> tuple[float, float]:
        k_d = math.floor(rate_d * size_d + 0.5)
        if (size_d, k_d) not in cache:
            if target == "true_value":
                d = _true_value_posterior(name, size_a, k_a, size_d, k_d, alpha)
            else:
                d = _posterior(name, size_a, k_a, size_d, k_d, alpha, tolerance)
            cache[size_d, k_d] = interval_half_width(d, confidence)
        h, grain = cache[size_d, k_d]
        return h, grain + max(DRIFT_ALLOWANCE, GROUP_DRIFT / min(size_a, size_d))

    try:
        size_d, h, curve = smallest_size(
            evaluate,
            approximate,
            half_width,
            min_size=1,
            max_size=max_size,
            what="facet-d size",
            infinite=infinite if name == "DI" and target == "next_test_set" else None,
        )
    except TargetUnreachableError as exc:
        if math.isfinite(exc.best_half_width):
            raise
        none_a = float(stats.betabinom.pmf(0, size_a, k_a + alpha, size_a - k_a + alpha))
        raise TargetUnreachableError(
            f"no facet-d size up to {max_size:,} (max_size) reaches the half-width {half_width:g}: a new facet a "
            f"of {size_a:,} at rate {rate_a:g} shows no positive with probability {none_a:.3g}, so DI is infinite "
            f"with more than the upper tail's {(1 - confidence) / 2:.3g} at every facet-d size searched and its "
            f"{confidence:.0%} interval has no upper end. Ask for target='true_value', or a larger size_a or rate_a",
            best_N=exc.best_N,
            best_half_width=exc.best_half_width,
            max_size=max_size,
            curve=exc.curve,
        ) from None
    horizon = min(2 * size_d, max_size)
    n_stable = stable_size(evaluate, approximate, half_width, start=size_d, horizon=horizon, curve=curve)
    while min(2 * n_stable, max_size) > horizon:  # the horizon follows N_stable
        horizon = min(2 * n_stable, max_size)
        n_stable = stable_size(evaluate, approximate, half_width, start=size_d, horizon=horizon, curve=curve)
    curve = dict(sorted(curve.items()))
    return GroupSizePlan(
        metric=name,
        size_d=size_d,
        size_a=size_a,
        positives_d=math.floor(rate_d * size_d + 0.5),
        positives_a=k_a,
        half_width=h,
        requested_half_width=half_width,
        confidence=confidence,
        curve=curve,
        prior=alpha,
        tolerance=tolerance,
        target=target,
        N_stable=n_stable,
        stable_horizon=horizon,
    )
