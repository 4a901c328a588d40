"""RocView and PrecisionRecallView: what they send equals scikit-learn's curves and confusion
matrices; the slider's index moves the linked slice; a refused index changes nothing."""

from __future__ import annotations

import itertools

import ipywidgets
import numpy as np
import pytest
import traitlets
from sklearn.metrics import average_precision_score, confusion_matrix, precision_recall_curve, roc_auc_score
from sklearn.metrics import roc_curve as sk_roc_curve

import confusionlab as cl
from confusionlab.widgets._common import buffer_array
from confusionlab.widgets.roc_view import STAIRCASE_LABEL, PrecisionRecallView, RocView, StaircaseSlice


@pytest.fixture(scope="module")
def data() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 300)
    score = np.round(rng.normal(y * 1.2, 1.0), 1)  # rounded: many tied blocks
    return y, score


def test_roc_view_sends_scikit_learns_staircase_and_auc(data) -> None:
    y, score = data
    view = cl.roc_curve(y, score).view()
    assert isinstance(view, RocView) and isinstance(view.slice, StaircaseSlice)
    fpr, tpr, thresholds = sk_roc_curve(y, score, drop_intermediate=False)
    np.testing.assert_allclose(buffer_array(view, "_x"), fpr, atol=1e-7)
    np.testing.assert_allclose(buffer_array(view, "_y"), tpr, atol=1e-7)
    np.testing.assert_array_equal(buffer_array(view, "_thresholds")[1:], thresholds[1:])
    assert view._summary["value"] == pytest.approx(roc_auc_score(y, score), abs=1e-12)
    lo, hi = view._summary["interval"]
    assert lo < view._summary["value"] < hi
    # The staircase drawn through the lattice is the same path.
    staircase = view.slice.staircase()
    np.testing.assert_allclose(staircase, np.column_stack([fpr, tpr]), atol=1e-6)
    assert STAIRCASE_LABEL in view.slice._contour_labels


@pytest.mark.parametrize("k", [0, 1, 7, 20, -1])
def test_each_index_is_scikit_learns_confusion_matrix_at_that_threshold(data, k) -> None:
    y, score = data
    view = RocView(cl.roc_curve(y, score))
    k = k % view.points
    view.index = k
    _, _, thresholds = sk_roc_curve(y, score, drop_intermediate=False)
    tn, fp, fn, tp = confusion_matrix(y, score >= thresholds[k], labels=[0, 1]).ravel()
    assert (view.slice.p, view.slice.n, view.slice.tp, view.slice.tn) == (tp + fn, tn + fp, tp, tn)
    assert (buffer_array(view, "_tp")[k], buffer_array(view, "_fp")[k]) == (tp, fp)
    assert view.slice.model == "beta-binomial" and buffer_array(view.slice, "_pmf_tp").size > 0


def test_set_threshold_picks_the_point_with_the_same_matrix(data) -> None:
    y, score = data
    view = RocView(cl.roc_curve(y, score), linked=False)
    for t in (-10.0, 0.35, 0.4, 1.0, 99.0):
        view.set_threshold(t)
        tn, fp, fn, tp = confusion_matrix(y, score >= t, labels=[0, 1]).ravel()
        cm = view.confusion_matrix()
        assert (cm.tp, cm.fp, cm.tn, cm.fn) == (tp, fp, tn, fn)


def test_a_refused_index_changes_nothing(data) -> None:
    y, score = data
    view = RocView(cl.roc_curve(y, score))
    view.index = 5
    before = (view.index, view.slice.tp, view.slice.tn)
    for bad in (-1, view.points):
        with pytest.raises(traitlets.TraitError, match="index must be between 0"):
            view.index = bad
        assert (view.index, view.slice.tp, view.slice.tn) == before
    with pytest.raises(cl.InvalidParameterError, match="curve"):
        RocView(cl.precision_recall_curve(y, score))


def test_confidence_moves_the_band_and_the_interval(data) -> None:
    y, score = data
    curve = cl.roc_curve(y, score)
    view = RocView(curve, linked=False)
    wide = buffer_array(view, "_band_upper") - buffer_array(view, "_band_lower")
    view.confidence = 0.5
    narrow = buffer_array(view, "_band_upper") - buffer_array(view, "_band_lower")
    assert np.mean(narrow) < np.mean(wide)
    assert view._summary["interval"] == pytest.approx(list(curve.interval(0.5)))


def test_precision_recall_view_sends_scikit_learns_curve_and_ap(data) -> None:
    y, score = data
    view = cl.precision_recall_curve(y, score).view()
    assert isinstance(view, PrecisionRecallView)
    precision, recall, _ = precision_recall_curve(y, score, drop_intermediate=False)
    # scikit-learn's order is by increasing threshold, ending at (recall 0, precision 1).
    np.testing.assert_allclose(buffer_array(view, "_x"), recall[::-1], atol=1e-6)
    np.testing.assert_allclose(buffer_array(view, "_y"), precision[::-1], atol=1e-6)
    assert view._summary["value"] == pytest.approx(average_precision_score(y, score), abs=1e-12)
    assert view._summary["baseline"] == pytest.approx(np.mean(y))
    # The default point has the largest F1 (brute force over the thresholds).
    f1 = [2 * np.sum((score >= t) & (y == 1)) / (np.sum(score >= t) + np.sum(y)) for t in np.unique(score)]
    cm = view.confusion_matrix()
    assert 2 * cm.tp / (2 * cm.tp + cm.fp + cm.fn) == pytest.approx(max(f1))


def test_the_view_is_displayed_next_to_its_slice(data) -> None:
    y, score = data
    view = RocView(cl.roc_curve(y, score))
    bundle = view._repr_mimebundle_()
    data_ = bundle[0] if isinstance(bundle, tuple) else bundle
    model_id = data_["application/vnd.jupyter.widget-view+json"]["model_id"]
    box = ipywidgets.Widget.widgets[model_id]
    assert isinstance(box, ipywidgets.HBox) and box.children == (view, view.slice)
    alone = RocView(cl.roc_curve(y, score), linked=False)._repr_mimebundle_()
    alone = alone[0] if isinstance(alone, tuple) else alone
    assert "application/vnd.jupyter.widget-view+json" in alone


def test_a_threshold_move_sends_the_index_not_the_curve(data, monkeypatch) -> None:
    y, score = data
    view = RocView(cl.roc_curve(y, score))
    sent: list[str] = []

    def record(key=None, **kwargs):
        sent.extend([key] if isinstance(key, str) else list(key or []))

    monkeypatch.setattr(view, "send_state", record)
    view.index = 9
    assert "index" in sent
    assert not {"_x", "_y", "_tp", "_fp", "_thresholds", "_band_x", "_band_lower", "_band_upper"} & set(sent)


def _sklearn_vertices(y, score):
    fpr, tpr, _ = sk_roc_curve(y, score, drop_intermediate=False)
    p, n = int(np.sum(y == 1)), int(np.sum(y == 0))
    return np.rint(tpr * p).astype(int), np.rint(fpr * n).astype(int), p, n


@pytest.mark.parametrize(("tp", "fp"), [(0, 0), (100, 30), (60, 5), (150, 150), (20, 140)])
def test_dragging_the_slice_moves_the_view_to_the_nearest_staircase_point(data, tp, fp) -> None:
    y, score = data
    view = RocView(cl.roc_curve(y, score))
    tps, fps, p, n = _sklearn_vertices(y, score)
    tp, fp = min(tp, p), min(fp, n)
    start = view.index
    view.slice.set_state({"tp": tp, "tn": n - fp})  # what a drag in the browser sends
    d = (tps - tp) ** 2 + (fps - fp) ** 2
    nearest = int(np.argmin(d))
    if nearest == start and (tps[start], fps[start]) != (tp, fp):  # the walk steps to a neighbour
        move = np.array([tp - tps[start], fp - fps[start]])
        along = {
            j: int(move @ [tps[j] - tps[start], fps[j] - fps[start]]) for j in (start - 1, start + 1) if 0 <= j < d.size
        }
        best = max(along, key=lambda j: (along[j], -j))
        nearest = best if along[best] > 0 else start
    assert view.index == nearest
    # The slice snapped onto that staircase point: scikit-learn's matrix there.
    assert (view.slice.tp, view.slice.n - view.slice.tn) == (tps[nearest], fps[nearest])


def test_arrow_steps_on_the_slice_walk_the_staircase(data) -> None:
    y, score = data
    view = RocView(cl.roc_curve(y, score))
    tps, fps, _, n = _sklearn_vertices(y, score)
    view.index = 40
    seen = [view.index]
    for _ in range(5):  # one more false positive at a time: the walk goes down the thresholds
        view.slice.set_state({"tn": view.slice.tn - 1})
        seen.append(view.index)
        assert (view.slice.tp, view.slice.n - view.slice.tn) == (tps[view.index], fps[view.index])
    assert all(b > a for a, b in itertools.pairwise(seen)), seen
    before = view.index
    view.slice.set_state({"tp": int(tps[before]), "tn": int(n - fps[before])})  # already on the point
    assert view.index == before


def test_a_boolean_index_is_refused_by_name(data) -> None:
    """Regression (found by tests/contract/test_hostile_scores.py): traitlets' Int takes True, which
    then indexed the thresholds as a mask and broke the view with a TypeError."""
    y, score = data
    view = RocView(cl.roc_curve(y, score))
    before = (view.index, view.slice.tp)
    with pytest.raises(traitlets.TraitError, match="index must be an integer"):
        view.index = True
    assert (view.index, view.slice.tp) == before
