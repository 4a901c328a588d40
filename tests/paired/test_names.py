"""The paired comparison's vocabulary: model names, n_draws, future_size, MAX_CLASSIFIERS, one error type,
and the result protocol's paired specifics (Ranking.value, .best, .compare, frames, views)."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import confusionlab.paired as paired
import confusionlab.paired._ranking as ranking_module
from confusionlab import ConfusionMatrix, InvalidParameterError, metric_distribution
from confusionlab.models import PAIRED_MODEL_RENAMES, PAIRED_MODELS
from confusionlab.paired import PairedCounts, _difference, compare_paired, compare_paired_cells, rank_models

TABLE = [[50, 3, 1, 6], [2, 4, 1, 33]]  # p = 60, n = 40; A: 87 of 100 right, B: 88
SMALL = [[2, 1, 0, 2], [1, 0, 2, 3]]  # p = 5, n = 6


def _probabilities(r):
    return (r.prob_greater, r.prob_equal, r.prob_less)


def _three_classifiers():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 40)
    preds = {k: np.where(rng.random(40) < acc, y, 1 - y) for k, acc in (("a", 0.9), ("b", 0.8), ("c", 0.7))}
    return y, preds


# ----------------------------------------------------------------------------- model names
@pytest.mark.parametrize(("old", "new"), sorted(PAIRED_MODEL_RENAMES.items()))
def test_old_model_names_warn_and_give_the_same_answer(old, new):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r_old = compare_paired_cells(SMALL, "mcc", model=old, tolerance=0, target="next_test_set")
    assert [w.category for w in caught] == [FutureWarning] and new in str(caught[0].message)
    assert caught[0].filename == __file__  # the warning points at the caller
    r_new = compare_paired_cells(SMALL, "mcc", model=new, tolerance=0, target="next_test_set")
    assert r_old.model == r_new.model == new
    assert _probabilities(r_old) == _probabilities(r_new)

    y = [1, 1, 1, 0, 0, 0]
    a, b = [1, 1, 0, 0, 0, 1], [1, 0, 0, 0, 1, 1]
    with pytest.warns(FutureWarning, match=new) as record:
        r_old = compare_paired(y, a, b, "accuracy", model=old, target="next_test_set")
    assert len(record) == 1 and record[0].filename == __file__
    assert _probabilities(r_old) == _probabilities(
        compare_paired(y, a, b, "accuracy", model=new, target="next_test_set")
    )
    with pytest.warns(FutureWarning, match=new) as record:
        k_old = rank_models(y, {"a": a, "b": b}, "accuracy", model=old, target="next_test_set")
    assert len(record) == 1 and record[0].filename == __file__
    assert k_old.prob_best == rank_models(y, {"a": a, "b": b}, "accuracy", model=new, target="next_test_set").prob_best


def test_the_paired_models_are_the_registry_s_and_each_classifier_alone_is_the_core_model():
    assert PAIRED_MODELS == ("paired-beta-binomial", "paired-binomial")
    assert (
        compare_paired_cells(SMALL, "accuracy", target="next_test_set").model == "paired-beta-binomial"
    )  # the default
    for model, single in (("paired-beta-binomial", "beta-binomial"), ("paired-binomial", "binomial")):
        r = compare_paired_cells(SMALL, "accuracy", model=model, tolerance=0, target="next_test_set")
        ref = metric_distribution(ConfusionMatrix(tp=3, fn=2, fp=1, tn=5), "accuracy", single, tolerance=0)
        assert r.distribution_a.values.tolist() == ref.values.tolist()
        assert r.distribution_a.probabilities.tolist() == pytest.approx(ref.probabilities.tolist(), abs=1e-15)


@pytest.mark.parametrize("single", ["binomial", "beta-binomial", "Beta_Binomial"])
def test_one_classifier_models_are_refused_with_the_paired_name(single):
    paired_name = "paired-" + single.lower().replace("_", "-")
    with pytest.raises(InvalidParameterError, match=paired_name):
        compare_paired_cells(SMALL, "mcc", model=single, target="next_test_set")
    with pytest.raises(InvalidParameterError, match=paired_name):
        rank_models([1, 0], {"a": [1, 0], "b": [0, 0]}, "mcc", model=single, target="next_test_set")
    with pytest.raises(InvalidParameterError, match="paired-beta-binomial"):
        compare_paired_cells(SMALL, "mcc", model="nope", target="next_test_set")


def test_old_constants_warn_and_keep_their_values():
    with pytest.warns(FutureWarning, match="MAX_CLASSIFIERS"):
        assert paired.MAX_MODELS == 12
    with pytest.warns(FutureWarning, match="MAX_CLASSIFIERS"):
        assert ranking_module.MAX_MODELS == 12
    with pytest.warns(FutureWarning, match="PAIRED_MODELS"):
        assert paired.MODELS == PAIRED_MODELS
    assert paired.MAX_CLASSIFIERS == 12
    assert "MAX_MODELS" not in paired.__all__ and "MODELS" not in paired.__all__
    with pytest.raises(AttributeError):
        paired.NOT_A_NAME  # noqa: B018


# ----------------------------------------------------------------------------- n_draws
def test_draws_is_renamed_n_draws_everywhere():
    options = {"method": "monte-carlo", "random_state": 4}
    with pytest.warns(FutureWarning, match="n_draws"):
        old = compare_paired_cells(TABLE, "f1", draws=700, **options)
    new = compare_paired_cells(TABLE, "f1", n_draws=700, **options)
    assert _probabilities(old) == _probabilities(new) and new.n_draws == 700
    with pytest.warns(FutureWarning, match="n_draws"):
        assert new.draws == 700
    assert compare_paired_cells(TABLE, "f1", target="next_test_set").n_draws is None  # exact

    y = [1, 1, 1, 0, 0, 0, 1, 0]
    a, b = [1, 1, 0, 0, 0, 1, 1, 0], [1, 0, 0, 0, 1, 1, 1, 1]
    with pytest.warns(FutureWarning, match="n_draws"):
        old = compare_paired(y, a, b, "accuracy", draws=500, **options)
    assert _probabilities(old) == _probabilities(compare_paired(y, a, b, "accuracy", n_draws=500, **options))

    y3, preds = _three_classifiers()
    with pytest.warns(FutureWarning, match="n_draws"):
        old = rank_models(y3, preds, "accuracy", draws=3000, random_state=2, target="next_test_set")
    new = rank_models(y3, preds, "accuracy", n_draws=3000, random_state=2, target="next_test_set")
    assert old.prob_best == new.prob_best and new.n_draws == 3000
    with pytest.warns(FutureWarning, match="n_draws"):
        assert new.draws == 3000
    with pytest.raises(InvalidParameterError, match="n_draws"):
        compare_paired_cells(TABLE, "f1", draws=10, n_draws=10, target="next_test_set")


# ----------------------------------------------------------------------------- future_size
@pytest.mark.parametrize(
    ("table", "total", "split"),
    [
        (TABLE, 1000, (600, 400)),  # 1000·60/100
        (SMALL, 20, (9, 11)),  # 20·5/11 = 9.09 → 9
        (SMALL, 11, (5, 6)),  # the observed size gives back (p, n)
        ([[1, 0, 0, 0], [5, 3, 2, 89]], 10, (1, 9)),  # 10·1/100 = 0.1 rounds to 0, but a positive was observed
        ([[3, 1, 0, 2], [0, 0, 0, 0]], 7, (7, 0)),  # no negatives observed: all positives
    ],
)
def test_a_total_future_size_is_split_in_the_observed_proportions(table, total, split):
    r = compare_paired_cells(table, "accuracy", future_size=total, target="next_test_set")
    assert r.future_size == split
    assert _probabilities(r) == _probabilities(
        compare_paired_cells(table, "accuracy", future_size=split, target="next_test_set")
    )


def test_rank_models_takes_a_total_future_size_too():
    y = [1] * 10 + [0] * 10
    preds = {"a": [1] * 9 + [0] + [0] * 10, "b": [1] * 7 + [0] * 3 + [0] * 8 + [1] * 2}
    # 7·10/20 = 3.5 → ⌊3.5 + ½⌋ = 4 positives, 3 negatives
    assert rank_models(y, preds, "accuracy", future_size=7, target="next_test_set").prob_best == pytest.approx(
        rank_models(y, preds, "accuracy", future_size=(4, 3), target="next_test_set").prob_best, abs=0
    )
    y3, preds3 = _three_classifiers()
    p = int(np.sum(y3))
    split = ((2 * 100 * p + 40) // 80, None)
    split = (split[0], 100 - split[0])
    r_total = rank_models(y3, preds3, "mcc", future_size=100, n_draws=2000, target="next_test_set")
    r_pair = rank_models(y3, preds3, "mcc", future_size=split, n_draws=2000, target="next_test_set")
    assert r_total.prob_best == r_pair.prob_best
    np.testing.assert_array_equal(r_total.pairwise, r_pair.pairwise)
    for bad in (0, (0, 0), -3, "100", (1, 2, 3)):
        with pytest.raises(InvalidParameterError, match="future_size"):
            rank_models(y, preds, "accuracy", future_size=bad, target="next_test_set")


# ----------------------------------------------------------------------------- one error type
def test_every_bad_argument_is_an_invalid_parameter_error():
    r = compare_paired_cells(TABLE, "accuracy", target="next_test_set")
    for bad in (-0.1, math.nan, math.inf, True, "0.1", None):
        with pytest.raises(InvalidParameterError, match="margin"):
            r.prob_equivalent(bad)
        with pytest.raises(InvalidParameterError, match="margin"):
            r.verdict(bad)
    assert r.prob_equivalent(0) == pytest.approx(r.prob_equal, abs=1e-15)  # 0 is a margin (≥ 0)
    calls = [
        lambda: compare_paired_cells([[1, 2, 3]], "mcc", target="next_test_set"),
        lambda: compare_paired_cells([[0, 0, 0, 0], [0, 0, 0, 0]], "mcc", target="next_test_set"),
        lambda: PairedCounts("abcd", (1, 1, 1, 1)),
        lambda: compare_paired([1, 0, 1], [1, 0], [1, 0, 1], "mcc", target="next_test_set"),
        lambda: compare_paired([], [], [], "mcc", target="next_test_set"),
        lambda: compare_paired([1, 0, 2], [1, 0, 1], [1, 0, 1], "mcc", target="next_test_set"),
        lambda: compare_paired_cells(TABLE, "mcc", method="fast", target="next_test_set"),
        lambda: rank_models([1, 0], [[1, 0]], "mcc", target="next_test_set"),
        lambda: rank_models([1, 0], {"a": [1, 0]}, "mcc", target="next_test_set"),
        lambda: rank_models(
            [1, 0], {f"m{i}": [1, 0] for i in range(paired.MAX_CLASSIFIERS + 1)}, "mcc", target="next_test_set"
        ),
        lambda: rank_models([1, 0], {1: [1, 0], "1": [0, 1]}, "mcc", target="next_test_set"),
        lambda: rank_models([1, 0], {"a": [1, 0], "b": [1]}, "mcc", target="next_test_set"),
        lambda: compare_paired_cells(
            [[3, 1, 0, 2], [0, 0, 0, 0]], "mcc", model="paired-binomial", future_size=(3, 3), target="next_test_set"
        ),
    ]
    for call in calls:
        with pytest.raises(InvalidParameterError):
            call()


# ----------------------------------------------------------------------------- the result protocol
def test_paired_comparison_value_interval_and_frame(monkeypatch):
    r = compare_paired_cells(TABLE, "accuracy", target="next_test_set")
    assert r.value == pytest.approx(0.87 - 0.88, abs=1e-15)
    monkeypatch.setattr(_difference, "MAX_DIFFERENCE_POINTS", 2e7)  # every pair visited: the exact difference
    visited = compare_paired_cells(TABLE, "accuracy", target="next_test_set").difference
    assert visited.strategy == "pairs" and r.interval() == visited.interval(0.95)
    frame = r.to_frame()
    assert frame.loc["A", "observed"] == pytest.approx(0.87) and frame.loc["B", "observed"] == pytest.approx(0.88)
    assert frame.loc["A − B", "observed"] == r.value
    ref = metric_distribution(ConfusionMatrix(tp=53, fn=7, fp=6, tn=34), "accuracy", "beta-binomial")
    assert frame.loc["A", "mean"] == pytest.approx(ref.mean(), abs=1e-12)
    assert tuple(frame.loc["A − B", ["lower", "upper"]]) == r.interval(0.95)
    assert tuple(r.to_frame(0.5).loc["A", ["lower", "upper"]]) == ref.interval(0.5)
    text = r.summary(margin=0.05)
    assert r.verdict(0.05) in text and "0.368" in text


def test_ranking_value_is_p_best_and_best_is_the_old_value():
    y = [1] * 10 + [0] * 10
    preds = {"a": [1] * 9 + [0] + [0] * 10, "b": [1] * 7 + [0] * 3 + [0] * 8 + [1] * 2}
    r = rank_models(y, preds, "accuracy", target="next_test_set")
    assert r.value == r.prob_best and r.best == "a"
    assert r.observed == {"a": 0.95, "b": 0.75}  # 19 and 15 of 20 right
    assert r.interval() == {k: (v, v) for k, v in r.prob_best.items()}  # exact: no Monte Carlo error
    frame = r.to_frame()
    assert frame.index.name == "classifier" and frame.index.tolist() == ["a", "b"]
    assert frame["accuracy"].tolist() == [0.95, 0.75]
    c = r.compare("a", "b")
    assert c.prob_greater == r.pairwise[0, 1] and c.prob_less == r.pairwise[1, 0]
    assert r.compare("b", "a").prob_greater == pytest.approx(r.pairwise[1, 0], abs=1e-12)
    with pytest.raises(InvalidParameterError, match="one of"):
        r.compare("a", "z")
    view = r.view()
    assert (view.name_a, view.name_b) == ("a", "b") and view.comparison.prob_greater == r.pairwise[0, 1]
    assert "'a'" in r.summary()


def test_ranking_interval_is_the_monte_carlo_error_of_p_best():
    y3, preds = _three_classifiers()
    r = rank_models(y3, preds, "accuracy", n_draws=4000, random_state=5, target="next_test_set")
    z = 1.959963984540054  # the normal 97.5 % quantile
    for name, (lo, hi) in r.interval(0.95).items():
        p, se = r.prob_best[name], r.prob_best_error[name]
        assert se <= r.mc_error
        assert lo == pytest.approx(max(0.0, p - z * se), abs=1e-12)
        assert hi == pytest.approx(min(1.0, p + z * se), abs=1e-12)
    first, second = sorted(r.names, key=lambda k: -r.prob_best[k])[:2]
    view = r.view(margin=0.02)
    assert (view.name_a, view.name_b, view.margin) == (first, second, 0.02)
