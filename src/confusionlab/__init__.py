"""ConfusionLab: an honest evaluation workbench for classifiers in Jupyter.

The exact core (confusion matrices, metrics, contours, uncertainty models and
metric distributions) is imported eagerly; widgets and the subpackages
(:mod:`~confusionlab.bias`, :mod:`~confusionlab.stability`, :mod:`~confusionlab.lessons`, …)
are imported on first use, so that ``import confusionlab`` stays light outside Jupyter.

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

from ._validation import InvalidParameterError, TooLargeError, memory_limit, set_memory_limit
from .calibration import Calibration, calibration  # the function shadows the subpackage's name here
from .confusion import ConfusionMatrix
from .contours import contour
from .decision import CostCurve, DecisionCurve, cost_curve, decision_curve
from .distribution import MetricDistribution, compare, metric_distribution
from .evaluation import Evaluation, evaluate
from .lattice import simplex_points, slice_lattice
from .metrics import METRICS, Metric, metric_value
from .paired import PairedComparison, compare_paired, compare_paired_cells, rank_models
from .planner import TargetUnreachableError, TestSizePlan, plan_test_size
from .scores import AucComparison, PrecisionRecallCurve, RocCurve, compare_auc, precision_recall_curve, roc_curve

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
    "CalibrationView": "confusionlab.widgets.calibration_view",
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
    "ConfusionMatrix",
    "ConfusionSimplex",
    "CostCurve",
    "DecisionCurve",
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
    "PrecisionRecallCurve",
    "PrecisionRecallView",
    "RocCurve",
    "RocSlice",
    "RocView",
    "StabilityView",
    "TargetUnreachableError",
    "TestSizePlan",
    "TooLargeError",
    "calibration",
    "compare",
    "compare_auc",
    "compare_paired",
    "compare_paired_cells",
    "contour",
    "cost_curve",
    "decision_curve",
    "evaluate",
    "memory_limit",
    "metric_distribution",
    "metric_value",
    "plan_test_size",
    "precision_recall_curve",
    "rank_models",
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
    if name in _WIDGETS:
        return getattr(_import_module(_WIDGETS[name]), name)
    if name in _SUBMODULES:
        return _import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'confusionlab' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*__all__, *_SUBMODULES})
