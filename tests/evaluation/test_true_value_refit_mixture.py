"""The refits' mixture of true-value posteriors: priced before it is made, the oldest kept
distributions forgotten for it, refused (TooLargeError) before anything is made when it cannot
fit, and the same atoms as pooling the refits' posteriors with numpy's unique and bincount."""

from __future__ import annotations

import numpy as np
import pytest

import confusionlab as cl
import confusionlab.distribution.build
from confusionlab.distribution import TRUE_VALUE_NODES, mixture, pooled_bytes


@pytest.fixture
def memory():
    yield cl.set_memory_limit
    cl.set_memory_limit(None)


def _data(n: int = 600, refits: int = 4) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, n)
    runs = np.where(rng.random((refits, n)) < 0.8, y, 1 - y)
    return y, runs, np.where(np.arange(n) % 2 == 0, "a", "b")


def _reference(dists: list[cl.MetricDistribution]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The pooled atoms of equal-weight components: np.unique of the values, bincount of the masses."""
    values = np.concatenate([d.values for d in dists])
    uniq, inverse = np.unique(values, return_inverse=True)
    probs = np.bincount(inverse, weights=np.concatenate([d.probabilities for d in dists]) / len(dists))
    mult = np.rint(np.bincount(inverse, weights=np.concatenate([d.multiplicities for d in dists])))
    return uniq, probs, mult.astype(np.int64)


@pytest.mark.parametrize("metric", ["f1", "recall", "balanced_accuracy"])
def test_the_mixture_is_the_refits_posteriors_pooled(metric):
    y, runs, g = _data()
    ev = cl.evaluate(y, refits=np.vstack([runs, runs[:1]]), groups=g, progress=False)
    assert ev.target == "true_value"
    for group in ("a", None):
        cms = [ev.confusion_matrix(group, run=r) for r in range(ev.n_refits)]
        dists = [cl.metric_distribution(cm, metric, target="true_value") for cm in cms]
        values, probs, mult = _reference(dists)
        d = ev.distribution(metric, group)
        assert np.array_equal(d.values, values)
        assert np.array_equal(d.probabilities, probs)
        assert np.array_equal(d.multiplicities, mult)
        assert ev.refit_means(metric, group).tolist() == [x.mean() for x in dists]
        assert d.method == mixture(dists).method


def test_the_mixture_forgets_the_oldest_kept_distributions_to_fit(memory):
    y, runs, g = _data()
    ev = cl.evaluate(y, refits=runs, groups=g, progress=False)
    price = pooled_bytes(ev.n_refits * TRUE_VALUE_NODES**2)
    memory(int(price * 1.5))
    before = ev.to_frame()
    assert ev._kept.total <= cl.memory_limit()  # 12 mixtures of 25.6 MB computed, those kept within 46 MB
    memory(None)
    again = cl.evaluate(y, refits=runs, groups=g, progress=False).to_frame()
    assert before[["lower", "upper"]].equals(again[["lower", "upper"]])


def test_a_mixture_that_cannot_fit_is_refused_before_it_is_made(memory, monkeypatch):
    y, runs, g = _data()
    ev = cl.evaluate(y, refits=runs, groups=g, progress=False)
    memory(int(pooled_bytes(ev.n_refits * TRUE_VALUE_NODES**2)) - 1)
    made = []
    monkeypatch.setattr(cl.distribution.build, "_true_value_distribution", lambda *a: made.append(a))
    with pytest.raises(cl.TooLargeError, match=r"mixture of 4 distributions.*fewer components"):
        ev.distribution("f1", "a")
    assert made == []
