"""The multi-class MCC (Gorodkin's R_K) against scikit-learn, and macro_mcc kept for what it is."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import confusion_matrix, matthews_corrcoef

from confusionlab import evaluate
from confusionlab.evaluation import multiclass_mcc


def _labels(seed: int, k: int = 3, n: int = 90, accuracy: float = 0.8):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    wrong = rng.random(n) > accuracy
    p = np.where(wrong, (y + rng.integers(1, k, n)) % k, y)
    return y, p


@pytest.mark.parametrize("seed", range(6))
def test_multiclass_mcc_is_scikit_learns(seed):
    y, p = _labels(seed, k=3 + seed % 3)
    ev = evaluate(y, p, metrics=["multiclass_mcc", "macro_mcc"])
    assert ev.value["multiclass_mcc"] == pytest.approx(matthews_corrcoef(y, p), abs=1e-12)
    assert float(multiclass_mcc(confusion_matrix(y, p))) == pytest.approx(matthews_corrcoef(y, p), abs=1e-12)
    # macro_mcc stays the mean of the one-vs-rest MCCs (scikit-learn, class by class)
    ovr = np.mean([matthews_corrcoef(y == c, p == c) for c in np.unique(np.concatenate([y, p]))])
    assert ev.value["macro_mcc"] == pytest.approx(ovr, abs=1e-12)
    assert ev.value["macro_mcc"] != pytest.approx(ev.value["multiclass_mcc"], abs=1e-9)


def test_binary_and_degenerate_cases_follow_scikit_learn():
    y, p = _labels(1, k=2)
    assert float(multiclass_mcc(confusion_matrix(y, p))) == pytest.approx(matthews_corrcoef(y, p), abs=1e-12)
    constant = np.zeros(10, dtype=int)
    y3 = np.array([0, 1, 2] * 3 + [0])
    assert float(multiclass_mcc(confusion_matrix(y3, constant, labels=[0, 1, 2]))) == matthews_corrcoef(y3, constant)


def test_multiclass_mcc_has_a_distribution_around_its_value():
    y, p = _labels(3, k=3, n=300)
    ev = evaluate(y, p, metrics=["multiclass_mcc"], target="true_value", n_draws=4000)
    lo, hi = ev.interval_of("multiclass_mcc", 0.95)
    assert lo < ev.value["multiclass_mcc"] < hi and hi - lo < 0.3
    assert ev.mc_error("multiclass_mcc") > 0
    assert "multi-class MCC" in ev.question("multiclass_mcc")
