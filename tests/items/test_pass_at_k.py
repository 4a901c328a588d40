"""pass_at_k against Chen et al.'s formula in exact integers (``math.comb``, ``Fraction``), the
estimator's variance summed over the binomial in rationals, and the Bayesian pass@k against
numerical integration of ``1 − (1 − p)^k`` over the Beta posterior (``scipy.integrate.quad``)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import integrate, stats

import confusionlab as cl
from confusionlab.items._pass_at_k import estimator_variance


def _rows(counts):
    """Rows of 0/1 for items given as (n, c)."""
    correct, item = [], []
    for i, (n, c) in enumerate(counts):
        correct += [1] * c + [0] * (n - c)
        item += [i] * n
    return np.array(correct), np.array(item)


COUNTS = [(10, 0), (10, 1), (10, 3), (10, 10), (7, 2), (12, 5), (9, 8)]


@pytest.mark.parametrize("k", [1, 2, 3, 5])
def test_estimates_equal_chens_formula_in_integers(k):
    correct, item = _rows(COUNTS)
    r = cl.pass_at_k(correct, item=item, k=k)
    exact = [1 - Fraction(math.comb(n - c, k), math.comb(n, k)) for n, c in COUNTS]
    np.testing.assert_allclose(r.per_item["estimate"], [float(e) for e in exact], rtol=0, atol=1e-15)
    assert r.value == pytest.approx(float(sum(exact) / len(exact)), abs=1e-15)
    est = np.array([float(e) for e in exact])
    assert r.std_error == pytest.approx(float(np.std(est, ddof=1) / np.sqrt(est.size)), abs=1e-15)
    lo, hi = r.interval(0.9)
    half = stats.t.ppf(0.95, len(COUNTS) - 1) * r.std_error
    assert (lo, hi) == pytest.approx((max(r.value - half, 0.0), min(r.value + half, 1.0)), abs=1e-15)


@pytest.mark.parametrize(("n", "k", "p"), [(10, 1, Fraction(3, 10)), (10, 3, Fraction(1, 4)), (6, 6, Fraction(1, 2))])
def test_exact_variance_equals_the_binomial_sum_in_rationals(n, k, p):
    mean = sum(
        Fraction(math.comb(n, c)) * p**c * (1 - p) ** (n - c) * (1 - Fraction(math.comb(n - c, k), math.comb(n, k)))
        for c in range(n + 1)
    )
    second = sum(
        Fraction(math.comb(n, c))
        * p**c
        * (1 - p) ** (n - c)
        * (1 - Fraction(math.comb(n - c, k), math.comb(n, k))) ** 2
        for c in range(n + 1)
    )
    assert mean == 1 - (1 - p) ** k  # the estimator is unbiased
    assert estimator_variance(n, k, float(p)) == pytest.approx(float(second - mean**2), abs=1e-14)


@pytest.mark.parametrize(("n", "k"), [(10, 2), (9, 3), (8, 4)])
def test_the_per_item_variance_estimate_is_unbiased(n, k):
    """E over c ~ Binomial(n, p) of the reported variance equals the exact variance (rationals)."""
    p = Fraction(2, 7)
    expected = 0.0
    for c in range(n + 1):
        correct, item = _rows([(n, c), (n, 0)])
        v = cl.pass_at_k(correct, item=item, k=k).per_item["variance"].iloc[0]
        expected += float(Fraction(math.comb(n, c)) * p**c * (1 - p) ** (n - c)) * v
    assert expected == pytest.approx(estimator_variance(n, k, float(p)), abs=1e-12)


def test_variance_is_nan_below_2k_samples():
    correct, item = _rows([(5, 1), (5, 2)])
    r = cl.pass_at_k(correct, item=item, k=3)
    assert r.per_item["variance"].isna().all() and np.isnan(r.sampling_std_error)


@pytest.mark.parametrize("prior", [None, "uniform", 2.0])
def test_bayesian_pass_at_k_equals_the_integral_over_the_posterior(prior):
    alpha = {None: 0.5, "uniform": 1.0, 2.0: 2.0}[prior]
    correct, item = _rows(COUNTS)
    r = cl.pass_at_k(correct, item=item, k=3, prior=prior)
    for (n, c), mean, sd in zip(COUNTS, r.per_item["bayes_mean"], r.per_item["bayes_sd"], strict=True):
        pdf = stats.beta(alpha + c, alpha + n - c).pdf
        m1 = integrate.quad(lambda p, pdf=pdf: (1 - (1 - p) ** 3) * pdf(p), 0, 1, epsabs=1e-13)[0]
        m2 = integrate.quad(lambda p, pdf=pdf: (1 - (1 - p) ** 3) ** 2 * pdf(p), 0, 1, epsabs=1e-13)[0]
        assert mean == pytest.approx(m1, abs=1e-9)
        assert sd == pytest.approx(math.sqrt(m2 - m1 * m1), abs=1e-7)
    assert r.bayesian_value == pytest.approx(r.per_item["bayes_mean"].mean())


def test_refusals_name_the_argument():
    correct, item = _rows([(3, 1), (4, 2)])
    with pytest.raises(cl.InvalidParameterError, match="k=4 needs at least 4 samples"):
        cl.pass_at_k(correct, item=item, k=4)
    with pytest.raises(cl.InvalidParameterError, match="correct must hold 0/1"):
        cl.pass_at_k(correct * 0.5, item=item, k=1)
    with pytest.raises(cl.InvalidParameterError, match="item is required"):
        cl.pass_at_k(correct, item=None, k=1)
    with pytest.raises(cl.InvalidParameterError, match="k"):
        cl.pass_at_k(correct, item=item, k=0)
    with pytest.raises(cl.InvalidParameterError, match="NaN"):
        cl.pass_at_k(np.r_[correct[:-1], np.nan], item=item, k=1)


def test_data_gives_the_arrays_answer():
    import pandas as pd

    correct, item = _rows(COUNTS)
    frame = pd.DataFrame({"ok": correct.astype(bool), "q": item})
    a = cl.pass_at_k(correct, item=item, k=2)
    b = cl.pass_at_k("ok", item="q", k=2, data=frame)
    assert a.value == b.value and a.per_item.equals(b.per_item)
