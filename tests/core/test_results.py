"""MetricDistribution and Comparison as results of the one protocol (value, interval,
to_frame, plot, view, summary, to_html).

Expected numbers come from scipy's betabinom and from the counts by hand, never from
the code under test.
"""

from __future__ import annotations

import math
import pickle
from fractions import Fraction

import ipywidgets
import matplotlib
import numpy as np
import pandas as pd
import pytest
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from scipy import stats

import confusionlab as cl
from confusionlab._result import Result
from confusionlab.distribution import Comparison
from confusionlab.metrics import fbeta_metric
from confusionlab.palette import MODEL_COLOURS

matplotlib.use("Agg")

CM = cl.ConfusionMatrix(tp=16, fn=4, fp=8, tn=32)  # p = 20, n = 40
WEAKER = cl.ConfusionMatrix(tp=12, fn=8, fp=8, tn=32)
#: TP of a new test set of 20 positives under the beta-binomial model: BetaBin(20, 16 + 1, 4 + 1).
RECALL_PMF = stats.betabinom(20, 17, 5).pmf(np.arange(21))


def test_both_are_results() -> None:
    assert issubclass(cl.MetricDistribution, Result) and issubclass(Comparison, Result)
    assert cl.MetricDistribution in Result.registry and Comparison in Result.registry


# ----------------------------------------------------------------------------- value
def test_value_is_the_observed_metric() -> None:
    d = cl.metric_distribution(CM, "recall")
    assert d.value == d.observed == 16 / 20
    assert d.value != pytest.approx(d.mean())  # the beta-binomial mean is 17/22, shrunk towards ½
    assert d.mean() == pytest.approx(17 / 22, abs=1e-12)
    mcc = cl.metric_distribution(CM, "mcc", "binomial")
    assert mcc.value == pytest.approx(480 / math.sqrt(24 * 36 * 20 * 40), rel=1e-15)  # (16·32 − 8·4)/√(…) = 1/√3
    true = cl.metric_distribution(CM, "recall", target="true_value")
    assert true.value == 0.8  # the point estimate of the true value too
    simplex = cl.metric_distribution(CM, "accuracy", "dirichlet-multinomial")
    assert simplex.value == 48 / 60


def test_value_of_an_undefined_observed_metric_follows_undefined() -> None:
    empty_positives = cl.ConfusionMatrix(tp=0, fn=0, fp=3, tn=5)  # TPR = 0/0: balanced accuracy is undefined
    assert cl.metric_distribution(empty_positives, "balanced_accuracy", tolerance=0).value == 0.0
    assert cl.metric_distribution(empty_positives, "balanced_accuracy", tolerance=0, undefined=0.5).value == 0.5
    excluded = cl.metric_distribution(empty_positives, "balanced_accuracy", tolerance=0, undefined="exclude")
    assert math.isnan(excluded.value)


def test_value_without_an_observed_matrix_is_the_mean() -> None:
    d = cl.MetricDistribution(np.array([0.0, 1.0]), np.array([0.25, 0.75]), np.array([1, 1]), metric="x", model="m")
    assert d.origin is None and d.cm is None and d.observed is None
    assert d.value == 0.75


def test_interval_is_unchanged() -> None:
    d = cl.metric_distribution(CM, "recall", tolerance=0)
    k = np.arange(21)
    cdf = np.cumsum(RECALL_PMF)
    for confidence in (0.5, 0.9, 0.95, 0.99):
        lo = k[np.searchsorted(cdf, (1 - confidence) / 2 - 1e-12)] / 20
        hi = k[np.searchsorted(cdf, (1 + confidence) / 2 - 1e-12)] / 20
        assert d.interval(confidence) == (lo, hi)
        assert d.interval(confidence=confidence) == (lo, hi)
    with pytest.raises(cl.InvalidParameterError, match="confidence"):
        d.interval(confidence=1.5)


# ----------------------------------------------------------------------------- to_frame
def test_to_frame_has_one_row_per_distinct_value() -> None:
    d = cl.metric_distribution(CM, "recall", tolerance=0)
    frame = d.to_frame()
    assert type(frame) is pd.DataFrame
    assert frame.columns.tolist() == ["value", "pmf", "cdf", "multiplicity"]
    np.testing.assert_allclose(frame["value"], np.arange(21) / 20, atol=1e-15)
    np.testing.assert_allclose(frame["pmf"], RECALL_PMF, rtol=1e-10)
    np.testing.assert_allclose(frame["cdf"], np.cumsum(RECALL_PMF), rtol=1e-10)
    assert frame["multiplicity"].tolist() == [41] * 21  # each TP with every TN of 40 negatives
    frame.loc[0, "pmf"] = 7.0  # a copy: the distribution is untouched
    assert d.pmf(0.0) == pytest.approx(RECALL_PMF[0], rel=1e-10)


# ----------------------------------------------------------------------------- plot
def test_plot_draws_sticks_in_the_models_colour_and_the_interval() -> None:
    d = cl.metric_distribution(CM, "recall", "binomial", tolerance=0)
    fig = d.plot()
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    sticks = ax.collections[0]
    assert len(sticks.get_segments()) == 21
    assert tuple(sticks.get_colors()[0]) == to_rgba(MODEL_COLOURS["binomial"])
    labels = ax.get_legend_handles_labels()[1]
    assert "central 95% interval" in labels and "observed 0.8" in labels
    own = Figure()
    target = own.add_subplot()
    assert d.plot(ax=target) is own and target.collections


def test_plot_of_infinite_values_draws_the_finite_ones() -> None:
    lr = cl.metric_distribution(cl.ConfusionMatrix(tp=16, fn=4, fp=1, tn=39), "lr_plus")
    assert lr.infinite_mass > 0
    ax = lr.plot().axes[0]
    assert any("P(±∞)" in t.get_text() for t in ax.texts)
    assert np.isfinite(np.concatenate(ax.collections[0].get_segments())).all()


# ----------------------------------------------------------------------------- view
@pytest.mark.parametrize("model", ["binomial", "beta-binomial"])
def test_view_is_the_metric_pmf_of_the_observed_matrix(model) -> None:
    from confusionlab.widgets.metric_pmf import MetricPMF

    d = cl.metric_distribution(CM, "balanced_accuracy", model, tolerance=0)
    widget = d.view()
    assert isinstance(widget, MetricPMF)
    assert (widget.p, widget.n, widget.tp, widget.tn) == (20, 40, 16, 32)
    assert widget.metric == "balanced_accuracy" and widget.models == [model] and widget.tolerance == 0
    shown = widget.distributions()[model]
    np.testing.assert_array_equal(shown.values, d.values)
    np.testing.assert_array_equal(shown.probabilities, d.probabilities)


@pytest.mark.parametrize(
    ("build", "reason"),
    [
        (lambda: cl.metric_distribution(CM, "mcc", "dirichlet-multinomial"), "slice models"),
        (lambda: cl.metric_distribution(CM, "mcc", target="true_value"), "true_value"),
        (lambda: cl.metric_distribution(CM, "mcc", future_size=90), "observed size"),
        (lambda: cl.metric_distribution(CM, "mcc", prior="jeffreys"), "uniform prior"),
        (lambda: cl.metric_distribution(CM, "mcc", undefined="exclude"), "0/0"),
        (lambda: cl.metric_distribution(CM, fbeta_metric(Fraction(1, 3))), "names another metric"),
        (
            lambda: cl.MetricDistribution(np.array([0.5]), np.array([1.0]), np.array([1]), metric="mcc", model="m"),
            "not computed from an observed confusion matrix",
        ),
    ],
)
def test_view_refuses_what_the_widget_cannot_show(build, reason) -> None:
    with pytest.raises(ValueError, match=rf"{reason}.*\.plot\(\)"):
        build().view()


# ----------------------------------------------------------------------------- summary, page
def test_summary_states_the_question_and_the_numbers() -> None:
    d = cl.metric_distribution(CM, "recall")
    text = d.summary()
    assert "new test set of 60 examples" in text and "[0.5, 1]" in text and "95%" in text and "0.8" in text
    lo, hi = stats.betabinom.ppf([0.1, 0.9], 20, 17, 5) / 20
    assert f"lies in [{lo:.4g}, {hi:.4g}] with 80% probability under the beta-binomial model" in d.summary(0.8)
    assert "true" in cl.metric_distribution(CM, "recall", target="true_value").summary()
    with pytest.raises(cl.InvalidParameterError, match="confidence"):
        d.summary(2)
    page = d.to_html()
    assert page.startswith("<!DOCTYPE html>") and "data:image/png;base64," in page


# ----------------------------------------------------------------------------- Comparison
def test_comparison_value_is_the_observed_difference() -> None:
    a, b = cl.metric_distribution(CM, "recall"), cl.metric_distribution(WEAKER, "recall")
    c = cl.compare(a, b)
    assert c.a is a and c.b is b
    assert c.value == pytest.approx(16 / 20 - 12 / 20, abs=1e-15)
    pa, pb = RECALL_PMF, stats.betabinom(20, 13, 9).pmf(np.arange(21))
    greater = sum(pa[i] * pb[j] for i in range(21) for j in range(21) if i > j)
    equal = sum(pa[i] * pb[i] for i in range(21))
    assert c.prob_greater == pytest.approx(greater, abs=1e-12)
    assert c.prob_equal == pytest.approx(equal, abs=1e-12)


def test_comparison_without_its_sides_falls_back_to_the_mean_difference() -> None:
    diff = cl.MetricDistribution(np.array([-0.1, 0.3]), np.array([0.5, 0.5]), np.array([1, 1]), metric="d", model="m")
    c = Comparison(0.5, 0.0, 0.5, diff)
    assert c.value == pytest.approx(0.1)
    assert c.interval(0.5) == (-0.1, 0.3)
    with pytest.raises(ValueError, match="without its two distributions"):
        c.view()
    mixed = cl.compare(
        cl.metric_distribution(CM, "recall"),
        cl.MetricDistribution(np.array([0.5]), np.array([1.0]), np.array([1]), metric="recall", model="m"),
    )
    assert mixed.value == pytest.approx(mixed.difference.mean())


def test_comparison_frame_plot_view_and_summary() -> None:
    a, b = cl.metric_distribution(CM, "recall"), cl.metric_distribution(WEAKER, "recall")
    c = cl.compare(a, b)
    frame = c.to_frame()
    assert type(frame) is pd.DataFrame and len(frame) == 1
    row = frame.iloc[0]
    assert row["metric"] == "recall" and row["prob_greater"] == c.prob_greater
    assert (row["lower"], row["upper"]) == c.interval(0.95) and row["difference"] == c.value
    ax = c.plot().axes[0]
    assert ax.collections and "P(A > B)" in ax.get_title()
    widget = c.view()
    assert isinstance(widget, ipywidgets.HBox) and len(widget.children) == 2
    assert "P(A > B) = 0.79" in c.summary()
    assert c.to_html().startswith("<!DOCTYPE html>")


def test_a_large_support_is_drawn_as_mass_per_bin() -> None:
    """A difference of two MCC distributions holds ~250,000 values: binned, not 250,000 sticks."""
    from matplotlib.patches import StepPatch

    from confusionlab.distribution import MAX_STICKS

    c = cl.compare(cl.metric_distribution(CM, "mcc"), cl.metric_distribution(WEAKER, "mcc"))
    assert len(c.difference) > MAX_STICKS
    ax = c.plot().axes[0]
    (steps,) = [p for p in ax.patches if isinstance(p, StepPatch)]
    mass = steps.get_data().values
    finite = np.isfinite(c.difference.values)
    assert mass.sum() == pytest.approx(c.difference.pmf(c.difference.values[finite]).sum(), rel=1e-9)


def test_results_pickle_with_their_origin() -> None:
    d = cl.metric_distribution(CM, "mcc")
    back = pickle.loads(pickle.dumps(d))
    assert back.value == d.value and back.origin == d.origin and back.interval() == d.interval()
    c = pickle.loads(pickle.dumps(cl.compare(d, cl.metric_distribution(WEAKER, "mcc"))))
    assert c.value == pytest.approx(d.value - cl.metric_value(WEAKER, "mcc"), abs=1e-15)
