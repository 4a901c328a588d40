"""The bias lesson's table and forest plot (confusionlab.lessons.bias), against hand counts and scipy draws."""

from __future__ import annotations

from fractions import Fraction

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from matplotlib.colors import to_hex
from scipy import stats

from confusionlab import bias
from confusionlab.lessons.bias import EXCLUDES_COLOUR, HOLDS_COLOUR, interval_frame, plot_intervals

A, D = (2718, 3678, 84, 13900), (433, 679, 10, 8660)  # (TP, FN, FP, TN), the blog's model


@pytest.fixture(scope="module")
def blog() -> bias.BiasReport:
    # the lesson's question (notebooks/08): the next test set's disparity, asked for by name
    table = bias.CountTable.from_confusion(a=A, d=D)
    return bias.report_from_counts(table, stage="post", n_draws=4000, target="next_test_set")


def test_values_are_the_count_formulas(blog: bias.BiasReport) -> None:
    frame = interval_frame(blog, metrics=["DPPL", "DI", "RD", "DAR"])
    (tpa, fna, fpa, _), (tpd, fnd, fpd, _) = A, D
    qa, qd = Fraction(tpa + fpa, sum(A)), Fraction(tpd + fpd, sum(D))
    assert frame.loc["DPPL", "value"] == pytest.approx(float(qa - qd), abs=1e-15)
    assert frame.loc["DI", "value"] == pytest.approx(float(qd / qa), abs=1e-15)
    rd = Fraction(tpa, tpa + fna) - Fraction(tpd, tpd + fnd)
    dar = Fraction(tpa, tpa + fpa) - Fraction(tpd, tpd + fpd)
    assert frame.loc["RD", "value"] == pytest.approx(float(rd), abs=1e-15)
    assert frame.loc["DAR", "value"] == pytest.approx(float(dar), abs=1e-15)
    assert list(frame.method) == ["exact", "exact", "Monte Carlo", "Monte Carlo"]
    assert list(frame.no_bias) == [0.0, 1.0, 0.0, 0.0]
    assert list(frame.holds_no_bias) == [False, False, True, True]
    assert list(frame.index) == ["DPPL", "DI", "RD", "DAR"]


def test_exact_dppl_interval_agrees_with_scipy_draws(blog: bias.BiasReport) -> None:
    # independent: predicted positives of a new sample per facet ~ BetaBin(n, k + 1, n - k + 1)
    rng = np.random.default_rng(1)
    na, nd = sum(A), sum(D)
    ka, kd = A[0] + A[2], D[0] + D[2]
    qa = stats.betabinom(na, ka + 1, na - ka + 1).rvs(200_000, random_state=rng) / na
    qd = stats.betabinom(nd, kd + 1, nd - kd + 1).rvs(200_000, random_state=rng) / nd
    lo, hi = np.quantile(qa - qd, [0.025, 0.975])
    frame = interval_frame(blog, metrics=["DPPL"])
    assert frame.loc["DPPL", "lower"] == pytest.approx(lo, abs=1e-3)
    assert frame.loc["DPPL", "upper"] == pytest.approx(hi, abs=1e-3)
    assert frame.loc["DPPL", "prob_same_sign"] == pytest.approx(np.mean(qa - qd > 0), abs=1e-3)


def test_forest_plot_draws_one_bar_per_metric_coloured_by_verdict(blog: bias.BiasReport) -> None:
    names = ["DPPL", "DI", "RD", "DAR", "DCA"]
    ax = plot_intervals(blog, metrics=names)
    bars = ax.lines[: len(names)]
    colours = [to_hex(line.get_color()) for line in bars]
    holds = [blog[k].contains_no_bias() for k in names]
    assert colours == [HOLDS_COLOUR if h else EXCLUDES_COLOUR for h in holds]
    di = blog["DI"]
    np.testing.assert_allclose(bars[1].get_xdata(), np.array(di.interval()) - 1.0)  # DI is drawn as DI − 1
    assert [t.get_text() for t in ax.get_yticklabels()] == names
    assert ax.get_xlabel() == "metric − no-bias value" and ax.get_ylabel() and ax.get_title()
    assert len(ax.collections) == len(names)  # one marker per metric
    assert ax.lines[len(names)].get_xdata()[0] == 0.0  # the no-bias line
    plt.close("all")


@settings(max_examples=30, deadline=None)
@given(
    confidence=st.one_of(st.floats(allow_nan=True), st.integers(), st.text(max_size=3), st.none()),
    metrics=st.one_of(st.none(), st.text(max_size=4), st.lists(st.sampled_from(["DPPL", "DI", "XX", "FT"]))),
)
@example(confidence=0.5, metrics=[])  # found by hypothesis in CI: an empty list crashed in pandas
def test_hostile_arguments(blog: bias.BiasReport, confidence: object, metrics: object) -> None:
    try:
        frame = interval_frame(blog, confidence, metrics=metrics)
    except (ValueError, TypeError) as error:
        assert any(word in str(error) for word in ("confidence", "metrics")), error
        return
    assert len(frame) == (len(blog) - sum(m.value is None for m in blog.values()) if metrics is None else len(metrics))
    assert frame.lower.le(frame.upper).all()


def test_refuses_what_is_not_a_report() -> None:
    with pytest.raises(TypeError, match="report"):
        interval_frame({"DPPL": 0.1})
