"""ConfusionLab: an honest evaluation workbench for classifiers in Jupyter.

The exact core (confusion matrices, metrics, contours, uncertainty models and
metric distributions) is imported eagerly; widgets are imported on first use so
that ``import confusionlab`` stays light outside Jupyter.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from ._validation import InvalidParameterError, TooLargeError, memory_limit, set_memory_limit
from .confusion import ConfusionMatrix
from .contours import contour
from .distribution import MetricDistribution, compare, metric_distribution
from .evaluation import Evaluation, evaluate
from .lattice import simplex_points, slice_lattice
from .metrics import METRICS, Metric, metric_value
from .paired import PairedComparison, compare_paired, compare_paired_cells, rank_models
from .planner import TargetUnreachableError, TestSizePlan, plan_test_size

__version__ = "0.1.0"

_WIDGETS = {
    "RocSlice": "confusionlab.widgets.roc_slice",
    "StabilityView": "confusionlab.widgets.stability_view",
    "BiasView": "confusionlab.widgets.bias_view",
    "ConfusionSimplex": "confusionlab.widgets.confusion_simplex",
    "MetricPMF": "confusionlab.widgets.metric_pmf",
    "Explorer": "confusionlab.widgets.explorer",
    "EvaluationView": "confusionlab.widgets.evaluation_view",
    "PairedView": "confusionlab.widgets.paired_view",
    "AuditView": "confusionlab.widgets.audit_view",
    "PlannerView": "confusionlab.widgets.planner_view",
}

__all__ = [
    "METRICS",
    "AuditView",
    "BiasView",
    "ConfusionMatrix",
    "ConfusionSimplex",
    "Evaluation",
    "EvaluationView",
    "Explorer",
    "InvalidParameterError",
    "Metric",
    "MetricDistribution",
    "MetricPMF",
    "PairedComparison",
    "PairedView",
    "PlannerView",
    "RocSlice",
    "StabilityView",
    "TargetUnreachableError",
    "TestSizePlan",
    "TooLargeError",
    "compare",
    "compare_paired",
    "compare_paired_cells",
    "contour",
    "evaluate",
    "memory_limit",
    "metric_distribution",
    "metric_value",
    "plan_test_size",
    "rank_models",
    "set_memory_limit",
    "simplex_points",
    "slice_lattice",
]


def __getattr__(name: str) -> Any:
    if name in _WIDGETS:
        return getattr(import_module(_WIDGETS[name]), name)
    raise AttributeError(f"module 'confusionlab' has no attribute {name!r}")
