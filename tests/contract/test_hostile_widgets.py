"""Hostile arguments against every widget, kernel side (issue 21, "What"), in the capped child process
of the contract tests (``_hostile_worker.py``: address space capped at its baseline + 3 GiB, CPU 60 s
a call, the library's memory limit 512 MiB). No browser: each example builds a widget with drawn
constructor arguments, then sets drawn trait values (and calls its public methods) one after the
other on the same widget.

The contract of every construction and every step is :func:`test_core_hostile.assert_contract`'s
(a valid state, or a refusal that names the argument, never a memory or CPU cap hit), with one
addition: traitlets' own checks of a trait's type and bounds may refuse with their plain
``TraitError`` ("The 'width' trait of a CalibrationView instance expected an int, ..."), which
names the trait. A widget's own checks refuse with ``InvalidParameterError``
(``InvalidTraitError``). And bad input loses nothing: a refused step leaves every trait, every
buffer, the drawn state (``_EXTRA_STATE``, ``distributions()``, ``recommended``) and the widgets
it holds (children, linked slices) exactly as they were (``_hostile_worker._widget_state``); the
widget then takes the next step from there. Every state reached keeps its invariants
(``_hostile_worker._widget_checks``: buffers sized as their traits say, indices in range).
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest
from _hostile_worker import Worker
from hypothesis import given, settings
from hypothesis import strategies as st
from test_core_hostile import CI, INF, NAN, assert_contract
from test_core_hostile import tagged as core_tagged


@pytest.fixture(scope="module")
def worker():
    w = Worker()
    yield w
    w.close()


def _traitlets_own(reply: dict[str, Any], names: set[str]) -> bool:
    """A plain TraitError of traitlets' own type or bounds check on one of ``names``."""
    if reply["kind"] != "error" or "TraitError" not in reply["mro"] or "InvalidParameterError" in reply["mro"]:
        return False
    pattern = r"^The (value of the )?'(?P<name>\w+)' trait of (an? )?\w+( instance)?"
    found = re.match(pattern, reply["message"])
    return found is not None and found["name"] in names


def contract(reply: dict[str, Any], args: dict[str, tuple[Any, str]], where: str) -> None:
    """:func:`assert_contract`, where a refusal may name a key of a hostile dict of options
    (``slice_options={"size": 10}``: the trait ``size``) and traitlets may refuse a trait itself."""
    options = {key: (v[key], tag) for v, tag in args.values() if tag != "ok" and isinstance(v, dict) for key in v}
    if _traitlets_own(reply, {k for k, (_, tag) in args.items() if tag != "ok"} | set(options)):
        return
    assert_contract(reply, {**args, **{k: v for k, v in options.items() if k not in args}}, where)


Step = tuple[str, str, Any, str]  # (op, name, value, tag)


def run(worker: Worker, make: str, args: dict[str, tuple[Any, str]], steps: list[Step], first: str = "") -> None:
    """Build ``make`` (``first``: the name of its positional argument, in ``args``), run ``steps``
    and check the construction, every step and the violations the child found."""
    positional = (args[first][0],) if first else ()
    kwargs = {k: v for k, (v, _) in args.items() if k != first}
    reply = worker.call("widget", make=make, args=positional, kwargs=kwargs,
                        steps=[(op, name, value) for op, name, value, _ in steps])  # fmt: skip
    if reply["kind"] != "ok":
        contract(reply, args, make)
        return
    contract({"kind": "ok", "violations": []}, args, make)
    for (op, name, value, tag), step in zip(steps, reply["steps"], strict=True):
        arg = name.rsplit(".", 1)[-1]
        if op == "update":  # the names of the traits updated
            contract(step, {k: (v, tag) for k, v in value.items()} or {"update": (value, tag)}, f"{make}.update")
        elif op == "call" and isinstance(value, dict):
            contract(step, {k: (v, tag) for k, v in value.items()} or {arg: (value, tag)}, f"{make}.{name}")
        else:
            contract(step, {arg: (value, tag)}, f"{make}.{name}")
    assert not reply["violations"], f"{make}: {reply['violations']}"


def steps_of(data: st.DataObject, pools: dict[str, st.SearchStrategy], op: str = "set", most: int = 4) -> list[Step]:
    """Up to ``most`` steps, each a trait of ``pools`` set to a drawn (value, tag)."""
    names = data.draw(st.lists(st.sampled_from(sorted(pools)), min_size=1, max_size=most))
    return [(op, name, *data.draw(pools[name])) for name in names]


def tagged(good: st.SearchStrategy, bad: list[Any] = (), big: list[Any] = ()) -> st.SearchStrategy:
    """:func:`test_core_hostile.tagged`, keeping its parts for :func:`rare`."""
    pool = core_tagged(good, bad, big)
    pool.parts = (good, [(v, "bad") for v in bad] + [(v, "big") for v in big])
    return pool


INT_BAD = [True, 2.5, NAN, "3", None]
confidence_arg = tagged(st.sampled_from([0.5, 0.8, 0.95, 0.99]), [0.0, 1.0, 1.5, -0.1, NAN, INF, "0.95", None, True])
tolerance_arg = tagged(st.sampled_from([0.0, 1e-12, 1e-9, 1e-6]), [-1e-9, NAN, INF, 0.5, "1e-9", None, True])
metric_arg = tagged(st.sampled_from(["mcc", "f1", "accuracy", "tpr", "f2", "balanced_accuracy"]),
                    ["nope", "", None, 3, ["f1"]])  # fmt: skip


def rare(pool: st.SearchStrategy) -> st.SearchStrategy:
    """An argument from a :func:`tagged` ``pool``, hostile about one time in four (see :func:`ctor`)."""
    good, hostile = pool.parts
    ok = good.map(lambda v: (v, "ok"))
    return st.sampled_from([0, 1, 2, 3]).flatmap(lambda i: st.sampled_from(hostile) if i == 3 and hostile else ok)


@st.composite
def ctor(draw: Any, **pools: st.SearchStrategy) -> dict[str, tuple[Any, str]]:
    """A widget's constructor arguments from :func:`tagged` pools: at most one hostile (the steps after
    the construction run only once it is built; they bring the other hostile values)."""
    hostile = [name for name, pool in pools.items() if pool.parts[1]]
    victim = draw(st.sampled_from([None, *hostile]))
    return {
        name: draw(st.sampled_from(pool.parts[1]) if name == victim else pool.parts[0].map(lambda v: (v, "ok")))
        for name, pool in pools.items()
    }


def width_arg(lo: int, hi: int) -> st.SearchStrategy:
    return tagged(st.integers(lo, hi) | st.just(np.int64(lo)), [lo - 1, hi + 1, *INT_BAD])


# ----------------------------------------------------------------------------- AuditView
@settings(CI, max_examples=15)
@given(
    data=st.data(),
    args=ctor(
        audit=tagged(st.just("@audit"), [None, "@report", "audit", 3]),
        cell=width_arg(12, 80),
        selected=tagged(st.integers(-1, 7), [8, -2, 10**9, *INT_BAD]),
    ),
)
def test_audit_view(worker, data, args):
    pools = {"cell": width_arg(12, 80), "selected": tagged(st.integers(-1, 7), [8, -2, *INT_BAD])}
    steps = steps_of(data, pools)
    index = data.draw(tagged(st.integers(0, 7) | st.just(np.int64(3)), [8, -1, 10**9, *INT_BAD]))
    steps.append(("call", "cell_row", {"index": index[0]}, index[1]))
    shown = data.draw(tagged(st.just("@audit"), [None, "@report", "x"]))
    steps.append(("call", "show", {"audit": shown[0]}, shown[1]))
    run(worker, "AuditView", args, steps, first="audit")


# ----------------------------------------------------------------------------- BiasView
@settings(CI, max_examples=12)
@given(
    data=st.data(),
    args=ctor(
        report=tagged(st.sampled_from(["@report", "@report_pre"]), [None, "@audit", {}]),
        confidence=tagged(st.floats(0.5, 0.99), [0.0, 1.0, 1.5, NAN, "0.9", None, True]),
        n_draws=tagged(st.integers(1, 400) | st.just(np.int64(50)), [0, -1, 5001, 10**12, *INT_BAD]),
        random_state=tagged(st.sampled_from([0, 1, None, np.int64(7)]), ["seed", -1, 2.5]),
    ),
)
def test_bias_view(worker, data, args):
    steps = steps_of(data, {"confidence": confidence_arg})
    run(worker, "BiasView", args, steps, first="report")


# ----------------------------------------------------------------------------- CalibrationView
@settings(CI, max_examples=12)
@given(
    data=st.data(),
    args=ctor(
        calibration=tagged(st.just("@calibration"), [None, "@roc", [0.1, 0.2]]),
        confidence=confidence_arg,
        width=width_arg(240, 2000),
        histogram_bins=width_arg(5, 400),
    ),
)
def test_calibration_view(worker, data, args):
    pools = {"confidence": confidence_arg, "width": width_arg(240, 2000), "histogram_bins": width_arg(5, 400)}
    run(worker, "CalibrationView", args, steps_of(data, pools), first="calibration")


# ----------------------------------------------------------------------------- DecisionView
cost_arg = tagged(
    st.sampled_from([[1, 1], [1, 9], (2, 0.5), [0, 1], [1, 0], [np.float64(0.3), np.int64(4)]]),
    [[-1, 1], [0, 0], [NAN, 1], [INF, 1], [1], [1, 2, 3], ["a", "b"], [True, 1], "ab", None, {"a": 1}],
)


@settings(CI, max_examples=12)
@given(
    data=st.data(),
    args=ctor(
        choice=tagged(st.just("@choice"), [None, "@roc", [0.1, 0.2]]),
        linked=tagged(st.booleans(), ["yes", None, 2]),
        cost=cost_arg,
        confidence=confidence_arg,
        width=width_arg(480, 2400),
    ),
)
def test_decision_view(worker, data, args):
    pools = {"cost": cost_arg, "confidence": confidence_arg, "width": width_arg(480, 2400)}
    run(worker, "DecisionView", args, steps_of(data, pools), first="choice")


# ----------------------------------------------------------------------------- DecisionCurveView
threshold_arg = tagged(
    st.floats(0.0, 0.99) | st.sampled_from([0.0, 0.99, np.float64(0.25), np.int64(0)]),
    [-0.01, 0.995, 1.0, NAN, INF, -INF, "0.3", None, True, [0.3]],
)


@settings(CI, max_examples=12)
@given(
    data=st.data(),
    args=ctor(
        curve=tagged(st.just("@decision_curve"), [None, "@choice", "@roc", [0.1, 0.2]]),
        confidence=confidence_arg,
        threshold=threshold_arg,
        width=width_arg(320, 2400),
    ),
)
def test_decision_curve_view(worker, data, args):
    pools = {"confidence": confidence_arg, "threshold": threshold_arg, "width": width_arg(320, 2400)}
    run(worker, "DecisionCurveView", args, steps_of(data, pools), first="curve")


# ----------------------------------------------------------------------------- CostCurveView
pc_arg = tagged(st.floats(0.0, 1.0) | st.sampled_from([0, 1, np.float64(0.5)]), [-0.01, 1.01, NAN, INF, "0.5", None])


@settings(CI, max_examples=12)
@given(
    data=st.data(),
    args=ctor(
        curve=tagged(st.just("@cost_curve"), [None, "@decision_curve", "@roc", [0.1, 0.2]]),
        confidence=confidence_arg,
        probability_cost=pc_arg,
        width=width_arg(320, 2400),
    ),
)
def test_cost_curve_view(worker, data, args):
    pools = {"confidence": confidence_arg, "probability_cost": pc_arg, "width": width_arg(320, 2400)}
    run(worker, "CostCurveView", args, steps_of(data, pools), first="curve")


# ----------------------------------------------------------------------------- ConfusionSimplex
def _matrix(data: st.DataObject, N: int) -> list[int]:
    cuts = sorted(data.draw(st.lists(st.integers(0, N), min_size=3, max_size=3)))
    return [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], N - cuts[2]]


@settings(CI, max_examples=15)
@given(
    data=st.data(),
    args=ctor(
        N=tagged(st.integers(1, 30) | st.just(np.int64(12)), [0, -1, 301, *INT_BAD]),
        metric=metric_arg,
        cloud=tagged(st.sampled_from(["none", "beta-binomial", "dirichlet-multinomial"]), ["nope", None, 1]),
        prior=tagged(st.sampled_from(["uniform", "jeffreys"]), ["flat", None, 0.5]),
        tolerance=tolerance_arg,
        max_points=tagged(st.sampled_from([1, 100, 10**6]), [0, -1, *INT_BAD]),
    ),
)
def test_confusion_simplex(worker, data, args):
    N, tag = args["N"]
    if tag == "ok":  # observed and slices fit N
        bad = [[1, 2, 3], [-1, 0, 0, int(N) + 1], [0.5, 0, 0, 0], "1234"]
        args["observed"] = data.draw(rare(tagged(st.just(_matrix(data, int(N))), bad)))
        slices = tagged(st.lists(st.integers(0, int(N)), max_size=3), [[-1], [400], ["a"], 3])
        args["slices"] = data.draw(rare(slices))
    k = data.draw(st.integers(1, 30))
    pools = {
        "metric": metric_arg,
        "cloud": tagged(st.sampled_from(["none", "beta-binomial"]), ["nope", None]),
        "prior": tagged(st.sampled_from(["uniform", "jeffreys"]), ["flat", None]),
        "tolerance": tolerance_arg,
        "observed": tagged(st.just([]), [[1000, 0, 0, 0], [1, 2, 3], [-5, 5, 0, 0], [0.5, 0.5, 0, 0], "abcd"]),
        "slices": tagged(st.just([]), [[400], [-1], ["a"], [True]]),
        "size": width_arg(200, 2000),
        "dim_others": tagged(st.booleans(), ["yes", None, 2]),
    }
    steps = steps_of(data, pools)
    steps.append(("update", "update", {"N": k, "observed": _matrix(data, k), "slices": [k // 2]}, "ok"))
    steps.append(("update", "update", {"nope": 1}, "bad"))
    run(worker, "ConfusionSimplex", args, steps)


# ----------------------------------------------------------------------------- EvaluationView
@settings(CI, max_examples=15)
@given(
    data=st.data(),
    args=ctor(
        evaluation=tagged(
            st.sampled_from(["@evaluation", "@evaluation_refits", "@evaluation_classes"]), [None, "@roc"]
        ),
        metric=tagged(st.sampled_from(["accuracy", "f1"]), ["nope", "", None, 3]),
        confidence=confidence_arg,
        least_stable=width_arg(0, 200),
        max_values=tagged(st.sampled_from([20, 100, 4000]), [19, 0, *INT_BAD]),
    ),
)
def test_evaluation_view(worker, data, args):
    classes = args["evaluation"][0] == "@evaluation_classes"  # three classes: macro averages
    if classes and args["metric"][1] == "ok":
        args["metric"] = ("macro_f1", "ok")
    pools = {
        "metric": tagged(
            st.just("macro_recall") if classes else st.sampled_from(["accuracy", "f1"]), ["nope", "", None, 3]
        ),
        "confidence": confidence_arg,
        "least_stable": width_arg(0, 200),
        "max_values": tagged(st.sampled_from([20, 500]), [19, *INT_BAD]),
        "width": width_arg(240, 2000),
        "selected": tagged(st.just("all"), ["nope", "", None, 3]),
    }
    steps = steps_of(data, pools)
    if not classes:
        slice_kwargs = data.draw(tagged(st.sampled_from([{}, {"metric": "f1"}, {"size": 300}]),
                                        [{"p": 3}, {"size": 10}, {"metric": "nope"}]))  # fmt: skip
        steps.append(("call", "slice_view", *slice_kwargs))
        steps.append(("set", "selected", *data.draw(tagged(st.just("all"), ["zz", None]))))
    run(worker, "EvaluationView", args, steps, first="evaluation")


# ----------------------------------------------------------------------------- Explorer
@settings(CI, max_examples=12)
@given(
    data=st.data(),
    args=ctor(
        N=tagged(st.integers(40, 60) | st.just(np.int64(50)), [1, 0, -1, 1_000_001, *INT_BAD]),
        model=tagged(st.sampled_from(["none", "binomial", "beta-binomial"]), ["nope", None, 1]),
        metric=metric_arg,
        simplex_max_n=tagged(st.sampled_from([0, 30, 150]), [-1, *INT_BAD]),
        max_slider_n=tagged(st.sampled_from([100, 500]), [0, -1, *INT_BAD]),
    ),
)
def test_explorer(worker, data, args):
    p = data.draw(st.integers(1, 39))
    tp, tn = data.draw(st.integers(0, p)), data.draw(st.integers(0, 1))
    args = {**args, "p": (p, "ok"), "tp": (tp, "ok"), "tn": (tn, "ok")}
    pools = {
        "N": tagged(st.integers(40, 60) | st.just(np.int64(45)), [1, 1_000_001, *INT_BAD]),
        "p": tagged(st.integers(1, 39), [0, 60, -1, *INT_BAD]),
        "tp": tagged(st.integers(0, 1), [-1, 61, *INT_BAD]),
        "tn": tagged(st.integers(0, 1), [-1, 61, *INT_BAD]),
        "model": tagged(st.sampled_from(["none", "binomial", "beta-binomial"]), ["nope", None]),
        "metric": metric_arg,
    }
    steps = steps_of(data, pools)
    steps.append(("call", "set", {"N": 50, "p": 20, "tp": 16, "tn": 25}, "ok"))
    steps.append(("call", "set", *data.draw(tagged(st.just({"tp": 3}), [{"N": 50, "p": 60}, {"tp": 21}, {"x": 1}]))))
    run(worker, "Explorer", args, steps)


def test_explorer_at_its_documented_largest_n(worker):
    """N = 10⁶ is the Explorer's documented largest N: accuracy and F1 are shown, MCC is shown or
    refused with the Explorer's own advice, within the caps (issue 21)."""
    for metric in ("accuracy", "f1", "mcc"):
        steps = [("set", "metric", metric, "ok"), ("set", "N", 1_000_000, "big")]
        run(worker, "Explorer", {"N": (60, "ok"), "metric": ("accuracy", "ok")}, steps)


# ----------------------------------------------------------------------------- MetricPMF
def _slice_args(data: st.DataObject) -> dict[str, tuple[Any, str]]:
    p, n = data.draw(st.integers(1, 40)), data.draw(st.integers(1, 40))
    tp = data.draw(rare(tagged(st.integers(0, p) | st.just(np.int64(0)), [p + 1, -1, *INT_BAD])))
    tn = data.draw(rare(tagged(st.integers(0, n), [n + 1, -1, *INT_BAD])))
    p_arg = data.draw(rare(tagged(st.just(p) | st.just(np.int64(p)), [0, -1, 10**7 + 1, *INT_BAD])))
    if p_arg[1] == "bad" and tp[1] == "ok" and isinstance(p_arg[0], int) and not isinstance(p_arg[0], bool):
        tp = (tp[0], "ok" if 0 <= tp[0] <= p_arg[0] else "bad")
    return {"p": p_arg, "n": (n, "ok"), "tp": tp, "tn": tn}


SLICE_STEPS = {
    "p": tagged(st.integers(40, 60), [0, -1, 10**7 + 1, *INT_BAD]),
    "n": tagged(st.integers(40, 60), [0, -1, *INT_BAD]),
    "tp": tagged(st.integers(0, 40), [61, -1, *INT_BAD]),
    "tn": tagged(st.integers(0, 40), [61, -1, *INT_BAD]),
    "metric": metric_arg,
    "tolerance": tolerance_arg,
}


@settings(CI, max_examples=15)
@given(
    data=st.data(),
    args=ctor(
        metric=metric_arg,
        models=tagged(
            st.sampled_from([["binomial"], ("beta-binomial",), "binomial"]), [[], ["nope"], ["binomial"] * 5]
        ),
        mode=tagged(st.sampled_from(["pmf", "histogram"]), ["bars", None]),
        bins=width_arg(2, 400),
        tolerance=tolerance_arg,
        max_values=tagged(st.sampled_from([20, 20_000]), [19, *INT_BAD]),
    ),
)
def test_metric_pmf(worker, data, args):
    args = {**_slice_args(data), **args}
    pools = {**SLICE_STEPS, "confidence": confidence_arg, "bins": width_arg(2, 400), "width": width_arg(200, 2000)}
    steps = steps_of(data, pools)
    models, tag = args["models"]
    panels = (1 if isinstance(models, str) else len(models)) if tag == "ok" else 2  # a text is one model
    index = data.draw(tagged(st.integers(0, 0) | st.just(np.int64(0)), [panels, -1, 10, *INT_BAD]))
    steps.append(("call", "panel_data", {"index": index[0]}, index[1]))
    steps.append(("update", "update", {"p": 50, "n": 50, "tp": 41, "tn": 41}, "ok"))
    steps.append(("update", "update", {"p": 10, "tp": 11}, "bad"))
    run(worker, "MetricPMF", args, steps)


def test_metric_pmf_at_a_hundred_thousand(worker):
    """Issue 21's re-run: MCC at p = n = 10⁵ took 105 s and 3.7 GB; now an answer (Monte Carlo,
    labelled) or a clear refusal within the caps, the previous state kept if refused."""
    steps = [("update", "update", {"p": 10**5, "n": 10**5, "tp": 80_000, "tn": 90_000}, "big")]
    run(worker, "MetricPMF", {"metric": ("mcc", "ok")}, steps)


# ----------------------------------------------------------------------------- PairedView
margin_arg = tagged(st.floats(0, 0.5) | st.just(0), [-0.1, NAN, INF, "0.1", None, True])


@settings(CI, max_examples=12)
@given(
    data=st.data(),
    args=ctor(
        comparison=tagged(st.just("@comparison"), [None, "@roc", "comparison"]),
        margin=margin_arg,
        confidence=confidence_arg,
        bins=width_arg(4, 200),
        name_a=tagged(st.text(max_size=8), [None, 3]),
        max_values=tagged(st.sampled_from([20, 4000]), [19, *INT_BAD]),
    ),
)
def test_paired_view(worker, data, args):
    pools = {
        "margin": margin_arg,
        "confidence": confidence_arg,
        "bins": width_arg(4, 200),
        "name_b": tagged(st.text(max_size=8), [None, 3]),
        "max_values": tagged(st.sampled_from([20, 4000]), [19, *INT_BAD]),
        "width": width_arg(160, 1200),
        "metric": tagged(st.just("accuracy"), ["f1", None]),
    }
    run(worker, "PairedView", args, steps_of(data, pools), first="comparison")


# ----------------------------------------------------------------------------- PlannerView
rate_arg = tagged(st.floats(0.55, 0.95), [0.0, 1.0, -0.1, 1.5, NAN, "0.8", None, True])


@settings(CI, max_examples=12)
@given(
    data=st.data(),
    args=ctor(
        metric=tagged(st.sampled_from(["accuracy", "recall", "f1"]), ["nope", None, 3]),
        prevalence=tagged(st.floats(0.2, 0.8), [0.0, 1.0, -0.1, NAN, "0.3", None, True]),
        tpr=rate_arg,
        half_width=tagged(st.floats(0.08, 0.3), [0.0, -0.1, NAN, INF, "0.1", None, True]),
        prior=tagged(st.sampled_from(["uniform", "jeffreys", 0.5, 1.0, None]), [0, -1, NAN, "flat", True]),
        max_size=tagged(st.sampled_from([50, 500, 2000]), [1, 0, 200_001, *INT_BAD]),
    ),
)
def test_planner_view(worker, data, args):
    pools = {
        "tnr": rate_arg,
        "half_width": tagged(st.floats(0.08, 0.3), [0.0, -0.1, NAN, INF, "0.1", None, True]),
        "confidence": confidence_arg,
        "tolerance": tolerance_arg,
        "width": width_arg(240, 2000),
        "mode": tagged(st.just("rates"), ["nope", None]),
    }
    run(worker, "PlannerView", args, steps_of(data, pools, most=3))


@pytest.mark.parametrize(("plan", "tag"), [("@plan", "ok"), (None, "bad"), ("@roc", "bad"), ("plan", "bad")])
def test_planner_view_from_plan(worker, plan, tag):
    run(worker, "PlannerView.from_plan", {"plan": (plan, tag), "max_size": (2000, "ok")}, [], first="plan")


# ----------------------------------------------------------------------------- RocView, PrecisionRecallView
@settings(CI, max_examples=15)
@given(
    data=st.data(),
    kind=st.sampled_from([("RocView", "@roc", "@pr"), ("PrecisionRecallView", "@pr", "@roc")]),
    args=ctor(
        linked=tagged(st.booleans(), ["no", None, 2]),
        slice_options=tagged(st.sampled_from([None, {}, {"metric": "f1"}]), [{"p": 3}, {"size": 10}, "x", {"x": 1}]),
        size=width_arg(200, 2000),
    ),
)
def test_curve_views(worker, data, kind, args):
    make, curve, other = kind
    linked, options = args["linked"], args["slice_options"][0]
    if options and linked == (False, "ok"):  # options of a slice that is not made
        args["slice_options"] = (options, "bad")
    args["curve"] = data.draw(rare(tagged(st.just(curve), [other, None, "curve"])))
    pools = {
        "index": tagged(st.integers(0, 10) | st.just(np.int64(2)), [-1, 10**9, *INT_BAD]),
        "confidence": confidence_arg,
        "size": width_arg(200, 2000),
    }
    steps = steps_of(data, pools)
    threshold = data.draw(tagged(st.floats(-5, 5) | st.sampled_from([INF, -INF]), [NAN, "0.5", None, [0.5]]))
    steps.append(("call", "set_threshold", {"threshold": threshold[0]}, threshold[1]))
    point = data.draw(tagged(st.fixed_dictionaries({"tp": st.integers(-5, 40), "fp": st.integers(-5, 40)}),
                             [{"tp": "a", "fp": 1}, {"tp": None, "fp": 1}, {"tp": 1, "fp": [2]}]))  # fmt: skip
    steps.append(("call", "nearest_index", *point))
    if linked == (True, "ok") and args["slice_options"][1] == "ok":
        steps.append(("set", "slice.tp", *data.draw(tagged(st.integers(0, 10), [-1, 10**9, 2.5, "3"]))))
    run(worker, make, args, steps, first="curve")


# ----------------------------------------------------------------------------- RocSlice
levels_arg = tagged(st.lists(st.floats(-1, 1), max_size=4), [[NAN], [INF], ["a"], "0.5", [0.1] * 1000, None])


@settings(CI, max_examples=15)
@given(
    data=st.data(),
    args=ctor(
        metric=metric_arg,
        levels=levels_arg,
        coordinates=tagged(st.sampled_from(["roc", "counts"]), ["xy", None]),
        max_points=tagged(st.sampled_from([1, 100, 10**6]), [0, -1, *INT_BAD]),
        model=tagged(st.sampled_from(["none", "binomial", "beta-binomial"]), ["nope", None]),
        contour_metrics=tagged(st.sampled_from([[], ["f1"], ["f1", "accuracy"], "f1"]), [["nope"], [3], [None]]),
    ),
)
def test_roc_slice(worker, data, args):
    args = {**_slice_args(data), **args}
    pools = {
        **SLICE_STEPS,
        "levels": levels_arg,
        "model": tagged(st.sampled_from(["none", "beta-binomial"]), ["nope", None]),
        "contour_levels": tagged(st.sampled_from([{}, {"f1": [0.5]}]), [{"nope": [0.5]}, {"f1": [NAN]}, {"f1": "a"}]),
        "extend": tagged(st.booleans(), ["yes", None, 2]),
    }
    steps = steps_of(data, pools)
    steps.append(("call", "set_slice", *data.draw(tagged(st.just({"p": 50, "tp": 45}), [{"p": 5, "tp": 45}]))))
    run(worker, "RocSlice", args, steps)


# ----------------------------------------------------------------------------- StabilityView
GRID = [10.0, 20.0, 40.0, 80.0, 160.0]
CURVE = [round(1 / (1 + (30 / n) ** 0.8), 6) for n in GRID]


@settings(CI, max_examples=15)
@given(
    data=st.data(),
    args=ctor(
        n_learners=tagged(st.just(GRID), [[10, 20, 40], [10, NAN, 40, 80, 160], [-10, 20, 40, 80, 160], "abcde", None]),
        stability=tagged(
            st.sampled_from([CURVE, [NAN, *CURVE[1:]]]), [CURVE[:-1], [INF, *CURVE[1:]], [-0.1, *CURVE[1:]]]
        ),
        stability_target=tagged(st.floats(0.5, 0.99), [0.0, 1.0, 1.5, NAN, "0.9", None, True]),
        n_least=tagged(st.integers(0, 10), [-1, *INT_BAD]),
        per_object=tagged(st.sampled_from([None, [0.2, 0.9, 0.5], [NAN, 0.5]]), ["x", [["a"]]]),
    ),
)
def test_stability_view(worker, data, args):
    target = tagged(st.floats(0.5, 0.999), [0.0, 1.0, 1.5, NAN, "0.9", None, True])
    run(worker, "StabilityView", args, steps_of(data, {"stability_target": target, "target": target}))


def test_the_state_check_sees_what_a_refusal_must_not_change():
    """The check behind "bad input loses nothing" can fail: it sees a trait, a buffer, a held view's
    trait and a drawn result change (run here, in this process, on widgets changed on purpose)."""
    from _hostile_worker import _same_value, _widget_state

    def changed(widget: Any, change: Any) -> list[str]:
        before = _widget_state(widget)
        change(widget)
        after = _widget_state(widget)
        return sorted(k for k in before.keys() | after.keys() if not _same_value(before.get(k), after.get(k)))

    import confusionlab as cl

    pmf = cl.MetricPMF(p=10, n=20)
    assert "MetricPMF.confidence" in changed(pmf, lambda w: setattr(w, "confidence", 0.9))
    assert "distributions()" in changed(pmf, lambda w: w.update(tolerance=1e-6))
    assert changed(pmf, lambda w: w.set_trait("_values", b"\0" * 8)) == ["MetricPMF._values"]
    view = cl.RocView(cl.roc_curve([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]))
    assert changed(view, lambda w: setattr(w.slice, "size", 300)) == ["RocView._slices[0].size"]  # the linked slice
    explorer = cl.Explorer(scheduler=lambda f: f())
    moved = changed(explorer, lambda w: setattr(w.sliders["tp"], "value", 3))
    assert {"Explorer.tp", "Explorer._shown"} <= set(moved)
    assert sum(k.endswith(".tp") for k in moved) == 3  # the Explorer's, the slice's and the PMF's, each its own
    assert any(k.endswith(".observed") for k in moved) and any(k.endswith("._probabilities") for k in moved)
    assert changed(explorer, lambda w: None) == []
