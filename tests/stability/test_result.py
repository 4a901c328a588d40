"""StabilityResult and StabilityCurve as results: value, interval, to_frame, plot, view, summary.

Expected numbers come from hand-written closed forms (the nominal D_o,i with
collections.Counter, the jackknife by its textbook formula), never from the code under test.
"""

from __future__ import annotations

import math
from collections import Counter

import ipywidgets
import matplotlib
import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from confusionlab import InvalidParameterError
from confusionlab import stability as st
from confusionlab._result import Result

matplotlib.use("Agg")

GRID = np.array([2, 4, 8, 16, 32])


def toy_curve(repeats: int = 4) -> st.StabilityCurve:
    rng = np.random.default_rng(3)
    flips = np.stack([rng.random((repeats, 30)) < 0.45 / np.sqrt(n) for n in GRID])
    return st.StabilityCurve(
        GRID,
        flips.astype(int),
        np.array([0, 1, 1] * 10),
        [None] * GRID.size,
        np.ones((GRID.size, repeats)),
        "phi",
        "nominal",
    )


def phi_by_hand(pred: np.ndarray, train_y: np.ndarray) -> float:
    """Mean over objects of 1 − D_o,i / D_e, both from Counter (nominal distance)."""

    def disagreement(values) -> float:
        n = len(values)
        return 1.0 - sum(c * (c - 1) for c in Counter(values).values()) / (n * (n - 1))

    d_e = disagreement(list(train_y))
    return float(np.mean([1.0 - disagreement(list(pred[:, i])) / d_e for i in range(pred.shape[1])]))


# ----------------------------------------------------------------------------- StabilityResult
def test_stability_result_is_a_result_with_a_per_object_frame():
    s = st.phi([[0, 1, 1], [0, 1, 0], [0, 0, 0]], [0, 1, 1, 0], "nominal")
    assert isinstance(s, Result)
    frame = s.to_frame()
    assert type(frame) is pd.DataFrame and list(frame.columns) == ["stability", "observed", "n_refits"]
    # object 0 is (0, 0, 0): S = 1; objects 1 and 2 are (1, 1, 0) and (1, 0, 0): 4 of 6 ordered pairs
    # disagree, D_o = 2/3, as in the reference (0, 1, 1, 0): 8 of 12, D_e = 2/3, so S = 0
    np.testing.assert_allclose(frame["stability"], [1.0, 0.0, 0.0])
    assert frame["stability"].mean() == pytest.approx(s.value)
    assert frame.attrs["expected"] == pytest.approx(2 / 3) and frame.attrs["measure"] == "phi"


def test_stability_result_plot_and_view():
    s = st.phi([[0, 1, 1, 0], [0, 1, 0, 1], [0, 0, 0, 1]], [0, 1, 1, 0], "nominal")
    fig = s.plot()
    assert isinstance(fig, Figure)
    (ax,) = fig.axes
    assert sum(p.get_height() for p in ax.patches) == 4  # one count per object
    assert ax.lines[0].get_xdata()[0] == pytest.approx(s.value)  # the mean, marked
    view = s.view()
    assert isinstance(view, ipywidgets.DOMWidget)
    assert int(view.histogram.y.sum()) == 4
    assert "phi = " in s.summary() and "95 % bootstrap interval" in s.summary()
    assert "90 %" in s.summary(0.9)


def test_undefined_result_says_so_everywhere():
    s = st.phi([[0, 1], [1, 0]], [1, 1, 1], "nominal", on_undefined="nan")
    assert all(math.isnan(v) for v in s.interval())
    assert "undefined" in s.summary()
    assert s.plot().axes[0].texts
    assert s.view().histogram is None
    assert s.to_html().startswith("<!DOCTYPE html>")


# ----------------------------------------------------------------------------- StabilityCurve
def test_curve_value_is_stability_per_number_of_learners():
    c = toy_curve()
    assert list(c.value) == GRID.tolist()
    for g, n in enumerate(GRID):
        assert c.value[int(n)] == pytest.approx(phi_by_hand(c.predictions[g], c.train_y))


def test_curve_interval_is_the_jackknife_over_refits():
    c = toy_curve(repeats=5)
    z = 1.959963984540054  # the 97.5 % normal quantile
    got = c.interval(0.95)
    assert list(got) == GRID.tolist()
    for g, n in enumerate(GRID):
        pred = c.predictions[g]
        leave = np.array([phi_by_hand(np.delete(pred, k, axis=0), c.train_y) for k in range(5)])
        se = math.sqrt(4 / 5 * np.sum((leave - leave.mean()) ** 2))
        full = phi_by_hand(pred, c.train_y)
        assert got[int(n)] == pytest.approx((full - z * se, min(full + z * se, 1.0)))
    narrow = c.interval(0.5)
    for n in got:
        assert got[n][0] <= narrow[n][0] and narrow[n][1] <= got[n][1]
    with pytest.raises(InvalidParameterError, match="measure"):
        c.interval(measure="kappa")


def test_curve_interval_needs_three_refits():
    c = toy_curve(repeats=2)
    assert all(math.isnan(lo) and math.isnan(hi) for lo, hi in c.interval().values())


def test_curve_interval_of_a_comparator():
    c = toy_curve(repeats=4)
    got = c.interval(measure="fleiss_kappa")
    assert set(got) == set(GRID.tolist())
    for (lo, hi), v in zip(got.values(), c.stability("fleiss_kappa"), strict=True):
        assert lo <= v <= hi


def test_curve_frame_plot_view_and_summary():
    c = toy_curve()
    frame = c.to_frame()
    assert type(frame) is pd.DataFrame and list(frame.columns) == ["n_learners", "stability", "fit_seconds"]
    np.testing.assert_array_equal(frame["n_learners"], GRID)
    np.testing.assert_allclose(frame["stability"], list(c.value.values()))
    assert frame.attrs == {"measure": "phi", "scale": "nominal", "repeats": 4}
    fig = Figure()
    ax = fig.add_subplot()
    assert c.plot(ax, measure="phi", stability_target=0.9) is fig
    assert ax.get_xscale() == "log"
    from confusionlab.widgets.stability_view import StabilityView

    assert isinstance(c.view(), StabilityView)
    assert f"with {GRID[-1]:,} " in c.summary() and "4 refits per grid point" in c.summary()


def test_curve_plot_refuses_too_many_positional_arguments():
    c = toy_curve()
    with pytest.raises(InvalidParameterError, match="by keyword"):
        c.plot(None, "phi", 0.9, "extra")
