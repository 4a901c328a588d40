"""Every public function and result method that gives an interval says plainly in its docstring that
the rows are assumed independent (and, where it takes ``cluster=``, that this holds without it): a
practitioner with 5 rows per person (ICC 0.47) saw intervals cover 70–78 % with nothing said.

The list below is maintained by hand: a new function or result with an interval joins it (the last
test finds public callables with a ``confidence`` parameter or an ``interval`` method not listed)."""

from __future__ import annotations

import inspect
import re

import pytest

import confusionlab as cl
import confusionlab.bias as bias
from confusionlab.distribution import Comparison
from confusionlab.paired import Ranking
from confusionlab.scores import GroupedCurves, MulticlassRocCurve

#: Public functions whose results carry intervals.
FUNCTIONS = {
    "evaluate": cl.evaluate,
    "metric_distribution": cl.metric_distribution,
    "compare": cl.compare,
    "compare_paired": cl.compare_paired,
    "compare_paired_cells": cl.compare_paired_cells,
    "rank_models": cl.rank_models,
    "roc_curve": cl.roc_curve,
    "precision_recall_curve": cl.precision_recall_curve,
    "compare_auc": cl.compare_auc,
    "calibration": cl.calibration,
    "choose_threshold": cl.choose_threshold,
    "decision_curve": cl.decision_curve,
    "cost_curve": cl.cost_curve,
    "plan_test_size": cl.plan_test_size,
    "plan_comparison_size": cl.plan_comparison_size,
    "evaluate_items": cl.evaluate_items,
    "compare_items": cl.compare_items,
    "pass_at_k": cl.pass_at_k,
    "bias.report": bias.report,
    "bias.audit": bias.audit,
    "bias.plan_group_size": bias.plan_group_size,
}

#: Result classes whose ``interval`` method gives an interval.
RESULTS = {
    cls.__name__: cls
    for cls in (
        cl.Evaluation,
        cl.MetricDistribution,
        Comparison,
        cl.PairedComparison,
        Ranking,
        cl.RocCurve,
        cl.PrecisionRecallCurve,
        cl.AucComparison,
        MulticlassRocCurve,
        GroupedCurves,
        cl.Calibration,
        cl.ThresholdChoice,
        cl.GroupedThresholdChoice,
        cl.DecisionCurve,
        cl.CostCurve,
        cl.TestSizePlan,
        cl.ComparisonSizePlan,
        cl.ItemEvaluation,
        cl.ItemComparison,
        cl.PassAtK,
        bias.BiasMetric,
        bias.BiasReport,
        bias.Audit,
    )
}

#: The plain statement: "… are assumed independent" (rows, examples, items, objects, forecasts).
SAID = re.compile(r"\b(rows|examples|items|objects|forecasts|test items)\b[^.]{0,40}\bassumed independent", re.I)
#: For functions that take ``cluster=``: that the assumption holds without it.
WITHOUT_CLUSTER = re.compile(r"without ``cluster=``", re.I)


def _text(obj) -> str:
    return " ".join((inspect.getdoc(obj) or "").split())


@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_the_function_says_the_rows_are_assumed_independent(name):
    function = FUNCTIONS[name]
    text = _text(function)
    assert SAID.search(text), f"{name}'s docstring must say that the rows are assumed independent"
    if "cluster" in inspect.signature(function).parameters:
        assert WITHOUT_CLUSTER.search(text), f"{name}: say that the rows are assumed independent without cluster="


@pytest.mark.parametrize("name", list(RESULTS))
def test_the_interval_says_the_rows_are_assumed_independent(name):
    text = _text(RESULTS[name].interval)
    assert SAID.search(text), f"{name}.interval's docstring must say that the rows are assumed independent"


def test_the_lists_hold_every_public_function_and_result_with_an_interval():
    listed = set(FUNCTIONS.values())
    for module in (cl, bias):
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isfunction(obj) and "confidence" in inspect.signature(obj).parameters:
                assert obj in listed, f"add {name} to FUNCTIONS"
            if inspect.isclass(obj) and callable(getattr(obj, "interval", None)) and obj.__module__ != "builtins":
                if issubclass(obj, cl.InvalidParameterError):
                    continue
                assert obj in RESULTS.values() or name in _NOT_ROWS, f"add {name} to RESULTS (or _NOT_ROWS with why)"


#: Classes with an ``interval`` that is not about test rows.
_NOT_ROWS = {
    "GroupSizePlan": "a planned group size: bias.plan_group_size's docstring says it",
    "StabilityResult": "refits of a model, not test rows",
    "StabilityCurve": "refits of a model, not test rows",
    "GroupedAucComparison": "each group's AucComparison.interval says it",
    "GroupedDecisionCurve": "each group's DecisionCurve.interval says it",
}
