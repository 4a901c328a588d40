"""The shared arguments of every public function and result method, against one table.

The walk (scikit-learn's ``sklearn/tests/test_public_functions.py`` is the model) visits every
public function of :mod:`confusionlab` and of its job subpackages, and every public method of
every public result class. Wherever a shared argument appears (``target``, ``prior``,
``confidence``, ``random_state``, ``n_draws``, ``n_resamples``, ``data``, ``groups``,
``positive``, ``tolerance``, ``on_undefined``, ``cluster``) it checks:

* its default is the one :mod:`confusionlab.models.defaults` records (the entry point's own
  row of :data:`~confusionlab.models.defaults.DEFAULTS`, else
  :data:`~confusionlab.models.defaults.SHARED_DEFAULTS`);
* it is annotated;
* an invalid value raises :class:`confusionlab.InvalidParameterError` naming the argument,
  on a small valid call of each function (:data:`CALLS`) and of each method on one result of
  its class (the protocol walk's ``CASES``).

A public function that takes a shared argument, or a method that takes ``target``, ``prior``,
``random_state``, ``n_draws`` or ``n_resamples``, must have its row in the table.
"""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import confusionlab as cl
from confusionlab._result import Result
from confusionlab.models.defaults import DEFAULTS, REQUIRED, SHARED_DEFAULTS

HERE = Path(__file__).parent

#: The namespaces whose ``__all__`` is walked; a function public in two keeps its first name.
NAMESPACES = ("", "evaluation", "paired", "planner", "scores", "calibration", "bias", "stability", "items", "decision")
#: The shared argument names.
SHARED = (
    "target",
    "prior",
    "confidence",
    "random_state",
    "n_draws",
    "n_resamples",
    "data",
    "groups",
    "positive",
    "tolerance",
    "on_undefined",
    "cluster",
)
#: A method taking one of these asks its own question or draws: it has its row in the table.
QUESTION = ("target", "prior", "random_state", "n_draws", "n_resamples")
#: One invalid value of each shared argument.
INVALID = {
    "target": "tomorrow",
    "prior": -1.0,
    "confidence": 1.5,
    "random_state": "x",
    "n_draws": 0,
    "n_resamples": 0,
    "tolerance": -1.0,
    "on_undefined": "explode",
    "positive": "no-such-class",
    "groups": ["a", "b", "c"],
    "data": 42,
    "cluster": ["a", "b", "c"],
}


def _namespace(short: str):
    return importlib.import_module(f"confusionlab.{short}" if short else "confusionlab")


def _public_functions() -> dict[str, object]:
    found: dict[str, object] = {}
    seen: set[int] = set()
    for short in NAMESPACES:
        module = _namespace(short)
        for name in module.__all__:
            obj = getattr(module, name)
            if not inspect.isfunction(obj) or id(obj) in seen:
                continue
            seen.add(id(obj))
            found[f"{short}.{name}" if short else name] = obj
    return found


def _result_classes() -> dict[str, type]:
    classes: dict[str, type] = {}
    for short in NAMESPACES:
        module = _namespace(short)
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isclass(obj) and issubclass(obj, Result) and obj in Result.registry:
                classes.setdefault(name, obj)
    return classes


def _public_methods() -> dict[str, object]:
    found: dict[str, object] = {}
    for cls_name, cls in _result_classes().items():
        for name, member in inspect.getmembers(cls, inspect.isfunction):
            if not name.startswith("_"):
                found[f"{cls_name}.{name}"] = member
    return found


def _shared(func) -> list[inspect.Parameter]:
    return [p for p in inspect.signature(func).parameters.values() if p.name in SHARED]


FUNCTIONS = _public_functions()
METHODS = _public_methods()
WALKED = {**FUNCTIONS, **METHODS}


def _expected(key: str, name: str):
    if key in DEFAULTS:
        return DEFAULTS[key].default(name)
    return SHARED_DEFAULTS[name]


def _same(default, expected) -> bool:
    if expected is REQUIRED:
        return default is inspect.Parameter.empty
    if expected is None or isinstance(expected, str):
        return default is expected or (isinstance(default, str) and default == expected)
    return type(default) is not bool and default == expected


# ----------------------------------------------------------------------------- the table
def test_every_entry_point_has_its_row():
    missing = [key for key, func in FUNCTIONS.items() if _shared(func) and key not in DEFAULTS]
    missing += [key for key, func in METHODS.items() if {p.name for p in _shared(func)} & set(QUESTION)]
    missing = [key for key in missing if key not in DEFAULTS]
    assert not missing, f"add these entry points to confusionlab.models.defaults.DEFAULTS: {missing}"


def test_every_row_names_an_entry_point():
    assert not set(DEFAULTS) - set(WALKED), (
        f"rows of DEFAULTS without a public entry point: {set(DEFAULTS) - set(WALKED)}"
    )


def test_the_walk_sees_the_entry_points():
    assert {"evaluate", "compare_paired", "bias.audit", "stability.phi"} <= set(FUNCTIONS)
    assert {"RocCurve.interval", "Evaluation.interval", "Calibration.p_value"} <= set(METHODS)


@pytest.mark.parametrize("key", sorted(k for k, f in WALKED.items() if _shared(f)))
def test_shared_defaults_and_annotations(key):
    wrong = []
    for param in _shared(WALKED[key]):
        expected = _expected(key, param.name)
        if not _same(param.default, expected):
            wrong.append(f"{param.name}={param.default!r} (the table says {expected!r})")
        if param.annotation is inspect.Parameter.empty:
            wrong.append(f"{param.name} has no annotation")
    assert not wrong, f"{key}: " + "; ".join(wrong)


def test_practitioner_questions_answer_the_true_value():
    practitioner = [
        "evaluate",
        "compare_paired",
        "compare_paired_cells",
        "rank_models",
        "plan_test_size",
        "plan_comparison_size",
        "bias.plan_group_size",
        "bias.report",
        "bias.audit",
        "roc_curve",
        "precision_recall_curve",
        "compare_auc",
        "calibration",
        "RocCurve.interval",
        "PrecisionRecallCurve.interval",
        "MulticlassRocCurve.interval",
        "AucComparison.interval",
    ]
    assert {key: DEFAULTS[key].target for key in practitioner} == dict.fromkeys(practitioner, "true_value")
    assert DEFAULTS["metric_distribution"].target == "next_test_set"


def test_one_seed_everywhere_but_rvs():
    seeds = {
        key: row.random_state
        for key, row in DEFAULTS.items()
        if "random_state" in inspect.signature(WALKED[key]).parameters
    }
    assert {key for key, seed in seeds.items() if seed != 0} <= {
        "MetricDistribution.rvs",  # scipy's convention: fresh draws
        "Calibration.p_value",  # None: the result's own seed, itself 0 by default
        "CalibrationSet.p_value",
        "Calibration.test",  # the same seed as p_value: the result's own
        "CalibrationSet.test",
    }


# ----------------------------------------------------------------------------- invalid values
_Y = np.array([1, 0] * 10)
_PRED_A = np.array([1, 0, 0, 0, 1, 1, 1, 0, 1, 0] * 2)
_PRED_B = np.array([1, 1, 0, 0, 1, 0, 1, 0, 1, 0] * 2)
_SCORE = np.linspace(0.05, 0.95, 20) + 0.3 * _Y - 0.15
_SCORE_B = np.linspace(0.95, 0.05, 20) + 0.2 * _Y
_PROB = np.clip(_SCORE, 0.01, 0.99)
_FRAME = pd.DataFrame({"y": _Y, "a": _PRED_A, "b": _PRED_B, "s": _SCORE, "q": _PROB, "g": ["u", "v"] * 10})
_REFITS = np.array([_PRED_A, _PRED_B, _PRED_A])
_BIAS_FRAME = pd.DataFrame(
    {"sex": np.tile(["F", "M"], 60), "y": np.r_[np.ones(60, int), np.zeros(60, int)], "p": np.tile([1, 0, 0], 40)}
)
_BIAS = {"label": "y", "positive_values": [1], "facet": "sex", "facet_values": ["F"]}


def _curve_model(n_learners: int, seed: int):
    return _Majority()


class _Majority:
    """The smallest model stability_curve refits: it predicts the training majority."""

    def fit(self, X, y):
        self.label_ = np.bincount(np.asarray(y)).argmax()
        return self

    def predict(self, X):
        return np.full(len(X), self.label_)


#: A small valid call of each public function taking a shared argument (keyword overrides go on top).
CALLS = {
    "evaluate": lambda **kw: cl.evaluate(_Y, _PRED_A, **kw),
    "compare_paired": lambda **kw: cl.compare_paired(_Y, _PRED_A, _PRED_B, "accuracy", **kw),
    "compare_paired_cells": lambda **kw: cl.compare_paired_cells([[5, 1, 0, 2], [1, 1, 2, 6]], "accuracy", **kw),
    "rank_models": lambda **kw: cl.rank_models(_Y, {"a": _PRED_A, "b": _PRED_B}, "accuracy", **{"n_draws": 2000, **kw}),
    "metric_distribution": lambda **kw: cl.metric_distribution(
        cl.ConfusionMatrix(tp=8, fn=2, fp=3, tn=7), "recall", **kw
    ),
    "plan_test_size": lambda **kw: cl.plan_test_size("recall", prevalence=0.5, tpr=0.8, tnr=0.8, half_width=0.15, **kw),
    "plan_comparison_size": lambda **kw: cl.plan_comparison_size((0.85, 0.8), correlation=0.5, half_width=0.05, **kw),
    "planner.normal_half_width": lambda **kw: cl.planner.normal_half_width(
        cl.metrics.get_metric("recall"), np.array([100]), 0.5, 0.8, 0.8, **kw
    ),
    "planner.plan_prior": lambda **kw: cl.planner.plan_prior(**{"prior": None, "target": "true_value", **kw}),
    "planner.interval_half_width": lambda **kw: cl.planner.interval_half_width(
        cl.metric_distribution(cl.ConfusionMatrix(tp=8, fn=2, fp=3, tn=7), "accuracy"), **{"confidence": 0.9, **kw}
    ),
    "roc_curve": lambda **kw: cl.roc_curve(_Y, _SCORE, **kw),
    "precision_recall_curve": lambda **kw: cl.precision_recall_curve(_Y, _SCORE, **kw),
    "compare_auc": lambda **kw: cl.compare_auc(_Y, _SCORE, _SCORE_B, **kw),
    "choose_threshold": lambda **kw: cl.choose_threshold(_Y, _SCORE, cost=(1, 2), **kw),
    "calibration": lambda **kw: cl.calibration(_Y, _PROB, bins=4, **{"n_resamples": 50, "n_draws": 50, **kw}),
    "decision_curve": lambda **kw: cl.decision_curve(_Y, _PROB, thresholds=[0.2, 0.5], **kw),
    "cost_curve": lambda **kw: cl.cost_curve(_Y, _SCORE, **kw),
    "calibration.central_interval": lambda **kw: importlib.import_module("confusionlab.calibration").central_interval(
        np.array([0.25, 0.5, 0.25]), **kw
    ),
    "calibration.sidak_level": lambda **kw: importlib.import_module("confusionlab.calibration").sidak_level(
        **{"confidence": 0.95, **kw}, tests=3
    ),
    "bias.plan_group_size": lambda **kw: cl.bias.plan_group_size(
        "DPPL", size_a=300, rate_a=0.3, rate_d=0.2, half_width=0.12, **kw
    ),
    "bias.report": lambda **kw: cl.bias.report(**{"data": _BIAS_FRAME, "n_draws": 200, **kw}, **_BIAS),
    "bias.audit": lambda **kw: cl.bias.audit(
        **{"data": _BIAS_FRAME, **kw},
        label="y",
        positive_values=[1],
        predicted="p",
        facets=["sex"],
        metrics=["DPPL"],
        margin=0.1,
    ),
    "bias.pretraining": lambda **kw: cl.bias.pretraining(**{"data": _BIAS_FRAME, **kw}, **_BIAS),
    "bias.posttraining": lambda **kw: cl.bias.posttraining(**{"data": _BIAS_FRAME, **kw}, **_BIAS, predicted="p"),
    "bias.report_each_value": lambda **kw: cl.bias.report_each_value(
        **{"data": _BIAS_FRAME, **kw}, label="y", positive_values=[1], facet="sex"
    ),
    "evaluate_items": lambda **kw: cl.evaluate_items(_SCORE, **{"cluster": _FRAME["g"], **kw}),
    "compare_items": lambda **kw: cl.compare_items(_PRED_A, _PRED_B, **{"cluster": _FRAME["g"], **kw}),
    "pass_at_k": lambda **kw: cl.pass_at_k(_PRED_A, item=np.repeat(np.arange(5), 4), k=2, **kw),
    "stability.stability": lambda **kw: cl.stability.stability(_REFITS, _PRED_A, "nominal", **kw),
    "stability.phi": lambda **kw: cl.stability.phi(_REFITS, _Y, "nominal", **kw),
    "stability.psi": lambda **kw: cl.stability.psi(_REFITS, _REFITS, "nominal", **kw),
    "stability.fleiss_kappa": lambda **kw: cl.stability.fleiss_kappa(_REFITS, **kw),
    "stability.gwet_ac1": lambda **kw: cl.stability.gwet_ac1(_REFITS, **kw),
    "stability.icc": lambda **kw: cl.stability.icc(_REFITS, **kw),
    "stability.krippendorff_alpha": lambda **kw: cl.stability.krippendorff_alpha(_REFITS, **kw),
    "stability.stability_curve": lambda **kw: cl.stability.stability_curve(
        _curve_model, _Y[:, None], _Y, _Y[:, None], n_learners=(2, 4), repeats=2, progress=False, **kw
    ),
}
#: Arguments a result's method needs besides the shared ones.
METHOD_ARGUMENTS = {
    "Evaluation.interval_of": {"metric": "f1"},
    "BiasMetric.verdict": {"margin": 0.1},
    "PairedComparison.verdict": {"margin": 0.05},
    "StabilityCurve.result": {"index": 0},
    "RocCurve.interval": {"method": "bootstrap"},  # the draws' arguments are the bootstrap's
    "PrecisionRecallCurve.interval": {"method": "bootstrap"},
}
#: Results built here rather than from the protocol walk's cases: the multiclass curve whose
#: interval draws (Hand and Till's, bootstrapped).
OWN_RESULTS = {
    "MulticlassRocCurve": lambda: cl.roc_curve(
        np.repeat(["a", "b", "c"], 8),
        np.random.default_rng(3).dirichlet([1, 1, 1], 24) + np.eye(3)[np.repeat([0, 1, 2], 8)],
        multi_class="hand-till",
    ),
}
#: Shared arguments whose invalid value a call cannot reach on its small valid input.
UNREACHABLE = {
    ("bias.count_table", "data"): "count_table takes column selections built by report and audit",
}


def _cases() -> dict[str, object]:
    cases: dict[str, object] = {}
    for path in sorted(HERE.glob("results_*.py")):
        cases.update(importlib.import_module(path.stem).CASES)
    return cases


def _invalid_calls():
    for key, func in sorted(FUNCTIONS.items()):
        for param in _shared(func):
            if (key, param.name) not in UNREACHABLE:
                yield pytest.param(key, param.name, id=f"{key}-{param.name}")
    for key, func in sorted(METHODS.items()):
        for param in _shared(func):
            yield pytest.param(key, param.name, id=f"{key}-{param.name}")


def test_every_function_has_a_small_call():
    missing = [key for key, func in FUNCTIONS.items() if _shared(func) and key not in CALLS]
    missing = [key for key in missing if not all((key, p.name) in UNREACHABLE for p in _shared(FUNCTIONS[key]))]
    assert not missing, f"add a small valid call to CALLS for {missing}"


@pytest.fixture(scope="module")
def results():
    return {}


def _result(results, cls_name):
    if cls_name not in results:
        results[cls_name] = {**_cases(), **OWN_RESULTS}[cls_name]()
    return results[cls_name]


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize(("key", "name"), list(_invalid_calls()))
def test_an_invalid_value_is_refused_by_name(key, name, results):
    if key in FUNCTIONS:
        call = CALLS[key]
    else:
        cls_name, method = key.split(".")
        bound = getattr(_result(results, cls_name), method)

        def call(**kw):
            return bound(**{**METHOD_ARGUMENTS.get(key, {}), **kw})

    with pytest.raises(cl.InvalidParameterError, match=re.escape(name)):
        call(**{name: INVALID[name]})


#: Entry points whose default prior the test recomputes with the recorded α given explicitly.
PRIOR_CHECKED = ("evaluate", "metric_distribution", "plan_test_size", "bias.plan_group_size", "bias.report")


@pytest.mark.parametrize("key", PRIOR_CHECKED)
def test_the_recorded_prior_is_the_one_used(key):
    row = DEFAULTS[key]
    alpha = row.alpha[row.target]
    default, recorded, other = (
        repr(CALLS[key](**kw).interval()) for kw in ({}, {"prior": alpha}, {"prior": alpha + 1})
    )
    assert default == recorded != other
