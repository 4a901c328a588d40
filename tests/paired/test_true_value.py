"""compare_paired(..., target="true_value"): P(A > B) for the classifiers' true values.

Reference: the posterior of each class's four agreement shares is Dirichlet(cells + ½)
(scipy/numpy draws here, independent of the library's engine); A's true TPR is
θ_both + θ_onlyA among the positives, its FPR the same among the negatives.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import confusionlab as cl
from confusionlab import InvalidParameterError

CELLS = [[50, 9, 2, 6], [2, 4, 1, 33]]  # A right more often than B on the positives


def _reference_prob_greater(cells, n_draws=400_000, seed=11):
    rng = np.random.default_rng(seed)
    pos, neg = (np.asarray(c, dtype=float) for c in cells)
    p, n = pos.sum(), neg.sum()
    tp = rng.dirichlet(pos + 0.5, n_draws)
    fp = rng.dirichlet(neg + 0.5, n_draws)
    acc_a = (p * (tp[:, 0] + tp[:, 1]) + n * (1 - fp[:, 0] - fp[:, 1])) / (p + n)
    acc_b = (p * (tp[:, 0] + tp[:, 2]) + n * (1 - fp[:, 0] - fp[:, 2])) / (p + n)
    return float(np.mean(acc_a > acc_b)), acc_a - acc_b


def test_true_value_prob_greater_matches_the_dirichlet_posterior():
    r = cl.compare_paired_cells(CELLS, "accuracy", target="true_value", n_draws=200_000)
    expected, diff = _reference_prob_greater(CELLS)
    se = math.sqrt(expected * (1 - expected) / 200_000) + math.sqrt(expected * (1 - expected) / 400_000)
    assert r.target == "true_value" and r.method == "monte-carlo"
    assert abs(r.prob_greater - expected) < 5 * se
    assert r.prob_equal < 1e-3  # a continuous posterior
    lo, hi = r.interval(0.95)
    ref_lo, ref_hi = np.quantile(diff, [0.025, 0.975])
    assert lo == pytest.approx(ref_lo, abs=0.005) and hi == pytest.approx(ref_hi, abs=0.005)


def test_the_true_value_question_is_sharper_than_the_next_test_set():
    nxt = cl.compare_paired_cells(CELLS, "accuracy", target="next_test_set")
    true = cl.compare_paired_cells(CELLS, "accuracy", target="true_value")
    assert nxt.target == "next_test_set"
    assert cl.compare_paired_cells(CELLS, "accuracy").target == "true_value"  # the default question
    assert true.prob_greater > nxt.prob_greater > 0.5
    w_true = np.diff(true.interval(0.95))[0]
    w_next = np.diff(nxt.interval(0.95))[0]
    assert 0.55 < w_true / w_next < 0.85  # about 1/√2
    assert "true value" in true.summary() and "new test set" in nxt.summary()
    assert true.distribution_a.target == "true_value"


def test_true_value_refusals_name_the_argument():
    with pytest.raises(InvalidParameterError, match="future_size"):
        cl.compare_paired_cells(CELLS, "accuracy", target="true_value", future_size=1000)
    with pytest.raises(InvalidParameterError, match="paired-beta-binomial"):
        cl.compare_paired_cells(CELLS, "accuracy", target="true_value", model="paired-binomial")
    with pytest.raises(InvalidParameterError, match="target"):
        cl.compare_paired_cells(CELLS, "accuracy", target="population")


def test_rank_models_answers_the_true_value_question():
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 300)
    preds = {name: np.where(rng.random(300) < acc, y, 1 - y) for name, acc in (("a", 0.9), ("b", 0.8), ("c", 0.7))}
    true = cl.rank_models(y, preds, "accuracy", target="true_value", n_draws=50_000)
    nxt = cl.rank_models(y, preds, "accuracy", n_draws=50_000)
    assert true.best == nxt.best == "a"
    assert true.prob_best["a"] >= nxt.prob_best["a"]
    pair = cl.compare_paired(y, preds["a"], preds["b"], "accuracy", target="true_value", n_draws=50_000)
    # the ranking's pairwise matrix comes from its own draws (consistent with its P(best)); the pair's
    # comparison from others: the same probability within their Monte Carlo errors
    assert true.pairwise_method == "monte-carlo"
    assert abs(true.pairwise[0, 1] - pair.prob_greater) <= 5 * (true.pairwise_error + pair.mc_error) + 1e-4
