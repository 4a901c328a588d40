"""PairedView: what it sends is the comparison's, and its joint and difference match brute force."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest
import traitlets
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent))
import paired_brute as brute

from confusionlab.paired import compare_paired, compare_paired_cells
from confusionlab.widgets._common import buffer_array
from confusionlab.widgets.paired_view import PairedView

TABLE = ((2, 1, 0, 2), (1, 0, 2, 3))  # p = 5, n = 6


def brute_joint(metric: str, positives, negatives) -> list[tuple[float, float, float]]:
    """(value of A, value of B, mass) of every pair of cell compositions, in exact rationals."""
    p, n = sum(positives), sum(negatives)
    pos = brute.cell_pmf("paired-beta-binomial", positives, p)
    neg = brute.cell_pmf("paired-beta-binomial", negatives, n)
    out = []
    for cp, wp in pos.items():
        ta, tb = cp[0] + cp[1], cp[0] + cp[2]
        for cn, wn in neg.items():
            fa, fb = cn[0] + cn[1], cn[0] + cn[2]
            va = brute.value(metric, ta, p - ta, fa, n - fa)
            vb = brute.value(metric, tb, p - tb, fb, n - fb)
            out.append((va, vb, float(wp * wn)))
    return out


def test_view_sends_the_comparisons_numbers() -> None:
    r = compare_paired_cells(TABLE, "mcc", tolerance=0, target="next_test_set")
    w = PairedView(r, margin=0.1, confidence=0.9, name_a="logistic", name_b="tree")
    s = w._summary
    assert (s["prob_greater"], s["prob_equal"], s["prob_less"]) == (r.prob_greater, r.prob_equal, r.prob_less)
    assert s["verdict"] == r.verdict(0.1, 0.9)
    assert s["prob_equivalent"] == r.prob_equivalent(0.1)
    assert s["interval"] == list(r.interval(0.9))
    assert s["discordant"] == 3 and s["method"] == "exact" and w.metric == "mcc"
    assert "new test set of 11 examples (5 positives, 6 negatives)" in w._question
    assert "logistic" in w._question and "tree" in w._question


def test_joint_and_difference_match_brute_force() -> None:
    """The heat map's cells hold the brute-force mass of their (A, B) bins; the difference's PMF
    is the brute-force one (exact rationals, tests/paired/paired_brute.py)."""
    r = compare_paired_cells(TABLE, "mcc", tolerance=0, target="next_test_set")
    w = PairedView(r, bins=12, max_values=100_000)
    edges = buffer_array(w, "_edges")
    shown = buffer_array(w, "_joint").reshape(edges.size - 1, edges.size - 1)
    full = r.joint(1).edges_a  # the range the bins were cut from
    width = edges[1] - edges[0]
    total_bins = round((full[-1] - full[0]) / width)
    ref = np.zeros((total_bins, total_bins))
    for va, vb, mass in brute_joint("mcc", *TABLE):
        ia = min(total_bins - 1, math.floor((va - full[0]) / width + 1e-9))
        ib = min(total_bins - 1, math.floor((vb - full[0]) / width + 1e-9))
        ref[ia, ib] += mass
    first = round((edges[0] - full[0]) / width)
    cut = ref[first : first + shown.shape[0], first : first + shown.shape[1]]
    np.testing.assert_allclose(shown, cut, atol=1e-7)
    assert w._summary["outside_mass"] == pytest.approx(1 - cut.sum(), abs=1e-6)
    # below the diagonal (A's bin above B's) and on it: at least P(A > B) lies strictly below
    assert np.tril(ref, -1).sum() <= r.prob_greater + 1e-9

    greater, equal, less, diff, _ = brute.paired("paired-beta-binomial", *TABLE, "mcc")
    values = buffer_array(w, "_diff_values")
    probs = buffer_array(w, "_diff_probabilities")
    ref_values = np.array(sorted(diff))
    np.testing.assert_allclose(values, ref_values, atol=1e-9)
    np.testing.assert_allclose(probs, [float(diff[v]) for v in sorted(diff)], atol=1e-7)
    assert w._summary["prob_greater"] == pytest.approx(float(greater), abs=1e-9)
    assert w._summary["prob_equal"] == pytest.approx(float(equal), abs=1e-9)
    assert w._summary["prob_less"] == pytest.approx(float(less), abs=1e-9)


def test_identical_models_are_symmetric_about_the_diagonal() -> None:
    y = [1, 1, 1, 1, 0, 0, 0]
    pred = [1, 1, 0, 1, 0, 1, 0]
    r = compare_paired(y, pred, pred, "accuracy", target="next_test_set")
    w = PairedView(r)
    edges = buffer_array(w, "_edges")
    joint = buffer_array(w, "_joint").reshape(edges.size - 1, edges.size - 1)
    assert joint.sum() == pytest.approx(1, abs=1e-6)
    np.testing.assert_allclose(joint, joint.T, atol=1e-9)  # A and B exchangeable
    assert w._summary["prob_equal"] == pytest.approx(r.prob_equal) and 0 < r.prob_equal < 1
    assert w._summary["verdict"] == r.verdict(w.margin, w.confidence)


def test_margin_and_confidence_change_the_verdict_and_bad_values_change_nothing() -> None:
    r = compare_paired_cells([[50, 3, 1, 6], [2, 4, 1, 33]], "accuracy", target="next_test_set")
    w = PairedView(r)
    for margin in (0.0, 0.01, 0.05, 0.3):
        w.margin = margin
        assert w._summary["verdict"] == r.verdict(margin, 0.95)
        assert w._summary["prob_equivalent"] == r.prob_equivalent(margin)
        lo, hi = w._diff_domain
        assert lo <= -margin and hi >= margin  # the band is inside the drawn range
    w.update(margin=0.02, confidence=0.5)
    assert w._summary["verdict"] == r.verdict(0.02, 0.5)
    before = (w.margin, w.confidence, w._summary, w._joint, w._diff_values)
    for bad in (-0.1, math.nan, math.inf, True, "0.1"):
        with pytest.raises(traitlets.TraitError, match="margin"):
            w.margin = bad
    for bad in (0, 1, 1.5, math.nan):
        with pytest.raises(traitlets.TraitError, match="confidence"):
            w.confidence = bad
    with pytest.raises(traitlets.TraitError):
        w.bins = 1
    with pytest.raises(traitlets.TraitError, match="metric"):
        w.metric = "f1"
    assert (w.margin, w.confidence, w._summary, w._joint, w._diff_values) == before
    with pytest.raises(TypeError, match="PairedComparison"):
        PairedView("not a comparison")


def test_monte_carlo_comparison_is_drawn_with_its_error() -> None:
    r = compare_paired_cells(
        [[50, 3, 1, 6], [2, 4, 1, 33]], "f1", method="monte-carlo", n_draws=2000, random_state=1, target="next_test_set"
    )
    w = PairedView(r, bins=16)
    assert w._summary["method"] == "monte-carlo" and w._summary["n_draws"] == 2000
    assert w._summary["mc_error"] == r.mc_error > 0
    assert buffer_array(w, "_joint").sum() == pytest.approx(1 - w._summary["outside_mass"], abs=1e-6)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    margin=st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-5, 5), st.booleans(), st.text()),
    confidence=st.one_of(st.floats(), st.integers(-2, 2), st.none()),
    bins=st.one_of(st.integers(-10, 10_000), st.floats(), st.text()),
    name=st.one_of(st.text(), st.integers(), st.none()),
)
def test_hostile_arguments_are_refused_by_name_or_accepted(margin, confidence, bins, name) -> None:
    r = compare_paired_cells([[5, 1, 2, 3], [1, 0, 1, 6]], "balanced_accuracy", tolerance=1e-9, target="next_test_set")
    try:
        w = PairedView(r, margin=margin, confidence=confidence, bins=bins, name_a=name)
    except traitlets.TraitError as error:
        assert any(k in str(error) for k in ("margin", "confidence", "bins", "name_a")), str(error)
        return
    rows = buffer_array(w, "_edges").size - 1
    assert 1 <= rows <= 200
    assert buffer_array(w, "_joint").size == rows * rows
    assert w._summary["verdict"] == r.verdict(w.margin, w.confidence)
