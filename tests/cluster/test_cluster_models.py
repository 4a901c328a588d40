"""The clustered machinery of :mod:`confusionlab.models.cluster` against independent references.

* the ICC and the design effect: brute force over the rows with :class:`fractions.Fraction`;
* the delta-method variance: a loop over clusters taking each cluster's contribution by a
  central difference of the metric (no gradient of the code under test), and statsmodels
  0.15.0's cluster-robust OLS standard error (``cov_type="cluster"``, CR1) of the 0/1 indicator
  regressed on a constant;
* the vectorised cluster bootstrap: its variance against the delta method's on many clusters.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import confusionlab as cl
from confusionlab.metrics import get_metric
from confusionlab.models import cluster as mc

RATIO_METRICS = ("accuracy", "precision", "recall", "tnr", "npv", "f1", "mcc", "balanced_accuracy", "jaccard")


def _rows(rng, n_clusters, low=1, high=7):
    sizes = rng.integers(low, high, n_clusters)
    codes = np.repeat(np.arange(n_clusters), sizes)
    cells = rng.integers(0, 4, codes.size)
    return codes, cells


# ----------------------------------------------------------------------------- ICC, design effect
def _icc_brute(outcomes: list[list[int]]) -> Fraction:
    """The one-way ANOVA ICC from the rows themselves, in exact arithmetic."""
    everything = [Fraction(y) for cluster in outcomes for y in cluster]
    big_n, c = len(everything), len(outcomes)
    grand = sum(everything) / big_n
    means = [sum(map(Fraction, cl_)) / len(cl_) for cl_ in outcomes]
    ssb = sum(len(cl_) * (m - grand) ** 2 for cl_, m in zip(outcomes, means, strict=True))
    ssw = sum((Fraction(y) - m) ** 2 for cl_, m in zip(outcomes, means, strict=True) for y in cl_)
    msb, msw = ssb / (c - 1), ssw / (big_n - c)
    n0 = (big_n - Fraction(sum(len(cl_) ** 2 for cl_ in outcomes), big_n)) / (c - 1)
    return (msb - msw) / (msb + (n0 - 1) * msw)


@pytest.mark.parametrize("seed", range(8))
def test_icc_equals_the_anova_estimator_in_fractions(seed):
    rng = np.random.default_rng(seed)
    outcomes = [rng.integers(0, 2, rng.integers(1, 6)).tolist() for _ in range(rng.integers(2, 7))]
    if sum(map(len, outcomes)) == len(outcomes) or len({y for c in outcomes for y in c}) < 2:
        outcomes.append([0, 1])
    expected = _icc_brute(outcomes)
    got = mc.icc([sum(c) for c in outcomes], [len(c) for c in outcomes])
    assert got == pytest.approx(float(expected), abs=1e-12)


def test_icc_known_values():
    assert mc.icc([3, 0], [3, 3]) == 1.0  # each cluster all alike, the two opposite
    assert mc.icc([2, 2], [4, 4]) == pytest.approx(-1 / 3)  # MSB = 0: (0 − MSW)/(3·MSW)
    assert np.isnan(mc.icc([2], [4]))  # one cluster
    assert np.isnan(mc.icc([1, 0, 1], [1, 1, 1]))  # no within-cluster spread
    assert np.isnan(mc.icc([2, 3], [2, 3]))  # every row the same outcome


@pytest.mark.parametrize("sizes", [[5, 5, 5], [1, 2, 3, 10], [7], [2, 9]])
def test_design_effect_is_the_cv_form_in_fractions(sizes):
    rho = Fraction(3, 10)
    m = Fraction(sum(sizes), len(sizes))
    var = sum((Fraction(s) - m) ** 2 for s in sizes) / len(sizes)
    cv2 = var / m**2
    expected = 1 + ((1 + cv2) * m - 1) * rho
    assert mc.design_effect(sizes, 0.3) == pytest.approx(float(expected), abs=1e-12)
    assert mc.effective_size(sizes, 0.3) == pytest.approx(float(sum(sizes) / expected), abs=1e-9)


def test_design_effect_of_equal_sizes_is_kish():
    assert mc.design_effect([4] * 6, 0.25) == pytest.approx(1 + 3 * 0.25)
    assert mc.design_effect([1] * 6, float("nan")) == 1.0


# ----------------------------------------------------------------------------- delta method
def _loop_variance(metric: str, cells: np.ndarray) -> float:
    """Σ_c u_c², u_c by a central difference of f along cluster c's counts, one cluster at a time."""
    f = get_metric(metric)
    totals = cells.sum(axis=0).astype(float)
    c = cells.shape[0]
    total = 0.0
    h = 1e-5
    for k in range(c):
        step = cells[k] - totals / c
        up = f.values(*(totals + h * step), undefined=np.nan)
        down = f.values(*(totals - h * step), undefined=np.nan)
        total += float((up - down) / (2 * h)) ** 2
    return c / (c - 1) * total


@pytest.mark.parametrize("metric", RATIO_METRICS)
@pytest.mark.parametrize("seed", range(3))
def test_delta_method_variance_equals_a_loop_over_clusters(metric, seed):
    rng = np.random.default_rng(seed)
    codes, cells = _rows(rng, 12)
    counts = mc.cluster_cells(codes, cells, 12)
    got = float(mc.cluster_robust_variance(mc.influence(metric, counts)))
    assert got == pytest.approx(_loop_variance(metric, counts), rel=1e-6)


def test_cluster_cells_counts_each_cluster():
    codes = np.array([2, 0, 2, 2, 1])
    cells = np.array([0, 3, 1, 0, 2])
    expected = np.zeros((3, 4), dtype=int)
    for c, k in zip(codes, cells, strict=True):
        expected[c, k] += 1
    assert mc.cluster_cells(codes, cells, 3).tolist() == expected.tolist()


def test_accuracy_standard_error_equals_statsmodels_cr1():
    """statsmodels 0.15.0: OLS of the correct indicator on a constant, cov_type="cluster".

    Its CR1 factor is G/(G − 1)·(N − 1)/(N − K); with K = 1 regressor the second factor is 1,
    so it equals ours (C/(C − 1)) exactly."""
    import statsmodels.api as sm

    rng = np.random.default_rng(7)
    codes, cells = _rows(rng, 25)
    correct = np.isin(cells, (0, 3)).astype(float)
    fit = sm.OLS(correct, np.ones((correct.size, 1))).fit(cov_type="cluster", cov_kwds={"groups": codes})
    ours = mc.cluster_robust_interval("accuracy", mc.cluster_cells(codes, cells, 25))
    assert ours.estimate == pytest.approx(fit.params[0], abs=1e-12)
    assert ours.std_error == pytest.approx(fit.bse[0], abs=1e-12)


def test_precision_standard_error_equals_statsmodels_up_to_the_cluster_count():
    """Precision is the mean of "TP" over the predicted positives: statsmodels clusters only the
    G clusters holding a predicted positive, we count all C (a cluster without one contributes
    0): the two CR1 errors differ by √((G/(G − 1))/(C/(C − 1)))."""
    import statsmodels.api as sm

    rng = np.random.default_rng(8)
    codes, cells = _rows(rng, 30, 1, 4)
    kept = np.isin(cells, (0, 2))
    fit = sm.OLS((cells[kept] == 0).astype(float), np.ones((kept.sum(), 1))).fit(
        cov_type="cluster", cov_kwds={"groups": codes[kept]}
    )
    c = 30
    g = np.unique(codes[kept]).size
    assert g < c  # the case where the factors differ
    ours = mc.cluster_robust_interval("precision", mc.cluster_cells(codes, cells, c))
    assert ours.estimate == pytest.approx(fit.params[0], abs=1e-12)
    assert ours.std_error * np.sqrt((g / (g - 1)) / (c / (c - 1))) == pytest.approx(fit.bse[0], rel=1e-10)


def test_singleton_clusters_give_the_unclustered_error():
    """Every row its own cluster: CR1 of accuracy is the sample standard deviation (ddof 1) / √N."""
    rng = np.random.default_rng(3)
    cells = rng.integers(0, 4, 40)
    counts = mc.cluster_cells(np.arange(40), cells, 40)
    correct = np.isin(cells, (0, 3)).astype(float)
    ci = mc.cluster_robust_interval("accuracy", counts)
    assert ci.std_error == pytest.approx(correct.std(ddof=1) / np.sqrt(40), abs=1e-14)


def test_one_cluster_gives_no_interval():
    ci = mc.cluster_robust_interval("accuracy", [[3, 1, 1, 3]])
    assert ci.estimate == 0.75 and np.isnan(ci.std_error) and np.isnan(ci[0]) and np.isnan(ci[1])


def test_undefined_metric_gives_nan_not_an_error():
    ci = mc.cluster_robust_interval("precision", [[0, 2, 0, 1], [0, 1, 0, 3]])
    assert np.isnan(ci.estimate) and np.isnan(ci[0])


def test_numeric_gradient_agrees_with_the_analytic_ones():
    totals = np.array([13.0, 4.0, 6.0, 21.0])
    for name in mc.ANALYTIC_GRADIENTS:
        analytic = mc.metric_gradient(name, totals)
        h = 1e-6
        f = get_metric(name)
        numeric = [(f.values(*(totals + h * e)) - f.values(*(totals - h * e))) / (2 * h) for e in np.eye(4)]
        np.testing.assert_allclose(analytic, numeric, atol=1e-8, err_msg=name)


# ----------------------------------------------------------------------------- bootstrap
def test_cluster_bootstrap_variance_matches_the_delta_method():
    """200 clusters, 4,000 resamples: the bootstrap variance of accuracy and F1 is CR0's within 10 %."""
    rng = np.random.default_rng(11)
    codes, cells = _rows(rng, 200)
    counts = mc.cluster_cells(codes, cells, 200)
    for metric in ("accuracy", "f1"):
        values = mc.cluster_bootstrap(metric, counts, 4000, np.random.default_rng(1))
        cr0 = float(mc.cluster_robust_variance(mc.influence(metric, counts), correction=False))
        assert values.var() == pytest.approx(cr0, rel=0.1)


def test_cluster_bootstrap_resamples_whole_clusters():
    """Clusters all right or all wrong: every resample's accuracy is a multiple of 1/N's cluster sizes."""
    counts = np.array([[2, 0, 0, 2], [0, 3, 3, 0]])  # sizes 4 and 6, accuracy 1 and 0
    values = mc.cluster_bootstrap("accuracy", counts, 200, np.random.default_rng(0))
    allowed = {1.0, 0.0, 4 / 10}
    assert {round(v, 12) for v in values} <= {round(a, 12) for a in allowed}


def test_cluster_bootstrap_of_several_classifiers_keeps_them_paired():
    counts = np.stack([np.array([[2, 0, 0, 2], [0, 3, 3, 0]])] * 2, axis=1)  # two identical classifiers
    values = mc.cluster_bootstrap("accuracy", counts, 50, np.random.default_rng(0))
    assert values.shape == (50, 2) and np.array_equal(values[:, 0], values[:, 1])


def test_cluster_bootstrap_refuses_before_allocating():
    cl.set_memory_limit("1M")
    try:
        with pytest.raises(cl.TooLargeError, match="n_resamples"):
            mc.cluster_bootstrap("accuracy", np.ones((10_000, 4)), 10_000, np.random.default_rng(0))
    finally:
        cl.set_memory_limit(None)


# ----------------------------------------------------------------------------- hostile ids
@pytest.mark.parametrize(
    "ids",
    [
        [1.0, float("nan"), 2.0],
        pd.array([1.0, None, 2.0], dtype="Float64"),
        np.array(["a", None, "b"], dtype=object),
    ],
    ids=["float-nan", "Float64-NA", "object-None"],
)
def test_missing_cluster_ids_are_refused_by_name(ids):
    with pytest.raises(cl.InvalidParameterError, match="cluster"):
        mc.cluster_codes(ids, 3)


def test_cluster_length_mismatch_is_refused():
    with pytest.raises(cl.InvalidParameterError, match="cluster must give one cluster id per row: 4 rows"):
        mc.cluster_codes([1, 2, 3], 4)


def test_ids_that_read_the_same_are_refused():
    with pytest.raises(cl.InvalidParameterError, match="cluster holds"):
        mc.cluster_codes(np.array([1, "1"], dtype=object), 2)


def test_hostile_names_are_plain_ids():
    names, codes = mc.cluster_codes(["<b>x</b>", "$x^$", "../etc", "<b>x</b>"], 4)
    assert sorted(names) == names and codes[0] == codes[3] and len(names) == 3


def test_weighted_patterns_equal_the_expanded_rows():
    """Rows given once with a count: the same contributions and variance as the rows repeated."""
    patterns = np.eye(4)[[0, 1, 2, 3, 0]]
    counts = np.array([7, 2, 3, 11, 4])
    expanded = np.repeat(patterns, counts, axis=0)
    for metric in ("f1", "mcc", "accuracy"):
        weighted = mc.cluster_robust_variance(mc.influence(metric, patterns, counts), weights=counts)
        assert float(weighted) == pytest.approx(float(mc.cluster_robust_variance(mc.influence(metric, expanded))))


@pytest.mark.parametrize(
    "ids",
    [np.array([5, 3, 5, 9]), np.array([5, 3, 5, 9], dtype=np.uint8), np.array([-2, 10**12, -2, 7])],
    ids=["int", "uint8", "wide"],
)
def test_integer_ids_are_coded_as_code_groups_codes_them(ids):
    from confusionlab.labels import code_groups

    names, codes = mc.cluster_codes(ids, 4)
    expected_names, expected_codes = code_groups(ids)
    assert names == expected_names and codes.tolist() == expected_codes.tolist()
    assert all(type(n) is int for n in names)
