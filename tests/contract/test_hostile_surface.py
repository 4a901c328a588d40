"""Hostile arguments against the public surface of the last rounds (issue 21, "What"), in the capped
child process of the contract tests (``_hostile_worker.py``: address space capped at its baseline +
3 GiB, CPU 60 s a call, the library's memory limit 512 MiB).

Covered: ``compare_paired``, ``compare_paired_cells``, ``rank_models`` (paired); ``plan_test_size``,
``plan_comparison_size``, ``bias.plan_group_size`` (planners); ``calibration`` with its interval and band,
``calibration.poisson_binomial_pmf``; ``compare_auc``, ``precision_recall_curve`` (scores);
``stability.phi``, ``psi``, ``fleiss_kappa``, ``krippendorff_alpha``, ``icc``.

The contract is :func:`test_core_hostile.assert_contract`'s (a valid result whose checked
invariants hold — probabilities in [0, 1], ordered intervals, documented NaN only with a reason —
or a refusal that names the offending argument; never a memory or CPU cap hit), made stricter
here: every refusal must be an ``InvalidParameterError`` or one of the documented subclasses or
siblings (``TooLargeError``; ``TargetUnreachableError`` for the planners, ``UndefinedError`` for
the stability measures), and only those documented errors may refuse arguments tagged valid.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from _hostile_worker import Worker
from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_core_hostile import CI, INF, NAN, assert_contract, tagged


@pytest.fixture(scope="module")
def worker():
    w = Worker()
    yield w
    w.close()


REFUSALS = ("InvalidParameterError", "TooLargeError")


def check(reply: dict[str, Any], args: dict[str, tuple[Any, str]], call: str, documented: tuple[str, ...] = ()) -> None:
    """``assert_contract`` plus: refusals are InvalidParameterError/TooLargeError or ``documented``;
    a documented error (target unreachable, coefficient undefined) may answer valid arguments."""
    if reply["kind"] == "error":
        mro, message = reply["mro"], reply["message"]
        assert any(name in mro for name in (*REFUSALS, *documented)), f"{call}: raised {mro[0]}: {message}"
        assert message.strip(), f"{call}: {mro[0]} without a message"
        if not any(tag == "bad" for _, tag in args.values()) and any(name in mro for name in documented):
            return
    assert_contract(reply, args, call)


def labels(n: int) -> st.SearchStrategy[list[int]]:
    return st.lists(st.sampled_from([0, 1]), min_size=n, max_size=n).filter(lambda y: 0 < sum(y) < len(y))


HOSTILE_LABELS = [["a", "b", "a", "b"], [0.5, 1, 0, 1], [NAN, 1, 0, 1], [None, 1, 0, 1], [], "0101", 3]
metric_arg = tagged(st.sampled_from(["accuracy", "f1", "mcc", "precision", "npv"]), ["nope", "", None, 3, ["f1"]])
tolerance_arg = tagged(st.sampled_from([1e-12, 1e-9, 0.0]), [-1e-9, NAN, INF, 0.5, "1e-9", None])
future_arg = tagged(
    st.sampled_from([None, 100, (40, 60), np.int64(80)]), [-1, 0, 2.5, NAN, "100", (10, -1), True], [10**12]
)
n_draws_arg = tagged(st.sampled_from([2000, np.int64(5000)]), [0, -1, 2.5, NAN, "2000", None], [10**12])


# ----------------------------------------------------------------------------- paired
@settings(CI, max_examples=25)
@given(
    data=st.data(),
    n=st.integers(4, 30),
    b_kind=tagged(st.just("same"), ["short", "nan", "text", "none"]),
    metric=metric_arg,
    tolerance=tolerance_arg,
    future_size=future_arg,
)
def test_compare_paired(worker, data, n, b_kind, metric, tolerance, future_size):
    y = data.draw(labels(n))
    a = data.draw(st.lists(st.sampled_from([0, 1]), min_size=n, max_size=n))
    b = data.draw(st.lists(st.sampled_from([0, 1]), min_size=n, max_size=n))
    kind, btag = b_kind
    b = {"same": b, "short": b[:-1], "nan": [NAN, *b[1:]], "text": ["x", *b[1:]], "none": [None, *b[1:]]}[kind]
    (m, mtag), (t, ttag), (f, ftag) = metric, tolerance, future_size
    reply = worker.call(  # a future test set's size: the next test set's question
        "surface_compare_paired",
        y_true=y,
        pred_a=a,
        pred_b=b,
        metric=m,
        tolerance=t,
        future_size=f,
        target="next_test_set",
    )
    args = {"pred_b": (b, btag), "metric": (m, mtag), "tolerance": (t, ttag), "future_size": (f, ftag)}
    check(reply, args, "compare_paired")


def test_compare_paired_hostile_labels(worker):
    for y in HOSTILE_LABELS:
        reply = worker.call("surface_compare_paired", y_true=y, pred_a=[0, 1, 0, 1], pred_b=[1, 1, 0, 0], metric="f1")
        check(reply, {"y_true": (y, "bad")}, "compare_paired")


cell = tagged(st.integers(0, 30), [-1, 2.5, NAN, INF, "3", None], [2**53, 10**8])


@settings(CI, max_examples=25)
@given(
    cells=st.lists(cell, min_size=8, max_size=8),
    shape=tagged(st.just((2, 4)), [(4, 2), (1, 8), (2, 3)]),
    metric=metric_arg,
    n_draws=n_draws_arg,
)
def test_compare_paired_cells(worker, cells, shape, metric, n_draws):
    values = [v for v, _ in cells]
    tags = {tag for _, tag in cells}
    empty = "ok" in tags and len(tags) == 1 and sum(values) == 0  # no example at all: refused
    ctag = "bad" if "bad" in tags or shape[1] == "bad" or empty else ("big" if "big" in tags else "ok")
    rows, cols = shape[0]
    flat = (values * 2)[: rows * cols]
    grid = [flat[i * cols : (i + 1) * cols] for i in range(rows)]
    (m, mtag), (d, dtag) = metric, n_draws
    reply = worker.call("surface_compare_paired_cells", cells=grid, metric=m, n_draws=d, method="auto")
    check(reply, {"cells": (grid, ctag), "metric": (m, mtag), "n_draws": (d, dtag)}, "compare_paired_cells")


@pytest.mark.parametrize(
    ("cells", "named"),
    [
        ([[1, 2, 3, -1], [0, 0, 0, 0]], "cells[0][3]"),
        ([[0] * 4, [0, 0, 2.5, 0]], "cells[1][2]"),
        ([[0] * 4] * 2, "cells"),
    ],
)
def test_compare_paired_cells_names_the_cells_passed(worker, cells, named):
    """Regression: the refusals named positives[3] and "the paired counts", the fields of PairedCounts,
    not the argument ``cells`` the caller passed."""
    reply = worker.call("surface_compare_paired_cells", cells=cells, metric="accuracy")
    check(reply, {"cells": (cells, "bad")}, "compare_paired_cells")
    assert reply["message"].startswith(named), reply


predictions_arg = tagged(st.sampled_from(["three", "two"]), ["one", "empty", "list", "short", "text", "nan"])


@settings(CI, max_examples=20)
@given(data=st.data(), n=st.integers(4, 25), kind=predictions_arg, metric=metric_arg, n_draws=n_draws_arg)
def test_rank_models(worker, data, n, kind, metric, n_draws):
    y = data.draw(labels(n))
    preds = [data.draw(st.lists(st.sampled_from([0, 1]), min_size=n, max_size=n)) for _ in range(3)]
    k, ktag = kind
    predictions = {
        "three": {"a": preds[0], "b": preds[1], "c": preds[2]},
        "two": {"a": preds[0], "b": preds[0]},  # identical classifiers (issue 21)
        "one": {"a": preds[0]},
        "empty": {},
        "list": preds,
        "short": {"a": preds[0], "b": preds[1][:-1]},
        "text": {"a": preds[0], "b": "0101"},
        "nan": {"a": preds[0], "b": [NAN, *preds[1][1:]]},
    }[k]
    (m, mtag), (d, dtag) = metric, n_draws
    reply = worker.call("surface_rank_models", y_true=y, predictions=predictions, metric=m, n_draws=d, progress=False)
    args = {"predictions": (predictions, ktag), "metric": (m, mtag), "n_draws": (d, dtag)}
    check(reply, args, "rank_models")


# ----------------------------------------------------------------------------- planners
rate = st.floats(0.55, 0.95) | st.just(np.float64(0.7))
unit_bad = [0.0, 1.0, -0.1, 1.5, NAN, INF, "0.8", None]


@settings(CI, max_examples=20)
@given(
    metric=tagged(st.sampled_from(["accuracy", "f1", "mcc", "precision"]), ["nope", None, 3]),
    prevalence=tagged(st.floats(0.1, 0.9), [0.0, 1.0, -0.1, 1.5, NAN, "0.3", None], [1e-4]),
    tpr=tagged(rate, unit_bad[2:]),
    tnr=tagged(rate, unit_bad[2:]),
    half_width=tagged(st.floats(0.05, 0.3), [0.0, -0.1, NAN, INF, "0.1", None]),
    max_size=tagged(st.sampled_from([50, 200, np.int64(400)]), [0, -1, 2.5, NAN, "100", None, True]),
    assurance=tagged(st.sampled_from([None, None, 0.8]), [0.0, 1.5, -0.1, NAN, "0.9"], [0.999999]),
)
def test_plan_test_size(worker, metric, prevalence, tpr, tnr, half_width, max_size, assurance):
    args = {
        "metric": metric,
        "prevalence": prevalence,
        "tpr": tpr,
        "tnr": tnr,
        "half_width": half_width,
        "max_size": max_size,
        "assurance": assurance,
    }
    reply = worker.call("surface_plan_test_size", **{k: v for k, (v, _) in args.items()})
    check(reply, args, "plan_test_size", documented=("TargetUnreachableError",))


@settings(CI, max_examples=20)
@given(
    accuracy=tagged(
        st.tuples(st.floats(0.6, 0.95), st.floats(0.6, 0.95)),
        [(0.0, 0.8), (0.8, 1.0), (NAN, 0.8), (0.8,), (0.8, 0.7, 0.6), 0.8, "0.8", None],
    ),
    correlation=tagged(st.sampled_from([0.0, 0.2, np.float64(0.1)]), [NAN, INF, "0.5", None, 5.0, -5.0]),
    half_width=tagged(st.floats(0.03, 0.2), [0.0, -0.1, NAN, INF, "0.1", None]),
    max_size=tagged(st.sampled_from([200, 5000, np.int64(20_000)]), [0, -1, 2.5, NAN, "100", None, True]),
    icc=tagged(st.sampled_from([None, None, 0.1]), [-0.5, 1.5, NAN, "0.1"]),
)
# every argument valid (the derandomized draws may mix a bad one into each of their 20 examples)
@example(
    accuracy=((0.85, 0.8), "ok"),
    correlation=(0.2, "ok"),
    half_width=(0.05, "ok"),
    max_size=(5000, "ok"),
    icc=(None, "ok"),
)
@example(
    accuracy=((0.7, 0.9), "ok"),
    correlation=(0.0, "ok"),
    half_width=(0.1, "ok"),
    max_size=(5000, "ok"),
    icc=(0.1, "ok"),
)
def test_plan_comparison_size(worker, accuracy, correlation, half_width, max_size, icc):
    args = {"accuracy": accuracy, "correlation": correlation, "half_width": half_width, "max_size": max_size}
    args["icc"] = icc
    call = {k: v for k, (v, _) in args.items()}
    if call["icc"] is not None:
        call["cluster_size"] = 10
    reply = worker.call("surface_plan_comparison_size", **call)
    check(reply, args, "plan_comparison_size", documented=("TargetUnreachableError",))


@settings(CI, max_examples=20)
@given(
    metric=tagged(st.sampled_from(["DPL", "DPPL", "DI"]), ["CI", "nope", None, 3]),
    size_a=tagged(st.integers(1, 2000) | st.just(np.int64(300)), [0, -5, 2.5, NAN, "100", None, True], [10**9]),
    rate_a=tagged(st.floats(0.05, 0.95), unit_bad, [1e-4]),
    rate_d=tagged(st.floats(0.05, 0.95), unit_bad),
    half_width=tagged(st.floats(0.05, 0.5), [0.0, -0.1, NAN, INF, "0.1", None], [5.0]),
    max_size=tagged(st.sampled_from([50, 300, 1000]), [0, -1, 2.5, NAN, "100", None]),
)
def test_plan_group_size(worker, metric, size_a, rate_a, rate_d, half_width, max_size):
    args = {
        "metric": metric,
        "size_a": size_a,
        "rate_a": rate_a,
        "rate_d": rate_d,
        "half_width": half_width,
        "max_size": max_size,
    }
    reply = worker.call("surface_plan_group_size", **{k: v for k, (v, _) in args.items()})
    check(reply, args, "bias.plan_group_size", documented=("TargetUnreachableError",))


# ----------------------------------------------------------------------------- calibration
prob = st.floats(0, 1)


@settings(CI, max_examples=25)
@given(
    data=st.data(),
    n=st.integers(4, 40),
    p_kind=tagged(st.just("ok"), ["nan", "above", "below", "text", "short", "inf"]),
    bins=tagged(st.sampled_from([1, 2, 5, np.int64(10)]), [0, -1, 2.5, NAN, "10", None, True], [10**9]),
    strategy=tagged(st.sampled_from(["quantile", "uniform"]), ["nope", None, 1]),
    n_resamples=tagged(st.sampled_from([50, np.int64(100)]), [0, -1, 2.5, NAN, "50"], [10**12]),
    confidence=tagged(st.sampled_from([0.5, 0.9, 0.95]), [0.0, 1.0, 1.5, NAN, "0.95", None]),
)
def test_calibration(worker, data, n, p_kind, bins, strategy, n_resamples, confidence):
    y = data.draw(labels(n))
    p = data.draw(st.lists(prob, min_size=n, max_size=n))
    kind, ptag = p_kind
    p = {
        "ok": p,
        "nan": [NAN, *p[1:]],
        "above": [1.5, *p[1:]],
        "below": [-0.1, *p[1:]],
        "text": ["a", *p[1:]],
        "short": p[:-1],
        "inf": [INF, *p[1:]],
    }[kind]
    (b, btag), (s, stag), (r, rtag), (c, ctag) = bins, strategy, n_resamples, confidence
    reply = worker.call(
        "surface_calibration",
        y_true=y,
        y_prob=p,
        bins=b,
        strategy=s,
        n_resamples=r,
        n_draws=200,
        random_state=0,
        confidence=c,
    )
    args = {"y_prob": (p, ptag), "bins": (b, btag), "strategy": (s, stag), "n_resamples": (r, rtag)}
    args["confidence"] = (c, ctag)
    check(reply, args, "calibration")


@settings(CI, max_examples=20)
@given(
    p=tagged(
        st.lists(prob, min_size=0, max_size=60),
        [[NAN], [0.5, 1.5], [-0.1], ["a"], "0.5", None, [[0.5, 0.5]], [0.5, INF]],
        [[0.5] * 10**6],
    )
)
def test_poisson_binomial_pmf(worker, p):
    check(worker.call("surface_poisson_binomial", p=p[0]), {"p": p}, "poisson_binomial_pmf")


# ----------------------------------------------------------------------------- scores
score = st.one_of(st.floats(-1e6, 1e6), st.sampled_from([0.0, 0.5, 1.0]))
score_kinds = ["nan", "inf", "text", "short", "none"]


def _spoil(s: list[Any], kind: str) -> list[Any]:
    return {"ok": s, "nan": [NAN, *s[1:]], "inf": [INF, *s[1:]], "text": ["a", *s[1:]], "short": s[:-1],
            "none": [None, *s[1:]]}[kind]  # fmt: skip


@settings(CI, max_examples=25)
@given(
    data=st.data(),
    n=st.integers(4, 40),
    a_kind=tagged(st.just("ok"), score_kinds),
    b_kind=tagged(st.just("ok"), score_kinds),
    confidence=tagged(st.sampled_from([0.5, 0.9, 0.95]), [0.0, 1.0, 1.5, NAN, "0.95", None]),
)
def test_compare_auc(worker, data, n, a_kind, b_kind, confidence):
    y = data.draw(labels(n))
    a = _spoil(data.draw(st.lists(score, min_size=n, max_size=n)), a_kind[0])
    b = _spoil(data.draw(st.lists(score, min_size=n, max_size=n)), b_kind[0])
    reply = worker.call("surface_compare_auc", y_true=y, score_a=a, score_b=b, confidence=confidence[0])
    args = {"score_a": (a, a_kind[1]), "score_b": (b, b_kind[1]), "confidence": confidence}
    check(reply, args, "compare_auc")


def test_compare_auc_interval_stays_inside_minus_one_one(worker):
    """Regression (found by test_compare_auc): here d = -2/3 and DeLong's sd = 0.19245, so the
    unclipped Wald interval d ± 1.96·sd had the lower end -1.0439, below the range [-1, 1] of a
    difference of AUCs; it is now clipped to that range."""
    y, a, b = [1, 1, 1, 0, 0, 0], [0, 0, 3, 4, 0, 4], [4, 4, 5, 1, 3, 4]
    reply = worker.call("surface_compare_auc", y_true=y, score_a=a, score_b=b, confidence=0.95)
    check(reply, {"score_a": (a, "ok"), "score_b": (b, "ok")}, "compare_auc")


def test_grouped_gap_intervals_stay_inside_their_ranges(worker):
    """Regression: GroupedCurves.gap_intervals gave (-1.266, -0.290) for these two groups (AUC 1/3
    against 1), outside [-1, 1], the range of a difference of AUCs; now clipped (and the grouped
    AUC comparison's gaps to [-2, 2])."""
    y, g = [1, 1, 1, 0, 0, 0] * 2, ["a"] * 6 + ["b"] * 6
    a = [0, 0, 3, 4, 0, 4, 5, 4, 3, 2, 1, 0]
    reply = worker.call("surface_grouped_gaps", y_true=y, score_a=a, score_b=a[::-1], groups=g)
    check(reply, {"score_a": (a, "ok")}, "roc_curve(groups=).gap_intervals")


def test_compare_auc_with_one_class_is_refused(worker):
    reply = worker.call("surface_compare_auc", y_true=[1, 1, 1, 1], score_a=[0.1, 0.2, 0.3, 0.4], score_b=[0] * 4)
    check(reply, {"y_true": ([1] * 4, "bad")}, "compare_auc")


@settings(CI, max_examples=25)
@given(
    data=st.data(),
    n=st.integers(4, 40),
    s_kind=tagged(st.just("ok"), score_kinds),
    confidence=tagged(st.sampled_from([0.5, 0.9, 0.95]), [0.0, 1.0, 1.5, NAN, "0.95", None]),
    method=tagged(st.sampled_from(["logit", "bootstrap"]), ["wald", None, 1, ""]),
)
def test_precision_recall_curve(worker, data, n, s_kind, confidence, method):
    y = data.draw(labels(n))
    s = _spoil(data.draw(st.lists(score, min_size=n, max_size=n)), s_kind[0])
    reply = worker.call("surface_pr_curve", y_true=y, y_score=s, confidence=confidence[0], method=method[0])
    check(reply, {"y_score": (s, s_kind[1]), "confidence": confidence, "method": method}, "precision_recall_curve")


# ----------------------------------------------------------------------------- stability
def _matrix(kind: str, rows: list[list[int]]) -> Any:
    return {
        "ok": rows,
        "one_refit": rows[:1],
        "ragged": [rows[0], rows[1][:-1], *rows[2:]],
        "empty": [],
        "flat": rows[0],
        "text": "0101",
        "none": None,
        "cube": [rows, rows],
    }[kind]


matrix_kind = tagged(st.just("ok"), ["one_refit", "ragged", "empty", "flat", "text", "none", "cube"])
on_undefined_arg = tagged(st.sampled_from(["raise", "nan", "warn"]), ["ignore", None, 1])
UNDEFINED = ("UndefinedError",)


def _rows(data: st.DataObject, missing: bool = False) -> list[list[Any]]:
    r, n = data.draw(st.integers(2, 5)), data.draw(st.integers(2, 12))
    value = st.sampled_from([0, 1, 2, None]) if missing else st.sampled_from([0, 1, 2])
    return [data.draw(st.lists(value, min_size=n, max_size=n)) for _ in range(r)]


@settings(CI, max_examples=25)
@given(
    data=st.data(),
    name=st.sampled_from(["phi", "psi"]),
    kind=matrix_kind,
    scale=tagged(st.sampled_from(["nominal", "ordinal", "metric"]), ["interval", None, 3, ""]),
    reference=tagged(st.just("ok"), ["empty", "text", "nan"]),
    on_undefined=on_undefined_arg,
)
def test_phi_and_psi(worker, data, name, kind, scale, reference, on_undefined):
    rows = _rows(data, missing=data.draw(st.booleans()))
    predictions = _matrix(kind[0], rows)
    ref = rows if name == "psi" else data.draw(st.lists(st.sampled_from([0, 1, 2]), min_size=2, max_size=20))
    ref = {"ok": ref, "empty": [], "text": "012", "nan": [NAN, *ref[1:]]}[reference[0]]
    ref_name = "reference_predictions" if name == "psi" else "train_y"
    reply = worker.call(
        "surface_stability", measure=name, args=(predictions, ref, scale[0]), on_undefined=on_undefined[0]
    )
    args = {"predictions": (predictions, kind[1]), ref_name: (ref, reference[1]), "scale": scale}
    args["on_undefined"] = on_undefined
    check(reply, args, name, documented=UNDEFINED)


@settings(CI, max_examples=25)
@given(
    data=st.data(),
    name=st.sampled_from(["fleiss_kappa", "krippendorff_alpha"]),
    kind=matrix_kind,
    on_undefined=on_undefined_arg,
)
def test_fleiss_kappa_and_krippendorff_alpha(worker, data, name, kind, on_undefined):
    predictions = _matrix(kind[0], _rows(data, missing=data.draw(st.booleans())))
    reply = worker.call("surface_stability", measure=name, args=(predictions,), on_undefined=on_undefined[0])
    args = {"predictions": (predictions, kind[1]), "on_undefined": on_undefined}
    check(reply, args, name, documented=UNDEFINED)


@settings(CI, max_examples=25)
@given(
    data=st.data(),
    kind=matrix_kind,
    form=tagged(st.sampled_from(["1,1", "2,1", "3,1", "1,k", "2,k", "3,k"]), ["4,1", "", None, 1, "1,1 "]),
    on_undefined=on_undefined_arg,
)
def test_icc(worker, data, kind, form, on_undefined):
    predictions = _matrix(kind[0], _rows(data))
    reply = worker.call("surface_stability", measure="icc", args=(predictions, form[0]), on_undefined=on_undefined[0])
    args = {"predictions": (predictions, kind[1]), "form": form, "on_undefined": on_undefined}
    check(reply, args, "icc", documented=UNDEFINED)


def test_icc_refuses_non_finite_ratings(worker):
    for bad in ([[1.0, NAN], [2.0, 3.0]], [[1.0, INF], [2.0, 3.0]], [["a", "b"], ["c", "d"]]):
        reply = worker.call("surface_stability", measure="icc", args=(bad,))
        check(reply, {"predictions": (bad, "bad")}, "icc", documented=UNDEFINED)


# ----------------------------------------------------------------------------- the sweep's reproductions
SWEEP = [
    ("surface_plan_test_size", {"metric": "accuracy", "prevalence": 0.3, "tpr": 0.8, "tnr": 0.8, "half_width": 0.01,
                                "max_size": 10**8}, "max_size"),
    ("surface_plan_test_size", {"metric": "accuracy", "prevalence": 0.3, "tpr": 0.8, "tnr": 0.8, "half_width": 0.1,
                                "assurance": 0.999999, "max_size": 5000}, "assurance"),
    ("surface_plan_test_size", {"metric": "mcc", "prevalence": 1e-4, "tpr": 0.8, "tnr": 0.8, "half_width": 0.2,
                                "max_size": 2000}, "prevalence"),
    ("surface_plan_group_size", {"metric": "DI", "size_a": 5000, "rate_a": 1e-4, "rate_d": 0.25, "half_width": 5.0},
     "half_width"),
    ("surface_plan_group_size", {"metric": "DPPL", "size_a": 10**9, "rate_a": 0.3, "rate_d": 0.3, "half_width": 0.05},
     "size_a"),
    ("surface_compare_paired_cells", {"cells": [[2**53, 0, 0, 0], [0, 0, 0, 2**53]], "metric": "accuracy"}, "cells"),
    ("surface_compare_paired_cells", {"cells": [[10**8, 5, 3, 10], [4, 2, 1, 10**8]], "metric": "accuracy"}, "cells"),
    ("surface_compare_paired_cells", {"cells": [[5 * 10**8, 0, 0, 0], [0, 0, 0, 5 * 10**8]], "metric": "f1"}, "cells"),
]  # fmt: skip


@pytest.mark.parametrize(("call", "kwargs", "big"), SWEEP, ids=[f"{c}-{b}" for c, _, b in SWEEP])
def test_the_sweeps_large_requests_answer_or_refuse_within_the_caps(worker, call, kwargs, big):
    """Issue 21's memory blow-ups and hangs on this surface: a right answer or a clear refusal
    within the child's caps (3 GiB address space, 60 CPU seconds)."""
    reply = worker.call(call, **kwargs)
    documented = ("TargetUnreachableError",) if "plan" in call else ()
    check(reply, {big: (kwargs[big], "big")}, call.removeprefix("surface_"), documented=documented)


SCALE_FREE = [
    ("krippendorff_alpha", ([[1, -1, 2], [1, 1, 3]], "metric")),
    ("icc", ([[1, -1, 0, 2], [1, 1, 3, 2]],)),
    ("phi", ([[1, -1, 2], [1, 1, 3]], [1, 0, -1, 2], "metric")),
    ("psi", ([[1, -1, 2], [1, 1, 3]], [[1, 0, 2], [2, 1, 3]], "metric")),
]


@pytest.mark.parametrize("factor", [1e300, 1e160, 1e-3, 1e-160, 1e-300])
@pytest.mark.parametrize(("measure", "args"), SCALE_FREE, ids=[m for m, _ in SCALE_FREE])
def test_metric_scale_measures_are_scale_free_or_refuse_huge_values(worker, measure, args, factor):
    """Regression (issue 21 hostile sweep): at ±1e300 the squared differences overflowed and
    krippendorff_alpha and icc answered NaN as a defined value, phi answered 1.0 (per object [1,
    nan]) for data whose unscaled phi is 0.0; at 1e-160 every value drifted (alpha 0.52831 for
    0.52830) and at 1e-300 all four were "undefined: constant". Expected values come from the same
    data unscaled; an UndefinedError fails here (the data are not constant)."""
    reply = worker.call("surface_stability_scale_free", measure=measure, args=args, factor=factor)
    check(reply, {"predictions": (factor, "big" if not 1e-100 < factor < 1e100 else "ok")}, measure)
