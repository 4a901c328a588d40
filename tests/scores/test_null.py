"""The exact null distribution of the AUC given ties, against enumeration and scipy."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest
from scipy.stats import mannwhitneyu

import confusionlab as cl
from confusionlab.scores import EXACT_WORK_LIMIT


def _twice_u(pos: list[float], neg: list[float]) -> int:
    return sum(2 if x > y else 1 if x == y else 0 for x in pos for y in neg)


def enumerate_null(scores: list[float], p: int) -> dict[Fraction, Fraction]:
    """P(AUC = a) over every choice of which p examples are the positives (Fractions)."""
    counts: Counter[int] = Counter()
    index = range(len(scores))
    for chosen in combinations(index, p):
        chosen_set = set(chosen)
        pos = [scores[i] for i in chosen]
        neg = [scores[i] for i in index if i not in chosen_set]
        counts[_twice_u(pos, neg)] += 1
    total = sum(counts.values())
    n = len(scores) - p
    return {Fraction(u, 2 * p * n): Fraction(c, total) for u, c in counts.items()}


CASES = [
    ([1, 1, 2, 2, 2, 3, 4, 4, 5], 4),
    ([0, 0, 0, 0, 1, 1, 1, 2, 2, 3], 3),
    ([0, 0, 0, 0, 1, 1, 1, 2, 2, 3], 7),  # the negatives are the smaller class
    ([5, 5, 5, 5, 5, 5, 1, 9], 4),
    ([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], 5),  # no ties
    ([0.5] * 5 + [0.7] * 5 + [0.2] * 2, 6),
]


@pytest.mark.parametrize(("scores", "p"), CASES)
def test_null_distribution_is_the_enumeration(scores, p):
    rng = np.random.default_rng(len(scores) + p)
    y = np.zeros(len(scores), dtype=int)
    y[rng.choice(len(scores), p, replace=False)] = 1
    curve = cl.roc_curve(y, np.array(scores, dtype=float))
    dist = curve.null_distribution()
    expected = enumerate_null(scores, p)
    assert sorted(expected) == pytest.approx(dist.values.tolist(), abs=1e-15)
    for value, prob in zip(dist.values.tolist(), dist.probabilities.tolist(), strict=True):
        exact = expected[Fraction(value).limit_denominator(10**6)]
        assert prob == pytest.approx(float(exact), rel=1e-13)
    observed = Fraction(_twice_u(list(np.array(scores)[y == 1]), list(np.array(scores)[y == 0])), 2 * p * (len(y) - p))
    greater = sum(q for a, q in expected.items() if a >= observed)
    less = sum(q for a, q in expected.items() if a <= observed)
    assert curve.p_value("greater") == pytest.approx(float(greater), rel=1e-13)
    assert curve.p_value("less") == pytest.approx(float(less), rel=1e-13)
    assert curve.p_value("two-sided") == pytest.approx(min(1.0, 2 * float(min(greater, less))), rel=1e-13)
    assert curve.p_value().method == "exact"
    assert dist.cdf(float(observed)) == pytest.approx(float(less), rel=1e-13)
    assert dist.sf(float(observed)) == pytest.approx(float(greater - expected.get(observed, 0)), rel=1e-12, abs=1e-300)
    assert dist.mean() == pytest.approx(0.5, abs=1e-14)


@pytest.mark.parametrize(
    ("m", "n", "seed"), [(8, 12, 0), (7, 13, 6), (13, 7, 7), (30, 25, 1), (60, 60, 2), (200, 200, 3)]
)
@pytest.mark.parametrize("alternative", ["greater", "less", "two-sided"])
def test_without_ties_it_is_scipys_exact_mann_whitney(m, n, seed, alternative):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=m + n) + 0.25 * np.r_[np.ones(m), np.zeros(n)]
    y = np.r_[np.ones(m, dtype=int), np.zeros(n, dtype=int)]
    reference = mannwhitneyu(x[:m], x[m:], method="exact", alternative=alternative).pvalue
    assert cl.roc_curve(y, x).p_value(alternative) == pytest.approx(reference, rel=1e-9)


@pytest.mark.parametrize("alternative", ["greater", "less", "two-sided"])
def test_normal_approximation_is_scipys_asymptotic_with_ties(alternative):
    rng = np.random.default_rng(9)
    x = np.round(rng.normal(size=500) + 0.2 * np.r_[np.ones(200), np.zeros(300)], 1)
    y = np.r_[np.ones(200, dtype=int), np.zeros(300, dtype=int)]
    reference = mannwhitneyu(x[:200], x[200:], method="asymptotic", alternative=alternative).pvalue
    got = cl.roc_curve(y, x).p_value(alternative, method="normal")
    assert got.method == "normal" and got == pytest.approx(reference, rel=1e-9)


def test_exact_at_200_plus_200_with_ties_agrees_with_the_normal_approximation_roughly():
    rng = np.random.default_rng(4)
    y = np.r_[np.ones(200, dtype=int), np.zeros(200, dtype=int)]
    x = np.round(rng.normal(size=400) + 0.2 * y, 1)
    curve = cl.roc_curve(y, x)
    exact = curve.p_value()
    assert exact.method == "exact"
    assert float(exact) == pytest.approx(float(curve.p_value(method="normal")), rel=0.05)
    assert curve.null_distribution().probabilities.sum() == pytest.approx(1.0, abs=1e-12)


def test_beyond_the_exact_size_the_normal_approximation_is_labelled():
    rng = np.random.default_rng(5)
    y = np.r_[np.ones(2000, dtype=int), np.zeros(2000, dtype=int)]
    curve = cl.roc_curve(y, rng.normal(size=4000) + 0.1 * y)
    p = curve.p_value()
    assert p.method == "normal" and 0 < p < 1
    with pytest.raises(cl.TooLargeError, match="p_value"):
        curve.null_distribution()
    assert EXACT_WORK_LIMIT >= 8e8  # 200 + 200 stays exact


def test_constant_scores_have_a_point_null():
    y = np.r_[np.ones(5, dtype=int), np.zeros(7, dtype=int)]
    curve = cl.roc_curve(y, np.full(12, 0.3))
    dist = curve.null_distribution()
    assert dist.values.tolist() == [0.5] and dist.probabilities.tolist() == [1.0]
    assert curve.p_value() == 1.0


def _random_blocks(rng: np.random.Generator, total: int) -> np.ndarray:
    """Tie-block sizes summing to ``total``: runs of singletons mixed with blocks up to 12."""
    sizes, left = [], total
    while left:
        t = int(min(left, rng.choice([1, 1, 1, 2, 3, rng.integers(4, 13)])))
        sizes.append(t)
        left -= t
    return np.array(sizes, dtype=np.int64)


@pytest.mark.parametrize("seed", range(6))
def test_the_cut_rows_count_the_tail_exactly(seed):
    """_count(limit=L) keeps only cells that can still end at 2U ≤ L: its counts of 2U = 0…L must
    be the whole distribution's (the cut is the bound u + 2(s − c)(i − c), reasoned in _count)."""
    from confusionlab.scores._null import _count

    rng = np.random.default_rng(seed)
    total = int(rng.integers(12, 60))
    small = int(rng.integers(1, total // 2 + 1))
    sizes = _random_blocks(rng, total)
    full, scale = _count(sizes, small)
    assert scale == 0.0
    top = 2 * small * (total - small)
    for limit in sorted({0, 1, top // 5, top // 3, top // 2, top - 1, top, int(rng.integers(0, top + 1))}):
        cut, _ = _count(sizes, small, limit)
        np.testing.assert_array_equal(cut, full[: limit + 1])


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("alternative", ["greater", "less", "two-sided"])
def test_the_tail_p_value_is_the_whole_distributions(seed, alternative):
    """p_value counts only the tail(s) it needs; the number is the whole distribution's, either
    class the smaller, near the centre and far in a tail."""
    rng = np.random.default_rng(100 + seed)
    p, n = (int(v) for v in rng.integers(3, 40, 2))
    y = np.r_[np.ones(p, dtype=int), np.zeros(n, dtype=int)]
    x = np.round(rng.normal(size=p + n) + [0.0, 0.4, 1.5, -1.0][seed % 4] * y, 1)
    curve = cl.roc_curve(y, x)
    from confusionlab.scores._null import observed_twice_u

    whole = curve.null_distribution().p_value_at(observed_twice_u(curve._scores), alternative)
    assert curve.p_value(alternative) == pytest.approx(float(whole), rel=1e-12, abs=1e-300)


def test_the_whole_distribution_is_scipys_at_200_plus_200_without_ties():
    """scipy's exact Mann–Whitney distribution (its _MWU, the pmf of U up to pn/2): our AUC null
    distribution without ties at 200 + 200, pmf and both tails, to 1e-12 relative over the
    central half (scipy's recursion subtracts; far out its own rounding dominates)."""
    from scipy.stats._mannwhitneyu import _MWU

    rng = np.random.default_rng(12)
    y = np.r_[np.ones(200, dtype=int), np.zeros(200, dtype=int)]
    curve = cl.roc_curve(y, rng.normal(size=400) + 0.1 * y)
    dist = curve.null_distribution()
    assert dist.twice_u.tolist() == list(range(0, 2 * 200 * 200 + 1, 2))
    ours = dist.probabilities[: 200 * 100 + 1]  # U = 0 … pn/2
    mwu = _MWU(200, 200)
    theirs = mwu.pmf(np.arange(200 * 100 + 1))
    centre = slice(10_000, 20_001)  # U from pn/4 to pn/2
    np.testing.assert_allclose(ours[centre], theirs[centre], rtol=1e-12)
    np.testing.assert_allclose(ours[:10_000], theirs[:10_000], rtol=1e-6)
    # the tails: P(U ≤ u) from the left by both
    u = np.array([12_000, 15_000, 18_000, 20_000])
    np.testing.assert_allclose(np.cumsum(ours)[u], mwu.cdf(u), rtol=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_the_windowed_tail_is_the_whole_distributions_tail(seed):
    """_tail_windowed carries only each row's window and counts the cells sure to end in the tail
    with their completions at once; P(2U ≤ L) must equal the whole distribution's prefix sum, in
    the tail as in the centre (relative 1e-12)."""
    from confusionlab.scores._null import _count, _tail_windowed

    rng = np.random.default_rng(50 + seed)
    total = int(rng.integers(10, 70))
    small = int(rng.integers(1, total // 2 + 1))
    sizes = _random_blocks(rng, total)
    full, _ = _count(sizes, small)
    cdf = np.cumsum(full / full.sum())
    top = 2 * small * (total - small)
    for limit in sorted({-1, 0, 1, 2, top // 7, top // 3, top // 2, top - 2, top - 1, top, int(rng.integers(0, top))}):
        expected = 0.0 if limit < 0 else float(cdf[limit])
        assert _tail_windowed(sizes, small, limit) == pytest.approx(expected, rel=1e-12, abs=1e-300), limit


def _enumerated_tail(sizes: list[int], small: int) -> list[Fraction]:
    """P(2U ≤ L) for L = 0 … 2s·o by enumerating every choice of the counted examples (Fractions),
    the blocks' examples laid out in order."""
    scores = [b for b, t in enumerate(sizes) for _ in range(t)]
    counts: Counter[int] = Counter()
    index = range(len(scores))
    for chosen in combinations(index, small):
        chosen_set = set(chosen)
        counted = [scores[k] for k in chosen]
        rest = [scores[k] for k in index if k not in chosen_set]
        counts[_twice_u(counted, rest)] += 1
    total = sum(counts.values())
    top = 2 * small * (len(scores) - small)
    out, running = [], 0
    for limit in range(top + 1):
        running += counts.get(limit, 0)
        out.append(Fraction(running, total))
    return out


@pytest.mark.parametrize(
    ("sizes", "small"),
    [
        ([3, 1, 4, 1, 5], 4),
        ([1, 1, 6, 1, 1, 2], 3),
        ([2, 7, 2, 1], 6),  # the counted class as large as the other
        ([1] * 12, 3),  # no ties
        ([12], 5),  # one block: a point null
        ([1, 2, 1, 3, 1, 2, 1, 1], 2),  # a small class: its rows' windows start far from 0
        ([5, 1, 1, 1, 1, 1, 5], 1),
    ],
)
@pytest.mark.parametrize("planned", [None, 1, 5])
def test_the_windowed_tail_is_the_enumeration(sizes, small, planned, monkeypatch):
    """Every tail P(2U ≤ L) of the windowed count (rows kept to their windows and indexed from the
    window's start, each (row, share) added by one daxpy, sure cells counted with their
    completions) against brute-force enumeration with fractions.Fraction, for every L; also with
    the updates planned a few (block, row, share) at a time (``planned``: one block per plan)."""
    from confusionlab.scores import _null
    from confusionlab.scores._null import _tail_windowed

    if planned is not None:
        monkeypatch.setattr(_null, "_PLAN_TRIPLES", planned)
    blocks = np.array(sizes, dtype=np.int64)
    expected = _enumerated_tail(sizes, small)
    for limit, exact in enumerate(expected):
        got = _tail_windowed(blocks, small, limit)
        assert got == pytest.approx(float(exact), rel=1e-13, abs=1e-300), limit
    assert _tail_windowed(blocks, small, -1) == 0.0


@pytest.mark.parametrize("seed", range(20))
def test_the_windowed_tail_on_random_tie_patterns(seed):
    """Seeded tie patterns, either class sizes (down to one counted example against many): every
    tenth tail and the extreme ones equal the whole distribution's cdf to 1e-12 relative."""
    from confusionlab.scores._null import _count, _tail_windowed

    rng = np.random.default_rng(700 + seed)
    total = int(rng.integers(2, 90))
    small = int(rng.integers(1, total // 2 + 1)) if seed % 3 else min(int(rng.integers(1, 4)), total // 2 or 1)
    sizes = _random_blocks(rng, total)
    full, _ = _count(sizes, small)
    cdf = np.cumsum(full / full.sum())
    top = 2 * small * (total - small)
    limits = {*range(0, top + 1, max(1, top // 10)), 1, 2, top - 2, top - 1, top}
    for limit in sorted(k for k in limits if 0 <= k <= top):
        assert _tail_windowed(sizes, small, limit) == pytest.approx(float(cdf[limit]), rel=1e-12, abs=1e-300)


def test_the_counting_runs_blas_on_one_thread(monkeypatch):
    """Each (row, block share) is one daxpy; with OpenBLAS's threads on a busy machine the p-value at
    200 + 200 took 4.8 s instead of 0.1 s, so the counting limits BLAS to one thread. The caller
    asks for 2 threads here (so the check can fail on any machine); every daxpy must see 1."""
    from threadpoolctl import ThreadpoolController, threadpool_limits

    from confusionlab.scores import _null

    seen: list[int] = []
    real = _null.daxpy

    def spy(*args, **kwargs):
        if not seen:
            seen.extend(lib["num_threads"] for lib in ThreadpoolController().select(user_api="blas").info())
        return real(*args, **kwargs)

    monkeypatch.setattr(_null, "daxpy", spy)
    rng = np.random.default_rng(3)
    y = np.r_[np.ones(12, dtype=int), np.zeros(15, dtype=int)]
    curve = cl.roc_curve(y, np.round(rng.normal(size=27), 1))  # U near its mean: both tails counted
    with threadpool_limits(2, user_api="blas"):
        assert ThreadpoolController().select(user_api="blas").info()[0]["num_threads"] == 2
        curve.p_value("two-sided")
        assert seen and set(seen) == {1}
        seen.clear()
        curve.null_distribution()
        assert seen and set(seen) == {1}


def _rank_sum_counts(scores: np.ndarray, small: int) -> dict[int, int]:
    """Exact integer counts of 2U over every choice of ``small`` examples, from the rank-sum
    generating function ``Π_examples (1 + y·x^{2·midrank})`` (object arrays of Python ints):
    2U = 2W − s(s + 1), W the chosen examples' midrank sum. Independent of the tie-block
    recursion of the code under test."""
    sizes = np.unique(scores, return_counts=True)[1]
    twice_mid = (2 * (np.cumsum(sizes) - sizes) + sizes + 1).tolist()  # 2·midrank of each block
    top = sum(sorted((k for k, t in zip(twice_mid, sizes.tolist(), strict=True) for _ in range(t)))[-small:])
    f = np.zeros((small + 1, top + 1), dtype=object)
    f[0, 0] = 1
    for k, t in zip(twice_mid, sizes.tolist(), strict=True):
        for _ in range(t):  # one example of the block: chosen (c + 1, 2W + k) or not
            f[1:, k:] = f[1:, k:] + f[:-1, : top + 1 - k]
    row = f[small]
    base = small * (small + 1)
    return {int(w) - base: int(row[w]) for w in np.flatnonzero(row != 0)}


@pytest.mark.parametrize(
    ("scores", "p"),
    [
        ([1, 1, 2, 2, 2, 3, 4, 4, 5, 5], 5),
        ([0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 3, 3], 6),
        ([1, 2, 3, 4, 5, 6, 7, 8], 4),  # no ties
        ([7, 7, 7, 7, 7, 7], 3),  # one block: a point null
    ],
)
def test_equal_classes_count_half_and_mirror_as_the_enumeration(scores, p):
    """With p = n the distribution is symmetric about AUC ½ (swapping the classes), so only
    2U ≤ pn is counted and mirrored: every probability equals brute-force enumeration."""
    y = np.r_[np.ones(p, int), np.zeros(len(scores) - p, int)]
    dist = cl.roc_curve(
        y, np.array(scores, dtype=float)[np.random.default_rng(p).permutation(len(scores))]
    ).null_distribution()
    expected = enumerate_null(scores, p)
    assert dist.values.tolist() == pytest.approx(sorted(float(a) for a in expected), abs=1e-15)
    for value, prob in zip(dist.values.tolist(), dist.probabilities.tolist(), strict=True):
        assert prob == pytest.approx(float(expected[Fraction(value).limit_denominator(10**6)]), rel=1e-13)


@pytest.mark.parametrize("seed", range(3))
def test_equal_classes_with_ties_at_30_plus_30_are_the_rank_sum_polynomial(seed):
    """p = n = 30 with ties (one or no decimals): the halved and mirrored count against exact
    integers of the rank-sum generating function, every probability to 1e-13 relative (the far
    tails included)."""
    rng = np.random.default_rng(90 + seed)
    y = np.r_[np.ones(30, int), np.zeros(30, int)]
    scores = np.round(rng.normal(0.4 * y, 1.0), seed % 2)
    dist = cl.roc_curve(y, scores).null_distribution()
    counts = _rank_sum_counts(scores, 30)
    total = sum(counts.values())
    assert total == math.comb(60, 30)
    assert dist.twice_u.tolist() == sorted(counts)
    expected = [float(Fraction(counts[u], total)) for u in dist.twice_u.tolist()]
    np.testing.assert_allclose(dist.probabilities, expected, rtol=1e-13, atol=0)


@pytest.mark.parametrize("alternative", ["greater", "less", "two-sided"])
def test_a_tie_block_larger_than_a_double_binomial_takes_the_exact_tail(alternative):
    """A block of 1,035 tied scores (C(1035, 517) is beyond a double) with 2 positives: the exact
    tail used to raise OverflowError building the block's binomials; it is the rank-sum polynomial's
    exact integers (only shares up to the smaller class are needed, and those fit)."""
    scores = np.r_[np.full(1035, 0.5), [0.1, 0.2, 0.3, 0.7, 0.8, 0.9]]
    y = np.zeros(scores.size, int)
    y[[1035, 1039]] = 1  # one positive below the block, one above it
    curve = cl.roc_curve(y, scores)
    p_value = curve.p_value(alternative, method="exact")
    counts = _rank_sum_counts(scores, 2)  # the positives are the smaller class
    total = sum(counts.values())
    observed = _twice_u(scores[y == 1].tolist(), scores[y == 0].tolist())
    greater = Fraction(sum(v for u, v in counts.items() if u >= observed), total)
    less = Fraction(sum(v for u, v in counts.items() if u <= observed), total)
    expected = {"greater": greater, "less": less, "two-sided": min(1, 2 * min(greater, less))}[alternative]
    assert p_value.method == "exact"
    assert float(p_value) == pytest.approx(float(expected), rel=1e-13)
