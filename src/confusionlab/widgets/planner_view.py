"""`PlannerView`: how big must the test set be? The planner with sliders.

Sliders for the prevalence, the rates (or the expected metric value), the requested
half-width and the confidence; a canvas with the half-width against N: the exact
half-widths the search evaluated (dots), the normal approximation computed with the
same rounded counts for every N of the shown range (a line whose steps are the jumps
rounding p, TP and TN causes), the requested half-width (dashed) and the plan (marked). Every number
comes from :func:`confusionlab.planner.plan_test_size`; the browser only draws.
:meth:`PlannerView.from_plan` (and :meth:`TestSizePlan.view`) shows a plan already made.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import traitlets

from .._validation import InvalidParameterError, check_finite_real, check_half_width, check_rate, check_real
from .._views import register_view
from ..distribution import TARGETS
from ..metrics import get_metric
from ..models import resolve_prior
from ..planner import (
    PLAN_MODELS,
    TargetUnreachableError,
    TestSizePlan,
    normal_half_width,
    plan_counts,
    plan_prior,
    plan_test_size,
    rates_for_value,
)
from ._common import Buffer, BundledWidget, Confidence, InvalidTraitError, MetricName, Tolerance

__all__ = ["PlannerView"]

#: Most N drawn on the approximation line (a wider range is sampled evenly).
CURVE_POINTS = 1500
#: Largest N the view plans for (the search beyond is for the API).
VIEW_MAX_SIZE = 200_000
#: The traits a plan depends on: a change of any of them re-plans.
_PLAN_TRAITS = (
    "metric prevalence tpr tnr mode value half_width confidence model prior tolerance max_size target icc "
    "cluster_size".split()
)
#: Most half-widths the view keeps between re-plans (two floats each).
CACHE_ENTRIES = 50_000


class _Checked(traitlets.Float):
    """A number validated by one check of :mod:`confusionlab._validation` (its error becomes an InvalidTraitError)."""

    def __init__(self, default: float, check: Callable[[Any, str], float], **kwargs: Any) -> None:
        super().__init__(default, **kwargs)
        self._check = check

    def validate(self, obj: Any, value: Any) -> float:
        try:
            return self._check(value, self.name)
        except (TypeError, ValueError) as error:
            raise InvalidTraitError(str(error)) from None


def _prior(value: Any, name: str) -> float | None:
    return None if value is None else resolve_prior(value)


def _optional_real(value: Any, name: str) -> float | None:
    """None, or a real number (its range is :func:`~confusionlab.plan_test_size`'s to check)."""
    return None if value is None else check_real(value, name, "a number")


class PlannerView(BundledWidget, bundle="planner"):
    """Interactive test-size planner: the smallest test set for an interval of ± ``half_width``.

    Parameters
    ----------
    metric : str
        A key of :data:`confusionlab.METRICS`.
    prevalence, tpr, tnr : float
        Planning assumptions, in (0, 1).
    mode : {"rates", "value"}
        Plan from the rates, or from the expected metric ``value`` (rates then chosen by
        :func:`~confusionlab.planner.rates_for_value`: equal TPR and TNR).
    value : float
        Expected metric value (used when ``mode == "value"``).
    half_width : float
        The half-width asked for (the dashed line).
    confidence : float
        Level of the central interval.
    target : {"true_value", "next_test_set"}
        The question planned for (default ``"true_value"``: the interval of the metric's
        true value; ``"next_test_set"``: of the value a new test set shows).
    model : {"binomial", "beta-binomial"}
        Uncertainty model of the new test set (default beta-binomial; the binomial
        plug-in needs ``target="next_test_set"``).
    prior : float or {"uniform", "jeffreys"} or None
        Beta-binomial prior α. Default None: :func:`~confusionlab.plan_test_size`'s, Jeffreys'
        α = ½ for the true value and the uniform α = 1 for the next test set.
    tolerance : float
        Tail mass each marginal may drop (default 1e-12).
    max_size : int
        Largest N searched (at most 200,000 in the view).
    icc, cluster_size : float, optional
        For clustered rows (both or neither, as :func:`~confusionlab.plan_test_size`; set both at
        once with ``update(icc=, cluster_size=)``): the plan for independent rows ``N`` is shown
        with the clustered plan beside it, ``N_clustered`` rows in ``n_clusters`` clusters (the
        design effect in ``plan()``, said under the plot). Without them the rows are taken as
        independent.
    width : int
        Canvas width in CSS pixels.

    Notes
    -----
    A half-width that no N up to ``max_size`` reaches is not an error here: the view shows
    "not reached" with the best N found (``plan()["reached"]`` is False). Bad values
    are refused before anything changes.

    Browser state: root class ``confusionlab-planner`` with ``data-metric``,
    ``data-n`` (the planned N, or the best N when not reached), ``data-reached``,
    ``data-half-width`` (achieved), ``_plan["target"]`` and ``_plan["N_stable"]`` (the
    question and the stable size, also in ``_plan["message"]``), ``_plan["method"]``
    (``"normal"`` where the exact search would take minutes: the labelled approximation of
    :func:`~confusionlab.plan_test_size`'s ``method="auto"``, said in the message),
    ``data-requested-half-width``, ``data-points`` (exact points drawn)
    and ``data-generation`` (:attr:`generation`, one more at each plan shown).

    Examples
    --------
    >>> from confusionlab.widgets.planner_view import PlannerView
    >>> w = PlannerView(metric="recall", prevalence=0.5, tpr=0.8, tnr=0.8, half_width=0.1, target="next_test_set")
    >>> w.plan()["N"], w.plan()["N_stable"]
    (229, 249)

    See Also
    --------
    confusionlab.plan_test_size : the plan the view shows.
    """

    metric = MetricName("mcc", help="key of confusionlab.METRICS").tag(sync=True)
    prevalence = _Checked(0.1, check_rate).tag(sync=True)
    tpr = _Checked(0.8, check_rate).tag(sync=True)
    tnr = _Checked(0.9, check_rate).tag(sync=True)
    mode = traitlets.Enum(("rates", "value"), "rates").tag(sync=True)
    value = _Checked(0.6, check_finite_real).tag(sync=True)
    half_width = _Checked(0.05, check_half_width).tag(sync=True)
    confidence = Confidence(0.95).tag(sync=True)
    model = traitlets.Enum(PLAN_MODELS, "beta-binomial", help="uncertainty model of the new test set").tag(sync=True)
    target = traitlets.Enum(TARGETS, "true_value", help="the question: the true value or the next test set").tag(
        sync=True
    )
    prior = _Checked(
        None, _prior, allow_none=True, help="beta-binomial prior α (a number, 'uniform', 'jeffreys'; None: the plan's)"
    ).tag(sync=True)
    tolerance = Tolerance(help="tail mass each marginal may drop").tag(sync=True)
    max_size = traitlets.Int(VIEW_MAX_SIZE, min=2, max=VIEW_MAX_SIZE).tag(sync=True)
    icc = _Checked(None, _optional_real, allow_none=True, help="intraclass correlation of clustered rows").tag(
        sync=True
    )
    cluster_size = _Checked(None, _optional_real, allow_none=True, help="mean rows per cluster").tag(sync=True)
    width = traitlets.Int(560, min=240, max=2000).tag(sync=True)
    generation = traitlets.Int(0, help="number of plans shown so far (data-generation)").tag(sync=True)
    #: Seconds the last re-plan took in the kernel (the browser benchmark reads it).
    last_seconds: float = 0.0

    def __init__(self, **kwargs: Any) -> None:
        self._half_widths: dict[tuple[Any, ...], dict] = {}
        super().__init__(**kwargs)

    _plan = traitlets.Dict().tag(sync=True)
    _exact_n = Buffer("<f8").tag(sync=True)  # sizes evaluated exactly
    _exact_h = Buffer("<f8").tag(sync=True)
    _approx_n = Buffer("<f8").tag(sync=True)  # every (or evenly sampled) N of the range
    _approx_h = Buffer("<f8").tag(sync=True)
    _metric_label = traitlets.Unicode("").tag(sync=True)

    @classmethod
    def from_plan(cls, plan: TestSizePlan, **kwargs: Any) -> PlannerView:
        """A view re-planning from ``plan``'s assumptions: metric, prevalence, rates, requested
        half-width, confidence, model, prior and tolerance (``kwargs``: further traits).

        The view has no assurance slider (a plan made with ``assurance=`` is shown as the plan
        of its half-width alone) and searches up to :data:`VIEW_MAX_SIZE`.

        >>> from confusionlab import plan_test_size
        >>> plan = plan_test_size("recall", prevalence=0.5, tpr=0.8, tnr=0.8, half_width=0.1)
        >>> PlannerView.from_plan(plan).plan()["N"] == plan.N
        True
        """
        if not isinstance(plan, TestSizePlan):
            raise InvalidTraitError(f"plan must be a TestSizePlan (from plan_test_size), got {type(plan).__name__}")
        settings = {
            "metric": plan.metric,
            "prevalence": plan.prevalence,
            "tpr": plan.tpr,
            "tnr": plan.tnr,
            "half_width": plan.requested_half_width,
            "confidence": plan.confidence,
            "model": plan.model,
            "target": plan.target,
            "prior": plan.prior,
            "tolerance": plan.tolerance,
            "icc": plan.icc,
            "cluster_size": plan.cluster_size,
        }
        return cls(**{**settings, **kwargs})

    def plan(self) -> dict[str, Any]:
        """The plan shown (N, p, n, half_width, reached, tpr, tnr, …)."""
        return dict(self._plan)

    @traitlets.observe(*_PLAN_TRAITS)
    def _on_change(self, change: traitlets.Bunch) -> None:
        self._request(self._ALL_PARTS)

    def _refresh(self, parts: set[str]) -> None:
        start = time.perf_counter()
        m = get_metric(self.metric)
        tpr, tnr = self.tpr, self.tnr
        if self.mode == "value":
            try:
                tpr, tnr = rates_for_value(m, self.value, self.prevalence)
            except ValueError as error:
                raise InvalidTraitError(str(error)) from None
        # Exact half-widths depend on the counts, the metric, the confidence, the model, the prior
        # and the tolerance only: re-plans after a change of the half-width (or a slider moved
        # back) reuse every size already evaluated.
        alpha = plan_prior(self.prior, self.target)
        key = (m.name, self.confidence, self.model, alpha, self.tolerance, self.target)
        cache = self._half_widths.setdefault(key, {})
        if sum(len(c) for c in self._half_widths.values()) > CACHE_ENTRIES:
            self._half_widths = {key: cache}
            if len(cache) > CACHE_ENTRIES:
                cache.clear()
        try:
            plan = plan_test_size(
                m,
                prevalence=self.prevalence,
                tpr=tpr,
                tnr=tnr,
                half_width=self.half_width,
                confidence=self.confidence,
                model=self.model,
                prior=alpha,
                tolerance=self.tolerance,
                max_size=self.max_size,
                target=self.target,
                icc=self.icc,
                cluster_size=self.cluster_size,
                _cache=cache,
            )
            N, h, curve, reached, stable = plan.N, plan.half_width, plan.curve, True, plan.N_stable
            method = plan.method
            question = "the true value" if self.target == "true_value" else "a new test set"
            message = (
                f"interval for {question}; every N from {plan.N_stable:,} to {plan.stable_horizon:,} meets it"
                if plan.N_stable is not None
                else f"interval for {question}"
            )
            clustered = _clustered_plan(plan)
            if plan.method == "normal":  # the exact search would take minutes: the labelled approximation
                message += (
                    f" (normal approximation, half-widths within about {100 * plan.approximation_error:.2g} %: "
                    "the exact search would take minutes here; plan_test_size(..., method='exact') gives it)"
                )
            if clustered:
                message += (
                    f"; for clustered rows (ICC {plan.icc:g}, clusters of {plan.cluster_size:g} rows, design effect "
                    f"{plan.design_effect:.3g}) plan {plan.N_clustered:,} rows in {plan.n_clusters:,} clusters"
                )
        except TargetUnreachableError as error:
            N, h, curve, reached, stable = error.best_N, error.best_half_width, error.curve, False, None
            method, clustered = "exact", {}
            message = str(error)
        except InvalidParameterError as error:  # e.g. the binomial plug-in asked for the true value
            raise InvalidTraitError(str(error)) from None
        lo = max(2, int(N * 0.4))
        hi = min(self.max_size, max(int(N * 1.6), lo + 10))
        step = max(1, math.ceil((hi - lo + 1) / CURVE_POINTS))
        sizes = np.arange(lo, hi + 1, step, dtype=np.int64)
        approx = normal_half_width(
            m,
            sizes,
            self.prevalence,
            tpr,
            tnr,
            confidence=self.confidence,
            model=self.model,
            prior=alpha,
            target=self.target,
        )
        p, n, tp, tn = plan_counts(N, self.prevalence, tpr, tnr)
        shown = {s: v for s, v in curve.items() if lo <= s <= hi and math.isfinite(v)}
        self._metric_label = m.label
        self._exact_n = np.array(list(shown), dtype=np.float64)
        self._exact_h = np.array(list(shown.values()), dtype=np.float64)
        self._approx_n = sizes.astype(np.float64)
        self._approx_h = np.where(np.isfinite(approx), approx, np.nan)
        self._plan = {
            "N": int(N),
            "p": int(p),
            "n": int(n),
            "tp": int(tp),
            "tn": int(tn),
            "half_width": float(h) if math.isfinite(h) else None,
            "requested_half_width": self.half_width,
            "confidence": self.confidence,
            "reached": reached,
            "target": self.target,
            "N_stable": None if stable is None else int(stable),
            "message": message,
            "tpr": tpr,
            "tnr": tnr,
            "evaluated": len(curve),
            "range": [int(lo), int(hi)],
            "method": method,
            **clustered,
        }
        self.generation += 1
        self.last_seconds = time.perf_counter() - start


def _clustered_plan(plan: TestSizePlan) -> dict[str, Any]:
    """With clustered rows: the plan's design effect, clustered rows and clusters (``_plan``'s keys)."""
    if plan.N_clustered is None:
        return {}
    return {
        "icc": plan.icc,
        "cluster_size": plan.cluster_size,
        "design_effect": plan.design_effect,
        "N_clustered": plan.N_clustered,
        "n_clusters": plan.n_clusters,
    }


register_view(TestSizePlan, PlannerView.from_plan)
