"""One small instance of each threshold-choice result class of confusionlab.decision (for test_result_protocol.py)."""

from __future__ import annotations

import numpy as np

from confusionlab.decision import choose_threshold


def _threshold_choice():
    rng = np.random.default_rng(7)
    y = np.where(rng.uniform(size=300) < 0.3, "sick", "well")
    s = rng.normal(size=300) + 1.2 * (y == "sick")
    return choose_threshold(y, s, cost=(1, 3), positive="sick", subject_to={"recall": 0.5})


def _grouped_threshold_choice():
    rng = np.random.default_rng(8)
    y = rng.uniform(size=400) < 0.4
    s = rng.normal(size=400) + y
    groups = rng.choice(["<b>F</b>", "$x^$"], size=400)
    return choose_threshold(y, s, maximize="balanced_accuracy", groups=groups)


CASES = {"ThresholdChoice": _threshold_choice, "GroupedThresholdChoice": _grouped_threshold_choice}
