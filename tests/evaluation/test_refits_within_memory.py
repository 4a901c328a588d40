"""Many refits of a large test set in groups: every (group, metric) row of ``to_frame`` within the
library's memory limit (it held every group's mixture at once: a MemoryError at 3.2 GB for 50 refits
of 10⁶ rows in 20 groups), the same numbers as with room to spare."""

from __future__ import annotations

import numpy as np
import pytest
from _evaluate_worker import EvaluateWorker, refit_data

import confusionlab as cl

LIMIT = 512 * 2**20  # the child's library limit (CONFUSIONLAB_MEMORY_LIMIT)


@pytest.fixture(scope="module")
def worker():
    w = EvaluateWorker()
    yield w
    w.close()


def test_many_refits_in_groups_of_the_next_test_set_stay_within_the_memory_limit(worker):
    """The next test set's question (the true value's: the next test)."""
    n, refits, groups = 200_000, 50, 20
    reply = worker.call("refit_frame", trace=True, n=n, refits=refits, groups=groups, target="next_test_set")
    assert reply["kind"] == "ok", reply
    assert reply["peak_bytes"] <= LIMIT, f"peak {reply['peak_bytes'] / 2**20:.0f} MiB"
    frame = reply["frame"]
    assert len(frame) == (groups + 1) * 4
    # the value: each refit's metric from its own counts (numpy), averaged over the refits
    y, runs, g = refit_data(n, refits, groups)
    for group in (0, 7, 19):
        keep = g == group
        yt, yp = y[keep].astype(bool), runs[:, keep].astype(bool)
        tp = (yp & yt).sum(axis=1)
        fp = (yp & ~yt).sum(axis=1)
        fn = (~yp & yt).sum(axis=1)
        f1 = np.mean(2 * tp / (2 * tp + fp + fn))
        row = frame[(frame["group"] == group) & (frame["metric"] == "f1")].iloc[0]
        assert row["value"] == pytest.approx(f1, abs=1e-12)
    # the intervals: those of the same evaluation with room to keep every mixture (this process)
    ev = cl.evaluate(y, refits=runs, groups=g, progress=False, target="next_test_set")
    for group in (0, 19):
        for metric in ("f1", "balanced_accuracy"):
            row = frame[(frame["group"] == group) & (frame["metric"] == metric)].iloc[0]
            d = ev.distribution(metric, group)
            assert row["method"] == d.method
            assert (row["lower"], row["upper"]) == pytest.approx(d.interval(0.95), abs=1e-12)


@pytest.mark.slow
def test_many_refits_in_groups_of_the_true_value_stay_within_the_memory_limit(worker):
    """Issue 35 item 8 under the default question: 50 refits' true-value quadratures (160,000 atoms
    each, 30 ms each, kept) in 20 groups ran past 11 GB at 200,000 rows; each refit's posterior now
    gives n_draws / 50 draws, pooled (Monte Carlo, labelled). The intervals against an independent
    simulation of the refits' true F1: Jeffreys Beta posteriors of each refit's TPR and TNR, the
    prevalence fixed (numpy only)."""
    n, refits, groups = 200_000, 50, 20
    reply = worker.call("refit_frame", trace=True, n=n, refits=refits, groups=groups, target="true_value")
    assert reply["kind"] == "ok", reply
    assert reply["peak_bytes"] <= LIMIT, f"peak {reply['peak_bytes'] / 2**20:.0f} MiB"
    frame = reply["frame"]
    y, runs, g = refit_data(n, refits, groups)
    rng = np.random.default_rng(5)
    for group in (0, 19):
        keep = g == group
        yt, yp = y[keep].astype(bool), runs[:, keep].astype(bool)
        p, m = int(yt.sum()), int((~yt).sum())
        draws = []
        for tp, tn in zip((yp & yt).sum(axis=1), (~yp & ~yt).sum(axis=1), strict=True):
            tpr = rng.beta(tp + 0.5, p - tp + 0.5, 4000)
            fpr = 1 - rng.beta(tn + 0.5, m - tn + 0.5, 4000)
            draws.append(2 * p * tpr / (2 * p * tpr + m * fpr + p * (1 - tpr)))
        row = frame[(frame["group"] == group) & (frame["metric"] == "f1")].iloc[0]
        assert row["method"] == "monte-carlo"
        assert (row["lower"], row["upper"]) == pytest.approx(
            np.quantile(np.concatenate(draws), [0.025, 0.975]), abs=2e-3
        )
