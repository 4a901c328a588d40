"""Calibration against scikit-learn (bins, Brier score) and an ECE written from its definition."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.calibration import calibration_curve
from sklearn.metrics import brier_score_loss

import confusionlab as cl
from confusionlab.calibration import Calibration, calibration


def _data(n, seed, power=1.0):
    rng = np.random.default_rng(seed)
    q = rng.beta(2, 3, size=n)
    y = rng.uniform(size=n) < q**power
    return q, y


@pytest.mark.parametrize("strategy", ["quantile", "uniform"])
@pytest.mark.parametrize(("n", "bins"), [(50, 1), (500, 10), (2000, 20), (37, 50), (5000, 7)])
def test_bins_equal_calibration_curve(strategy, n, bins):
    q, y = _data(n, bins)
    prob_true, prob_pred = calibration_curve(y, q, n_bins=bins, strategy=strategy)
    cal = cl.calibration(y, q, bins=bins, strategy=strategy, n_resamples=10, n_draws=10)
    np.testing.assert_allclose(cal.observed_frequency, prob_true, rtol=0, atol=1e-15)
    np.testing.assert_allclose(cal.mean_forecast, prob_pred, rtol=0, atol=1e-15)
    assert cal.counts.sum() == n and np.all(cal.counts > 0)
    # ECE from its definition, with the counts from numpy's histogram of the bin edges
    edges = cal.edges
    ids = np.clip(np.searchsorted(edges, q, side="left") - 1, 0, bins - 1)
    counts = np.bincount(ids, minlength=bins)
    assert counts[counts > 0].tolist() == cal.counts.tolist()
    ece = np.sum(counts[counts > 0] / n * np.abs(prob_true - prob_pred))
    assert cal.value == pytest.approx(ece, rel=1e-12, abs=1e-15)
    assert cal.brier == pytest.approx(brier_score_loss(y, q), rel=1e-12)


def test_ties_at_quantile_edges_drop_empty_bins_as_scikit_learn():
    q = np.repeat([0.1, 0.2, 0.7], [50, 5, 45])
    y = np.arange(100) % 3 == 0
    prob_true, prob_pred = calibration_curve(y, q, n_bins=10, strategy="quantile")
    cal = cl.calibration(y, q, bins=10)
    assert cal.n_bins == prob_true.size < 10
    np.testing.assert_allclose(cal.observed_frequency, prob_true)
    np.testing.assert_allclose(cal.mean_forecast, prob_pred)


@pytest.mark.parametrize(
    ("labels", "positive"),
    [
        (("no", "yes"), "yes"),
        ((0, 1), None),
        ((False, True), None),
        ((-1, 1), None),
        ((0.0, 1.0), None),
        (("cat", "dog"), "dog"),
    ],
)
def test_labels_of_any_dtype(labels, positive):
    q, y = _data(400, 3)
    values = np.where(y, labels[1], labels[0])
    reference = cl.calibration(y, q, random_state=0, n_resamples=50, n_draws=50)
    for form in (values, values.tolist(), pd.Series(values), pd.Series(values, dtype=object)):
        cal = cl.calibration(form, q, positive=positive, random_state=0, n_resamples=50, n_draws=50)
        assert cal.value == reference.value
        assert cal.observed_frequency.tolist() == reference.observed_frequency.tolist()


def test_one_vs_rest_with_positive():
    q, y = _data(300, 4)
    three = np.where(y, "a", np.where(np.arange(300) % 2, "b", "c"))
    cal = cl.calibration(three, q, positive="a", n_resamples=20, n_draws=20)
    assert cal.value == cl.calibration(y, q, n_resamples=20, n_draws=20).value


def test_all_negative_outcomes_with_the_default_positive():
    cal = cl.calibration([0, 0, 0, 0], [0.1, 0.2, 0.3, 0.4], bins=2, n_resamples=20, n_draws=20)
    assert cal.positives.tolist() == [0, 0]
    assert cl.calibration([0, 0], [0.1, 0.2], bins=1, positive=1).positives.tolist() == [0]


def test_interval_brier_interval_and_p_value_are_reproducible_and_sane():
    q, y = _data(1000, 5)
    a = cl.calibration(y, q, random_state=7, n_resamples=400, n_draws=2000)
    b = cl.calibration(y, q, random_state=7, n_resamples=400, n_draws=2000)
    b.p_value()  # the order of the calls does not change the answers
    assert a.interval(0.9) == b.interval(0.9)
    assert a.p_value() == b.p_value()
    lo, hi = a.interval(0.95)
    assert 0 <= lo <= hi
    b_lo, b_hi = a.brier_interval(0.95)
    assert b_lo <= a.brier <= b_hi
    test = a.p_value()
    assert 0 < test.p_value <= 1 and test.mc_error == pytest.approx(np.sqrt(test.p_value * (1 - test.p_value) / 2000))
    assert test.statistic == pytest.approx(a.value, rel=1e-12)
    assert float(test) == test.p_value
    other = a.p_value(n_draws=500, random_state=1)
    assert other.n_draws == 500


def test_band_unpacks_and_its_counts_are_integers():
    q, y = _data(800, 6)
    cal = cl.calibration(y, q, bins=8)
    band = cal.band(0.9)
    lower, upper = band
    assert np.all(lower <= upper)
    np.testing.assert_array_equal(lower * cal.counts, band.lower_count)
    assert band.per_bin_confidence == pytest.approx(0.9 ** (1 / 8))
    assert band.error_bound < 1e-12
    wide = cal.band(0.99)
    assert np.all(wide.lower <= band.lower) and np.all(band.upper <= wide.upper)


def test_the_names():
    assert cl.calibration is calibration
    assert cl.Calibration is Calibration
    assert "calibration" in dir(cl) and "Calibration" in cl.__all__
    from confusionlab.calibration import calibration as again

    assert again is calibration


def test_frame_and_summary():
    q, y = _data(600, 8)
    cal = cl.calibration(y, q, bins=5, n_resamples=100, n_draws=200)
    frame = cal.to_frame()
    assert list(frame["count"]) == cal.counts.tolist()
    assert {"mean_forecast", "observed_frequency", "band_lower", "band_upper"} <= set(frame.columns)
    assert "ECE" in cal.summary() and "consistency band" in cal.summary()
    assert "population's ECE" in cal.summary()  # the interval names its question (issue 20)
