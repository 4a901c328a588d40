"""Hostile arguments to every public method of an Evaluation, and to the mixtures beneath it
(issue 21: the hostile sweep extended to last round's surface), each call in the capped child
process of the contract tests (``_evaluate_worker.py``: address space at its baseline + 3 GiB,
the library's limit 512 MiB, 60 CPU seconds a call).

The contract is :func:`test_core_hostile.assert_contract`'s: a valid answer whose invariants
hold, or an InvalidParameterError naming the offending argument; never a crash (AttributeError,
IndexError, KeyError …), a blow-up or a runaway call.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from _evaluate_worker import EvaluateWorker
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "contract"))
from test_core_hostile import CI, INF, NAN, assert_contract, tagged


@pytest.fixture(scope="module")
def worker():
    w = EvaluateWorker()
    yield w
    w.close()


group_arg = tagged(st.sampled_from(["a", "b", "all", None]), ["zzz", 5, 1.5, [1], True])
binary_metric = tagged(st.sampled_from(["f1", "F1", "specificity", "mcc", "recall"]), ["nope", "", 3, None, "f1 f1"])
confidence_arg = tagged(st.sampled_from([0.5, 0.9, 0.95]), [1.5, -0.1, NAN, INF, "0.95", None, True, 95, 0.0, 1.0])
k_arg = tagged(st.sampled_from([0, 1, 10, 10**12]), [-1, 1.5, True, None, "3", NAN])
run_arg = tagged(st.sampled_from([None, 0, 1, 2]), [-1, 3, 1.5, True, "1", NAN])
max_groups_arg = tagged(st.sampled_from([1, 2, 12]), [0, -1, 1.5, True, None, "2"])
metrics_arg = tagged(st.sampled_from([None, "f1", ["f1", "recall"], []]), ["nope", ["f1", "nope"], 3, [None]])

METHODS = {  # method -> its arguments' pools
    "distribution": {"metric": binary_metric, "group": group_arg},
    "interval_of": {"metric": binary_metric, "confidence": confidence_arg, "group": group_arg},
    "value_of": {"metric": binary_metric, "group": group_arg},
    "decompose": {"metric": binary_metric, "group": group_arg},
    "refit_means": {"metric": binary_metric, "group": group_arg},
    "mc_error": {"metric": binary_metric, "group": group_arg},
    "per_class": {"metric": binary_metric, "group": group_arg},
    "too_small": {"metric": binary_metric, "group": group_arg},
    "sizes": {"group": group_arg},
    "by_group": {"metric": binary_metric},
    "question": {"metric": binary_metric},
    "summary": {"confidence": confidence_arg},
    "interval": {"confidence": confidence_arg},
    "least_stable": {"k": k_arg, "group": group_arg},
    "confusion_matrix": {"group": group_arg, "run": run_arg},
    "to_frame": {"metrics": metrics_arg, "confidence": confidence_arg},
    "plot": {"metric": binary_metric, "confidence": confidence_arg, "max_groups": max_groups_arg},
    "to_html": {"metric": binary_metric, "confidence": confidence_arg},
}
DEFAULT_OK = {("plot", "metric"), ("to_html", "metric")}  # None: the first metric


@st.composite
def method_calls(draw):
    method = draw(st.sampled_from(sorted(METHODS)))
    args = {name: draw(pool) for name, pool in METHODS[method].items()}
    args = {name: (v, "ok" if (method, name) in DEFAULT_OK and v is None else tag) for name, (v, tag) in args.items()}
    return method, args


@settings(CI, max_examples=120)
@given(call=method_calls())
def test_every_evaluation_method_with_hostile_arguments(worker, call):
    method, args = call
    reply = worker.call("evaluation_method", kind="binary", method=method, kwargs={k: v for k, (v, _) in args.items()})
    assert_contract(reply, args, f"Evaluation.{method}")


@settings(CI, max_examples=25)
@given(
    method=st.sampled_from(["distribution", "value_of", "to_frame", "per_class", "mc_error"]),
    metric=tagged(st.sampled_from(["macro_f1", "multiclass_mcc", "macro_recall"]), ["f1", "nope", 3]),  # f1: binary
    group=group_arg,
)
def test_three_class_evaluation_methods(worker, method, metric, group):
    """Three classes without ``positive``: a binary metric is refused naming ``metric`` (and
    the ``positive`` to pass), per_class takes a binary metric (a macro average is refused)."""
    m = metric[0]
    kwargs = {"metrics": [m]} if method == "to_frame" else {"metric": m, "group": group[0]}
    args = {"metrics": metric} if method == "to_frame" else {"metric": metric, "group": group}
    if method == "per_class":
        args["metric"] = (m, "bad" if m in ("macro_f1", "multiclass_mcc", "macro_recall", "nope", 3) else "ok")
    reply = worker.call("evaluation_method", kind="three", method=method, kwargs=kwargs)
    assert_contract(reply, args, f"Evaluation.{method}[3 classes]")


count = st.integers(0, 12)
rows = st.lists(st.tuples(count, count), min_size=1, max_size=4)


@st.composite
def group_counts(draw):
    out = []
    for _ in range(draw(st.integers(1, 5))):
        p, n = draw(st.integers(1, 12)), draw(st.integers(0, 12))
        r = draw(st.integers(1, 4))
        out.append([(tp, p - tp, n - tn, tn) for tp, tn in
                    ((draw(st.integers(0, p)), draw(st.integers(0, n))) for _ in range(r))])  # fmt: skip
    # every group needs the same number of refits: repeat the first run where fewer
    most = max(len(g) for g in out)
    return [g + [g[0]] * (most - len(g)) for g in out]


@settings(CI, max_examples=40)
@given(
    counts=st.one_of(
        group_counts().map(lambda c: (c, "ok")),
        st.sampled_from(
            [([[(1, 2, 3)]], "bad"), ([[(-1, 2, 3, 4)]], "bad"), ([], "ok"), ([[(1, 1, 1, 1), (2, 1, 1, 1)]], "bad")]
        ),
    ),
    metric=tagged(st.sampled_from(["f1", "mcc", "lr_plus", "precision", "specificity"]), ["nope", None]),
    tolerance=tagged(st.sampled_from([0.0, 1e-12, 1e-6]), [-1.0, NAN, "1e-9", None]),
)
def test_slice_mixtures(worker, counts, metric, tolerance):
    reply = worker.call("slice_mixtures", counts=counts[0], metric=metric[0], tolerance=tolerance[0])
    assert_contract(reply, {"counts": counts, "metric": metric, "tolerance": tolerance}, "slice_mixtures")


@settings(CI, max_examples=30)
@given(
    means=tagged(st.lists(st.floats(-1, 1), min_size=1, max_size=5), [["a"], None], [[INF, 0.5], [NAN]]),
    variances=tagged(st.lists(st.floats(0, 1), min_size=1, max_size=5), [["a"], None], [[INF]]),
)
def test_decompose(worker, means, variances):
    if means[1] != "bad" and variances[1] != "bad" and len(means[0]) != len(variances[0]):
        variances = (variances[0], "bad")  # one variance per mean
    reply = worker.call("decompose", means=means[0], variances=variances[0])
    assert_contract(reply, {"means": means, "variances": variances}, "mixture.decompose")
