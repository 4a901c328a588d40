"""compare_paired against an independent enumeration in exact rationals (tests/paired/paired_brute.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
import paired_brute as brute

from confusionlab.paired import compare_paired, compare_paired_cells

METRICS = ("accuracy", "balanced_accuracy", "f1", "mcc")
TABLES = [
    ((2, 1, 0, 2), (1, 0, 2, 3)),  # p = 5, n = 6
    ((0, 3, 1, 1), (0, 0, 1, 5)),  # an empty "both" cell, A predicts no negative positive
    ((4, 0, 0, 0), (0, 0, 0, 3)),  # the two classifiers agree on every example
    ((1, 2, 2, 1), (2, 1, 1, 2)),
]


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("table", TABLES)
@pytest.mark.parametrize("model", ["paired-beta-binomial", "paired-binomial"])
def test_probabilities_equal_exact_enumeration(metric, table, model):
    greater, equal, less, _, _ = brute.paired(model, *table, metric)
    r = compare_paired_cells(list(table), metric, model=model, tolerance=0, target="next_test_set")
    assert r.method == "exact"
    assert r.prob_greater == pytest.approx(float(greater), abs=1e-9)
    assert r.prob_equal == pytest.approx(float(equal), abs=1e-9)
    assert r.prob_less == pytest.approx(float(less), abs=1e-9)


@pytest.mark.parametrize("metric", METRICS)
def test_other_future_size_and_default_tolerance(metric):
    table = ((2, 1, 0, 2), (1, 0, 2, 3))
    greater, equal, less, _, _ = brute.paired("paired-beta-binomial", *table, metric, future=(7, 4))
    r = compare_paired_cells(list(table), metric, future_size=(7, 4), target="next_test_set")
    assert r.pruned_mass <= 2e-12
    assert (r.prob_greater, r.prob_equal, r.prob_less) == pytest.approx(
        (float(greater), float(equal), float(less)), abs=1e-9
    )


@pytest.mark.parametrize("metric", METRICS)
def test_difference_distribution_equals_enumeration(metric):
    table = ((2, 1, 0, 2), (1, 0, 2, 3))
    _, _, _, diff, _ = brute.paired("paired-beta-binomial", *table, metric)
    d = compare_paired_cells(list(table), metric, tolerance=0, target="next_test_set").difference
    ref_values = np.array(sorted(diff))
    ref_mass = np.array([float(diff[v]) for v in ref_values])
    assert d.values.tolist() == pytest.approx(ref_values.tolist(), abs=1e-12)
    assert d.probabilities == pytest.approx(ref_mass, abs=1e-12)
    assert d.pmf(0.0) == pytest.approx(float(sum(v for k, v in diff.items() if k == 0.0)), abs=1e-12)


def test_from_predictions_equals_cells():
    y = [1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0]
    a = [1, 1, 1, 0, 0, 1, 0, 0, 0, 0, 0]
    b = [1, 1, 0, 1, 0, 0, 1, 1, 0, 0, 0]
    # positives: both 2, only A 1, only B 1, neither 1; negatives: both 0, only A 1, only B 2, neither 3
    greater, equal, _, _, _ = brute.paired("paired-beta-binomial", (2, 1, 1, 1), (0, 1, 2, 3), "mcc")
    r = compare_paired(y, a, b, "mcc", tolerance=0, target="next_test_set")
    assert r.counts.positives == (2, 1, 1, 1) and r.counts.negatives == (0, 1, 2, 3)
    assert r.prob_greater == pytest.approx(float(greater), abs=1e-9)
    assert r.prob_equal == pytest.approx(float(equal), abs=1e-9)


@pytest.mark.parametrize("metric", ["accuracy", "mcc"])
def test_monte_carlo_agrees_within_its_standard_error(metric):
    table = [[30, 4, 2, 4], [3, 2, 5, 50]]
    exact = compare_paired_cells(table, metric, target="next_test_set")
    mc = compare_paired_cells(
        table, metric, method="monte-carlo", n_draws=200_000, random_state=1, target="next_test_set"
    )
    assert mc.method == "monte-carlo" and mc.mc_error > 0
    assert abs(mc.prob_greater - exact.prob_greater) <= 5 * mc.mc_error
    assert abs(mc.prob_equal - exact.prob_equal) <= 5 * np.sqrt(exact.prob_equal * (1 - exact.prob_equal) / 200_000)
