"""The band's coverage and the p-value's size and power, by simulation (fixed seeds, small).

The forecasts are held fixed and the outcomes are drawn from them (calibrated) or from a
distorted version of them (miscalibrated); each simulated test set is analysed by the
public API only. The coverage figures measured are printed (``pytest -s``).
"""

from __future__ import annotations

import numpy as np
import pytest

import confusionlab as cl

#: (forecasts, bins, strategy, confidence) — small bins, many bins, one bin, uniform bins.
SETTINGS = [
    (60, 4, "quantile", 0.95),
    (400, 10, "quantile", 0.95),
    (1000, 20, "quantile", 0.9),
    (300, 1, "quantile", 0.95),
    (500, 10, "uniform", 0.8),
]


@pytest.mark.parametrize(("n", "bins", "strategy", "confidence"), SETTINGS)
def test_band_covers_calibrated_forecasts_at_least_at_the_level(n, bins, strategy, confidence):
    rng = np.random.default_rng(n + bins)
    q = rng.beta(1.5, 2.5, size=n)
    band = cl.calibration(rng.uniform(size=n) < q, q, bins=bins, strategy=strategy).band(confidence)
    reps = 2000
    inside = 0
    for _ in range(reps):
        cal = cl.calibration(rng.uniform(size=n) < q, q, bins=bins, strategy=strategy)
        inside += bool(np.all((band.lower_count <= cal.positives) & (cal.positives <= band.upper_count)))
    coverage = inside / reps
    se = np.sqrt(0.25 / reps)
    print(f"\ncoverage n={n} bins={bins} {strategy} level {confidence}: {coverage:.4f} (standard error ≤ {se:.3f})")
    assert coverage >= confidence


def test_p_value_size_under_calibration_and_power_under_miscalibration():
    rng = np.random.default_rng(11)
    n, reps, alpha = 400, 200, 0.05
    q = rng.uniform(0.05, 0.95, size=n)
    calibrated, distorted = [], []
    for _ in range(reps):
        for outcome_prob, sink in ((q, calibrated), (q**2, distorted)):  # q² : overconfident in the positive
            y = rng.uniform(size=n) < outcome_prob
            cal = cl.calibration(y, q, bins=10, n_draws=400, random_state=rng)
            sink.append(cal.p_value().p_value)
    size = np.mean(np.array(calibrated) <= alpha)
    power = np.mean(np.array(distorted) <= alpha)
    print(
        f"\np-value: size {size:.3f} at alpha {alpha} (± {np.sqrt(alpha * (1 - alpha) / reps):.3f}), power {power:.3f}"
    )
    assert size <= alpha + 3 * np.sqrt(alpha * (1 - alpha) / reps)
    assert power >= 0.8
    # under calibration the p-values are about uniform
    assert 0.35 <= np.mean(calibrated) <= 0.65
