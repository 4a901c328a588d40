"""The bands and the average precision's interval, from their definitions."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.special import expit, logit
from scipy.stats import betabinom, kstwo, norm

import confusionlab as cl


def _curve(seed=0, p=40, n=60):
    rng = np.random.default_rng(seed)
    y = np.r_[np.ones(p, dtype=int), np.zeros(n, dtype=int)]
    return y, np.round(rng.normal(size=p + n) + y, 1)


def _path_range(fpr, tpr, t):
    """(lowest, highest) TPR of the staircase path at FPR t, segment by segment."""
    values = []
    for f0, t0, f1, t1 in zip(fpr[:-1], tpr[:-1], fpr[1:], tpr[1:], strict=True):
        if f0 <= t <= f1:
            values += [t0, t1] if f0 == f1 else [t0 + (t1 - t0) * (t - f0) / (f1 - f0)]
    return min(values), max(values)


def test_campbell_band_from_its_definition():
    y, x = _curve()
    curve = cl.roc_curve(y, x)
    band = curve.band(0.9)
    d_p, d_n = kstwo.ppf(math.sqrt(0.9), 40), kstwo.ppf(math.sqrt(0.9), 60)
    for f, lower, upper in zip(band.fpr[::7], band.lower[::7], band.upper[::7], strict=True):
        lo = 0.0 if f - d_n < 0 else _path_range(curve.fpr, curve.tpr, f - d_n)[0]
        hi = 1.0 if f + d_n > 1 else _path_range(curve.fpr, curve.tpr, f + d_n)[1]
        assert lower == pytest.approx(min(1.0, max(0.0, lo - d_p)), abs=1e-12)
        assert upper == pytest.approx(min(1.0, max(0.0, hi + d_p)), abs=1e-12)
    assert np.all(band.lower <= band.upper)
    assert np.all(np.diff(band.lower) >= -1e-12) and np.all(np.diff(band.upper) >= -1e-12)


def test_the_band_holds_the_empirical_curve_and_widens_with_confidence():
    y, x = _curve(1)
    curve = cl.roc_curve(y, x)
    narrow, wide = curve.band(0.8), curve.band(0.99)
    # every vertex of the staircase lies inside the band (its x on the grid through the band's own points)
    for band in (narrow, wide):
        lo = np.interp(curve.fpr, band.fpr, band.lower)
        hi = np.interp(curve.fpr, band.fpr, band.upper)
        assert np.all(lo <= curve.tpr + 1e-9) and np.all(curve.tpr <= hi + 1e-9)
    grid = np.linspace(0, 1, 101)
    assert np.all(np.interp(grid, wide.fpr, wide.lower) <= np.interp(grid, narrow.fpr, narrow.lower) + 1e-12)


def test_pointwise_band_is_the_beta_binomial_interval():
    y, x = _curve(2)
    curve = cl.roc_curve(y, x)
    band = curve.band(0.95, kind="pointwise")
    tp = np.rint(curve.tpr * 40)
    lo, hi = betabinom.interval(0.95, 40, tp + 1, 40 - tp + 1)
    np.testing.assert_allclose(band.lower, lo / 40)
    np.testing.assert_allclose(band.upper, hi / 40)
    np.testing.assert_array_equal(band.fpr, curve.fpr)


def test_pr_band_holds_the_observed_curve():
    y, x = _curve(3)
    pr = cl.precision_recall_curve(y, x)
    band = pr.band(0.95)
    assert np.all(band.lower <= band.upper + 1e-12)
    assert np.all((band.lower >= 0) & (band.upper <= 1))
    # the observed curve's best precision at each recall (the upper envelope) is within the band's top
    for r, prec in zip(pr.recall[:-1], pr.precision[:-1], strict=True):
        if r > 0:
            k = int(np.searchsorted(band.recall, r))
            assert band.upper[min(k, band.recall.size - 1)] >= prec - 0.05


def test_boyd_eng_page_logit_interval():
    y, x = _curve(4)
    pr = cl.precision_recall_curve(y, x)
    ap, p = pr.value, 40
    eta, tau = logit(ap), 1 / math.sqrt(p * ap * (1 - ap))
    z = norm.ppf(0.975)
    assert pr.interval(0.95) == pytest.approx((expit(eta - z * tau), expit(eta + z * tau)), rel=1e-12)
    wider = pr.interval(0.95, target="next_test_set")
    assert wider == pytest.approx((expit(eta - z * tau * math.sqrt(2)), expit(eta + z * tau * math.sqrt(2))), rel=1e-12)


def test_ap_at_one_keeps_a_width():
    y = np.r_[np.ones(10, dtype=int), np.zeros(10, dtype=int)]
    pr = cl.precision_recall_curve(y, np.r_[np.arange(10, 20), np.arange(10)].astype(float))
    assert pr.value == 1.0
    lo, hi = pr.interval()
    assert 0 < lo < hi < 1 and hi > 0.95
