"""The AUC's interval when the classes are perfectly separated (AUC 1 or 0) shrinks as the data grow.

Before, the default interval at ≥ 100 examples per class was DeLong-logit with the boundary rule,
whose logit half-width grows like √n: at 500,000 + 500,000 perfectly separated examples it was
[0, 1]. The references:

* the **exact equal-variance binormal bound**: the smallest AUC θ = Φ(δ/√2) whose binormal model
  (positives N(δ, 1), negatives N(0, 1)) separates p positives from n negatives with probability
  at least 2.5 %, P(min X > max Y) = ∫ n φ(y) Φ(y)ⁿ⁻¹ Φ(δ − y)ᵖ dy, by quadrature. An interval
  built on that model must not exclude it: the interval's lower end is at most this bound;
* the **distribution-free bound**: a positive score fixed at c and negatives with P(Y < c) = θ
  have AUC θ and separate with probability θⁿ, so only an interval valid for every score
  distribution needs to reach down to 0.025^(1/min(p, n)) ≈ 1 − 3.7/min(p, n); the interval,
  built on the binormal shape, lies above it and so shrinks at least as fast as 1/n.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import integrate, optimize, special, stats

import confusionlab as cl

SIZES = [20, 100, 1_000, 10_000, 100_000, 1_000_000]


def log_separation(delta: float, p: int, n: int) -> float:
    """log P(every one of p N(δ, 1) scores exceeds every one of n N(0, 1) scores)."""

    def log_integrand(y):
        return math.log(n) + stats.norm.logpdf(y) + (n - 1) * special.log_ndtr(y) + p * special.log_ndtr(delta - y)

    grid = np.linspace(-12.0, 12.0 + delta, 20_001)
    logs = log_integrand(grid)
    top = float(logs.max())
    peak = float(grid[int(logs.argmax())])
    value, _ = integrate.quad(
        lambda y: math.exp(log_integrand(y) - top), grid[0], grid[-1], points=[peak], limit=500, epsabs=0.0
    )
    return top + math.log(value)


def binormal_gap(p: int, n: int, alpha: float = 0.025) -> float:
    """1 − θ at the exact equal-variance binormal bound."""
    delta = optimize.brentq(lambda d: log_separation(d, p, n) - math.log(alpha), 0.0, 40.0, xtol=1e-12)
    return float(stats.norm.sf(delta / math.sqrt(2.0)))


def separated(k: int) -> tuple[np.ndarray, np.ndarray]:
    y = np.r_[np.ones(k, np.int8), np.zeros(k, np.int8)]
    return y, y + 0.0


@pytest.mark.parametrize("direction", [1, -1], ids=["auc-1", "auc-0"])
def test_the_interval_at_a_perfect_separation_shrinks_between_the_binormal_and_the_free_bound(direction):
    gaps = []
    for k in SIZES:
        y, s = separated(k)
        curve = cl.roc_curve(y, direction * s)
        assert curve.value == (1.0 if direction == 1 else 0.0)
        lo, hi = curve.interval()
        gap = 1.0 - lo if direction == 1 else hi  # the distance of the far end from the observed AUC
        assert (hi == 1.0) if direction == 1 else (lo == 0.0)
        assert binormal_gap(k, k) <= gap <= 1.0 - 0.025 ** (1.0 / k), (k, lo, hi)
        gaps.append(gap)
    assert all(b < a / 2 for a, b in itertools.pairwise(gaps)), gaps  # shrinks with every tenfold
    assert gaps[-1] < 1e-8


def test_the_issue_reproduction_is_no_longer_zero_to_one():
    y, s = separated(500_000)
    curve = cl.roc_curve(y, s)
    for target in ("true_value", "next_test_set"):
        lo, hi = curve.interval(target=target)
        assert hi == 1.0 and 1.0 - lo < 1e-7
    assert "[1.000, 1.000]" in curve.summary()


def test_grouped_and_multiclass_intervals_at_a_separation_shrink_too():
    for k in (1_000, 100_000):
        y, s = separated(k)
        groups = np.tile(["a", "b"], k)
        ends = cl.roc_curve(y, s, groups=groups).intervals()
        for lo, hi in ends.values():
            # Bonferroni over two groups: each at 97.5 %, one-sided 1.25 %
            assert hi == 1.0 and binormal_gap(k // 2, k // 2, 0.0125) <= 1.0 - lo <= 1.0 - 0.0125 ** (2.0 / k)
    labels = np.repeat([0, 1, 2], 1_000)
    proba = np.eye(3)[labels] * 0.9 + 0.05
    lo, hi = cl.roc_curve(labels, proba, multi_class="ovr").interval()
    assert hi == 1.0 and 0.99 < lo < 1.0


def test_method_logit_keeps_the_boundary_rule():
    """``method="logit"`` asks for DeLong-logit by name: its boundary rule is unchanged (and stays wide)."""
    y, s = separated(1_000)
    lo, hi = cl.roc_curve(y, s).interval(method="logit")
    assert 0.0 < lo < 1e-6 and hi > 0.999
