"""Result-protocol cases of the evaluation workbench and the planners (small and fast)."""

from __future__ import annotations

import numpy as np

from confusionlab.bias import plan_group_size
from confusionlab.evaluation import evaluate
from confusionlab.planner import plan_comparison_size, plan_test_size


def _evaluation():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 60)
    refits = np.where(rng.random((3, 60)) < 0.85, y, 1 - y)
    return evaluate(y, refits=refits, groups=np.where(np.arange(60) % 3 == 0, "a", "b"), metrics=["f1", "recall"])


CASES = {
    "Evaluation": _evaluation,
    "TestSizePlan": lambda: plan_test_size("recall", prevalence=0.5, tpr=0.8, tnr=0.8, half_width=0.15),
    "ComparisonSizePlan": lambda: plan_comparison_size((0.85, 0.8), correlation=0.5, half_width=0.05),
    "GroupSizePlan": lambda: plan_group_size("DPPL", size_a=300, rate_a=0.3, rate_d=0.2, half_width=0.12),
}
