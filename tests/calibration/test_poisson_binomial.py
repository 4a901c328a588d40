"""The Poisson-binomial PMF against exact rational arithmetic, brute force and scipy's binomial."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from confusionlab.calibration import central_interval, poisson_binomial_pmf
from confusionlab.distribution import MetricDistribution


def _exact_dp(numerators, denominator):
    """PMF by the O(k²) recursion, exactly: integer coefficients of ∏((d − n) + n·x), over d^k."""
    coefficients = [1]
    for n in (int(v) for v in numerators):
        shifted = [0, *coefficients]
        coefficients = [(denominator - n) * a + n * b for a, b in zip([*coefficients, 0], shifted, strict=True)]
    scale = denominator ** len(numerators)
    return [Fraction(c, scale) for c in coefficients]


def _brute_force(probabilities):
    """PMF by summing the probability of every one of the 2^k outcome vectors."""
    k = len(probabilities)
    pmf = [Fraction(0)] * (k + 1)
    for outcome in itertools.product((0, 1), repeat=k):
        weight = Fraction(1)
        for y, q in zip(outcome, probabilities, strict=True):
            weight *= q if y else 1 - q
        pmf[sum(outcome)] += weight
    return pmf


def _l1(computed, exact):
    return float(sum(abs(Fraction(float(a)) - b) for a, b in zip(computed, exact, strict=True)))


@pytest.mark.parametrize("k", [1, 2, 3, 7, 12])
def test_equals_brute_force_over_every_outcome(k):
    rng = np.random.default_rng(k)
    numerators = rng.integers(0, 257, k)
    exact = _brute_force([Fraction(int(n), 256) for n in numerators])
    pb = poisson_binomial_pmf(numerators / 256)
    assert pb.pmf.size == k + 1
    assert _l1(pb.pmf, exact) <= pb.error_bound


@pytest.mark.parametrize(("k", "direct_max"), [(40, 32), (150, 4), (150, 32), (600, 8), (600, 64)])
def test_error_within_the_stated_bound_against_exact_fractions(k, direct_max):
    rng = np.random.default_rng(k + direct_max)
    numerators = rng.integers(0, 1025, k)
    exact = _exact_dp(numerators, 1024)
    pb = poisson_binomial_pmf(numerators / 1024, direct_max=direct_max)  # small direct_max: the FFT path
    error = _l1(pb.pmf, exact)
    assert error <= pb.error_bound
    assert pb.error_bound < 1e-10


def test_degenerate_forecasts():
    pb = poisson_binomial_pmf(np.array([0.0, 1.0, 1.0, 0.0]))
    assert pb.pmf.tolist() == [0.0, 0.0, 1.0, 0.0, 0.0]
    assert poisson_binomial_pmf(np.array([])).pmf.tolist() == [1.0]


@pytest.mark.parametrize("k", [100_000, 131_073])
def test_a_hundred_thousand_forecasts_equal_scipy_binomial(k):
    pb = poisson_binomial_pmf(np.full(k, 0.3))
    reference = stats.binom.pmf(np.arange(k + 1), k, 0.3)
    assert np.abs(pb.pmf - reference).sum() <= pb.error_bound + 1e-9
    assert pb.error_bound < 1e-8


def test_a_hundred_thousand_unequal_forecasts_have_the_right_moments():
    q = np.random.default_rng(1).uniform(size=100_000)
    pb = poisson_binomial_pmf(q)
    j = np.arange(q.size + 1)
    assert abs(pb.pmf.sum() - 1) <= pb.error_bound
    mean = float(np.sum(j * pb.pmf))
    assert mean == pytest.approx(q.sum(), rel=1e-9)
    assert float(np.sum((j - mean) ** 2 * pb.pmf)) == pytest.approx(np.sum(q * (1 - q)), rel=1e-7)


@pytest.mark.parametrize("confidence", [0.5, 0.9, 0.95, 0.99, 0.999])
def test_central_interval_is_the_library_rule(confidence):
    rng = np.random.default_rng(int(confidence * 1000))
    for k in (1, 5, 30, 200):
        pmf = poisson_binomial_pmf(rng.uniform(size=k)).pmf
        d = MetricDistribution(np.arange(k + 1.0), pmf, np.ones(k + 1), metric="count", model="test")
        assert central_interval(pmf, confidence) == tuple(int(v) for v in d.interval(confidence))


def test_central_interval_holds_at_least_the_level():
    pmf = [Fraction(1, 8), Fraction(3, 8), Fraction(3, 8), Fraction(1, 8)]  # Binomial(3, 1/2)
    for confidence in (0.5, 0.7, 0.75, 0.8, 0.95):
        lo, hi = central_interval(np.array([float(v) for v in pmf]), confidence)
        assert sum(pmf[:lo]) <= Fraction(1 - confidence) / 2 + Fraction(1, 10**12)
        assert sum(pmf[hi + 1 :]) <= Fraction(1 - confidence) / 2 + Fraction(1, 10**12)
