"""``rank_models(..., cluster=)``: each classifier's clustered interval, and its pairs' clustered comparisons.

References: statsmodels 0.15.0's CR1 error of each classifier's accuracy (OLS of its correct
indicator on a constant, clustered), Student's t with C − 1 df from scipy, and
``compare_paired(..., cluster=)`` for every pair.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import confusionlab as cl


def _three(seed=0, n_clusters=30):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 9, n_clusters)
    cluster = np.repeat(np.arange(n_clusters), sizes)
    y = rng.integers(0, 2, cluster.size)
    hard = np.repeat(rng.uniform(0.5, 0.95, n_clusters), sizes)
    preds = {k: np.where(rng.random(cluster.size) < hard - d, y, 1 - y) for k, d in (("a", 0), ("b", 0.05), ("c", 0.1))}
    return y, preds, cluster


def test_each_accuracy_interval_is_statsmodels_cr1_with_t():
    import statsmodels.api as sm

    y, preds, cluster = _three()
    r = cl.rank_models(y, preds, "accuracy", cluster=cluster, n_draws=2000)
    q = stats.t.ppf(0.975, 29)
    frame = r.to_frame()
    for name, pred in preds.items():
        correct = (pred == y).astype(float)
        fit = sm.OLS(correct, np.ones((y.size, 1))).fit(cov_type="cluster", cov_kwds={"groups": cluster})
        assert frame.loc[name, "std_error"] == pytest.approx(fit.bse[0], abs=1e-12)
        assert r.metric_intervals()[name] == pytest.approx(
            (fit.params[0] - q * fit.bse[0], fit.params[0] + q * fit.bse[0])
        )


def test_pairs_are_compare_paired_with_cluster():
    y, preds, cluster = _three(1)
    r = cl.rank_models(y, preds, "mcc", cluster=cluster, n_draws=2000)
    for a, b in (("a", "b"), ("c", "a")):
        direct = cl.compare_paired(y, preds[a], preds[b], "mcc", cluster=cluster)
        via = r.compare(a, b)
        assert via.interval() == pytest.approx(direct.interval(), abs=1e-12)
        assert via.p_value() == pytest.approx(direct.p_value(), abs=1e-12)
        assert via.design_effect == pytest.approx(direct.design_effect, abs=1e-12)


def test_icc_and_design_effect_per_classifier():
    y, preds, cluster = _three(2)
    r = cl.rank_models(y, preds, "accuracy", cluster=cluster, n_draws=2000)
    for name, pred in preds.items():
        alone = cl.evaluate(y, pred, cluster=cluster, metrics=["accuracy"])
        assert r.icc[name] == pytest.approx(alone.icc, abs=1e-12)
        correct = (pred == y).astype(float)
        naive = correct.var(ddof=1) / y.size
        se = alone.to_frame().iloc[0]["std_error"]
        assert r.design_effect[name] == pytest.approx(se**2 / naive, rel=1e-10)
        assert r.effective_size[name] == pytest.approx(y.size / r.design_effect[name])


def test_data_frame_path_equals_the_arrays():
    y, preds, cluster = _three(3)
    frame = pd.DataFrame({"y": y, "pid": cluster, **preds})
    by_data = cl.rank_models("y", ["a", "b", "c"], "f1", data=frame, cluster="pid", n_draws=2000)
    by_arrays = cl.rank_models(y, preds, "f1", cluster=cluster, n_draws=2000)
    for name in preds:
        assert by_data.metric_intervals()[name] == pytest.approx(by_arrays.metric_intervals()[name], abs=1e-12)


def test_without_cluster_the_rows_are_said_independent_and_refused_here():
    y, preds, cluster = _three(4)
    r = cl.rank_models(y, preds, "f1", n_draws=2000)
    assert r.interval_method == "posterior (independent rows)" and "std_error" not in r.to_frame()
    with pytest.raises(cl.InvalidParameterError, match="cluster="):
        r.metric_intervals()
    with pytest.raises(cl.InvalidParameterError, match="target='true_value'"):
        cl.rank_models(y, preds, "f1", cluster=cluster, target="next_test_set")
    with pytest.raises(cl.InvalidParameterError, match="cluster must give one cluster id per row"):
        cl.rank_models(y, preds, "f1", cluster=cluster[:-2], n_draws=2000)
