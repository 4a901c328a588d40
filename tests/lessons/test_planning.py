"""Lesson 11's optional figure draws what it says: the rule of thumb's relative error against the exact plan.

References are independent of the helper: the errors are worked with fractions.Fraction from the sizes
given, the colour is the literal hex value of the palette's sequential scale.
"""

from __future__ import annotations

from fractions import Fraction

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.colors import to_hex

from confusionlab import InvalidParameterError
from confusionlab.lessons.planning import MAX_PILOTS, plot_rule_of_thumb

H = [0.1, 0.07, 0.05, 0.03]
EXACT = [415, 850, 1695, 4696]
RULES = {2000: [423, 862, 1690, 4693], 100: [404, 824, 1614, 4483]}


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def test_each_pilot_is_one_line_of_relative_errors_in_percent() -> None:
    _, ax = plt.subplots()
    errors = plot_rule_of_thumb(H, EXACT, RULES, metric="mcc", ax=ax)
    assert list(errors) == [100, 2000]
    lines = [line for line in ax.lines if line.get_label().startswith("rule")]
    assert [line.get_label() for line in lines] == ["rule from a pilot of N₀ = 100", "rule from a pilot of N₀ = 2,000"]
    for line, pilot in zip(lines, (100, 2000), strict=True):
        expected = [float(100 * (Fraction(r, e) - 1)) for r, e in zip(RULES[pilot], EXACT, strict=True)]
        assert np.allclose(line.get_ydata(), expected, rtol=0, atol=1e-12)
        assert np.allclose(errors[pilot], expected, rtol=0, atol=1e-12)
        assert list(line.get_xdata()) == H
    assert round(float(errors[100][2]), 2) == -4.78  # 1614 / 1695 − 1
    zero = next(line for line in ax.lines if line.get_label() == "exact plan")
    assert list(zero.get_ydata()) == [0.0, 0.0]
    assert to_hex(lines[-1].get_color()) == "#225ea8"  # the largest pilot: the full shade
    assert ax.xaxis_inverted() and ax.get_ylabel() == "rule's N / exact N − 1 (%)"


def test_a_hostile_metric_name_is_drawn_as_written() -> None:
    fig, ax = plt.subplots()
    plot_rule_of_thumb([0.05], [1695], {100: [1614]}, metric="$x^$", ax=ax)
    fig.canvas.draw()
    assert ax.get_title().endswith("$x^$") and not ax.title.get_parse_math()


def test_a_new_figure_when_no_axes_is_given() -> None:
    plot_rule_of_thumb([0.05], [1695], {100: [1614]}, metric="mcc")
    assert len(plt.get_fignums()) == 1


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"half_widths": [float("nan")]}, "half_widths"),
        ({"half_widths": [-0.05]}, "half_widths"),
        ({"half_widths": "0.05"}, "half_widths"),
        ({"half_widths": []}, "half_widths"),
        ({"exact": [0]}, "exact"),
        ({"exact": [1695.5]}, "exact"),
        ({"exact": [float("nan")]}, "exact"),
        ({"exact": [True]}, "exact"),
        ({"exact": [1695, 10]}, "exact"),
        ({"rules": {}}, "rules"),
        ({"rules": {0: [1614]}}, "rules"),
        ({"rules": {100: [-1]}}, "rules[100]"),
        ({"rules": {100: [1, 2]}}, "rules[100]"),
        ({"rules": {k: [1] for k in range(1, MAX_PILOTS + 2)}}, "rules"),
        ({"rules": [1614]}, "rules"),
    ],
)
def test_hostile_input_is_refused_naming_the_argument(kwargs: dict, named: str) -> None:
    arguments = {"half_widths": [0.05], "exact": [1695], "rules": {100: [1614]}} | kwargs
    with pytest.raises(InvalidParameterError, match=named.replace("[", r"\[").replace("]", r"\]")):
        plot_rule_of_thumb(**arguments, metric="mcc")
