"""A method's name means that method: ``RocCurve.interval(method="delong")`` is DeLong's interval at
every class size (checked against the 1988 paper's formulas, computed pair by pair), ``"auto"`` (the
default) the coverage-chosen rule the default always was, and the old explicit ``"delong"`` warns
where its answer changed."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from scipy.special import expit, logit
from scipy.stats import norm

import confusionlab as cl

from .test_delong import delong_1988


def _small(seed: int, p: int = 30, n: int = 45):
    rng = np.random.default_rng(seed)
    y = np.r_[np.ones(p, int), np.zeros(n, int)]
    return y, np.round(rng.normal(0.9 * y, 1.0), 1)  # ties included


def _papers_logit_interval(y, s, confidence=0.95, inflation=1.0):
    aucs, cov = delong_1988(y, [s])
    a, sd = float(aucs[0]), math.sqrt(inflation * cov[0, 0])
    half = norm.ppf(0.5 + confidence / 2) * sd / (a * (1 - a))
    return expit(logit(a) - half), expit(logit(a) + half)


@pytest.mark.parametrize("seed", range(4))
def test_delong_is_delongs_interval_below_100_examples(seed) -> None:
    y, s = _small(seed)
    curve = cl.roc_curve(y, s)
    with pytest.warns(FutureWarning, match=r"method='delong'\) now gives DeLong's interval"):
        got = curve.interval(0.95, method="delong")
    assert got == pytest.approx(_papers_logit_interval(y, s), rel=1e-10)
    with pytest.warns(FutureWarning, match="method='auto'"):
        wider = curve.interval(0.9, method="delong", target="next_test_set")
    assert wider == pytest.approx(_papers_logit_interval(y, s, 0.9, 2.0), rel=1e-10)
    assert got != curve.interval(0.95)  # the default, below 100: the score interval


@pytest.mark.parametrize("seed", range(3))
def test_auto_is_the_old_default(seed) -> None:
    y, s = _small(seed)
    small = cl.roc_curve(y, s)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert small.interval(0.95, method="auto") == small.interval(0.95) == small.interval(0.95, method="score")
        rng = np.random.default_rng(seed)
        y_big = np.r_[np.ones(150, int), np.zeros(160, int)]
        s_big = rng.normal(0.9 * y_big, 1.0)
        big = cl.roc_curve(y_big, s_big)
        assert big.interval(0.9, method="auto") == big.interval(0.9) == big.interval(0.9, method="logit")
        # where the old "delong" gave DeLong's interval already, it still does, without a warning
        assert big.interval(0.9, method="delong") == big.interval(0.9, method="logit")
        assert big.interval(0.9, method="delong") == pytest.approx(_papers_logit_interval(y_big, s_big, 0.9), rel=1e-10)


def test_at_the_boundary_delong_takes_the_boundary_rule() -> None:
    """AUC 1 (DeLong's variance 0): "delong" is the logit interval of the boundary rule (Hanley &
    McNeil's variance half a pair from the boundary), as ``"logit"``; ``"auto"`` the score interval."""
    y = np.r_[np.ones(150, int), np.zeros(150, int)]
    s = np.r_[np.linspace(1.0, 2.0, 150), np.linspace(-1.0, 0.0, 150)]
    curve = cl.roc_curve(y, s)
    assert curve.value == 1.0 and curve.variance == 0.0
    with pytest.warns(FutureWarning, match="DeLong's interval"):
        got = curve.interval(0.95, method="delong")
    pairs = 150 * 150
    a = (pairs + 0.5) / (pairs + 1.0)
    q1, q2 = a / (2 - a), 2 * a * a / (1 + a)
    var = (a * (1 - a) + 149 * (q1 - a * a) + 149 * (q2 - a * a)) / pairs
    half = norm.ppf(0.975) * math.sqrt(var) / (a * (1 - a))
    assert got == pytest.approx((expit(logit(a) - half), expit(logit(a) + half)), rel=1e-10)
    assert got == curve.interval(0.95, method="logit") and curve.interval(0.95) == curve.interval(0.95, method="score")


def test_the_method_is_checked() -> None:
    y, s = _small(0)
    with pytest.raises(cl.InvalidParameterError, match="method"):
        cl.roc_curve(y, s).interval(method="wald")
