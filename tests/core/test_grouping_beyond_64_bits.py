"""Issue 21: exact grouping beyond 64 bits decides exact ties in array operations.

A symmetric MCC slice (p = n, the same rates: MCC(TP, TN) = MCC(TN, TP)) ties half its points
with their mirrors; group_clustered made a Fraction of every tied point (25 s at p = n = 50,000,
4 s now). Expected groupings come from fractions.Fraction brute force, and the work bound is
counted (the points handed to the Fraction path), not timed.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

import numpy as np
import pytest

import confusionlab as cl
import confusionlab.distribution.pushforward as pushforward_module
import confusionlab.grouping as grouping_module
from confusionlab.grouping import group_clustered


def _brute(exact: list[Fraction], w: np.ndarray) -> tuple[list[Fraction], list[float], list[int]]:
    mass: dict[Fraction, float] = defaultdict(float)
    count: dict[Fraction, int] = defaultdict(int)
    for x, wi in zip(exact, w, strict=True):
        mass[x] += float(wi)
        count[x] += 1
    keys = sorted(mass)
    return keys, [mass[k] for k in keys], [count[k] for k in keys]


@pytest.mark.parametrize("with_pairs", [False, True])
def test_close_runs_with_equal_and_unequal_members_group_exactly(with_pairs):
    """Runs of identical doubles holding equal values (mirror ties) and distinct values
    (2**70 + 1 against 2**70 over 3·2**70) are both grouped as Fraction says."""
    big = 2**70
    nums = [big, big + 1, 2 * big, big, 7, 14, big + 1, 5 * big, 3]
    dens = [3 * big, 3 * big, 6 * big, 3 * big, 9, 18, 3 * big, 6 * big, 4]
    exact = [Fraction(a, b) for a, b in zip(nums, dens, strict=True)]
    ratio = np.array([a / b for a, b in zip(nums, dens, strict=True)])
    w = np.arange(1, len(nums) + 1) / sum(range(1, len(nums) + 1))
    seen = []

    def exact_ratios(members):
        seen.extend(members.tolist())
        return [exact[i] for i in members]

    def exact_pairs(members):
        return (np.array([nums[i] for i in members], dtype=object), np.array([dens[i] for i in members], dtype=object))

    got = group_clustered(ratio, w, exact_ratios, lambda r: r, exact_pairs if with_pairs else None)
    keys, masses, counts = _brute(exact, w)
    np.testing.assert_array_equal(got.values, [float(k) for k in keys])
    np.testing.assert_allclose(got.masses, masses, rtol=1e-15)
    np.testing.assert_array_equal(got.counts, counts)
    if with_pairs:  # only the run holding 1/3 and (2**70 + 1)/(3·2**70) needs Fractions
        assert sorted(set(seen)) == [0, 1, 2, 3, 6]


def test_a_symmetric_mcc_slice_beyond_64_bits_needs_no_fraction_per_tie(monkeypatch):
    """p = n = 60,000 (MCC's exact keys beyond int64), rates 0.85 and 0.85: the distribution
    equals the Fraction path's (the old code, exact_pairs=None) value for value, and the
    Fraction path is handed none of the mirror ties (old code: every tied point, ≈ half)."""
    handed = {"with": 0, "without": 0}
    original = grouping_module.group_clustered

    def run(exact_pairs, key):
        def counting(members):
            handed[key] += members.size
            return keep_ratios(members)

        return original(keep_args[0], keep_args[1], counting, keep_args[3], exact_pairs)

    results = {}

    def spy(ratio, weights, exact_ratios, value_of, exact_pairs=None):
        nonlocal keep_ratios, keep_args
        keep_ratios, keep_args = exact_ratios, (ratio, weights, exact_ratios, value_of)
        results["without"] = run(None, "without")
        results["with"] = run(exact_pairs, "with")
        return results["with"]

    keep_ratios = keep_args = None
    monkeypatch.setattr(pushforward_module, "group_clustered", spy)
    cm = cl.ConfusionMatrix.from_rates(60_000, 60_000, 0.85, 0.85)
    d = cl.metric_distribution(cm, "mcc", tolerance=0.01)
    assert d.strategy == "float+exact-ties"
    a, b = results["with"], results["without"]
    np.testing.assert_array_equal(a.values, b.values)
    np.testing.assert_array_equal(a.counts, b.counts)
    np.testing.assert_allclose(a.masses, b.masses, rtol=1e-12)
    assert int((b.counts == 2).sum()) > d.values.size // 3  # mirror ties are common here
    assert handed["without"] >= 2 * int((b.counts == 2).sum())
    assert handed["with"] <= handed["without"] // 100
