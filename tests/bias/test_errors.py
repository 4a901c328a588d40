"""Bad input gives clear errors; failing metrics are marked like Clarify's report."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from confusionlab import bias


@pytest.fixture
def df() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "y": ["+", "-", "+", "-", "+", "-", "-", "+"],
            "p": ["+", "-", "-", "-", "+", "+", "-", "+"],
            "s": list("FFFFMMMM"),
            "g": list("abababab"),
            "x": np.arange(8.0),
        }
    )


KW = dict(label="y", positive_values=["+"], facet="s", facet_values=["F"])


@pytest.mark.parametrize(
    ("override", "exc", "pattern"),
    [
        (dict(label="income"), ValueError, r"label: column 'income' is not in data"),
        (dict(facet="sex"), ValueError, r"facet: column 'sex' is not in data"),
        (dict(predicted="pred"), ValueError, r"predicted: column 'pred' is not in data"),
        (dict(group="grp"), ValueError, r"group: column 'grp' is not in data"),
        (dict(features=["x", "z"]), ValueError, r"features: column 'z' is not in data"),
        (dict(positive_values=[]), ValueError, r"positive_values must not be empty"),
        (dict(positive_values="+"), TypeError, r"positive_values must be a list"),
        (dict(label_threshold=0.5), ValueError, r"exactly one of positive_values and label_thr"),
        (dict(facet_values=None), ValueError, r"exactly one of facet_values and facet_threshold"),
        (dict(facet_values=None, facet_threshold="old"), TypeError, r"facet_threshold.*'old'"),
        (dict(facet=["s", "g"], facet_values=["F"]), ValueError, r"tuple of 2 values, got 'F'"),
        (dict(facet=3), TypeError, r"facet must be a column name"),
        (dict(facet="y", facet_values=["+"]), ValueError, r"^facet \['y'\] must not include the label \('y'\) column"),
        (dict(facet="p", facet_values=["+"], predicted="p"), ValueError, r"must not include the predicted \('p'\)"),
        (
            dict(facet=["s", "g"], facet_values=[("F", "a")], group="g"),
            ValueError,
            r"must not include the group \('g'\)",
        ),
        (dict(kl_labels="all"), ValueError, r"unknown kl_labels 'all'"),
        (dict(n_draws=5), ValueError, r"n_draws must be at least 100, got 5"),
        (dict(prior="flat"), ValueError, r"unknown prior 'flat'"),
    ],
)
def test_bad_arguments(df, override, exc, pattern):
    kw = {**KW, **override}
    with pytest.raises(exc, match=pattern):
        bias.report(df, **kw)


def test_data_of_unknown_type():
    with pytest.raises(TypeError, match=r"data must be a pandas .* got list"):
        bias.report([[1, 2]], **KW)


@pytest.mark.parametrize("column", ["y", "s", "p", "g"])
def test_missing_values_are_refused_naming_the_column(df, column):
    df = df.astype(object)
    df.loc[2, column] = None
    with pytest.raises(ValueError, match=rf"column '{column}' has 1 missing value \("):
        bias.report(df, **KW, predicted="p", group="g")


def test_nan_in_numeric_label_is_refused():
    df = pd.DataFrame({"y": [0.1, np.nan, 0.9, 0.7], "s": list("FFMM")})
    with pytest.raises(ValueError, match=r"label: column 'y' has 1 missing value \("):
        bias.report(df, label="y", label_threshold=0.5, facet="s", facet_values=["F"])


def test_nan_in_polars_float_is_refused():
    import polars as pl  # a dev dependency: its absence must fail, not skip

    df = pl.DataFrame({"y": [0.1, float("nan"), 0.9, 0.7], "s": list("FFMM")})
    with pytest.raises(ValueError, match=r"label: column 'y' has 1 missing value \("):
        bias.report(df, label="y", label_threshold=0.5, facet="s", facet_values=["F"])


def test_non_binary_predictions_are_refused(df):
    df = df.assign(p=["+", "-", "maybe", "-", "+", "+", "-", "+"])
    with pytest.raises(ValueError, match=r"predicted: column 'p' has values \['maybe'\]"):
        bias.report(df, **KW, predicted="p")


def test_score_predictions_are_refused():
    df = pd.DataFrame({"y": [1, 0, 1, 0], "p": [0.9, 0.2, 0.4, 0.1], "s": list("FFMM")})
    with pytest.raises(TypeError, match=r"predicted: column 'p' holds floats"):
        bias.report(df, label="y", positive_values=[1], facet="s", facet_values=["F"], predicted="p")


def test_mismatched_lengths_in_flip_test():
    with pytest.raises(ValueError, match=r"same columns, got shapes \(3, 2\) and \(2, 1\)"):
        bias.prediction_metrics.flip_test(np.zeros((3, 2)), np.zeros(3, bool), np.zeros((2, 1)), np.zeros(2, bool))


def test_facet_value_matching_no_rows_marks_metrics_failed_like_clarify(df):
    r = bias.report(df, **{**KW, "facet_values": ["X"]}, predicted="p", group="g", features=["x"])
    failed = {k for k, m in r.items() if m.value is None}
    # as smclarify: every metric fails except CDDL, CDDPL (0.0) and GE (all rows)
    assert failed == set(bias.DESCRIPTIONS) - {"CDDL", "CDDPL", "GE"}
    assert r["CDDL"].value == 0.0 and r["CDDPL"].value == 0.0
    assert "facet d is empty" in r["DPPL"].error
    j = r.to_clarify_json()[0]["metrics"]
    dppl = next(m for m in j if m["name"] == "DPPL")
    assert dppl["value"] is None and "facet d is empty" in dppl["error"]
    assert np.isnan(r["DPPL"].interval()[0])
    frame = r.to_frame()
    assert frame.loc["DPPL", "error"].startswith("facet d is empty")


def test_missing_group_and_features_fail_only_those_metrics(df):
    r = bias.report(df, **KW, predicted="p")
    assert r["CDDL"].value is None and "group was not given" in r["CDDL"].error
    assert r["CDDPL"].value is None and r["FT"].value is None
    assert "features were not given" in r["FT"].error
    assert r["DPPL"].value == pytest.approx(3 / 4 - 1 / 4)


def test_non_numeric_feature_fails_ft_only(df):
    r = bias.report(df, **KW, predicted="p", features=["g"])
    assert r["FT"].value is None and "non-numeric" in r["FT"].error
    assert r["AD"].value is not None


def test_stage_post_needs_predictions(df):
    with pytest.raises(ValueError, match=r"stage='post' needs predicted"):
        bias.posttraining(df, **KW)


def test_unknown_metric_name(df):
    r = bias.pretraining(df, **KW)
    with pytest.raises(KeyError, match=r"'DPPL' is not in this report"):
        r["DPPL"]


def test_interval_confidence_checked(df):
    r = bias.report(df, **KW)
    with pytest.raises(ValueError, match=r"confidence must .*95"):
        r["DPL"].interval(95)


def test_positive_values_matching_nothing_are_refused(df):
    with pytest.raises(ValueError, match=r"positive_values \['yes'\] match no value of label"):
        bias.report(df, label="y", positive_values=["yes"], facet="s", facet_values=["F"])


def test_threshold_on_text_column_is_refused(df):
    with pytest.raises(TypeError, match=r"facet: column 's' is String, not numeric"):
        bias.report(df, label="y", positive_values=["+"], facet="s", facet_threshold=3)
    with pytest.raises(TypeError, match=r"label: column 'y' is String, not numeric"):
        bias.report(df, label="y", label_threshold=0.5, facet="s", facet_values=["F"])


def test_empty_facet_error_names_the_facet(df):
    r = bias.report(df, label="y", positive_values=["+"], facet="s", facet_values=["f"])
    assert r["CI"].error.startswith("facet d is empty: no row matches 's' in ['f']")
