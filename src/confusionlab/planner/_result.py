"""``TestSizePlan``: the smallest test set meeting a requested half-width, the answer of
:func:`~confusionlab.plan_test_size`."""

from __future__ import annotations

from dataclasses import dataclass

from .._validation import DEFAULT_TOLERANCE, check_confidence
from ..confusion import ConfusionMatrix
from ..distribution import MetricDistribution, metric_distribution
from ..metrics import get_metric
from ._size_plan import SizePlan

__all__ = ["TestSizePlan"]


@dataclass(frozen=True, repr=False)
class TestSizePlan(SizePlan):
    """The smallest test set meeting a requested half-width (:func:`~confusionlab.plan_test_size`).

    Attributes
    ----------
    N, p, n : int
        Planned size, positives and negatives.
    tp, tn : int
        The planned matrix's counts (TP = ⌊tpr·p + ½⌋, TN = ⌊tnr·n + ½⌋).
    half_width : float
        The achieved half-width at N (at most ``requested_half_width``).
    requested_half_width : float
        The half-width asked for (``half_width=`` of :func:`~confusionlab.plan_test_size`).
    target : {"true_value", "next_test_set"}
        The question planned for: the interval of the metric's true value (its
        posterior) or of the value a new test set of size N will show.
    N_stable : int
        The smallest size from which every larger size up to ``stable_horizon`` meets
        the requested half-width (the half-width is not monotone in N: ``N`` may be
        followed by sizes that fail again).
    stable_horizon : int
        How far "every larger size" was checked: ``min(2·N_stable, max_size)``, where the
        approximate half-width has fallen to about 1/√2 of the goal (a normal-limit plan checks
        its approximation up to 4,096 sizes above N).
    curve : dict
        N → half-width for every N evaluated exactly by the search (ascending N); with
        ``assurance=q``, N → the q-quantile of the reported half-width over the outcomes.
    metric, model : str
    confidence : float
    prevalence, tpr, tnr : float
        The planning assumptions (rates chosen by :func:`~confusionlab.planner.rates_for_value` when a value
        was given).
    prior : float
        The Beta prior α = β on each rate the plan assumes (by default
        Jeffreys' ½ for the true value, the uniform 1 for the next test set: the
        defaults of :func:`~confusionlab.metric_distribution` and
        :func:`~confusionlab.evaluate`); the summary names it.
    tolerance : float
        Tail mass each marginal may drop.
    assurance : float or None
        The requested assurance q.
    achieved_assurance : float or None
        Probability (over the enumerated outcomes) that the reported interval is at
        most the requested half-width at N; the true probability lies in
        ``[achieved_assurance, achieved_assurance + assurance_error]``.
    assurance_error : float or None
        Mass of the outcomes not enumerated (the bound of the error).
    evaluations : int
        Exact distributions computed by the search for N (sizes sharing the counts a
        metric depends on share one); the check of ``N_stable`` adds its own.
    method : {"exact", "normal"}
        How the plan was found: the exact search, or the normal limit (where the exact
        search would take minutes; see :func:`~confusionlab.plan_test_size`, ``method``).
    approximation_error : float or None
        With ``method="normal"``: the relative difference between the exact and the normal
        half-width measured at the calibration size (the one size of ``curve``), plus its
        granularity; at the planned N it is at most about that, and N is within about twice
        that (relatively) of the exact plan. None for an exact plan.

    Notes
    -----
    The result protocol: :attr:`value` is the metric at the planned matrix,
    :meth:`interval` the central interval of its distribution there,
    :meth:`to_frame` the curve, :meth:`plot` the curve drawn, :meth:`view` a
    :class:`~confusionlab.PlannerView` that re-plans from the same assumptions (with
    sliders), :meth:`to_html` a page of all of it.

    Examples
    --------
    >>> from confusionlab import plan_test_size
    >>> plan = plan_test_size("recall", prevalence=0.5, tpr=0.8, tnr=0.8, half_width=0.1, target="next_test_set")
    >>> plan.N, plan.requested_half_width, plan.half_width <= plan.requested_half_width
    (229, 0.1, True)
    >>> plan.to_frame().query("planned")[["N", "reached"]].values.tolist()
    [[229, True]]
    """

    __test__ = False  # not a pytest test class
    title = "How big must the test set be?"

    metric: str
    N: int
    p: int
    n: int
    tp: int
    tn: int
    half_width: float
    requested_half_width: float
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
    target: str = "true_value"
    N_stable: int | None = None
    stable_horizon: int | None = None
    method: str = "exact"
    approximation_error: float | None = None

    @property
    def matrix(self) -> ConfusionMatrix:
        """The planned confusion matrix."""
        return ConfusionMatrix(tp=self.tp, fn=self.p - self.tp, fp=self.n - self.tn, tn=self.tn)

    @property
    def value(self) -> float:
        """The metric's value at the planned matrix."""
        return get_metric(self.metric)(self.matrix)

    def distribution(self) -> MetricDistribution:
        """The metric's distribution at the plan (the one the criterion reads; for a normal-limit
        plan, whose N may be beyond the exact lattice, ``method="auto"``: exact where it fits,
        else Monte Carlo of the same model, labelled on the distribution)."""
        return metric_distribution(
            self.matrix,
            self.metric,
            self.model,
            prior=self.prior,
            tolerance=self.tolerance,
            target=self.target,
            method="exact" if self.method == "exact" else "auto",
        )

    def summary(self, confidence: float = 0.95) -> str:
        """The plan in one sentence, with the ``confidence`` interval at the planned size."""
        lo, hi = self.interval(check_confidence(confidence))
        label = get_metric(self.metric).label
        assured = (
            ""
            if self.assurance is None
            else f" with assurance {self.achieved_assurance:.3f} ≥ {self.assurance:g} (after the test)"
        )
        question = "the true value" if self.target == "true_value" else "a new test set"
        named = {0.5: "Jeffreys' ", 1.0: "uniform "}.get(self.prior, "")
        if self.model == "binomial":
            assumed = "binomial plug-in"
        elif self.target == "true_value":  # the rates' Beta posteriors: no new test set is drawn
            assumed = f"Beta posterior of each rate, {named}prior α = {self.prior:g}"
        else:
            assumed = f"beta-binomial, {named}prior α = {self.prior:g}"
        checked = "checked" if self.method == "exact" else "checked in the normal approximation"
        stable = (
            ""
            if self.N_stable is None
            else f" Every size from {self.N_stable:,} to {self.stable_horizon:,} ({checked}) meets it."
        )
        approx = (
            ""
            if self.method == "exact"
            else f" (normal approximation, not exact: half-widths within about {100 * self.approximation_error:.2g} %)"
        )
        return (
            f"{label}: N = {self.N:,}{approx} ({self.p:,} positives, {self.n:,} negatives) is the smallest test set "
            "whose "
            f"{self.confidence:.0%} interval for {question} ({assumed}) is at most ± {self.requested_half_width:g}"
            f"{assured} "
            f"(± {self.half_width:.4g} at N); there the {confidence:.0%} interval around {self.value:.3g} is "
            f"[{lo:.3g}, {hi:.3g}].{stable}"
        )

    def __repr__(self) -> str:
        extra = "" if self.assurance is None else f", assurance={self.achieved_assurance:.4f}"
        return (
            f"TestSizePlan(metric={self.metric!r}, target={self.target!r}, N={self.N}, N_stable={self.N_stable}, "
            f"p={self.p}, n={self.n}, "
            f"half_width={self.half_width:.4g} <= {self.requested_half_width:g}{extra}, "
            f"evaluations={self.evaluations}{'' if self.method == 'exact' else ', method=' + repr(self.method)})"
        )
