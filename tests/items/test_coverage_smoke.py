"""A seeded smoke version of ``benchmarks/coverage_items.py`` (the full table is in RESULTS.md): 200
test sets of 20 beta-binomial clusters of 10 items at ICC 0.5. The clustered interval must cover
near 95 % and the naive one far less — a method that ignored ``cluster=`` (or used the naive error
with C − 1 degrees of freedom) fails the first bound, one that always clustered fails the second."""

from __future__ import annotations

import numpy as np

import confusionlab as cl


def test_clustered_interval_covers_and_the_naive_one_does_not():
    rng = np.random.default_rng(11)
    cluster = np.repeat(np.arange(20), 10)
    covered = {"naive": 0, "clustered": 0}
    rejected = 0
    for _ in range(200):
        x = rng.binomial(1, rng.beta(0.7, 0.3, 20)[cluster]).astype(float)  # a + b = 1 → ICC ½
        r = cl.evaluate_items(x, cluster=cluster)
        lo, hi = r.naive_interval()
        covered["naive"] += lo <= 0.7 <= hi
        lo, hi = r.interval()
        covered["clustered"] += lo <= 0.7 <= hi
        a = rng.binomial(1, rng.beta(0.7, 0.3, 20)[cluster])
        b = rng.binomial(1, rng.beta(0.7, 0.3, 20)[cluster])
        rejected += cl.compare_items(a, b, cluster=cluster).p_value() <= 0.05
    assert covered["clustered"] / 200 >= 0.88  # 95 % ± 3 Monte Carlo standard errors and some
    assert covered["naive"] / 200 <= 0.75
    assert rejected / 200 <= 0.09  # the exact test's size is at most 5 %
