"""The figures of lessons 05, 06 and 10 draw what they say, in the convention's colours.

References are independent of the helpers: the bin masses are recomputed with
fractions.Fraction from the exact PMFs, the colours are the literal hex values of
confusionlab.lessons.style, the slider's counts are worked by hand.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib.colors import to_hex

import confusionlab as cl
from confusionlab.lessons.comparison import (
    class_balance_view,
    plot_difference,
    plot_half_width,
    plot_lower_tail,
    plot_pmf_histograms,
    plot_prob_greater,
    plot_sd_curve,
)

BLUE, RED, GREY, GREEN, PURPLE = "#2166ac", "#b2182b", "#404040", "#1b7837", "#762a83"


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def test_sd_curve_draws_curve_paper_and_floor() -> None:
    ax = plot_sd_curve([20, 80, 200, 1000], [0.09, 0.07, 0.066, 0.064], xlabel="negatives n",
                       paper={20: 0.0895, 80: 0.0708}, floor=0.0632, floor_label="plateau", log_x=True)  # fmt: skip
    curve, paper, floor = ax.lines
    assert to_hex(curve.get_color()) == BLUE and list(curve.get_xdata()) == [20, 80, 200, 1000]
    assert list(paper.get_ydata()) == [0.0895, 0.0708] and paper.get_marker() == "x"
    assert to_hex(floor.get_color()) == GREY and list(floor.get_ydata()) == [0.0632, 0.0632]
    assert ax.get_xscale() == "log" and ax.get_xlabel() == "negatives n" and ax.get_title()
    assert [t.get_text() for t in ax.get_legend().get_texts()][-1] == "plateau = 0.0632"


def test_pmf_histograms_bin_the_exact_mass() -> None:
    # TP ~ BetaBin(4, 4, 2) and TN ~ BetaBin(4, 3, 3): accuracy (TP + TN)/8 on 9 values, binned by hand.
    cm = cl.ConfusionMatrix(tp=3, fn=1, fp=2, tn=2)
    d = cl.metric_distribution(cm, "accuracy", tolerance=0)

    def betabin(k: int, n: int, a: int, b: int) -> Fraction:
        from math import comb

        def beta(x: int, y: int) -> Fraction:  # B(x, y) for integers
            from math import factorial

            return Fraction(factorial(x - 1) * factorial(y - 1), factorial(x + y - 1))

        return comb(n, k) * beta(k + a, n - k + b) / beta(a, b)

    exact = {}
    for tp in range(5):
        for tn in range(5):
            key = Fraction(tp + tn, 8)
            exact[key] = exact.get(key, 0) + betabin(tp, 4, 4, 2) * betabin(tn, 4, 3, 3)
    edges = np.array([0, 0.25, 0.5, 0.75, 1.0])  # numpy's last bin holds its right edge
    want = [sum(m for v, m in exact.items() if lo <= v < hi or v == hi == 1) for lo, hi in pairwise(edges)]
    ax = plot_pmf_histograms({"A": d, "B": d}, edges, xlabel="accuracy", fill=True)
    assert len(ax.patches) == 2
    assert [to_hex(p.get_facecolor()[:3]) for p in ax.patches] == [GREEN, PURPLE]  # A and B get the pair colours
    heights = ax.patches[0].get_data().values
    assert np.allclose(heights, [float(w) for w in want], atol=1e-12)
    assert ax.get_xlabel() == "accuracy" and ax.get_ylabel() == "probability per bin of 0.25" and ax.get_title()
    other = plot_pmf_histograms({"p = 10": d, "p = 500": d, "p = 20": d}, edges, xlabel="x")
    assert [to_hex(p.get_edgecolor()) for p in other.patches] == [RED, BLUE, GREY]


def test_difference_shades_the_bins_at_or_above_zero() -> None:
    a = cl.metric_distribution(cl.ConfusionMatrix(tp=8, fn=2, fp=3, tn=7), "accuracy")
    b = cl.metric_distribution(cl.ConfusionMatrix(tp=6, fn=4, fp=3, tn=7), "accuracy")
    r = cl.compare(a, b)
    edges = np.linspace(-1, 1, 41)
    ax = plot_difference(r.difference, r.prob_greater, bins=edges)
    total, shaded = ax.patches
    assert np.all(total.get_data().values >= shaded.get_data().values)
    heights = shaded.get_data().values
    assert np.all(heights[edges[:-1] < 0] == 0) and heights[edges[:-1] >= 0].sum() > 0
    # brute force: the mass of the shaded bins is P(A - B >= 0) = P(A > B) + P(A = B)
    pairs_a = zip(a.values, a.probabilities, strict=True)
    brute = sum(
        pa * pb for va, pa in pairs_a for vb, pb in zip(b.values, b.probabilities, strict=True) if va - vb >= -1e-12
    )
    assert abs(heights.sum() - brute) < 1e-9
    assert to_hex(shaded.get_facecolor()[:3]) == GREEN
    assert ax.get_legend().get_texts()[0].get_text() == f"P(A > B) = {r.prob_greater:.3f}"
    assert ax.get_xlabel() and ax.get_ylabel() and ax.get_title()


def test_lower_tail_is_the_cdf_of_the_difference_on_a_log_scale() -> None:
    """Each point of the curve is P(A − B ≤ x), summed by brute force over the two PMFs' pairs."""
    a = cl.metric_distribution(cl.ConfusionMatrix(tp=8, fn=2, fp=3, tn=7), "accuracy")
    b = cl.metric_distribution(cl.ConfusionMatrix(tp=6, fn=4, fp=3, tn=7), "accuracy")
    difference = cl.compare(a, b).difference
    ax = plot_lower_tail({"A − B": difference, "again": difference}, upto=0.1, xlabel="x")
    first, second, zero = ax.lines
    pairs = [
        (va - vb, pa * pb)
        for va, pa in zip(a.values, a.probabilities, strict=True)
        for vb, pb in zip(b.values, b.probabilities, strict=True)
    ]
    xs, ys = first.get_xdata(), first.get_ydata()
    assert len(xs) > 5 and xs.max() <= 0.1 + 1e-12
    for x, y in zip(xs, ys, strict=True):
        assert abs(y - sum(p for d, p in pairs if d <= x + 1e-12)) < 1e-9, x
    at_zero = sum(p for d, p in pairs if d <= 1e-12)
    assert ax.get_legend().get_texts()[0].get_text() == f"A − B: P(X ≤ 0) = {at_zero:.2g}"
    assert ax.get_yscale() == "log" and list(zero.get_xdata()) == [0, 0]
    assert [to_hex(first.get_color()), to_hex(second.get_color())] == [RED, BLUE]
    for bad in (float("nan"), True, "0.1"):
        with pytest.raises(cl.InvalidParameterError, match="upto"):
            plot_lower_tail({"A − B": difference}, upto=bad)
    with pytest.raises(cl.InvalidParameterError, match="distributions"):
        plot_lower_tail({}, upto=0.1)


def test_prob_greater_curve_and_limit() -> None:
    ax = plot_prob_greater([285, 570, 1140], [0.0059, 0.0016, 0.0005], limit=0.0001, log_y=True, ylabel="P(A ≤ B)")
    curve, limit = ax.lines
    assert to_hex(curve.get_color()) == GREEN and to_hex(limit.get_color()) == GREY
    assert ax.get_xscale() == ax.get_yscale() == "log" and ax.get_ylabel() == "P(A ≤ B)" and ax.get_title()
    with pytest.raises(ValueError, match="probabilities"):
        plot_prob_greater([1, 2], [0.5, 1.5])
    with pytest.raises(ValueError, match="sizes"):
        plot_prob_greater([0, 2], [0.5, 0.5])
    with pytest.raises(ValueError, match="limit"):
        plot_prob_greater([1, 2], [0.5, 0.5], limit=2)


def test_half_width_staircase() -> None:
    ax = plot_half_width([10, 11, 12], [0.12, 0.13, 0.09], half_width=0.1, plan_size=12, plan_half_width=0.09,
                         approx=[0.12, 0.11, 0.1])  # fmt: skip
    staircase, approx, target, plan = ax.lines
    assert list(approx.get_ydata()) == [0.12, 0.11, 0.1]
    assert staircase.get_drawstyle() == "steps-post" and to_hex(staircase.get_color()) == BLUE
    assert list(target.get_ydata()) == [0.1, 0.1] and to_hex(target.get_color()) == RED
    assert list(plan.get_xdata()) == [12]
    assert ax.get_xlabel() == "test-set size N" and ax.get_ylabel() and ax.get_title()


def test_class_balance_slider_drives_the_view() -> None:
    box = class_balance_view(1000, tpr=0.8, tnr=0.8, prevalence=0.01)
    slider, pmf = box.children
    assert (pmf.p, pmf.n, pmf.tp, pmf.tn) == (10, 990, 8, 792)
    assert pmf.models == ["beta-binomial"] and pmf.metric == "balanced_accuracy"
    slider.value = 0.1  # p = 100, TP = 80, TN = round(0.8 * 900) = 720
    assert (pmf.p, pmf.n, pmf.tp, pmf.tn) == (100, 900, 80, 720)
    sd = pmf.distributions()["beta-binomial"].std()
    assert abs(sd - 0.0298) <= 5e-5  # the paper: BA sd 0.0298 with p = 100 of N = 1000
    slider.value = 0.005
    assert (pmf.p, pmf.tp) == (5, 4)


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: class_balance_view(1), "N"),
        (lambda: class_balance_view(100, tpr=1.5), "tpr"),
        (lambda: class_balance_view(100, prevalence=-0.1), "prevalence"),
        (lambda: plot_sd_curve([1, 2], [0.1], xlabel="x"), "x and sd"),
        (lambda: plot_pmf_histograms({}, [0, 1], xlabel="x"), "distributions"),
        (lambda: plot_half_width([1], [0.1], half_width=0.1, plan_size=-1, plan_half_width=0.1), "plan_size"),
    ],
)
def test_bad_arguments_are_named(call, name: str) -> None:
    with pytest.raises((ValueError, TypeError), match=name):
        call()


hostile = st.one_of(
    st.none(),
    st.text(max_size=3),
    st.floats(allow_nan=True, allow_infinity=True),
    st.lists(st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-5, 10**6)), max_size=6),
    st.integers(-(10**12), 10**12),
)


@settings(max_examples=60, deadline=None)
@given(sizes=hostile, probabilities=hostile, limit=st.one_of(st.none(), st.floats()))
def test_prob_greater_hostile(sizes, probabilities, limit) -> None:
    try:
        ax = plot_prob_greater(sizes, probabilities, limit=limit)
    except (ValueError, TypeError) as err:
        assert any(w in str(err) for w in ("sizes", "probabilities", "limit"))
    else:
        assert len(ax.lines) == 1 + (limit is not None)
    plt.close("all")


@settings(max_examples=60, deadline=None)
@given(x=hostile, sd=hostile, bins=hostile)
def test_sd_curve_and_histograms_hostile(x, sd, bins) -> None:
    try:
        plot_sd_curve(x, sd, xlabel="x")
    except (ValueError, TypeError) as err:
        assert "x" in str(err) or "sd" in str(err)
    d = cl.metric_distribution(cl.ConfusionMatrix(tp=1, fn=1, fp=1, tn=1), "accuracy")
    try:
        plot_pmf_histograms({"a": d}, bins, xlabel="x")
    except (ValueError, TypeError) as err:
        assert "bins" in str(err)
    plt.close("all")


@settings(max_examples=40, deadline=None)
@given(N=st.one_of(st.integers(-10, 30_000), st.floats(), st.text(max_size=2)), pi=st.floats())
def test_class_balance_view_hostile(N, pi) -> None:
    try:
        box = class_balance_view(N, prevalence=pi)
    except (ValueError, TypeError) as err:
        assert "N" in str(err) or "prevalence" in str(err)
    else:
        assert box.pmf.p + box.pmf.n == N
