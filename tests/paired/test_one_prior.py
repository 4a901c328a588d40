"""compare_paired and rank_models use one prior on every cell whatever the counts (issue 20,
defect 3; issue 21's P(best) inconsistency): two prediction vectors that agree on every
example are still two classifiers, and the answer is continuous in the data."""

from __future__ import annotations

import math

import numpy as np
import pytest

import confusionlab as cl
from confusionlab.metrics import get_metric
from confusionlab.models import agreement_counts

RNG = np.random.default_rng(5)
Y = RNG.integers(0, 2, 120)
A = np.where(RNG.random(120) < 0.85, Y, 1 - Y)


def _flip_one(pred: np.ndarray) -> np.ndarray:
    out = pred.copy()
    out[0] = 1 - out[0]
    return out


def test_identical_predictions_are_not_a_special_case():
    same = cl.compare_paired(Y, A, A.copy(), "accuracy", target="next_test_set")
    assert same.prob_equal < 1
    assert same.prob_greater == pytest.approx(same.prob_less, abs=1e-12)  # symmetric, not degenerate
    one_off = cl.compare_paired(Y, A, _flip_one(A), "accuracy", target="next_test_set")
    # continuous in the data: one differing example moves the answer a little, not from 1 to 0.36
    assert abs(same.prob_equal - one_off.prob_equal) < 0.15


def test_exact_and_monte_carlo_agree_for_identical_predictions():
    exact = cl.compare_paired(Y, A, A.copy(), "accuracy", method="exact", target="next_test_set")
    mc = cl.compare_paired(
        Y, A, A.copy(), "accuracy", method="monte-carlo", n_draws=200_000, random_state=1, target="next_test_set"
    )
    se = math.sqrt(exact.prob_equal * (1 - exact.prob_equal) / 200_000)
    assert abs(mc.prob_equal - exact.prob_equal) < 5 * se + 1e-9


def test_ranking_draws_and_pairwise_exact_share_one_prior():
    """rank_models' k-classifier draws (prior 2**(1 − k) per cell) marginalise to the pair's
    Dirichlet(½, ½, ½, ½): the Monte Carlo P(A = A') of two identical classifiers among three
    equals the exact pairwise P(equal) within a few standard errors."""
    b = np.where(RNG.random(120) < 0.8, Y, 1 - Y)
    preds = {"A": A, "A2": A.copy(), "B": b}
    ranking = cl.rank_models(Y, preds, "accuracy", n_draws=100_000, target="next_test_set")
    names = list(preds)
    i, j = names.index("A"), names.index("A2")
    pairwise_equal = 1 - ranking.pairwise[i, j] - ranking.pairwise[j, i]
    exact = cl.compare_paired(Y, A, A.copy(), "accuracy", target="next_test_set")
    assert pairwise_equal == pytest.approx(exact.prob_equal, abs=1e-12)
    # the k = 3 draws, as rank_models makes them
    truth = Y == 1
    bits = np.stack([preds[k] == 1 for k in names])
    pattern = (bits.astype(np.int64) << np.arange(3)[:, None]).sum(axis=0)
    rng = np.random.default_rng(0)
    bitmat = ((np.arange(8)[:, None] >> np.arange(3)[None, :]) & 1).astype(np.int64)
    n_draws = 100_000
    p, n = int(truth.sum()), int((~truth).sum())
    model = "paired-beta-binomial"
    tp = agreement_counts(model, np.bincount(pattern[truth], minlength=8), p, n_draws, rng, 0.25) @ bitmat
    fp = agreement_counts(model, np.bincount(pattern[~truth], minlength=8), n, n_draws, rng, 0.25) @ bitmat
    acc = get_metric("accuracy").values(tp, p - tp, fp, n - fp)
    mc_equal = float(np.mean(acc[:, i] == acc[:, j]))
    se = math.sqrt(mc_equal * (1 - mc_equal) / n_draws)
    assert abs(mc_equal - exact.prob_equal) < 5 * se
    # P(best) of the Monte Carlo path is consistent with the exact pairwise matrix:
    # B is best only where it beats (or ties) both, so at most P(B ≥ A) exactly
    k_b = names.index("B")
    at_most = ranking.pairwise[k_b, i] + (1 - ranking.pairwise[k_b, i] - ranking.pairwise[i, k_b])
    assert ranking.prob_best["B"] <= at_most + 5 * ranking.prob_best_error["B"]
