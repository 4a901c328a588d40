"""ConfusionLab: an honest evaluation workbench for classifiers in Jupyter.

``import confusionlab`` loads almost nothing: every public name is imported from its
module on first use (PEP 562), so that the import stays light outside Jupyter and a
script pays for scipy, the widgets or a subpackage (:mod:`~confusionlab.bias`,
:mod:`~confusionlab.stability`, :mod:`~confusionlab.lessons`, …) only when it uses them.

``dir(confusionlab)`` lists the public names (:data:`__all__`) and those subpackages;
``confusionlab.__version__`` is the one place the version is written (the build reads it).

Examples
--------
>>> import confusionlab as cl
>>> "metric_distribution" in dir(cl), "import_module" in dir(cl)
(True, False)
>>> cl.stability.__name__
'confusionlab.stability'
"""

from importlib import import_module as _import_module

from ._errors import InvalidParameterError, TooLargeError

# Eager, unlike every other name: the function ``calibration`` shadows its subpackage's name, and
# the import system binds the subpackage to this attribute when it is first imported (by any
# module), so the function is bound once, here, after it. The subpackage imports scipy only
# inside its functions, which keeps this line cheap.
from .calibration import Calibration, calibration

__version__ = "0.1.0"

#: The module of every public name loaded on first access (``__getattr__`` below).
_LAZY = {
    "METRICS": "confusionlab.metrics",
    "Metric": "confusionlab.metrics",
    "metric_value": "confusionlab.metrics",
    "ConfusionMatrix": "confusionlab.confusion",
    "contour": "confusionlab.contours",
    "simplex_points": "confusionlab.lattice",
    "slice_lattice": "confusionlab.lattice",
    "memory_limit": "confusionlab._memory",
    "report": "confusionlab.reporting",
    "set_memory_limit": "confusionlab._memory",
    "CostCurve": "confusionlab.decision",
    "DecisionCurve": "confusionlab.decision",
    "cost_curve": "confusionlab.decision",
    "decision_curve": "confusionlab.decision",
    "GroupedThresholdChoice": "confusionlab.decision",
    "ThresholdChoice": "confusionlab.decision",
    "choose_threshold": "confusionlab.decision",
    "MetricDistribution": "confusionlab.distribution",
    "compare": "confusionlab.distribution",
    "metric_distribution": "confusionlab.distribution",
    "Evaluation": "confusionlab.evaluation",
    "evaluate": "confusionlab.evaluation",
    "PairedComparison": "confusionlab.paired",
    "compare_paired": "confusionlab.paired",
    "compare_paired_cells": "confusionlab.paired",
    "rank_models": "confusionlab.paired",
    "TargetUnreachableError": "confusionlab.planner",
    "TestSizePlan": "confusionlab.planner",
    "ComparisonSizePlan": "confusionlab.planner",
    "plan_comparison_size": "confusionlab.planner",
    "plan_test_size": "confusionlab.planner",
    "ItemComparison": "confusionlab.items",
    "ItemEvaluation": "confusionlab.items",
    "PassAtK": "confusionlab.items",
    "compare_items": "confusionlab.items",
    "evaluate_items": "confusionlab.items",
    "pass_at_k": "confusionlab.items",
    "read_inspect_log": "confusionlab.items",
    "read_lm_eval_samples": "confusionlab.items",
    "AucComparison": "confusionlab.scores",
    "PrecisionRecallCurve": "confusionlab.scores",
    "RocCurve": "confusionlab.scores",
    "compare_auc": "confusionlab.scores",
    "precision_recall_curve": "confusionlab.scores",
    "roc_curve": "confusionlab.scores",
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
    "CalibrationView": "confusionlab.widgets.calibration_view",
    "DecisionView": "confusionlab.widgets.decision_view",
    "DecisionCurveView": "confusionlab.widgets.decision_curve_view",
    "CostCurveView": "confusionlab.widgets.cost_curve_view",
    "RocView": "confusionlab.widgets.roc_view",
    "PrecisionRecallView": "confusionlab.widgets.roc_view",
}

__all__ = [
    "METRICS",
    "AucComparison",
    "AuditView",
    "BiasView",
    "Calibration",
    "CalibrationView",
    "ComparisonSizePlan",
    "ConfusionMatrix",
    "ConfusionSimplex",
    "CostCurve",
    "CostCurveView",
    "DecisionCurve",
    "DecisionCurveView",
    "DecisionView",
    "Evaluation",
    "EvaluationView",
    "Explorer",
    "GroupedThresholdChoice",
    "InvalidParameterError",
    "ItemComparison",
    "ItemEvaluation",
    "Metric",
    "MetricDistribution",
    "MetricPMF",
    "PairedComparison",
    "PairedView",
    "PassAtK",
    "PlannerView",
    "PrecisionRecallCurve",
    "PrecisionRecallView",
    "RocCurve",
    "RocSlice",
    "RocView",
    "StabilityView",
    "TargetUnreachableError",
    "TestSizePlan",
    "ThresholdChoice",
    "TooLargeError",
    "calibration",
    "choose_threshold",
    "compare",
    "compare_auc",
    "compare_items",
    "compare_paired",
    "compare_paired_cells",
    "contour",
    "cost_curve",
    "decision_curve",
    "evaluate",
    "evaluate_items",
    "memory_limit",
    "metric_distribution",
    "metric_value",
    "pass_at_k",
    "plan_comparison_size",
    "plan_test_size",
    "precision_recall_curve",
    "rank_models",
    "read_inspect_log",
    "read_lm_eval_samples",
    "report",
    "roc_curve",
    "set_memory_limit",
    "simplex_points",
    "slice_lattice",
]


#: Subpackages and modules a user imports by name (``from confusionlab import bias``);
#: ``confusionlab.<name>`` imports them on first access, and ``dir()`` lists them.
_SUBMODULES = (
    "bias",
    "datasets",
    "decision",
    "evaluation",
    "export",
    "items",
    "lessons",
    "metrics",
    "models",
    "paired",
    "palette",
    "planner",
    "scores",
    "stability",
    "widgets",
)


def __getattr__(name: str) -> object:
    if name in _LAZY:
        value = getattr(_import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    if name in _SUBMODULES:
        return _import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'confusionlab' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*__all__, *_SUBMODULES})
