"""Calibration from bins known by their sums (``data=`` beyond 10⁶ distinct forecasts).

The exact parts (bins, ECE, its interval, Brier score) are checked against numpy brute force and
scikit-learn 1.9.1's ``calibration_curve``; the approximate parts against what they claim to be
(scipy 1.17.1's binomial at each bin's mean) and, on cases small enough for the exact
Poisson-binomial, their error against the exact answer is measured and bounded.
"""

from __future__ import annotations

import importlib

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import confusionlab as cl

DATA = importlib.import_module("confusionlab.calibration._data")
BINS = importlib.import_module("confusionlab.calibration._bins")
ECE = importlib.import_module("confusionlab.calibration._ece")


def forecasts(n, seed=0, a=2.0, b=5.0):
    rng = np.random.default_rng(seed)
    q = rng.beta(a, b, n)
    return (rng.random(n) < q).astype(np.int64), q


def binned(y, q, monkeypatch, limit=50, **kw):
    """``calibration(data=...)`` with the limit lowered so that these forecasts are binned by pandas."""
    monkeypatch.setattr(DATA, "MAX_DISTINCT_SCORES", limit)
    return cl.calibration("y", "q", data=pd.DataFrame({"y": y, "q": q}), **kw)


def test_the_brier_score_and_the_ece_are_exact(monkeypatch):
    y, q = forecasts(3000, seed=1)
    got = binned(y, q, monkeypatch, bins=12, strategy="uniform")
    assert got.brier == pytest.approx(np.mean((q - y) ** 2), rel=1e-12)  # brute force over the rows
    ids = np.minimum((q * 12).astype(int), 11)  # no forecast lies on a uniform edge here
    assert not np.isin(q * 12, np.arange(13)).any()
    ece = sum(abs(y[ids == b].sum() - q[ids == b].sum()) for b in range(12)) / q.size
    assert got.value == pytest.approx(ece, rel=1e-12)


def test_the_class_moments_from_power_sums_are_the_arrays_moments():
    y, q = forecasts(500, seed=2)
    yb = y.astype(np.float64)
    d = (q - yb) ** 2
    n_pos, classes = ECE._array_classes(q, yb, d)
    powers = np.column_stack([q**j for j in range(1, BINS.POWERS + 1)])
    b = BINS.bins_from_sums(np.array([0.0, 1.0]), np.zeros(q.size, int), y.astype(bool), np.ones(q.size), powers, q, q)
    n_sum, from_sums = ECE._sum_classes(b.class_sums[0], b.class_ranges[0])
    assert n_sum == n_pos
    for exact, summed in zip(classes, from_sums, strict=True):
        mq, vq, rq, md, vd, rd, cov = exact
        smq, svq, srq, smd, svd, srd, scov = summed
        np.testing.assert_allclose([smq, svq, smd, svd, scov], [mq, vq, md, vd, cov], rtol=1e-9, atol=1e-15)
        assert srq >= rq and srd >= rd  # range × variance bounds the third absolute moment


def test_the_approximate_band_is_scipys_binomial_at_each_bins_mean(monkeypatch):
    y, q = forecasts(2000, seed=3)
    got = binned(y, q, monkeypatch, bins=8)
    band = got.band(0.9)
    level = 0.9 ** (1 / got.n_bins)
    for k, mean, lo, hi in zip(got.counts, got.mean_forecast, band.lower_count, band.upper_count, strict=True):
        ref = stats.binom(int(k), mean)
        assert (lo, hi) == (ref.ppf((1 - level) / 2), ref.ppf((1 + level) / 2))
    assert set(got.to_frame()["band_method"]) == {"binomial at the bin's mean (approximate)"}
    assert "Approximate:" in got.summary() and "binned where the data lives" in got.summary()


@pytest.mark.parametrize(("seed", "bins", "strategy"), [(4, 10, "quantile"), (5, 5, "uniform"), (6, 20, "quantile")])
def test_the_approximations_error_against_the_exact_answer(monkeypatch, seed, bins, strategy):
    """Measured (seeds 4-6, 3000 forecasts, Beta(2, 5)): the binomial band is never narrower than the
    exact Poisson-binomial band and at most 1 count wider at either end (≤ 0.0067 in frequency); the
    p-values differ by at most 0.0066 (Monte Carlo, 20 000 draws each, standard error ≈ 0.0035); the
    Brier interval's ends by at most 0.00047 (both bootstrap; stated bound of the normal draws
    ≈ 0.0003). The bounds asserted are those, with room for the Monte Carlo noise."""
    y, q = forecasts(3000, seed=seed)
    kw = dict(bins=bins, strategy=strategy, n_draws=20_000, random_state=0)
    approx = binned(y, q, monkeypatch, **kw)
    exact = cl.calibration(y, q, **kw)
    np.testing.assert_array_equal(approx.counts, exact.counts)
    a, e = approx.band(0.95), exact.band(0.95)
    assert np.all(a.lower_count <= e.lower_count) and np.all(a.upper_count >= e.upper_count)
    assert np.max(e.lower_count - a.lower_count) <= 1 and np.max(a.upper_count - e.upper_count) <= 1
    assert np.max(np.r_[e.lower - a.lower, a.upper - e.upper]) <= 0.01
    assert abs(approx.p_value() - exact.p_value()) <= 0.015
    np.testing.assert_allclose(approx.brier_interval(), exact.brier_interval(), atol=0.001)


def test_the_histogram_spreads_each_bin_over_its_range(monkeypatch):
    y, q = forecasts(1000, seed=7)
    got = binned(y, q, monkeypatch, bins=10)
    counts, edges = got.histogram(20)
    exact, _ = np.histogram(q, bins=20, range=(0.0, 1.0))
    assert counts.sum() == pytest.approx(q.size, rel=1e-12)
    assert np.abs(counts - exact).sum() < 0.12 * q.size  # the shape, not the detail (measured: 0.100)
    np.testing.assert_array_equal(edges, np.linspace(0, 1, 21))


def test_one_forecast_value_in_a_bin_is_one_point(monkeypatch):
    q = np.r_[np.full(100, 0.25), np.linspace(0.6, 0.9, 100)]
    y = (np.arange(200) % 3 == 0).astype(np.int64)
    got = binned(y, q, monkeypatch, limit=10, bins=2, strategy="uniform")
    counts, _ = got.histogram(4)
    assert counts[1] == 100 and counts.sum() == pytest.approx(200)


def test_hostile_forecasts_beyond_the_limit(monkeypatch):
    y, q = forecasts(300, seed=8)
    monkeypatch.setattr(DATA, "MAX_DISTINCT_SCORES", 20)
    for bad, shown in ((np.inf, "inf"), (-np.inf, "-inf"), (1.5, "1.5")):
        df = pd.DataFrame({"y": y, "q": np.r_[q[:-1], bad]})
        with pytest.raises(cl.InvalidParameterError, match=rf"^y_prob: column 'q' must hold probabilities.*{shown}"):
            cl.calibration("y", "q", data=df)
    for missing in (np.nan, None):
        df = pd.DataFrame({"y": y, "q": pd.Series(np.r_[q[:-1], 0.5], dtype=object)})
        df.loc[7, "q"] = missing
        with pytest.raises(cl.InvalidParameterError, match=r"^y_prob: column 'q' has 1 missing value"):
            cl.calibration("y", "q", data=df.astype({"q": float}))
    labels = pd.DataFrame({"y": np.where(y == 1, "<b>yes</b>", "no"), "q": q})
    got = cl.calibration("y", "q", data=labels, positive="<b>yes</b>", bins=4, n_resamples=100, n_draws=100)
    assert got.positive == "<b>yes</b>" and got.approximation is not None
    assert "<b>yes" not in got.to_html()


def test_more_than_a_million_distinct_forecasts_on_pandas():
    """10⁶ + 100 distinct forecasts (the real limit): binned by pandas, the diagram equals
    scikit-learn's ``calibration_curve`` and the Brier score numpy's, with no refusal."""
    rng = np.random.default_rng(9)
    q = rng.random(1_000_100)
    y = (rng.random(q.size) < q).astype(np.int8)
    got = cl.calibration("y", "q", data=pd.DataFrame({"y": y, "q": q}), n_resamples=200)
    assert got.approximation is not None and got.n_forecasts == q.size
    from sklearn.calibration import calibration_curve

    prob_true, prob_pred = calibration_curve(y, q, n_bins=10, strategy="quantile")
    np.testing.assert_allclose(got.observed_frequency, prob_true, rtol=1e-12)
    np.testing.assert_allclose(got.mean_forecast, prob_pred, rtol=1e-12)
    assert got.brier == pytest.approx(np.mean((q - y) ** 2), rel=1e-12)
    lo, hi = got.interval()
    assert lo <= got.value <= hi


def test_the_binomial_band_is_never_narrower_than_the_poisson_binomial():
    """Hoeffding (1956): the binomial of the same mean is more spread, so each bin's central interval
    holds the exact one — checked on 1,000 random bins of 1-59 forecasts (no exception in 20,000 more
    run by hand), levels 0.9-0.9995."""
    from confusionlab.calibration import central_interval, poisson_binomial_pmf

    rng = np.random.default_rng(10)
    for _ in range(1000):
        k = int(rng.integers(1, 60))
        p = rng.beta(*rng.uniform(0.2, 5.0, 2), k)
        level = float(rng.choice([0.9, 0.95, 0.99, 0.9995]))
        lo, hi = central_interval(poisson_binomial_pmf(p).pmf, level)
        b_lo, b_hi = central_interval(poisson_binomial_pmf(np.full(k, p.mean())).pmf, level)
        assert b_lo <= lo and hi <= b_hi


@pytest.mark.parametrize(("k", "p"), [(1, 0.5), (7, 0.3), (200, 0.01), (5000, 0.999), (10**8, 0.5), (10**9, 1e-6)])
def test_a_bins_binomial_is_scipys_where_its_mass_is(k, p):
    """A summarised bin's PMF (k equal forecasts p) is scipy 1.17.1's binomial: the stored values are
    scipy's PMF at their counts, the mass left out is below the stated bound, and the central
    intervals are scipy's ppf at the library's levels — at 10⁸ and 10⁹ forecasts in a few hundred
    thousand stored values (the whole support would need 0.8 and 8 GB)."""
    from confusionlab.calibration import binomial_pmf

    pb = binomial_pmf(k, p)
    ref = stats.binom(k, p)
    counts = np.arange(pb.offset, pb.offset + pb.pmf.size)
    np.testing.assert_allclose(pb.pmf, ref.pmf(counts), rtol=1e-12, atol=0)
    assert pb.pmf.size <= 40 * np.sqrt(k * p * (1 - p)) + 60
    assert 1.0 - ref.pmf(counts).sum() <= pb.error_bound < 1e-6
    for level in (0.5, 0.95, 0.999):
        assert pb.interval(level) == (ref.ppf((1 - level) / 2), ref.ppf((1 + level) / 2))


def test_a_binomial_of_equal_forecasts_is_their_poisson_binomial():
    from confusionlab.calibration import binomial_pmf, poisson_binomial_pmf

    tree = poisson_binomial_pmf(np.full(300, 0.37))  # the FFT tree: its own absolute error bound
    exact, pb = tree.pmf, binomial_pmf(300, 0.37)
    np.testing.assert_allclose(pb.pmf, exact[pb.offset : pb.offset + pb.pmf.size], rtol=1e-9, atol=tree.error_bound)
    assert exact[: pb.offset].sum() + exact[pb.offset + pb.pmf.size :].sum() <= pb.error_bound + tree.error_bound


def test_bins_of_tens_of_millions_of_forecasts_give_their_band_and_test():
    """10⁸ rows in two bins (as ``data=`` on a cluster counts them): the band and the test answer
    without holding a PMF over every count (each bin's 5·10⁷ forecasts were refused before, with
    TooLargeError at the 2 GiB limit). The expected band: scipy's binomial at each bin's mean."""
    from confusionlab.calibration import Calibration

    n = np.array([30_000_000, 20_000_000, 10_000_000, 40_000_000])  # (bin, outcome) cells
    q = np.array([0.3, 0.3, 0.8, 0.8])
    sums = np.column_stack([n * q**j for j in range(1, BINS.POWERS + 1)])
    b = BINS.bins_from_sums(np.linspace(0, 1, 3), np.array([0, 0, 1, 1]), np.array([0, 1, 0, 1], bool), n, sums, q, q)
    cal = Calibration(b, strategy="uniform", positive=1, n_resamples=200, n_draws=200, random_state=0)
    band = cal.band(0.95)
    level = 0.95 ** (1 / 2)
    for k, mean, lo, hi in zip((5 * 10**7,) * 2, (0.3, 0.8), band.lower_count, band.upper_count, strict=True):
        ref = stats.binom(k, mean)
        assert (lo, hi) == (ref.ppf((1 - level) / 2), ref.ppf((1 + level) / 2))
    assert band.outside.tolist() == [True, False]  # 20 of 50 million positives at 0.3: far outside
    assert cal.test(n_draws=200, random_state=1).p_value == pytest.approx(1 / 201)
