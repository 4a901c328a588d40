"""Hostile arguments against decision_curve, cost_curve and report in the capped child of the contract
tests (``_hostile_worker.py``: address space capped, CPU 60 s a call, the library's memory limit
512 MiB), each example one call there: a valid result whose invariants hold (probabilities in [0, 1],
P(best) adding up to 1, EVPI ≥ 0, the band holding the observed curve, ordered intervals, a page with
one section per result, the title as written, nothing loaded) or a refusal that names the offending
argument (``test_core_hostile.assert_contract``)."""

from __future__ import annotations

from typing import Any

import numpy as np
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


def _labels(n: int) -> st.SearchStrategy[list[int]]:
    return st.lists(st.sampled_from([0, 1]), min_size=n, max_size=n).filter(lambda y: 0 < sum(y) < len(y))


def _spoil(s: list[Any], kind: str) -> list[Any]:
    return {"ok": s, "nan": [NAN, *s[1:]], "inf": [INF, *s[1:]], "text": ["a", *s[1:]], "short": s[:-1],
            "none": [None, *s[1:]], "above": [1.5, *s[1:]], "below": [-0.1, *s[1:]]}[kind]  # fmt: skip


risk = st.one_of(st.floats(0.0, 1.0), st.sampled_from([0.0, 0.5, 1.0, 1e-300, 1 - 1e-16]))
score = st.one_of(st.floats(-1e6, 1e6), st.sampled_from([0.0, 0.5, 1.0]))
confidence_arg = tagged(st.sampled_from([0.5, 0.9, 0.95, 0.999]), [0.0, 1.0, 1.5, NAN, "0.95", None])
prior_arg = tagged(st.sampled_from([None, "uniform", "jeffreys", 0.5, 2.0]), [0, -1, NAN, INF, "flat", True])
thresholds_arg = tagged(
    st.sampled_from([None, [0.1, 0.5], [0.0], list(np.linspace(0.0, 0.95, 20)), np.array([0.2, 0.3, 0.999])]),
    [[0.5, 0.1], [1.0], [-0.1], [NAN], [INF], "0.1", [], [[0.1]], 0.3, ["a"]],
    [np.linspace(0.0, 0.99, 2_501), np.linspace(0.0, 0.99, 10**6)],  # 2 models × 2,501 > 5,000 points
)
prevalence_arg = tagged(st.sampled_from([None, 0.1, 0.5, 0.999]), [0.0, 1.0, 1.5, -0.2, NAN, "0.2", True])
harm_arg = tagged(
    st.sampled_from([0.0, 0.01, {"model": 0.02}, {"model": 0.0, "coarse": 0.1}]),
    [NAN, INF, "0", None, {"model": NAN}, {"nope": 0.1}, [0.1]],
)
names_arg = tagged(
    st.sampled_from([("model",), ("model", "coarse"), ("<b>m</b>", "$x^$"), (1, 2)]),
    [("all",), ("model", "none")],
)


@settings(CI, max_examples=30)
@given(
    data=st.data(),
    n=st.integers(4, 60),
    s_kind=tagged(st.just("ok"), ["nan", "inf", "text", "short", "none", "above", "below"]),
    names=names_arg,
    thresholds=thresholds_arg,
    prevalence=prevalence_arg,
    harm=harm_arg,
    confidence=confidence_arg,
    prior=prior_arg,
)
def test_decision_curve(worker, data, n, s_kind, names, thresholds, prevalence, harm, confidence, prior):
    y = data.draw(_labels(n))
    s = _spoil(data.draw(st.lists(risk, min_size=n, max_size=n)), s_kind[0])
    scores = {name: s for name in names[0]}
    harm_value, harm_tag = harm
    if isinstance(harm_value, dict) and harm_tag == "ok":
        harm_value = {k: v for k, v in harm_value.items() if k in scores}
    kwargs = {"thresholds": thresholds[0], "prevalence": prevalence[0], "harm": harm_value}
    kwargs.update({"confidence": confidence[0], "prior": prior[0]})
    reply = worker.call("surface_decision_curve", y_true=y, y_score=scores, **kwargs)
    args = {"y_score": (scores, "bad" if "bad" in (s_kind[1], names[1]) else "ok"), "thresholds": thresholds}
    args.update({"prevalence": prevalence, "harm": (harm_value, harm_tag), "confidence": confidence, "prior": prior})
    assert_contract(reply, args, "decision_curve")


@settings(CI, max_examples=25)
@given(
    data=st.data(),
    n=st.integers(4, 60),
    s_kind=tagged(st.just("ok"), ["nan", "inf", "text", "short", "none"]),
    positive=tagged(st.sampled_from([None, 1, 0]), [2, "1", NAN]),
    confidence=confidence_arg,
)
def test_cost_curve(worker, data, n, s_kind, positive, confidence):
    y = data.draw(_labels(n))
    s = _spoil(data.draw(st.lists(score, min_size=n, max_size=n)), s_kind[0])
    reply = worker.call("surface_cost_curve", y_true=y, y_score=s, positive=positive[0], confidence=confidence[0])
    assert_contract(reply, {"y_score": (s, s_kind[1]), "positive": positive, "confidence": confidence}, "cost_curve")


results_arg = tagged(
    st.lists(st.sampled_from(["@roc", "@choice", "@decision_curve", "@cost_curve", "@calibration"]), min_size=1,
             max_size=4),
    [[], [None], ["@roc", 3], ["roc"], [[1, 2]], ["@roc", np.zeros(3)]],
)  # fmt: skip
title_arg = tagged(
    st.sampled_from(["ConfusionLab report", "", '<img src=x onerror="alert(1)">$x^$', "../../etc/passwd", "é" * 500]),
    [None, 3, b"title", ["a"]],
)
path_arg = tagged(
    st.sampled_from([None, "@tmp/report.html", "@tmp/<b>name</b> $x^$.html"]),
    [3, ["a"], b"x.html", "@tmp/missing/report.html", "@tmp", ""],
)


@settings(CI, max_examples=25)
@given(results=results_arg, title=title_arg, path=path_arg)
def test_report(worker, results, title, path):
    reply = worker.call("surface_report", results=results[0], title=title[0], path=path[0])
    bad = [k for k, (v, tag) in {"results": results, "title": title, "path": path}.items() if tag != "ok"]
    if reply["kind"] == "error" and bad == ["results"] and "results[" in reply["message"]:
        return  # refused by its place among the results, results[k]
    assert_contract(reply, {"results": results, "title": title, "path": path}, "report")


@pytest.mark.slow
def test_the_most_points_accepted_are_answered_within_the_caps(worker):
    """5,000 thresholds of one model (the most accepted): every posterior quantity within the CPU cap."""
    rng = np.random.default_rng(0)
    risk = rng.uniform(size=2_000)
    y = (rng.uniform(size=2_000) < risk).astype(int)
    reply = worker.call("surface_decision_curve", y_true=y, y_score=risk, thresholds=np.linspace(0.0, 0.999, 5_000))
    assert reply["kind"] == "ok" and not reply["violations"], reply
