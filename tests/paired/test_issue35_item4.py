"""Issue 35 items 4 and 17 (paired speed): the exact paired interval where the difference has
millions of distinct values (degenerate MCC / F1 cells). The pairs are no longer visited beyond
``MAX_DIFFERENCE_POINTS``; the interval's ends come from exact tail masses. References: the
enumeration in exact rationals (tests/paired/paired_brute.py) with the bisection forced, and an
independent Monte Carlo of the paired beta-binomial model (Dirichlet(cells + ½) shares, then
multinomial counts; numpy only) for the issue's reproduction."""

from __future__ import annotations

import sys
import tracemalloc
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
import paired_brute as brute

import confusionlab as cl
from confusionlab.paired import _difference, compare_paired, compare_paired_cells


def _quantile(diff: dict[float, Fraction], q: float) -> float:
    values = sorted(diff)
    total = sum(diff.values())
    running = Fraction(0)
    for v in values:
        running += diff[v]
        if running >= Fraction(q) * total:
            return v
    return values[-1]


@pytest.mark.parametrize("metric", ["mcc", "f1", "accuracy"])
@pytest.mark.parametrize("table", [((2, 1, 0, 2), (1, 0, 2, 3)), ((4, 0, 0, 0), (0, 0, 0, 3))])
def test_bisected_interval_equals_exact_enumeration(monkeypatch, metric, table):
    monkeypatch.setattr(_difference, "MAX_DIFFERENCE_POINTS", 0)  # the binned difference, ends by bisection
    r = compare_paired_cells(list(table), metric, tolerance=0, target="next_test_set")
    assert r.difference.strategy.startswith("binned")
    _, _, _, diff, _ = brute.paired("paired-beta-binomial", *table, metric)
    for c in (0.5, 0.8, 0.95):
        expected = (_quantile(diff, (1 - c) / 2), _quantile(diff, (1 + c) / 2))
        assert r.interval(c) == pytest.approx(expected, abs=2e-12)


def _mcc(tp, fn, fp, tn):
    den = np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    return np.divide(tp * tn - fp * fn, den, out=np.zeros_like(den), where=den > 0)


def _simulated_difference(cells_pos, cells_neg, draws=200_000, seed=1):
    rng = np.random.default_rng(seed)
    out = []
    for cells in (cells_pos, cells_neg):
        shares = rng.dirichlet(np.asarray(cells, float) + 0.5, size=draws)
        out.append(rng.multinomial(sum(cells), shares))
    pos, neg = out
    p, n = sum(cells_pos), sum(cells_neg)
    tp_a, tp_b = pos[:, 0] + pos[:, 1], pos[:, 0] + pos[:, 2]
    fp_a, fp_b = neg[:, 0] + neg[:, 1], neg[:, 0] + neg[:, 2]
    a = _mcc(tp_a * 1.0, p - tp_a * 1.0, fp_a * 1.0, n - fp_a * 1.0)
    b = _mcc(tp_b * 1.0, p - tp_b * 1.0, fp_b * 1.0, n - fp_b * 1.0)
    return a - b


@pytest.mark.slow
def test_issue_reproduction_exact_within_memory_and_matches_simulation():
    """400 examples, no false positive for either classifier: 1.7·10⁷ distinct differences
    (10–45 s and 2.09 GB when visited); the interval from tail masses, exact as before to 1e-11
    ((-0.024139735992, 0.176030276897) when visited)."""
    yy = np.r_[np.ones(213, int), np.zeros(187, int)]
    a = np.r_[np.ones(174, int), np.zeros(226, int)]
    b = np.r_[np.ones(125, int), np.zeros(49, int), np.ones(30, int), np.zeros(196, int)]
    tracemalloc.start()
    r = compare_paired(yy, a, b, "mcc", target="next_test_set")
    lo, hi = r.interval()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 400 * 2**20  # 2.09 GB when every pair was visited
    assert r.method == "exact" and r.difference.strategy.startswith("binned")
    assert (lo, hi) == pytest.approx((-0.024139735992, 0.176030276897), abs=1e-11)
    sim = _simulated_difference(r.counts.positives, r.counts.negatives)
    assert np.quantile(sim, [0.025, 0.975]) == pytest.approx([lo, hi], abs=0.006)
    frame = r.to_frame()
    assert (frame.loc["A − B", "lower"], frame.loc["A − B", "upper"]) == (lo, hi)


@pytest.mark.slow
def test_agreement_cells_of_two_real_models_answer_quickly():
    """Item 17: RF vs LR's agreement cells at N = 300 (18.7 million distinct differences when
    visited); the interval against the simulation of the model."""
    n = [37, 9, 6, 24, 10, 1, 6, 207]
    yp = np.repeat([1, 1, 1, 1, 0, 0, 0, 0], n)
    a = np.repeat([1, 1, 0, 0, 1, 1, 0, 0], n)
    b = np.repeat([1, 0, 1, 0, 1, 0, 1, 0], n)
    r = cl.compare_paired(yp, a, b, "mcc", target="next_test_set")
    sim = _simulated_difference(r.counts.positives, r.counts.negatives)
    assert np.quantile(sim, [0.025, 0.975]) == pytest.approx(r.interval(), abs=0.006)
