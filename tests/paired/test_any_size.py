"""An answer at every size for compare_paired and rank_models (issues 24 and 21).

Each test names the defect it covers and why it fails on the code before the fix."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

import confusionlab as cl
from confusionlab import TooLargeError
from confusionlab.metrics import get_metric
from confusionlab.models.paired_draws import classifier_counts, multinomial
from confusionlab.paired import _model
from confusionlab.paired._ranks import _python_ranks, exact_ranks

RNG = np.random.default_rng(11)
N0 = 5000
Y = RNG.integers(0, 2, N0)
A = np.where(RNG.random(N0) < 0.85, Y, 1 - Y)
B = np.where(RNG.random(N0) < 0.80, Y, 1 - Y)


def _mcc_key(tp: int, fp: int, p: int, n: int) -> Fraction:
    """MCC's exact order key, sign(num)·num²/den, from the definition (0/0 = 0)."""
    fn, tn = p - tp, n - fp
    num = tp * tn - fp * fn
    den = (tp + fp) * (fn + tn) * (tp + fn) * (fp + tn)
    return Fraction(0) if den == 0 else Fraction(num * abs(num), den)


# ----------------------------------------------------------------------------- beyond 64 bits
def test_ranks_beyond_64_bits_equal_fraction_ranks():
    """MCC at p = n = 10⁸: exact_ranks raised "need integers beyond 64 bits" before; now the points
    are ranked with Python integers, and the ranks equal those of exact Fractions (ties included)."""
    p = n = 10**8
    rng = np.random.default_rng(3)
    tp = rng.integers(p // 2, p // 2 + 40, 400)
    fp = rng.integers(n // 3, n // 3 + 40, 400)
    tp, fp = np.concatenate((tp, tp[:50])), np.concatenate((fp, fp[:50]))  # exact duplicates
    ranked = exact_ranks(get_metric("mcc"), tp, fp, p, n, 0.0)
    keys = [_mcc_key(int(a), int(b), p, n) for a, b in zip(tp, fp, strict=True)]
    distinct = sorted(set(keys))
    expected = [distinct.index(key) for key in keys]
    assert ranked.ranks.tolist() == expected
    assert ranked.values.size == len(distinct)


@pytest.mark.parametrize("metric", ["mcc", "f1", "balanced_accuracy", "lr_plus", "prevalence_threshold"])
def test_python_integer_ranks_equal_the_64_bit_ranks_where_both_apply(metric):
    m = get_metric(metric)
    rng = np.random.default_rng(4)
    p, n = 70, 45
    tp, fp = rng.integers(0, p + 1, 3000), rng.integers(0, n + 1, 3000)
    fast, slow = exact_ranks(m, tp, fp, p, n, 0.0), _python_ranks(m, tp, fp, p, n, 0.0)
    assert fast.ranks.tolist() == slow.ranks.tolist()
    np.testing.assert_allclose(fast.values, slow.values, rtol=1e-15, atol=0)


def test_monte_carlo_answers_mcc_at_100k_rows():
    """issue 24: method="monte-carlo" at 10⁵ rows answered "use method='monte-carlo'"."""
    y, a, b = np.tile(Y, 20), np.tile(A, 20), np.tile(B, 20)
    r = cl.compare_paired(y, a, b, "mcc", method="monte-carlo", n_draws=20_000, target="next_test_set")
    assert r.method == "monte-carlo" and r.mc_error >= 0
    assert r.prob_greater + r.prob_equal + r.prob_less == pytest.approx(1.0)
    # A is far better (85 % vs 80 % agreement on 10⁵ rows): its MCC is ahead on every draw
    assert r.prob_greater == 1.0


def test_auto_with_a_thousandfold_future_size_is_monte_carlo_with_its_error():
    cells = [[40, 6, 3, 11], [5, 4, 6, 25]]
    r = cl.compare_paired_cells(cells, "mcc", future_size=100 * 1000, n_draws=40_000, target="next_test_set")
    assert r.method == "monte-carlo" and r.mc_error > 0
    assert "Monte Carlo, standard error" in r.summary()
    # the marginals beyond the exact lattice come from the same draws (they were refused before)
    frame = r.to_frame()
    assert frame.loc["A − B", "lower"] <= r.value <= frame.loc["A − B", "upper"]
    assert r.distribution_a.strategy == "monte-carlo(40000)"


def test_monte_carlo_agrees_with_exact_where_both_fit():
    cells = [[30, 5, 2, 9], [3, 4, 6, 21]]
    exact = cl.compare_paired_cells(cells, "mcc", future_size=400, method="exact", target="next_test_set")
    mc = cl.compare_paired_cells(
        cells, "mcc", future_size=400, method="monte-carlo", n_draws=100_000, target="next_test_set"
    )
    assert abs(mc.prob_greater - exact.prob_greater) < 5 * mc.mc_error + 1e-12


# ----------------------------------------------------------------------------- memory and precision
def test_joint_table_is_estimated_before_anything_is_allocated(monkeypatch):
    """issue 21: two identical classifiers at N = 10⁹ (paired-binomial: the discordant windows are
    one point, the box is small) → numpy MemoryError "190 GiB" on the (count A, count B) table, which
    the box estimate did not cover. Now exact refuses by name before the table's weights are computed,
    and "auto" answers by Monte Carlo."""
    cells = [[3 * 10**8, 0, 0, 2 * 10**8], [10**8, 0, 0, 4 * 10**8]]

    def boom(*args, **kwargs):
        raise AssertionError("the weights were computed: the refusal came too late")

    with monkeypatch.context() as mp:
        mp.setattr(_model, "_cell_log_weights", boom)
        with pytest.raises(TooLargeError, match="table of"):
            cl.compare_paired_cells(cells, "accuracy", model="paired-binomial", method="exact", target="next_test_set")
        r = cl.compare_paired_cells(cells, "accuracy", model="paired-binomial", n_draws=2000, target="next_test_set")
    assert r.method == "monte-carlo"
    assert r.prob_equal == 1.0  # identical classifiers under the plug-in model never differ


def test_huge_counts_keep_their_precision():
    """issue 21: cells of 2**53 in all → ArithmeticError "lost precision" (differences of gammaln, and the
    window's large constant added to each weight). The exact answer at 2**53 is now the one at 10⁹
    (the limit is reached: the discordant cells' counts no longer depend on N), which agrees with
    Monte Carlo of the same model — itself right at 2**53 too (numpy's multinomial lost the small
    cells' shares when the share near 1 was drawn first)."""
    top = 2**53 - 1  # and one negative: 2**53 examples, the most a matrix holds
    big = cl.compare_paired_cells([[top, 0, 0, 0], [0, 0, 0, 1]], "accuracy", method="exact", target="next_test_set")
    ref = cl.compare_paired_cells([[10**9, 0, 0, 0], [0, 0, 0, 1]], "accuracy", method="exact", target="next_test_set")
    mc = cl.compare_paired_cells([[top, 0, 0, 0], [0, 0, 0, 1]], "accuracy", method="monte-carlo",
                                 n_draws=200_000, random_state=2, target="next_test_set")  # fmt: skip
    for attr in ("prob_greater", "prob_equal", "prob_less"):
        got, limit, drawn = getattr(big, attr), getattr(ref, attr), getattr(mc, attr)
        assert got == pytest.approx(limit, abs=1e-6), attr
        assert abs(got - drawn) < 5 * math.sqrt(got * (1 - got) / 200_000), attr


def test_normalised_table_equals_the_checked_one(monkeypatch):
    """The path for counts beyond 10⁷ (normalised to the windows' proven mass) gives the numbers of
    the checked path where both apply."""
    cells = [[50, 3, 1, 6], [2, 4, 1, 33]]
    ref = cl.compare_paired_cells(cells, "balanced_accuracy", future_size=(300, 200), target="next_test_set")
    monkeypatch.setattr(_model, "PRECISE_CONSTANT", 0)
    got = cl.compare_paired_cells(cells, "balanced_accuracy", future_size=(300, 200), target="next_test_set")
    for attr in ("prob_greater", "prob_equal", "prob_less"):
        assert getattr(got, attr) == pytest.approx(getattr(ref, attr), abs=1e-11)


# ----------------------------------------------------------------------------- rank_models
def test_rank_models_takes_method_and_answers_mcc_at_100k_rows():
    """issue 21/24: rank_models had no method=, and MCC beyond N ≈ 60,000 failed with advice naming it."""
    y = np.tile(Y, 20)
    preds = {"a": np.tile(A, 20), "b": np.tile(B, 20), "c": np.tile(np.where(RNG.random(N0) < 0.8, Y, 1 - Y), 20)}
    r = cl.rank_models(y, preds, "mcc", n_draws=5000, target="next_test_set")
    assert r.method == "monte-carlo" and r.pairwise_method in ("exact", "monte-carlo")
    assert r.best == "a"
    with pytest.raises(cl.InvalidParameterError, match="method"):
        cl.rank_models(y, preds, "mcc", method="fast", target="next_test_set")


def test_rank_models_pairwise_from_draws_agrees_with_exact_pairs():
    preds = {"a": A[:300], "b": B[:300], "c": np.where(RNG.random(300) < 0.8, Y[:300], 1 - Y[:300])}
    exact = cl.rank_models(Y[:300], preds, "accuracy", n_draws=50_000, method="exact", target="next_test_set")
    mc = cl.rank_models(Y[:300], preds, "accuracy", n_draws=50_000, method="monte-carlo", target="next_test_set")
    assert exact.pairwise_method == "exact" and mc.pairwise_method == "monte-carlo"
    assert np.all(np.abs(mc.pairwise - exact.pairwise) <= 5 * mc.pairwise_error + 1e-12)
    # k = 2 by Monte Carlo: P(best) with its error, against the exact pair
    two = {"a": preds["a"], "b": preds["b"]}
    e2 = cl.rank_models(Y[:300], two, "accuracy", target="next_test_set")
    m2 = cl.rank_models(Y[:300], two, "accuracy", method="monte-carlo", n_draws=50_000, target="next_test_set")
    assert e2.method == "exact" and m2.method == "monte-carlo" and m2.mc_error > 0
    assert abs(m2.prob_best["a"] - e2.prob_best["a"]) < 5 * m2.mc_error


def test_rank_models_refuses_scores_as_labels():
    with pytest.raises(cl.InvalidParameterError, match="scores, not labels"):
        cl.rank_models(Y[:50], {"a": RNG.random(50), "b": B[:50]}, "accuracy", target="next_test_set")
    with pytest.raises(cl.InvalidParameterError, match="scores, not labels"):
        cl.compare_paired(Y[:50], RNG.random(50), B[:50], "accuracy", positive=1, target="next_test_set")


class _CountingRng:
    """A Generator that counts the Gamma and Dirichlet variates it is asked for."""

    def __init__(self, seed: int) -> None:
        self._rng = np.random.default_rng(seed)
        self.variates = 0

    def standard_gamma(self, alpha, size=None):
        self.variates += int(np.prod(np.shape(alpha) if size is None else size))
        return self._rng.standard_gamma(alpha, size=size)

    def dirichlet(self, alpha, size=None):
        self.variates += int(np.prod(size or 1)) * np.shape(alpha)[-1]
        return self._rng.dirichlet(alpha, size=size)

    def __getattr__(self, name):
        return getattr(self._rng, name)


def test_twelve_classifiers_draw_only_the_cells_that_matter():
    """issue 21: rank_models with 12 classifiers at its default draws hung (a Gamma for each of the
    2**12 cells of each class in every draw: 8·10⁸ variates at 100,000 draws). The draws now hold the
    observed cells and the few empty ones that can draw an example: far fewer variates per draw —
    and the same distribution: each classifier's count is the core's beta-binomial, and two
    classifiers' P(equal) is the exact paired model's."""
    k, size = 12, 160
    rng = np.random.default_rng(8)
    y = rng.integers(0, 2, size)
    preds = np.stack([np.where(rng.random(size) < 0.8, y, 1 - y) for _ in range(k)])
    pattern = (preds.astype(np.int64) << np.arange(k)[:, None]).sum(axis=0)
    cells = np.bincount(pattern[y == 1], minlength=2**k)
    bits = (np.arange(2**k)[:, None] >> np.arange(k)[None, :]) & 1
    p, n_draws = int(cells.sum()), 40_000
    counting = _CountingRng(1)
    tp = classifier_counts("paired-beta-binomial", cells, bits, p, n_draws, counting, 2.0 ** (1 - k))
    assert counting.variates / n_draws < 2**k / 8
    observed_tp = preds[:, y == 1].sum(axis=1)
    for j in range(k):
        ref = stats.betabinom(p, observed_tp[j] + 1, p - observed_tp[j] + 1)
        assert abs(tp[:, j].mean() - ref.mean()) < 5 * ref.std() / math.sqrt(n_draws)
    a, b = preds[0][y == 1] == 1, preds[1][y == 1] == 1
    positives = [int((a & b).sum()), int((a & ~b).sum()), int((~a & b).sum()), int((~a & ~b).sum())]
    pair = cl.compare_paired_cells(
        [positives, [0, 0, 0, 0]], "tpr", future_size=(p, 0), method="exact", target="next_test_set"
    )
    equal = float(np.mean(tp[:, 0] == tp[:, 1]))
    assert abs(equal - pair.prob_equal) < 5 * math.sqrt(pair.prob_equal * (1 - pair.prob_equal) / n_draws)


def test_multinomial_by_search_has_the_multinomial_moments():
    shares = np.tile([0.05, 0.15, 0.3, 0.5], (200_000, 1))
    counts = multinomial(6, shares, np.random.default_rng(0))
    assert (counts.sum(axis=1) == 6).all()
    mean, cov = counts.mean(axis=0), np.cov(counts.T)
    ref_cov = 6 * (np.diag(shares[0]) - np.outer(shares[0], shares[0]))
    np.testing.assert_allclose(mean, 6 * shares[0], atol=5 * math.sqrt(6 * 0.25 / 200_000))
    np.testing.assert_allclose(cov, ref_cov, atol=0.02)


def test_ranking_and_paired_pages_name_the_question():
    """issue 20: the ranking's summary and figure said "on a new test set" whatever the target, and the
    paired view's question was always the next test set's."""
    preds = {"a": A[:200], "b": B[:200], "c": B[:200].copy()}
    true = cl.rank_models(Y[:200], preds, "accuracy", target="true_value", n_draws=5000)
    nxt = cl.rank_models(Y[:200], preds, "accuracy", n_draws=5000, target="next_test_set")
    assert "true value" in true.summary() and "new test set" not in true.summary()
    assert "new test set" in nxt.summary()
    assert true.plot().axes[0].get_ylabel() == "P(best true value)"
    view = cl.compare_paired(Y[:200], A[:200], B[:200], "accuracy", target="true_value", n_draws=5000).view()
    assert "true Accuracy" in view._question and "Monte Carlo" in view._question
