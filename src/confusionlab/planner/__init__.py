"""How much test data do I need? The exact test-size planner.

:func:`plan_test_size` answers "how many test examples do I need to know MCC (or F1,
balanced accuracy, sensitivity …) within ± h?" with the exact distributions of the
core, and returns a :class:`TestSizePlan`. The package holds one idea per module:

========================  ==============================================================
``_criterion``            the planned counts at a size (:func:`plan_counts`), the exact
                          half-width there and its normal approximation
                          (:func:`normal_half_width`)
``_half_width``           exact central intervals on a slice without the whole PMF (the
                          fast paths the criterion reads): their entry points and the
                          many-window driver; each path in its own module
                          (``_balanced_accuracy``, ``_ratio_half_width``,
                          ``_contour_rows``, ``_contour_half_width``, ``_batch_rows``,
                          ``_quantile_atoms``)
``_search``               :func:`smallest_size`: the smallest size meeting a half-width
                          although the half-width is not monotone (also used by
                          :func:`confusionlab.bias.plan_group_size`); :func:`stable_size`:
                          the size from which every larger one meets it
``_rates``                :func:`rates_for_value`: planning from an expected value
``_assurance``            the criterion for the interval reported after the test
``_size_plan``            :class:`SizePlan`: what a test-size and a facet-size plan share
                          (the curve, its table and figure, the interval at the plan)
``_result``               :class:`TestSizePlan`: the plan (the result)
``_plan``                 :func:`plan_test_size`: the entry point
``_paired_cells``         two classifiers' agreement cells from their accuracies and error
                          correlation, and the true accuracy difference's quantiles
``_comparison_result``    :class:`ComparisonSizePlan`: the paired plan (the result)
``_comparison_plan``      :func:`plan_comparison_size`: how many items tell two classifiers
                          apart
========================  ==============================================================

Examples
--------
>>> plan = plan_test_size("mcc", prevalence=0.1, tpr=0.8, tnr=0.9, half_width=0.1, target="next_test_set")
>>> plan.N, plan.half_width <= plan.requested_half_width
(855, True)
"""

from __future__ import annotations

from .._validation import check_rate
from ._assurance import DEFAULT_ASSURANCE_TOLERANCE, MAX_OUTCOMES
from ._checks import plan_prior
from ._comparison_plan import plan_comparison_size
from ._comparison_result import ComparisonSizePlan
from ._criterion import DRIFT_ALLOWANCE, normal_half_width, plan_counts
from ._half_width import interval_half_width
from ._plan import PLAN_MODELS, plan_test_size
from ._rates import rates_for_value
from ._result import TestSizePlan
from ._search import MAX_SIZE, TargetUnreachableError, smallest_size, stable_size
from ._size_plan import SizePlan

__all__ = [
    "DEFAULT_ASSURANCE_TOLERANCE",
    "DRIFT_ALLOWANCE",
    "MAX_OUTCOMES",
    "MAX_SIZE",
    "PLAN_MODELS",
    "ComparisonSizePlan",
    "SizePlan",
    "TargetUnreachableError",
    "TestSizePlan",
    "check_rate",
    "interval_half_width",
    "normal_half_width",
    "plan_comparison_size",
    "plan_counts",
    "plan_prior",
    "plan_test_size",
    "rates_for_value",
    "smallest_size",
    "stable_size",
]
