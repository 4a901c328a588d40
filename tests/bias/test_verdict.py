"""BiasMetric.verdict: the interval-and-margin rule, on constructed intervals and real facets."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from confusionlab._validation import check_margin
from confusionlab.bias import CountTable, report_from_counts
from confusionlab.bias.results import BiasMetric, verdict_of
from confusionlab.distribution import MetricDistribution


def _metric(lo: float, hi: float, name: str = "DPPL") -> BiasMetric:
    """A metric whose central interval at any level in (0, 1) is exactly [lo, hi] (two atoms of mass ½)."""
    values = np.array([lo, hi] if lo < hi else [lo])
    probs = np.full(values.size, 1.0 / values.size)

    def posterior() -> MetricDistribution:
        return MetricDistribution(values, probs, np.ones(values.size, dtype=np.int64), metric=name, model="test")

    return BiasMetric(name, name, (lo + hi) / 2, None, 1.0 if name == "DI" else 0.0, posterior)


def _reference_rule(lo: Fraction, hi: Fraction, v0: Fraction, margin: Fraction) -> str:
    """The rule written with set operations on exact rationals: I ∩ band empty → bias, I ⊆ band → fair."""
    band_lo, band_hi = v0 - margin, v0 + margin
    if max(lo, band_lo) > min(hi, band_hi):
        return "bias"
    if band_lo <= lo and hi <= band_hi:
        return "no material bias"
    return "insufficient evidence"


# Interval ends on a grid of eighths, so that every comparison with the band is exact in floating point.
EIGHTHS = st.integers(-16, 16).map(lambda k: Fraction(k, 8))


@settings(max_examples=300, deadline=None)
@given(EIGHTHS, EIGHTHS, st.integers(1, 12).map(lambda k: Fraction(k, 8)), st.sampled_from(["DPPL", "DI"]))
def test_verdict_follows_the_rule_on_constructed_intervals(a, b, margin, name):
    lo, hi = min(a, b), max(a, b)
    m = _metric(float(lo), float(hi), name)
    assert m.interval(0.95) == (float(lo), float(hi))
    v0 = Fraction(1) if name == "DI" else Fraction(0)
    assert m.verdict(float(margin)) == _reference_rule(lo, hi, v0, margin)


@pytest.mark.parametrize(
    ("lo", "hi", "expected"),
    [
        (0.11, 0.3, "bias"),  # entirely above the band [-0.1, 0.1]
        (-0.4, -0.1000001, "bias"),  # entirely below
        (0.1, 0.3, "insufficient evidence"),  # touches the band's edge: not entirely outside
        (-0.1, 0.1, "no material bias"),  # the band itself is inside (closed band)
        (-0.05, 0.05, "no material bias"),
        (-0.05, 0.15, "insufficient evidence"),
        (-0.5, 0.5, "insufficient evidence"),  # covers the band
        (0.2, math.inf, "bias"),
        (-math.inf, 0.05, "insufficient evidence"),
    ],
)
def test_verdict_edges(lo, hi, expected):
    assert _metric(lo, hi).verdict(0.1) == expected


def test_di_band_is_around_one():
    assert _metric(0.85, 1.1, "DI").verdict(0.2) == "no material bias"
    assert _metric(0.3, 0.7, "DI").verdict(0.2) == "bias"
    assert _metric(-0.1, 0.1, "DI").verdict(0.2) == "bias"  # around 0 is far from DI's no-bias value 1


def test_verdict_uses_the_interval_at_the_given_confidence():
    # 4,000 vs 4,000 rows with predicted-positive rates 0.50 and 0.44: beyond 0.01 at 80 %, not at 99.99 %
    t = CountTable.from_confusion(a=(1000, 1000, 1000, 1000), d=(880, 1120, 880, 1120))
    m = report_from_counts(t, stage="post", target="next_test_set")["DPPL"]
    for conf in (0.8, 0.9999):
        lo, hi = m.interval(conf)
        assert m.verdict(0.01, conf) == verdict_of(lo, hi, 0.0, 0.01)
    assert m.verdict(0.01, 0.8) == "bias"
    assert m.verdict(0.01, 0.9999) == "insufficient evidence"


def _betabinom_interval(k: int, n: int, confidence: float) -> tuple[int, int]:
    """scipy's central interval of the posterior predictive BetaBin(n, k + 1, n − k + 1)."""
    lo, hi = stats.betabinom(n, k + 1, n - k + 1).interval(confidence)
    return int(lo), int(hi)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 3),
    st.integers(0, 3),
    st.integers(0, 3),
    st.floats(0.001, 0.16),
)
def test_three_row_facet_is_never_fair(k_tp, k_fp, k_fn_extra, margin):
    # facet d: three rows (any mix of outcomes); facet a: 1,000 rows. The predicted-positive share of
    # three rows has a 95 % posterior predictive interval at least 1/3 wide (scipy's betabinom below),
    # so no margin under 1/6 can hold it: never "no material bias".
    tp = min(k_tp, 3)
    fp = min(k_fp, 3 - tp)
    fn = min(k_fn_extra, 3 - tp - fp)
    d = (tp, fn, fp, 3 - tp - fn - fp)
    t = CountTable.from_confusion(a=(300, 100, 50, 550), d=d)
    r = report_from_counts(t, n_draws=2000)
    k = tp + fp
    lo, hi = _betabinom_interval(k, 3, 0.95)
    assert (hi - lo) / 3 >= 1 / 3
    for name in ("DPPL", "DPL", "RD", "AD", "DAR"):
        if r[name].value is not None:
            assert r[name].verdict(margin) != "no material bias", (name, d, margin)


def test_empty_facet_and_ft_stay_errors():
    t = CountTable.from_confusion(a=(30, 10, 5, 55), d=(0, 0, 0, 0))
    m = report_from_counts(t, stage="post")["DPPL"]
    with pytest.raises(ValueError, match="facet d is empty"):
        m.verdict(0.1)
    ft = BiasMetric("FT", "Flip Test (FT)", 0.1, None, 0.0, None)
    with pytest.raises(ValueError, match="no posterior"):
        ft.verdict(0.1)


def test_a_margin_of_zero_asks_whether_the_metric_is_exactly_its_no_bias_value():
    assert _metric(0.0, 0.0).verdict(0) == "no material bias"  # the interval is the single point 0
    assert _metric(1.0, 1.0, "DI").verdict(0.0) == "no material bias"
    assert _metric(-0.1, 0.1).verdict(0) == "insufficient evidence"
    assert _metric(0.05, 0.1).verdict(0) == "bias"


@pytest.mark.parametrize("bad", [-0.1, -1e-300, math.nan, math.inf, -math.inf])
def test_bad_margin_value(bad):
    with pytest.raises(ValueError, match="margin"):
        _metric(0.0, 0.1).verdict(bad)


@pytest.mark.parametrize("bad", [None, "0.1", True, [0.1], np.array([0.1])])
def test_bad_margin_type(bad):
    with pytest.raises(TypeError, match="margin"):
        _metric(0.0, 0.1).verdict(bad)


@settings(max_examples=100, deadline=None)
@given(
    st.one_of(st.none(), st.booleans(), st.floats(), st.integers(-3, 3), st.text(max_size=3)),
    st.one_of(st.none(), st.booleans(), st.floats(), st.integers(-3, 3), st.text(max_size=3)),
)
def test_hostile_arguments(margin, confidence):
    m = _metric(-0.05, 0.2)
    try:
        v = m.verdict(margin, confidence)
    except (TypeError, ValueError) as exc:
        assert "margin" in str(exc) or "confidence" in str(exc)
    else:
        assert v in ("bias", "no material bias", "insufficient evidence")
        assert check_margin(margin) >= 0
