"""The linked states a static page carries (``_static`` of RocView, PrecisionRecallView and
DecisionView, built when ``CONFUSIONLAB_STATIC_EXPORT=1``): applied to a slice, position k's state
is the state the kernel gives the slice when the view moves to k (the Jupyter path, a view built
at k), and the counts are scikit-learn's / the brute force's at that threshold or cost; past the
size cap an even spread that keeps the exported point, said in a note; a later change recomputes;
a failure turns the slider off with a note; outside an export nothing is computed."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from sklearn.metrics import confusion_matrix
from sklearn.metrics import roc_curve as sk_roc_curve

import confusionlab as cl
from confusionlab import InvalidParameterError
from confusionlab._views import STATIC_ENV
from confusionlab.widgets import _static, decision_view
from confusionlab.widgets.decision_view import DecisionView


@pytest.fixture
def exporting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(STATIC_ENV, "1")


@pytest.fixture(scope="module")
def scores() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 120)
    return y, np.round(rng.normal(1.2 * y, 1.0), 1)  # rounded: tied blocks


def synced(widget: Any, names: Any) -> dict[str, Any]:
    return {name: getattr(widget, name) for name in names}


def applied(view: Any, k: int) -> list[dict[str, Any]]:
    """Position k's states (the dropped traits are the exported ones: the view's links as they are)."""
    static = view._static
    j = static["positions"].index(k)
    widgets = [view, *getattr(view, "_slices", []), view.slice]
    links = {f"IPY_MODEL_{w.model_id}": w for w in widgets if w is not None}
    out = []
    for ref, state in zip(static["links"], static["states"][j], strict=True):
        link = links[ref]
        names = set(state) | {n for p in static["states"] for n in p[static["links"].index(ref)]}
        out.append({name: state.get(name, getattr(link, name)) for name in names})
    return out


# ----------------------------------------------------------------------------- RocSlice.state_at
@pytest.mark.parametrize(
    "options",
    [
        {"model": "beta-binomial", "levels": [0.2]},
        {"model": "beta-binomial", "contour_metrics": ["f1"]},
        {"model": "binomial"},
        {"model": "none", "levels": []},
    ],
)
def test_state_at_is_the_state_a_move_gives(options: dict[str, Any]) -> None:
    widget = cl.RocSlice(p=30, n=50, tp=10, tn=20, **options)
    for tp, tn in [(0, 0), (30, 50), (17, 41), (29, 3)]:
        state = widget.state_at(tp, tn)
        moved = cl.RocSlice(p=30, n=50, tp=10, tn=20, **options)
        moved.update(tp=tp, tn=tn)
        assert state == synced(moved, state)
        assert (state["tp"], state["tn"]) == (tp, tn) and (widget.tp, widget.tn) == (10, 20)  # not moved
    # every synced trait a move changes is in the state
    moved = cl.RocSlice(p=30, n=50, tp=29, tn=3, **options)
    changed = {n for n in moved.keys if n not in ("comm", "layout") and getattr(moved, n) != getattr(widget, n)}
    assert "tp" in changed and changed <= set(widget.state_at(29, 3))


@pytest.mark.parametrize(("tp", "tn", "name"), [(31, 0, "tp"), (-1, 0, "tp"), (0, 1.5, "tn"), (True, 0, "tp")])
def test_state_at_refuses_a_point_off_the_slice(tp: Any, tn: Any, name: str) -> None:
    with pytest.raises(InvalidParameterError, match=name):
        cl.RocSlice(p=30, n=50).state_at(tp, tn)


# ----------------------------------------------------------------------------- RocView
def test_outside_an_export_nothing_is_precomputed(monkeypatch: pytest.MonkeyPatch, scores) -> None:
    monkeypatch.delenv(STATIC_ENV, raising=False)
    view = cl.RocView(cl.roc_curve(*scores))
    assert view._static == {}
    view.index = 3
    assert view._static == {}


def test_every_threshold_carries_the_kernels_slice_state(exporting, scores) -> None:
    """Reference: the slice of a view built at k (the path Jupyter takes) and scikit-learn's matrix."""
    y, s = scores
    curve = cl.roc_curve(y, s)
    view = cl.RocView(curve)
    static = view._static
    assert static["positions"] == list(range(view.points)) and static["note"] is None
    assert static["links"] == [f"IPY_MODEL_{view.slice.model_id}"] and static["total"] == view.points
    _, _, thresholds = sk_roc_curve(y, s, drop_intermediate=False)
    assert thresholds.size == view.points
    for k in (0, 1, view.points // 2, view.points - 1):
        (state,) = applied(view, k)
        built = cl.RocView(curve, index=k).slice
        assert state == synced(built, state)
        tn, _, _, tp = confusion_matrix(y, s >= thresholds[k], labels=[0, 1]).ravel()
        assert (state["tp"], state["tn"]) == (tp, tn)
    # only what moves travels: the lattice and the staircase stay the page's own
    moving = {"tp", "tn", "_observed_value", "_pmf_lo", "_pmf_tp", "_pmf_tn", "_pmf_pruned"}
    assert set(static["states"][0][0]) == moving


def test_the_precision_recall_view_carries_them_too(exporting, scores) -> None:
    pr = cl.precision_recall_curve(*scores)
    view = cl.PrecisionRecallView(pr)
    (state,) = applied(view, 5)
    assert state == synced(cl.PrecisionRecallView(pr, index=5).slice, state)


def test_past_the_cap_an_even_spread_with_the_exported_point(exporting, scores, monkeypatch) -> None:
    monkeypatch.setattr(_static, "MAX_STATIC_BYTES", 6_000)
    view = cl.RocView(cl.roc_curve(*scores), index=7)
    positions = view._static["positions"]
    assert 2 < len(positions) < view.points and positions == sorted(positions)
    assert {0, 7, view.points - 1} <= set(positions)
    assert _static.state_size([s for state in view._static["states"] for s in state]) <= 6_000 * 1.5
    assert f"snaps to the {len(positions)} of {view.points} thresholds" in view._static["note"]
    # a move in the kernel to a threshold the page lacks recomputes, with that one kept
    k = next(k for k in range(view.points) if k not in positions)
    view.index = k
    assert k in view._static["positions"]
    (state,) = applied(view, k)
    assert (state["tp"], state["tn"]) == (view.slice.tp, view.slice.tn)


def test_when_not_two_fit_the_slider_is_off(exporting, scores, monkeypatch) -> None:
    monkeypatch.setattr(_static, "MAX_STATIC_BYTES", 10)
    static = cl.RocView(cl.roc_curve(*scores))._static
    assert static["states"] is None and static["positions"] == []
    assert "too large to save with this page" in static["note"] and "slider is off" in static["note"]


def test_a_change_of_the_slice_recomputes(exporting, scores) -> None:
    view = cl.RocView(cl.roc_curve(*scores))
    before = view._static
    view.slice.model = "binomial"
    assert view._static is not before
    (state,) = applied(view, 3)
    built = cl.RocView(view.curve, index=3, slice_options={"model": "binomial"}).slice
    assert state == synced(built, state)
    extra = view.slice_view(size=300)
    assert view._static["links"] == [f"IPY_MODEL_{view.slice.model_id}", f"IPY_MODEL_{extra.model_id}"]


def test_a_failure_turns_the_slider_off_and_says_why(exporting, scores, monkeypatch) -> None:
    def fail(self: Any, tp: int, tn: int) -> None:
        raise MemoryError("no room")

    monkeypatch.setattr(cl.RocSlice, "state_at", fail)
    static = cl.RocView(cl.roc_curve(*scores))._static
    assert static["states"] is None and "MemoryError: no room" in static["note"]


def test_in_ipython_the_states_are_computed_once_at_the_end_of_the_cell(exporting, scores, monkeypatch) -> None:
    import IPython

    hooks: list[Any] = []

    class Events:
        def register(self, event: str, callback: Any) -> None:
            assert event == "post_run_cell"
            hooks.append(callback)

    class Shell:
        events = Events()

    shell = Shell()
    monkeypatch.setattr(IPython, "get_ipython", lambda: shell)
    monkeypatch.setattr(_static, "_hooked", [])
    calls: list[int] = []
    original = cl.RocView._precompute_static
    monkeypatch.setattr(cl.RocView, "_precompute_static", lambda self: calls.append(1) or original(self))
    view = cl.RocView(cl.roc_curve(*scores))
    view.slice.model = "binomial"
    view.index = 2
    assert calls == [] and view._static == {}
    (hook,) = hooks
    hook(None)
    assert calls == [1] and view._static["positions"] == list(range(view.points))
    hook(None)
    assert calls == [1]  # nothing changed since


# ----------------------------------------------------------------------------- DecisionView
@pytest.fixture
def coarse(exporting, monkeypatch: pytest.MonkeyPatch) -> None:
    """A coarser grid of p_t (0.25 apart) keeps these tests short; the page's own (0.05) is the
    Chromium test's."""
    monkeypatch.setattr(decision_view, "STATIC_STEP", 0.25)


def live(monkeypatch: pytest.MonkeyPatch, build: Any) -> Any:
    """``build()`` as in Jupyter (no states precomputed)."""
    with monkeypatch.context() as m:
        m.delenv(STATIC_ENV)
        return build()


def test_each_saved_cost_carries_the_kernels_choice_and_slice(coarse, scores, monkeypatch) -> None:
    """Reference: a DecisionView the kernel builds at that cost (choose_threshold afresh), and its
    counts against scikit-learn's confusion matrix at the brute-force cheapest threshold."""
    y, s = scores
    view = DecisionView(cl.choose_threshold(y, s, cost=(1, 3)))  # p_t 0.25, total 4
    static = view._static
    assert static["positions"] == [0.25, 0.5, 0.75] and static["total"] == 999
    assert "snaps to the 3 of 999 values of p_t" in static["note"]
    assert static["links"] == [f"IPY_MODEL_{view.model_id}", f"IPY_MODEL_{view.slice.model_id}"]
    for pt in (0.25, 0.75):
        own, piece = applied(view, pt)
        assert own["cost"] == pytest.approx([4 * pt, 4 * (1 - pt)], rel=1e-15)
        built = live(monkeypatch, lambda own=own: DecisionView(cl.choose_threshold(y, s, cost=tuple(own["cost"]))))
        assert own == synced(built, own) and piece == synced(built.slice, piece)
        c_fp, c_fn = (Fraction(c) for c in own["cost"])  # exact: the lowest threshold of equal cost
        best = min(
            [*np.unique(s), np.inf],
            key=lambda t: c_fp * int(np.sum((s >= t) & (y == 0))) + c_fn * int(np.sum((s < t) & (y == 1))),
        )
        tn, _, _, tp = confusion_matrix(y, s >= best, labels=[0, 1]).ravel()
        assert (piece["tp"], piece["tn"]) == (own["_summary"]["tp"], own["_summary"]["tn"]) == (tp, tn)


def test_an_exported_cost_off_the_grid_is_kept_and_a_kernel_cost_recomputes(coarse, scores) -> None:
    y, s = scores
    view = DecisionView(cl.choose_threshold(y, s, cost=(1, 7)), linked=False)  # p_t 0.125
    assert view._static["positions"] == [0.125, 0.25, 0.5, 0.75] and len(view._static["links"]) == 1
    (own,) = applied(view, 0.125)
    assert own["cost"] == [1, 7]
    view.cost = [2, 2]  # p_t 0.5 but another total: recomputed at total 4
    (own,) = applied(view, 0.75)
    assert own["cost"] == [3, 1]
    before = view._static
    view.cost = list(own["cost"])  # one of the saved costs: nothing to recompute
    assert view._static is before
    view.confidence = 0.9
    assert view._static is not before and applied(view, 0.75)[0]["_summary"]["confidence"] == 0.9


def test_a_metric_choice_has_no_slider_to_carry(exporting, scores) -> None:
    y, s = scores
    view = DecisionView(cl.choose_threshold(y, s, maximize="f1"), linked=False)
    assert view._static["positions"] == [] and view._static["states"] is None and view._static["note"] is None


# ----------------------------------------------------------------------------- the plan
def test_the_plan_keeps_the_current_position_and_both_ends() -> None:
    assert _static.plan(5, 2, 10).tolist() == [0, 1, 2, 3, 4]
    picked = _static.plan(10_001, 4_321, _static.MAX_STATIC_BYTES // 100)
    assert picked.size == 101 and {0, 4_321, 10_000} <= set(picked.tolist())
    assert np.all(np.diff(picked) > 0)
    assert _static.plan(1_000_000, 7, 1).size == _static.MAX_POSITIONS + 1
    assert _static.plan(10, 3, _static.MAX_STATIC_BYTES).tolist() == [3]
