"""How many test items tell two classifiers' accuracies apart? :func:`plan_comparison_size`.

The paired counterpart of :func:`~confusionlab.plan_test_size`: both classifiers are scored on the
same items, and the plan is the smallest N whose interval of the true accuracy difference (what
:func:`~confusionlab.compare_paired_cells` reports at the planned agreement cells,
``_paired_cells.py``) is at most ± ``half_width``, found by the planners' search
(:func:`~confusionlab.planner.smallest_size`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._validation import (
    InvalidParameterError,
    check_choice,
    check_confidence,
    check_half_width,
    check_int,
    check_rate,
    check_real,
)
from ..models import TARGETS, default_alpha
from ._clusters import check_cluster_plan, clustered_plan
from ._comparison_result import ComparisonSizePlan
from ._criterion import DRIFT_ALLOWANCE
from ._paired_cells import cell_shares, difference_quantiles, normal_half_width, planned_cells
from ._search import MAX_SIZE, smallest_size

__all__ = ["plan_comparison_size"]


def plan_comparison_size(
    accuracy: Any,
    *,
    correlation: float,
    half_width: float,
    confidence: float = 0.95,
    target: str = "true_value",
    max_size: int = MAX_SIZE,
    icc: float | None = None,
    cluster_size: float | None = None,
) -> ComparisonSizePlan:
    """The smallest paired test set whose interval of the accuracy difference A − B is at most ± ``half_width``.

    Both classifiers are scored on the same N items (as :func:`~confusionlab.compare_paired`
    compares them); the items are assumed independent unless ``icc`` and ``cluster_size`` are given.

    Parameters
    ----------
    accuracy : (float, float)
        The expected accuracies of A and of B, each in (0, 1).
    correlation : float
        The correlation ρ of the two classifiers' errors: the phi coefficient of their 0/1 error
        indicators over the items (0: they err independently; near its largest value they err on
        the same items). With the accuracies it fixes the shares of the four cells — both right,
        only A right, only B right, both wrong — where both wrong = (1 − a)(1 − b) +
        ρ·√(a(1 − a)·b(1 − b)); a ρ that makes a share negative is refused with the feasible range.
    half_width : float
        The goal: the largest half-width accepted for the interval of the difference (0.02 for
        ± 0.02). The plan records it as ``requested_half_width``.
    confidence : float, default 0.95
        Level of the central interval, in (0, 1).
    target : {"true_value"}, default "true_value"
        The question: how many items pin the *true* accuracy difference within ± ``half_width``.
        ``"next_test_set"`` is not planned here.
    max_size : int, default 1,000,000
        Largest N searched.
    icc, cluster_size : float, optional
        For clustered items (both or neither): the intraclass correlation, in [0, 1], of the
        per-item *differences* (A's correctness minus B's) within a cluster, and the mean items
        per cluster m. The independent plan ``N`` is multiplied by the design effect
        D = 1 + (m − 1)·ICC: ``N_clustered`` = ⌈D·N⌉ items, rounded up to ``n_clusters`` whole
        clusters (as :func:`~confusionlab.plan_test_size`'s clustered plan).

    Returns
    -------
    ComparisonSizePlan

    Raises
    ------
    confusionlab.InvalidParameterError
        Accuracies outside (0, 1), a correlation that makes a cell negative, a half-width that is
        not a finite positive number, one of ``icc`` and ``cluster_size`` without the other.
    TargetUnreachableError
        A ValueError, when no N up to ``max_size`` reaches ``half_width``.

    See Also
    --------
    confusionlab.compare_paired_cells : the comparison whose interval the plan reads.
    confusionlab.plan_test_size : the size of a test set for one classifier.

    Notes
    -----
    At a size N the cells are the shares times N rounded to whole items adding up to N (floors,
    then the items left to the largest remainders). The interval is the central ``confidence``
    interval of the true difference θ10 − θ01 (only A right minus only B right) under
    Dirichlet(cells + ½): the posterior of :func:`~confusionlab.compare_paired_cells` with
    ``target="true_value"`` (½ per cell) when all items are given as one class, which that function
    estimates from draws and the plan computes by quadrature (exact to about 1e-6 in probability).
    Splitting the items by true class, as :func:`~confusionlab.compare_paired` does, with the
    prevalence fixed, gives an interval at most as wide: the plan is for the wider one.

    The half-width is not monotone in N (the rounded cells jump), so N is found as
    :func:`~confusionlab.plan_test_size` finds it (:func:`~confusionlab.planner.smallest_size`):
    bracketing with the normal approximation z·√((m10 + m01 − (m10 − m01)²)/(N + 3)) at the same
    rounded cells (m = (cells + ½)/(N + 2)), then evaluating every size below the first success
    that the calibrated approximation cannot rule out; ``curve`` holds every size evaluated.

    Examples
    --------
    >>> plan = plan_comparison_size((0.85, 0.80), correlation=0.5, half_width=0.02)
    >>> plan.N, plan.half_width <= 0.02, plan.cells
    (1394, True, (1048, 137, 68, 141))

    Errors that do not overlap cost more items:

    >>> plan_comparison_size((0.85, 0.80), correlation=0.0, half_width=0.02).N > plan.N
    True
    """
    accuracy_a, accuracy_b = _check_accuracies(accuracy)
    rho = check_real(correlation, "correlation", "a correlation in [-1, 1]")
    if math.isnan(rho):
        raise InvalidParameterError("correlation must be a correlation in [-1, 1], got NaN")
    half_width = check_half_width(half_width)
    confidence = check_confidence(confidence)
    target = check_choice(target, "target", TARGETS)
    if target != "true_value":
        raise InvalidParameterError(
            f"target={target!r}: the comparison plan answers the true accuracy difference only; "
            "use target='true_value' (the default)"
        )
    max_size = check_int(max_size, "max_size", minimum=2, maximum=10**8)
    clusters = check_cluster_plan(icc, cluster_size)
    shares = cell_shares(accuracy_a, accuracy_b, rho)
    prior = default_alpha("plan_comparison_size", target) / 2.0  # each classifier's Beta(α, α), split over 2 cells
    probs = (0.5 - confidence / 2.0, 0.5 + confidence / 2.0)

    def evaluate(size: int) -> tuple[float, float]:
        cells = planned_cells(shares, np.array([size]))[0]
        lo, hi = difference_quantiles(cells, prior, probs)
        return (hi - lo) / 2.0, max(DRIFT_ALLOWANCE, 1.0 / (cells[1] + cells[2] + 1.0))

    def approximate(sizes: np.ndarray) -> np.ndarray:
        return normal_half_width(planned_cells(shares, sizes), prior, confidence)

    N, h, curve = smallest_size(evaluate, approximate, half_width, min_size=2, max_size=max_size)
    clustered: dict[str, Any] = {}
    if clusters is not None:
        effect, rows, count = clustered_plan(N, *clusters)
        clustered = {"icc": clusters[0], "cluster_size": clusters[1], "design_effect": effect}
        clustered |= {"N_clustered": rows, "n_clusters": count}
    return ComparisonSizePlan(
        N=N,
        cells=tuple(int(c) for c in planned_cells(shares, np.array([N]))[0]),
        half_width=h,
        requested_half_width=half_width,
        curve=curve,
        confidence=confidence,
        accuracy_a=accuracy_a,
        accuracy_b=accuracy_b,
        correlation=rho,
        prior=prior,
        target=target,
        **clustered,
    )


def _check_accuracies(accuracy: Any) -> tuple[float, float]:
    """The two accuracies, each in (0, 1)."""
    if isinstance(accuracy, (str, bytes)) or not hasattr(accuracy, "__len__") or len(accuracy) != 2:
        raise InvalidParameterError(
            f"accuracy must be the pair (accuracy of A, accuracy of B), e.g. (0.85, 0.8), got {accuracy!r}"
        )
    return check_rate(accuracy[0], "accuracy"), check_rate(accuracy[1], "accuracy")
