"""How much test data do I need? The function that makes the plan.

:func:`plan_test_size` answers "how many test examples do I need to know MCC (or F1,
balanced accuracy, sensitivity …) within ± h?" with the exact distributions of the
core: the criterion (:mod:`._criterion`) is evaluated with
:func:`~confusionlab.metric_distribution` and
:meth:`~confusionlab.MetricDistribution.interval`, never with a formula, and the search
(:func:`~confusionlab.planner.smallest_size`) finds the smallest N although the
half-width is not monotone in N. The answer is a :class:`~confusionlab.TestSizePlan`
(``_result.py``), a result of the library's one protocol (``value``, ``interval``,
``to_frame``, ``to_html``, ``plot``, ``view``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import (
    DEFAULT_TOLERANCE,
    InvalidParameterError,
    check_choice,
    check_confidence,
    check_half_width,
    check_int,
    check_progress,
    check_rate,
    check_tolerance,
)
from ..metrics import Metric, get_metric
from ..models import MODELS, SIMPLEX_MODELS, SLICE_MODELS, TARGETS
from . import _assurance, _normal
from ._assurance import DEFAULT_ASSURANCE_TOLERANCE, MAX_OUTCOMES, _assurance_at, outcome_count, suggested_outcomes
from ._checks import check_assurance_tolerance, plan_prior
from ._clusters import check_cluster_plan, clustered_plan
from ._criterion import _Evaluator, honest_min_size, normal_half_width, plan_counts
from ._rates import rates_for_value
from ._result import TestSizePlan
from ._search import MAX_SIZE, smallest_size, stable_size
from ._size_plan import SizePlan

# SizePlan and TestSizePlan are re-exported: they were defined here, and their old import path keeps working
__all__ = ["PLAN_MODELS", "SizePlan", "TestSizePlan", "plan_test_size"]

#: Models the planner accepts: the slice models, whose p and n are fixed by the plan.
PLAN_MODELS = SLICE_MODELS
#: How a plan is found (``method=`` of :func:`plan_test_size`).
METHODS = ("auto", "exact", "normal")


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
    prior: Any = None,
    tolerance: float = DEFAULT_TOLERANCE,
    max_size: int = MAX_SIZE,
    assurance_tolerance: float = DEFAULT_ASSURANCE_TOLERANCE,
    max_outcomes: int = MAX_OUTCOMES,
    target: str = "true_value",
    progress: bool | None = None,
    method: str = "auto",
    icc: float | None = None,
    cluster_size: float | None = None,
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
        The goal: the largest half-width of the central interval accepted (e.g. 0.03
        for ± 0.03). The plan records it as ``requested_half_width``.
    confidence : float, default 0.95
        Level of the central interval, in (0, 1).
    model : {"beta-binomial", "binomial"}
        Uncertainty model of the new test set: the beta-binomial predictive (the rates'
        uncertainty included) or the binomial plug-in (the rates taken as known; it has
        no true-value question, so it needs ``target="next_test_set"``).
    assurance : float, optional
        q in (0, 1): plan instead the smallest N for which the interval *reported after
        the test* is at most ± ``half_width`` with probability ≥ q over the test's outcomes.
    value : float, optional
        The expected metric value instead of the rates; see :func:`rates_for_value`
        (rates taken equal, or the missing one solved for).
    prior : {"uniform", "jeffreys"} or float, optional
        The beta-binomial prior α = β on each rate. Default: the prior of
        :func:`~confusionlab.metric_distribution` and :func:`~confusionlab.evaluate` for the
        question, so that the plan is for the interval they will report — Jeffreys' α = ½
        for ``target="true_value"`` (chosen there from a coverage study), the uniform α = 1
        for ``"next_test_set"`` (the paper's beta-binomial). The plan records it as
        ``prior``. Ignored by the binomial model.
    tolerance : float, default 1e-12
        Tail mass each marginal may drop (as in :func:`metric_distribution`).
    max_size : int, default 1,000,000
        Largest N searched (:data:`MAX_SIZE`).
    assurance_tolerance : float, default 1e-3
        Tail mass per marginal of the test outcomes left out of the assurance
        enumeration, in [0, 0.01]: the achieved assurance is exact up to this bounded,
        reported error.
    max_outcomes : int, default 100,000
        Most outcomes enumerated at one N (each gets its normal half-width, those the
        calibrated bounds leave undecided an exact distribution). A plan that would need
        more is refused before the search (or at the size that needs them), with the
        ``max_outcomes`` that would do.
    target : {"true_value", "next_test_set"}, default "true_value"
        The question. ``"true_value"``: how many examples pin the metric's *true value*
        within ± ``half_width`` — the half-width of
        ``metric_distribution(..., target="true_value").interval(confidence)`` (the
        posterior of the metric at the planned matrix, about 1/√2 as wide as the next
        test set's spread, so about half the examples). ``"next_test_set"``: how large
        must a test set be for the value *a new test set* of that size shows to lie
        within ± ``half_width`` (the plan of earlier releases).
    progress : bool or None, default None
        A progress bar (tqdm's: a widget in Jupyter, text in a terminal) counting the sizes
        the exact search evaluates, or the test outcomes the ``assurance`` enumeration has
        gone through, shown only when it takes more than half a second. None: only when
        someone is watching (Jupyter or a terminal, never when the output is captured);
        False: never. The plan is the same.
    method : {"auto", "exact", "normal"}, default "auto"
        ``"exact"``: the exact search (every size near the crossing that could meet the
        goal is evaluated exactly). ``"normal"``: the normal limit, the smallest N whose
        delta-method half-width (with the planned rounded counts) meets the goal, labelled
        ``method="normal"`` with its measured ``approximation_error``. ``"auto"``: exact
        unless the exact search is estimated to take more than about ten seconds
        (:func:`~confusionlab.planner._normal.exact_seconds`: MCC's next test set beyond
        N ≈ 3·10⁴, any metric near N = 10⁸), then normal. With ``assurance`` always exact.
    icc, cluster_size : float, optional
        For clustered test items (several rows per patient, passage or speaker; both or
        neither): the intraclass correlation ρ of the rows' correctness within a cluster, in
        [0, 1], and the mean rows per cluster m. The plan is made for independent rows (``N``),
        then multiplied by the design effect D = 1 + (m − 1)·ρ (Kish's; with unequal cluster
        sizes use m = Σ m_c²/Σ m_c, the coefficient-of-variation form): ``N_clustered`` = ⌈D·N⌉
        rows in ``n_clusters`` = ⌈D·N/m⌉ clusters, the test set whose clustered interval
        (``evaluate(..., cluster=)``) is about as wide as the independent plan's. Without them the
        rows are assumed independent.
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
    confusionlab.InvalidParameterError
        Rates or prevalence outside (0, 1) or NaN, confidence outside (0, 1), a
        half-width that is not a finite positive number, neither rates nor a value.
    TargetUnreachableError
        A ValueError, with ``best_N``, when no N up to ``max_size`` reaches
        ``half_width``.

    See Also
    --------
    confusionlab.metric_distribution : the distribution whose interval the plan reads.
    confusionlab.evaluate : the uncertainty of a test set once it is collected.
    confusionlab.compare_paired : whether a test set tells two classifiers apart.
    confusionlab.bias.plan_group_size : the same question for the size of a facet.

    Notes
    -----
    The criterion for a candidate size N: ``p = ⌊π·N + ½⌋`` clipped to ``[1, N − 1]``,
    ``n = N − p``, ``TP = ⌊tpr·p + ½⌋``, ``TN = ⌊tnr·n + ½⌋``; the metric's distribution
    at (TP, FN, FP, TN) for ``target`` (the true value's posterior, or a new test set of
    the same size under ``model``); its central ``confidence`` interval; half-width =
    (upper − lower)/2. The plan is the smallest N whose half-width is at most
    ``half_width``; ``N_stable`` the smallest from which every size up to
    ``stable_horizon = min(2·N_stable, max_size)`` meets it (:func:`stable_size`: exact
    where the calibrated approximation cannot rule a failure out). Under the binomial
    plug-in a size whose planned class has 0 or all successes has a marginal without
    spread: the criterion is undefined there and never met. Sizes below
    :func:`~confusionlab.planner._criterion.honest_min_size` are not candidates: there a class
    the metric reads is clipped to one example or its rounded rate is more than 0.05 from the
    one requested (prevalence 10⁻⁴ at N = 417 would plan one positive with TPR 1), so the plan
    would be for another classifier. The search is :func:`smallest_size`
    (bracket with the normal approximation, then scan every candidate size, in
    increasing order), whose Notes say why the smallest N is found although the
    half-width is not monotone in N.

    For the next test set each exact half-width is the distribution's interval, bit for
    bit, read with less work where it can be: balanced accuracy's from its integer keys (about ten times
    faster; this matters because its coarse value lattice, steps of about 1/(2p),
    widens the band of sizes the scan must evaluate); MCC's and the F-scores' along
    their contours (each row of the lattice is monotone in TN, so the cdf at a
    threshold is a sum over the rows and only the points between two bracketing
    contours are sorted; about 15× faster at N = 10,000); the other two-class metrics'
    from the core's ratios in one counting pass (about 3×). A fast path that cannot be
    sure of the bit-for-bit answer declines, and the distribution is built.

    With ``assurance=q`` the criterion at N becomes: with TP', TN' drawn from the
    predictive distribution of the planned matrix (``model``), the probability that the
    reported interval (the central interval of the distribution from the *observed*
    (TP', FN', FP', TN')) has half-width ≤ ``half_width`` is at least q. The outcomes are
    enumerated exactly, each marginal's tails of mass ≤ ``assurance_tolerance`` left
    out; the probability counted over the enumerated outcomes is a lower bound, at most
    ``assurance_error`` below the true one, and the plan requires the lower bound to
    reach q (conservative). Each outcome's reported half-width is bounded from its normal
    approximation, calibrated at each N on a grid of outcomes evaluated exactly (the
    ratio of exact to approximate, widened by the granularity and drift allowance, as
    the search's); only the outcomes whose bounds leave undecided whether they meet the
    goal, or where the q-quantile lies, are evaluated exactly (about a tenth of the
    outcomes at the sizes the search ends on: 3,762 for MCC ± 0.05 at prevalence 0.1
    evaluates 1,274 of 11,808 exactly), for MCC and the F-scores many outcomes at once
    (the same half-widths as one at a time, three to four times faster). The answer is the
    full enumeration's wherever the exact/approximate ratio stays within the calibrated
    bounds; the tests compare the two.

    Examples
    --------
    >>> plan = plan_test_size("recall", prevalence=0.5, tpr=0.8, tnr=0.8, half_width=0.1, target="next_test_set")
    >>> plan.N, plan.p, round(plan.half_width, 4)
    (229, 115, 0.1)
    >>> plan = plan_test_size("mcc", prevalence=0.1, value=0.6, half_width=0.1, target="next_test_set")
    >>> plan.N, round(plan.tpr, 4) == round(plan.tnr, 4)
    (635, True)

    Pinning the true value needs about half as many examples:

    >>> true = plan_test_size("recall", prevalence=0.5, tpr=0.8, tnr=0.8, half_width=0.1)
    >>> true.target, true.N < 229, true.N_stable >= true.N
    ('true_value', True, True)

    Ten rows per cluster with ICC 0.1 cost a design effect of 1.9:

    >>> clustered = plan_test_size("recall", prevalence=0.5, tpr=0.8, tnr=0.8, half_width=0.1, icc=0.1, cluster_size=10)
    >>> clustered.N, clustered.design_effect, clustered.N_clustered, clustered.n_clusters
    (119, 1.9, 230, 23)
    """
    m = get_metric(metric)
    clusters = check_cluster_plan(icc, cluster_size)
    prevalence = check_rate(prevalence, "prevalence")
    half_width = check_half_width(half_width)
    confidence = check_confidence(confidence)
    model = check_choice(model, "model", MODELS)
    target = check_choice(target, "target", TARGETS)
    if model in SIMPLEX_MODELS:
        raise InvalidParameterError(
            f"model={model!r} spreads the plan over the whole simplex (C(N+3, 3) matrices); the "
            "planner fixes p and n, so use model='beta-binomial' or 'binomial'"
        )
    if target == "true_value" and model == "binomial":
        raise InvalidParameterError(
            "target='true_value' (the default) plans the posterior of the metric's true value, which the binomial "
            "plug-in does not have (it takes the rates as known); use model='beta-binomial' (the default) for the "
            "true value, or target='next_test_set' for the binomial plug-in's next test set"
        )
    alpha = plan_prior(prior, target)
    tolerance = check_tolerance(tolerance)
    max_size = check_int(max_size, "max_size", minimum=2, maximum=10**8)
    if value is not None:
        tpr, tnr = rates_for_value(m, value, prevalence, tpr=tpr, tnr=tnr)
    elif tpr is None or tnr is None:
        raise InvalidParameterError(
            f"give the expected rates tpr= and tnr=, or the expected metric value=; got tpr={tpr!r}, tnr={tnr!r}"
        )
    tpr = check_rate(tpr, "tpr")
    tnr = check_rate(tnr, "tnr")
    if assurance is not None:
        assurance = check_rate(assurance, "assurance")
        if target == "true_value":
            raise InvalidParameterError(
                "assurance plans the interval reported after the test for every outcome of the test, one exact "
                "distribution per outcome; for target='true_value' (the default) each is a quadrature and the "
                f"enumeration would take minutes. Pass target='next_test_set' with assurance={assurance:g}."
            )
    # checked whether or not assurance is asked for: a bad value is refused at the call, not ignored
    assurance_tolerance = check_assurance_tolerance(assurance_tolerance, DEFAULT_ASSURANCE_TOLERANCE)
    max_outcomes = check_int(max_outcomes, "max_outcomes", minimum=1)
    show = check_progress(progress)
    method = check_choice(method, "method", METHODS)
    min_size = max(2, honest_min_size(m, prevalence, tpr, tnr))
    if min_size > max_size:
        raise InvalidParameterError(
            f"prevalence={prevalence:g} with tpr={tpr:g}, tnr={tnr:g}: below N = {min_size:,} a planned test set "
            f"cannot hold the classes {m.name} reads with these rates (too few examples: the rounded counts would "
            f"stand for another classifier), and max_size={max_size:,} is smaller; raise max_size to at least "
            f"{min_size:,}"
        )
    min_size = int(min_size)
    ev = _Evaluator(m, prevalence, tpr, tnr, confidence, model, alpha, tolerance, target)
    if (
        _cache is not None
    ):  # half-widths by counts, shared by plans with the same metric, confidence, model, prior, tolerance
        ev.cache = _cache
    known = len(ev.cache)

    def approximate(sizes: np.ndarray) -> np.ndarray:
        return normal_half_width(
            m, sizes, prevalence, tpr, tnr, confidence=confidence, model=model, prior=alpha, target=target
        )

    achieved = error = approximation_error = None
    used = "exact"
    if assurance is None and method != "exact":
        guess = _normal.crossing(approximate, half_width, min_size, max_size)
        if method == "normal" or (guess is not None and _normal.exact_seconds(ev, guess) > _normal.EXACT_BUDGET):
            used = "normal"
    if used == "normal":
        N, h, N_stable, horizon, approximation_error, curve = _normal.normal_plan(
            ev, approximate, half_width, min_size=min_size, max_size=max_size
        )
        searched = len(ev.cache) - known
    elif assurance is None:
        from tqdm.auto import tqdm

        with tqdm(desc="exact search", unit=" sizes", delay=_assurance.PROGRESS_DELAY, disable=not show) as bar:

            def counted(size: int) -> tuple[float, float]:
                bar.set_description(f"exact search at N = {size:,}", refresh=False)
                bar.update(1)
                return ev(size)

            N, h, curve = smallest_size(counted, approximate, half_width, min_size=min_size, max_size=max_size)
            searched = len(ev.cache) - known
            horizon = min(2 * N, max_size)
            N_stable = stable_size(counted, approximate, half_width, start=N, horizon=horizon, curve=curve)
            while min(2 * N_stable, max_size) > horizon:  # the horizon follows N_stable
                horizon = min(2 * N_stable, max_size)
                N_stable = stable_size(counted, approximate, half_width, start=N, horizon=horizon, curve=curve)
        curve = dict(sorted(curve.items()))
    else:
        # Refuse up front, before the long enumeration, when the outcomes at the plain plan's
        # size (below which an assurance q ≥ ½ rarely plans) already exceed max_outcomes.
        plain = smallest_size(ev, approximate, half_width, min_size=min_size, max_size=max_size)[0]
        # The enumeration leaves each marginal's tails out: it can certify at most its own mass.
        # An assurance above that is never reached at any size (it would search to max_size).
        _, _, _, tp_pmf, tn_pmf = _assurance._outcomes(ev, plain, assurance_tolerance)
        enumerated = float(tp_pmf.sum()) * float(tn_pmf.sum())
        if assurance > enumerated - 1e-12:
            raise InvalidParameterError(
                f"assurance={assurance:g} cannot be certified: the test outcomes enumerated hold a mass of only "
                f"{enumerated:.6g} (assurance_tolerance={assurance_tolerance:g} of each marginal's tails is left out), "
                f"at N = {plain:,} (about as much at every size). Lower assurance_tolerance to "
                f"{(1 - assurance) / 4:.2g} or less, or ask for an assurance below {enumerated:.4g}"
            )
        if assurance >= 0.5 and outcome_count(ev, plain, assurance_tolerance) > max_outcomes:
            reach = min(plain + plain // 2, max_size)
            ahead = outcome_count(ev, reach, assurance_tolerance)
            raise InvalidParameterError(
                f"max_outcomes: assurance for ± {half_width:g} plans at least N = {plain:,} (the plan without "
                f"assurance), where the test has {outcome_count(ev, plain, assurance_tolerance):,} outcomes to "
                f"enumerate, more than max_outcomes={max_outcomes:,}; pass "
                f"max_outcomes={suggested_outcomes(ahead)} (enough up to N = {reach:,}; a few "
                "milliseconds per outcome near the goal and size searched), or ask for a wider half_width"
            )
        at: dict[int, tuple[float, float]] = {}

        from tqdm.auto import tqdm

        with tqdm(desc="assurance", unit=" outcomes", delay=_assurance.PROGRESS_DELAY, disable=not show) as bar:

            def assured(size: int) -> tuple[float, float]:
                quantile, prob, err, grain = _assurance_at(
                    ev, size, half_width, assurance, assurance_tolerance, max_outcomes, bar
                )
                at[size] = (prob, err)
                return quantile, grain

            N, _, curve = smallest_size(assured, approximate, half_width, min_size=2, max_size=max_size)
        h = ev(N)[0]
        achieved, error = at[N]
        N_stable = horizon = None
        searched = len(ev.cache) - known
    p, n, tp, tn = plan_counts(N, prevalence, tpr, tnr)
    clustered = {}
    if clusters is not None:
        effect, rows, count = clustered_plan(N, *clusters)
        clustered = {"icc": clusters[0], "cluster_size": clusters[1], "design_effect": effect}
        clustered |= {"N_clustered": rows, "n_clusters": count}
    return TestSizePlan(
        metric=m.name,
        N=N,
        p=p,
        n=n,
        tp=tp,
        tn=tn,
        half_width=h,
        requested_half_width=half_width,
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
        evaluations=searched,
        target=target,
        N_stable=N_stable,
        stable_horizon=horizon,
        method=used,
        approximation_error=approximation_error,
        **clustered,
    )
