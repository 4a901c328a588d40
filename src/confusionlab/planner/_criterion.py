"""The planner's criterion at one size: the planned counts and the exact half-width there.

For a candidate size N the plan has ``p = ⌊π·N + ½⌋`` positives, clipped to
``[1, N − 1]``, ``n = N − p`` negatives, ``TP = ⌊tpr·p + ½⌋`` and ``TN = ⌊tnr·n + ½⌋``
(:func:`plan_counts`). The criterion is the half-width, (upper − lower)/2, of the central
``confidence`` interval of :func:`~confusionlab.metric_distribution` at (TP, FN, FP, TN)
for the question asked: ``target="true_value"`` the posterior of the metric's true value
(its quadrature distribution), ``target="next_test_set"`` the distribution for a new test
set of the same size under ``model``, read by the fast exact paths of :mod:`._half_width`
where they apply (:class:`_Evaluator`). :func:`normal_half_width` is its smooth model, computed with the same
rounded counts, that the search brackets with.

**The degenerate plug-in.** Under the binomial model a class whose planned count sits on
an end of its range (TP = 0 or TP = p; TN = 0 or TN = n) has a marginal with no spread at
all: the plug-in rate 0 or 1 is taken as known. At N = 2 every plan is (1, 0, 0, 1), whose
interval has width 0, and a plan accepting it says nothing. The rule: at a size where a
marginal the metric reads is degenerate under the binomial model the criterion is
*undefined* (half-width NaN, never accepted, shown as such in the curve); the plan is the
smallest size whose marginals all have spread and whose interval is narrow enough. The
beta-binomial model is never degenerate (its prior keeps every rate inside (0, 1)).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import stats

from .._validation import check_choice, check_confidence, check_positive_real
from ..confusion import ConfusionMatrix
from ..distribution import MetricDistribution, metric_distribution
from ..metrics import Metric
from ..models import TARGETS, Marginal, marginal
from ._half_width import (
    balanced_accuracy_half_width,
    contour_half_width,
    contour_half_widths,
    interval_half_width,
    lattice_half_width,
    rows_for,
)

__all__ = ["DRIFT_ALLOWANCE", "counts_normal_half_width", "degenerate", "normal_half_width", "plan_counts"]

#: Smallest relative allowance for the slow drift of the exact/normal half-width ratio
#: (skewness and kurtosis of the exact distribution); the planner uses
#: ``max(DRIFT_ALLOWANCE, 1/min(p, n))``, the order of those corrections (see
#: :func:`~confusionlab.planner.smallest_size`, Notes).
DRIFT_ALLOWANCE = 0.001
#: Metrics whose distribution depends on one class only: their exact evaluation skips the other.
_ONE_SIDED = {"recall": "p", "fnr": "p", "tnr": "n", "fpr": "n"}


def degenerate(model: str, metric: Metric, p: Any, n: Any, tp: Any, tn: Any) -> Any:
    """Where the binomial plug-in has a marginal without spread that ``metric`` reads (vectorised).

    True where ``model`` is ``"binomial"`` and TP ∈ {0, p} (for a metric of the positives)
    or TN ∈ {0, n} (of the negatives): there the interval's zero width comes from taking
    the rate 0 or 1 as known, not from the data, and the criterion is undefined.

    >>> from confusionlab.metrics import get_metric
    >>> bool(degenerate("binomial", get_metric("mcc"), 1, 1, 1, 1))
    True
    >>> bool(degenerate("binomial", get_metric("recall"), 10, 1, 8, 1))
    False
    >>> bool(degenerate("beta-binomial", get_metric("mcc"), 1, 1, 1, 1))
    False
    """
    if model != "binomial":
        return np.zeros(np.shape(p), dtype=bool) if np.ndim(p) else False
    side = _ONE_SIDED.get(metric.name)
    tp_a, p_a, tn_a, n_a = (np.asarray(x) for x in (tp, p, tn, n))
    bad_p = (tp_a <= 0) | (tp_a >= p_a)
    bad_n = (tn_a <= 0) | (tn_a >= n_a)
    out = bad_p if side == "p" else bad_n if side == "n" else bad_p | bad_n
    return out if np.ndim(out) else bool(out)


#: A planned test set stands for the requested classifier when each class it reads is present
#: without clipping and its rounded rate (TP/p, TN/n) is within this of the requested one.
RATE_SLACK = 0.05


def honest_min_size(metric: Metric, prevalence: float, tpr: float, tnr: float) -> float:
    """The smallest N from which every planned test set stands for the requested classifier.

    At small N the rounding of :func:`plan_counts` plans another classifier: with
    prevalence 10⁻⁴ a test set of 417 has p clipped to 1 (prevalence 0.0024), and TP =
    ⌊0.62 + ½⌋ = 1 gives TPR 1, not 0.62. A size is *honest* when each class the metric
    reads has an unclipped count c = ⌊π·N + ½⌋ ≥ 1 (n = N − p ≥ 1) and its rounded rate is
    within :data:`RATE_SLACK` of the requested one; a count c ≥ ½/RATE_SLACK always is,
    so the answer is one more than the largest N whose count is one of the few dishonest
    ones (found per count, not by scanning N). ``inf`` when a class the metric reads has
    prevalence 0.

    >>> from confusionlab.metrics import get_metric
    >>> honest_min_size(get_metric("mcc"), 1e-4, 0.62, 0.93)  # p = 4 gives TPR 0.5: from p = 5 on
    45000
    >>> honest_min_size(get_metric("mcc"), 0.5, 0.8, 0.8)
    16
    """
    side = _ONE_SIDED.get(metric.name)
    last = 1
    for positive, rate in ((True, tpr), (False, tnr)):
        if side == ("n" if positive else "p"):
            continue
        share = prevalence if positive else 1.0 - prevalence
        if share <= 0:
            return math.inf
        for c in range(math.ceil(0.5 / RATE_SLACK)):
            if c > 0 and abs(math.floor(rate * c + 0.5) / c - rate) <= RATE_SLACK + 1e-12:
                continue
            last = max(last, _largest_size_with_count(prevalence, positive, c))
    return last + 1


def _largest_size_with_count(prevalence: float, positive: bool, c: int) -> int:
    """The largest N whose unclipped class count (p = ⌊π·N + ½⌋, or n = N − p) is at most c."""
    share = prevalence if positive else 1.0 - prevalence
    guess = int(min(1e18, math.ceil((c + 0.5) / share)))

    def count(N: np.ndarray) -> np.ndarray:
        p = np.floor(prevalence * N + 0.5).astype(np.int64)
        return p if positive else N - p

    window = np.arange(max(1, guess - 4), guess + 5, dtype=np.int64)
    ok = window[count(window) <= c]
    return int(ok.max()) if ok.size else max(1, guess - 5)


def plan_counts(N: Any, prevalence: float, tpr: float, tnr: float) -> tuple[Any, Any, Any, Any]:
    """The planned counts ``(p, n, TP, TN)`` at size(s) ``N``, vectorised.

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
    target: str = "next_test_set"
    cache: dict = field(default_factory=dict)
    marginals: dict = field(default_factory=dict)
    #: the last slice's hint for :meth:`half_widths` (bracket offsets, ratio grid), keyed by (p, n)
    hints: dict = field(default_factory=dict)

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
        return metric_distribution(
            cm, self.metric, self.model, prior=self.prior, tolerance=self.tolerance, target=self.target
        )

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
        if self.target == "true_value":  # the quadrature posterior: no fast path, its own cache entries
            key = ("true_value", *key)
        if key not in self.cache:
            result = None
            if self.metric.name not in _ONE_SIDED and self.target == "next_test_set":
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

    def half_widths(self, p: int, n: int, tp: np.ndarray, tn: np.ndarray) -> list[tuple[float, float]]:
        """:meth:`half_width` at the matrices ``(tp[k], p − tp[k], n − tn[k], tn[k])`` of one slice, cached.

        Those not cached yet are evaluated together by
        :func:`~confusionlab.planner._half_width.contour_half_widths` where the metric is
        MCC or an F-score and the question the next test set (the same results as the
        one-matrix path: its tests compare them); any it declines, and every other metric,
        one by one by :meth:`half_width`.
        """
        keys = [(int(a), p - int(a), n - int(b), int(b)) for a, b in zip(tp, tn, strict=True)]
        batched = (
            self.target == "next_test_set"
            and self.metric.name not in _ONE_SIDED
            and rows_for(self.metric, 0, 1, 0, 1, p, n) is not None
        )
        if not batched:  # cached under the keys of :meth:`reduced`
            return [self.half_width(ConfusionMatrix(tp=a, fn=b, fp=c, tn=d)) for a, b, c, d in keys]
        todo = [key for key in dict.fromkeys(keys) if key not in self.cache]
        if len(todo) > 1:
            tps = [self.marginal(key[0], p, "positives (TP)") for key in todo]
            tns = [self.marginal(key[3], n, "negatives (TN)") for key in todo]
            if (p, n) not in self.hints:  # one slice's hint at a time (its ratio grid may be megabytes)
                self.hints = {(p, n): {}}
            results = contour_half_widths(
                self.metric, p, n, [(a.lo, a.pmf) for a in tps], [(b.lo, b.pmf) for b in tns], self.confidence,
                self.hints[(p, n)],
            )  # fmt: skip
            for key, result in zip(todo, results, strict=True):
                if result is not None:
                    self.cache[key] = result
        for key in todo:
            if key not in self.cache:
                self.half_width(ConfusionMatrix(tp=key[0], fn=key[1], fp=key[2], tn=key[3]))
        return [self.cache[key] for key in keys]

    def criterion(self, cm: ConfusionMatrix) -> tuple[float, float]:
        """:meth:`half_width`, or ``(nan, 1.0)`` where the criterion is undefined (:func:`degenerate`)."""
        if degenerate(self.model, self.metric, cm.p, cm.n, cm.tp, cm.tn):
            return math.nan, 1.0
        return self.half_width(cm)

    def __call__(self, N: int) -> tuple[float, float]:
        full = self.matrix(N)
        h, grain = self.criterion(full)
        return h, grain + max(DRIFT_ALLOWANCE, 1.0 / min(full.p, full.n))


def _moments(
    model: str, successes: np.ndarray, trials: np.ndarray, prior: float, target: str = "next_test_set"
) -> tuple[np.ndarray, np.ndarray]:
    """Mean and variance of the predicted count of successes among ``trials`` new trials
    (``target="true_value"``: of ``trials`` times the rate's Beta posterior)."""
    s = successes.astype(np.float64)
    t = trials.astype(np.float64)
    if model == "binomial":
        return s, s * (t - s) / t
    a, b = s + prior, t - s + prior
    if target == "true_value":
        return t * a / (a + b), t * t * a * b / ((a + b) ** 2 * (a + b + 1))
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
    target: str = "next_test_set",
) -> np.ndarray:
    """The normal (delta-method) approximation of the planned half-width at each size ``N``.

    ``target="true_value"`` approximates the posterior of the true value (the rates' Beta
    posteriors scaled by p and n) instead of the next test set's predictive.

    Uses the *rounded* counts of :func:`plan_counts`, so the approximation shows the jumps
    that rounding p, TP and TN causes; only the discreteness of the quantiles is missing.
    ``z·sd`` with ``sd² = (∂m/∂TP)²·Var TP' + (∂m/∂TN)²·Var TN'`` at the predicted means;
    +inf where the criterion is undefined (:func:`degenerate`).

    >>> from confusionlab.metrics import get_metric
    >>> h = normal_half_width(get_metric("recall"), np.array([1000]), 0.5, 0.8, 0.9)
    >>> round(float(h[0]), 4)  # about 1.96 * sqrt(2 * 0.8 * 0.2 / 500)
    0.0496
    """
    confidence = check_confidence(confidence)
    prior = check_positive_real(prior, "prior")
    target = check_choice(target, "target", TARGETS)
    p, n, tp, tn = plan_counts(np.asarray(N), prevalence, tpr, tnr)
    return counts_normal_half_width(
        metric, p, n, tp, tn, confidence=confidence, model=model, prior=prior, target=target
    )


def counts_normal_half_width(
    metric: Metric,
    p: np.ndarray,
    n: np.ndarray,
    tp: np.ndarray,
    tn: np.ndarray,
    *,
    confidence: float = 0.95,
    model: str = "beta-binomial",
    prior: float = 1.0,
    target: str = "next_test_set",
) -> np.ndarray:
    """:func:`normal_half_width` at given counts (arrays broadcast together): the delta-method
    half-width of the distribution at (TP, p − TP, n − TN, TN); +inf where :func:`degenerate`.

    >>> from confusionlab.metrics import get_metric
    >>> h = counts_normal_half_width(get_metric("recall"), np.array([500]), np.array([500]), np.array([400]),
    ...                              np.array([450]))
    >>> round(float(h[0]), 4)
    0.0496
    """
    p, n, tp, tn = np.broadcast_arrays(*(np.asarray(x, dtype=np.int64) for x in (p, n, tp, tn)))
    mt, vt = _moments(model, tp, p, prior, target)
    mn, vn = _moments(model, tn, n, prior, target)
    pf, nf = p.astype(np.float64), n.astype(np.float64)
    et = np.maximum(1e-3 * np.sqrt(vt), 1e-6) + 0 * mt
    en = np.maximum(1e-3 * np.sqrt(vn), 1e-6) + 0 * mn

    def f(t: np.ndarray, u: np.ndarray) -> np.ndarray:
        return metric.values(t, pf - t, nf - u, u, undefined=np.nan)

    with np.errstate(all="ignore"):
        gt = (f(mt + et, mn) - f(mt - et, mn)) / (2 * et)
        gn = (f(mt, mn + en) - f(mt, mn - en)) / (2 * en)
        sd = np.sqrt(gt**2 * vt + gn**2 * vn)
    h = float(stats.norm.ppf(0.5 + confidence / 2)) * sd
    # an undefined criterion (degenerate plug-in) is never met: +inf keeps it out of every scan
    return np.where(degenerate(model, metric, p, n, tp, tn), np.inf, h)
