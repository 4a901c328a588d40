"""Old names of renamed arguments still work for one release, with a FutureWarning naming the new one."""

from __future__ import annotations

import warnings

import matplotlib
import numpy as np
import pytest

from confusionlab import InvalidParameterError
from confusionlab import stability as st
from confusionlab.stability import measures

matplotlib.use("Agg")

N = np.array([250, 500, 750, 1000, 2000])
FIT = st.fit_2pl(N, st.twopl(N, 100.0, 1.0))


def toy_curve() -> st.StabilityCurve:
    rng = np.random.default_rng(0)
    grid = np.array([2, 4, 8, 16])
    flips = np.stack([rng.random((3, 30)) < 0.4 / np.sqrt(n) for n in grid])
    return st.StabilityCurve(grid, flips.astype(int), np.arange(30) % 2, [None] * 4, np.ones((4, 3)), "phi", "nominal")


def test_fit_learners_for_target():
    with pytest.warns(FutureWarning, match="stability_target"):
        old = FIT.learners_for(target=0.8)
    assert old == FIT.learners_for(stability_target=0.8) == FIT.learners_for(0.8)
    assert old == pytest.approx(400.0)  # 100 / (1/0.8 − 1)
    with pytest.raises(InvalidParameterError, match="stability_target"):
        FIT.learners_for(target=0.8, stability_target=0.8)


def test_curve_learners_for_target():
    c = toy_curve()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", st.ExtrapolationWarning)
        new = c.learners_for(stability_target=0.9)
        with pytest.warns(FutureWarning, match="stability_target"):
            assert c.learners_for(target=0.9) == new


def test_curve_plot_target_and_positional_arguments():
    c = toy_curve()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", st.ExtrapolationWarning)
        new = c.plot(stability_target=0.9).axes[0]
        with pytest.warns(FutureWarning, match="stability_target"):
            old = c.plot(target=0.9).axes[0]
        with pytest.warns(FutureWarning, match="stability_target= by keyword"):
            positional = c.plot(None, "phi", 0.9).axes[0]
    for ax in (old, positional):
        assert [t.get_text() for t in ax.texts] == [t.get_text() for t in new.texts]
        np.testing.assert_array_equal(ax.lines[0].get_ydata(), new.lines[0].get_ydata())


def test_interval_n_boot():
    s = st.phi([[0, 1, 0, 1], [0, 1, 1, 1]], [0, 1, 1, 0], "nominal")
    with pytest.warns(FutureWarning, match="n_resamples"):
        old = s.interval(0.9, n_boot=300, random_state=4)
    assert old == s.interval(0.9, n_resamples=300, random_state=4)
    assert st.MAX_BOOT == st.MAX_RESAMPLES and measures.MAX_BOOT_DRAWS == measures.MAX_RESAMPLED_VALUES


def test_view_target():
    from confusionlab.widgets.stability_view import StabilityTarget, StabilityView, Target

    assert Target is StabilityTarget
    stability = st.twopl(N, 100.0, 1.0)
    with pytest.warns(FutureWarning, match="stability_target"):
        old = StabilityView(n_learners=N, stability=stability, target=0.8)
    new = StabilityView(n_learners=N, stability=stability, stability_target=0.8)
    assert old.stability_target == new.stability_target == 0.8
    assert old.recommended == new.recommended == pytest.approx(400.0)
    with pytest.warns(FutureWarning, match="stability_target"):
        assert new.target == 0.8
    with pytest.warns(FutureWarning, match="stability_target"):
        new.target = 0.9
    assert new.stability_target == 0.9 and new.recommended == pytest.approx(900.0)
