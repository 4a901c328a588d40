"""``roc_curve(..., cluster=)``: Obuchowski's (1997) clustered AUC variance.

References: the paper's formulas written out with loops over every positive–negative pair
(Obuchowski 1997, Biometrics 53:567–578, section 2), a cluster bootstrap (clusters resampled
with replacement, a Python loop), and DeLong's variance for one example per cluster.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import confusionlab as cl


def _psi(x, y):
    return Fraction(1) if x > y else Fraction(1, 2) if x == y else Fraction(0)


def _obuchowski_brute(y, s, cluster):
    """The paper's estimator in exact arithmetic, pair by pair."""
    ids = sorted(set(cluster))
    pos = [(c, x) for c, x, t in zip(cluster, s, y, strict=True) if t == 1]
    neg = [(c, x) for c, x, t in zip(cluster, s, y, strict=True) if t == 0]
    m, n, i = len(pos), len(neg), len(ids)
    v10 = {k: sum(_psi(x, yy) for _, yy in neg) / n for k, (_, x) in enumerate(pos)}
    v01 = {k: sum(_psi(x, yy) for _, x in pos) / m for k, (_, yy) in enumerate(neg)}
    auc = sum(v10.values()) / m
    v10_i = {c: sum(v10[k] for k, (cc, _) in enumerate(pos) if cc == c) for c in ids}
    v01_i = {c: sum(v01[k] for k, (cc, _) in enumerate(neg) if cc == c) for c in ids}
    m_i = {c: sum(1 for cc, _ in pos if cc == c) for c in ids}
    n_i = {c: sum(1 for cc, _ in neg if cc == c) for c in ids}
    s10 = Fraction(i, (i - 1) * m) * sum((v10_i[c] - m_i[c] * auc) ** 2 for c in ids)
    s01 = Fraction(i, (i - 1) * n) * sum((v01_i[c] - n_i[c] * auc) ** 2 for c in ids)
    s11 = Fraction(i, i - 1) * sum((v10_i[c] - m_i[c] * auc) * (v01_i[c] - n_i[c] * auc) for c in ids)
    return auc, s10 / m + s01 / n + 2 * s11 / (m * n)


def _clustered_scores(seed, n_clusters=12, rho=0.5):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 6, n_clusters)
    cluster = np.repeat(np.arange(n_clusters), sizes)
    y = rng.integers(0, 2, cluster.size)
    effect = np.repeat(rng.normal(0, np.sqrt(rho), n_clusters), sizes)
    score = np.round(y * 1.0 + effect + rng.normal(0, np.sqrt(1 - rho), cluster.size), 1)  # ties on purpose
    return y, score, cluster


@pytest.mark.parametrize("seed", range(4))
def test_obuchowski_equals_the_paper_pair_by_pair(seed):
    y, s, cluster = _clustered_scores(seed)
    auc, var = _obuchowski_brute(y.tolist(), [Fraction(str(v)) for v in s.tolist()], cluster.tolist())
    curve = cl.roc_curve(y, s, cluster=cluster)
    assert curve.value == pytest.approx(float(auc), abs=1e-12)
    assert curve._cluster.variance == pytest.approx(float(var), rel=1e-10)


def test_obuchowski_agrees_with_a_cluster_bootstrap():
    """60 clusters, 3,000 resamples (a loop): the bootstrap variance is Obuchowski's within 15 %."""
    y, s, cluster = _clustered_scores(5, n_clusters=60, rho=0.6)
    curve = cl.roc_curve(y, s, cluster=cluster)
    rng = np.random.default_rng(0)
    members = [np.flatnonzero(cluster == c) for c in range(60)]
    aucs = []
    for _ in range(3000):
        rows = np.concatenate([members[c] for c in rng.integers(0, 60, 60)])
        if 0 < y[rows].sum() < rows.size:
            aucs.append(cl.roc_curve(y[rows], s[rows]).value)
    assert np.var(aucs) == pytest.approx(curve._cluster.variance, rel=0.15)


def test_one_example_per_cluster_is_delong_up_to_the_factors():
    y, s, _ = _clustered_scores(6, n_clusters=40)
    curve = cl.roc_curve(y, s, cluster=np.arange(y.size))
    m, n, i = int(y.sum()), int((1 - y).sum()), y.size
    brute_delong = cl.roc_curve(y, s).variance  # S10/m + S01/n with ddof 1
    # Obuchowski with singletons: S10 = I/(I−1)·(m−1)/m·DeLong's S10 (and likewise S01), S11 = 0
    from confusionlab.scores._delong import placements

    scores = cl.roc_curve(y, s)._scores
    v10, v01 = placements(scores)
    expected = i / (i - 1) * (np.var(v10) / m + np.var(v01) / n)
    assert curve._cluster.variance == pytest.approx(expected, rel=1e-12)
    assert curve._cluster.variance == pytest.approx(brute_delong, rel=0.1)


def test_clustered_interval_is_labelled_and_wider_when_clusters_are_alike():
    y, s, cluster = _clustered_scores(7, n_clusters=40, rho=0.8)
    clustered = cl.roc_curve(y, s, cluster=cluster)
    naive = cl.roc_curve(y, s)
    assert clustered.interval_method.startswith("Obuchowski (1997)")
    lo, hi = clustered.interval()
    assert lo < clustered.value < hi
    assert clustered.design_effect == pytest.approx(clustered._cluster.variance / naive.variance)
    assert clustered.effective_size == pytest.approx(y.size / clustered.design_effect)
    assert naive.design_effect == 1.0
    assert clustered.interval(method="logit") == naive.interval(method="logit")
    with pytest.raises(cl.InvalidParameterError, match="obuchowski"):
        naive.interval(method="obuchowski")


def test_hostile_cluster_ids_are_refused_by_name():
    y, s, cluster = _clustered_scores(8)
    with pytest.raises(cl.InvalidParameterError, match=r"cluster has \d+ missing"):
        cl.roc_curve(y, s, cluster=np.where(cluster == 0, np.nan, cluster))
    with pytest.raises(cl.InvalidParameterError, match="cluster must give one cluster id per row"):
        cl.roc_curve(y, s, cluster=cluster[:-1])
    with pytest.raises(cl.InvalidParameterError, match="single cluster"):
        cl.roc_curve(y, s, cluster=np.zeros(y.size))
    with pytest.raises(cl.InvalidParameterError, match="multi_class must be omitted when cluster"):
        cl.roc_curve(y, s, cluster=cluster, multi_class="ovr")
    with pytest.raises(cl.InvalidParameterError, match=r"^cluster: cluster \d+ has rows in groups"):
        cl.roc_curve(y, s, cluster=cluster, groups=np.arange(y.size) % 2)


def test_grouped_clustered_curves_are_the_per_group_calls():
    """Each group's curve, interval and design effect are those of roc_curve on the group's rows
    alone with their clusters; the gap between groups is built from Obuchowski's variances."""
    y, s, cluster = _clustered_scores(9, n_clusters=30, rho=0.6)
    groups = np.where(cluster % 3 == 0, "x", "y")
    grouped = cl.roc_curve(y, s, groups=groups, cluster=cluster)
    level = grouped.member_confidence(0.95)
    variances = []
    for name in ("x", "y"):
        rows = groups == name
        alone = cl.roc_curve(y[rows], s[rows], cluster=cluster[rows])
        member = grouped[name]
        assert member.value == alone.value
        assert member._cluster == alone._cluster
        assert member.interval() == alone.interval()
        assert grouped.intervals()[name] == alone.interval(level)
        variances.append(alone._cluster.variance)
    assert grouped.overall._cluster == cl.roc_curve(y, s, cluster=cluster)._cluster
    # the gap's interval: d ± z·√(V_x + V_y) with Obuchowski's variances (one pair: z at 0.975)
    d = grouped["x"].value - grouped["y"].value
    half = 1.959963984540054 * np.sqrt(sum(variances))
    lo, hi = grouped.gap_intervals()[("x", "y")]
    assert (lo, hi) == pytest.approx((d - half, d + half), rel=1e-12)
    assert "Obuchowski" in grouped.summary()


def test_a_group_of_one_cluster_is_refused_naming_the_group():
    y = np.array([0, 1, 0, 1, 1, 0, 0, 1])
    s = np.array([0.1, 0.7, 0.4, 0.3, 0.9, 0.2, 0.5, 0.6])
    cluster = np.array([0, 0, 1, 1, 2, 2, 3, 3])
    groups = np.array(["a", "a", "b", "b", "b", "b", "b", "b"])
    with pytest.raises(cl.InvalidParameterError, match=r"single cluster \(0\) in group 'a'"):
        cl.roc_curve(y, s, groups=groups, cluster=cluster)
