"""The vectorised stratified bootstrap against resampling the rows one resample at a time."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
from sklearn.metrics import average_precision_score, roc_auc_score

import confusionlab as cl


def _data():
    rng = np.random.default_rng(12)
    y = np.r_[np.ones(70, dtype=int), np.zeros(130, dtype=int)]
    return y, np.round(rng.normal(size=200) + y, 1)


def _row_bootstrap(y, x, score, reps, seed):
    rng = np.random.default_rng(seed)
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    out = []
    for _ in range(reps):
        rows = np.r_[rng.choice(pos, pos.size), rng.choice(neg, neg.size)]
        out.append(score(y[rows], x[rows]))
    return np.array(out)


@pytest.mark.parametrize(
    ("make", "score"),
    [(cl.roc_curve, roc_auc_score), (cl.precision_recall_curve, average_precision_score)],
)
def test_the_bootstrap_distribution_is_the_row_bootstraps(make, score):
    from confusionlab.scores._bootstrap import bootstrap

    y, x = _data()
    curve = make(y, x)
    statistic = "auc" if make is cl.roc_curve else "average_precision"
    fast = bootstrap(curve._scores, statistic, 4000, 0)
    slow = _row_bootstrap(y, x, score, 1500, 1)
    assert fast.mean() == pytest.approx(slow.mean(), abs=3 * slow.std() / np.sqrt(1500))
    assert fast.std() == pytest.approx(slow.std(), rel=0.08)
    lo, hi = curve.interval(0.9, method="bootstrap", n_resamples=4000, random_state=0)
    assert (lo, hi) == pytest.approx(tuple(np.quantile(fast, [0.05, 0.95])), abs=1e-12)


def test_the_bootstrap_is_reproducible_and_the_next_test_set_is_wider():
    y, x = _data()
    curve = cl.roc_curve(y, x)
    a = curve.interval(method="bootstrap", n_resamples=500, random_state=3)
    assert a == curve.interval(method="bootstrap", n_resamples=500, random_state=np.random.default_rng(3))
    b = curve.interval(method="bootstrap", target="next_test_set", n_resamples=500, random_state=3)
    assert b[0] < a[0] and a[1] < b[1]


def test_a_huge_request_is_refused_before_allocating():
    y, x = _data()
    curve = cl.roc_curve(y, x)
    tracemalloc.start()
    with pytest.raises(cl.TooLargeError, match="n_resamples"):
        curve.interval(method="bootstrap", n_resamples=10**8)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 50 * 2**20


@pytest.mark.parametrize("bad", [0, -5, 2.5, "many", None])
def test_bad_resample_counts_are_refused_by_name(bad):
    y, x = _data()
    with pytest.raises(cl.InvalidParameterError, match="n_resamples"):
        cl.roc_curve(y, x).interval(method="bootstrap", n_resamples=bad)
