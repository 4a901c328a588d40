"""One small instance of each result class of scores (for test_result_protocol)."""

from __future__ import annotations

import numpy as np

import confusionlab as cl

_RNG = np.random.default_rng(7)
_Y = np.r_[np.ones(30, dtype=int), np.zeros(40, dtype=int)]
_A = np.round(_RNG.normal(size=70) + 1.2 * _Y, 1)  # ties included
_B = _RNG.normal(size=70) + 0.8 * _Y
_C = _RNG.normal(size=70) + 0.4 * _Y


def _roc() -> cl.RocCurve:
    return cl.roc_curve(_Y, _A)


def _pr() -> cl.PrecisionRecallCurve:
    return cl.precision_recall_curve(_Y, _A)


def _comparison() -> cl.AucComparison:
    return cl.compare_auc(_Y, {"a": _A, "b": _B, "c": _C})


CASES = {"RocCurve": _roc, "PrecisionRecallCurve": _pr, "AucComparison": _comparison}


def _multiclass() -> cl.scores.MulticlassRocCurve:
    rng = np.random.default_rng(3)
    y = np.repeat(["a", "b", "c"], 20)
    proba = rng.dirichlet([1, 1, 1], 60) + np.eye(3)[np.repeat([0, 1, 2], 20)]
    return cl.roc_curve(y, proba, multi_class="ovr")


CASES["MulticlassRocCurve"] = _multiclass


def _grouped() -> cl.scores.GroupedCurves:
    return cl.roc_curve(_Y, _A, groups=np.tile(["u", "v"], 35))


CASES["GroupedCurves"] = _grouped


def _grouped_comparison() -> cl.scores.GroupedAucComparison:
    return cl.compare_auc(_Y, {"a": _A, "b": _B, "c": _C}, groups=np.tile(["u", "v"], 35))


CASES["GroupedAucComparison"] = _grouped_comparison
