"""The true value of a single rate is its Beta posterior, exactly: recall ~ Beta(TP + α, FN + α),
FNR ~ Beta(FN + α, TP + α), TNR ~ Beta(TN + α, FP + α), FPR ~ Beta(FP + α, TN + α). The 400-node
quadrature put 2.625 % and 2.375 % in the tails of recall's 95 % interval at (3, 1, 4, 409); the
planner inherited it (recall ± 0.02 at prevalence ½: N = 897 claiming ± 0.019988, exact ± 0.020039).
References: scipy.stats.beta, and a scan of every size with it."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import confusionlab as cl

RATES = {"recall": ("tp", "fn"), "fnr": ("fn", "tp"), "tnr": ("tn", "fp"), "fpr": ("fp", "tn")}
MATRICES = [(3, 1, 4, 409), (16, 4, 8, 32), (0, 7, 5, 0), (250, 3, 1, 999), (1, 0, 0, 1)]


@pytest.mark.parametrize("counts", MATRICES)
@pytest.mark.parametrize("metric", sorted(RATES))
@pytest.mark.parametrize("alpha", [0.5, 1.0])
def test_single_rate_true_value_is_the_beta(metric, counts, alpha):
    cm = cl.ConfusionMatrix(**dict(zip(("tp", "fn", "fp", "tn"), counts, strict=True)))
    d = cl.metric_distribution(cm, metric, target="true_value", prior=alpha)
    succ, fail = RATES[metric]
    ref = stats.beta(getattr(cm, succ) + alpha, getattr(cm, fail) + alpha)
    for confidence in (0.5, 0.9, 0.95, 0.999):
        assert d.interval(confidence) == pytest.approx(ref.interval(confidence), abs=1e-9)
    assert d.mean() == pytest.approx(ref.mean(), abs=1e-12)
    assert d.std() == pytest.approx(ref.std(), abs=1e-12)
    x = np.linspace(0, 1, 11)
    assert np.allclose(d.cdf(x), ref.cdf(x), atol=1e-12, rtol=0)
    assert d.ppf(1.0) == 1.0 and d.ppf(0.0) == 0.0


def test_the_issue_reproduction():
    d = cl.metric_distribution(cl.ConfusionMatrix(tp=3, fn=1, fp=4, tn=409), "recall", target="true_value")
    lo, hi = d.interval()
    assert (lo, hi) == pytest.approx((0.2837516795634127, 0.9715291049128532), abs=1e-9)  # scipy Beta(3.5, 1.5)
    assert stats.beta(3.5, 1.5).cdf(lo) == pytest.approx(0.025, abs=1e-12)


def _scan(metric: str, prevalence: float, tpr: float, tnr: float, half_width: float, alpha: float = 0.5) -> int:
    """The smallest N whose Beta interval of the rate is at most ± half_width (the planner's
    rounded counts: p = ⌊π·N + ½⌋ in [1, N − 1], TP = ⌊tpr·p + ½⌋, TN = ⌊tnr·n + ½⌋)."""
    for N in range(2, 100_000):
        p = min(max(math.floor(prevalence * N + 0.5), 1), N - 1)
        n = N - p
        tp, tn = math.floor(tpr * p + 0.5), math.floor(tnr * n + 0.5)
        a, b = (tp + alpha, p - tp + alpha) if metric == "recall" else (tn + alpha, n - tn + alpha)
        lo, hi = stats.beta(a, b).interval(0.95)
        if (hi - lo) / 2 <= half_width * (1 + 1e-12):
            return N
    raise AssertionError("no size found")


@pytest.mark.parametrize(
    ("metric", "prevalence", "half_width"),
    [("recall", 0.5, 0.02), ("specificity", 0.3, 0.03), ("specificity", 0.5, 0.04), ("recall", 0.2, 0.05)],
)
def test_single_rate_plans_equal_an_exact_scan(metric, prevalence, half_width):
    plan = cl.plan_test_size(metric, prevalence=prevalence, tpr=0.95, tnr=0.9, half_width=half_width)
    assert plan.method != "normal"  # the exact path (the normal limit serves far larger sizes)
    assert plan.N == _scan(metric, prevalence, 0.95, 0.9, half_width)
    assert plan.half_width <= half_width * (1 + 1e-12)
