"""The figures of lessons 01–04 draw what they claim: checked on the Agg backend against
independent references (exact fractions on the lattice, scipy.stats.binom / betabinom)."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib.colors import to_hex, to_rgb
from scipy import stats

import confusionlab as cl
from confusionlab.lessons import distributions as ld
from confusionlab.lessons.style import MODEL_COLOURS, NEUTRAL

CM = cl.ConfusionMatrix(tp=16, fn=4, fp=8, tn=32)


@pytest.fixture(autouse=True)
def _close_figures() -> Any:
    yield
    plt.close("all")


def _ba_binomial_pmf() -> dict[Fraction, float]:
    """BA = (2 TP + TN)/80 on p = 20, n = 40, TP ~ Bin(20, 0.8), TN ~ Bin(40, 0.8): grouped exactly."""
    pmf: dict[Fraction, float] = defaultdict(float)
    for tp in range(21):
        for tn in range(41):
            pmf[Fraction(2 * tp + tn, 80)] += stats.binom.pmf(tp, 20, 0.8) * stats.binom.pmf(tn, 40, 0.8)
    return pmf


def test_plot_pmf_draws_one_stick_per_exact_value() -> None:
    reference = _ba_binomial_pmf()
    d = cl.metric_distribution(CM, "balanced_accuracy", "binomial", tolerance=0)
    ax = ld.plot_pmf(d, model="binomial", xlabel="balanced accuracy", confidence=0.95)
    segments = ax.collections[0].get_segments()
    assert len(segments) == len(reference) == 81
    heights = sorted(seg[1, 1] for seg in segments)
    assert heights[-1] == pytest.approx(max(reference.values()), rel=1e-9)
    assert sum(heights) == pytest.approx(1.0, abs=1e-12)
    assert to_hex(ax.collections[0].get_colors()[0]) == MODEL_COLOURS["binomial"]
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("balanced accuracy", "probability")
    mean = next(line for line in ax.lines if line.get_label() == "mean")
    assert mean.get_xdata()[0] == pytest.approx(float(sum(k * v for k, v in reference.items())), abs=1e-12)
    assert ax.get_title().startswith("binomial: 81 values")


def test_plot_model_pair_shows_both_models_with_the_predictive_mean_below_the_observed() -> None:
    axes = ld.plot_model_pair(CM, "recall", tolerance=0)
    assert len(axes) == 2
    for ax, model in zip(axes, ld.MODELS, strict=True):
        assert to_hex(ax.collections[0].get_colors()[0]) == MODEL_COLOURS[model]
        assert ax.get_xlabel() and ax.get_ylabel() == "probability"
    means = [next(line for line in ax.lines if line.get_label() == "mean").get_xdata()[0] for ax in axes]
    # TPR = TP/20: binomial mean 16/20; beta-binomial mean (16 + 1)/(20 + 2) (rule of succession).
    assert means[0] == pytest.approx(stats.binom.mean(20, 0.8) / 20, abs=1e-12)
    assert means[1] == pytest.approx(stats.betabinom.mean(20, 17, 5) / 20, abs=1e-12)
    assert means[1] < 0.8
    # The shaded span is the central 95% interval of each model.
    spans = [ax.patches[0].get_x() for ax in axes]
    assert spans[0] == pytest.approx(stats.binom.ppf(0.025, 20, 0.8) / 20)
    assert spans[1] == pytest.approx(stats.betabinom.ppf(0.025, 20, 17, 5) / 20)


def test_plot_multiplicities_counts_lattice_points() -> None:
    d = cl.metric_distribution(CM, "balanced_accuracy", tolerance=0)
    ax = ld.plot_multiplicities(d, xlabel="balanced accuracy")
    heights = [seg[1, 1] for seg in ax.collections[0].get_segments()]
    counts: dict[Fraction, int] = defaultdict(int)
    for tp in range(21):
        for tn in range(41):
            counts[Fraction(2 * tp + tn, 80)] += 1
    assert sorted(heights) == sorted(counts.values())
    assert ax.get_ylabel() == "lattice points" and ax.get_xlabel() == "balanced accuracy"
    # issue 25: the count axis has integer ticks, the title names the metric by its label
    assert all(float(t).is_integer() for t in ax.get_yticks())
    assert ax.get_title() == f"{cl.METRICS['balanced_accuracy'].label}: 81 distinct values"


def test_plot_contours_colours_low_red_high_blue_and_lines_have_slope_n_over_p() -> None:
    ax = ld.plot_contours("accuracy", 20, 40, window=(0, 1, 0, 1))
    lines = [line for line in ax.lines if line.get_label() != "_child0" or True][:4]
    assert len(lines) == 4
    red, blue = (to_rgb(line.get_color()) for line in (lines[0], lines[-1]))
    assert red[0] > red[2] and blue[2] > blue[0]  # level 0.2 red, level 0.8 blue
    for line in lines:
        x, y = line.get_xdata(), line.get_ydata()
        assert (y[-1] - y[0]) / (x[-1] - x[0]) == pytest.approx(Fraction(40, 20))
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("FPR", "TPR")


def test_plot_contour_families_one_panel_per_metric_with_common_point() -> None:
    axes = ld.plot_contour_families(["f1", "mcc"], 20, 40, common_points={"f1": (-0.5, 0.0)}, ncols=3)
    assert len(axes) == 2 and len(axes[0].figure.axes) == 2
    dot = axes[0].lines[-1]
    assert (dot.get_xdata()[0], dot.get_ydata()[0]) == (-0.5, 0.0)
    for ax in axes:
        assert ax.get_xlabel() == "FPR" and ax.get_ylabel() == "TPR" and ax.get_title()


def test_plot_mcc_ellipses_and_eccentricity() -> None:
    axes = ld.plot_mcc_ellipses({0.5: (50, 50), 0.2: (20, 80)}, ks=(0.5,))
    assert len(axes) == 2
    # At prevalence 1/2 the |MCC| = 0.5 ellipse has e = sqrt(1 - k^2) = 0.866.
    assert "0.866" in axes[0].get_title()
    for x, y in ((line.get_xdata(), line.get_ydata()) for line in axes[0].lines[:2]):
        u = 0.5 * y + 0.5 * x
        assert np.allclose(0.25 * (y - x) ** 2, 0.25 * u * (1 - u), atol=1e-9)
    ax = ld.plot_eccentricity(ks=(0.5,), paper={0.5: 0.866})
    curve = ax.lines[0]
    i = int(np.argmin(np.abs(curve.get_xdata() - 0.5)))
    assert curve.get_ydata()[i] == pytest.approx(np.sqrt(0.75), abs=1e-9)
    assert ax.get_xlabel() and ax.get_ylabel()


def test_plot_lattice_contours_marks_the_points_found() -> None:
    tp = np.arange(21)
    fp = 4 * tp - 20  # F1 = 2/5 <=> FP = 4 TP - 20
    keep = (fp >= 0) & (fp <= 40)
    marked = {Fraction(2, 5): (fp[keep] / 40, tp[keep] / 20)}
    ax = ld.plot_lattice_contours("f1", 20, 40, marked, observed=CM)
    label = cl.METRICS["f1"].label
    dots = [line for line in ax.lines if line.get_label().startswith(f"{label} = 2/5")]
    assert len(dots) == 1 and len(dots[0].get_xdata()) == 11
    assert label in ax.get_title()
    # issue 25: the count axes (FP on top, TP on the right) have integer ticks only
    secondary = list(ax.child_axes)
    assert len(secondary) == 2
    top, right = secondary
    ax.figure.canvas.draw()
    assert top.xaxis.get_label_text() == "FP" and right.yaxis.get_label_text() == "TP"
    assert all(float(t).is_integer() for t in top.get_xticks())
    assert all(float(t).is_integer() for t in right.get_yticks())
    lattice = ax.lines[0]
    assert len(lattice.get_xdata()) == 21 * 41
    assert to_hex(ax.lines[-1].get_color()) == NEUTRAL  # the observed star
    assert ax.get_xlabel() == "FPR = FP / 40" and ax.get_ylabel() == "TPR = TP / 20"


def test_plot_pmf_histograms_sum_to_one_and_darken_with_n() -> None:
    dists = {f"N = {60 * m}": cl.metric_distribution(CM.scaled(m), "mcc") for m in (1, 4)}
    ax = ld.plot_pmf_histograms(dists, model="beta-binomial", bin_width=0.01, xlabel="MCC")
    assert len(ax.patches) == 2
    for patch in ax.patches:
        assert patch._values.sum() == pytest.approx(1.0, abs=1e-9)
    light, dark = (np.array(to_rgb(p.get_edgecolor())) for p in ax.patches)
    assert light.sum() > dark.sum()
    assert np.allclose(dark, to_rgb(MODEL_COLOURS["beta-binomial"]))
    assert ax.get_ylabel() == "probability per bin of 0.01"


def test_plot_sd_loglog_fits_the_slope() -> None:
    sizes = [60, 240, 960]
    sds = {("mcc", "binomial"): [0.1 * (60 / s) ** 0.5 for s in sizes], ("mcc", "beta-binomial"): [0.2, 0.05, 0.0125]}
    slopes = ld.plot_sd_loglog(sizes, sds, paper={("mcc", "binomial"): [(60, 0.1)]})
    assert slopes["mcc", "binomial"] == pytest.approx(-0.5)
    assert slopes["mcc", "beta-binomial"] == pytest.approx(-1.0)
    ax = plt.gca()
    assert ax.get_xscale() == "log" and ax.get_xlabel() == "test-set size N"


def test_plot_intervals_shades_the_central_interval() -> None:
    dists = {model: cl.metric_distribution(CM, "recall", model, tolerance=0) for model in ld.MODELS}
    ax = ld.plot_intervals(dists, observed=0.8, xlabel="TPR")
    spans = [patch for patch in ax.patches if patch.get_alpha() == 0.12]
    lo, hi = stats.binom.interval(0.95, 20, 0.8)
    x0 = spans[0].get_x()
    assert (x0, x0 + spans[0].get_width()) == pytest.approx((lo / 20, hi / 20))
    assert ax.get_ylabel() == "probability per 0.02"


@settings(max_examples=40, deadline=None)
@given(
    p=st.one_of(st.integers(-3, 30), st.floats(allow_nan=True), st.text(max_size=3), st.none()),
    n=st.one_of(st.integers(-3, 30), st.just(10**9)),
    width=st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-2, 2), st.text(max_size=2)),
    k=st.one_of(st.integers(-2, 5), st.floats(allow_nan=True), st.just(8589934592.0)),
    metric=st.sampled_from(["mcc", "f1", "nope", "lr_plus"]),
)
def test_hostile_arguments_give_a_figure_or_a_named_error(p: Any, n: Any, width: Any, k: Any, metric: str) -> None:
    """Every public helper: a drawing, or a ValueError/TypeError/KeyError naming what is wrong."""
    for call, names in (
        (lambda: ld.plot_contours(metric, p, 20, levels=[0.5]), ("p", "metric", "nope")),
        (lambda: ld.plot_lattice_contours("f1", 5, n, {}), ("n",)),
        (lambda: ld.plot_pmf_histograms({"a": cl.metric_distribution(CM, "mcc")}, bin_width=width), ("bin_width",)),
        (lambda: ld.shades("#2166ac", k), ("k",)),
        (lambda: ld.default_levels(metric), ("nope",)),
    ):
        try:
            call()
        except (ValueError, TypeError, KeyError) as error:
            assert any(name in str(error) for name in names), error
        plt.close("all")


def _luminance(colour: Any) -> float:
    r, g, b = to_rgb(colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def test_lattice_contours_are_drawn_darker_than_the_metric_scale() -> None:
    """Issue 25: the F1 = 2/5 and 2/3 contours sit near RdBu's pale middle; drawn darker, they read on the dots."""
    marked = {Fraction(2, 5): (np.array([0.0]), np.array([0.55])), Fraction(2, 3): (np.array([0.0]), np.array([0.5]))}
    ax = ld.plot_lattice_contours("f1", 20, 40, marked)
    scale = ld._level_colours("f1", [0.4, 2 / 3])
    drawn = [line.get_color() for line in ax.lines if line.get_linestyle() == "-" and line.get_marker() in ("None", "")]
    assert drawn, "no solid contour line"
    assert max(_luminance(c) for c in drawn) < min(_luminance(c) for c in scale)
    assert max(_luminance(c) for c in drawn) < 0.6
    assert ld.darker("#ffffff", 0.35) == pytest.approx((0.65, 0.65, 0.65))
    for bad in (-0.1, 1.5, True, "x"):
        with pytest.raises(cl.InvalidParameterError, match="amount"):
            ld.darker("#ffffff", bad)


def test_plot_pmf_legend_names_the_model_interval_and_mean() -> None:
    d = cl.metric_distribution(CM, "balanced_accuracy")
    ax = ld.plot_pmf(d, model="beta-binomial", confidence=0.95, legend=True)
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert texts == ["beta-binomial PMF", "central 95% interval", "mean"]
    assert ld.plot_pmf(d).get_legend() is None


def test_plot_three_questions_shows_the_three_sds_measured_independently() -> None:
    """Lesson 01's figure: binomial plug-in, true value, next test set — SDs from scipy and simulation.

    The binomial and beta-binomial SDs are exact sums over the 861 lattice points with scipy's PMFs; the
    true value's SD comes from 200,000 scipy Beta draws of the two rates (Monte Carlo SE ~ 0.0002).
    """
    mcc = cl.METRICS["mcc"]
    tp, tn = np.meshgrid(np.arange(21), np.arange(41), indexing="ij")
    values = mcc.values(tp, 20 - tp, 40 - tn, tn)

    def lattice_sd(w: np.ndarray) -> float:
        mean = float(np.sum(w * values))
        return float(np.sqrt(np.sum(w * (values - mean) ** 2)))

    binomial = lattice_sd(np.outer(stats.binom.pmf(np.arange(21), 20, 0.8), stats.binom.pmf(np.arange(41), 40, 0.8)))
    predictive = lattice_sd(
        np.outer(stats.betabinom.pmf(np.arange(21), 20, 17, 5), stats.betabinom.pmf(np.arange(41), 40, 33, 9))
    )
    rng = np.random.default_rng(5)
    tpr, tnr = stats.beta(17, 5).rvs(200_000, random_state=rng), stats.beta(33, 9).rvs(200_000, random_state=rng)
    true_sd = float(mcc.values(20 * tpr, 20 * (1 - tpr), 40 * (1 - tnr), 40 * tnr).std())

    dists = ld.three_questions(CM, "mcc")
    sds = [d.std() for d in dists.values()]
    assert sds[0] == pytest.approx(binomial, abs=1e-9)
    assert sds[2] == pytest.approx(predictive, abs=1e-9)
    assert sds[1] == pytest.approx(true_sd, abs=0.002)
    assert [round(s, 3) for s in (binomial, true_sd, predictive)] == [0.106, 0.104, 0.151]

    axes = ld.plot_three_questions(CM, "mcc")
    assert len(axes) == 3
    from confusionlab import palette

    for ax, colour, sd in zip(axes, ("binomial", "true_value", "beta-binomial"), sds, strict=True):
        assert f"SD {sd:.3f}" in ax.get_title()
        assert to_hex(ax.patches[0].get_facecolor()) == palette.MODEL_COLOURS[colour]
        assert ax.get_xlabel() == mcc.label
    lo, hi = axes[0].get_xlim()
    assert lo > -1 and hi <= 1.1  # zoomed on the mass, not the whole [-1, 1]
