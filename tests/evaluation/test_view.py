"""EvaluationView: the numbers it sends are the Evaluation's; a refused metric or selection changes nothing;
the linked RocSlice shows the selected group's matrix (scikit-learn's counts) and follows every selection."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import traitlets
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs
from scipy.stats import betabinom
from sklearn.metrics import confusion_matrix

from confusionlab.evaluation import evaluate
from confusionlab.widgets._common import buffer_array
from confusionlab.widgets.evaluation_view import EvaluationView
from confusionlab.widgets.roc_slice import RocSlice


def _evaluation():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 200)
    pred = np.where(rng.random(200) < 0.8, y, 1 - y)
    runs = np.where(rng.random((5, 200)) < 0.9, pred, 1 - pred)
    return evaluate(
        y, refits=runs, groups=rng.choice(["a", "b"], 200), metrics=["f1", "recall"], target="next_test_set"
    )


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
    assert w._panels[0]["value"] == w.evaluation.value_of("recall", "a")
    with pytest.raises(TypeError, match="evaluation"):
        EvaluationView("not an evaluation")


# --------------------------------------------------------------------------- the linked RocSlice
def _sklearn_counts(y: np.ndarray, pred: np.ndarray) -> dict[str, int]:
    """p, n, tp, tn of a RocSlice for (y, pred), from scikit-learn's confusion matrix."""
    tn, fp, fn, tp = (int(v) for v in confusion_matrix(y, pred, labels=[0, 1]).ravel())
    return {"p": tp + fn, "n": tn + fp, "tp": tp, "tn": tn}


def _slice_state(s: RocSlice) -> tuple[Any, ...]:
    return (s.p, s.n, s.tp, s.tn, s.model, s._values, s._pmf_tp, s._pmf_tn, s._pmf_lo)


def _data():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 300)
    pred = np.where(rng.random(300) < 0.8, y, 1 - y)
    runs = np.where(rng.random((4, 300)) < 0.9, pred, 1 - pred)
    groups = rng.choice(["F", "M", "X"], 300)
    return y, pred, runs, groups


def test_slice_view_shows_the_selected_group_of_the_first_refit_and_follows_clicks() -> None:
    y, _, runs, groups = _data()
    w = EvaluationView(evaluate(y, refits=runs, groups=groups, metrics=["f1"]))
    assert w.selected == "all"
    assert "first refit" in w._slice_note
    s = w.slice_view(size=300)
    # With refits only, the slice shows the first refit's matrix (scikit-learn's counts).
    assert (s.p, s.n, s.tp, s.tn) == tuple(_sklearn_counts(y, runs[0]).values())
    assert s.model == "beta-binomial" and s.metric == "f1" and s.size == 300
    calls: list[dict[str, Any]] = []
    update = s.update
    s.update = lambda **kw: (calls.append(kw), update(**kw))[1]  # type: ignore[method-assign]
    for group in ["M", "X", "F", "all"]:
        w.set_state({"selected": group})  # as the browser sends a click
        mask = groups == group if group != "all" else np.ones(y.size, bool)
        expected = _sklearn_counts(y[mask], runs[0][mask])
        assert (s.p, s.n, s.tp, s.tn) == tuple(expected.values())
        assert calls[-1] == {**expected, "model": "beta-binomial"}
        # The bubbles are the beta-binomial slice model of that matrix (marginals checked with scipy).
        for side, inner, lo, name in (("p", "tp", s._pmf_lo[0], "_pmf_tp"), ("n", "tn", s._pmf_lo[1], "_pmf_tn")):
            size, k = expected[side], expected[inner]
            reference = betabinom.pmf(np.arange(size + 1), size, k + 1, size - k + 1)
            drawn = buffer_array(s, name)
            np.testing.assert_allclose(drawn, reference[lo : lo + drawn.size], rtol=1e-6, atol=1e-9)
    assert len(calls) == 4  # one update per selection
    w.metric = "f1"  # a change of the panels alone does not move the slice
    w.confidence = 0.9
    assert len(calls) == 4


def test_slice_view_with_y_pred_uses_it_and_the_evaluations_model() -> None:
    y, pred, runs, groups = _data()
    w = EvaluationView(
        evaluate(
            y, pred, refits=runs, groups=groups, metrics=["macro_f1", "f1"], model="binomial", target="next_test_set"
        ),
        selected="X",
    )
    assert "first refit" not in w._slice_note and "Click a group" in w._slice_note
    s = w.slice_view()
    mask = groups == "X"
    assert (s.p, s.n, s.tp, s.tn) == tuple(_sklearn_counts(y[mask], pred[mask]).values())
    assert s.model == "binomial" and s.metric == "mcc"  # a macro average cannot colour a slice
    dm = EvaluationView(
        evaluate(y, pred, metrics=["f1"], model="dirichlet-multinomial", target="next_test_set")
    ).slice_view(model="none")
    assert dm.model == "none"
    assert EvaluationView(
        evaluate(y, pred, metrics=["f1"], model="dirichlet-multinomial", target="next_test_set")
    ).slice_view().model == ("beta-binomial")
    with pytest.raises(TypeError, match="tp"):
        w.slice_view(tp=3)


def test_refused_selection_changes_nothing() -> None:
    y, pred, _, groups = _data()
    groups = groups.copy()
    groups[(groups == "X") & (y == 1)] = "F"  # group X has no positives: a slice cannot show it
    w = EvaluationView(evaluate(y, pred, groups=groups, metrics=["f1"]))
    s = w.slice_view()
    before, slice_before = w.get_state(), _slice_state(s)
    for bad in ["Z", "", "all "]:
        with pytest.raises(traitlets.TraitError, match="selected"):
            w.selected = bad
        assert w.get_state() == before and _slice_state(s) == slice_before
    with pytest.raises(traitlets.TraitError, match="has 0 positives"):
        w.selected = "X"
    assert w.get_state() == before and _slice_state(s) == slice_before
    # From the browser: refused, and the old value goes back.
    with pytest.raises(traitlets.TraitError):
        w.set_state({"selected": "X"})
    assert w.selected == "all" and _slice_state(s) == slice_before
    # Without a linked slice (closed), X can be selected; a new slice of it is refused.
    s.close()
    w.selected = "X"
    assert _slice_state(s) == slice_before
    with pytest.raises(ValueError, match="positives"):
        w.slice_view()


def test_slice_view_needs_a_binary_evaluation() -> None:
    rng = np.random.default_rng(2)
    y = rng.integers(0, 3, 90)
    w = EvaluationView(evaluate(y, (y + (rng.random(90) < 0.3)) % 3))
    with pytest.raises(ValueError, match="positive="):
        w.slice_view()
    three = EvaluationView(evaluate(y, (y + 1) % 3, positive=2, metrics=["f1"])).slice_view()
    assert (three.p, three.tp) == (int(np.sum(y == 2)), 0)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    selected=hs.one_of(hs.text(max_size=5), hs.sampled_from(["F", "M", "X", "all"]), hs.integers(), hs.none()),
    kwargs=hs.dictionaries(
        hs.sampled_from(["metric", "size", "model", "tolerance", "p", "coordinates"]),
        hs.one_of(hs.integers(-5, 3000), hs.floats(allow_nan=True), hs.text(max_size=8), hs.none()),
        max_size=3,
    ),
)
def test_hostile_selection_and_slice_arguments(selected: Any, kwargs: dict[str, Any]) -> None:
    y, pred, _, groups = _data()
    w = EvaluationView(evaluate(y, pred, groups=groups, metrics=["f1"]))
    try:
        s = w.slice_view(**kwargs)
    except (TypeError, ValueError, traitlets.TraitError) as err:
        assert any(k in str(err) for k in kwargs), err
        s = w.slice_view()
    before, slice_before = w.get_state(), _slice_state(s)
    try:
        w.selected = selected
    except traitlets.TraitError as err:
        assert "selected" in str(err)
        assert w.get_state() == before and _slice_state(s) == slice_before
    else:
        mask = groups == selected if selected != "all" else np.ones(y.size, bool)
        assert (s.p, s.n, s.tp, s.tn) == tuple(_sklearn_counts(y[mask], pred[mask]).values())
