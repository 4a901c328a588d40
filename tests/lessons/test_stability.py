"""The stability lesson's jackknife band and figures (confusionlab.lessons.stability)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib.colors import to_hex
from scipy.optimize import curve_fit

from confusionlab import stability as stab
from confusionlab.lessons.stability import (
    EXTRAPOLATION_COLOUR,
    MEASURE_COLOURS,
    learners_band,
    plot_curves,
    plot_small_sets,
)
from confusionlab.stability.curve import StabilityCurve

GRID = np.array([2, 4, 8, 16, 32, 64])


def synthetic_curve(repeats: int = 4, seed: int = 0) -> StabilityCurve:
    """Binary predictions of 60 objects whose flips from the majority fall with the number of 'trees'."""
    rng = np.random.default_rng(seed)
    flips = np.stack([rng.random((repeats, 60)) < 0.45 / np.sqrt(n) for n in GRID])
    truth = np.arange(60) % 2
    preds = np.where(flips, 1 - truth, truth)
    return StabilityCurve(GRID, preds, truth, [truth] * GRID.size, np.ones((GRID.size, repeats)), "phi", "nominal")


def reference_learners(curve: StabilityCurve, keep: np.ndarray, target: float) -> float:
    """Independent: phi per grid point of the kept refits, 2PL fitted by scipy's curve_fit, solved for n."""
    s = np.array([stab.phi(curve.predictions[g][keep], curve.train_y, "nominal").value for g in range(GRID.size)])

    def model(n: np.ndarray, p1: float, p2: float) -> np.ndarray:
        return 1.0 / (1.0 + (p1 / n) ** p2)

    (p1, p2), _ = curve_fit(model, GRID.astype(float), s, p0=(1.0, 1.0), bounds=([1e-9, 1e-6], [1e6, 50]))
    return p1 * (target / (1 - target)) ** (1 / p2)


def test_band_is_the_jackknife_of_learners_for() -> None:
    curve = synthetic_curve()
    band = learners_band(curve, 0.95)
    assert band.shape == (4,)
    for r in range(4):
        keep = np.delete(np.arange(4), r)
        assert band[r] == pytest.approx(reference_learners(curve, keep, 0.95), rel=2e-3)
    assert curve._cache == {}  # the full curve is untouched


def test_band_with_psi_and_a_comparator() -> None:
    curve = synthetic_curve(repeats=3, seed=1)
    assert np.all(np.isfinite(learners_band(curve, 0.9, "psi")))
    assert learners_band(curve, 0.9, "krippendorff_alpha").shape == (3,)


def test_curves_figure() -> None:
    curve = synthetic_curve()
    axes = plot_curves({"nominal": curve, "again": curve}, upto=500)
    assert len(axes) == 2
    for ax in axes:
        assert ax.get_xscale() == "log" and ax.get_xlabel() == "number of trees m" and ax.get_ylabel() == "stability"
        colours = [to_hex(line.get_color()) for line in ax.lines]
        assert colours == [MEASURE_COLOURS["phi"]] * 2 + [MEASURE_COLOURS["psi"]] * 2  # points, then the 2PL
        np.testing.assert_array_equal(ax.lines[0].get_xdata(), GRID)
        assert ax.lines[1].get_xdata()[-1] == pytest.approx(500)
        (span,) = ax.patches
        assert to_hex(span.get_facecolor()) == EXTRAPOLATION_COLOUR
        assert span.get_x() == pytest.approx(GRID[-1])  # shaded from the largest measured forest on
    assert [ax.get_title() for ax in axes] == ["nominal", "again"]
    plt.close("all")


def test_small_sets_figure() -> None:
    small = {2: (np.array([0.1, 0.9, 0.5]), np.array([0.8, 0.82, 0.81])), 5: (np.ones(3) * 0.9, np.ones(3) * 0.95)}
    ax = plot_small_sets(small)
    faces = [to_hex(p.get_facecolor()[:3]) for p in ax.patches]
    assert faces == [MEASURE_COLOURS["icc"]] * 2 + [MEASURE_COLOURS["psi"]] * 2
    assert [t.get_text() for t in ax.get_xticklabels()] == ["2", "5"]
    assert ax.get_title() and ax.get_ylabel() == "stability"
    plt.close("all")


@settings(max_examples=30, deadline=None)
@given(target=st.one_of(st.floats(allow_nan=True), st.integers(-2, 2), st.text(max_size=2), st.none()))
def test_hostile_target(target: object) -> None:
    curve = synthetic_curve(repeats=3)
    try:
        band = learners_band(curve, target)
    except (ValueError, TypeError) as error:
        assert "target" in str(error)
        return
    assert band.shape == (3,) and 0 < float(target) < 1


@settings(max_examples=20, deadline=None)
@given(upto=st.one_of(st.floats(allow_nan=True), st.integers(-5, 5), st.text(max_size=2)))
def test_hostile_figure_arguments(upto: object) -> None:
    try:
        plot_curves({"c": synthetic_curve(repeats=3)}, upto=upto)
    except (ValueError, TypeError) as error:
        assert "upto" in str(error)
    finally:
        plt.close("all")


def test_refusals() -> None:
    with pytest.raises(ValueError, match="3 refits"):
        learners_band(synthetic_curve(repeats=2))
    with pytest.raises(TypeError, match="curve"):
        learners_band(np.zeros((3, 3)))
    with pytest.raises(TypeError, match="curves"):
        plot_curves({})
    with pytest.raises(TypeError, match="measures"):
        plot_curves({"c": synthetic_curve()}, "phi")
    with pytest.raises(TypeError, match="small"):
        plot_small_sets([])


def test_learners_band_old_target_name() -> None:
    curve = synthetic_curve(repeats=3)
    with pytest.warns(FutureWarning, match="stability_target"):
        old = learners_band(curve, target=0.9)
    np.testing.assert_array_equal(old, learners_band(curve, stability_target=0.9))
