"""smclarify's own unit tests, those our API can express, with their published values.

Source: github.com/aws/amazon-sagemaker-clarify (smclarify 0.5, Apache-2.0),
commit 024329d, files ``tests/unit/bias/test_report.py`` and
``tests/unit/bias/metrics/test_metrics.py``. Each test names the smclarify test
it comes from; data and expected values are copied from there, never computed
by ConfusionLab. Not expressible here (and left out): string columns that
smclarify casts to numbers (``test_report_string_data_determined_as_continuous``,
the str/int mixes of ``label_values_test_cases``, ``yhat_cat`` of
``test_report_category_data``: ConfusionLab compares values with their types).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from confusionlab import bias

approx = pytest.approx


def _values(rep) -> dict:
    return {m["name"]: m["value"] for m in rep.to_clarify_json()[0]["metrics"]}


# ----------------------------------------------------------------------------- test_report.py
DF_CONT = pd.DataFrame(
    [
        [0, 0, 0, 0, True, 1, 1, 1],
        [3, 0, 0, 0, True, 0, 1, 1],
        [3, 0, 1, 0, True, 0, 1, 1],
        [0, 0, 0, 0, False, 1, 1, 0],
        [4, 0, 0, 1, True, 0, 1, 1],
        [0, 0, 1, 0, True, 1, 1, 1],
        [3, 0, 0, 0, True, 1, 1, 1],
        [3, 1, 0, 0, True, 1, 1, 1],
        [0, 0, 1, 0, True, 1, 1, 1],
        [3, 0, 1, 1, True, 1, 0, 1],
        [4, 0, 0, 0, True, 1, 0, 1],
        [3, 0, 1, 0, True, 1, 1, 1],
        [3, 0, 0, 0, False, 1, 1, 0],
        [0, 0, 0, 0, True, 1, 1, 1],
        [0, 0, 1, 0, True, 0, 1, 1],
        [0, 0, 1, 0, True, 1, 1, 1],
        [0, 1, 0, 1, False, 0, 1, 0],
        [3, 0, 0, 0, False, 1, 1, 0],
        [0, 0, 1, 0, False, 1, 1, 1],
        [3, 0, 0, 0, True, 1, 0, 1],
        [3, 0, 1, 0, False, 1, 1, 0],
        [0, 1, 0, 0, False, 1, 1, 0],
        [3, 0, 1, 0, True, 0, 1, 1],
        [0, 0, 0, 1, True, 1, 0, 1],
    ],
    columns=["x", "y", "z", "a", "b", "c", "d", "yhat"],
)
# smclarify's bias_report drops the facet, label and predicted columns and runs FT on the rest,
# group column z included; b is a bool column. ``LabelColumn("y", ..., [0])``: y has 2 distinct
# values in 24 rows (uniqueness 0.083 >= smclarify's 0.05), so smclarify reads it as continuous
# and 0 as a threshold: positive label = y > 0.
CONT_KW = dict(
    label="y",
    label_threshold=0,
    facet="x",
    facet_threshold=2,
    predicted="yhat",
    group="z",
    features=["z", "a", "b", "c", "d"],
)


def test_report_continuous_data_pre_training():
    """smclarify ``test_report_continuous_data`` (pre-training half)."""
    r = bias.pretraining(DF_CONT, **CONT_KW)
    assert r.value_or_threshold == "(2, 4]"
    assert _values(r) == {
        "CDDL": approx(0.3851010101010101),
        "CI": approx(-0.08333333333333333),
        "DPL": approx(0.1048951048951049),
        "JS": approx(0.01252420207928287),
        "KL": approx(0.057704603668062765),
        "KS": approx(0.1048951048951049),
        "LP": approx(0.14834407996920576),
        "TVD": approx(0.1048951048951049),
    }


def test_report_continuous_data_post_training_with_a_bool_feature():
    """smclarify ``test_report_continuous_data`` (post-training half): FT on a bool column too."""
    assert DF_CONT["b"].dtype == bool
    r = bias.posttraining(DF_CONT, **CONT_KW)
    assert r["FT"].error is None
    assert _values(r) == {
        "AD": approx(-0.2167832167832168),
        "CDDPL": approx(0.07592592592592595),
        "DAR": approx(-0.1),
        "DCA": approx(0.15),
        "DCR": approx(1.0),
        "DI": approx(1.0576923076923077),
        "DPPL": approx(-0.04195804195804198),
        "DRR": approx(0.6666666666666667),
        "FT": approx(-0.23076923076923078),
        "GE": approx(0.07593688362919139),
        "RD": approx(-1.0),
        "SD": approx(0.1388888888888889),
        "TE": approx(-0.25),
    }


@pytest.mark.parametrize("engine", ["polars", "pyarrow", "duckdb", "dask"])
def test_bool_feature_for_ft_on_every_engine(engine):
    """FT with smclarify's bool column ``b`` on every engine (same value as pandas)."""
    import dask.dataframe as dd
    import duckdb
    import polars as pl
    import pyarrow as pa

    table = pa.Table.from_pandas(DF_CONT, preserve_index=False)
    data = {
        "polars": lambda: pl.from_arrow(table),
        "pyarrow": lambda: table,
        "duckdb": lambda: duckdb.connect().from_arrow(table),
        "dask": lambda: dd.from_pandas(DF_CONT, npartitions=2),
    }[engine]()
    assert bias.posttraining(data, **CONT_KW)["FT"].value == approx(-0.23076923076923078)


DF_CAT = pd.DataFrame(
    [["a", 1, 1, 1, "1"], ["b", 1, 1, 0, "0"], ["b", 0, 1, 0, "0"], ["b", 0, 0, 1, "1"]],
    columns=["x", "y", "z", "yhat", "yhat_cat"],
)


def test_report_category_data():
    """smclarify ``test_report_category_data`` (one report per facet value).

    y has 2 distinct values in 4 rows, continuous for smclarify: ``[0]`` is the threshold y > 0.
    """
    kw = dict(label="y", label_threshold=0, facet="x", predicted="yhat", group="z")
    pre = bias.report_each_value(DF_CAT, stage="pre", **kw)
    assert {v: _values(r) for v, r in pre.items()} == {
        "a": {
            "CDDL": approx(-0.375),
            "CI": approx(0.5),
            "DPL": approx(-0.6666666666666667),
            "JS": approx(0.08720802396075798),
            "KL": approx(-0.3662040962227032),
            "KS": approx(0.6666666666666667),
            "LP": approx(0.6666666666666667),
            "TVD": approx(0.33333333333333337),
        },
        "b": {
            "CDDL": approx(0.625),
            "CI": approx(-0.5),
            "DPL": approx(0.6666666666666667),
            "JS": approx(0.08720802396075798),
            "KL": approx(1.0986122886681098),
            "KS": approx(0.6666666666666667),
            "LP": approx(0.6666666666666667),
            "TVD": approx(0.33333333333333337),
        },
    }
    post = bias.report_each_value(DF_CAT, stage="post", **kw)
    expected = {
        "a": {"AD": -0.6666666666666667, "DI": 3.0, "DPPL": -0.6666666666666667, "RD": -1.0},
        "b": {"AD": 0.6666666666666667, "DI": 0.3333333333333333, "DPPL": 0.6666666666666667, "RD": 1.0},
    }
    for value, metrics in expected.items():
        got = _values(post[value])
        assert {k: got[k] for k in metrics} == {k: approx(v) for k, v in metrics.items()}


DF_LABELS = pd.DataFrame(
    [["a", "p", 1, "p"], ["b", "q", 1, "p"], ["b", "r", 1, "q"], ["c", "p", 0, "p"], ["c", "q", 0, "p"]],
    columns=["x", "y", "z", "yhat"],
)
LABEL_PRE = {"a": {"CDDL": -0.3, "DPL": -0.25}, "b": {"CDDL": 0.3, "DPL": 0.5}, "c": {"CDDL": -0.4, "DPL": -1 / 3}}


def test_label_values():
    """smclarify ``test_label_values`` (several positive label values)."""
    kw = dict(label="y", positive_values=["p", "q"], facet="x", predicted="yhat", group="z")
    pre = bias.report_each_value(DF_LABELS, stage="pre", **kw)
    for value, metrics in LABEL_PRE.items():
        got = _values(pre[value])
        assert {k: got[k] for k in metrics} == {k: approx(v) for k, v in metrics.items()}, value
    post = bias.report_each_value(DF_LABELS, stage="post", **kw)
    expected = {
        "a": {"AD": -0.25, "DAR": -0.25, "DI": 1.0, "DPPL": 0.0, "DRR": 0.0, "RD": 0.0},
        "b": {"AD": 0.5, "DAR": 0.5, "DI": 1.0, "DPPL": 0.0, "DRR": 0.0, "RD": 0.0},
        "c": {"AD": -1 / 3, "DAR": -1 / 3, "DI": 1.0, "DPPL": 0.0, "DRR": 0.0, "RD": 0.0},
    }
    for value, metrics in expected.items():
        got = _values(post[value])
        assert {k: got[k] for k in metrics} == {k: approx(v, abs=1e-12) for k, v in metrics.items()}, value


@pytest.mark.parametrize(
    ("y", "yhat", "positive"),
    [([1, 2, 0, 1, 2], [1, 1, 0, 1, 1], [1, 2]), (["1", "2", "0", "1", "2"], ["1", "1", "0", "1", "1"], ["1", "2"])],
    ids=["int-int", "str-str"],
)
def test_label_values_with_different_types(y, yhat, positive):
    """smclarify ``test_label_values_with_different_types_for_pre/post_training`` (category dtype).

    The int/int and str/str cases; CDDPL and DPPL take CDDL's and DPL's values there.
    """
    df = pd.DataFrame({"x": list("abbcc"), "z": [1, 1, 1, 0, 0]})
    df["y"] = pd.Series(y).astype("category")
    df["yhat"] = pd.Series(yhat).astype("category")
    kw = dict(label="y", positive_values=positive, facet="x", predicted="yhat", group="z")
    pre = bias.report_each_value(df, stage="pre", **kw)
    post = bias.report_each_value(df, stage="post", **kw)
    for value, m in LABEL_PRE.items():
        assert pre[value]["CDDL"].value == approx(m["CDDL"]) and pre[value]["DPL"].value == approx(m["DPL"])
        assert post[value]["CDDPL"].value == approx(m["CDDL"]) and post[value]["DPPL"].value == approx(m["DPL"])


def test_report_integer_data_determined_as_categorical():
    """smclarify ``test_report_integer_data_determined_as_categorical``."""
    df = pd.DataFrame(
        [[1, 1, 1, 2], [1, 2, 2, 2], [3, 3, 3, 3], [4, 4, 4, 4]],
        columns=["Label", "Facet", "Feature", "PredictedLabel"],
    )
    r = bias.posttraining(
        df, label="Label", positive_values=[1, 2], facet="Facet", facet_values=[1, 2], predicted="PredictedLabel"
    )
    assert r.value_or_threshold == "1,2"
    assert r["DPPL"].value == approx(-1.0)


# ----------------------------------------------------------------------------- test_metrics.py
# dfBinary(): facet column 0, label, predicted label
DF_B = pd.DataFrame(
    {
        "s": ["M", "F", "F", "M", "F", "M", "F", "F", "M", "M", "F", "F"],
        "y": [0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 0],
        "p": [1, 1, 1, 0, 0, 0, 1, 1, 0, 1, 0, 0],
    }
)
BINARY = {  # (metric, value with facet d = F, value with d = M)
    "DI": (10 / 7, 7 / 10),
    "DCA": (1 / 4, -1 / 4),
    "DCR": (1 / 3, -1 / 3),
    "RD": (-2 / 3, 2 / 3),
    "SD": (1 / 6, -1 / 6),
    "DRR": (1 / 3, -1 / 3),
    "AD": (-13 / 35, 13 / 35),
    "DAR": (-1 / 2, 1 / 2),
    "TE": (-1 / 2, 1 / 2),
}


@pytest.mark.parametrize("name", list(BINARY))
def test_binary_metrics(name):
    """smclarify ``test_DI``, ``test_DCA``, ``test_DCR``, ``test_RD``, ``test_SD``, ``test_DRR``,
    ``test_AD``, ``test_DAR``, ``test_TE`` on ``dfBinary``."""
    for facet_value, expected in zip("FM", BINARY[name], strict=True):
        r = bias.posttraining(
            DF_B, label="y", positive_values=[1], facet="s", facet_values=[facet_value], predicted="p"
        )
        assert r[name].value == approx(expected), facet_value


def test_DI_infinite_and_DRR_zero():
    """smclarify ``test_DI`` (no predicted positive in a: INFINITY) and ``test_DRR_zero``."""
    df = DF_B.assign(p=[0, 1, 1, 0, 1, 0, 1, 1, 0, 0, 1, 1])
    r = bias.posttraining(df, label="y", positive_values=[1], facet="s", facet_values=["F"], predicted="p")
    assert r["DI"].value == math.inf
    df = DF_B.assign(p=[1, 0, 0, 1, 1, 1, 0, 1, 1, 1, 0, 1])
    for facet_value, expected in (("F", 0.5), ("M", -0.5)):
        r = bias.posttraining(df, label="y", positive_values=[1], facet="s", facet_values=[facet_value], predicted="p")
        assert r["DRR"].value == approx(expected)


def test_GE():
    """smclarify ``test_GE`` on ``dfBinary``."""
    r = bias.posttraining(DF_B, label="y", positive_values=[1], facet="s", facet_values=["F"], predicted="p")
    assert r["GE"].value == approx(0.24556213017751485)


def test_CDD():
    """smclarify ``test_CDD`` (``metric_one_vs_all(CDDL, ...)``)."""
    df = pd.DataFrame(
        {
            "x": list("MMMFFFFMMMMFMMFMFFMMFMMF"),
            "y": [0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 0, 1, 1, 1, 0, 0, 0, 0, 1, 0, 0, 1, 1, 0],
            "g": [1, 0, 2, 2, 1, 1, 2, 1, 1, 2, 0, 1, 2, 0, 1, 1, 1, 2, 0, 1, 0, 0, 1, 1],
        }
    )
    reps = bias.report_each_value(df, label="y", positive_values=[1], facet="x", group="g", stage="pre")
    assert reps["F"]["CDDL"].value == approx(0.3982142857)
    assert reps["M"]["CDDL"].value == approx(-0.3982142857)


_FT = [
    [0, 0, 0, 0, True, 1, 1],
    [1, 0, 0, 0, True, 0, 1],
    [1, 0, 1, 0, True, 0, 1],
    [0, 0, 0, 0, False, 1, 1],
    [1, 0, 0, 1, True, 0, 1],
    [0, 0, 1, 0, True, 1, 1],
    [1, 0, 0, 0, True, 1, 1],
    [1, 1, 0, 0, True, 1, 1],
    [0, 0, 1, 0, True, 1, 1],
    [1, 0, 1, 1, True, 1, 0],
    [1, 0, 0, 0, True, 1, 0],
    [1, 0, 1, 0, True, 1, 1],
    [1, 0, 0, 0, False, 1, 1],
    [0, 0, 0, 0, True, 1, 1],
    [0, 0, 1, 0, True, 0, 1],
    [0, 0, 1, 0, True, 1, 1],
    [0, 1, 0, 1, False, 0, 1],
    [1, 0, 0, 0, False, 1, 1],
    [0, 0, 1, 0, False, 1, 1],
    [1, 0, 0, 0, True, 1, 0],
    [1, 0, 1, 0, False, 1, 1],
    [0, 1, 0, 0, False, 1, 1],
    [1, 0, 1, 0, True, 0, 1],
    [0, 0, 0, 1, True, 1, 0],
]
_FT_SMALL = [
    [0, 0, 0, 0, True, 1, 1],
    [1, 0, 0, 0, True, 0, 1],
    [1, 0, 1, 0, True, 0, 1],
    [1, 0, 0, 1, True, 0, 1],
    [1, 0, 0, 0, True, 1, 1],
    [1, 1, 0, 0, True, 1, 1],
    [1, 0, 1, 1, True, 1, 0],
    [1, 0, 0, 0, True, 1, 0],
    [1, 0, 1, 0, True, 1, 1],
    [1, 0, 0, 0, False, 1, 1],
    [1, 0, 0, 0, False, 1, 1],
    [0, 0, 1, 0, False, 1, 1],
    [1, 0, 0, 0, True, 1, 0],
    [1, 0, 1, 0, False, 1, 1],
    [1, 0, 1, 0, True, 0, 1],
    [0, 0, 0, 1, True, 1, 0],
]


@pytest.mark.parametrize(
    ("rows", "predicted", "expected"),
    [
        (_FT, [1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1], -0.23076923076923078),
        (_FT_SMALL, [1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1], -0.15384615384615385),
    ],
    ids=["test_FT", "test_FT_small_samples"],
)
def test_FT(rows, predicted, expected):
    """smclarify ``test_FT`` and ``test_FT_small_samples``: all 7 columns are features, facet d = column 0 == 1.

    (smclarify builds the frame with ``np.array``, which turns the bools into integers.)
    """
    cols = [f"c{i}" for i in range(7)]
    df = pd.DataFrame(np.array(rows), columns=cols).assign(y=1, p=predicted)
    r = bias.posttraining(
        df, label="y", positive_values=[1], facet="c0", facet_values=[1], predicted="p", features=cols
    )
    assert r["FT"].value == approx(expected)
    # smclarify: "FlipTest does not support non-numeric columns"
    r = bias.posttraining(
        df.assign(c3="a"), label="y", positive_values=[1], facet="c0", facet_values=[1], predicted="p", features=cols
    )
    assert r["FT"].value is None and "non-numeric" in r["FT"].error
