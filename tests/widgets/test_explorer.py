"""Explorer: state, coalescing of rapid changes, consistency of the linked views."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import pytest
import traitlets

from confusionlab.widgets.explorer import Explorer
from confusionlab.widgets.metric_pmf import MetricPMF
from confusionlab.widgets.roc_slice import RocSlice


class ManualScheduler:
    """Collects scheduled callbacks; ``run()`` plays them as the event loop would."""

    def __init__(self) -> None:
        self.pending: list = []

    def __call__(self, callback) -> None:
        self.pending.append(callback)

    def run(self) -> int:
        ran = 0
        while self.pending:
            self.pending.pop(0)()
            ran += 1
        return ran


def assert_consistent(x: Explorer) -> None:
    """Every view shows the Explorer's state, stamped with the same generation."""
    s = x.shown
    assert s == x.state
    n = s["N"] - s["p"]
    for view in (x.slice, x.pmf):
        assert (view.p, view.n, view.tp, view.tn, view.metric) == (s["p"], n, s["tp"], s["tn"], s["metric"])
        assert view.generation == x.generation
    assert x.slice.model == s["model"]
    if x.simplex is not None and s["N"] <= x.simplex_max_n:
        assert x.simplex.N == s["N"]
        assert x.simplex.slices == [s["p"]]
        assert x.simplex.observed == [s["tp"], s["p"] - s["tp"], n - s["tn"], s["tn"]]
        assert x.simplex.metric == s["metric"]
    sl = x.sliders
    assert (sl["N"].value, sl["p"].value, sl["tp"].value, sl["tn"].value) == (s["N"], s["p"], s["tp"], s["tn"])
    assert (sl["p"].max, sl["tp"].max, sl["tn"].max) == (s["N"] - 1, s["p"], n)


async def wait_until(condition: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    """Poll ``condition`` on the running event loop until it holds; fail after ``timeout`` s.

    Each poll hands the loop back for a few milliseconds, so the Explorer's scheduled
    flush (and its quiet window) runs in between: a bounded wait for an outcome, not a
    fixed sleep."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout:.0f} s waiting until {what}")
        await asyncio.sleep(0.002)


def settled(x: Explorer, before: int) -> Callable[[], bool]:
    """Whether the Explorer computed since ``before`` and shows its current state."""
    return lambda: x.computations > before and x.shown == x.state


@pytest.fixture
def sched() -> ManualScheduler:
    return ManualScheduler()


@pytest.fixture
def x(sched: ManualScheduler) -> Explorer:
    return Explorer(scheduler=sched)


def test_starts_on_the_papers_example(x: Explorer) -> None:
    assert x.state == {"N": 60, "p": 20, "tp": 16, "tn": 32, "model": "beta-binomial", "metric": "mcc"}
    assert x.generation == 1 and x.computations == 1
    assert isinstance(x.slice, RocSlice) and isinstance(x.pmf, MetricPMF)
    assert "confusionlab-explorer" in x._dom_classes
    assert_consistent(x)
    assert [p["distinct"] for p in x.pmf._panels]  # PMFs computed


def test_the_status_line_shows_the_matrix_and_keeps_the_internals_in_its_tooltip(
    x: Explorer, sched: ManualScheduler
) -> None:
    """Issue 38: a newcomer reads the matrix shown; the generation and the timing are in the tooltip."""
    assert x._status.value == (
        "N = 60, p = 20, n = 40, TP = 16, FN = 4, FP = 8, TN = 32 · beta-binomial · Matthews correlation coefficient"
    )
    assert x._status.tooltip.startswith("generation 1, computed in ") and x._status.tooltip.endswith(" ms")
    x.set(tp=10)
    sched.run()
    assert "TP = 10, FN = 10" in x._status.value and "generation" not in x._status.value
    assert x._status.tooltip.startswith("generation 2, ")


def test_twenty_rapid_changes_compute_once_for_the_final_state(x: Explorer, sched: ManualScheduler) -> None:
    for k in range(20):
        x.N = 61 + k
        x.tp = 16 - k % 3
    assert x.computations == 1 and len(sched.pending) == 1  # one flush pending, no queue
    assert sched.run() == 1
    assert x.computations == 2 and x.generation == 2
    assert x.state["N"] == 80 and x.state["tp"] == 16 - 19 % 3
    assert_consistent(x)


def test_latest_state_wins_when_changes_arrive_during_a_pending_flush(x: Explorer, sched: ManualScheduler) -> None:
    x.p = 25
    x.p = 30
    x.metric = "f1"
    sched.run()
    assert x.shown["p"] == 30 and x.shown["metric"] == "f1"
    x.tn = 20
    assert x.slice.tn == 30  # (clamped to n = 30 by p = 30) not drawn yet: one whole state shown
    assert x.slice.generation == x.pmf.generation == x.generation
    sched.run()
    assert_consistent(x)


def test_no_change_no_computation(x: Explorer, sched: ManualScheduler) -> None:
    x.N = 61
    x.N = 60
    sched.run()
    assert x.computations == 1  # back to the shown state: nothing to do


def test_coalescing_on_a_real_event_loop() -> None:
    async def scenario() -> Explorer:
        x = Explorer()  # default scheduler: loop.call_soon
        before = x.computations
        for k in range(20):
            x.N = 60 + k
            x.p = 20 + k % 5
        assert x.computations == before  # nothing computed inside the turn
        await wait_until(settled(x, before), "the Explorer has computed and shows its state")
        assert x.computations == before + 1
        return x

    x = asyncio.run(scenario())
    assert x.state["N"] == 79 and x.state["p"] == 20 + 19 % 5
    assert_consistent(x)


def test_without_a_loop_code_changes_apply_at_once() -> None:
    x = Explorer()
    x.N = 100
    assert x.slice.n == 80 and x.pmf.n == 80 and x.generation == 2
    with x.hold():
        x.N = 200
        x.p = 50
        x.tp = 40
    assert x.generation == 3 and x.slice.p == 50
    assert_consistent(x)


def test_set_is_all_or_nothing(x: Explorer) -> None:
    with pytest.raises(traitlets.TraitError, match="tp must be between 0 and p"):
        x.set(p=10, tp=11)
    assert x.state["p"] == 20 and x.state["tp"] == 16
    with pytest.raises(TypeError, match="unknown traits"):
        x.set(q=1)


@pytest.mark.parametrize(
    ("name", "value", "match"),
    [("N", 1, "N must be"), ("p", 60, "p must be"), ("tn", 41, "tn must be"), ("metric", "nope", "metric")],
)
def test_invalid_values_name_the_trait(x: Explorer, name: str, value, match: str) -> None:
    with pytest.raises(traitlets.TraitError, match=match):
        setattr(x, name, value)


def test_shrinking_n_clamps_the_counts(x: Explorer, sched: ManualScheduler) -> None:
    x.N = 10
    assert x.state == {**x.state, "N": 10, "p": 9, "tp": 9, "tn": 1}
    sched.run()
    assert_consistent(x)


def test_sliders_and_menus_drive_the_state(x: Explorer, sched: ManualScheduler) -> None:
    x.sliders["N"].value = 61
    x.sliders["tn"].value = 30
    x.metric_menu.value = "balanced_accuracy"
    x.model_menu.value = "binomial"
    sched.run()
    assert x.shown == {"N": 61, "p": 20, "tp": 16, "tn": 30, "model": "binomial", "metric": "balanced_accuracy"}
    assert_consistent(x)
    assert x.computations == 2


def test_moving_the_observed_point_in_the_slice_updates_everything(x: Explorer, sched: ManualScheduler) -> None:
    # What the browser does on a drag: set tp and tn on the slice together.
    with x.slice.hold_trait_notifications():
        x.slice.tp = 12
        x.slice.tn = 35
    assert (x.tp, x.tn) == (12, 35)
    sched.run()
    assert_consistent(x)
    assert x.pmf.tp == 12
    if x.simplex is not None:
        assert x.simplex.observed == [12, 8, 5, 35]


def test_class_balance_animation_keeps_the_rates(x: Explorer, sched: ManualScheduler) -> None:
    x.player.playing = True  # rates 0.8 and 0.8 captured
    for p in (5, 10, 40, 55):
        x.player.value = p
        sched.run()
        n = 60 - p
        assert x.shown["p"] == p
        assert x.shown["tp"] == round(0.8 * p) and x.shown["tn"] == round(0.8 * n)
        assert_consistent(x)
    assert x.player.max == 59


def test_the_simplex_is_hidden_above_its_limit(sched: ManualScheduler) -> None:
    x = Explorer(scheduler=sched, simplex_max_n=80)
    assert x.simplex is not None  # the simplex ships with the package
    x.N = 100
    sched.run()
    assert x.simplex.layout.display == "none"
    assert "up to N = 80" in x._simplex_note.value
    x.N = 70
    sched.run()
    assert x.simplex.layout.display is None and x._simplex_note.value == ""
    assert_consistent(x)


def test_large_n_updates_slice_and_pmf(sched: ManualScheduler) -> None:
    x = Explorer(scheduler=sched)
    x.set(N=10_000, p=3_333, tp=2_666, tn=5_334)
    sched.run()
    assert_consistent(x)
    assert x.slice.stride > 1  # 3334 × 6668 points are thinned in the slice
    assert x.pmf._panels[1]["distinct"] > 1000


def test_a_failed_computation_is_reported_in_the_app(x: Explorer, sched: ManualScheduler, monkeypatch) -> None:
    def boom(**traits):
        raise ValueError("the lattice is too large")

    monkeypatch.setattr(x.pmf, "update", boom)
    x.N = 70
    with pytest.raises(ValueError):
        sched.run()
    assert "could not show N = 70" in x._status.value and "too large" in x._status.value
    assert x.shown["N"] == 60  # the previous state stays the shown one


def test_changes_arriving_as_separate_messages_coalesce() -> None:
    """Twenty changes, each in its own event-loop turn (as twenty comm messages read back
    to back after a busy computation): one computation, for the last one."""

    async def scenario() -> Explorer:
        x = Explorer()
        loop = asyncio.get_running_loop()
        before = x.computations
        delivered: list[int] = []

        def deliver(k: int) -> None:  # one message per turn, the next one read after it
            x.tp = 1 + k % 15 if k < 19 else 7
            delivered.append(k)
            if k < 19:
                loop.call_soon(deliver, k + 1)

        loop.call_soon(deliver, 0)
        await wait_until(lambda: len(delivered) == 20 and settled(x, before)(), "all 20 messages are shown")
        assert x.computations == before + 1
        return x

    x = asyncio.run(scenario())
    assert x.shown["tp"] == 7
    assert_consistent(x)


@pytest.mark.parametrize("module", ["explorer", "metric_pmf", "roc_slice"])
def test_docstring_examples(module: str) -> None:
    import doctest
    import importlib

    mod = importlib.import_module(f"confusionlab.widgets.{module}")
    result = doctest.testmod(mod, optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


def test_view_options_contours_and_histogram(x: Explorer, sched: ManualScheduler) -> None:
    x.contour_menu.value = ("f1", "balanced_accuracy")
    assert x.slice.contour_metrics == ["f1", "balanced_accuracy"]
    assert len(x.slice._contour_labels) == 3
    x.pmf_mode.value = "histogram"
    assert x.pmf.mode == "histogram"
    assert x.computations == 1  # view options do not recompute the state
    x.tp = 12  # the extra contours follow the observed point
    sched.run()
    assert x.slice.contour_metrics == ["f1", "balanced_accuracy"]
    assert_consistent(x)


# ---- issue 21: a refusal of memory named future_size and tolerance, which the Explorer does not have
def test_the_documented_n_of_a_million_answers() -> None:
    """Issue 21: the Explorer refused its documented N = 10⁶ (F1) with advice naming settings
    it does not have, and died of a MemoryError with MCC. Its PMF panels now sample where the
    exact lattice is too large, and say so."""
    x = Explorer(N=200, p=100, tp=80, tn=80, metric="f1")
    generation = x.generation
    x.set(N=10**6, p=500_000, tp=400_000, tn=400_000)
    x.flush()
    assert x.generation == generation + 1
    methods = {panel["method"] for view in x.views if hasattr(view, "_panels") for panel in view._panels}
    assert methods == {"monte-carlo"}
