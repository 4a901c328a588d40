"""Marginals, McNemar, decisions, rankings and bad input of the paired comparison."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar

from confusionlab import METRICS, ConfusionMatrix, TooLargeError, metric_distribution
from confusionlab.paired import PairedCounts, compare_paired, compare_paired_cells, rank_models


# ----------------------------------------------------------------------------- marginals
@pytest.mark.parametrize("metric", ["accuracy", "balanced_accuracy", "f1", "mcc", "lr_plus"])
@pytest.mark.parametrize(
    ("model", "single"), [("paired-beta-binomial", "beta-binomial"), ("paired-binomial", "binomial")]
)
def test_marginals_of_the_joint_are_the_single_model_distributions(metric, model, single):
    """Summing the paired joint over B gives metric_distribution(A, ..., "beta-binomial")."""
    table = [[9, 3, 1, 2], [1, 2, 4, 12]]
    r = compare_paired_cells(table, metric, model=model, tolerance=0, target="next_test_set")
    ra, rb, mass = r._engine.pair_masses
    for ranks, cm in ((ra, r.counts.matrix_a), (rb, r.counts.matrix_b)):
        ref = metric_distribution(cm, metric, single, tolerance=0)
        values, inverse = np.unique(r._engine.values[ranks], return_inverse=True)
        got = np.bincount(inverse, weights=mass)
        assert values.tolist() == pytest.approx(ref.values.tolist(), abs=1e-12)
        assert got == pytest.approx(ref.probabilities, abs=1e-12)
    assert (
        r.distribution_a.values.tolist() == ref.values.tolist()
        or r.distribution_b.values.tolist() == ref.values.tolist()
    )


# ----------------------------------------------------------------------------- McNemar
@pytest.mark.parametrize(("b", "c"), [(3, 12), (5, 9), (1, 8), (10, 4)])
def test_accuracy_agrees_with_mcnemar_exact_test(b, c):
    """With one class, A − B in accuracy is (only A right − only B right); for a large future test set
    P(acc_A > acc_B) tends to P(θ > ½), θ ~ Beta(b + ½, c + ½), which lies between McNemar's one-sided
    exact p-values of (b, c) and (b − 1, c + 1) (stochastic order of the Beta family)."""
    positives = (20, b, c, 7)
    r = compare_paired_cells(
        [positives, (0, 0, 0, 0)], "accuracy", future_size=(2_000_000, 0), method="monte-carlo",
        n_draws=400_000, random_state=3, target="next_test_set"
    )  # fmt: skip
    p_a_better = r.prob_greater + r.prob_equal / 2
    lo_b, hi_b = (b, c) if b < c else (c, b)
    upper = mcnemar([[20, lo_b], [hi_b, 7]], exact=True).pvalue / 2  # P(X <= min)
    lower = mcnemar([[20, lo_b - 1], [hi_b + 1, 7]], exact=True).pvalue / 2 if lo_b > 0 else 0.0
    tail = p_a_better if b < c else 1 - p_a_better
    slack = 5 * r.mc_error + 2e-3
    assert lower - slack <= tail <= upper + slack, (tail, lower, upper)


def test_accuracy_direction_follows_the_discordant_counts_exactly():
    """At the observed size: more 'only A right' than 'only B right' means P(A > B) > P(A < B), and
    a larger imbalance at the same b + c (a smaller McNemar p-value) a smaller P(A < B)."""
    previous, pvalues = 1.0, []
    for b in range(6, 13):
        c = 12 - b
        r = compare_paired_cells(
            [[30, b, 0, 5], [0, c, 0, 40]], "accuracy", target="next_test_set"
        )  # only A says positive: A wrong
        assert (r.prob_greater > r.prob_less) == (b > c)
        assert r.prob_less < previous
        previous = r.prob_less
        pvalues.append(mcnemar([[70, b], [c, 5]], exact=True).pvalue)
    assert pvalues == sorted(pvalues, reverse=True)


# ----------------------------------------------------------------------------- decisions
def test_prob_equivalent_and_verdict_match_the_difference_distribution():
    table = [[20, 4, 1, 6], [2, 1, 3, 35]]
    r = compare_paired_cells(table, "balanced_accuracy", tolerance=0, target="next_test_set")
    d = r.difference
    assert d.strategy == "pairs"
    assert r.prob_equivalent(0) == pytest.approx(r.prob_equal, abs=1e-12)
    for margin in (0.0, 0.01, 0.025, 0.05, 0.1):
        inside = d.cdf(margin + 1e-9) - d.cdf(-margin - 1e-9)
        assert r.prob_equivalent(margin) == pytest.approx(inside, abs=1e-9)
        lo, hi = d.interval(0.9)
        expected = (
            "A better" if lo > margin else "B better" if hi < -margin
            else "practically equivalent" if -margin <= lo and hi <= margin else "insufficient evidence"
        )  # fmt: skip
        assert r.verdict(margin, confidence=0.9) == expected


def test_a_clearly_better_and_equivalent_models():
    y = np.r_[np.ones(400, int), np.zeros(400, int)]
    a = y.copy()
    b = y.copy()
    b[:60] = 0
    b[400:460] = 1
    assert compare_paired(y, a, b, "mcc", target="next_test_set").verdict(0.02) == "A better"
    assert compare_paired(y, b, a, "mcc", target="next_test_set").verdict(0.02) == "B better"
    c = y.copy()
    c[:2] = 0
    d = y.copy()
    d[2:4] = 0
    assert compare_paired(y, c, d, "accuracy", target="next_test_set").verdict(0.05) == "practically equivalent"


def test_identical_models_are_two_classifiers_under_one_prior():
    """No structural zeros: identical predictions give a symmetric answer with P(equal) < 1,
    observed difference 0, and no verdict of a difference."""
    y = [1, 0, 1, 1, 0, 0, 1]
    pred = [1, 0, 0, 1, 1, 0, 1]
    for metric in ("mcc", "f1", "lr_plus", "diagnostic_odds_ratio", "prevalence_threshold"):
        r = compare_paired(y, pred, pred, metric, target="next_test_set")
        assert 0 < r.prob_equal < 1
        assert r.prob_greater == pytest.approx(r.prob_less, abs=1e-12) and r.value == 0.0
        assert r.verdict(0.0) in ("practically equivalent", "insufficient evidence")


def test_an_empty_class_works_under_the_prior_and_is_refused_by_the_plug_in():
    y = [1, 1, 1, 1]
    r = compare_paired(y, [1, 1, 1, 0], [1, 0, 0, 0], "recall", target="next_test_set")
    assert r.prob_greater > r.prob_less and r.future_size == (4, 0)
    r = compare_paired(y, [1, 1, 1, 0], [1, 0, 0, 0], "balanced_accuracy", future_size=(4, 3), target="next_test_set")
    assert 0 < r.prob_greater < 1
    with pytest.raises(ValueError, match="paired-binomial model needs observed negatives"):
        compare_paired(
            y,
            [1, 1, 1, 0],
            [1, 0, 0, 0],
            "accuracy",
            model="paired-binomial",
            future_size=(4, 3),
            target="next_test_set",
        )


# ----------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    ("args", "match"),
    [
        (([1, 0, 1], [1, 0], [1, 0, 1]), "same length"),
        (([1, 0, 1], [0.2, 0.7, 0.9], [1, 0, 1]), "scores, not labels"),
        (([1, 0, 1], [1, 0, 2], [1, 0, 1]), "distinct labels"),
        (([], [], []), "empty"),
        (([1, None, 1], [1, 0, 1], [1, 0, 1]), "missing"),
    ],
)
def test_bad_predictions_are_refused(args, match):
    with pytest.raises(ValueError, match=match):
        compare_paired(*args, "accuracy", target="next_test_set")


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"model": "beta"}, ValueError, "model"),
        ({"tolerance": 0.5}, ValueError, "tolerance"),
        ({"model": "beta-binomial"}, ValueError, "paired-beta-binomial"),
        ({"future_size": "10"}, TypeError, "future_size"),
        ({"future_size": (-1, 3)}, ValueError, "future_size"),
        ({"future_size": 0}, ValueError, "future_size"),
        ({"method": "fast"}, ValueError, "method"),
        ({"n_draws": 0}, ValueError, "n_draws"),
        ({"undefined": "exclude"}, ValueError, "undefined"),
        ({"random_state": "x"}, TypeError, "random_state"),
    ],
)
def test_bad_options_are_refused(kwargs, error, match):
    kwargs.setdefault("method", "monte-carlo") if "random_state" in kwargs else None
    with pytest.raises(error, match=match):
        compare_paired_cells([[3, 1, 0, 2], [0, 1, 1, 4]], "mcc", **kwargs)


def test_bad_cells_and_margins_are_refused():
    with pytest.raises(ValueError, match="2 × 4"):
        compare_paired_cells([[1, 2, 3]], "mcc", target="next_test_set")
    with pytest.raises(ValueError, match="negatives"):
        PairedCounts.from_cells([[1, 2, 3, 4], [1, -2, 3, 4]])
    with pytest.raises(ValueError, match="no example"):
        PairedCounts((0, 0, 0, 0), (0, 0, 0, 0))
    r = compare_paired_cells([[3, 1, 0, 2], [0, 1, 1, 4]], "mcc", target="next_test_set")
    for bad in (-0.1, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="margin"):
            r.prob_equivalent(bad)
    with pytest.raises(TypeError, match="margin"):
        r.verdict("0.1")
    with pytest.raises(ValueError, match="confidence"):
        r.verdict(0.1, confidence=1.0)


def test_huge_future_size_is_refused_exactly_and_sampled_otherwise():
    table = [[30, 4, 2, 4], [3, 2, 5, 50]]
    with pytest.raises(TooLargeError):
        compare_paired_cells(table, "mcc", future_size=(10**9, 10**9), method="exact", target="next_test_set")
    r = compare_paired_cells(table, "accuracy", future_size=(10**9, 10**9), n_draws=2000, target="next_test_set")
    assert r.method == "monte-carlo" and 0 <= r.prob_greater <= 1


# ----------------------------------------------------------------------------- ranking
def test_rank_models_two_models_is_the_exact_paired_answer():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 120)
    a = np.where(rng.random(120) < 0.85, y, 1 - y)
    b = np.where(rng.random(120) < 0.75, y, 1 - y)
    r = rank_models(y, {"a": a, "b": b}, "f1", target="next_test_set")
    pc = compare_paired(y, a, b, "f1", target="next_test_set")
    assert r.method == "exact"
    assert r.prob_best["a"] == pytest.approx(pc.prob_greater + pc.prob_equal / 2, abs=1e-12)
    assert r.pairwise[0, 1] == pytest.approx(pc.prob_greater, abs=1e-12)
    assert r.expected_rank["a"] + r.expected_rank["b"] == pytest.approx(3.0)


def test_rank_models_three_models_against_a_plain_simulation():
    """P(best) against an independent simulation of the 2**k-cell model (prior 2**(1-k) per cell)."""
    rng = np.random.default_rng(7)
    y = rng.integers(0, 2, 80)
    preds = {n: np.where(rng.random(80) < acc, y, 1 - y) for n, acc in (("a", 0.85), ("b", 0.8), ("c", 0.7))}
    r = rank_models(y, preds, "accuracy", n_draws=100_000, random_state=11, target="next_test_set")
    assert sum(r.prob_best.values()) == pytest.approx(1.0)
    assert sum(r.expected_rank.values()) == pytest.approx(6.0)
    # independent simulation, written from the model's definition
    sim = np.random.default_rng(99)
    bits = np.stack([preds[k] for k in "abc"])
    pattern = (bits << np.arange(3)[:, None]).sum(axis=0)
    correct = np.zeros((60_000, 3))
    for cls in (0, 1):
        cells = np.bincount(pattern[y == cls], minlength=8)
        draws = sim.multinomial(cells.sum(), sim.dirichlet(cells + 0.25, size=60_000))
        for i in range(3):
            has = ((np.arange(8) >> i) & 1) == 1
            right = has if cls == 1 else ~has
            correct[:, i] += draws[:, right].sum(axis=1)
    top = correct.max(axis=1, keepdims=True)
    share = (correct == top) / (correct == top).sum(axis=1, keepdims=True)
    for i, name in enumerate("abc"):
        assert r.prob_best[name] == pytest.approx(share[:, i].mean(), abs=5 * r.mc_error + 0.006)
    # pairwise entries are the exact paired answers
    pc = compare_paired(y, preds["a"], preds["c"], "accuracy", target="next_test_set")
    assert r.pairwise[0, 2] == pytest.approx(pc.prob_greater, abs=1e-12)


def test_rank_models_bad_input():
    with pytest.raises(ValueError, match="at least two"):
        rank_models([1, 0], {"a": [1, 0]}, "mcc", target="next_test_set")
    with pytest.raises(TypeError, match="dict"):
        rank_models([1, 0], [[1, 0], [0, 1]], "mcc", target="next_test_set")
    with pytest.raises(ValueError, match="must match"):
        rank_models([1, 0], {"a": [1, 0], "b": [1]}, "mcc", target="next_test_set")


# ----------------------------------------------------------------------------- hostile
_count = st.one_of(st.integers(0, 40), st.integers(-3, -1), st.floats(allow_nan=True), st.none(), st.text(max_size=2))
_metric = st.sampled_from([*METRICS, "nope", 3])


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    cells=st.lists(st.lists(_count, min_size=3, max_size=5), min_size=1, max_size=3),
    metric=_metric,
    model=st.sampled_from(["paired-beta-binomial", "paired-binomial", "binomial", 7]),
    tolerance=st.one_of(st.sampled_from([0.0, 1e-12, 1e-6, 0.5, -1.0]), st.floats()),
    future=st.one_of(st.none(), st.tuples(st.integers(-2, 300), st.integers(-2, 300)), st.integers(0, 5)),
    method=st.sampled_from(["auto", "exact", "monte-carlo", "x"]),
    margin=st.one_of(st.floats(), st.integers(-1, 2), st.none()),
)
def test_hostile_arguments_give_a_result_or_a_named_error(cells, metric, model, tolerance, future, method, margin):
    try:
        r = compare_paired_cells(
            cells,
            metric,
            model=model,
            tolerance=tolerance,
            future_size=future,
            method=method,
            n_draws=2000,
            target="next_test_set",
        )
    except (ValueError, TypeError) as err:
        assert str(err)
        return
    assert abs(r.prob_greater + r.prob_equal + r.prob_less - 1) <= 1e-9
    try:
        verdict = r.verdict(margin)
    except (ValueError, TypeError) as err:
        assert "margin" in str(err)
    else:
        assert verdict in ("A better", "B better", "practically equivalent", "insufficient evidence")


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(1, 30),
    k=st.integers(0, 4),
    seed=st.integers(0, 10),
    metric=st.sampled_from(list(METRICS)),
)
def test_hostile_rankings(n, k, seed, metric):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    preds = {f"m{i}": rng.integers(0, 2, n) for i in range(k)}
    try:
        r = rank_models(y, preds, metric, n_draws=500, target="next_test_set")
    except ValueError as err:
        assert "two" in str(err) or "labels" in str(err)
        return
    assert sum(r.prob_best.values()) == pytest.approx(1.0)
    assert np.all((r.pairwise >= 0) & (r.pairwise <= 1))


def test_confusion_matrices_of_the_counts():
    c = PairedCounts.from_predictions(["x", "y", "x"], ["x", "x", "y"], ["y", "y", "x"], positive="x")
    assert c.matrix_a == ConfusionMatrix(tp=1, fn=1, fp=1, tn=0)
    assert stats.binom.cdf(0, 1, 0.5) == 0.5  # scipy present for the McNemar bracket above
