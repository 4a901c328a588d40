"""``compare_paired(..., cluster=)``: the difference's cluster-robust interval and the cluster-level test.

References: statsmodels 0.15.0's CR1 standard error of OLS of (A right − B right) on a constant;
scipy's one-sample t-test on the clusters' mean differences (equal cluster sizes: the same
statistic); a loop over clusters by central differences for F1; exact ANOVA in Fractions for the ICC.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import confusionlab as cl
from confusionlab.metrics import get_metric


def _pairs(seed=0, n_clusters=40, equal=False):
    rng = np.random.default_rng(seed)
    sizes = np.full(n_clusters, 5) if equal else rng.integers(1, 9, n_clusters)
    cluster = np.repeat(np.arange(n_clusters), sizes)
    y = rng.integers(0, 2, cluster.size)
    hard = np.repeat(rng.uniform(0.5, 0.95, n_clusters), sizes)
    a = np.where(rng.random(cluster.size) < hard, y, 1 - y)
    b = np.where(rng.random(cluster.size) < hard - 0.03, y, 1 - y)
    return y, a, b, cluster


def test_accuracy_difference_is_statsmodels_cr1():
    import statsmodels.api as sm

    y, a, b, cluster = _pairs()
    r = cl.compare_paired(y, a, b, "accuracy", cluster=cluster)
    d = (a == y).astype(float) - (b == y)
    fit = sm.OLS(d, np.ones((d.size, 1))).fit(cov_type="cluster", cov_kwds={"groups": cluster})
    row = r.to_frame().loc["A − B"]
    assert row["observed"] == pytest.approx(fit.params[0], abs=1e-12)
    assert row["std_error"] == pytest.approx(fit.bse[0], abs=1e-12)
    q = stats.t.ppf(0.975, 39)
    assert r.interval() == pytest.approx((fit.params[0] - q * fit.bse[0], fit.params[0] + q * fit.bse[0]))


def test_equal_clusters_test_is_the_t_test_of_cluster_means():
    y, a, b, cluster = _pairs(1, equal=True)
    r = cl.compare_paired(y, a, b, "accuracy", cluster=cluster)
    d = (a == y).astype(float) - (b == y)
    means = np.bincount(cluster, weights=d) / 5
    for alternative in ("two-sided", "greater", "less"):
        expected = stats.ttest_1samp(means, 0.0, alternative=alternative).pvalue
        assert r.p_value(alternative) == pytest.approx(expected, rel=1e-10)


def test_f1_difference_error_is_a_loop_over_clusters():
    y, a, b, cluster = _pairs(2)
    r = cl.compare_paired(y, a, b, "f1", cluster=cluster)
    f = get_metric("f1")

    def cells(pred):
        out = np.zeros((40, 4))
        for t, p, c in zip(y, pred, cluster, strict=True):
            out[c, {(1, 1): 0, (1, 0): 1, (0, 1): 2, (0, 0): 3}[(t, p)]] += 1
        return out

    ca, cb = cells(a), cells(b)
    ta, tb = ca.sum(axis=0), cb.sum(axis=0)
    h, total = 1e-5, 0.0
    for c in range(40):
        sa, sb = ca[c] - ta / 40, cb[c] - tb / 40
        up = f.values(*(ta + h * sa)) - f.values(*(tb + h * sb))
        down = f.values(*(ta - h * sa)) - f.values(*(tb - h * sb))
        total += float((up - down) / (2 * h)) ** 2
    assert r.to_frame().loc["A − B", "std_error"] ** 2 == pytest.approx(40 / 39 * total, rel=1e-6)


def _anova_icc(values: list[list[int]]) -> Fraction:
    rows = [Fraction(v) for c in values for v in c]
    big_n, k = len(rows), len(values)
    grand = sum(rows) / big_n
    means = [sum(map(Fraction, c)) / len(c) for c in values]
    msb = sum(len(c) * (m - grand) ** 2 for c, m in zip(values, means, strict=True)) / (k - 1)
    msw = sum((Fraction(v) - m) ** 2 for c, m in zip(values, means, strict=True) for v in c) / (big_n - k)
    n0 = (big_n - Fraction(sum(len(c) ** 2 for c in values), big_n)) / (k - 1)
    return (msb - msw) / (msb + (n0 - 1) * msw)


def test_icc_of_the_difference_is_the_anova_estimator():
    y, a, b, cluster = _pairs(3, n_clusters=12)
    r = cl.compare_paired(y, a, b, "accuracy", cluster=cluster)
    d = ((a == y).astype(int) - (b == y)).tolist()
    values = [[d[i] for i in np.flatnonzero(cluster == c)] for c in range(12)]
    assert r.icc == pytest.approx(float(_anova_icc(values)), abs=1e-12)


def test_every_row_its_own_cluster_has_design_effect_one():
    y, a, b, _ = _pairs(4)
    r = cl.compare_paired(y, a, b, "mcc", cluster=np.arange(y.size))
    assert r.design_effect == pytest.approx(1.0, abs=1e-12) and r.effective_size == pytest.approx(y.size)


def test_result_says_which_method_and_keeps_the_posterior_probabilities():
    y, a, b, cluster = _pairs(5)
    plain = cl.compare_paired(y, a, b, "f1")
    clustered = cl.compare_paired(y, a, b, "f1", cluster=cluster)
    assert clustered.counts == plain.counts and clustered.prob_greater == plain.prob_greater
    assert clustered.interval_method == "cluster-robust delta method (t, C - 1 df)"
    assert plain.interval_method == "posterior (independent rows)"
    assert "40 clusters" in clustered.summary()
    assert set(clustered.to_frame()["interval_method"]) == {clustered.interval_method}


def test_verdict_reads_the_clustered_interval():
    cluster = np.repeat(np.arange(10), 20)
    y = np.tile([0, 1], 100)
    a = y.copy()
    b = np.where(np.repeat(np.arange(10) < 5, 20), y, 1 - y)  # B wrong on half the clusters
    r = cl.compare_paired(y, a, b, "accuracy", cluster=cluster)
    lo = r.interval()[0]
    assert lo > 0 and r.verdict(margin=0.0) == "A better"
    assert r.verdict(margin=lo + 0.01) == "insufficient evidence"


def test_data_frame_path_equals_the_arrays():
    y, a, b, cluster = _pairs(6)
    frame = pd.DataFrame({"y": y, "a": a, "b": b, "c": [f"s{c}" for c in cluster]})
    by_data = cl.compare_paired("y", "a", "b", "f1", data=frame, cluster="c")
    by_arrays = cl.compare_paired(y, a, b, "f1", cluster=frame["c"].to_numpy())
    assert by_data.interval() == pytest.approx(by_arrays.interval(), abs=1e-12)
    assert by_data.p_value() == pytest.approx(by_arrays.p_value(), abs=1e-12)
    assert by_data.icc == pytest.approx(by_arrays.icc, abs=1e-12)


def test_hostile_input_is_refused_by_name():
    y, a, b, cluster = _pairs(7)
    with pytest.raises(cl.InvalidParameterError, match=r"cluster has \d+ missing"):
        cl.compare_paired(y, a, b, "f1", cluster=np.where(cluster == 3, np.nan, cluster))
    with pytest.raises(cl.InvalidParameterError, match="cluster must give one cluster id per row"):
        cl.compare_paired(y, a, b, "f1", cluster=cluster[1:])
    with pytest.raises(cl.InvalidParameterError, match="single cluster"):
        cl.compare_paired(y, a, b, "f1", cluster=np.zeros(y.size))
    with pytest.raises(cl.InvalidParameterError, match="target='true_value'"):
        cl.compare_paired(y, a, b, "f1", cluster=cluster, target="next_test_set")
    with pytest.raises(cl.InvalidParameterError, match="alternative"):
        cl.compare_paired(y, a, b, "f1", cluster=cluster).p_value("sideways")
    with pytest.raises(cl.InvalidParameterError, match="cluster="):
        cl.compare_paired(y, a, b, "f1").p_value()
