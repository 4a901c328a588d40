"""groups= on roc_curve and precision_recall_curve: each group's curve is scikit-learn's on its rows,
the intervals are simultaneous over the groups (Bonferroni), the bands too (Šidák), and the largest
gap's interval is built from DeLong's 1988 variances (own O(m·n) implementation) and covers the
true largest gap by simulation."""

from __future__ import annotations

import math
from itertools import permutations

import numpy as np
import pytest
from scipy.stats import norm
from sklearn.metrics import average_precision_score, roc_auc_score

import confusionlab as cl
from confusionlab.scores import GroupedCurves

from .test_delong import delong_1988


def _data(seed: int, shifts: dict[str, float], size: int = 300):
    rng = np.random.default_rng(seed)
    g = np.repeat(list(shifts), size)
    y = rng.integers(0, 2, g.size)
    shift = np.array([shifts[k] for k in g])
    return y, np.round(rng.normal(y * shift, 1.0), 2), g


def test_each_group_is_scikit_learns_curve_on_its_rows() -> None:
    y, s, g = _data(0, {"b": 1.0, "a": 0.4, "c": 1.6})
    gc = cl.roc_curve(y, s, groups=g)
    pr = cl.precision_recall_curve(y, s, groups=g)
    assert isinstance(gc, GroupedCurves) and gc.names == ["a", "b", "c"] == pr.names
    for name in gc.names:
        rows = g == name
        assert gc[name].value == pytest.approx(roc_auc_score(y[rows], s[rows]), abs=1e-12)
        assert pr[name].value == pytest.approx(average_precision_score(y[rows], s[rows]), abs=1e-12)
    aucs = [roc_auc_score(y[g == k], s[g == k]) for k in gc.names]
    assert gc.value == pytest.approx(max(aucs) - min(aucs), abs=1e-12)
    assert gc.largest_gap == ("c", "a")


def test_intervals_and_bands_are_simultaneous_over_the_groups() -> None:
    y, s, g = _data(1, {"a": 0.5, "b": 1.0, "c": 1.5})
    gc = cl.roc_curve(y, s, groups=g)
    ends = gc.intervals(0.9)
    for name in gc.names:
        alone = cl.roc_curve(y[g == name], s[g == name])
        assert ends[name] == pytest.approx(alone.interval(1 - 0.1 / 3))  # Bonferroni over 3 groups
        band = gc.band(0.9)[name]
        own = alone.band(0.9 ** (1 / 3))  # Šidák: independent groups
        np.testing.assert_array_equal(band.lower, own.lower)
        assert band.confidence == pytest.approx(0.9 ** (1 / 3))
    frame = gc.to_frame()
    assert list(frame["group"]) == gc.names and frame["lower"].tolist() == [v[0] for v in gc.intervals().values()]


def test_the_largest_gap_interval_from_delongs_1988_variances() -> None:
    y, s, g = _data(2, {"a": 0.3, "b": 1.2, "c": 0.8}, size=400)
    gc = cl.roc_curve(y, s, groups=g)
    auc, var = {}, {}
    for name in "abc":
        rows = g == name
        a, cov = delong_1988(y[rows], [s[rows]])
        auc[name], var[name] = float(a[0]), float(cov[0, 0])
    z = norm.ppf(1 - 0.05 / (2 * 3))  # Bonferroni over the 3 pairs
    lower = max(auc[a] - auc[b] - z * math.sqrt(var[a] + var[b]) for a, b in permutations("abc", 2))
    upper = max(auc[a] - auc[b] + z * math.sqrt(var[a] + var[b]) for a, b in permutations("abc", 2))
    assert gc.interval(0.95) == pytest.approx((max(lower, 0.0), upper), abs=1e-12)
    # Two groups: the difference's interval at the plain level.
    two = cl.roc_curve(y[g != "c"], s[g != "c"], groups=g[g != "c"])
    d = auc["b"] - auc["a"]
    half = norm.ppf(0.975) * math.sqrt(var["a"] + var["b"])
    assert two.interval(0.95) == pytest.approx((d - half, d + half), abs=1e-12)
    assert two.gap_intervals(0.95)[("a", "b")] == pytest.approx((-d - half, -d + half), abs=1e-12)
    lo, hi = two.interval(0.95, target="next_test_set")
    assert hi - lo == pytest.approx(2 * math.sqrt(2) * half)


def test_the_largest_gap_interval_covers_the_true_gap() -> None:
    """Binormal groups with true AUCs 0.75 and 0.85 (gap 0.1), 80 + 80 per group, 400 test sets."""
    true = {"a": 0.75, "b": 0.85}
    d = {k: math.sqrt(2) * norm.ppf(v) for k, v in true.items()}
    rng = np.random.default_rng(5)
    y = np.tile(np.r_[np.ones(80, int), np.zeros(80, int)], 2)
    g = np.repeat(["a", "b"], 160)
    shift = np.where(g == "a", d["a"], d["b"])
    reps, hits, pair_hits = 400, 0, 0
    for _ in range(reps):
        gc = cl.roc_curve(y, rng.normal(y * shift, 1.0), groups=g)
        lo, hi = gc.interval(0.95)
        hits += lo <= 0.1 <= hi
        ends = gc.intervals(0.95)
        pair_hits += all(ends[k][0] <= true[k] <= ends[k][1] for k in true)
    assert hits / reps >= 0.93, hits / reps
    assert pair_hits / reps >= 0.93, pair_hits / reps


def test_groups_refusals() -> None:
    y, s, g = _data(3, {"a": 1.0, "b": 1.0}, size=50)
    with pytest.raises(cl.InvalidParameterError, match="at least two"):
        cl.roc_curve(y, s, groups=np.repeat("a", y.size))
    only_negatives = g.astype(object)
    only_negatives[np.flatnonzero((g == "a") & (y == 0))[:5]] = "lonely"
    with pytest.raises(cl.InvalidParameterError, match="group 'lonely' has no positives"):
        cl.roc_curve(y, s, groups=only_negatives)
    with pytest.raises(cl.InvalidParameterError, match="groups"):
        cl.precision_recall_curve(y, s, groups=g[:-1])
    with pytest.raises(cl.InvalidParameterError, match="multi_class must be omitted"):
        cl.roc_curve(y, s, groups=g, multi_class="ovr")


def test_any_label_dtype_for_groups_and_the_protocol() -> None:
    y, s, g = _data(4, {"a": 1.0, "b": 0.2}, size=60)
    codes = np.where(g == "a", 7, 3)
    gc = cl.roc_curve(y.astype(bool), s, groups=codes)
    assert gc.names == [3, 7] and gc[7].value == pytest.approx(roc_auc_score(y[g == "a"], s[g == "a"]))
    assert "largest AUC gap" in gc.summary() and gc.to_html().startswith("<!DOCTYPE html>")


def test_a_perfectly_separated_small_group_keeps_the_gap_interval_wide() -> None:
    """Regression: a group of 10 + 10 with AUC 1 (DeLong's variance 0, the binormal variance 0 at
    AUC 1) added nothing to the gap's variance; now it adds the binormal variance half a pair from
    the boundary, so the gap's interval is at least as wide as the other group's alone would give."""
    rng = np.random.default_rng(8)
    y = np.r_[np.tile([0, 1], 10), rng.integers(0, 2, 200)]
    s = np.r_[np.tile([0.0, 1.0], 10), rng.normal(0.8 * y[20:], 1.0)]
    g = np.r_[np.repeat("perfect", 20), np.repeat("other", 200)]
    gc = cl.roc_curve(y, s, groups=g)
    assert gc["perfect"].value == 1.0 and gc["perfect"].variance == 0.0
    lo, hi = gc.interval(0.95)
    other = gc["other"]._interval_variance()
    half = norm.ppf(0.975) * math.sqrt(other)
    assert hi - gc.value > half * 1.01 and gc.value - lo > half * 1.01
