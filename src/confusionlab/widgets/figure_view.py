"""Figure widgets: a result's summary in words above the figure of its ``plot()``.

The view of the results that have no interactive widget yet: an ``ipywidgets.HTML`` holding
the summary and the figure as an embedded PNG, so that it draws in the static export too.
The scores results (:class:`~confusionlab.scores.AucComparison`,
:class:`~confusionlab.scores.GroupedCurves`, :class:`~confusionlab.scores.GroupedAucComparison`,
:class:`~confusionlab.scores.MulticlassRocCurve`),
:class:`~confusionlab.bias.GroupSizePlan` (whose facet sizes
:class:`~confusionlab.PlannerView`'s test-size sliders do not plan) and a single rate's true value
(:class:`~confusionlab.distribution.true_value.RateDistribution`: a continuous Beta, where
:class:`~confusionlab.MetricPMF` draws a lattice) register it here, and so do the item results
(:class:`~confusionlab.ItemEvaluation`, :class:`~confusionlab.ItemComparison`,
:class:`~confusionlab.PassAtK`), the paired size plan (:class:`~confusionlab.ComparisonSizePlan`),
and the grouped threshold choice
(:class:`~confusionlab.GroupedThresholdChoice`; one group's :class:`~confusionlab.ThresholdChoice`
has :class:`~confusionlab.DecisionView`), the grouped decision curve (one
:class:`~confusionlab.DecisionCurve` has :class:`~confusionlab.DecisionCurveView`).
"""

from __future__ import annotations

import html

import ipywidgets

from .._result import Result, figure_data_uri
from .._views import register_view
from ..bias import GroupSizePlan
from ..decision import GroupedDecisionCurve, GroupedThresholdChoice
from ..distribution.true_value import RateDistribution
from ..items import ItemComparison, ItemEvaluation, PassAtK
from ..planner import ComparisonSizePlan
from ..scores import AucComparison, GroupedAucComparison, GroupedCurves, MulticlassRocCurve

__all__ = ["figure_widget"]


def figure_widget(result: Result, *, css_class: str = "confusionlab-scores") -> ipywidgets.HTML:
    """An ``ipywidgets.HTML``: ``result``'s summary and the figure of its ``plot()``, in a
    ``<div>`` of class ``css_class``."""
    return ipywidgets.HTML(
        f"<div class='{html.escape(css_class)}'><p>{html.escape(result.summary())}</p>"
        f"<img alt='{html.escape(result.title)}' src='{figure_data_uri(result.plot())}'></div>"
    )


def _group_size_plan_widget(plan: GroupSizePlan) -> ipywidgets.HTML:
    return figure_widget(plan, css_class="confusionlab-group-size-plan")


register_view(AucComparison, figure_widget)
register_view(GroupedAucComparison, figure_widget)
register_view(GroupedCurves, figure_widget)
register_view(MulticlassRocCurve, figure_widget)
register_view(GroupSizePlan, _group_size_plan_widget)
register_view(RateDistribution, figure_widget)
register_view(ItemEvaluation, figure_widget)
register_view(ItemComparison, figure_widget)
register_view(PassAtK, figure_widget)
register_view(GroupedThresholdChoice, figure_widget)
register_view(GroupedDecisionCurve, figure_widget)
register_view(ComparisonSizePlan, figure_widget)
