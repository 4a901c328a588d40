"""score_bins=: quantile bins computed by the engine; the AUC exact for the binned scores and within
``max_auc_error`` (half the share of positive–negative pairs in one bin) of the unbinned AUC."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import mannwhitneyu

import confusionlab as cl

from .conftest import in_engine, make_frame


def continuous_frame(n: int = 3000, seed: int = 4):
    rng = np.random.default_rng(seed)
    df = make_frame(n=n, seed=seed)
    df["s"] = rng.normal(size=n) + 0.9 * df["y"].to_numpy()  # no ties: every score distinct
    df["t"] = df["s"] + rng.normal(size=n)
    return df


DF = continuous_frame()
Y, S, T = DF["y"].to_numpy(), DF["s"].to_numpy(), DF["t"].to_numpy()


def binned(x: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Each score replaced by its bin's lower edge (bin j: from edges[j] to edges[j + 1])."""
    return edges[np.searchsorted(edges[1:], x, side="right")]


def unbinned_auc(y: np.ndarray, s: np.ndarray) -> float:
    pos, neg = s[y == 1], s[y == 0]
    return float(mannwhitneyu(pos, neg).statistic) / (pos.size * neg.size)


@pytest.mark.parametrize("engine", ["pandas", "duckdb", "dask", "spark"])
def test_binned_auc_within_the_stated_bound(engine, request):
    data = in_engine(DF[["y", "s"]], engine, request)
    c = cl.roc_curve(data=data, y_true="y", y_score="s", score_bins=40)
    edges = c.score_edges
    assert c.score_bins == 40 and 30 <= edges.size <= 40 and np.all(np.diff(edges) > 0)
    b = binned(S, edges)
    # exact for the binned scores: the array path on them
    ref = cl.roc_curve(Y, b)
    np.testing.assert_array_equal(c.tpr, ref.tpr)
    np.testing.assert_array_equal(c.fpr, ref.fpr)
    assert math.isclose(c.value, ref.value, rel_tol=1e-12)
    # the bound: half the share of positive-negative pairs that share a bin, counted by hand
    pairs = sum(int(np.sum((b == e) & (Y == 1))) * int(np.sum((b == e) & (Y == 0))) for e in edges)
    p, n = int(Y.sum()), int((1 - Y).sum())
    assert math.isclose(c.max_auc_error, pairs / (2 * p * n), rel_tol=1e-12)
    assert abs(c.value - unbinned_auc(Y, S)) <= c.max_auc_error
    # each bin holds about 1/40 of the rows (approximate quantiles on Spark and Dask)
    counts = np.bincount(np.searchsorted(edges[1:], S, side="right"))
    assert counts.max() <= 3 * len(S) / 40


def test_binned_comparison_and_pr_curve():
    c = cl.compare_auc(data=DF, y_true="y", score_a="s", score_b="t", score_bins=50)
    for name, column in (("A", S), ("B", T)):
        assert abs(c.aucs[name] - unbinned_auc(Y, column)) <= c.max_auc_error[name]
    pr = cl.precision_recall_curve(data=DF, y_true="y", y_score="s", score_bins=50)
    ref = cl.precision_recall_curve(Y, binned(S, pr.score_edges))
    assert math.isclose(pr.value, ref.value, rel_tol=1e-12)
    exact = cl.roc_curve(data=DF, y_true="y", y_score="s")
    assert exact.max_auc_error == 0.0 and math.isclose(exact.value, unbinned_auc(Y, S), rel_tol=1e-12)
