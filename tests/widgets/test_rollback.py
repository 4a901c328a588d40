"""Widgets validate before they change anything.

A refused update — an invalid value, or any exception of the core while the new state
is computed — leaves every trait, every buffer drawn in the browser and every
generation as it was, sends the browser nothing, and re-raises. The failures are
provoked by replacing the core function a widget calls with one that raises.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import traitlets

from confusionlab import bias
from confusionlab import stability as st
from confusionlab.widgets import bias_view, confusion_simplex, metric_pmf, roc_slice, stability_view
from confusionlab.widgets._common import StatefulWidget
from confusionlab.widgets.bias_view import BiasView
from confusionlab.widgets.confusion_simplex import ConfusionSimplex
from confusionlab.widgets.explorer import Explorer
from confusionlab.widgets.metric_pmf import MetricPMF
from confusionlab.widgets.roc_slice import RocSlice
from confusionlab.widgets.stability_view import StabilityView


class CoreFailure(RuntimeError):
    """What the patched core raises."""


def fail(*args: Any, **kwargs: Any) -> Any:
    raise CoreFailure("the core failed")


def traits(widget: traitlets.HasTraits) -> dict[str, Any]:
    return {name: getattr(widget, name) for name in widget.trait_names() if name not in ("comm", "log", "keys")}


class Recorder:
    """Records what a widget sends to the browser (``send_state`` keys)."""

    def __init__(self, widget: Any) -> None:
        self.sent: list[set[str]] = []
        original = widget.send_state

        def send_state(key: Any = None) -> None:
            keys = {key} if isinstance(key, str) else set(key or ())
            if keys:
                self.sent.append(keys)
            original(key)

        widget.send_state = send_state


def assert_unchanged(widget: Any, before: dict[str, Any], recorder: Recorder | None = None) -> None:
    after = traits(widget)
    changed = [k for k in before if not (before[k] is after[k] or before[k] == after[k])]
    assert changed == []
    if recorder is not None:
        assert recorder.sent == []


# ----------------------------------------------------------------------------- RocSlice
def test_roc_slice_rolls_back_when_the_core_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    w = RocSlice(p=20, n=40, tp=16, tn=32, model="binomial", contour_metrics=["f1"])
    before, sent = traits(w), Recorder(w)
    monkeypatch.setattr(roc_slice, "contour", fail)
    with pytest.raises(CoreFailure):
        w.update(p=30, n=50, tp=10, metric="accuracy")
    assert_unchanged(w, before, sent)
    with pytest.raises(CoreFailure):  # one trait at a time, as code or a slider sets it
        w.n = 41
    assert_unchanged(w, before, sent)
    monkeypatch.setattr(roc_slice, "slice_model", fail)
    with pytest.raises(CoreFailure):
        w.model = "beta-binomial"
    assert_unchanged(w, before, sent)
    monkeypatch.undo()
    w.update(p=30, tp=10)  # and it still works
    assert w.lattice()[2].shape == (31, 41)


def test_roc_slice_refused_values_change_nothing() -> None:
    w = RocSlice(p=20, n=40)
    before, sent = traits(w), Recorder(w)
    for bad in (dict(p=10, tp=11), dict(tolerance=0.5), dict(tolerance=-1e-3), dict(levels=[float("nan")])):
        with pytest.raises(traitlets.TraitError):
            w.update(**bad)
        assert_unchanged(w, before, sent)
    with pytest.raises(TypeError, match="unknown traits"):
        w.update(q=1)
    assert_unchanged(w, before, sent)


def test_a_drag_the_core_refuses_goes_back_to_the_browser(monkeypatch: pytest.MonkeyPatch) -> None:
    w = RocSlice(p=20, n=40, tp=16, tn=32)
    before, sent = traits(w), Recorder(w)
    monkeypatch.setattr(roc_slice, "contour", fail)
    with pytest.raises(CoreFailure):
        w.set_state({"tp": 17, "tn": 30})  # as the browser sends a drag
    assert (w.tp, w.tn) == (16, 32)
    assert [k for k in before if before[k] != getattr(w, k)] == []
    assert sent.sent and set().union(*sent.sent) == {"tp", "tn"}  # the old values, back to the browser


def test_the_default_tolerance_is_the_librarys() -> None:
    from confusionlab._validation import DEFAULT_TOLERANCE

    assert RocSlice().tolerance == MetricPMF().tolerance == ConfusionSimplex(N=10).tolerance == DEFAULT_TOLERANCE
    with pytest.raises(traitlets.TraitError, match="tolerance must lie in"):
        RocSlice(tolerance=0.5)


# ----------------------------------------------------------------------------- MetricPMF
def test_metric_pmf_rolls_back_when_the_core_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    w = MetricPMF(p=20, n=40, tp=16, tn=32)
    before, sent = traits(w), Recorder(w)
    shown = w.distributions()
    monkeypatch.setattr(metric_pmf, "metric_distribution", fail)
    with pytest.raises(CoreFailure):
        w.update(p=30, tp=24, metric="f1", generation=5)
    assert_unchanged(w, before, sent)
    assert w.distributions() == shown
    with pytest.raises(CoreFailure):
        w.confidence = 0.5
    assert_unchanged(w, before, sent)
    with pytest.raises(traitlets.TraitError, match="confidence"):
        w.update(confidence=1.5, p=30)
    assert_unchanged(w, before, sent)


def test_metric_pmf_rolls_back_when_the_core_refuses_memory() -> None:
    from confusionlab._validation import set_memory_limit

    w = MetricPMF(p=20, n=40, tp=16, tn=32, models=["binomial"])
    before, sent = traits(w), Recorder(w)
    set_memory_limit(1024)
    try:
        with pytest.raises(ValueError):
            w.update(p=5000, n=5000, tp=4000, tn=3500, tolerance=0)
    finally:
        set_memory_limit(None)
    assert_unchanged(w, before, sent)


# ----------------------------------------------------------------------------- ConfusionSimplex
def test_simplex_rolls_back_when_the_core_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    w = ConfusionSimplex(N=30, observed=[8, 2, 5, 15], cloud="beta-binomial")
    before, sent = traits(w), Recorder(w)
    computed = dict(w._computed)
    monkeypatch.setattr(confusion_simplex, "metric_values", fail)  # the metric on the new lattice
    with pytest.raises(CoreFailure):
        w.update(N=31, observed=[8, 2, 6, 15], slices=[10])
    assert_unchanged(w, before, sent)
    assert w._computed == computed
    monkeypatch.setattr(confusion_simplex, "simplex_model", fail)
    with pytest.raises(CoreFailure):
        w.cloud = "dirichlet-multinomial"
    assert_unchanged(w, before, sent)
    monkeypatch.undo()
    w.update(N=31, observed=[8, 2, 6, 15])  # recomputes what the failure left undone
    assert w.points == 5984 and w.values().size == 5984  # C(34, 3)


# ----------------------------------------------------------------------------- Explorer
class ManualScheduler:
    def __init__(self) -> None:
        self.pending: list = []

    def __call__(self, callback: Any) -> None:
        self.pending.append(callback)

    def run(self) -> None:
        while self.pending:
            self.pending.pop(0)()


def explorer_state(x: Explorer) -> dict[str, Any]:
    state = {"explorer": traits(x), "shown": x.shown}
    for name, view in (("slice", x.slice), ("pmf", x.pmf), ("simplex", x.simplex)):
        state[name] = traits(view)
    state["sliders"] = {k: (s.value, s.max) for k, s in x.sliders.items()}
    return state


def test_explorer_rolls_back_every_view_when_one_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    sched = ManualScheduler()
    x = Explorer(scheduler=sched)
    before = explorer_state(x)
    recorders = [Recorder(v) for v in x.views]
    # The slice updates first and succeeds; the PMF fails: the slice must go back too.
    monkeypatch.setattr(metric_pmf, "metric_distribution", fail)
    x.set(N=100, p=30, tp=24, tn=56)
    with pytest.raises(CoreFailure):
        sched.run()
    after = explorer_state(x)
    assert after == before
    assert x.slice.generation == x.pmf.generation == x.generation == 1
    assert all(r.sent == [] for r in recorders)
    assert "could not show N = 100" in x._status.value
    # A slider moved to the failing value snaps back.
    x.sliders["N"].value = 90
    with pytest.raises(CoreFailure):
        sched.run()
    assert x.sliders["N"].value == 60 and x.N == 60
    monkeypatch.undo()
    x.set(N=100, p=30, tp=24, tn=56)
    sched.run()
    assert x.generation == x.slice.generation == x.pmf.generation == 2
    assert x.shown == x.state and x.slice.p == 30


def test_explorer_without_a_loop_raises_at_once_and_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    x = Explorer()
    before = explorer_state(x)
    monkeypatch.setattr(confusion_simplex, "slice_model", fail)  # the last view to update
    with pytest.raises(CoreFailure):
        x.set(N=61, tp=15)
    assert explorer_state(x) == before


def test_explorer_at_n_100000_with_mcc_shows_one_consistent_state() -> None:
    x = Explorer(metric="mcc")
    x.set(N=100_000, p=30_000, tp=24_000, tn=56_000)
    assert x.shown == x.state
    assert x.slice.generation == x.pmf.generation == x.generation == 2
    assert (x.pmf.p, x.pmf.n, x.slice.tp) == (30_000, 70_000, 24_000)


# ----------------------------------------------------------------------------- BiasView
@pytest.fixture(scope="module")
def report() -> Any:
    table = bias.CountTable.from_confusion(a=(2718, 3678, 84, 13900), d=(433, 679, 10, 8660))
    return bias.report_from_counts(table, n_draws=500)


def view_state(v: Any) -> dict[str, Any]:
    return {"traits": traits(v), "slider": v.slider.value, "table": v.table.value}


def test_bias_view_refuses_a_confidence_before_changing_anything(report: Any) -> None:
    v = BiasView(report, n_draws=20)
    before = view_state(v)
    for bad in (5.0, 0.0, 1.0, float("nan")):
        with pytest.raises(traitlets.TraitError, match="confidence"):
            v.confidence = bad
        assert view_state(v) == before
    v.confidence = 0.3  # valid, below the slider's range: the slider widens to show it
    assert v.slider.value == 0.3 and "30% interval" in v.table.value


def test_bias_view_rolls_back_when_the_table_fails(report: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    v = BiasView(report, n_draws=20)
    before = view_state(v)
    monkeypatch.setattr(bias_view, "metrics_table_html", fail)
    with pytest.raises(CoreFailure):
        v.confidence = 0.6
    assert view_state(v) == before


def test_roc_points_read_the_columns_of_the_count_table(report: Any) -> None:
    cm = report.counts.confusion()
    fpr, tpr = bias_view.roc_points(cm)
    cols = bias_view.confusion_columns(cm)
    assert tpr.tolist() == (cols["tp"] / (cols["tp"] + cols["fn"])).tolist()
    assert fpr.tolist() == (cols["fp"] / (cols["fp"] + cols["tn"])).tolist()
    fpr, tpr = bias_view.roc_points(np.zeros((2, 4), dtype=int))  # empty facets: no point
    assert np.isnan(fpr).all() and np.isnan(tpr).all()


# ----------------------------------------------------------------------------- StabilityView
N = np.array([250, 500, 750, 1000, 2000])


def test_stability_view_refuses_a_target_before_changing_anything() -> None:
    view = StabilityView(n_learners=N, stability=st.twopl(N, 100.0, 1.0), stability_target=0.9)
    before = {"traits": traits(view), "label": view.label.value, "line": list(view._target_line.x)}
    for bad in (1.5, 1.0, 0.0, -0.2):
        with pytest.raises(traitlets.TraitError, match="target"):
            view.stability_target = bad
        assert {"traits": traits(view), "label": view.label.value, "line": list(view._target_line.x)} == before


def test_stability_view_rolls_back_when_the_fit_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    view = StabilityView(n_learners=N, stability=st.twopl(N, 100.0, 1.0), stability_target=0.9)
    before = {"traits": traits(view), "label": view.label.value}
    monkeypatch.setattr(type(view.fit), "predict", fail)
    with pytest.raises(CoreFailure):
        view.stability_target = 0.95
    assert {"traits": traits(view), "label": view.label.value} == before


def test_a_degenerate_fit_is_shown_and_said_not_crashed() -> None:
    plateau = np.array([0.90, 0.91, 0.90, 0.91, 0.90])
    with pytest.warns(Warning):
        view = StabilityView(n_learners=N, stability=plateau, stability_target=0.95)
    assert view.fit.degenerate
    assert view.recommended is None
    assert "No recommendation" in view.label.value and "degenerate" in view.label.value
    assert "degenerate" in view.figure.title
    view.stability_target = 0.99  # moving the slider keeps saying so
    assert view.recommended is None and "0.990" in view.label.value
    assert stability_view.StabilityView is StabilityView


# ----------------------------------------------------------------------------- one mechanism
def test_every_widget_derives_from_the_one_base() -> None:
    for cls in (RocSlice, MetricPMF, ConfusionSimplex, Explorer, BiasView, StabilityView):
        assert issubclass(cls, StatefulWidget)
