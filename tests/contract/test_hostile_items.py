"""Hostile arguments against the item jobs (``evaluate_items``, ``compare_items``, ``pass_at_k``) and
the log readers, in the capped child process of the contract tests (``_hostile_worker.py``: address
space capped at its baseline + 3 GiB, CPU 60 s a call, the library's memory limit 512 MiB).

The contract is :func:`test_hostile_surface.check`'s: a valid result whose invariants hold (a finite
value, a non-negative error, ordered intervals, p-values in [0, 1]) or a refusal that names the
offending argument, an ``InvalidParameterError`` or ``TooLargeError``; never a cap hit.
"""

from __future__ import annotations

import json
import zipfile

import numpy as np
import pytest
from _hostile_worker import Worker
from hypothesis import given, settings
from hypothesis import strategies as st
from test_core_hostile import CI, INF, NAN, tagged
from test_hostile_surface import check


@pytest.fixture(scope="module")
def worker():
    w = Worker()
    yield w
    w.close()


score = st.sampled_from([0.0, 1.0, 0.5, 0.25, 1 / 3, 0.123456789, 7.0, -2.0])
BAD_SCORES = [[NAN, 1, 0, 1, 0, 1], [1, None, 0, 1, 0, 1], ["C", "I", "C", "I", "C", "I"], [INF, 0, 1, 0, 1, 0]]
scores_arg = tagged(st.lists(score, min_size=6, max_size=40), [*BAD_SCORES, [], [1], "1010"])
confidence_arg = tagged(st.sampled_from([0.5, 0.9, 0.95]), [1.5, 0.0, NAN, "0.95", None])


def _ids(data, n, width):
    return data.draw(st.lists(st.integers(0, width), min_size=n, max_size=n))


@settings(CI, max_examples=40)
@given(data=st.data(), scores=scores_arg, confidence=confidence_arg, shape=tagged(st.just("ok"), ["short", "nan"]))
def test_evaluate_items(worker, data, scores, confidence, shape):
    (x, xtag), (c, ctag), (kind, ktag) = scores, confidence, shape
    n = len(x) if isinstance(x, list) else 4
    cluster = _ids(data, n, 5)
    cluster = {"ok": cluster, "short": cluster[:-1] or [0, 1], "nan": [NAN, *cluster[1:]]}[kind]
    item = None if data.draw(st.booleans()) else [i // 2 for i in range(n)]
    if item is not None:  # an item's rows share its cluster
        first = [cluster[2 * (i // 2)] for i in range(len(cluster))]
        cluster = [c if isinstance(c, int) else NAN for c in first]
    reply = worker.call("surface_items", function="evaluate_items", args=(x,), item=item, cluster=cluster, confidence=c)
    args = {"scores": (x, xtag), "confidence": (c, ctag), "cluster": (cluster, ktag)}
    if reply["kind"] == "error" and any(w in reply["message"] for w in ("at least two", "in two clusters")):
        return  # too few items or clusters for an error, or an item split by the draw: refused by name
    check(reply, args, "evaluate_items")


@settings(CI, max_examples=40)
@given(data=st.data(), a=scores_arg, b_kind=tagged(st.just("same"), ["short", "nan", "text"]))
def test_compare_items(worker, data, a, b_kind):
    (x, xtag), (kind, btag) = a, b_kind
    n = len(x) if isinstance(x, list) else 4
    y = data.draw(st.lists(score, min_size=n, max_size=n))
    y = {"same": y, "short": y[:-1], "nan": [NAN, *y[1:]], "text": ["x", *y[1:]]}[kind]
    cluster = _ids(data, n, 30)
    reply = worker.call("surface_items", function="compare_items", args=(x, y), cluster=cluster)
    if reply["kind"] == "error" and "at least two" in reply["message"]:
        return
    check(reply, {"scores_a": (x, xtag), "scores_b": (y, btag)}, "compare_items")


@settings(CI, max_examples=30)
@given(
    data=st.data(),
    k=tagged(st.integers(1, 4), [0, -1, 2.5, NAN, "2", None], [10**12]),
    prior=tagged(st.sampled_from([None, "uniform", 0.5, 3.0]), [0, -1, NAN, "flat"]),
)
def test_pass_at_k(worker, data, k, prior):
    (kk, ktag), (p, ptag) = k, prior
    items = data.draw(st.integers(2, 8))
    n = data.draw(st.integers(4, 12))
    correct = data.draw(st.lists(st.sampled_from([0, 1]), min_size=items * n, max_size=items * n))
    item = np.repeat(np.arange(items), n).tolist()
    reply = worker.call("surface_items", function="pass_at_k", args=(correct,), item=item, k=kk, prior=p)
    if reply["kind"] == "error" and "samples of every item" in reply["message"]:
        return  # k above the samples an item has: refused by name
    check(reply, {"k": (kk, ktag), "prior": (p, ptag)}, "pass_at_k")


def test_many_clusters_off_a_grid_stay_within_the_caps(worker):
    """20,000 clusters of continuous scores: no convolution, no enumeration; Monte Carlo, bounded."""
    rng = np.random.default_rng(0)
    a, b = rng.uniform(size=40_000).tolist(), rng.uniform(size=40_000).tolist()
    cluster = (np.arange(40_000) // 2).tolist()
    reply = worker.call("surface_items", function="compare_items", args=(a, b), cluster=cluster)
    check(reply, {"scores_a": (a, "ok")}, "compare_items")


def _bomb(path):
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("header.json", json.dumps({"eval": {"task": "t", "model": "m"}}))
        zf.writestr("samples/1_epoch_1.json", b"[" * 2_000_000)


@pytest.mark.parametrize(
    ("reader", "content"),
    [
        ("read_inspect_log", b"[" * 5_000_000),
        (
            "read_inspect_log",
            b'{"eval": {}, "samples": [' + b'{"id": 1, "scores": {"s": {"value": 1}}},' * 50_000 + b"1]}",
        ),
        ("read_lm_eval_samples", b'{"doc_id": 1}\n' * 200_000 + b"{"),
        ("read_inspect_log", "bomb"),
    ],
)
def test_hostile_log_files(worker, tmp_path, reader, content):
    path = tmp_path / "log.json"
    if content == "bomb":
        path = tmp_path / "log.eval"
        _bomb(path)
    else:
        path.write_bytes(content)
    reply = worker.call("surface_read_log", reader=reader, path=str(path))
    assert reply["kind"] == "error", reply
    assert "InvalidParameterError" in reply["mro"] or "TooLargeError" in reply["mro"], reply
