"""One small instance of each result class of confusionlab.decision (for test_result_protocol.py)."""

from __future__ import annotations

import numpy as np

import confusionlab as cl


def _data(seed: int, n: int = 240):
    rng = np.random.default_rng(seed)
    y = rng.uniform(size=n) < 0.3
    risk = np.clip(0.3 + 0.35 * (y - 0.3) + rng.normal(0, 0.15, n), 0, 1)
    return y, risk, rng


def _decision_curve():
    y, risk, rng = _data(1)
    return cl.decision_curve(
        y, {"a": risk, "b": np.clip(risk + rng.normal(0, 0.2, y.size), 0, 1)}, thresholds=np.arange(1, 60) / 100
    )


def _grouped_decision_curve():
    y, risk, rng = _data(2)
    return cl.decision_curve(y, risk, groups=rng.choice(["F", "M"], size=y.size), thresholds=[0.1, 0.2, 0.3, 0.4])


def _cost_curve():
    y, risk, _ = _data(3)
    return cl.cost_curve(y, risk)


CASES = {
    "DecisionCurve": _decision_curve,
    "GroupedDecisionCurve": _grouped_decision_curve,
    "CostCurve": _cost_curve,
}
