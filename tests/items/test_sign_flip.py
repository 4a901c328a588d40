"""The sign-flip test of compare_items against brute force: every one of the 2^C sign patterns of
the clusters' summed differences enumerated with ``fractions.Fraction`` (exact rationals), the
p-value counted as a fraction of 2^C."""

from __future__ import annotations

import itertools
import time
from fractions import Fraction

import numpy as np
import pytest

import confusionlab as cl
from confusionlab.items._sign_flip import convolution_work, score_grid


def _brute_force(a, b, item, cluster, alternative):
    """P(T* ⋚ T) over every sign pattern, in exact rationals from the rows."""
    a = [Fraction(x).limit_denominator(1000) for x in a]
    b = [Fraction(x).limit_denominator(1000) for x in b]
    rows: dict = {}
    for x, y, i, c in zip(a, b, item, cluster, strict=True):
        rows.setdefault((c, i), []).append(x - y)
    sums: dict = {}
    for (c, _), d in rows.items():
        sums[c] = sums.get(c, Fraction(0)) + sum(d, Fraction(0)) / len(d)
    s = list(sums.values())
    observed = sum(s, Fraction(0))
    hits = 0
    for signs in itertools.product((1, -1), repeat=len(s)):
        t = sum((e * v for e, v in zip(signs, s, strict=True)), Fraction(0))
        if alternative == "greater":
            hits += t >= observed
        elif alternative == "less":
            hits += t <= observed
        else:
            hits += abs(t) >= abs(observed)
    return Fraction(hits, 2 ** len(s))


def _clustered(rng, clusters, size, k, levels):
    item = np.repeat(np.arange(clusters * size), k)
    cluster = item // size
    effect = rng.normal(0, 1, clusters)[cluster]
    a = rng.choice(levels, size=item.size) * (effect > -0.5)
    b = rng.choice(levels, size=item.size)
    return a.astype(float), b.astype(float), item, cluster


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@pytest.mark.parametrize(
    ("seed", "size", "k", "levels"),
    [(0, 3, 1, [0, 1]), (1, 4, 2, [0, 1]), (2, 2, 3, [0, 0.5, 1]), (3, 5, 1, [0, 0.25, 0.5, 0.75, 1])],
)
def test_exact_p_value_equals_brute_force_at_12_clusters(seed, size, k, levels, alternative):
    a, b, item, cluster = _clustered(np.random.default_rng(seed), 12, size, k, levels)
    c = cl.compare_items(a, b, item=item, cluster=cluster)
    test = c.test(alternative)
    assert (test.method, test.how) == ("exact", "convolution")
    assert test.p_value == float(_brute_force(a, b, item, cluster, alternative))


def test_unequal_rows_per_item_still_convolve_exactly():
    rng = np.random.default_rng(4)
    item = np.repeat(np.arange(20), rng.integers(1, 5, 20))  # 1 to 4 rows an item: scale lcm = 12
    cluster = item // 2
    a, b = rng.integers(0, 2, item.size).astype(float), rng.integers(0, 2, item.size).astype(float)
    test = cl.compare_items(a, b, item=item, cluster=cluster).test()
    assert test.how == "convolution" and test.scale % 12 == 0
    assert test.p_value == float(_brute_force(a, b, item, cluster, "two-sided"))


def test_scores_off_a_grid_are_enumerated_exactly_up_to_20_clusters():
    rng = np.random.default_rng(5)
    a, b = rng.uniform(size=30), rng.uniform(size=30)  # no common denominator
    cluster = np.arange(30) // 3
    test = cl.compare_items(a, b, cluster=cluster).test()
    assert (test.method, test.how, test.scale) == ("exact", "enumeration", None)
    sums = np.bincount(cluster, weights=a - b)
    signs = np.array(list(itertools.product((1, -1), repeat=10)))
    assert test.p_value == pytest.approx(float(np.mean(np.abs(signs @ sums) >= abs(sums.sum()) - 1e-12)), abs=1e-15)


def test_beyond_enumeration_the_p_value_is_monte_carlo_and_says_so():
    rng = np.random.default_rng(6)
    a, b = rng.uniform(size=120), rng.uniform(size=120) + 0.05
    cluster = np.arange(120) // 3  # 40 clusters, scores off any grid
    c = cl.compare_items(a, b, cluster=cluster)
    test = c.test(n_draws=20_000, random_state=1)
    assert (test.method, test.how, test.n_draws) == ("monte-carlo", "random signs", 20_000)
    assert 0 < test.mc_error < 0.01
    # the normal limit of the sign-flip statistic (variance Σ s_c²) is close at 40 clusters
    sums = np.bincount(cluster, weights=a - b)
    from scipy import stats

    normal = 2 * stats.norm.sf(abs(sums.sum()) / np.sqrt(np.sum(sums**2)))
    assert test.p_value == pytest.approx(normal, abs=0.03)
    assert c.to_frame()["method"].item() == "monte-carlo"


def test_score_grid_finds_partial_credit():
    assert score_grid(np.array([0.0, 0.5, 1.0])) == 2
    assert score_grid(np.array([0.0, 0.25, 1 / 3])) == 12
    assert score_grid(np.array([0.0, 0.1234567])) is None


def test_identical_systems_give_p_one_and_zero_difference():
    a = np.array([1.0, 0, 1, 1, 0, 1])
    c = cl.compare_items(a, a.copy(), cluster=[0, 0, 1, 1, 2, 2])
    assert c.value == 0.0 and c.p_value() == 1.0 and c.test().units == 0


def test_fifty_clusters_of_twenty_are_exact_and_quick():
    """SPEC G3 asks for well under a second; the time is printed (measured), not asserted."""
    rng = np.random.default_rng(7)
    a, b, item, cluster = _clustered(rng, 50, 20, 1, [0, 1])
    c = cl.compare_items(a, b, item=item, cluster=cluster)
    start = time.perf_counter()
    test = c.test()
    elapsed = time.perf_counter() - start
    print(f"exact sign-flip p-value, 50 clusters of 20: {elapsed * 1e3:.1f} ms, work {test.work:.3g}")
    assert test.method == "exact" and test.how == "convolution" and test.units <= 50
    # the convolution never exceeds 3 passes over 2·Σ|s_c| + 1 entries per cluster
    assert convolution_work(np.array([20] * 50)) <= 3 * 50 * (2 * 1000 + 1)


def test_monte_carlo_work_is_bounded_before_drawing():
    c = cl.compare_items(np.linspace(0, 1, 60) ** 2, np.linspace(0, 1, 60) ** 3, cluster=np.arange(60) // 2)
    with pytest.raises(cl.InvalidParameterError, match="n_draws=1,000,000,000 random sign patterns"):
        c.p_value(n_draws=10**9)
    with pytest.raises(cl.InvalidParameterError, match="alternative"):
        c.p_value("bigger")
    with pytest.raises(cl.InvalidParameterError, match="random_state"):
        c.test(random_state="x")
