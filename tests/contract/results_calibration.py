"""One small instance of each result class of confusionlab.calibration (for test_result_protocol.py)."""

from __future__ import annotations

import numpy as np

from confusionlab.calibration import calibration


def _calibration():
    rng = np.random.default_rng(5)
    q = rng.uniform(size=300)
    y = np.where(rng.uniform(size=300) < q, "spam", "ham")
    return calibration(y, q, bins=6, positive="spam", n_resamples=300, n_draws=500, random_state=2)


def _calibration_set():
    rng = np.random.default_rng(6)
    q = rng.uniform(size=300)
    y = rng.uniform(size=300) < q
    groups = rng.choice(["F", "M"], size=300)
    return calibration(y, q, bins=4, groups=groups, n_resamples=200, n_draws=300, random_state=3)


CASES = {"Calibration": _calibration, "CalibrationSet": _calibration_set}
