"""DeLong's variance and paired covariance against a direct O(m·n) implementation of the 1988 paper.

DeLong, DeLong & Clarke-Pearson (1988), Biometrics 44:837–845: ψ(X, Y) = 1, ½, 0;
V10(Xᵢ) = (1/n) Σⱼ ψ(Xᵢ, Yⱼ), V01(Yⱼ) = (1/m) Σᵢ ψ(Xᵢ, Yⱼ); S10, S01 the sample
covariance matrices (ddof 1) of the placements over the classifiers; S = S10/m + S01/n.
"""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np
import pytest
from scipy.special import expit, logit
from scipy.stats import norm

import confusionlab as cl


def _psi(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The m × n kernel matrix, pair by pair."""
    return (x[:, None] > y[None, :]) + 0.5 * (x[:, None] == y[None, :])


def delong_1988(y: np.ndarray, scores: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(AUCs, covariance S) by the paper's formulas, O(m·n) per classifier."""
    pos, neg = y == 1, y == 0
    m, n = int(pos.sum()), int(neg.sum())
    v10, v01, aucs = [], [], []
    for x in scores:
        k = _psi(x[pos], x[neg])
        aucs.append(k.mean())
        v10.append(k.mean(axis=1))
        v01.append(k.mean(axis=0))
    v10, v01 = np.array(v10), np.array(v01)
    s10 = (v10 - v10.mean(axis=1, keepdims=True)) @ (v10 - v10.mean(axis=1, keepdims=True)).T / (m - 1)
    s01 = (v01 - v01.mean(axis=1, keepdims=True)) @ (v01 - v01.mean(axis=1, keepdims=True)).T / (n - 1)
    return np.array(aucs), s10 / m + s01 / n


def _data(seed, size=120, decimals=1, k=3):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, size)
    y[:2] = [0, 1]
    base = rng.normal(size=size)
    scores = [base + (0.3 + 0.4 * j) * y + 0.5 * (j > 0) * rng.normal(size=size) for j in range(k)]
    return y, [s if decimals is None else np.round(s, decimals) for s in scores]


@pytest.mark.parametrize("seed", range(8))
def test_variance_is_the_papers(seed):
    y, scores = _data(seed, decimals=[None, 1, 0][seed % 3], k=1)
    aucs, s = delong_1988(y, scores)
    curve = cl.roc_curve(y, scores[0])
    assert curve.value == pytest.approx(aucs[0], abs=1e-14)
    assert curve.variance == pytest.approx(s[0, 0], rel=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_logit_interval_from_the_papers_variance(seed):
    y, scores = _data(seed, k=1)
    aucs, s = delong_1988(y, scores)
    a, sd = aucs[0], math.sqrt(s[0, 0])
    z = norm.ppf(0.975)
    expected = expit(logit(a) - z * sd / (a * (1 - a))), expit(logit(a) + z * sd / (a * (1 - a)))
    assert cl.roc_curve(y, scores[0]).interval(0.95, method="logit") == pytest.approx(expected, rel=1e-10)
    wider = (
        expit(logit(a) - z * sd * math.sqrt(2) / (a * (1 - a))),
        expit(logit(a) + z * sd * math.sqrt(2) / (a * (1 - a))),
    )
    assert cl.roc_curve(y, scores[0]).interval(0.95, method="logit", target="next_test_set") == pytest.approx(
        wider, rel=1e-10
    )


def _binormal_variance(theta: float, p: int, n: int) -> float:
    """The equal-variance binormal AUC variance from scipy's bivariate normal CDF (Q = P(X > Y1, X > Y2))."""
    from scipy.stats import multivariate_normal

    delta = norm.ppf(theta)
    q = multivariate_normal([0, 0], [[1, 0.5], [0.5, 1]]).cdf([delta, delta])
    return (theta * (1 - theta) + (p + n - 2) * (q - theta**2)) / (p * n)


@pytest.mark.parametrize(("seed", "decimals"), [(0, 1), (1, None), (2, 2)])
def test_score_interval_solves_the_score_equation(seed, decimals):
    """Each end θ of method="score" solves (Â − θ)² = z²·r·V_BN(θ), r = max(1, V_DeLong / V_BN(Â));
    the default is it below 100 examples in the smaller class, the logit interval from there."""
    y, scores = _data(seed, size=150, decimals=decimals, k=1)
    aucs, s = delong_1988(y, scores)
    a, v = aucs[0], s[0, 0]
    p, n = int(y.sum()), int((1 - y).sum())
    r = max(1.0, v / _binormal_variance(a, p, n))
    z2 = norm.ppf(0.975) ** 2
    curve = cl.roc_curve(y, scores[0])
    lo, hi = curve.interval(0.95, method="score")
    assert lo < a < hi
    for theta in (lo, hi):
        assert (a - theta) ** 2 == pytest.approx(z2 * r * _binormal_variance(theta, p, n), rel=1e-5)
    for theta in np.linspace(lo, hi, 9)[1:-1]:
        assert (a - theta) ** 2 <= z2 * r * _binormal_variance(theta, p, n)
    assert curve.interval(0.95) == curve.interval(0.95, method="score")  # min(p, n) < 100
    big_y, big = _data(seed, size=600, decimals=decimals, k=1)
    big_curve = cl.roc_curve(big_y, big[0])
    assert min(big_curve.p, big_curve.n) >= 100
    assert big_curve.interval(0.95) == big_curve.interval(0.95, method="logit")


def test_the_score_interval_at_the_boundary_is_wilson_like():
    y = np.r_[np.zeros(10, int), np.ones(10, int)]
    for x, auc in ((np.arange(20.0), 1.0), (-np.arange(20.0), 0.0)):
        lo, hi = cl.roc_curve(y, x).interval(0.95)
        assert lo <= auc <= hi and 0.0 <= lo < hi <= 1.0 and hi - lo > 0.05
        # the end away from the boundary solves the score equation with DeLong's variance 0 (r = 1)
        theta = lo if auc == 1.0 else hi
        assert (auc - theta) ** 2 == pytest.approx(norm.ppf(0.975) ** 2 * _binormal_variance(theta, 10, 10), rel=1e-5)


@pytest.mark.parametrize("seed", range(6))
def test_paired_comparison_is_the_papers(seed):
    y, scores = _data(seed)
    aucs, s = delong_1988(y, scores[:2])
    c = cl.compare_auc(y, scores[0], scores[1])
    d = aucs[0] - aucs[1]
    sd = math.sqrt(s[0, 0] + s[1, 1] - 2 * s[0, 1])
    assert c.value == pytest.approx(d, abs=1e-14)
    assert c.p_value == pytest.approx(2 * norm.sf(abs(d) / sd), rel=1e-9)
    assert c.prob_greater == pytest.approx(norm.cdf(d / sd), rel=1e-9)
    z = norm.ppf(0.95)
    assert c.interval(0.9) == pytest.approx((d - z * sd, d + z * sd), rel=1e-9)
    np.testing.assert_allclose(c.covariance, s, rtol=1e-10)
    assert "interval for the true difference" in c.summary()  # names its question (issue 20)


def test_k_classifiers_holm():
    from statsmodels.stats.multitest import multipletests

    y, scores = _data(1, size=200, k=4)
    names = ["w", "x", "y", "z"]
    c = cl.compare_auc(y, dict(zip(names, scores, strict=True)))
    aucs, s = delong_1988(y, scores)
    raw = []
    for a, b in combinations(range(4), 2):
        d = aucs[a] - aucs[b]
        raw.append(2 * norm.sf(abs(d) / math.sqrt(s[a, a] + s[b, b] - 2 * s[a, b])))
        assert c.value[(names[a], names[b])] == pytest.approx(d, abs=1e-14)
    adjusted = multipletests(raw, method="holm")[1]
    for (a, b), expected in zip(combinations(range(4), 2), adjusted, strict=True):
        assert c.p_value[(names[a], names[b])] == pytest.approx(expected, rel=1e-9)
    assert set(c.interval()) == set(c.value)


def test_boundary_rule_keeps_a_positive_width():
    y = np.r_[np.zeros(10, int), np.ones(10, int)]
    for x, auc in ((np.arange(20.0), 1.0), (-np.arange(20.0), 0.0), (np.ones(20), 0.5)):
        curve = cl.roc_curve(y, x)
        assert curve.value == auc
        lo, hi = curve.interval(0.95, method="logit")
        assert 0.0 < lo < hi < 1.0
        assert lo <= auc <= hi or auc in (0.0, 1.0)
    lo, hi = cl.roc_curve(y, np.arange(20.0)).interval(0.95, method="logit")
    assert hi > 0.99 and lo < 0.95


def test_compare_identical_scores():
    y, scores = _data(2, k=1)
    c = cl.compare_auc(y, scores[0], scores[0])
    assert c.value == 0 and c.p_value == 1.0 and c.interval() == (0.0, 0.0)
