"""Widgets refuse bad arguments with the library's one error, and name their models from the registry.

A refused widget value is a :class:`confusionlab.InvalidParameterError` (a ValueError and
a TypeError) and, for traitlets' own rollback of cross-validated values, a
``traitlets.TraitError`` too (``InvalidTraitError``).
"""

from __future__ import annotations

from typing import Any

import pytest
import traitlets

import confusionlab as cl
from confusionlab import models
from confusionlab.widgets import metric_pmf, roc_slice
from confusionlab.widgets._common import InvalidTraitError
from confusionlab.widgets.canvas_chart import series
from confusionlab.widgets.confusion_simplex import ConfusionSimplex, drawing_order
from confusionlab.widgets.explorer import Explorer
from confusionlab.widgets.metric_pmf import MetricPMF
from confusionlab.widgets.roc_slice import RocSlice


def test_the_model_lists_are_the_registrys() -> None:
    assert roc_slice.SLICE_MODELS == ("none", "binomial", "beta-binomial")
    assert roc_slice.SLICE_MODELS == ("none", *models.SLICE_MODELS)
    assert metric_pmf.PMF_MODELS == models.SLICE_MODELS == ("binomial", "beta-binomial")
    assert MetricPMF().models == ["binomial", "beta-binomial"]
    assert RocSlice.class_traits()["model"].values == roc_slice.SLICE_MODELS


def test_an_invalid_trait_error_is_both_errors() -> None:
    error = InvalidTraitError("x must be positive, got -1.")
    assert isinstance(error, cl.InvalidParameterError)
    assert isinstance(error, traitlets.TraitError)
    assert isinstance(error, ValueError) and isinstance(error, TypeError)


@pytest.mark.parametrize(
    ("make", "kwargs", "name"),
    [
        (RocSlice, {"p": 20, "tp": 21}, "tp"),
        (RocSlice, {"p": -3}, "p"),
        (RocSlice, {"tp": True}, "tp"),
        (RocSlice, {"metric": "nope"}, "metric"),
        (RocSlice, {"levels": [float("nan")]}, "levels"),
        (RocSlice, {"contour_metrics": ["nope"]}, "contour_metrics"),
        (RocSlice, {"contour_levels": {"f1": ["x"]}}, "contour_levels"),
        (RocSlice, {"tolerance": 0.5}, "tolerance"),
        (MetricPMF, {"models": ["dirichlet-multinomial"]}, "models"),
        (MetricPMF, {"confidence": 1.0}, "confidence"),
        (ConfusionSimplex, {"N": 301}, "N"),
        (ConfusionSimplex, {"N": 10, "slices": [11]}, "slices"),
        (ConfusionSimplex, {"slices": ["a"]}, "slices"),
        (ConfusionSimplex, {"N": 10, "observed": [1, 2, 3, 5]}, "observed"),
        (Explorer, {"N": 1}, "N"),
        (Explorer, {"N": 60, "p": 60}, "p"),
    ],
)
def test_refused_values_raise_invalid_parameter_error(make: Any, kwargs: dict[str, Any], name: str) -> None:
    with pytest.raises(cl.InvalidParameterError, match=name) as caught:
        make(**kwargs)
    assert isinstance(caught.value, traitlets.TraitError)


@pytest.mark.parametrize("make", [RocSlice, MetricPMF, lambda: ConfusionSimplex(N=10), Explorer])
def test_an_unknown_name_in_update_is_an_invalid_parameter(make: Any) -> None:
    widget = make()
    with pytest.raises(cl.InvalidParameterError, match="unknown"):
        widget.update(nope=1)
    with pytest.raises(TypeError, match="unknown"):  # what it raised before
        widget.update(nope=1)


def test_the_chart_series_and_the_drawing_order_check_their_arguments() -> None:
    with pytest.raises(cl.InvalidParameterError, match="kind"):
        series("pie", [1], [2])
    with pytest.raises(cl.InvalidParameterError, match="same length"):
        series("line", [1, 2], [2])
    with pytest.raises(cl.InvalidParameterError, match="stride"):
        drawing_order(4, 0)
    with pytest.raises(cl.InvalidParameterError, match="N"):
        drawing_order(True)
    with pytest.raises(cl.InvalidParameterError, match="N"):
        drawing_order(-1)
    with pytest.raises(cl.InvalidParameterError, match="larger stride"):
        drawing_order(1000, 1)
