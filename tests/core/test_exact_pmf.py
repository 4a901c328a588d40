"""metric_distribution against brute-force enumeration with exact arithmetic."""

from __future__ import annotations

import numpy as np
import pytest
from brute import as_float, slice_distribution
from scipy import stats

import confusionlab as cl
from confusionlab import grouping

ALL_METRICS = [
    "accuracy",
    "balanced_accuracy",
    "informedness",
    "markedness",
    "f1",
    "f2",
    "jaccard",
    "precision",
    "npv",
    "recall",
    "tnr",
    "fpr",
    "fnr",
    "mcc",
    "cohen_kappa",
    "g_mean",
    "fowlkes_mallows",
    "lr_plus",
    "lr_minus",
    "diagnostic_odds_ratio",
    "prevalence_threshold",
]


def assert_matches_brute(d: cl.MetricDistribution, metric: str, cm: cl.ConfusionMatrix, model: str) -> None:
    groups, (undef_mass, undef_count) = slice_distribution(metric, *cm.as_tuple(), model)
    keys = sorted(groups, key=as_float)
    # undefined points take the value 0 by default: merge them like the paper does
    expected = {}
    for key in keys:
        expected[as_float(key)] = groups[key]
    if undef_count:
        zero = [k for k in keys if as_float(k) == 0.0]
        if zero:
            mass, count = expected[0.0]
            expected[0.0] = (mass + undef_mass, count + undef_count)
        else:
            expected[0.0] = (undef_mass, undef_count)
    exp_values = np.array(sorted(expected))
    assert len(d) == len(exp_values), f"{metric}: {len(d)} distinct values, brute force {len(exp_values)}"
    np.testing.assert_allclose(d.values, exp_values, rtol=1e-12, atol=1e-15)
    exp_mass = np.array([float(expected[v][0]) for v in exp_values])
    exp_count = np.array([expected[v][1] for v in exp_values])
    np.testing.assert_array_equal(d.multiplicities, exp_count)
    np.testing.assert_allclose(d.probabilities, exp_mass, rtol=1e-9, atol=1e-15)
    assert d.undefined_mass == pytest.approx(float(undef_mass), abs=1e-15)
    assert d.undefined_points == undef_count


@pytest.mark.parametrize("metric", ["accuracy", "balanced_accuracy", "f1", "mcc"])
@pytest.mark.parametrize("n", [40, 41])
@pytest.mark.parametrize("model", ["binomial", "beta-binomial"])
def test_paper_slices_match_brute_force(metric: str, n: int, model: str) -> None:
    cm = cl.ConfusionMatrix(tp=16, fn=4, fp=n - 32, tn=32)
    d = cl.metric_distribution(cm, metric, model, tolerance=0)
    assert_matches_brute(d, metric, cm, model)


@pytest.mark.parametrize("metric", ALL_METRICS)
@pytest.mark.parametrize("counts", [(3, 2, 1, 4), (5, 0, 2, 6), (0, 4, 3, 3), (6, 6, 6, 6), (7, 3, 9, 1)])
def test_every_metric_matches_brute_force(metric: str, counts: tuple[int, int, int, int]) -> None:
    cm = cl.ConfusionMatrix(**dict(zip(("tp", "fn", "fp", "tn"), counts, strict=True)))
    d = cl.metric_distribution(cm, metric, "beta-binomial", tolerance=0)
    assert_matches_brute(d, metric, cm, "beta-binomial")


@pytest.mark.parametrize("metric", ["f1", "mcc", "markedness", "cohen_kappa", "fowlkes_mallows", "lr_plus"])
@pytest.mark.parametrize("path", ["checked", "gcd"])
def test_every_grouping_path_is_exact(monkeypatch: pytest.MonkeyPatch, metric: str, path: str) -> None:
    """Force the neighbour-check and gcd paths (normally used only at large sizes)."""
    cm = cl.ConfusionMatrix(tp=16, fn=4, fp=9, tn=32)
    if path == "checked":
        monkeypatch.setattr(grouping, "injective", lambda bound: False)
    else:
        monkeypatch.setattr(grouping, "EXACT_FLOAT", 2.0)
    d = cl.metric_distribution(cm, metric, "beta-binomial", tolerance=0)
    assert d.strategy == {"checked": "float+check", "gcd": "gcd"}[path]
    assert_matches_brute(d, metric, cm, "beta-binomial")


def test_collisions_of_identical_doubles_are_split(monkeypatch: pytest.MonkeyPatch) -> None:
    """Distinct exact values that share one double must not be merged."""
    from confusionlab.metrics import ExactForm

    # 1/3 and 6004799503160661/18014398509481984 are distinct but round to the same double
    num = np.array([1, 6004799503160661, 2, 1], dtype=np.int64)
    den = np.array([3, 18014398509481984, 6, 3], dtype=np.int64)
    assert 1 / 3 == 6004799503160661 / 18014398509481984
    form = ExactForm(num, den)
    g = grouping.group_exact(form, np.array([0.1, 0.2, 0.3, 0.4]))
    assert g.strategy == "gcd"
    np.testing.assert_array_equal(g.counts, [1, 3])
    np.testing.assert_allclose(g.masses, [0.2, 0.8])


def test_collisions_below_2_53_are_split_by_the_neighbour_check() -> None:
    from confusionlab.metrics import ExactForm

    # 7/3 and 9007199254740989/3860228252031852 differ but share one double
    big_num, big_den = 9007199254740989, 3860228252031852
    assert 7 / 3 == big_num / big_den
    num = np.array([7, big_num, 14, 7], dtype=np.int64)
    den = np.array([3, big_den, 6, 3], dtype=np.int64)
    g = grouping.group_exact(ExactForm(num, den), np.array([0.1, 0.2, 0.3, 0.4]))
    assert g.strategy == "float+check"
    np.testing.assert_array_equal(g.counts, [3, 1])
    np.testing.assert_allclose(g.masses, [0.8, 0.2])


def test_tpr_distribution_is_the_scipy_marginal() -> None:
    cm = cl.ConfusionMatrix(tp=16, fn=4, fp=8, tn=32)
    d = cl.metric_distribution(cm, "recall", "beta-binomial", tolerance=0)
    k = np.arange(21)
    np.testing.assert_allclose(d.values, k / 20)
    np.testing.assert_allclose(d.probabilities, stats.betabinom.pmf(k, 20, 17, 5), rtol=1e-12)
    np.testing.assert_array_equal(d.multiplicities, np.full(21, 41))
    d = cl.metric_distribution(cm, "tnr", "binomial", tolerance=0)
    k = np.arange(41)
    np.testing.assert_allclose(d.probabilities, stats.binom.pmf(k, 40, 0.8), rtol=1e-10, atol=1e-300)


def test_future_size_and_jeffreys_prior_use_the_right_marginals() -> None:
    cm = cl.ConfusionMatrix(tp=16, fn=4, fp=8, tn=32)
    d = cl.metric_distribution(cm, "recall", prior="jeffreys", future_size=(80, 160), tolerance=0)
    k = np.arange(81)
    np.testing.assert_allclose(d.probabilities, stats.betabinom.pmf(k, 80, 16.5, 4.5), rtol=1e-12)
    d = cl.metric_distribution(cm, "tnr", "binomial", future_size=(80, 160), tolerance=0)
    np.testing.assert_allclose(d.probabilities, stats.binom.pmf(np.arange(161), 160, 0.8), rtol=1e-9, atol=1e-300)


@pytest.mark.parametrize("tolerance", [0.0, 1e-12, 1e-6, 1e-3])
@pytest.mark.parametrize("metric", ["accuracy", "mcc", "f1", "g_mean"])
def test_pmf_sums_to_one_minus_pruned_mass(tolerance: float, metric: str) -> None:
    cm = cl.ConfusionMatrix(tp=160, fn=40, fp=80, tn=320)
    d = cl.metric_distribution(cm, metric, tolerance=tolerance)
    assert d.probabilities.sum() == pytest.approx(1 - d.pruned_mass, abs=1e-12)
    assert d.pruned_mass <= 2 * tolerance
    if tolerance == 0:
        assert d.pruned_mass == 0
        assert d.lattice_points == 201 * 401


def test_undefined_exclude_reports_and_removes_the_mass() -> None:
    cm = cl.ConfusionMatrix(tp=1, fn=1, fp=1, tn=1)
    paper = cl.metric_distribution(cm, "mcc", tolerance=0)
    excl = cl.metric_distribution(cm, "mcc", tolerance=0, undefined="exclude")
    assert paper.undefined_mass == excl.undefined_mass > 0
    assert excl.probabilities.sum() == pytest.approx(1 - excl.undefined_mass)
    assert paper.probabilities.sum() == pytest.approx(1.0)
    assert excl.multiplicities.sum() == paper.multiplicities.sum() - paper.undefined_points


@pytest.mark.parametrize("counts", [(7, 3, 20, 50), (50, 20, 3, 7), (8, 2, 0, 70), (0, 70, 9, 1)])
@pytest.mark.parametrize("model", ["binomial", "beta-binomial"])
def test_lattices_with_a_few_left_out_points_match_brute_force(counts, model, monkeypatch) -> None:
    """Wide slices (n ≥ 63·…) where the few 0/0 and x/0 points are left out by sorting them
    first (grouping._group_excluding) instead of copying the lattice: every metric vs brute force."""
    used = []
    original = grouping._group_excluding

    def spy(*args, **kwargs):
        result = original(*args, **kwargs)
        used.append(result is not None)
        return result

    monkeypatch.setattr(grouping, "_group_excluding", spy)
    cm = cl.ConfusionMatrix(**dict(zip(("tp", "fn", "fp", "tn"), counts, strict=True)))
    for metric in ALL_METRICS:
        if model == "binomial" and 0 in (cm.p, cm.n):
            continue
        assert_matches_brute(cl.metric_distribution(cm, metric, model, tolerance=0), metric, cm, model)
    assert any(used), "the left-out path was never taken"
