"""evaluate_items and compare_items: the clustered error against its formula in exact rationals,
the ICC and design effect against their textbook forms, the variance split against the law of
total variance, ``data=`` against the arrays, and hostile input refused by argument."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import confusionlab as cl


def _formula(values, clusters):
    """√(C/(C − 1)·Σ_c (Σ_{i∈c} (x_i − x̄))²)/n, every step but the root in rationals."""
    x = [Fraction(v).limit_denominator(10**6) for v in values]
    mean = sum(x, Fraction(0)) / len(x)
    sums: dict = {}
    for v, c in zip(x, clusters, strict=True):
        sums[c] = sums.get(c, Fraction(0)) + (v - mean)
    C = len(sums)
    return math.sqrt(Fraction(C, C - 1) * sum(s * s for s in sums.values())) / len(x)


def test_clustered_error_equals_the_formula_with_repeated_items():
    rng = np.random.default_rng(0)
    item = np.repeat(np.arange(30), 4)
    cluster = np.repeat(rng.integers(0, 7, 30), 4)
    scores = rng.choice([0, 0.5, 1], size=item.size)
    r = cl.evaluate_items(scores, item=item, cluster=cluster)
    means = scores.reshape(30, 4).mean(axis=1)
    assert r.value == pytest.approx(means.mean(), abs=1e-15)
    assert r.std_error == pytest.approx(_formula(means, cluster[::4]), abs=1e-14)
    assert r.naive_std_error == pytest.approx(np.std(means, ddof=1) / np.sqrt(30), abs=1e-15)
    assert (r.n_items, r.n_rows, r.n_clusters, r.df) == (30, 120, len(set(cluster)), len(set(cluster)) - 1)


def test_without_clusters_the_error_is_sd_over_root_n_and_the_t_interval():
    from scipy import stats

    x = np.array([1, 0, 1, 1, 0, 1, 1, 1.0])
    r = cl.evaluate_items(x)
    se = np.std(x, ddof=1) / np.sqrt(8)
    assert r.std_error == pytest.approx(se, abs=1e-15) and r.n_clusters is None
    assert math.isnan(r.icc) and r.design_effect == 1.0 and r.effective_size == 8
    assert r.interval(0.9) == pytest.approx(stats.t.interval(0.9, 7, loc=x.mean(), scale=se), abs=1e-14)


def test_icc_and_design_effect_against_the_textbook_forms_for_equal_clusters():
    rng = np.random.default_rng(1)
    m, C = 5, 40
    cluster = np.repeat(np.arange(C), m)
    x = rng.binomial(1, rng.beta(2, 3, C)[cluster]).astype(float)
    r = cl.evaluate_items(x, cluster=cluster)
    groups = x.reshape(C, m)
    msb = m * np.sum((groups.mean(axis=1) - x.mean()) ** 2) / (C - 1)
    msw = np.sum((groups - groups.mean(axis=1, keepdims=True)) ** 2) / (C * (m - 1))
    icc = (msb - msw) / (msb + (m - 1) * msw)
    assert r.icc == pytest.approx(icc, abs=1e-14)
    assert r.design_effect == pytest.approx(1 + (m - 1) * max(icc, 0), abs=1e-14)
    assert r.effective_size == pytest.approx(C * m / r.design_effect, abs=1e-12)


def test_icc_recovers_a_known_beta_binomial_correlation():
    """Beta(a, b) cluster rates give items an ICC of 1/(a + b + 1): 0.3 for a + b = 7/3."""
    rng = np.random.default_rng(2)
    a, b = 0.7, 7 / 3 - 0.7
    cluster = np.repeat(np.arange(2000), 10)
    x = rng.binomial(1, rng.beta(a, b, 2000)[cluster]).astype(float)
    assert cl.evaluate_items(x, cluster=cluster).icc == pytest.approx(0.3, abs=0.03)


def test_variance_split_is_the_law_of_total_variance():
    rng = np.random.default_rng(3)
    K = rng.integers(2, 6, 25)
    item = np.repeat(np.arange(25), K)
    x = rng.binomial(1, rng.uniform(0.2, 0.9, 25)[item]).astype(float)
    r = cl.evaluate_items(x, item=item)
    within = np.array([np.var(x[item == i], ddof=1) for i in range(25)])
    samples = np.sum(within / K) / 25**2
    split = r.variance_split
    assert split["samples"] == pytest.approx(samples, abs=1e-15)
    assert split["total"] == pytest.approx(r.std_error**2, abs=1e-15)
    assert split["items"] == pytest.approx(max(r.std_error**2 - samples, 0.0), abs=1e-15)
    frame = r.to_frame()
    assert frame["samples_variance"].item() == split["samples"] and list(frame.columns)[-1] == "target"
    assert cl.evaluate_items(x).variance_split is None  # one row an item: nothing to split


def test_compare_items_interval_is_evaluate_items_of_the_differences():
    rng = np.random.default_rng(4)
    item = np.repeat(np.arange(40), 3)
    cluster = item // 4
    a, b = rng.integers(0, 2, item.size), rng.integers(0, 2, item.size)
    c = cl.compare_items(a, b, item=item, cluster=cluster)
    d = cl.evaluate_items(a - b, item=item, cluster=cluster)
    assert (c.value, c.std_error, *c.interval(0.9)) == pytest.approx(
        (d.value, d.std_error, *d.interval(0.9)), abs=1e-15
    )
    assert c.value_a - c.value_b == pytest.approx(c.value, abs=1e-15)


@pytest.mark.parametrize("engine", ["pandas", "polars"])
def test_data_gives_the_arrays_answer(engine):
    rng = np.random.default_rng(5)
    item = np.repeat(np.arange(20), 3)
    cluster = np.array([f"p{i // 5}" for i in item])
    a, b = rng.choice([0, 0.5, 1], item.size), rng.choice([0, 1], item.size)
    frame = pd.DataFrame({"a": a, "b": b, "q": item, "p": cluster})
    if engine == "polars":
        import polars

        frame = polars.from_pandas(frame)
    r = cl.evaluate_items("a", item="q", cluster="p", data=frame)
    s = cl.evaluate_items(a, item=item, cluster=cluster)
    assert (r.value, r.std_error, r.icc) == pytest.approx((s.value, s.std_error, s.icc), abs=1e-15)
    c = cl.compare_items("a", "b", item="q", cluster="p", data=frame)
    d = cl.compare_items(a, b, item=item, cluster=cluster)
    assert (c.value, c.std_error, c.p_value()) == pytest.approx((d.value, d.std_error, d.p_value()), abs=1e-15)
    rows = cl.evaluate_items("a", data=frame)  # no item column: every row its own item
    assert rows.std_error == pytest.approx(cl.evaluate_items(a).std_error, abs=1e-15)


# ----------------------------------------------------------------------------- hostile input
@pytest.mark.parametrize(
    ("scores", "match"),
    [
        ([1.0, float("nan"), 0.0], "scores has 1 NaN"),
        (pd.array([1.0, None, 0.0], dtype="Float64"), "scores has 1 NaN"),
        (np.array([1, None, 0], dtype=object), "scores has 1 NaN"),
        (["C", "I", "C"], "map letter grades"),
        ([1.0, np.inf, 0.0], "finite"),
        ([], "at least two items"),
        ([1.0], "at least two items"),
        ("101", "array of numbers"),
        ([[1, 0], [0, 1]], "one-dimensional"),
    ],
)
def test_hostile_scores_are_refused_by_name(scores, match):
    with pytest.raises(cl.InvalidParameterError, match=match):
        cl.evaluate_items(scores)


def test_hostile_ids_are_refused_by_name():
    with pytest.raises(cl.InvalidParameterError, match="cluster"):
        cl.evaluate_items([1, 0, 1], cluster=["a", None, "b"])
    with pytest.raises(cl.InvalidParameterError, match="scores and cluster must match"):
        cl.evaluate_items([1, 0, 1], cluster=["a", "b"])
    with pytest.raises(cl.InvalidParameterError, match="at least two clusters"):
        cl.evaluate_items([1, 0, 1], cluster=["a", "a", "a"])
    with pytest.raises(cl.InvalidParameterError, match="in two clusters"):
        cl.evaluate_items([1, 0, 1, 1], item=[1, 1, 2, 2], cluster=["a", "b", "b", "b"])
    with pytest.raises(cl.InvalidParameterError, match="read the same"):
        cl.evaluate_items([1, 0, 1], item=np.array([1, "1", 2], dtype=object))
    with pytest.raises(cl.InvalidParameterError, match="confidence"):
        cl.evaluate_items([1, 0, 1], confidence=1.0)


def test_mismatched_rows_between_a_and_b_are_refused():
    with pytest.raises(cl.InvalidParameterError, match="scores_a and scores_b must match"):
        cl.compare_items([1, 0, 1], [1, 0])
    with pytest.raises(cl.InvalidParameterError, match="scores_b has 1 NaN"):
        cl.compare_items([1, 0, 1], [1, float("nan"), 0])


def test_huge_inputs_are_refused_before_allocating():
    huge = np.broadcast_to(1.0, 10**10)
    with pytest.raises(cl.TooLargeError, match="scores with 10,000,000,000 rows"):
        cl.evaluate_items(huge)
    with pytest.raises(cl.TooLargeError, match="cluster with 10,000,000,000 rows"):
        cl.evaluate_items([1.0, 0.0], cluster=np.broadcast_to(1, 10**10))


def test_hostile_names_stay_text():
    names = ["<script>alert(1)</script>", "$x^$", "../../etc/passwd"]
    r = cl.evaluate_items([1, 0, 1, 1, 0, 0], cluster=names * 2)
    page = r.to_html()
    assert "<script>alert" not in page and r.n_clusters == 3


def test_data_refusals_name_the_argument():
    frame = pd.DataFrame({"s": [1.0, None, 0.0], "t": ["a", "b", "c"], "q": [1, 2, 3]})
    with pytest.raises(cl.InvalidParameterError, match="scores: column 's' has 1 missing"):
        cl.evaluate_items("s", data=frame)
    with pytest.raises(cl.InvalidParameterError, match="scores must hold numbers"):
        cl.evaluate_items("t", data=frame)
    with pytest.raises(cl.InvalidParameterError, match="item"):
        cl.evaluate_items("q", item=[1, 2, 3], data=frame)
