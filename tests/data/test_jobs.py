"""Every job × every engine with ``data=`` equals the array path: counts exactly, results to 1e-12.

The count tables are also checked against ``collections.Counter`` of the rows (an independent
count); the rest of each result is compared with the same job on the numpy arrays.
"""

from __future__ import annotations

import math
from collections import Counter
from functools import cache

import numpy as np
import pytest

import confusionlab as cl

from .conftest import ENGINES, in_engine, make_frame

DF = make_frame()
COLS = {c: DF[c].to_numpy() for c in DF.columns}


@pytest.fixture(params=ENGINES)
def data(request):
    return in_engine(DF, request.param, request)


@cache
def reference(job: str):
    """The array path's result of each job (computed once for all engines)."""
    c = COLS
    return {
        "paired": lambda: cl.compare_paired(c["yes"], c["a"], c["b"], "balanced_accuracy", positive="yes"),
        "rank": lambda: cl.rank_models(c["yes"], {k: c[v] for k, v in PREDS.items()}, "f1", **RANK),
    }[job]()


PREDS = {"A": "a", "B": "b", "C": "c"}
RANK = dict(positive="yes", n_draws=3000, random_state=1)


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)


def test_evaluate(data):
    ev = cl.evaluate(data=data, y_true="y", y_pred="p", groups="g")
    ref = cl.evaluate(COLS["y"], COLS["p"], groups=COLS["g"])
    assert ev.groups == ref.groups == ["east", "north", "south", "all"]
    np.testing.assert_array_equal(ev.counts, ref.counts)
    rows = Counter(zip(COLS["g"], COLS["y"], COLS["p"], strict=True))
    for (g, t, p), n in rows.items():
        assert ev.counts[0, ev.groups.index(g), t, p] == n
    a, b = ev.to_frame(), ref.to_frame()
    assert a.shape == b.shape and list(a.columns) == list(b.columns)
    for col in a.columns:
        if a[col].dtype.kind == "f":
            np.testing.assert_allclose(a[col].to_numpy(), b[col].to_numpy(), rtol=1e-12, atol=1e-12)
        else:
            assert a[col].tolist() == b[col].tolist(), col


def test_evaluate_three_classes(data):
    kw = dict(metrics=["macro_f1", "multiclass_mcc"], n_draws=4000, random_state=5)
    ev = cl.evaluate(data=data, y_true="y3", y_pred="p3", **kw)
    ref = cl.evaluate(COLS["y3"], COLS["p3"], **kw)
    assert ev.classes == ref.classes == ["cat", "dog", "eel"]
    np.testing.assert_array_equal(ev.counts, ref.counts)
    for m in kw["metrics"]:
        assert close(ev.value[m], ref.value[m])
        assert all(close(x, y) for x, y in zip(ev.interval()[m], ref.interval()[m], strict=True))


def test_compare_paired(data):
    r = cl.compare_paired(data=data, y_true="yes", pred_a="a", pred_b="b", metric="balanced_accuracy", positive="yes")
    ref = reference("paired")
    assert r.counts == ref.counts
    truth, a, b = (COLS[c] == "yes" for c in ("yes", "a", "b"))
    assert r.counts.positives[0] == int(np.sum(truth & a & b))  # both right on the positives, by hand
    assert r.method == ref.method
    for x, y in ((r.prob_greater, ref.prob_greater), (r.prob_less, ref.prob_less), (r.value, ref.value)):
        assert close(x, y)
    assert all(close(x, y) for x, y in zip(r.interval(), ref.interval(), strict=True))


def test_rank_models(data):
    r = cl.rank_models(data=data, y_true="yes", predictions=PREDS, metric="f1", **RANK)
    ref = reference("rank")
    assert r.best == ref.best
    assert all(close(r.value[k], ref.value[k]) for k in PREDS)
    np.testing.assert_allclose(r.pairwise, ref.pairwise, rtol=1e-12, atol=1e-12)


def test_the_method_reaches_the_counted_path():
    """method= (and progress=) go with data= as with arrays: Monte Carlo when asked, the array path's
    draws (rank_models' data= path had dropped them and answered exactly). The choice between exact and
    Monte Carlo is the next test set's (the true value is always drawn)."""
    import pandas as pd

    frame = pd.DataFrame(DF)
    rank = {**RANK, "target": "next_test_set"}
    r = cl.rank_models(data=frame, y_true="yes", predictions=PREDS, metric="f1", method="monte-carlo", **rank)
    ref = cl.rank_models(COLS["yes"], {k: COLS[v] for k, v in PREDS.items()}, "f1", method="monte-carlo", **rank)
    assert r.method == ref.method == "monte-carlo" and r.pairwise_method == ref.pairwise_method == "monte-carlo"
    assert cl.rank_models(COLS["yes"], {k: COLS[v] for k, v in PREDS.items()}, "f1", **rank).pairwise_method == "exact"
    assert all(close(r.value[k], ref.value[k]) for k in PREDS)
    np.testing.assert_allclose(r.pairwise, ref.pairwise, rtol=1e-12, atol=1e-12)
    kw = dict(metric="f1", positive="yes", method="monte-carlo", target="next_test_set")
    c = cl.compare_paired(data=frame, y_true="yes", pred_a="a", pred_b="b", **kw)
    ref_c = cl.compare_paired(COLS["yes"], COLS["a"], COLS["b"], **kw)
    assert c.method == ref_c.method == "monte-carlo" and close(c.prob_greater, ref_c.prob_greater)


def test_roc_curve(data):
    c = cl.roc_curve(data=data, y_true="y", y_score="s")
    ref = cl.roc_curve(COLS["y"], COLS["s"])
    assert (c.p, c.n) == (ref.p, ref.n) == (int(COLS["y"].sum()), int((1 - COLS["y"]).sum()))
    for attr in ("fpr", "tpr", "thresholds"):
        np.testing.assert_array_equal(getattr(c, attr), getattr(ref, attr))
    assert close(c.value, ref.value) and c.max_auc_error == 0.0
    assert all(close(x, y) for x, y in zip(c.interval(), ref.interval(), strict=True))
    assert close(c.p_value(), ref.p_value())
    assert c.at_threshold(0.7) == ref.at_threshold(0.7)
    grouped = cl.roc_curve(data=data, y_true="y", y_score="s", groups="g")
    grouped = getattr(grouped, "members", grouped)  # GroupedCurves where the scores part has it, else a dict
    assert list(grouped) == ["east", "north", "south"]
    for name, curve in grouped.items():
        rows = COLS["g"] == name
        assert close(curve.value, cl.roc_curve(COLS["y"][rows], COLS["s"][rows]).value)


def test_precision_recall_curve(data):
    c = cl.precision_recall_curve(data=data, y_true="y", y_score="t")
    ref = cl.precision_recall_curve(COLS["y"], COLS["t"])
    for attr in ("precision", "recall", "thresholds"):
        np.testing.assert_array_equal(getattr(c, attr), getattr(ref, attr))
    assert close(c.value, ref.value)
    assert all(close(x, y) for x, y in zip(c.interval(), ref.interval(), strict=True))


def test_compare_auc(data):
    c = cl.compare_auc(data=data, y_true="y", score_a="s", score_b="t")
    ref = cl.compare_auc(COLS["y"], COLS["s"], COLS["t"])
    assert close(c.value, ref.value) and close(c.p_value, ref.p_value)
    np.testing.assert_allclose(c.covariance, ref.covariance, rtol=1e-12, atol=1e-15)


def test_calibration(data):
    c = cl.calibration(data=data, y_true="y", y_prob="q", random_state=0)
    ref = cl.calibration(COLS["y"], COLS["q"], random_state=0)
    np.testing.assert_array_equal(c.counts, ref.counts)
    assert close(c.value, ref.value) and close(c.brier, ref.brier)
    # the bootstrap resamples rows in order: the cells sorted by (label, forecast), on any engine
    order = np.lexsort((COLS["q"], COLS["y"].astype(str)))
    same = cl.calibration(COLS["y"][order], COLS["q"][order], random_state=0)
    assert all(close(x, y) for x, y in zip(c.interval(), same.interval(), strict=True))


def test_decision_curve(data):
    """The decision curve's counts at every threshold and its net benefits, with groups, from any engine."""
    models = {"q": "q", "rounded": "q"}
    dc = cl.decision_curve(data=data, y_true="y", y_score=models, groups="g", harm={"rounded": 0.01})
    risks = {"q": COLS["q"], "rounded": COLS["q"]}
    ref = cl.decision_curve(COLS["y"], risks, groups=COLS["g"], harm={"rounded": 0.01})
    assert dc.names == ref.names == ["east", "north", "south"]
    for group in ref.names:
        for model in models:
            np.testing.assert_array_equal(dc[group].counts[model].tp, ref[group].counts[model].tp)
            np.testing.assert_array_equal(dc[group].counts[model].fp, ref[group].counts[model].fp)
        for name, nb in ref[group].net_benefit.items():
            np.testing.assert_allclose(dc[group].net_benefit[name], nb, rtol=0, atol=1e-12)
    whole = cl.decision_curve(data=data, y_true="y", y_score="q")
    np.testing.assert_array_equal(
        whole.net_benefit["model"], cl.decision_curve(COLS["y"], COLS["q"]).net_benefit["model"]
    )
