"""BiasView (ipywidgets + a canvas chart): shows what the report computes."""

from __future__ import annotations

import numpy as np
import pytest

from confusionlab import bias
from confusionlab.widgets.bias_view import BiasView, metrics_table_html, roc_points

# (tp, fn, fp, tn): the library's count order, bias tables included
A, D = (2718, 3678, 84, 13900), (433, 679, 10, 8660)


@pytest.fixture(scope="module")
def rep():
    return bias.report_from_counts(bias.CountTable.from_confusion(a=A, d=D), n_draws=2000)


def test_roc_points_are_fpr_tpr():
    fpr, tpr = roc_points(np.array([A, D]))
    assert fpr.tolist() == [84 / (84 + 13900), 10 / (10 + 8660)]
    assert tpr.tolist() == [2718 / (2718 + 3678), 433 / (433 + 679)]


def test_view_draws_observed_points_and_clouds(rep):
    v = BiasView(rep, n_draws=300)
    fpr, tpr = v.observed_points
    assert tpr[0] == pytest.approx(2718 / 6396) and fpr[1] == pytest.approx(10 / 8670)
    cf, ct = v.cloud_points
    assert cf.shape == (300, 2)
    # the cloud is centred on the observed point (posterior predictive at the same sizes)
    assert ct.mean(axis=0) == pytest.approx(tpr, abs=0.01)
    # the canvas chart got the diagonal, then per facet its cloud and observed point
    assert len(v.figure._series) == 5
    assert v.figure.series_xy(4)[0].tolist() == pytest.approx([fpr[1], tpr[1]])
    np.testing.assert_array_equal(v.figure.series_xy(3), np.column_stack([cf[:, 1], ct[:, 1]]))


def test_flags_are_the_metrics_whose_interval_contains_no_bias(rep):
    v = BiasView(rep, n_draws=50)
    expected = [k for k, m in rep.items() if m.value is not None and m.contains_no_bias(0.95)]
    assert v.flagged == expected and "DAR" in expected
    for name in rep:
        assert (">class imbalance (CI)</td>" if name == "CI" else f">{name}</td>") in v.table.value
    v.slider.value = 0.5  # narrower intervals flag fewer metrics
    assert v.confidence == 0.5
    assert set(v.flagged) <= set(expected)
    assert "50% interval" in v.table.value


def test_ci_is_spelled_out_as_class_imbalance(rep):
    """Issue 38: in a table of intervals "CI" reads as a confidence interval; the view says class imbalance."""
    text, _ = metrics_table_html(rep)
    assert "CI" in rep and ">class imbalance (CI)</td>" in text and ">CI</td>" not in text


def test_failed_metric_shows_its_error():
    df_rep = bias.report_from_counts(bias.CountTable.from_confusion(a=(5, 0, 2, 3), d=(0, 0, 0, 0)))
    text, flagged = metrics_table_html(df_rep)
    assert "facet d is empty" in text and "DPPL" not in flagged


def test_bad_arguments(rep):
    with pytest.raises(TypeError, match="report must be a BiasReport"):
        BiasView({"DPPL": 1})
    with pytest.raises(ValueError, match="n_draws must be at least 1"):
        BiasView(rep, n_draws=0)
    with pytest.raises(ValueError, match="n_draws must be at most 5,000"):
        BiasView(rep, n_draws=5001)
