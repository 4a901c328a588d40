"""compare_auc(groups=): each group's paired comparison is DeLong's 1988 (own O(m·n)
implementation) with scikit-learn's AUCs and statsmodels' Holm over the classifier pairs; the
intervals are simultaneous over the groups (Bonferroni), the largest gap of the difference has
GroupedCurves' conservative interval, and both cover by simulation (fixed seed)."""

from __future__ import annotations

import math
from itertools import combinations, permutations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import norm
from sklearn.metrics import roc_auc_score
from statsmodels.stats.multitest import multipletests

import confusionlab as cl
from confusionlab.scores import AucComparison, GroupedAucComparison

from .test_delong import delong_1988


def _data(seed: int, groups: dict[str, tuple[float, float, float]], size: int = 150, decimals: int | None = 1):
    """Three classifiers sharing a noise term; per group the three class shifts."""
    rng = np.random.default_rng(seed)
    g = np.repeat(list(groups), size)
    y = rng.integers(0, 2, g.size)
    base = rng.normal(size=g.size)
    shifts = np.array([groups[k] for k in g])
    scores = [base + shifts[:, j] * y + 0.6 * rng.normal(size=g.size) for j in range(3)]
    if decimals is not None:
        scores = [np.round(s, decimals) for s in scores]
    return y, scores, g


def _reference(y, scores, g, name):
    rows = g == name
    return delong_1988(y[rows], [s[rows] for s in scores])


def test_each_group_is_the_papers_comparison_with_holm_and_bonferroni() -> None:
    y, scores, g = _data(0, {"b": (1.0, 0.6, 0.8), "a": (0.9, 0.9, 0.3), "c": (1.4, 0.7, 1.0)})
    names = ["x", "w", "z"]
    c = cl.compare_auc(y, dict(zip(names, scores, strict=True)), groups=g)
    assert isinstance(c, GroupedAucComparison) and c.names == ["a", "b", "c"] and len(c) == 3
    z = norm.ppf(1 - (1 - 0.9) / (2 * 3))  # Bonferroni over the 3 groups, two-sided
    ends = c.intervals(0.9)
    for name in c.names:
        rows = g == name
        aucs, cov = _reference(y, scores, g, name)
        member = c[name]
        assert isinstance(member, AucComparison)
        assert (member.p, member.n) == (int((y[rows] == 1).sum()), int((y[rows] == 0).sum()))
        for k, x in enumerate(names):
            assert member.aucs[x] == pytest.approx(roc_auc_score(y[rows], scores[k][rows]), abs=1e-12)
        np.testing.assert_allclose(member.covariance, cov, rtol=1e-10, atol=1e-15)
        raw = []
        for a, b in combinations(range(3), 2):
            d = aucs[a] - aucs[b]
            sd = math.sqrt(cov[a, a] + cov[b, b] - 2 * cov[a, b])
            raw.append(2 * norm.sf(abs(d) / sd))
            assert c.differences[name][(names[a], names[b])] == pytest.approx(d, abs=1e-13)
            assert ends[name][(names[a], names[b])] == pytest.approx((d - z * sd, d + z * sd), rel=1e-9)
        holm = multipletests(raw, method="holm")[1]
        for (a, b), expected in zip(combinations(range(3), 2), holm, strict=True):
            assert c.p_values[name][(names[a], names[b])] == pytest.approx(expected, rel=1e-9)
    frame = c.to_frame()
    assert len(frame) == 9 and list(frame["group"]) == ["a"] * 3 + ["b"] * 3 + ["c"] * 3
    first = ends["a"][("x", "w")]
    assert (frame.loc[0, "lower"], frame.loc[0, "upper"]) == pytest.approx(
        c.intervals(0.95)["a"][("x", "w")]
    ) and first[0] > frame.loc[0, "lower"]


def test_the_largest_gap_and_its_interval_from_the_papers_variances() -> None:
    y, scores, g = _data(1, {"a": (1.2, 1.2, 0.5), "b": (1.2, 0.5, 0.5), "c": (1.2, 0.9, 0.5)}, size=200)
    c = cl.compare_auc(y, scores[0], scores[1], groups=g)
    d, var = {}, {}
    for name in "abc":
        aucs, cov = _reference(y, scores[:2], g, name)
        d[name] = aucs[0] - aucs[1]
        var[name] = cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]
    assert c.value == pytest.approx(max(d.values()) - min(d.values()), abs=1e-13)
    assert c.largest_gap == (max(d, key=d.get), min(d, key=d.get)) == ("b", "a")
    z = norm.ppf(1 - 0.05 / (2 * 3))  # Bonferroni over the 3 pairs of groups
    lower = max(d[a] - d[b] - z * math.sqrt(var[a] + var[b]) for a, b in permutations("abc", 2))
    upper = max(d[a] - d[b] + z * math.sqrt(var[a] + var[b]) for a, b in permutations("abc", 2))
    assert c.interval(0.95) == pytest.approx((max(lower, 0.0), upper), abs=1e-12)
    # two groups: the difference of the differences at the plain level; next_test_set doubles the variance
    two = cl.compare_auc(y[g != "c"], scores[0][g != "c"], scores[1][g != "c"], groups=g[g != "c"])
    half = norm.ppf(0.975) * math.sqrt(var["a"] + var["b"])
    gap = d["b"] - d["a"]
    assert two.interval(0.95) == pytest.approx((gap - half, gap + half), abs=1e-12)
    assert two.gap_intervals(0.95)[("a", "b")] == pytest.approx((-gap - half, -gap + half), abs=1e-12)
    lo, hi = two.interval(0.95, target="next_test_set")
    assert hi - lo == pytest.approx(2 * math.sqrt(2) * half)
    # the same groups' curves: each classifier's AUC is GroupedCurves' (one source of truth)
    curves = cl.roc_curve(y, scores[0], groups=g)
    assert {k: v["A"] for k, v in c.aucs.items()} == pytest.approx(curves.values, abs=1e-14)


def test_k_classifiers_keyed_by_pair() -> None:
    y, scores, g = _data(2, {"u": (1.0, 0.5, 0.2), "v": (0.5, 1.0, 0.2)})
    c = cl.compare_auc(y, {"p": scores[0], "q": scores[1], "r": scores[2]}, groups=g)
    assert set(c.value) == set(c.interval()) == set(c.largest_gap) == {("p", "q"), ("p", "r"), ("q", "r")}
    for pair in c.value:
        per = [c.differences[k][pair] for k in c.names]
        assert c.value[pair] == pytest.approx(max(per) - min(per))
    assert c.largest_gap[("p", "q")] == ("u", "v")
    text = c.summary()
    assert "Does the AUC difference AUC(p) − AUC(q) depend on the group?" in text and "Holm" in text


def test_coverage_by_simulation() -> None:
    """Paired binormal scores (correlation 0.5 within a class, unit variances), 3 groups of
    100 + 100 with true AUC differences 0, 0.06 and 0.12 (true largest gap 0.12): over 300 test
    sets, the three groups' 95 % intervals all hold, and the largest gap's interval holds, each
    at least 0.93 of the time."""
    true_a = np.array([0.80, 0.80, 0.80])
    true_b = true_a - np.array([0.0, 0.06, 0.12])
    shift_a, shift_b = math.sqrt(2) * norm.ppf(true_a), math.sqrt(2) * norm.ppf(true_b)
    rng = np.random.default_rng(11)
    per = 200
    g = np.repeat(["g0", "g1", "g2"], per)
    y = np.tile(np.r_[np.ones(per // 2, int), np.zeros(per // 2, int)], 3)
    sa, sb = np.repeat(shift_a, per), np.repeat(shift_b, per)
    chol = np.linalg.cholesky(np.array([[1.0, 0.5], [0.5, 1.0]]))
    reps, all_hold, gap_hold = 300, 0, 0
    for _ in range(reps):
        noise = rng.normal(size=(y.size, 2)) @ chol.T
        c = cl.compare_auc(y, sa * y + noise[:, 0], sb * y + noise[:, 1], groups=g)
        ends = c.intervals(0.95)
        all_hold += all(ends[k][0] <= t <= ends[k][1] for k, t in zip(c.names, true_a - true_b, strict=True))
        lo, hi = c.interval(0.95)
        gap_hold += lo <= 0.12 <= hi
    assert all_hold / reps >= 0.93, all_hold / reps
    assert gap_hold / reps >= 0.93, gap_hold / reps


def test_hostile_groups() -> None:
    y, scores, g = _data(3, {"a": (1.0, 1.0, 1.0), "b": (1.0, 1.0, 1.0)}, size=40)
    lonely = g.astype(object)
    lonely[np.flatnonzero((g == "a") & (y == 1))[:4]] = "lonely"
    with pytest.raises(cl.InvalidParameterError, match="group 'lonely' has no negatives"):
        cl.compare_auc(y, scores[0], scores[1], groups=lonely)
    with pytest.raises(cl.InvalidParameterError, match="y_true and groups must match"):
        cl.compare_auc(y, scores[0], scores[1], groups=g[:-1])
    with pytest.raises(cl.InvalidParameterError, match="score_b"):
        cl.compare_auc(y, scores[0], scores[1][:-1], groups=g)
    missing = g.astype(object)
    missing[5] = np.nan
    with pytest.raises(cl.InvalidParameterError, match=r"groups has 1 missing value .* at position 5"):
        cl.compare_auc(y, scores[0], scores[1], groups=missing)
    floats = np.where(g == "a", 1.0, 2.0)
    floats[7] = np.nan
    with pytest.raises(cl.InvalidParameterError, match=r"groups has 1 missing value .* at position 7"):
        cl.compare_auc(y, scores[0], scores[1], groups=floats)
    with pytest.raises(cl.InvalidParameterError, match=r"at least two .*one comparison"):
        cl.compare_auc(y, scores[0], scores[1], groups=np.repeat("a", y.size))
    import pandas as pd

    frame = pd.DataFrame({"y": y, "s": scores[0], "t": scores[1], "g": g})
    with pytest.raises(cl.InvalidParameterError, match=r"^with data=, groups is a column name"):
        cl.compare_auc("y", "s", "t", data=frame, groups=g)


def test_labels_of_any_dtype_and_the_protocol() -> None:
    y, scores, g = _data(4, {"a": (1.0, 0.3, 0.0), "b": (0.3, 1.0, 0.0)}, size=60, decimals=None)
    codes = np.where(g == "a", 7, 3)
    labels = np.where(y == 1, "yes", "no")
    c = cl.compare_auc(labels, scores[0], scores[1], groups=codes, positive="yes")
    assert c.names == [3, 7]
    rows = g == "a"
    assert c[7].value == pytest.approx(
        roc_auc_score(y[rows], scores[0][rows]) - roc_auc_score(y[rows], scores[1][rows]), abs=1e-13
    )
    assert c.summary().startswith("Does the AUC difference AUC(A) − AUC(B) depend on the group?")
    assert c.to_html().startswith("<!DOCTYPE html>") and c.plot().axes


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(0, 60),
    seed=st.integers(0, 2**16),
    group_values=st.lists(
        st.one_of(st.sampled_from(["a", "b", "c"]), st.integers(-2, 2), st.none(), st.just(math.nan)),
        min_size=1,
        max_size=4,
    ),
    bad_score=st.sampled_from([None, math.nan, math.inf, -math.inf]),
)
def test_hostile_groups_by_hypothesis(n, seed, group_values, bad_score) -> None:
    """Any group labels (mixed types, missing values, one group, tiny groups) and scores with a
    non-finite value: a comparison whose intervals stay in range, or InvalidParameterError."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    a, b = rng.normal(size=n) + y, rng.normal(size=n) + 0.5 * y
    if bad_score is not None and n:
        a[rng.integers(n)] = bad_score
    groups = np.array([group_values[i] for i in rng.integers(len(group_values), size=n)], dtype=object)
    try:
        r = cl.compare_auc(y, a, b, groups=groups)
    except cl.InvalidParameterError as exc:
        assert str(exc)
        return
    assert isinstance(r, GroupedAucComparison)
    assert 0.0 <= r.value <= 2.0
    lo, hi = r.interval(0.95)
    assert 0.0 <= lo <= hi <= 2.0
    for lo, hi in r.intervals().values():
        assert -1.0 <= lo <= hi <= 1.0
