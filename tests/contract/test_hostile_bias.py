"""Hostile arguments against the bias functions and their results (issue 21, "What"), in the capped
child process of the contract tests (``_hostile_worker.py``: address space capped at its baseline +
3 GiB, CPU 60 s a call, the library's memory limit 512 MiB).

Covered: ``bias.report``, ``pretraining``, ``posttraining``, ``report_each_value``,
``report_from_counts`` (with ``CountTable.from_confusion``), ``audit`` (the arguments
``test_hostile_issue21`` leaves out), the methods of a ``BiasMetric`` (``interval``, ``mc_error``,
``verdict``, ``contains_no_bias``, ``distribution_for``, ``to_frame``, ``summary``), of a
``BiasReport`` and of an ``Audit`` (``verdict_table``, ``to_html``, ``to_frame``, ``interval``,
``mc_error``, ``fragile``, ``compared_with``, ``favoured``, ``counts``, ``summary``, ``plot``) and
of a ``GroupSizePlan`` (``plan_group_size``'s arguments are in ``test_hostile_surface``).

The contract is :func:`test_core_hostile.assert_contract`'s: a valid result whose checked invariants
hold (every metric a float or an error in words, intervals ordered, verdicts among the three, no two
audit rows for one (facet, group, metric)), or a refusal that names the argument, never a memory or
CPU cap hit. The data errors the functions document (a missing label, no rows: a ``ValueError``)
must name the column's argument or the data.
"""

from __future__ import annotations

from typing import Any

import pytest
from _hostile_worker import Worker
from hypothesis import given, settings
from hypothesis import strategies as st
from test_core_hostile import CI, INF, NAN, _names, assert_contract
from test_hostile_widgets import ctor, tagged


@pytest.fixture(scope="module")
def worker():
    w = Worker()
    yield w
    w.close()


COLUMNS = {"data", "label", "facet", "facets", "predicted", "group", "features", "positive_values", "facet_values"}


def check(reply: dict[str, Any], args: dict[str, tuple[Any, str]], call: str) -> None:
    if args.get("data") == ("missing", "bad") and args.get("dropna") == (True, "ok"):
        args = {**args, "data": ("missing", "ok")}  # dropna=True leaves the row with a missing label out
    """:func:`assert_contract`, where a documented data error (a plain ValueError: a missing value, no
    rows, predictions that are not label values) may refuse hostile rows naming a column's argument or
    the data, or a hostile column naming it."""
    if reply["kind"] == "error" and reply["mro"][0] == "ValueError":
        hostile = {k for k, (_, tag) in args.items() if tag == "bad"} & COLUMNS
        if ("data" in hostile and _names(reply["message"], COLUMNS)) or _names(reply["message"], hostile):
            return
    assert_contract(reply, args, call)


confidence_arg = tagged(st.sampled_from([0.5, 0.9, 0.95, 0.99]), [0.0, 1.0, 1.5, -0.1, NAN, INF, "0.95", None, True])
prior_arg = tagged(st.sampled_from(["uniform", "jeffreys", 0.5, 1]), [0, -1, NAN, INF, "flat", None, True])
n_draws_arg = tagged(st.sampled_from([200, 1000]), [0, 99, -1, 2.5, NAN, "1000", True], [10**12])
random_state_arg = tagged(st.sampled_from([0, 7, None]), [-1, 2.5, "seed", True])
tolerance_arg = tagged(st.sampled_from([0.0, 1e-12, 1e-9]), [-1e-9, NAN, INF, 0.5, "1e-9", True])
target_arg = tagged(st.sampled_from(["true_value", "next_test_set"]), ["nope", "", 3])
flag_arg = tagged(st.booleans(), ["yes", 1, 0])
progress_arg = tagged(st.sampled_from([None, False]), ["yes", 2])
OPTIONS = {
    "prior": prior_arg,
    "n_draws": n_draws_arg,
    "random_state": random_state_arg,
    "tolerance": tolerance_arg,
    "target": target_arg,
    "progress": progress_arg,
}


# ----------------------------------------------------------------------------- report and its halves
@settings(CI, max_examples=25)
@given(
    function=st.sampled_from(["report", "pretraining", "posttraining"]),
    args=ctor(
        data=tagged(st.sampled_from(["rows", "one_facet", "mixed"]), ["missing", "empty", "not_a_frame"]),
        label=tagged(st.just("y"), ["nope", None, 3, ["y"]]),
        facet=tagged(st.just("sex"), ["nope", None, 3, []]),
        positive_values=tagged(st.sampled_from([[1], [0, 1], (1,)]), [[], 1, "1", None]),
        facet_values=tagged(st.sampled_from([["F"], ["M"], ["F", "M"], ["Z"]]), [[], "F", None]),
        predicted=tagged(st.sampled_from(["p", "y"]), ["nope", 3, ["p"]]),
        group=tagged(st.sampled_from(["g", None]), ["nope", 3]),
        features=tagged(st.sampled_from([["x"], None, ["x", "score"]]), ["x", ["nope"], [3]]),
        dropna=flag_arg,
        stage=tagged(st.sampled_from(["all", "pre", "post"]), ["mid", None, 1]),
        kl_labels=tagged(st.sampled_from(["binary", "values"]), ["nope", None]),
        **OPTIONS,
    ),
)
def test_report(worker, function, args):
    if function != "report":
        args.pop("stage")  # the halves choose it
    if function == "pretraining":  # it leaves out predicted and features (one set of arguments for both halves)
        args["predicted"], args["features"] = (args["predicted"][0], "ok"), (args["features"][0], "ok")
    reply = worker.call("bias_report", function=function, frame=args["data"][0],
                        **{k: v for k, (v, _) in args.items() if k != "data"})  # fmt: skip
    check(reply, args, f"bias.{function}")


@settings(CI, max_examples=12)
@given(
    args=ctor(
        facet=tagged(st.just("x"), ["sex", "nope"]),
        facet_threshold=tagged(st.sampled_from([0.0, 0.5, -1]), [NAN, INF, "0.5", None, True]),
        label_threshold=tagged(st.sampled_from([0.5, 0]), [NAN, "0.5", True]),
    )
)
def test_report_with_thresholds(worker, args):
    kwargs = {k: v for k, (v, _) in args.items()}
    reply = worker.call("bias_report", function="report", label="score", predicted=None, n_draws=200, **kwargs)
    check(reply, args, "bias.report(thresholds)")


@pytest.mark.parametrize("facet_values", [None, ["F"]])
def test_report_each_value(worker, facet_values):
    """Each value against the rest; ``facet_values`` is not its argument (None is its absence)."""
    reply = worker.call("bias_report", function="report_each_value", label="y", positive_values=[1], facet="sex",
                        facet_values=facet_values, stage="pre", n_draws=200)  # fmt: skip
    check(reply, {"facet_values": (facet_values, "ok" if facet_values is None else "bad")}, "bias.report_each_value")


# ----------------------------------------------------------------------------- report_from_counts
count = tagged(st.integers(0, 60), [-1, 2.5, NAN, "3", None, True], [10**9, 2**53])


@settings(CI, max_examples=25)
@given(
    a=st.lists(count, min_size=4, max_size=4),
    d=st.lists(count, min_size=4, max_size=4),
    args=ctor(
        stage=tagged(st.sampled_from(["all", "pre", "post"]), ["mid", None]),
        kl_labels=tagged(st.sampled_from(["binary", "values"]), ["nope"]),
        value_or_threshold=tagged(st.sampled_from(["d", "women"]), [None, 3]),
        **OPTIONS,
    ),
)
def test_report_from_counts(worker, a, d, args):
    a_values, d_values = [v for v, _ in a], [v for v, _ in d]
    tags = {tag for _, tag in a + d}
    ctag = "bad" if "bad" in tags else ("big" if "big" in tags else "ok")
    kwargs = {k: v for k, (v, _) in args.items()}
    reply = worker.call("bias_counts", a=a_values, d=d_values, **kwargs)
    check(reply, {**args, "a": (a_values, ctag), "d": (d_values, ctag)}, "bias.report_from_counts")


# ----------------------------------------------------------------------------- audit
@settings(CI, max_examples=25)
@given(
    args=ctor(
        data=tagged(st.sampled_from(["rows", "one_facet", "mixed"]), ["missing", "empty", "not_a_frame"]),
        label=tagged(st.just("y"), ["nope", None, 3]),
        positive_values=tagged(st.sampled_from([[1], [0, 1]]), [[], 1, None]),
        facets=tagged(st.sampled_from(["sex", ["sex", "age"], ("age",)]), ["nope", [], None, 3, ["y"], ["sex", 3]]),
        predicted=tagged(st.sampled_from(["p", None]), ["nope", 3, "sex"]),
        metrics=tagged(st.sampled_from([["DPPL"], ["DI", "KS"], ["CI"]]), [["f1"], [], "DPPL DI", [3]]),
        margin=tagged(st.sampled_from([0.0, 0.1, 0.5]), [-0.1, NAN, INF, "0.1", None, True]),
        confidence=confidence_arg,
        reference=tagged(
            st.sampled_from([None, {"sex": "M"}, {}]), [{"sex": "Z"}, {"nope": "M"}, "sex", {"sex": None}]
        ),
        intersections=flag_arg,
        simultaneous=flag_arg,
        dropna=flag_arg,
        **OPTIONS,
    )
)
def test_audit(worker, args):
    if args["predicted"] == (None, "ok") and args["metrics"][1] == "ok" and args["metrics"][0] != ["CI"]:
        args["metrics"] = (["DPL", "KS"], "ok")  # without predictions: the label metrics
    facets, reference = args["facets"][0], args["reference"][0]
    if reference and (
        not isinstance(facets, (list, tuple, str)) or "sex" not in facets or args["data"][0] == "one_facet"
    ):
        args["reference"] = (reference, "bad")  # a reference for a facet not audited, or a value not in it
    reply = worker.call("bias_audit", frame=args["data"][0], **{k: v for k, (v, _) in args.items() if k != "data"})
    check(reply, args, "bias.audit")


# ----------------------------------------------------------------------------- the results' methods
BIAS_METRIC_METHODS = {
    "interval": {"confidence": confidence_arg, "target": tagged(st.sampled_from([None, "true_value"]), ["x", 3])},
    "mc_error": {"confidence": confidence_arg, "target": tagged(st.sampled_from([None, "next_test_set"]), ["x"])},
    "verdict": {
        "margin": tagged(st.sampled_from([0.0, 0.05, 1]), [-0.1, NAN, INF, "0.1", None, True]),
        "confidence": confidence_arg,
    },
    "contains_no_bias": {"confidence": confidence_arg},
    "distribution_for": {"target": tagged(st.sampled_from([None, "true_value", "next_test_set"]), ["x", 3, ""])},
    "to_frame": {"confidence": confidence_arg},
    "summary": {"confidence": confidence_arg},
}


@settings(CI, max_examples=40)
@given(
    data=st.data(),
    metric=st.sampled_from(["DPPL", "DI", "KS", "CDDL", "FT", "TE", "KL"]),
    method=st.sampled_from(sorted(BIAS_METRIC_METHODS)),
)
def test_bias_metric_methods(worker, data, metric, method):
    args = data.draw(ctor(**BIAS_METRIC_METHODS[method]))
    if method == "verdict" and "margin" not in args:
        args["margin"] = (0.1, "ok")
    reply = worker.call(
        "bias_method", result=f"report:{metric}", method=method, args={k: v for k, (v, _) in args.items()}
    )
    if metric == "FT" and method == "verdict" and reply["kind"] == "error" and reply["mro"][0] == "ValueError":
        assert "FT" in reply["message"], reply  # documented: FT has no posterior, so no verdict
        return
    check(reply, args, f"BiasMetric({metric}).{method}")


REPORT_METHODS = {
    "interval": {"confidence": confidence_arg, "target": tagged(st.sampled_from([None, "true_value"]), ["x"])},
    "to_frame": {"confidence": confidence_arg},
    "summary": {"confidence": confidence_arg},
    "to_clarify_json": {},
}
AUDIT_METHODS = {
    "verdict_table": {},
    "to_frame": {},
    "mc_error": {},
    "fragile": {},
    "favoured": {},
    "counts": {},
    "interval": {"confidence": confidence_arg},
    "summary": {"confidence": confidence_arg},
    "to_html": {
        "confidence": confidence_arg,
        "title": tagged(st.just("Audit"), []),
        "color": tagged(st.nothing(), ["red"]),
    },
    "compared_with": {"facet": tagged(st.sampled_from(["sex", "age"]), [None, 3, ["sex"], "nope", "sex & age"])},
    "plot": {},
}


# None: the plan's own confidence, accepted with a FutureWarning for one more release (documented)
plan_confidence = tagged(st.sampled_from([0.5, 0.9, 0.95, None]), [0.0, 1.0, 1.5, NAN, INF, "0.95", True])
PLAN_METHODS = {"interval": {"confidence": plan_confidence}, "summary": {"confidence": confidence_arg},
                "to_frame": {}, "plot": {}}  # fmt: skip
METHODS = {"report": REPORT_METHODS, "audit": AUDIT_METHODS, "plan": PLAN_METHODS}


@settings(CI, max_examples=40)
@given(data=st.data(), what=st.sampled_from([(r, m) for r, methods in METHODS.items() for m in methods]))
def test_report_audit_and_plan_methods(worker, data, what):
    result, method = what
    pools = METHODS[result][method]
    args = data.draw(ctor(**pools)) if pools else {}
    args = {k: v for k, v in args.items() if not (k == "color" and v[1] == "ok")}
    reply = worker.call("bias_method", result=result, method=method, args={k: v for k, (v, _) in args.items()})
    check(reply, args, f"{result}.{method}")
