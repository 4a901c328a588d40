"""Balanced accuracy's half-width against an exact brute force in rational arithmetic.

The brute force enumerates the next test set's lattice (TP', TN') with the exact masses of the
model (the beta-binomial posterior predictive under the uniform prior, or the binomial plug-in
at the observed rates), merges equal values through their integer keys ``n·TP' + p·TN'``, and
reads the central interval with the library's quantile rule (:meth:`MetricDistribution.ppf`):
the smallest value whose cdf reaches the level ``(1 ∓ c)/2``, the level and the cdf compared
exactly, with no slack.

A level may sit closer to a step of the cdf than the planner can resolve: its marginals drop
tails lighter than ``tolerance/2`` on each side (each drop moves the cdf by at most the mass
dropped), and its float sums round. There the exact rule is decided by masses the planner does
not hold, and the planner's answer is only required to be the exact answer at *some* level
within that distance; elsewhere (almost every case) the brute force pins it to one value.
"""

from __future__ import annotations

import functools
import itertools
import math
from fractions import Fraction

import pytest

from confusionlab.confusion import ConfusionMatrix
from confusionlab.metrics import get_metric
from confusionlab.planner._criterion import _Evaluator

from . import _reference as ref

#: The planner's pruning tolerance (the one of the property test against the reference).
TOLERANCE = 1e-12
#: Bound on the rounding of the planner's cdf on these small lattices (at most 26² atoms).
ROUNDING = 1e-13


def weights(model: str, successes: int, trials: int) -> list[int]:
    """Integer weights proportional to the exact predictive PMF over 0..trials.

    Beta-binomial with the uniform prior: BetaBin(m, a, b), a = s + 1, b = m − s + 1, whose
    PMF is C(m, k)·B(k + a, m − k + b)/B(a, b) ∝ C(m, k)·(k + a − 1)!·(m − k + b − 1)!.
    Binomial at the rate s/m: C(m, k)·s^k·(m − s)^(m − k) (over m^m).
    """
    m, s = trials, successes
    if model == "binomial":
        return [math.comb(m, k) * s**k * (m - s) ** (m - k) for k in range(m + 1)]
    a, b = s + 1, m - s + 1
    return [math.comb(m, k) * math.factorial(k + a - 1) * math.factorial(m - k + b - 1) for k in range(m + 1)]


def droppable(w: list[int]) -> Fraction:
    """Most mass the planner's pruning can remove from a marginal: from each end, the longest
    tail whose (exact) mass is below ``TOLERANCE/2``."""
    total, limit, dropped = sum(w), Fraction(TOLERANCE) / 2, Fraction(0)
    for side in (w, w[::-1]):
        tail = Fraction(0)
        for x in side:
            if tail + Fraction(x, total) > limit:
                break
            tail += Fraction(x, total)
        dropped += tail
    return dropped


def exact_pmf(model: str, p: int, n: int, tp: int, tn: int) -> tuple[list[int], list[int], int, Fraction]:
    """Balanced accuracy's PMF: the distinct keys ``n·TP' + p·TN'`` ascending (value key/(2pn)),
    their cumulative integer weights, the total weight, and the mass pruning may move."""
    wt, wn = weights(model, tp, p), weights(model, tn, n)
    mass: dict[int, int] = {}
    for (i, a), (j, b) in itertools.product(enumerate(wt), enumerate(wn)):
        if a and b:
            mass[n * i + p * j] = mass.get(n * i + p * j, 0) + a * b
    keys = sorted(mass)
    cdf = list(itertools.accumulate(mass[k] for k in keys))
    return keys, cdf, cdf[-1], droppable(wt) + droppable(wn)


def quantiles(keys: list[int], cdf: list[int], total: int, level: Fraction, slack: Fraction) -> list[int]:
    """Keys that are the exact quantile (smallest key whose cdf reaches it) of some level
    within ``slack`` of ``level``: one key unless a step of the cdf lies that close."""
    lo, hi = (level - slack) * total, (level + slack) * total
    return [k for i, k in enumerate(keys) if cdf[i] >= lo and (cdf[i - 1] if i else 0) < hi]


def exact_half_widths(model: str, p: int, n: int, tp: int, tn: int, confidence: float) -> set[Fraction]:
    """Every exact half-width at levels the planner cannot tell from ``(1 ∓ c)/2``."""
    keys, cdf, total, dropped = exact_pmf(model, p, n, tp, tn)
    slack = 2 * dropped + Fraction(ROUNDING)
    lows, highs = (
        quantiles(keys, cdf, total, Fraction(q), slack) for q in ((1 - confidence) / 2, (1 + confidence) / 2)
    )
    return {Fraction(b - a, 4 * p * n) for a in lows for b in highs}


@functools.cache
def evaluator(model: str, confidence: float) -> _Evaluator:
    """The planner's evaluator of balanced accuracy (uniform prior, tolerance ``TOLERANCE``)."""
    return _Evaluator(get_metric("balanced_accuracy"), 0.5, 0.5, 0.5, confidence, model, 1.0, TOLERANCE)


def planner_half_width(model: str, p: int, n: int, tp: int, tn: int, confidence: float) -> float:
    return evaluator(model, confidence).half_width(ConfusionMatrix(tp=tp, fn=p - tp, fp=n - tn, tn=tn))[0]


def test_the_exact_pmf_is_normalised_and_the_weights_are_the_model() -> None:
    # BetaBin(21, 1, 22) at 0 and 21: B(1, 43)/B(1, 22) = 22/43 and B(22, 22)/B(1, 22)
    w = weights("beta-binomial", 0, 21)
    assert Fraction(w[0], sum(w)) == Fraction(22, 43)
    assert Fraction(w[21], sum(w)) == Fraction(22 * math.factorial(21) ** 2, math.factorial(43))
    w = weights("binomial", 1, 3)
    assert [Fraction(x, sum(w)) for x in w] == [Fraction(8, 27), Fraction(12, 27), Fraction(6, 27), Fraction(1, 27)]


def test_the_hypothesis_example_p1_n21_is_a_quarter() -> None:
    """p = 1, n = 21, TP = TN = 0, c = 1/3: the upper level (1 + c)/2 is 2/3 up to 4e-17, the mass
    of TP' = 0 (BetaBin(1, 1, 2) at 0). All of it lies at or below key 21 (the value 1/2), but
    key 20 lacks the point TN' = 21 of mass (2/3)·22·21!²/43! ≈ 6.3e-13: the cdf is just short of
    the level there, so the 2/3 quantile is 1/2 and the interval [0, 1/2]. The reference used to
    compare the cdf with the level less 1e-12 and stopped at 20/42 (half-width 5/21)."""
    p, n, tp, tn, c = 1, 21, 0, 0, 1 / 3
    keys, cdf, total, dropped = exact_pmf("beta-binomial", p, n, tp, tn)
    level = Fraction((1 + c) / 2)
    short = Fraction(2, 3) * Fraction(22 * math.factorial(21) ** 2, math.factorial(43))
    assert (
        Fraction(cdf[keys.index(20)], total) == Fraction(2, 3) - short < level <= Fraction(cdf[keys.index(21)], total)
    )
    assert 6e-13 < short < 7e-13 and dropped == 0  # no tail is light enough to be pruned
    assert exact_half_widths("beta-binomial", p, n, tp, tn, c) == {Fraction(1, 4)}
    assert planner_half_width("beta-binomial", p, n, tp, tn, c) == 0.25
    assert ref.half_width_of("balanced_accuracy", tp, p - tp, n - tn, tn, c, "beta-binomial") == 0.25


#: Levels a few 1e-13 from a step of the cdf, pinned by the brute force (no tail light enough to
#: prune), where the reference's former comparison with the level less 1e-12 read the wrong atom
#: (found by the scan below over p, n ≤ 25; the classes swapped give the same distribution).
SIBLINGS = [
    ("beta-binomial", 1, 21, 0, 0, 1 / 3, Fraction(1, 4)),  # the example found by hypothesis
    ("beta-binomial", 21, 1, 0, 0, 1 / 3, Fraction(1, 4)),
    ("beta-binomial", 1, 21, 1, 0, 1 / 3, Fraction(0)),
    ("beta-binomial", 21, 1, 0, 1, 1 / 3, Fraction(0)),
    ("beta-binomial", 1, 23, 0, 1, 1 / 3, Fraction(11, 46)),
    ("beta-binomial", 1, 23, 1, 1, 1 / 3, Fraction(1, 92)),
    ("binomial", 2, 25, 1, 1, 0.5, Fraction(1, 8)),
    ("binomial", 25, 2, 1, 1, 0.5, Fraction(1, 8)),
    ("beta-binomial", 1, 20, 0, 0, 1 / 3, Fraction(1, 4)),  # 2.5e-12 short: always read right
]


@pytest.mark.parametrize(("model", "p", "n", "tp", "tn", "confidence", "expected"), SIBLINGS)
def test_levels_just_short_of_a_step_are_decided_exactly(model, p, n, tp, tn, confidence, expected) -> None:
    assert exact_half_widths(model, p, n, tp, tn, confidence) == {expected}
    assert planner_half_width(model, p, n, tp, tn, confidence) == pytest.approx(float(expected), abs=1e-12)
    got = ref.half_width_of("balanced_accuracy", tp, p - tp, n - tn, tn, confidence, model)
    assert got == pytest.approx(float(expected), abs=1e-12)


def scan() -> list[tuple[str, int, int, int, int]]:
    """Where levels fall on or next to steps: one class of one example under the beta-binomial
    (its two masses 1/3 and 2/3 are the levels at c = 1/3), every count of the other class; and
    of two under the binomial (at the rate 1/2 its masses are quarters, the levels at c = 1/2),
    the other class at its ends and its middle."""
    out = [("beta-binomial", 1, n, tp, tn) for n in range(1, 26) for tp in (0, 1) for tn in range(n + 1)]
    return out + [("binomial", 2, n, 1, tn) for n in range(1, 26) for tn in sorted({0, 1, n // 2, n - 1, n})]


def test_the_planner_and_the_reference_match_the_brute_force_on_a_scan() -> None:
    """Every case of :func:`scan` at c ∈ {1/3, 1/2, 0.9, 0.95}: the planner's half-width is one
    the brute force allows (the only one, unless a level is within the planner's resolution of
    a step), and the reference's equals the brute force's wherever that pins a single value."""
    pinned = loose = 0
    for (model, p, n, tp, tn), c in itertools.product(scan(), (1 / 3, 0.5, 0.9, 0.95)):
        allowed = exact_half_widths(model, p, n, tp, tn, c)
        h = planner_half_width(model, p, n, tp, tn, c)
        assert any(h == pytest.approx(float(x), abs=1e-12) for x in allowed), (model, p, n, tp, tn, c, h, allowed)
        if len(allowed) == 1:
            pinned += 1
            got = ref.half_width_of("balanced_accuracy", tp, p - tp, n - tn, tn, c, model)
            assert got == pytest.approx(float(*allowed), abs=1e-12), (model, p, n, tp, tn, c, got, allowed)
        else:
            loose += 1
    assert pinned > 20 * loose  # a level close to a step is the exception even here
