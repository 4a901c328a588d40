"""Hostile arguments to ``evaluate``, each call in a capped child process (issue 21).

The child is the contract tests' worker (address space capped at its baseline + 3 GiB, the
library's limit at 512 MiB, 60 CPU seconds a call) with ``evaluate`` added
(``_evaluate_worker.py``): each example builds an evaluation and computes everything it
reports. The contract: a valid answer (every distribution's invariants hold, the whole test
set is the whole test set), or an InvalidParameterError / TooLargeError naming the argument
(for a valid but large request: advice), never a MemoryError, a crash or a runaway call.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest
from _evaluate_worker import EvaluateWorker
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

SETTINGS = settings(
    max_examples=40,
    derandomize=True,
    database=None,
    deadline=None,
    phases=(Phase.explicit, Phase.generate),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@pytest.fixture(scope="module")
def worker():
    w = EvaluateWorker()
    yield w
    w.close()


def _labels(kind: str, n: int, seed: int) -> tuple[Any, str]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    if kind == "binary":
        return y, "ok"
    if kind == "strings":
        return np.where(y == 1, "yes", "no").astype(object), "ok"
    if kind == "three":
        return rng.integers(0, 3, n), "ok"
    if kind == "no-positive":
        return np.zeros(n, dtype=int), "ok"
    if kind == "scores":
        return rng.random(n), "bad"
    if kind == "none":
        out = y.astype(object)
        out[n // 2] = None
        return out, "bad"
    raise AssertionError(kind)


@st.composite
def calls(draw: Any) -> tuple[dict[str, Any], dict[str, str]]:
    n = draw(st.sampled_from([2, 40, 3000, 300_000]))
    truth_kind = draw(st.sampled_from(["binary"] * 6 + ["strings", "three", "three", "no-positive", "scores", "none"]))
    y_true, t_tag = _labels(truth_kind, n, 0)
    pred_kind = truth_kind if truth_kind not in ("no-positive",) else "binary"
    pred_kind = draw(st.sampled_from([pred_kind] * 8 + ["scores", "none"]))
    y_pred, p_tag = _labels(pred_kind, n, 1)
    if truth_kind == "strings" and pred_kind not in ("scores", "none"):
        y_pred = np.where(np.random.default_rng(2).random(n) < 0.8, y_true, "no").astype(object)
    kw: dict[str, Any] = {"y_true": y_true, "y_pred": y_pred}
    tags = {"y_true": t_tag, "y_pred": p_tag}
    if truth_kind == "strings":
        kw["positive"], tags["positive"] = "yes", "ok"
    group_kind = draw(
        st.sampled_from(["none", "none", "two", "two", "named-all", "named-all", "one-and-text-one", "row-id"])
    )
    if n < 6:  # groups of one row are refused (tests/evaluation/test_evaluation.py): not drawn here
        group_kind = "none"
    if group_kind == "two":
        kw["groups"], tags["groups"] = np.arange(n) % 2, "ok"
    elif group_kind == "named-all":
        kw["groups"], tags["groups"] = np.where(np.arange(n) % 3 == 0, "all", "$50K-$75K").astype(object), "ok"
    elif group_kind == "one-and-text-one":
        kw["groups"], tags["groups"] = np.array([1, "1"] * (n // 2) + [1] * (n % 2), dtype=object), "bad"
    elif group_kind == "row-id":
        kw["groups"], tags["groups"] = np.arange(n), "big"
    kw["model"], tags["model"] = draw(
        st.sampled_from(
            [("beta-binomial", "ok")] * 4
            + [("binomial", "ok"), ("dirichlet-multinomial", "ok")] * 2
            + [("nope", "bad")]
        )
    )
    kw["method"], tags["method"] = draw(
        st.sampled_from(
            [("auto", "ok")] * 5 + [("exact", "big"), ("monte-carlo", "ok")] * 2 + [("normal", "bad"), (None, "bad")]
        )
    )
    kw["metrics"], tags["metrics"] = draw(
        st.sampled_from(
            [(None, "ok")] * 4 + [("f1", "ok"), (["mcc", "recall"], "ok"), ("macro_f1", "ok")] * 2 + [("f", "bad")]
        )
    )
    kw["n_draws"], tags["n_draws"] = draw(st.sampled_from([(2000, "ok")] * 8 + [(0, "bad"), (10**9, "bad")]))
    kw["target"], tags["target"] = draw(
        st.sampled_from([("next_test_set", "ok")] * 5 + [("true_value", "ok")] * 2 + [("later", "bad")])
    )
    return kw, tags


KINDS: list[str] = []


def _names(message: str, names: set[str]) -> bool:
    return any(re.search(rf"(?<![A-Za-z0-9_]){re.escape(n)}(?![A-Za-z0-9_])", message) for n in names)


@SETTINGS
@given(calls())
def test_evaluate_under_hostile_arguments(worker, call):
    kw, tags = call
    reply = worker.call("evaluate", **kw)
    shown = ", ".join(
        f"{k}={v!r}" if not isinstance(v, np.ndarray) else f"{k}=<{v.dtype} {v.shape}>" for k, v in kw.items()
    )
    where = f"evaluate({shown})"
    assert reply["kind"] not in ("memory", "crash"), f"{where}: {reply['message']}"
    bad = {k for k, t in tags.items() if t == "bad"}
    if reply["kind"] == "ok":
        KINDS.append("answered")
        assert not bad, f"{where}: accepted {sorted(bad)}"
        assert not reply["violations"], f"{where}: {reply['violations']}"
        return
    mro, message = reply["mro"], reply["message"]
    assert "InvalidParameterError" in mro or "TooLargeError" in mro, f"{where}: {mro[0]}: {message}"
    KINDS.append("refused")
    if bad:
        assert _names(message, bad | {k for k, t in tags.items() if t == "big"}), (
            f"{where}: does not name {bad}: {message}"
        )
    else:
        big = {k for k, t in tags.items() if t == "big"}
        # a valid request may be refused only when it is large (or combines options that exclude each
        # other, which the message names): and then the message says what to change
        assert big or _names(message, set(kw)), f"{where}: refused valid arguments: {message}"


def test_the_examples_were_mostly_answered():
    """Runs after the property test (same module, in order): the pools must reach the answers."""
    assert KINDS.count("answered") >= 8, KINDS
    assert KINDS.count("refused") >= 8, KINDS
