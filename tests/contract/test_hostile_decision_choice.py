"""Hostile arguments against choose_threshold in the capped child of the contract tests
(``_hostile_worker.py``: address space capped, CPU 60 s a call, the library's memory limit 512 MiB):
a valid result whose invariants hold (ordered intervals, the value inside its after-selection
interval, the chosen threshold a plausible candidate, probabilities in [0, 1]) or a refusal that
names the offending argument (``test_core_hostile.assert_contract``)."""

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
            "none": [None, *s[1:]]}[kind]  # fmt: skip


score = st.one_of(st.floats(-1e6, 1e6), st.sampled_from([0.0, 0.5, 1.0]))
cost_arg = tagged(
    st.sampled_from([(1, 1), (1, 9), (0.1, 0.3), (0, 2), (1e-300, 1e300)]),
    [(-1, 1), (1, NAN), (INF, 1), (0, 0), (True, 1), ("1", 2), (1, 2, 3), 5, None],
)
maximize_arg = tagged(st.sampled_from(["f1", "balanced_accuracy", "recall", "npv"]), ["mcc", "nope", 3, ""])
subject_arg = tagged(
    st.sampled_from([None, {"precision": 0.5}, {"specificity": 0.2}]),
    [{"precision": 1.5}, {"precision": NAN}, {"f1": 0.5}, {"recall": "0.9"}, [("recall", 0.5)]],
)
confidence_arg = tagged(st.sampled_from([0.5, 0.9, 0.95, 0.999]), [0.0, 1.0, 1.5, NAN, "0.95", None])
prior_arg = tagged(st.sampled_from([None, "uniform", 0.5, 2.0]), [0, -1, NAN, INF, "flat", True])


@settings(CI, max_examples=30)
@given(
    data=st.data(),
    n=st.integers(4, 60),
    s_kind=tagged(st.just("ok"), ["nan", "inf", "text", "short", "none"]),
    objective=st.one_of(cost_arg.map(lambda c: ("cost", c)), maximize_arg.map(lambda m: ("maximize", m))),
    subject_to=subject_arg,
    confidence=confidence_arg,
    prior=prior_arg,
)
def test_choose_threshold(worker, data, n, s_kind, objective, subject_to, confidence, prior):
    y = data.draw(_labels(n))
    s = _spoil(data.draw(st.lists(score, min_size=n, max_size=n)), s_kind[0])
    name, (value, tag) = objective
    kwargs = {name: value, "subject_to": subject_to[0], "confidence": confidence[0], "prior": prior[0]}
    reply = worker.call("surface_choose_threshold", y_true=y, y_score=s, **kwargs)
    args = {"y_score": (s, s_kind[1]), name: (value, tag), "subject_to": subject_to}
    args.update({"confidence": confidence, "prior": prior})
    if reply["kind"] == "error" and "no threshold meets" in reply["message"] and subject_to[1] == "ok":
        assert "subject_to" in reply["message"]  # a valid constraint the data cannot meet: refused by name
        return
    assert_contract(reply, args, "choose_threshold")


def test_two_million_distinct_scores_are_answered_within_the_caps(worker):
    y, s = np.tile([0, 1], 10**6), np.arange(2 * 10**6, dtype=np.float64)
    reply = worker.call("surface_choose_threshold", y_true=y, y_score=s, cost=(1, 1))
    assert reply["kind"] == "ok" and not reply["violations"], reply
