"""DecisionView and what it stands on: ``ThresholdChoice.with_cost`` (the choice at another cost),
``interval(threshold=...)``, ``roc_band()``; the view's state after a cost change equals
``choose_threshold`` run afresh with that cost, and both equal a brute force over the candidates
in exact fractions; a refused cost changes nothing."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

import confusionlab as cl
from confusionlab.widgets._common import buffer_array
from confusionlab.widgets.decision_view import DecisionView
from confusionlab.widgets.figure_view import figure_widget


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(11)
    y = rng.uniform(size=400) < 0.3
    s = np.round(rng.normal(loc=1.3 * y), 1)  # rounded: blocks of tied scores holding both classes
    return y, s


def brute_force_choice(y, s, cost):
    """The candidate of least exact cost (c_fp·FP + c_fn·FN)/N over every distinct score and +inf, the
    lowest threshold of equals; counted example by example in fractions."""
    c_fp, c_fn = (Fraction(c) for c in cost)
    best = None
    for t in [*sorted(set(s.tolist())), float("inf")]:
        fp = sum(1 for yi, si in zip(y, s, strict=True) if si >= t and not yi)
        fn = sum(1 for yi, si in zip(y, s, strict=True) if si < t and yi)
        value = (c_fp * fp + c_fn * fn) / len(y)
        if best is None or value < best[0]:
            best = (value, t, fp, fn)
    return best


@pytest.mark.parametrize("cost", [(1, 1), (1, 4), (3, 1), (0, 1), (1, 0), (0.25, 7.5)])
def test_with_cost_is_choose_threshold_at_that_cost_and_the_brute_force(data, cost):
    y, s = data
    moved = cl.choose_threshold(y, s, cost=(1, 2)).with_cost(cost)
    fresh = cl.choose_threshold(y, s, cost=cost)
    value, t, fp, fn = brute_force_choice(y, s, cost)
    assert moved.threshold == fresh.threshold == t
    assert (moved.confusion_matrix.fp, moved.confusion_matrix.fn) == (fp, fn)
    assert moved.value == pytest.approx(float(value), rel=1e-12)
    assert moved.cost == fresh.cost == tuple(float(c) for c in cost)
    assert moved.interval() == fresh.interval()
    assert moved.interval(kind="pointwise") == fresh.interval(kind="pointwise")
    np.testing.assert_array_equal(moved.plausible_thresholds, fresh.plausible_thresholds)


def test_with_cost_keeps_the_constraints_prior_and_confidence(data):
    y, s = data
    kw = {"subject_to": {"recall": 0.6}, "prior": "uniform", "confidence": 0.9}
    moved = cl.choose_threshold(y, s, cost=(1, 1), **kw).with_cost((1, 6))
    fresh = cl.choose_threshold(y, s, cost=(1, 6), **kw)
    assert (moved.threshold, moved.prior, moved.confidence) == (fresh.threshold, 1.0, 0.9)
    assert moved.prob_constraint == fresh.prob_constraint
    assert moved.subject_to == {"recall": 0.6}


@pytest.mark.parametrize("cost", [(-1, 1), (0, 0), (1, float("nan")), "ab", (1, 2, 3)])
def test_with_cost_refuses_a_bad_cost(data, cost):
    y, s = data
    with pytest.raises(cl.InvalidParameterError, match="cost"):
        cl.choose_threshold(y, s, cost=(1, 1)).with_cost(cost)


def test_interval_at_another_threshold(data):
    y, s = data
    choice = cl.choose_threshold(y, s, cost=(2, 2))
    k = 5  # the candidate standing for every threshold in (u_4, u_5]
    u = choice.candidates
    between = (u[4] + u[5]) / 2
    band = choice.band(0.9)
    assert choice.interval(0.9, threshold=between) == (band.lower[k], band.upper[k])
    # equal costs: the pointwise interval is c·Beta(FP + FN + 2α, TP + TN + 2α), α = ½ (scipy)
    tp, fp = int(np.sum(y & (s >= u[5]))), int(np.sum(~y & (s >= u[5])))
    fn, tn = int(y.sum()) - tp, int((~y).sum()) - fp
    ref = stats.beta(fp + fn + 1.0, tp + tn + 1.0).interval(0.9)
    lo, hi = choice.interval(0.9, "pointwise", threshold=u[5])
    assert lo == pytest.approx(2 * ref[0], rel=1e-12) and hi == pytest.approx(2 * ref[1], rel=1e-12)
    assert choice.interval(threshold=choice.threshold) == choice.interval()
    with pytest.raises(cl.InvalidParameterError, match="threshold"):
        choice.interval(threshold=float("nan"))


def test_roc_band_is_the_ks_box_around_the_staircase(data):
    """Its half-widths are the exact Kolmogorov–Smirnov quantiles at 1 − α/3 (scipy's kstwo); the edges
    equal a brute force over the staircase's vertices, and every vertex lies inside."""
    y, s = data
    choice = cl.choose_threshold(y, s, cost=(1, 3))
    p, n = int(y.sum()), int((~y).sum())
    d_p, d_n = stats.kstwo.ppf(0.95 ** (1 / 3), p), stats.kstwo.ppf(0.95 ** (1 / 3), n)
    band = choice.band(0.95)
    assert band.d_pos == pytest.approx(d_p, rel=1e-12) and band.d_neg == pytest.approx(d_n, rel=1e-12)
    roc = choice.roc_band(0.95)
    tpr = [float(np.mean(s[y] >= t)) for t in choice.candidates]
    fpr = [float(np.mean(s[~y] >= t)) for t in choice.candidates]
    for x, lo, hi in list(zip(roc.fpr, roc.lower, roc.upper, strict=True))[::7]:
        top = max(v for v, f in zip(tpr, fpr, strict=True) if f <= x + d_n)
        bottom = min(v for v, f in zip(tpr, fpr, strict=True) if f >= x - d_n)
        assert hi == pytest.approx(min(1.0, top + d_p), abs=1e-12)
        assert lo == pytest.approx(max(0.0, bottom - d_p), abs=1e-12)
    inside = [
        np.interp(f, roc.fpr, roc.lower) <= v <= np.interp(f, roc.fpr, roc.upper) for f, v in zip(fpr, tpr, strict=True)
    ]
    assert all(inside)
    assert roc.confidence == 0.95 and roc.kind == "simultaneous"


# ----------------------------------------------------------------------------- the view
def _state(view):
    names = [n for n in view.trait_names() if n.startswith("_") and n not in ("_model_id", "_view_count")]
    return {n: getattr(view, n) for n in names if n in view.keys} | {"cost": view.cost, "confidence": view.confidence}


def test_view_after_a_cost_change_equals_choose_threshold_at_that_cost(data):
    y, s = data
    view = cl.choose_threshold(y, s, cost=(1, 1)).view()
    assert isinstance(view, DecisionView) and isinstance(view, cl.DecisionView)
    view.cost = [1, 5]
    fresh = cl.choose_threshold(y, s, cost=(1, 5))
    value, t, fp, fn = brute_force_choice(y, s, (1, 5))
    summary = view._summary
    assert summary["threshold"] == fresh.threshold == t and summary["none_positive"] is False
    cm = fresh.confusion_matrix
    assert [summary[k] for k in ("tp", "fn", "fp", "tn")] == [cm.tp, cm.fn, cm.fp, cm.tn]
    assert (summary["fp"], summary["fn"]) == (fp, fn)
    assert summary["value"] == pytest.approx(float(value), rel=1e-12)
    assert summary["interval"] == list(fresh.interval(0.95))
    assert summary["pointwise"] == list(fresh.interval(0.95, "pointwise"))
    assert summary["p_t"] == pytest.approx(1 / 6, rel=1e-15)
    assert summary["iso_slope"] == pytest.approx(1 * cm.n / (5 * cm.p), rel=1e-15)
    assert summary["plausible"] == fresh.plausible_thresholds.size
    frame = fresh.to_frame()
    np.testing.assert_array_equal(buffer_array(view, "_thresholds"), frame["threshold"])
    np.testing.assert_array_equal(buffer_array(view, "_values"), frame["value"])
    np.testing.assert_array_equal(buffer_array(view, "_lower"), frame["lower"])
    np.testing.assert_array_equal(buffer_array(view, "_upper"), frame["upper"])
    np.testing.assert_array_equal(buffer_array(view, "_plausible"), frame["plausible"].astype(float))
    np.testing.assert_array_equal(buffer_array(view, "_fpr"), frame["fp"] / cm.n)
    np.testing.assert_array_equal(buffer_array(view, "_tpr"), frame["tp"] / cm.p)
    index = buffer_array(view, "_pointwise_index")
    assert summary["index"] in index and index.size <= 16
    k = int(index[-1])
    assert (
        buffer_array(view, "_pointwise_lower")[-1]
        == fresh.interval(0.95, "pointwise", threshold=frame["threshold"][k])[0]
    )
    # the linked slice shows the chosen matrix
    assert (view.slice.p, view.slice.n, view.slice.tp, view.slice.tn) == (cm.p, cm.n, cm.tp, cm.tn)
    assert view.slice.model == "beta-binomial"
    assert view.choice.threshold == fresh.threshold


def test_view_confidence_moves_the_bands(data):
    y, s = data
    view = DecisionView(cl.choose_threshold(y, s, cost=(1, 3)), linked=False, confidence=0.8)
    band = cl.choose_threshold(y, s, cost=(1, 3)).band(0.8)
    np.testing.assert_array_equal(buffer_array(view, "_lower"), band.lower)
    assert view._summary["plausible"] == int(band.plausible.sum())
    assert view._summary["confidence"] == 0.8 and "80%" in view._summary["note"]


@pytest.mark.parametrize("cost", [[-1, 1], [0, 0], [1, float("inf")], ["a", "b"], [], [1, 2, 3], None])
def test_a_refused_cost_changes_nothing(data, cost):
    y, s = data
    view = DecisionView(cl.choose_threshold(y, s, cost=(1, 2)), linked=False)
    before = _state(view)
    with pytest.raises(cl.InvalidParameterError, match="cost"):
        view.cost = cost
    assert _state(view) == before and view.choice.cost == (1.0, 2.0)


def test_a_metric_choice_has_no_cost_to_vary(data):
    y, s = data
    choice = cl.choose_threshold(y, s, maximize="f1")
    view = DecisionView(choice, linked=False)
    assert view.cost == [] and view._summary["cost"] is None and view._summary["iso_slope"] is None
    assert view._summary["y_label"] == "f1" and view._summary["tp"] == choice.confusion_matrix.tp
    with pytest.raises(cl.InvalidParameterError, match="maximises f1"):
        view.cost = [1, 2]
    assert view.cost == []


def test_the_view_says_a_hostile_label_as_written_and_none_positive():
    y = np.array(["<b>$x^$</b>", "no"] * 20, dtype=object)
    s = np.array([0.5, 0.1, 0.5, 0.9] * 10)  # a negative above every positive: only none positive has FP = 0
    view = DecisionView(cl.choose_threshold(y, s, positive="<b>$x^$</b>", cost=(1, 1)), linked=False)
    assert view._summary["title"].endswith("'<b>$x^$</b>'")
    view.cost = [1, 0]  # false negatives free: nobody positive is best
    assert view._summary["none_positive"] is True and view._summary["threshold"] is None
    assert view._summary["iso_slope"] is None  # vertical iso-cost lines


def test_only_a_single_choice_has_the_decision_view(data):
    y, s = data
    grouped = cl.choose_threshold(y, s, cost=(1, 1), groups=np.arange(y.size) % 2)
    assert grouped.view().__class__ is figure_widget(grouped).__class__
    with pytest.raises(cl.InvalidParameterError, match="ThresholdChoice"):
        DecisionView(grouped)


def test_many_candidates_are_drawn_as_blocks_that_hide_nothing():
    rng = np.random.default_rng(2)
    y = rng.uniform(size=30_000) < 0.3
    s = rng.normal(loc=1.2 * y)  # 30,001 candidates
    choice = cl.choose_threshold(y, s, cost=(1, 4))
    view = DecisionView(choice, linked=False)
    thresholds = buffer_array(view, "_thresholds")
    drawn = thresholds.size
    assert view._summary["drawn"] == drawn <= 2003 and view._summary["candidates"] == 30_001
    # the chosen candidate and "none positive" are drawn exactly
    k = view._summary["index"]
    assert thresholds[k] == choice.threshold and np.isinf(thresholds[-1])
    assert buffer_array(view, "_values")[k] == choice.value
    # each block's band is the envelope of its members', and plausible when any member is
    frame = choice.to_frame()
    starts = np.searchsorted(frame["threshold"].to_numpy(), thresholds)
    ends = np.r_[starts[1:], len(frame)]
    lower, upper = buffer_array(view, "_lower"), buffer_array(view, "_upper")
    plausible = buffer_array(view, "_plausible")
    for j in range(0, drawn, 97):
        block = frame.iloc[starts[j] : ends[j]]
        assert lower[j] == block["lower"].min() and upper[j] == block["upper"].max()
        assert plausible[j] == float(block["plausible"].any())
    assert int(plausible.sum()) >= 1 and view._summary["plausible"] == int(frame["plausible"].sum())
