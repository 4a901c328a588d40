"""Hostile arguments against what issue 21 repaired, in the capped child process of the contract tests.

Each call runs in ``_hostile_worker.py`` (address space capped at its baseline + 3 GiB,
CPU 60 s a call, the library's memory limit 512 MiB); the contract is
:func:`test_core_hostile.assert_contract`'s: a valid result whose invariants hold, or a
refusal (InvalidParameterError, TooLargeError) that names the argument, never a crash,
a blow-up or a hang.
"""

from __future__ import annotations

import math

import pytest
from _hostile_worker import Worker
from hypothesis import given, settings
from hypothesis import strategies as st
from test_core_hostile import CI, INF, NAN, assert_contract, tagged


@pytest.fixture(scope="module")
def worker():
    w = Worker()
    yield w
    w.close()


LABEL_KINDS = ["list", "object", "Int64", "boolean", "Categorical", "Series", "arrow", "chunked"]


@settings(CI, max_examples=40)
@given(kind=st.sampled_from(LABEL_KINDS), labels=st.lists(st.sampled_from([0, 1, None]), min_size=2, max_size=12))
def test_labels_with_missing_values_from_every_container(worker, kind, labels):
    if kind == "Categorical" and set(labels) <= {None}:
        labels = [0, *labels[1:]]
    y_pred = [1] * len(labels)
    reply = worker.call("labels", kind=kind, y_true=labels, y_pred=y_pred)
    tag = "bad" if None in labels else "ok"
    assert_contract(reply, {"y_true": (labels, tag)}, f"from_predictions[{kind}]")


GROUPS = st.one_of(
    st.lists(st.sampled_from([1, "1", 1.5, "a", ("t",), True]), min_size=2, max_size=40),
    st.integers(2, 60).map(lambda k: list(range(k))),  # every row its own group
)
metrics_arg = tagged(st.sampled_from([["DPPL"], ["DPPL", "DI"], "KS", ["CI", "JS"]]), ["f1", ["f1"], [], None, 3])
margin_arg = tagged(st.sampled_from([0.0, 0.05, 0.1, {"DPPL": 0.1}]), [-0.1, NAN, INF, "0.1", None])


@settings(CI, max_examples=30)
@given(groups=GROUPS, metrics=metrics_arg, margin=margin_arg)
def test_audit_groups_of_any_kind(worker, groups, metrics, margin):
    (m, mtag), (g, gtag) = metrics, margin
    if mtag == "bad" and m is None:  # None is the default (all metrics): valid
        mtag = "ok"
    if isinstance(g, dict) and m != ["DPPL"]:
        gtag = "bad"  # a margin per metric that misses some metric
    reply = worker.call("audit", groups=groups, metrics=m, margin=g)
    assert_contract(reply, {"metrics": (m, mtag), "margin": (g, gtag)}, "bias.audit")


@pytest.mark.parametrize("rows", [100_000])
def test_audit_of_a_row_id_facet_is_refused_within_the_caps(worker, rows):
    reply = worker.call("audit", groups=list(range(rows)), metrics=None, margin=0.1)
    assert_contract(reply, {"facets": ("g", "big")}, "bias.audit(row id)")
    assert reply["kind"] == "error" and "MAX_AUDIT_ROWS" in reply["message"], reply


index_arg = tagged(st.integers(0, 3), [True, False, -1, -5, 4, 10**9, 1.0, "1", None, NAN])


@settings(CI, max_examples=25)
@given(index=index_arg)
def test_audit_view_cell_index(worker, index):
    value, _ = index
    assert_contract(worker.call("audit_view_cell", index=value), {"index": index}, "AuditView.cell_row")


n_learners_arg = tagged(
    st.one_of(st.floats(0, 1e6), st.lists(st.integers(0, 10**6), min_size=1, max_size=5)),
    [-1, -0.5, [10, -1], NAN, "10", None, True, [None]],
    [INF, 1e308],
)


@settings(CI, max_examples=30)
@given(n=n_learners_arg)
def test_twopl_predict(worker, n):
    assert_contract(worker.call("twopl_predict", n_learners=n[0]), {"n_learners": n}, "TwoPLFit.predict")


point_arg = tagged(
    st.one_of(st.floats(-2, 2), st.lists(st.floats(-2, 2), min_size=1, max_size=4), st.sampled_from([NAN, INF])),
    ["0.5", None, True, [0.5, None], ["a"], b"1", {"x": 1}],
)


@settings(CI, max_examples=40)
@given(method=st.sampled_from(["cdf", "pmf", "sf"]), x=point_arg)
def test_distribution_points(worker, method, x):
    assert_contract(worker.call("points", method=method, x=x[0]), {"x": x}, f"MetricDistribution.{method}")


q_arg = tagged(st.one_of(st.floats(0, 1), st.lists(st.floats(0, 1), min_size=1, max_size=4)),
               ["0.5", None, True, [0.5, None], -0.1, 1.5, NAN])  # fmt: skip


@settings(CI, max_examples=30)
@given(q=q_arg)
def test_distribution_ppf(worker, q):
    assert_contract(worker.call("points", method="ppf", x=q[0]), {"q": q}, "MetricDistribution.ppf")


@settings(CI, max_examples=30)
@given(
    tolerance=tagged(st.sampled_from([0.0, 1e-308, 1e-320, 5e-324, 1e-12])),
    prior=tagged(st.sampled_from([1e-300, 1e-100, 1e-17, 1e-9, 0.5]), [], [1e300]),
    counts=st.sampled_from([(0, 5, 0, 5), (5, 0, 5, 0), (0, 0, 3, 4), (3, 2, 1, 4)]),
    metric=st.sampled_from(["precision", "f1", "mcc", "npv", "accuracy"]),
)
def test_tiny_tolerances_and_priors(worker, tolerance, prior, counts, metric):
    reply = worker.call("metric_distribution", counts=counts, metric=metric, tolerance=tolerance[0], prior=prior[0])
    assert_contract(reply, {"tolerance": tolerance, "prior": prior}, f"metric_distribution{counts}")


@settings(CI, max_examples=30)
@given(beta=tagged(st.floats(1e-100, 1e100), [0, -1, NAN, INF, "2", None, True, 1e300, 1e-300]))
def test_fbeta_beta(worker, beta):
    assert_contract(worker.call("fbeta_metric", beta=beta[0]), {"beta": beta}, "fbeta_metric")


@settings(CI, max_examples=30)
@given(p=st.sampled_from([10**9 + 7, 3 * 10**9 + 1, 10**12, 2**53 - 10]), k=st.integers(0, 10**6))  # N = p + 10 ≤ 2**53
def test_from_rates_beyond_a_billion(worker, p, k):
    reply = worker.call("from_rates", p=p, n=10, tpr=k / p, tnr=0.5)
    assert_contract(reply, {"p": (p, "ok"), "tpr": (k / p, "ok")}, "ConfusionMatrix.from_rates")
    assert not math.isnan(k / p)
