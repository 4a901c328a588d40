"""TestSizePlan and GroupSizePlan under the result protocol, the old names that still work with
a FutureWarning naming the new one, and ``target`` (the question, no longer the half-width)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
import traitlets
from matplotlib.figure import Figure

from confusionlab import InvalidParameterError
from confusionlab.bias import GroupSizePlan, plan_group_size
from confusionlab.lessons.comparison import plot_half_width
from confusionlab.planner import TestSizePlan, check_rate, plan_test_size, smallest_size
from confusionlab.widgets.planner_view import PlannerView

from . import _reference as ref

KW = {"prevalence": 0.5, "tpr": 0.8, "tnr": 0.8, "half_width": 0.1}


@pytest.fixture(scope="module")
def plan() -> TestSizePlan:
    return plan_test_size("recall", **KW, target="next_test_set")


@pytest.fixture(scope="module")
def group_plan() -> GroupSizePlan:
    return plan_group_size("DPPL", size_a=300, rate_a=0.3, rate_d=0.2, half_width=0.12, target="next_test_set")


# ----------------------------------------------------------------------------- target is the question
@pytest.mark.parametrize("which", ["plan", "group_plan"])
def test_target_is_the_question_and_requested_half_width_the_goal(which, request) -> None:
    """``target`` was a deprecated alias of ``requested_half_width``; it now names the question
    planned for, as everywhere else in the library (the alias is gone)."""
    p = request.getfixturevalue(which)
    assert p.requested_half_width == (0.1 if which == "plan" else 0.12)
    assert p.target == "next_test_set"
    assert "target" in {f.name for f in dataclasses.fields(p)}
    fields = {f.name: getattr(p, f.name) for f in dataclasses.fields(p)}
    assert type(p)(**fields) == p


def test_smallest_size_target_is_renamed_half_width() -> None:
    """A toy half-width 1/√N with no discreteness: the smallest N with 1/√N ≤ 0.1 is 100."""

    def exact(size: int) -> tuple[float, float]:
        return 1 / math.sqrt(size), 0.0

    def approximate(sizes: np.ndarray) -> np.ndarray:
        return 1 / np.sqrt(sizes.astype(float))

    new = smallest_size(exact, approximate, 0.1, min_size=1, max_size=10_000)
    with pytest.warns(FutureWarning, match="half_width"):
        old = smallest_size(exact, approximate, target=0.1, min_size=1, max_size=10_000)
    assert new[0] == old[0] == 100 and new == old


def test_plot_half_width_target_is_renamed_half_width() -> None:
    kw = {"plan_size": 12, "plan_half_width": 0.09}
    new = plot_half_width([10, 11, 12], [0.12, 0.13, 0.09], half_width=0.1, **kw)
    with pytest.warns(FutureWarning, match="half_width"):
        old = plot_half_width([10, 11, 12], [0.12, 0.13, 0.09], target=0.1, **kw)
    assert [list(line.get_ydata()) for line in old.lines] == [list(line.get_ydata()) for line in new.lines]
    with pytest.raises(InvalidParameterError, match="half_width"):
        plot_half_width([10], [0.1], half_width=0, **kw)


def test_no_planner_signature_calls_the_half_width_target() -> None:
    import inspect

    for func in (smallest_size, PlannerView.from_plan):
        assert "target" not in inspect.signature(func).parameters, func
    # where it appears, target is the question, defaulting to the true value
    for func in (plan_test_size, plan_group_size):
        assert inspect.signature(func).parameters["target"].default == "true_value", func
    assert PlannerView().target == "true_value"


# ----------------------------------------------------------------------------- interval
def test_interval_takes_an_explicit_confidence(plan) -> None:
    for confidence in (0.95, 0.8):
        assert plan.interval(confidence) == plan.distribution().interval(confidence)
    assert plan.interval() == plan.interval(0.95)  # the plan's own confidence is 0.95: no warning
    with pytest.raises(InvalidParameterError, match="confidence"):
        plan.interval(1.5)


def test_interval_without_confidence_keeps_the_plans_own_for_one_release() -> None:
    at90 = plan_test_size("recall", **KW, confidence=0.9, target="next_test_set")
    with pytest.warns(FutureWarning, match="confidence=0.9"):
        default = at90.interval()
    assert default == at90.distribution().interval(0.9)
    with pytest.warns(FutureWarning, match="confidence"):
        assert at90.interval(None) == default
    assert at90.interval(0.95) == at90.distribution().interval(0.95) != default


# ----------------------------------------------------------------------------- frame, plot, page, view
def test_to_frame_is_the_curve(plan) -> None:
    frame = plan.to_frame()
    assert list(frame.columns) == ["N", "half_width", "reached", "planned"]
    assert dict(zip(frame.N, frame.half_width, strict=True)) == plan.curve
    assert frame.N.tolist() == sorted(plan.curve) and frame.query("planned").N.tolist() == [plan.N]
    assert (frame.reached == (frame.half_width <= 0.1 * (1 + 1e-12))).all()  # exact ties meet it
    # the plan is the smallest N reached among those evaluated, and a scan of every N agrees
    assert frame.query("reached").N.min() == plan.N == ref.smallest_by_scan("recall", 0.5, 0.8, 0.8, 0.1)[0]


def test_group_frame_is_the_curve(group_plan) -> None:
    frame = group_plan.to_frame()
    assert list(frame.columns) == ["size_d", "half_width", "reached", "planned"]
    assert frame.query("planned").size_d.tolist() == [group_plan.size_d]


@pytest.mark.parametrize("which", ["plan", "group_plan"])
def test_plot_page_and_summary(which, request) -> None:
    p = request.getfixturevalue(which)
    fig = p.plot()
    assert isinstance(fig, Figure) and len(fig.axes) == 1
    own = Figure()
    ax = own.add_subplot()
    assert p.plot(ax) is own
    planned = ax.lines[-1]
    assert list(planned.get_xdata()) == [p._size] and list(planned.get_ydata()) == [p.half_width]
    page = p.to_html()
    assert page.startswith("<!DOCTYPE html>") and p.title in page
    lo, hi = p.interval(0.9)
    assert f"{lo:.3g}" in p.summary(0.9) and f"{hi:.3g}" in p.summary(0.9)


def test_view_shows_that_plan(plan) -> None:
    view = plan.view()
    assert isinstance(view, PlannerView)
    assert (view.metric, view.half_width, view.confidence, view.model) == ("recall", 0.1, 0.95, "beta-binomial")
    shown = view.plan()
    assert (shown["N"], shown["reached"], shown["requested_half_width"]) == (plan.N, True, 0.1)
    assert shown["half_width"] == pytest.approx(plan.half_width, abs=0)


def test_view_of_a_binomial_plan_plans_with_the_binomial_model() -> None:
    binomial = plan_test_size(
        "mcc", prevalence=0.3, tpr=0.8, tnr=0.8, half_width=0.12, model="binomial", target="next_test_set"
    )
    beta = plan_test_size("mcc", prevalence=0.3, tpr=0.8, tnr=0.8, half_width=0.12, target="next_test_set")
    assert binomial.N < beta.N  # the plug-in ignores the rates' own uncertainty
    view = binomial.view()
    assert view.model == "binomial" and view.plan()["N"] == binomial.N
    view.model = "beta-binomial"
    assert view.plan()["N"] == beta.N


def test_refused_model_prior_or_tolerance_changes_nothing(plan) -> None:
    view = plan.view()
    before = (view.plan(), view.model, view.prior, view.tolerance)
    for bad in ({"model": "dirichlet-multinomial"}, {"prior": -1.0}, {"tolerance": 0.5}, {"half_width": 0.0}):
        with pytest.raises(traitlets.TraitError):
            view.update(**bad)
        assert (view.plan(), view.model, view.prior, view.tolerance) == before
    view.prior = "jeffreys"
    assert (
        view.prior == 0.5
        and view.plan()["N"] == plan_test_size("recall", **KW, prior="jeffreys", target="next_test_set").N
    )


def test_group_plan_view_is_a_widget(group_plan) -> None:
    import ipywidgets

    view = group_plan.view()
    assert isinstance(view, ipywidgets.DOMWidget) and "data:image/png;base64," in view.value


# ----------------------------------------------------------------------------- errors
def test_planner_checks_are_the_validation_modules() -> None:
    from confusionlab import _validation

    assert check_rate is _validation.check_rate
    for call, name in (
        (
            lambda: plan_test_size("mcc", prevalence=1.2, tpr=0.8, tnr=0.8, half_width=0.1, target="next_test_set"),
            "prevalence",
        ),
        (
            lambda: plan_test_size(
                "mcc", prevalence=0.2, tpr=0.8, tnr=0.8, half_width=float("inf"), target="next_test_set"
            ),
            "half_width",
        ),
        (lambda: plan_test_size("mcc", prevalence=0.2, half_width=0.1, target="next_test_set"), "value"),
        (
            lambda: plan_test_size("mcc", prevalence=0.2, value=float("nan"), half_width=0.1, target="next_test_set"),
            "value",
        ),
        (
            lambda: plan_test_size(
                "mcc", prevalence=0.2, value=0.5, tpr=0.8, tnr=0.8, half_width=0.1, target="next_test_set"
            ),
            "tpr",
        ),
        (
            lambda: plan_test_size(
                "mcc", prevalence=0.2, tpr=0.8, tnr=0.8, half_width=0.1, model="x", target="next_test_set"
            ),
            "model",
        ),
        (
            lambda: plan_group_size("DI", size_a=0, rate_a=0.3, rate_d=0.2, half_width=0.1, target="next_test_set"),
            "size_a",
        ),
        (
            lambda: plan_group_size("DI", size_a=10, rate_a=0.3, rate_d=0.2, half_width=-1, target="next_test_set"),
            "half_width",
        ),
    ):
        with pytest.raises(InvalidParameterError, match=name):
            call()
