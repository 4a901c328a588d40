"""How much test data do I need? The exact test-size planner (SPEC E2).

:func:`plan_test_size` answers "how many test examples do I need to know MCC (or F1,
balanced accuracy, sensitivity …) within ± h?" with the exact distributions of the
core: the criterion is evaluated with :func:`~confusionlab.metric_distribution` and
:meth:`~confusionlab.MetricDistribution.interval`, never with a formula.

Criterion for a candidate size N (SPEC E2): ``p = ⌊π·N + ½⌋`` clipped to ``[1, N − 1]``,
``n = N − p``, ``TP = ⌊tpr·p + ½⌋``, ``TN = ⌊tnr·n + ½⌋``; the metric's PMF for a new
test set of the same size under ``model`` from (TP, FN, FP, TN); its central
``confidence`` interval; half-width = (upper − lower)/2. The plan is the **smallest** N
whose half-width is at most the target. Because of discreteness the half-width is not
monotone in N; :func:`smallest_size` finds the smallest N anyway (bracket with the
normal approximation, then scan), and :mod:`confusionlab.bias.planning` uses the same
search for facet sizes.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import optimize, stats

from ._validation import DEFAULT_TOLERANCE, check_choice, check_confidence, check_int, check_tolerance
from .confusion import ConfusionMatrix
from .distribution import MetricDistribution, metric_distribution
from .metrics import Metric, get_metric
from .models import Marginal, marginal, resolve_prior, slice_model
from .slice_interval import balanced_accuracy_half_width, contour_half_width, interval_half_width, lattice_half_width

__all__ = [
    "DEFAULT_ASSURANCE_TOLERANCE",
    "MAX_OUTCOMES",
    "MAX_SIZE",
    "PLAN_MODELS",
    "TargetUnreachableError",
    "TestSizePlan",
    "check_rate",
    "plan_counts",
    "plan_test_size",
    "rates_for_value",
    "smallest_size",
]

#: Largest test-set size searched by default (``max_size``): a target that no N up to it
#: reaches raises :class:`TargetUnreachableError` with the best N found.
MAX_SIZE = 1_000_000
#: Models the planner accepts: the slice models, whose p and n are fixed by the plan.
PLAN_MODELS = ("beta-binomial", "binomial")
#: Default tail mass left out of the enumeration of test outcomes for ``assurance``
#: (per marginal, as ``tolerance``): the assurance is known to within this bound.
DEFAULT_ASSURANCE_TOLERANCE = 1e-3
#: Most test outcomes enumerated for one assurance evaluation (each needs a distribution).
MAX_OUTCOMES = 20_000
#: Smallest relative allowance for the slow drift of the exact/normal half-width ratio
#: (skewness and kurtosis of the exact distribution); the planner uses
#: ``max(DRIFT_ALLOWANCE, 1/min(p, n))``, the order of those corrections (see
#: :func:`smallest_size`, Notes).
DRIFT_ALLOWANCE = 0.001
#: Metrics whose distribution depends on one class only: their exact evaluation skips the other.
_ONE_SIDED = {"recall": "p", "fnr": "p", "tnr": "n", "fpr": "n"}


class TargetUnreachableError(ValueError):
    """No size up to the maximum searched reaches the target half-width.

    Attributes
    ----------
    best_N : int
        The size with the smallest half-width among those evaluated.
    best_half_width : float
        Its half-width.
    max_size : int
        The largest size searched.
    curve : dict
        N → half-width for every size evaluated.
    """

    def __init__(self, message: str, *, best_N: int, best_half_width: float, max_size: int, curve: dict) -> None:
        super().__init__(message)
        self.best_N = best_N
        self.best_half_width = best_half_width
        self.max_size = max_size
        self.curve = curve


# ----------------------------------------------------------------------------- validation
def check_rate(value: Any, name: str) -> float:
    """A rate or prevalence strictly between 0 and 1 (NaN, bool and non-numbers refused).

    >>> check_rate(0.1, "prevalence")
    0.1
    >>> check_rate(1.0, "tpr")
    Traceback (most recent call last):
    ...
    ValueError: tpr must lie strictly between 0 and 1, got 1.0
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number strictly between 0 and 1, got {type(value).__name__} {value!r}")
    fvalue = float(value)
    if math.isnan(fvalue):
        raise ValueError(f"{name} must be a number strictly between 0 and 1, got NaN")
    if not 0.0 < fvalue < 1.0:
        raise ValueError(f"{name} must lie strictly between 0 and 1, got {fvalue!r}")
    return fvalue


def _check_half_width(value: Any) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"half_width must be a positive number, got {type(value).__name__} {value!r}")
    fvalue = float(value)
    if not (math.isfinite(fvalue) and fvalue > 0):
        raise ValueError(f"half_width must be a finite positive number (the target ± of the interval), got {value!r}")
    return fvalue


# ----------------------------------------------------------------------------- the criterion
def plan_counts(N: Any, prevalence: float, tpr: float, tnr: float) -> tuple[Any, Any, Any, Any]:
    """The planned counts ``(p, n, TP, TN)`` at size(s) ``N`` (SPEC E2), vectorised.

    ``p = ⌊π·N + ½⌋`` clipped to ``[1, N − 1]``, ``n = N − p``, ``TP = ⌊tpr·p + ½⌋``,
    ``TN = ⌊tnr·n + ½⌋``.

    >>> plan_counts(61, 1 / 3, 0.8, 0.8)
    (20, 41, 16, 33)
    >>> [a.tolist() for a in plan_counts(np.array([2, 10]), 0.01, 0.8, 0.9)]
    [[1, 1], [1, 9], [1, 1], [1, 8]]
    """
    scalar = np.ndim(N) == 0
    Na = np.asarray(N, dtype=np.int64)
    p = np.clip(np.floor(prevalence * Na + 0.5).astype(np.int64), 1, Na - 1)
    n = Na - p
    tp = np.floor(tpr * p + 0.5).astype(np.int64)
    tn = np.floor(tnr * n + 0.5).astype(np.int64)
    if scalar:
        return int(p), int(n), int(tp), int(tn)
    return p, n, tp, tn


@dataclass
class _Evaluator:
    """Exact half-width at a size, cached on the counts the distribution depends on."""

    metric: Metric
    prevalence: float
    tpr: float
    tnr: float
    confidence: float
    model: str
    prior: float
    tolerance: float
    cache: dict = field(default_factory=dict)
    marginals: dict = field(default_factory=dict)

    def matrix(self, N: int) -> ConfusionMatrix:
        p, n, tp, tn = plan_counts(N, self.prevalence, self.tpr, self.tnr)
        return ConfusionMatrix(tp=tp, fn=p - tp, fp=n - tn, tn=tn)

    def reduced(self, cm: ConfusionMatrix) -> tuple[ConfusionMatrix, tuple[int, ...]]:
        """The matrix actually evaluated and its cache key: for a metric of one class only
        (recall, TNR, …) the other class is replaced by a single example, which leaves the
        metric's distribution unchanged (its values do not depend on it; its mass sums to 1)."""
        side = _ONE_SIDED.get(self.metric.name)
        if side == "p":
            return ConfusionMatrix(tp=cm.tp, fn=cm.fn, fp=0, tn=1), (cm.tp, cm.fn)
        if side == "n":
            return ConfusionMatrix(tp=1, fn=0, fp=cm.fp, tn=cm.tn), (cm.fp, cm.tn)
        return cm, cm.as_tuple()

    def distribution(self, cm: ConfusionMatrix) -> MetricDistribution:
        return metric_distribution(cm, self.metric, self.model, prior=self.prior, tolerance=self.tolerance)

    def marginal(self, successes: int, trials: int, what: str) -> Marginal:
        """A predictive marginal, shared by the sizes whose counts give it (neighbouring N often do)."""
        key = (successes, trials)
        if key not in self.marginals:
            self.marginals[key] = marginal(self.model, successes, trials, trials, self.prior, self.tolerance, what)
        return self.marginals[key]

    def half_width(self, cm: ConfusionMatrix) -> tuple[float, float]:
        """``(half-width, granularity)`` of the central interval at the matrix ``cm``, cached.

        Balanced accuracy is read from its integer keys by
        :func:`balanced_accuracy_half_width` (the same marginals as
        :func:`~confusionlab.models.slice_model`, the same quantile rule, the same value
        arithmetic: the core's half-width exactly); the other two-class metrics by
        :func:`lattice_half_width` (the core's ratios, only the points near the two levels
        sorted); metrics of one class, and any matrix where a cumulative mass sits on a
        level or the core takes another arithmetic path, build the distribution.
        """
        red, key = self.reduced(cm)
        if key not in self.cache:
            result = None
            if self.metric.name not in _ONE_SIDED:
                tp = self.marginal(cm.tp, cm.p, "positives (TP)")
                tn = self.marginal(cm.tn, cm.n, "negatives (TN)")
                if self.metric.name == "balanced_accuracy":
                    result = balanced_accuracy_half_width(tp.pmf, tp.lo, tn.pmf, tn.lo, cm.p, cm.n, self.confidence)
                else:
                    result = contour_half_width(self.metric, tp.pmf, tp.lo, tn.pmf, tn.lo, cm.p, cm.n, self.confidence)
                    if result is None:
                        result = lattice_half_width(
                            self.metric, tp.pmf, tp.lo, tn.pmf, tn.lo, cm.p, cm.n, self.confidence
                        )
            self.cache[key] = (
                result if result is not None else interval_half_width(self.distribution(red), self.confidence)
            )
        return self.cache[key]

    def __call__(self, N: int) -> tuple[float, float]:
        full = self.matrix(N)
        h, grain = self.half_width(full)
        return h, grain + max(DRIFT_ALLOWANCE, 1.0 / min(full.p, full.n))


def _moments(model: str, successes: np.ndarray, trials: np.ndarray, prior: float) -> tuple[np.ndarray, np.ndarray]:
    """Mean and variance of the predicted count of successes among ``trials`` new trials."""
    s = successes.astype(np.float64)
    t = trials.astype(np.float64)
    if model == "binomial":
        return s, s * (t - s) / t
    a, b = s + prior, t - s + prior
    return t * a / (a + b), t * a * b * (a + b + t) / ((a + b) ** 2 * (a + b + 1))


def normal_half_width(
    metric: Metric,
    N: np.ndarray,
    prevalence: float,
    tpr: float,
    tnr: float,
    *,
    confidence: float = 0.95,
    model: str = "beta-binomial",
    prior: float = 1.0,
) -> np.ndarray:
    """The normal (delta-method) approximation of the planned half-width at each size ``N``.

    Uses the *rounded* counts of :func:`plan_counts`, so the approximation shows the jumps
    that rounding p, TP and TN causes; only the discreteness of the quantiles is missing.
    ``z·sd`` with ``sd² = (∂m/∂TP)²·Var TP' + (∂m/∂TN)²·Var TN'`` at the predicted means.

    >>> from confusionlab.metrics import get_metric
    >>> h = normal_half_width(get_metric("recall"), np.array([1000]), 0.5, 0.8, 0.9)
    >>> round(float(h[0]), 4)  # about 1.96 * sqrt(2 * 0.8 * 0.2 / 500)
    0.0496
    """
    p, n, tp, tn = plan_counts(np.asarray(N), prevalence, tpr, tnr)
    mt, vt = _moments(model, tp, p, prior)
    mn, vn = _moments(model, tn, n, prior)
    pf, nf = p.astype(np.float64), n.astype(np.float64)
    et = np.maximum(1e-3 * np.sqrt(vt), 1e-6) + 0 * mt
    en = np.maximum(1e-3 * np.sqrt(vn), 1e-6) + 0 * mn

    def f(t: np.ndarray, u: np.ndarray) -> np.ndarray:
        return metric.values(t, pf - t, nf - u, u, undefined=np.nan)

    with np.errstate(all="ignore"):
        gt = (f(mt + et, mn) - f(mt - et, mn)) / (2 * et)
        gn = (f(mt, mn + en) - f(mt, mn - en)) / (2 * en)
        sd = np.sqrt(gt**2 * vt + gn**2 * vn)
    return float(stats.norm.ppf(0.5 + confidence / 2)) * sd


# ----------------------------------------------------------------------------- the search
def smallest_size(
    evaluate: Callable[[int], tuple[float, float]],
    approximate: Callable[[np.ndarray], np.ndarray],
    target: float,
    *,
    min_size: int,
    max_size: int,
    what: str = "N",
) -> tuple[int, float, dict[int, float]]:
    """The smallest size whose exact half-width is at most ``target``: bracket, then scan.

    Parameters
    ----------
    evaluate : callable
        ``size -> (half_width, granularity)``, exact (``granularity``: the relative change
        of the half-width if both interval ends moved by one atom).
    approximate : callable
        Vectorised smooth model of the half-width (the normal approximation with the
        rounded counts), cheap.
    target : float
    min_size, max_size : int
        The sizes searched.
    what : str
        The size's name, for messages.

    Returns
    -------
    (size, half_width, curve)
        ``curve`` maps every size evaluated exactly to its half-width.

    Raises
    ------
    TargetUnreachableError
        When no size up to ``max_size`` reaches the target (with the best size found).

    Notes
    -----
    Why this is correct although the half-width is not monotone. Write the exact
    half-width as ``h(N) = ρ(N)·a(N)``, ``a`` the normal approximation computed with the
    same rounded counts as the criterion (so ``a`` already carries every jump caused by
    rounding p, TP and TN). What is left in ``ρ`` is (i) the skewness of the exact
    distribution, which changes slowly with N, and (ii) the discreteness of the quantiles:
    an interval end can move by at most one atom, a relative change of the granularity
    ``g`` measured on the evaluated distributions. The search

    1. brackets: finds on a geometric grid the first N with ``a(N) ≤ target``, evaluates
       ``h`` there and again at the N predicted by the calibrated ``ρ·a`` (two probes);
    2. sets ``ρ_lo = min ρ·(1 − g)`` over the evaluated sizes, where ``evaluate`` returns
       as ``g`` the granularity plus an allowance for the slow drift of ρ (the planner's:
       ``max(DRIFT_ALLOWANCE, 1/min(p, n))``, the order of the skewness and kurtosis
       corrections);
    3. scans, in increasing order, **every** size with ``ρ_lo·a(N) ≤ target`` (a size
       outside that set has ``h(N) > target`` unless its ρ fell below ρ_lo), each new
       evaluation lowering ``ρ_lo`` if needed, which can only add sizes to the scan;
    4. returns the smallest size evaluated with ``h ≤ target`` once every candidate below
       it has been evaluated.

    Sizes whose approximation is undefined (NaN) are always candidates. The result
    equals a scan of every size wherever ρ stays above ρ_lo; the tests compare it with
    such scans computed independently (plain numpy and scipy) over hundreds of random
    settings. Only the sizes near the crossing are evaluated: the search does not
    evaluate every N.
    """
    curve: dict[int, float] = {}
    rhos: list[float] = []
    grains: list[float] = []

    def exact(size: int, a: float | None = None) -> float:
        if size not in curve:
            h, g = evaluate(size)
            curve[size] = h
            a = float(approximate(np.array([size]))[0]) if a is None else a
            if math.isfinite(h) and math.isfinite(a) and a > 0 and h > 0:
                rhos.append(h / a)
                grains.append(min(g, 0.5))
        return curve[size]

    # 1. bracket on a geometric grid, then two probes.
    grid = np.unique(np.round(np.geomspace(min_size, max_size, 96)).astype(np.int64))
    a_grid = approximate(grid)
    below = np.flatnonzero(a_grid <= target)
    n0 = int(grid[below[0]]) if below.size else max_size
    exact(n0)
    if rhos:
        ratio = rhos[-1] * float(approximate(np.array([n0]))[0]) / target
        # the half-width falls like 1/√N: the predicted size, capped before squaring can overflow
        n1 = max_size if not ratio < math.sqrt(max_size / n0) + 1 else math.ceil(n0 * ratio**2)
        exact(int(min(max(n1, min_size), max_size)))
    hi = int(min(max_size, max(curve) * 1.3 + 16))
    sizes = np.arange(min_size, hi + 1, dtype=np.int64)
    approx = approximate(sizes)
    done = np.zeros(sizes.size, dtype=bool)
    for size in curve:
        if size <= hi:
            done[size - min_size] = True
    while True:
        rho_lo = min(rhos) * (1 - max(grains)) if rhos else 0.0
        candidate = (np.isnan(approx) | (rho_lo * approx <= target)) if rho_lo > 0 else np.ones(sizes.size, bool)
        successes = [s for s, h in curve.items() if h <= target]
        best = min(successes) if successes else None
        limit = sizes.size if best is None else best - min_size
        todo = np.flatnonzero(candidate[:limit] & ~done[:limit])
        if todo.size:
            # evaluate candidates in increasing order until ρ_lo moves (which changes the set)
            before = rho_lo
            for i in todo:
                size = int(sizes[i])
                done[i] = True
                h = exact(size, float(approx[i]))
                if h <= target:
                    break
                if rhos and min(rhos) * (1 - max(grains)) < before:
                    break
            continue
        if best is not None:
            return best, curve[best], dict(sorted(curve.items()))
        if hi >= max_size:
            finite = {s: h for s, h in curve.items() if not math.isnan(h)}
            best_size = min(finite, key=lambda s: (finite[s], s)) if finite else max_size
            raise TargetUnreachableError(
                f"no {what} up to {max_size:,} (max_size) reaches the half-width {target:g}; the best {what} "
                f"found is {best_size:,} with half-width {curve.get(best_size, math.nan):.4g}. Ask for a wider "
                f"target, a lower confidence, or raise max_size",
                best_N=best_size,
                best_half_width=curve.get(best_size, math.nan),
                max_size=max_size,
                curve=dict(sorted(curve.items())),
            )
        new_hi = int(min(max_size, hi * 1.5 + 16))
        extra = np.arange(hi + 1, new_hi + 1, dtype=np.int64)
        sizes = np.concatenate([sizes, extra])
        approx = np.concatenate([approx, approximate(extra)])
        done = np.concatenate([done, np.zeros(extra.size, dtype=bool)])
        hi = new_hi
        if rho_lo > 0 and not rho_lo * approx[-1] <= target:
            done[-1] = True
            exact(hi)  # a probe at the new end keeps ρ calibrated where the scan goes next


# ----------------------------------------------------------------------------- rates from a value
def rates_for_value(
    metric: str | Metric, value: float, prevalence: float, *, tpr: float | None = None, tnr: float | None = None
) -> tuple[float, float]:
    """Rates (TPR, TNR) at which ``metric`` equals ``value`` at ``prevalence``.

    With neither rate given the two are taken **equal** (TPR = TNR = r, errors balanced
    across the classes); with one rate given the other is solved for. The metric is
    evaluated at the continuous rates (p = π, n = 1 − π); the root is the one with the
    largest free rate (scanning down from 1 on a grid of 4,001 points, refined by
    Brent's method), i.e. the better-than-chance classifier for MCC, BA, F1 ….

    >>> tpr, tnr = rates_for_value("balanced_accuracy", 0.8, 0.1)
    >>> round(tpr, 6), round(tnr, 6)
    (0.8, 0.8)
    >>> tpr, tnr = rates_for_value("mcc", 0.6, 0.1, tpr=0.8)
    >>> round(tpr, 3), round(tnr, 4)
    (0.8, 0.9193)
    """
    m = get_metric(metric)
    prevalence = check_rate(prevalence, "prevalence")
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"value must be a number (the expected {m.name}), got {value!r}")
    target = float(value)
    if not math.isfinite(target):
        raise ValueError(f"value must be a finite number (the expected {m.name}), got {value!r}")
    if tpr is not None and tnr is not None:
        raise ValueError("give value with at most one of tpr and tnr (the other is solved for)")
    tpr = None if tpr is None else check_rate(tpr, "tpr")
    tnr = None if tnr is None else check_rate(tnr, "tnr")

    def rates(r: Any) -> tuple[Any, Any]:
        if tpr is not None:
            return tpr + 0 * r, r
        if tnr is not None:
            return r, tnr + 0 * r
        return r, r

    def f(r: Any) -> Any:
        x, y = rates(r)
        return m.rate_values(1 - y, x, prevalence, 1 - prevalence) - target

    grid = np.linspace(1 - 1e-9, 1e-9, 4001)
    with np.errstate(all="ignore"):
        fv = np.asarray(f(grid), dtype=np.float64)
    ok = np.isfinite(fv)
    sign_change = np.flatnonzero(ok[:-1] & ok[1:] & (np.sign(fv[:-1]) != np.sign(fv[1:])))
    exact_hit = np.flatnonzero(ok & (fv == 0))
    if exact_hit.size and (not sign_change.size or exact_hit[0] <= sign_change[0]):
        r = float(grid[exact_hit[0]])
    elif sign_change.size:
        i = int(sign_change[0])
        r = float(optimize.brentq(lambda t: float(f(t)), grid[i + 1], grid[i], xtol=1e-14))
    else:
        free = "tnr" if tpr is not None else "tpr" if tnr is not None else "tpr = tnr"
        raise ValueError(
            f"{m.name} = {target!r} is not reached at prevalence {prevalence!r} for any {free} in (0, 1); "
            "give the rates instead"
        )
    x, y = rates(r)
    return float(x), float(y)


# ----------------------------------------------------------------------------- the plan
@dataclass(frozen=True)
class TestSizePlan:
    """The smallest test set meeting a target half-width (:func:`plan_test_size`).

    Attributes
    ----------
    N, p, n : int
        Planned size, positives and negatives.
    tp, tn : int
        The planned matrix's counts (TP = ⌊tpr·p + ½⌋, TN = ⌊tnr·n + ½⌋).
    half_width : float
        The achieved half-width at N (at most ``target``).
    target : float
    curve : dict
        N → half-width for every N evaluated exactly by the search (ascending N); with
        ``assurance=q``, N → the q-quantile of the reported half-width over the outcomes.
    metric, model : str
    confidence : float
    prevalence, tpr, tnr : float
        The planning assumptions (rates chosen by :func:`rates_for_value` when a value
        was given).
    assurance : float or None
        The requested assurance q.
    achieved_assurance : float or None
        Probability (over the enumerated outcomes) that the reported interval is at
        most the target at N; the true probability lies in
        ``[achieved_assurance, achieved_assurance + assurance_error]``.
    assurance_error : float or None
        Mass of the outcomes not enumerated (the bound of the error).
    evaluations : int
        Exact distributions computed by the search (sizes sharing the counts a metric
        depends on share one).
    """

    __test__ = False  # not a pytest test class

    metric: str
    N: int
    p: int
    n: int
    tp: int
    tn: int
    half_width: float
    target: float
    curve: dict[int, float]
    model: str
    confidence: float
    prevalence: float
    tpr: float
    tnr: float
    prior: float = 1.0
    tolerance: float = DEFAULT_TOLERANCE
    assurance: float | None = None
    achieved_assurance: float | None = None
    assurance_error: float | None = None
    evaluations: int = 0

    @property
    def matrix(self) -> ConfusionMatrix:
        """The planned confusion matrix."""
        return ConfusionMatrix(tp=self.tp, fn=self.p - self.tp, fp=self.n - self.tn, tn=self.tn)

    @property
    def value(self) -> float:
        """The metric's value at the planned matrix."""
        return get_metric(self.metric)(self.matrix)

    def distribution(self) -> MetricDistribution:
        """The metric's distribution at the plan (the one the criterion reads)."""
        return metric_distribution(self.matrix, self.metric, self.model, prior=self.prior, tolerance=self.tolerance)

    def interval(self, confidence: float | None = None) -> tuple[float, float]:
        """The planned central interval at N (default: the planning confidence)."""
        return self.distribution().interval(self.confidence if confidence is None else confidence)

    def __repr__(self) -> str:
        extra = "" if self.assurance is None else f", assurance={self.achieved_assurance:.4f}"
        return (
            f"TestSizePlan(metric={self.metric!r}, N={self.N}, p={self.p}, n={self.n}, "
            f"half_width={self.half_width:.4g} <= {self.target:g}{extra}, evaluations={self.evaluations})"
        )


def _assurance_at(
    ev: _Evaluator, N: int, target: float, q: float, tolerance: float, max_outcomes: int
) -> tuple[float, float, float, float]:
    """The assurance criterion at N, exactly over the enumerated test outcomes.

    Outcomes (TP', TN') of the test are the predictive lattice of ``ev.model`` from the
    planned matrix, each marginal's tails of mass ≤ ``tolerance`` left out; each
    outcome's *reported* half-width is that of its own distribution's central interval.
    Returns ``(quantile, probability, unenumerated_mass, granularity)``: ``probability``
    = enumerated mass with reported half-width ≤ ``target`` (a lower bound, at most
    ``unenumerated_mass`` below the truth); ``quantile`` = the smallest x with
    enumerated mass of half-widths ≤ x at least q (inf if the enumeration holds less
    than q), so ``quantile ≤ target`` exactly when ``probability ≥ q``.
    """
    cm = ev.matrix(N)
    sm = slice_model(cm, ev.model, prior=ev.prior, tolerance=tolerance)
    side = _ONE_SIDED.get(ev.metric.name)
    tp_pmf = sm.tp_pmf if side != "n" else np.ones(1)
    tn_pmf = sm.tn_pmf if side != "p" else np.ones(1)
    count = tp_pmf.size * tn_pmf.size
    if count > max_outcomes:
        raise ValueError(
            f"assurance at N = {N:,} would enumerate {count:,} test outcomes, more than max_outcomes="
            f"{max_outcomes:,}; raise assurance_tolerance (now {tolerance:g}) or max_outcomes"
        )
    widths = np.empty((tp_pmf.size, tn_pmf.size))
    for i in range(tp_pmf.size):
        for j in range(tn_pmf.size):
            tp = sm.tp_lo + i if side != "n" else cm.tp
            tn = sm.tn_lo + j if side != "p" else cm.tn
            widths[i, j] = ev.half_width(ConfusionMatrix(tp=tp, fn=cm.p - tp, fp=cm.n - tn, tn=tn))[0]
    mass = np.multiply.outer(tp_pmf, tn_pmf).ravel()
    flat = widths.ravel()
    error = max(0.0, 1.0 - float(mass.sum()))
    probability = float(mass[flat <= target].sum())
    order = np.argsort(flat, kind="stable")
    cum = np.cumsum(mass[order])
    k = int(np.searchsorted(cum, q - 1e-12))
    if k >= flat.size:
        return math.inf, probability, error, 1.0
    quantile = float(flat[order[k]])
    distinct = np.unique(flat[np.isfinite(flat)])
    i = int(np.searchsorted(distinct, quantile))
    around = distinct[max(i - 1, 0) : i + 2]
    gap = float(np.max(np.diff(around))) if around.size > 1 else 0.0
    return quantile, probability, error, (gap / quantile if quantile > 0 else 1.0)


def plan_test_size(
    metric: str | Metric,
    *,
    prevalence: float,
    tpr: float | None = None,
    tnr: float | None = None,
    half_width: float,
    confidence: float = 0.95,
    model: str = "beta-binomial",
    assurance: float | None = None,
    value: float | None = None,
    prior: Any = "uniform",
    tolerance: float = DEFAULT_TOLERANCE,
    max_size: int = MAX_SIZE,
    assurance_tolerance: float = DEFAULT_ASSURANCE_TOLERANCE,
    max_outcomes: int = MAX_OUTCOMES,
    _cache: dict | None = None,
) -> TestSizePlan:
    """The smallest test set whose planned interval for ``metric`` is at most ± ``half_width``.

    Parameters
    ----------
    metric : str or Metric
        A name from :data:`~confusionlab.METRICS` (MCC, F1, balanced accuracy, recall …).
    prevalence : float
        Expected share of positives, in (0, 1).
    tpr, tnr : float, optional
        Expected sensitivity and specificity, in (0, 1). Give both, or give ``value``
        (with at most one of them).
    half_width : float
        Target half-width of the central interval (e.g. 0.03 for ± 0.03).
    confidence : float, default 0.95
        Level of the central interval, in (0, 1).
    model : {"beta-binomial", "binomial"}
        Uncertainty model of the new test set (SPEC A3).
    assurance : float, optional
        q in (0, 1): plan instead the smallest N for which the interval *reported after
        the test* is at most the target with probability ≥ q over the test's outcomes.
    value : float, optional
        The expected metric value instead of the rates; see :func:`rates_for_value`
        (rates taken equal, or the missing one solved for).
    prior : {"uniform", "jeffreys"} or float
        Beta-binomial prior.
    tolerance : float, default 1e-12
        Tail mass each marginal may drop (as in :func:`metric_distribution`).
    max_size : int, default 1,000,000
        Largest N searched (:data:`MAX_SIZE`).
    assurance_tolerance : float, default 1e-3
        Tail mass per marginal of the test outcomes left out of the assurance
        enumeration: the achieved assurance is exact up to this bounded, reported error.
    max_outcomes : int, default 20,000
        Most outcomes enumerated at one N (each needs one exact distribution).
    _cache : dict, optional
        Private (the planner view's): exact half-widths by counts, shared by plans with
        the same metric, confidence, model, prior and tolerance (they depend on nothing
        else), so a re-plan reuses every size already evaluated. ``evaluations`` counts
        the new ones only.

    Returns
    -------
    TestSizePlan

    Raises
    ------
    ValueError
        Rates or prevalence outside (0, 1) or NaN, confidence outside (0, 1), a
        non-positive target; :class:`TargetUnreachableError` (a ValueError, with
        ``best_N``) when no N up to ``max_size`` reaches the target.

    Notes
    -----
    The criterion is SPEC E2's, evaluated exactly (see the module docstring); the
    search is :func:`smallest_size` (bracket with the normal approximation, then scan
    every candidate size, in increasing order), whose Notes say why the smallest N is
    found although the half-width is not monotone in N. Balanced accuracy's half-widths
    are read from its integer keys (:func:`balanced_accuracy_half_width`: the same
    number the distribution gives, bit for bit, about ten times faster), which matters
    because its coarse value lattice (steps of about 1/(2p)) widens the band of sizes
    the scan must evaluate. MCC's and the F-scores' are read along their contours (:func:`contour_half_width`:
    each row of the lattice is monotone in TN, so the cdf at a threshold is a sum over
    the rows, and only the points between two bracketing contours are sorted; about 15×
    faster than the distribution at N = 10,000), the other two-class metrics' from the
    core's ratios in one counting pass (:func:`lattice_half_width`, about 3×); both
    return the distribution's interval bit for bit, or decline and the distribution is built.

    With ``assurance=q`` the criterion at N becomes: with TP', TN' drawn from the
    predictive distribution of the planned matrix (``model``), the probability that the
    reported interval (the central interval of the distribution from the *observed*
    (TP', FN', FP', TN')) has half-width ≤ target is at least q. The outcomes are
    enumerated exactly, each marginal's tails of mass ≤ ``assurance_tolerance`` left
    out; the probability counted over the enumerated outcomes is a lower bound, at most
    ``assurance_error`` below the true one, and the plan requires the lower bound to
    reach q (conservative).

    Examples
    --------
    >>> plan = plan_test_size("recall", prevalence=0.5, tpr=0.8, tnr=0.8, half_width=0.1)
    >>> plan.N, plan.p, round(plan.half_width, 4)
    (229, 115, 0.1)
    >>> plan = plan_test_size("mcc", prevalence=0.1, value=0.6, half_width=0.1)
    >>> plan.N, round(plan.tpr, 4) == round(plan.tnr, 4)
    (635, True)
    """
    m = get_metric(metric)
    prevalence = check_rate(prevalence, "prevalence")
    target = _check_half_width(half_width)
    confidence = check_confidence(confidence)
    model = check_choice(model, "model", (*PLAN_MODELS, "dirichlet-multinomial"))
    if model == "dirichlet-multinomial":
        raise ValueError(
            "model='dirichlet-multinomial' spreads the plan over the whole simplex (C(N+3, 3) matrices); the "
            "planner fixes p and n, so use model='beta-binomial' or 'binomial'"
        )
    alpha = resolve_prior(prior)
    tolerance = check_tolerance(tolerance)
    max_size = check_int(max_size, "max_size", minimum=2, maximum=10**8)
    if value is not None:
        tpr, tnr = rates_for_value(m, value, prevalence, tpr=tpr, tnr=tnr)
    elif tpr is None or tnr is None:
        raise TypeError("give the expected rates tpr= and tnr=, or the expected metric value=")
    tpr = check_rate(tpr, "tpr")
    tnr = check_rate(tnr, "tnr")
    if assurance is not None:
        assurance = check_rate(assurance, "assurance")
        assurance_tolerance = check_tolerance(assurance_tolerance, "assurance_tolerance")
        max_outcomes = check_int(max_outcomes, "max_outcomes", minimum=1)
    ev = _Evaluator(m, prevalence, tpr, tnr, confidence, model, alpha, tolerance)
    if (
        _cache is not None
    ):  # half-widths by counts, shared by plans with the same metric, confidence, model, prior, tolerance
        ev.cache = _cache
    known = len(ev.cache)

    def approximate(sizes: np.ndarray) -> np.ndarray:
        return normal_half_width(m, sizes, prevalence, tpr, tnr, confidence=confidence, model=model, prior=alpha)

    achieved = error = None
    if assurance is None:
        N, h, curve = smallest_size(ev, approximate, target, min_size=2, max_size=max_size)
    else:
        at: dict[int, tuple[float, float]] = {}

        def assured(size: int) -> tuple[float, float]:
            quantile, prob, err, grain = _assurance_at(ev, size, target, assurance, assurance_tolerance, max_outcomes)
            at[size] = (prob, err)
            return quantile, grain

        N, _, curve = smallest_size(assured, approximate, target, min_size=2, max_size=max_size)
        h = ev(N)[0]
        achieved, error = at[N]
    p, n, tp, tn = plan_counts(N, prevalence, tpr, tnr)
    return TestSizePlan(
        metric=m.name,
        N=N,
        p=p,
        n=n,
        tp=tp,
        tn=tn,
        half_width=h,
        target=target,
        curve=curve,
        model=model,
        confidence=confidence,
        prevalence=prevalence,
        tpr=tpr,
        tnr=tnr,
        prior=alpha,
        tolerance=tolerance,
        assurance=assurance,
        achieved_assurance=achieved,
        assurance_error=error,
        evaluations=len(ev.cache) - known,
    )
