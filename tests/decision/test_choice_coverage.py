"""A fast, seeded smoke version of benchmarks/coverage_threshold.py: at the threshold chosen on the same
data the after-selection interval and the plausible set keep their level, where the pointwise interval
(a threshold fixed in advance) falls short. The truth comes from scipy's normal distributions."""

from __future__ import annotations

import numpy as np
from scipy import stats

import confusionlab as cl

MU, PREVALENCE, SIZE, REPS = 1.5, 0.5, 200, 150


def _true_cost(t: float) -> float:
    return (1 - PREVALENCE) * stats.norm.sf(t) + PREVALENCE * stats.norm.cdf(t - MU)


def test_after_selection_statements_keep_their_level_where_the_pointwise_interval_does_not():
    t_star = MU / 2  # equal costs, equal variances, prevalence ½: the densities cross half-way
    rng = np.random.default_rng(36)
    hits = {"after": 0, "pointwise": 0, "plausible": 0}
    y = np.arange(SIZE) < SIZE * PREVALENCE  # classes of fixed size (the band's statements are given them)
    for _ in range(REPS):
        s = rng.normal(size=SIZE) + MU * y
        choice = cl.choose_threshold(y, s, cost=(1, 1))
        truth = _true_cost(choice.threshold)
        lo, hi = choice.interval()
        hits["after"] += lo <= truth <= hi
        lo, hi = choice.interval(kind="pointwise")
        hits["pointwise"] += lo <= truth <= hi
        hits["plausible"] += choice.is_plausible(t_star)
    assert hits["after"] / REPS >= 0.97
    assert hits["plausible"] / REPS >= 0.97
    assert hits["pointwise"] / REPS < 0.95  # the naive interval after selection: optimistic
