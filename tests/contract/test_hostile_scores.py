"""Hostile arguments against roc_curve and RocView (issue 22), in the capped child process of the
contract tests (``_hostile_worker.py``: address space capped at its baseline + 3 GiB, CPU 60 s a
call, the library's memory limit 512 MiB). The contract is
:func:`test_core_hostile.assert_contract`'s: a valid result whose invariants hold, or a refusal
(InvalidParameterError, TooLargeError) that names the argument — never a crash, a blow-up or a hang.
"""

from __future__ import annotations

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


SCORES = st.lists(
    st.one_of(st.floats(-1e300, 1e300), st.sampled_from([0.0, -0.0, 0.5, 1.0, 5e-324])), min_size=4, max_size=40
)
method_arg = tagged(st.sampled_from(["auto", "delong", "logit", "score", "bootstrap"]), ["wald", None, 1, ""])
confidence_arg = tagged(st.sampled_from([0.5, 0.9, 0.95, 0.999]), [0.0, 1.0, 1.5, -0.1, NAN, INF, "0.95", None])


@settings(CI, max_examples=60)
@given(scores=SCORES, labels=st.data(), method=method_arg, confidence=confidence_arg)
def test_roc_curve_with_hostile_scores_and_arguments(worker, scores, labels, method, confidence):
    y = labels.draw(st.lists(st.sampled_from(["pos", "neg"]), min_size=len(scores), max_size=len(scores)))
    y = [1 if v == "pos" else 0 for v in y]
    (m, mtag), (c, ctag) = method, confidence
    one_class = len(set(y)) < 2
    reply = worker.call("roc_curve", y_true=y, y_score=scores, method=m, confidence=c)
    args = {"method": (m, mtag), "confidence": (c, ctag), "y_true": (y, "bad" if one_class else "ok")}
    assert_contract(reply, args, "roc_curve")


@pytest.mark.parametrize(
    ("y_score", "tag"),
    [([0.1, NAN, 0.3, 0.4], "bad"), ([0.1, INF, 0.3, 0.4], "bad"), (["a", "b", "c", "d"], "bad"), ([0.5] * 4, "ok")],
)
def test_roc_curve_refuses_nan_inf_and_text_scores_by_name(worker, y_score, tag):
    reply = worker.call("roc_curve", y_true=[0, 1, 0, 1], y_score=y_score, method="delong", confidence=0.95)
    assert_contract(reply, {"y_score": (y_score, tag)}, "roc_curve")


def test_a_huge_bootstrap_is_refused_before_allocating(worker):
    reply = worker.call(
        "roc_curve",
        y_true=[0, 1] * 50,
        y_score=list(range(100)),
        method="bootstrap",
        confidence=0.95,
        n_resamples=10**8,
    )
    assert_contract(reply, {"n_resamples": (10**8, "big")}, "roc_curve(...).interval(n_resamples=1e8)")
    assert reply["kind"] == "error"


# None leaves the trait alone (call_roc_view's default), so it is no hostile value here
index_arg = tagged(st.integers(0, 30), [-1, 10**9, 1.5, "1", NAN, True])
view_confidence = tagged(st.sampled_from([0.5, 0.9, 0.99]), [0.0, 1.0, NAN, "x"])
threshold_arg = tagged(st.floats(-10, 10) | st.sampled_from([INF, -INF]), [NAN, "0.5", [0.5]])
tp_arg = tagged(st.integers(0, 80), [-1, 10**9, 2.5, "3"])


@settings(CI, max_examples=40)
@given(index=index_arg, confidence=view_confidence, threshold=threshold_arg, tp=tp_arg)
def test_roc_view_with_hostile_traits(worker, index, confidence, threshold, tp):
    (i, itag), (c, ctag), (t, ttag), (k, ktag) = index, confidence, threshold, tp
    reply = worker.call("roc_view", index=i, confidence=c, threshold=t, tp=k)
    args = {"index": (i, itag), "confidence": (c, ctag), "threshold": (t, ttag), "tp": (k, ktag)}
    if reply["kind"] == "error" and "TraitError" in reply["mro"]:
        # traitlets refuses out-of-type values itself (a plain TraitError names the trait)
        assert any(tag == "bad" for _, tag in args.values()), reply
        assert any(name in reply["message"] for name, (_, tag) in args.items() if tag == "bad"), reply
        return
    assert_contract(reply, args, "RocView")
