"""EvaluationView: the numbers it sends are the Evaluation's; a refused metric changes nothing."""

from __future__ import annotations

import numpy as np
import pytest
import traitlets

from confusionlab.evaluation import evaluate
from confusionlab.widgets._common import buffer_array
from confusionlab.widgets.evaluation_view import EvaluationView


def _evaluation():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 200)
    pred = np.where(rng.random(200) < 0.8, y, 1 - y)
    runs = np.where(rng.random((5, 200)) < 0.9, pred, 1 - pred)
    return evaluate(y, refits=runs, groups=rng.choice(["a", "b"], 200), metrics=["f1", "recall"])


def test_view_sends_the_evaluations_numbers() -> None:
    ev = _evaluation()
    w = EvaluationView(ev, max_values=100_000)
    assert w.metric == "f1" and [p["group"] for p in w._panels] == ["a", "b", "all"]
    assert w._question == ev.question("f1") and "new refit" in w._question
    values = buffer_array(w, "_values")
    for k, name in enumerate(ev.groups):
        d = ev.distribution("f1", name)
        np.testing.assert_array_equal(values[w._offsets[k] : w._offsets[k + 1]], d.values)
        assert w._panels[k]["total_sd"] == pytest.approx(ev.decompose("f1", name)["total_sd"], abs=0)
    assert buffer_array(w, "_refit_means").size == 5 * 3
    assert len(w._unstable) == 10
    w.max_values = 100  # above it, a group's PMF is sent in bins that keep its mass
    probs = buffer_array(w, "_probabilities")
    assert probs[w._offsets[2] : w._offsets[3]].size == 10
    assert probs[w._offsets[2] : w._offsets[3]].sum() == pytest.approx(1, abs=1e-6)
    assert w._unstable[0]["stability"] == pytest.approx(np.nanmin(ev.stability.per_object))


def test_refused_metric_changes_nothing() -> None:
    w = EvaluationView(_evaluation())
    before = (w.metric, w._values, list(w._panels))
    with pytest.raises(traitlets.TraitError, match="metric"):
        w.metric = "no_such_metric"
    assert (w.metric, w._values, list(w._panels)) == before
    w.metric = "recall"
    assert w._panels[0]["value"] == w.evaluation.value("recall", "a")
    with pytest.raises(TypeError, match="evaluation"):
        EvaluationView("not an evaluation")
