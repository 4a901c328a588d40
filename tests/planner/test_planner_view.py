"""PlannerView (kernel side): the plan shown is plan_test_size's; refusals change nothing."""

from __future__ import annotations

import numpy as np
import pytest
import traitlets

from confusionlab.metrics import get_metric
from confusionlab.planner import normal_half_width, plan_test_size
from confusionlab.widgets._common import buffer_array
from confusionlab.widgets.planner_view import PlannerView

from . import _reference as ref


def test_plan_and_curve_come_from_the_planner():
    w = PlannerView(metric="mcc", prevalence=0.2, tpr=0.8, tnr=0.8, half_width=0.15, target="next_test_set")
    plan = plan_test_size(
        "mcc", prevalence=0.2, tpr=0.8, tnr=0.8, half_width=0.15, max_size=w.max_size, target="next_test_set"
    )
    shown = w.plan()
    assert (shown["N"], shown["p"], shown["n"], shown["reached"]) == (plan.N, plan.p, plan.n, True)
    assert shown["half_width"] == pytest.approx(ref.half_width("mcc", plan.N, 0.2, 0.8, 0.8), abs=1e-12)
    ns, hs = buffer_array(w, "_exact_n"), buffer_array(w, "_exact_h")
    assert ns.size == hs.size > 0
    for N, h in zip(ns[:5].astype(int), hs[:5], strict=True):
        assert h == pytest.approx(ref.half_width("mcc", int(N), 0.2, 0.8, 0.8), abs=1e-12)
    an = buffer_array(w, "_approx_n").astype(np.int64)
    ah = buffer_array(w, "_approx_h")
    expected = normal_half_width(get_metric("mcc"), an, 0.2, 0.8, 0.8)
    np.testing.assert_allclose(ah, expected)
    assert an[0] <= plan.N <= an[-1]


def test_value_mode_plans_from_the_expected_metric():
    w = PlannerView(metric="mcc", prevalence=0.1, mode="value", value=0.6, half_width=0.1, target="next_test_set")
    assert w.plan()["N"] == plan_test_size("mcc", prevalence=0.1, value=0.6, half_width=0.1, target="next_test_set").N
    assert w.plan()["tpr"] == pytest.approx(w.plan()["tnr"])


def test_refused_changes_leave_the_view_as_it_was():
    w = PlannerView(metric="f1", prevalence=0.3, tpr=0.8, tnr=0.8, half_width=0.1, target="next_test_set")
    before = (w.plan(), w._exact_n, w.prevalence)
    for bad in ({"prevalence": 0.0}, {"tpr": float("nan")}, {"confidence": 1.0}, {"half_width": -1.0}):
        with pytest.raises(traitlets.TraitError):
            w.update(**bad)
        assert (w.plan(), w._exact_n, w.prevalence) == before
    with pytest.raises(traitlets.TraitError, match="not reached"):
        w.update(mode="value", value=5.0)
    assert w.mode == "rates" and w.plan() == before[0]


def test_unreachable_target_is_shown_with_the_best_n():
    w = PlannerView(
        metric="mcc", prevalence=0.2, tpr=0.8, tnr=0.8, half_width=0.2, max_size=300, target="next_test_set"
    )
    w.half_width = 0.01
    shown = w.plan()
    assert shown["reached"] is False and "max_size" in shown["message"]
    assert 2 <= shown["N"] <= 300 and shown["half_width"] > 0.01


def test_each_plan_shown_has_a_new_generation_and_returns_reuse_the_half_widths():
    w = PlannerView(metric="mcc", prevalence=0.2, tpr=0.8, tnr=0.8, half_width=0.15, target="next_test_set")
    first, generation = w.plan(), w.generation
    assert generation >= 1 and w.last_seconds > 0
    w.half_width = 0.1
    assert w.generation == generation + 1
    assert (
        w.plan()["N"]
        == plan_test_size("mcc", prevalence=0.2, tpr=0.8, tnr=0.8, half_width=0.1, target="next_test_set").N
    )
    w.half_width = 0.15  # back: every size was evaluated before (same counts, metric and confidence)
    assert w.generation == generation + 2 and w.plan() == first
    assert first["N"] == ref.smallest_by_scan("mcc", 0.2, 0.8, 0.8, 0.15, stop=first["N"] + 1)[0]


def test_a_shared_cache_changes_no_plan():
    cache: dict = {}
    kw = dict(prevalence=0.3, tpr=0.8, tnr=0.75, half_width=0.08)
    for metric in ("balanced_accuracy", "f1"):
        cache.clear()
        cold = plan_test_size(metric, **kw, _cache=cache, target="next_test_set")
        warm = plan_test_size(metric, **kw, _cache=cache, target="next_test_set")
        assert warm.evaluations == 0 < cold.evaluations
        assert (warm.N, warm.half_width, warm.curve) == (cold.N, cold.half_width, cold.curve)
        assert warm.N == ref.smallest_by_scan(metric, 0.3, 0.8, 0.75, 0.08, stop=warm.N + 1)[0]


def test_the_view_asks_the_question_and_shows_the_stable_size():
    from confusionlab import plan_test_size

    w = PlannerView(metric="recall", prevalence=0.5, tpr=0.8, tnr=0.8, half_width=0.1)
    assert w.target == "true_value"
    true = plan_test_size("recall", prevalence=0.5, tpr=0.8, tnr=0.8, half_width=0.1)
    shown = w.plan()
    assert (shown["N"], shown["N_stable"], shown["target"]) == (true.N, true.N_stable, "true_value")
    assert "true value" in shown["message"]
    w.target = "next_test_set"
    assert (w.plan()["N"], w.plan()["N_stable"]) == (229, 249)
    assert "new test set" in w.plan()["message"]
    # the binomial plug-in has no true-value question: refused, nothing changes
    w.target = "true_value"
    before = w.plan()
    with pytest.raises(traitlets.TraitError):
        w.model = "binomial"
    assert w.plan() == before and w.model == "beta-binomial"
