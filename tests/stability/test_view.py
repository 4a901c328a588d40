"""StabilityView: Python-side behaviour (the slider drives n(S*) from the 2PL fit)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from confusionlab import stability as st
from confusionlab.widgets.stability_view import StabilityView

N = np.array([250, 500, 750, 1000, 2000])


def test_slider_moves_recommended_count():
    s = st.twopl(N, 300.0, 1.2) - np.array([0.004, -0.003, 0.002, -0.001, 0.0])
    view = StabilityView(n_learners=N, stability=s, stability_target=0.9)
    fit = st.fit_2pl(N, s)
    assert view.recommended == pytest.approx(fit.learners_for(0.9))
    before = view.recommended
    with warnings.catch_warnings():
        warnings.simplefilter("error", st.ExtrapolationWarning)  # the view says it in its label instead
        view.slider.value = 0.97  # as if the user dragged the slider
    assert view.stability_target == 0.97
    with pytest.warns(st.ExtrapolationWarning):
        assert view.recommended == pytest.approx(fit.learners_for(0.97))
    assert "extrapolation of the 2PL fit" in view.label.value
    assert view.recommended > before
    # the vertical line and its label follow
    np.testing.assert_allclose(view._target_line.x, [view.recommended] * 2)
    assert f"{view.recommended:,.0f} learners" in view.label.value
    assert view._x.max >= view.recommended  # the axis keeps the line in view


def test_hand_computed_recommendation():
    # exact 2PL with p1 = 100, p2 = 1: n(S*) = 100 / (1/S* − 1); S* = 0.8 → 400
    view = StabilityView(n_learners=N, stability=N / (N + 100.0), stability_target=0.8)
    assert view.recommended == pytest.approx(400.0, rel=1e-6)


def test_histogram_and_escaped_least_stable_list():
    per_object = np.array([0.99, 0.2, 0.95, np.nan, -0.1])
    labels = ["a", "<script>x</script>", "c", "d", "e&f"]
    view = StabilityView(
        n_learners=N,
        stability=st.twopl(N, 100.0, 1.0),
        per_object=per_object,
        object_labels=labels,
        n_least=2,
    )
    assert int(np.sum(view.histogram.y)) == 4  # NaN left out
    html_text = view.least_stable.value
    assert "&lt;script&gt;x&lt;/script&gt;" in html_text and "<script>" not in html_text
    assert html_text.index("e&amp;f") < html_text.index("&lt;script&gt;")  # −0.1 before 0.2
    assert "a:" not in html_text  # only the two least stable are listed


def test_from_curve():
    from sklearn.datasets import make_regression
    from sklearn.ensemble import RandomForestRegressor

    X, y = make_regression(n_samples=80, n_features=4, noise=10.0, random_state=0)

    def make(n, seed):
        return RandomForestRegressor(n, max_depth=3, random_state=seed, n_jobs=1)

    curve = st.stability_curve(
        make, X[:60], y[:60], X[60:], n_learners=[2, 4, 8, 16], repeats=3, n_jobs=1, progress=False
    )
    view = StabilityView(curve, stability_target=0.99)
    assert view.recommended == pytest.approx(curve.learners_for(0.99))
    np.testing.assert_allclose(view.per_object, curve.result(3).per_object)


def test_needs_data():
    with pytest.raises(TypeError, match="needs a curve"):
        StabilityView()
    with pytest.raises(ValueError, match="object_labels"):
        StabilityView(n_learners=N, stability=st.twopl(N, 100.0, 1.0), per_object=[0.5, 0.6], object_labels=["a"])
