"""``evaluate(..., cluster=)``: the clustered intervals, ICC, design effect and effective size.

References: statsmodels 0.15.0's cluster-robust (CR1) OLS standard error of the correct
indicator on a constant (accuracy), a loop over clusters with central differences (F1, MCC),
brute-force per-cluster counting in Python, and the independent-rows formulas for singletons.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import confusionlab as cl

from .test_cluster_models import _loop_variance


def _data(seed=0, n_clusters=30):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 8, n_clusters)
    cluster = np.repeat(np.arange(n_clusters), sizes)
    skill = np.repeat(rng.uniform(0.4, 0.95, n_clusters), sizes)
    y = rng.integers(0, 2, cluster.size)
    right = rng.random(cluster.size) < skill
    pred = np.where(right, y, 1 - y)
    return y, pred, cluster


def _cells(y, pred, cluster):
    names = sorted(set(cluster.tolist()))
    out = np.zeros((len(names), 4))
    for t, p, c in zip(y.tolist(), pred.tolist(), cluster.tolist(), strict=True):
        out[names.index(c), {(1, 1): 0, (1, 0): 1, (0, 1): 2, (0, 0): 3}[(t, p)]] += 1
    return out


def test_accuracy_interval_is_statsmodels_cr1_with_t():
    import statsmodels.api as sm

    y, pred, cluster = _data()
    ev = cl.evaluate(y, pred, cluster=cluster, metrics=["accuracy"])
    correct = (y == pred).astype(float)
    fit = sm.OLS(correct, np.ones((y.size, 1))).fit(cov_type="cluster", cov_kwds={"groups": cluster})
    q = stats.t.ppf(0.975, 29)
    row = ev.to_frame().iloc[0]
    assert row["std_error"] == pytest.approx(fit.bse[0], abs=1e-12)
    lo, hi = ev.interval()["accuracy"]
    assert (lo, hi) == pytest.approx((fit.params[0] - q * fit.bse[0], min(1.0, fit.params[0] + q * fit.bse[0])))
    assert row["interval_method"] == ev.interval_method == "cluster-robust delta method (t, C - 1 df)"


@pytest.mark.parametrize("metric", ["f1", "mcc", "precision", "balanced_accuracy"])
def test_ratio_metric_error_is_the_loop_over_clusters(metric):
    y, pred, cluster = _data(1)
    ev = cl.evaluate(y, pred, cluster=cluster, metrics=[metric])
    assert ev.to_frame().iloc[0]["std_error"] ** 2 == pytest.approx(
        _loop_variance(metric, _cells(y, pred, cluster)), rel=1e-6
    )


def test_icc_design_effect_and_effective_size_are_reported():
    y, pred, cluster = _data(2)
    ev = cl.evaluate(y, pred, cluster=cluster)
    correct = (y == pred).astype(int)
    ids = np.unique(cluster)
    s = np.array([correct[cluster == c].sum() for c in ids])
    n = np.array([(cluster == c).sum() for c in ids])
    rho = cl.models.cluster.icc(s, n)
    assert ev.icc == pytest.approx(rho)
    assert ev.design_effect == pytest.approx(1 + ((n**2).sum() / n.sum() - 1) * rho)
    assert ev.effective_size == pytest.approx(n.sum() / ev.design_effect)
    frame = ev.to_frame()
    assert set(frame["icc"]) == {ev.icc} and (frame["n_clusters"] == ids.size).all()


def test_without_cluster_the_rows_are_said_independent():
    y, pred, _ = _data(2)
    ev = cl.evaluate(y, pred)
    assert ev.interval_method == "posterior (independent rows)"
    assert np.isnan(ev.icc) and ev.design_effect == 1.0 and ev.effective_size == y.size
    assert "std_error" not in ev.to_frame()


def test_every_row_its_own_cluster_is_the_independent_wald_interval():
    y, pred, _ = _data(3)
    ev = cl.evaluate(y, pred, cluster=np.arange(y.size), metrics=["accuracy"])
    correct = (y == pred).astype(float)
    se = correct.std(ddof=1) / np.sqrt(y.size)
    q = stats.t.ppf(0.975, y.size - 1)
    assert ev.interval()["accuracy"] == pytest.approx((correct.mean() - q * se, correct.mean() + q * se))
    assert np.isnan(ev.icc) and ev.design_effect == 1.0 and ev.effective_size == y.size


def test_groups_get_their_own_clustered_intervals():
    y, pred, cluster = _data(4)
    groups = np.where(cluster % 3 == 0, "a", "b")
    ev = cl.evaluate(y, pred, cluster=cluster, groups=groups, metrics=["f1"])
    for g in ("a", "b"):
        keep = groups == g
        alone = cl.evaluate(y[keep], pred[keep], cluster=cluster[keep], metrics=["f1"])
        assert ev.interval_of("f1", group=g) == pytest.approx(alone.interval()["f1"], abs=1e-12)
    assert ev.interval_of("f1") == pytest.approx(cl.evaluate(y, pred, cluster=cluster, metrics=["f1"]).interval()["f1"])


def test_data_frame_path_equals_the_arrays():
    y, pred, cluster = _data(5)
    frame = pd.DataFrame({"y": y, "p": pred, "pid": [f"patient {c}" for c in cluster]})
    by_data = cl.evaluate("y", "p", data=frame, cluster="pid")
    by_arrays = cl.evaluate(y, pred, cluster=frame["pid"].to_numpy())
    for metric, interval in by_arrays.interval().items():
        assert by_data.interval()[metric] == pytest.approx(interval, abs=1e-12)
    assert by_data.icc == pytest.approx(by_arrays.icc) and by_data.effective_size == pytest.approx(
        by_arrays.effective_size
    )


def test_clustering_widens_when_clusters_are_alike():
    """All rows of a cluster right or all wrong (ICC 1): the clustered interval is far wider."""
    cluster = np.repeat(np.arange(20), 10)
    y = np.tile([0, 1], 100)
    pred = np.where(np.repeat(np.arange(20) % 4 == 0, 10), 1 - y, y)
    clustered = cl.evaluate(y, pred, cluster=cluster, metrics=["accuracy"])
    naive = cl.evaluate(y, pred, metrics=["accuracy"])
    assert clustered.icc == pytest.approx(1.0) and clustered.design_effect == pytest.approx(10.0)
    width = np.diff(clustered.interval()["accuracy"])[0]
    assert width > 2.5 * np.diff(naive.interval()["accuracy"])[0]


# ----------------------------------------------------------------------------- hostile
@pytest.mark.parametrize(
    "cluster",
    [
        [1.0, np.nan, 2.0, 2.0],
        pd.array([1.0, None, 2.0, 2.0], dtype="Float64"),
        np.array([1, None, 2, 2], dtype=object),
    ],
    ids=["nan", "Float64", "object"],
)
def test_missing_cluster_ids_are_refused(cluster):
    with pytest.raises(cl.InvalidParameterError, match="cluster has 1 missing"):
        cl.evaluate([1, 0, 1, 0], [1, 0, 0, 0], cluster=cluster)


def test_cluster_length_mismatch_is_refused():
    with pytest.raises(cl.InvalidParameterError, match="cluster must give one cluster id per row"):
        cl.evaluate([1, 0, 1, 0], [1, 0, 0, 0], cluster=[1, 2, 3])


def test_refits_and_macro_averages_are_refused_by_name():
    with pytest.raises(cl.InvalidParameterError, match="cluster= takes one prediction vector"):
        cl.evaluate([1, 0, 1, 0], refits=[[1, 0, 0, 0], [1, 1, 0, 0]], cluster=[1, 1, 2, 2])
    with pytest.raises(cl.InvalidParameterError, match="macro_f1"):
        cl.evaluate([0, 1, 1, 0], [0, 1, 0, 0], metrics=["macro_f1"], cluster=[1, 1, 2, 2])
    with pytest.raises(cl.InvalidParameterError, match="positive=<label>"):
        cl.evaluate([0, 1, 2, 0], [0, 1, 1, 0], cluster=[1, 1, 2, 2])


def test_one_cluster_gives_nan_intervals_not_a_crash():
    ev = cl.evaluate([1, 0, 1, 0], [1, 0, 0, 0], cluster=["x"] * 4, metrics=["accuracy"])
    lo, hi = ev.interval()["accuracy"]
    assert np.isnan(lo) and np.isnan(hi) and np.isnan(ev.icc)
    assert "nan" in ev.summary()


def test_hostile_cluster_names_are_only_ids():
    ev = cl.evaluate([1, 0, 1, 0, 1, 0], [1, 0, 0, 0, 1, 1], cluster=["<b>", "<b>", "$x^$", "$x^$", "../p", "../p"])
    assert ev.to_frame()["n_clusters"].eq(3).all()


def test_data_frame_missing_cluster_is_refused_by_name():
    frame = pd.DataFrame({"y": [1, 0, 1, 0], "p": [1, 0, 0, 0], "pid": [1.0, None, 2.0, 2.0]})
    with pytest.raises(cl.InvalidParameterError, match="cluster"):
        cl.evaluate("y", "p", data=frame, cluster="pid")


def test_grouped_data_frame_path_equals_the_arrays():
    y, pred, cluster = _data(9)
    groups = np.where(cluster % 2 == 0, "even", "odd")
    frame = pd.DataFrame({"y": y, "p": pred, "g": groups, "c": cluster})
    by_data = cl.evaluate("y", "p", data=frame, groups="g", cluster="c", metrics=["f1", "mcc"])
    by_arrays = cl.evaluate(y, pred, groups=groups, cluster=cluster, metrics=["f1", "mcc"])
    for g in ("even", "odd", None):
        for metric in ("f1", "mcc"):
            assert by_data.interval_of(metric, group=g) == pytest.approx(by_arrays.interval_of(metric, group=g))


def test_per_cluster_tables_beyond_the_memory_limit_are_refused_first():
    y, pred, cluster = _data(10, n_clusters=200)
    cl.set_memory_limit("64K")
    try:
        with pytest.raises(cl.TooLargeError, match="cluster= with 200 clusters"):
            cl.evaluate(y, pred, cluster=cluster, groups=cluster % 50)
    finally:
        cl.set_memory_limit(None)
