"""The ECE's interval holds the population's ECE (issue 35 items 12 and 17). References: scipy's
Beta quantiles (Clopper–Pearson) computed here, the population ECE of simulated forecasts from
their true probabilities, and the coverage study in benchmarks/bench_ece_coverage.py."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import confusionlab as cl


def test_ends_equal_clopper_pearson_projection():
    """Two bins of three forecasts: each bin's Clopper–Pearson interval at √0.9 (scipy), then the
    nearest and the farthest |rate − mean forecast| weighted by the bins' shares."""
    q = np.array([0.1, 0.2, 0.3, 0.7, 0.8, 0.9])
    y = np.array([0, 0, 1, 1, 1, 1], bool)
    c = cl.calibration(y, q, bins=2, strategy="uniform")
    alpha = 1 - 0.9**0.5
    near = far = 0.0
    for k_pos, mean in ((1, 0.2), (3, 0.8)):
        lo = stats.beta.ppf(alpha / 2, k_pos, 3 - k_pos + 1) if k_pos > 0 else 0.0
        hi = stats.beta.ppf(1 - alpha / 2, k_pos + 1, 3 - k_pos) if k_pos < 3 else 1.0
        near += 0.5 * max(0.0, lo - mean, mean - hi)
        far += 0.5 * max(abs(lo - mean), abs(hi - mean))
    assert c.interval(0.9) == pytest.approx((near, far), abs=1e-12)


def test_one_forecast_per_bin_is_no_point():
    """Item 12: 500 bins of one forecast each gave a zero-width interval; the population's ECE of
    these calibrated forecasts (0) lies inside, and so does any ECE the data cannot exclude."""
    rng = np.random.default_rng(0)
    q = rng.random(500)
    c = cl.calibration(rng.random(500) < q, q, bins=500, random_state=0)
    lo, hi = c.interval()
    assert lo == 0.0 and hi > 0.5


def test_calibrated_forecasts_interval_holds_zero():
    """Item 17: calibrated by construction; the bootstrap's [0.0414, 0.103] excluded 0."""
    rng = np.random.default_rng(0)
    q = rng.beta(0.5, 2, 300)
    yq = rng.random(300) < q
    c = cl.calibration(yq, q)
    lo, hi = c.interval()
    assert lo == 0.0 < c.value < hi
    assert f"[{lo:.3g}, {hi:.3g}]" in c.summary()


@pytest.mark.parametrize("truth", ["calibrated", "shifted"])
def test_coverage_smoke(truth):
    """Seeded, 80 test sets of 300: the interval holds the population's ECE in at least 90 % (the
    study measures ≥ 0.99); the plug-in bootstrap held 0 in none."""
    rng = np.random.default_rng(7)
    hits = 0
    for _ in range(80):
        q = rng.beta(0.5, 2, 300)
        p = q if truth == "calibrated" else np.clip(q + 0.08, 0, 1)
        y = rng.random(300) < p
        c = cl.calibration(y, q, n_resamples=20, n_draws=20)
        ids = np.searchsorted(c.edges[1:-1], q)
        population = float(np.abs(np.bincount(ids, weights=p - q, minlength=10)).sum() / 300)
        lo, hi = c.interval()
        hits += lo <= population <= hi
    assert hits >= 72
