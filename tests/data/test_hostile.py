"""Hostile data= input: missing values in any column of any engine, a column that is not there,
infinite scores, arrays where column names belong, a Spark frame of 10⁶ + 1 distinct scores
without bins (refused naming score_bins before any table is collected), and score tuples beyond the
count table's cell bound on Spark and Dask."""

from __future__ import annotations

import re

import numpy as np
import pytest

import confusionlab as cl
from confusionlab import InvalidParameterError

from .conftest import ENGINES, in_engine, make_frame


def hostile_frame():
    df = make_frame(n=200, seed=8)
    df["y_nan"] = df["y"].astype(float)
    df.loc[[3, 50, 90], "y_nan"] = np.nan  # 3 missing labels
    df["p_nan"] = df["p"].astype(float)
    df.loc[[7, 8], "p_nan"] = np.nan  # 2
    df["g_none"] = df["g"].astype(object)
    df.loc[[1, 2, 4, 5], "g_none"] = None  # 4
    df["s_nan"] = df["s"]
    df.loc[[10], "s_nan"] = np.nan  # 1
    df["b_none"] = df["b"].astype(object)
    df.loc[[11, 12, 13, 14, 15], "b_none"] = None  # 5
    df["q_nan"] = df["q"]
    df.loc[[20, 21], "q_nan"] = np.nan  # 2
    df["s_inf"] = df["s"]
    df.loc[[30], "s_inf"] = np.inf
    return df


HOSTILE = hostile_frame()

CALLS = {
    "y_true": (3, lambda d: cl.evaluate(data=d, y_true="y_nan", y_pred="p")),
    "y_pred": (2, lambda d: cl.evaluate(data=d, y_true="y", y_pred="p_nan", groups="g")),
    "groups": (4, lambda d: cl.evaluate(data=d, y_true="y", y_pred="p", groups="g_none")),
    "y_score": (1, lambda d: cl.roc_curve(data=d, y_true="y", y_score="s_nan")),
    "pred_b": (
        5,
        lambda d: cl.compare_paired(data=d, y_true="yes", pred_a="a", pred_b="b_none", metric="f1", positive="yes"),
    ),
    "y_prob": (2, lambda d: cl.calibration(data=d, y_true="y", y_prob="q_nan")),
    "predictions['B']": (
        5,
        lambda d: cl.rank_models(data=d, y_true="yes", predictions={"A": "a", "B": "b_none"}, metric="accuracy"),
    ),
    "score_b": (1, lambda d: cl.compare_auc(data=d, y_true="y", score_a="t", score_b="s_nan")),
}
#: the same refusals with score bins (each engine's bins: edges, or Spark's knots)
BINNED = {
    "y_score": (1, lambda d: cl.precision_recall_curve(data=d, y_true="y", y_score="s_nan", score_bins=20)),
    "y_true": (3, lambda d: cl.roc_curve(data=d, y_true="y_nan", y_score="s", score_bins=20)),
}


@pytest.mark.parametrize("engine", ENGINES)
def test_missing_values_in_any_column_are_refused_by_name(engine, request):
    data = in_engine(HOSTILE, engine, request)
    for arg, (count, call) in [*CALLS.items(), *BINNED.items()]:
        with pytest.raises(InvalidParameterError, match=rf"^{re.escape(arg)}: column '\w+' has {count} missing value"):
            call(data)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_column_that_does_not_exist_and_infinite_scores(engine, request):
    data = in_engine(HOSTILE, engine, request)
    with pytest.raises(InvalidParameterError, match="y_score: column 'score' is not in data"):
        cl.roc_curve(data=data, y_true="y", y_score="score")
    with pytest.raises(InvalidParameterError, match="groups: column 'sex' is not in data"):
        cl.evaluate(data=data, y_true="y", y_pred="p", groups="sex")
    with pytest.raises(InvalidParameterError, match="pred_b: column 'B' is not in data"):
        cl.compare_paired(data=data, y_true="yes", pred_a="a", pred_b="B", metric="f1", positive="yes")
    with pytest.raises(InvalidParameterError, match=r"y_score: column 's_inf' has 1 infinite value"):
        cl.roc_curve(data=data, y_true="y", y_score="s_inf")
    with pytest.raises(InvalidParameterError, match=r"y_score: column 's_inf' has 1 infinite value"):
        cl.roc_curve(data=data, y_true="y", y_score="s_inf", score_bins=20)  # binned: bin −1, not an end bin
    with pytest.raises(InvalidParameterError, match="y_pred holds scores, not labels"):
        cl.evaluate(data=data, y_true="y", y_pred="q")


def test_arrays_where_columns_belong_and_options_without_data():
    with pytest.raises(InvalidParameterError, match="with data=, y_pred is a column name"):
        cl.evaluate(data=HOSTILE, y_true="y", y_pred=HOSTILE["p"].to_numpy())
    with pytest.raises(InvalidParameterError, match="refits cannot come with data="):
        cl.evaluate(data=HOSTILE, y_true="y", y_pred="p", refits=np.zeros((2, len(HOSTILE))))
    with pytest.raises(InvalidParameterError, match="score_bins= needs data="):
        cl.roc_curve([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], score_bins=10)
    with pytest.raises(InvalidParameterError, match="score_bins"):
        cl.roc_curve(data=HOSTILE, y_true="y", y_score="s", score_bins=1)


def test_spark_frame_of_a_million_distinct_scores_without_bins_is_refused_before_collecting(spark, monkeypatch):
    """Generated in Spark (spark.range), never in Python; refused by a distinct count in Spark, and no
    table (no ``collect``) is brought to the driver."""
    from pyspark.sql import functions as F

    big = spark.range(10**6 + 1).select((F.col("id") / 1e6).alias("score"), (F.col("id") % 2).alias("y"))
    cls = type(big)

    def no_collect(self, *a, **k):  # pragma: no cover - reaching it is the failure
        raise AssertionError("a table was collected")

    monkeypatch.setattr(cls, "collect", no_collect)
    with pytest.raises(InvalidParameterError, match=re.escape("more than 1,000,000 distinct scores")) as info:
        cl.roc_curve(data=big, y_true="y", y_score="score")
    assert "score_bins=" in str(info.value)


@pytest.mark.parametrize("engine", ["dask", "spark"])
def test_score_tuples_beyond_the_cell_bound_are_refused_naming_score_bins(engine, request, monkeypatch):
    """compare_auc counts (label, score A, score B) tuples: each column has few distinct scores, but
    their combinations are as many as the rows. With the bound (MAX_SCORE_CELLS) patched below them,
    Spark and Dask refuse (naming score_bins, binned or not) instead of bringing the table over; at the
    bound the call answers, with the array path's AUCs (scikit-learn's)."""
    import pandas as pd
    from sklearn.metrics import roc_auc_score

    from confusionlab.scores import _data

    i = np.arange(240)
    df = pd.DataFrame({"y": i % 2, "a": (i % 12) / 12 + 0.01 * (i % 2), "b": (i // 12 % 10) / 10})
    data = in_engine(df, engine, request)
    cells = len(df.drop_duplicates())
    assert cells == 120 and df["a"].nunique() == 12 and df["b"].nunique() == 10
    monkeypatch.setattr(_data, "MAX_SCORE_CELLS", cells - 1)
    with pytest.raises(InvalidParameterError, match=r"more than 119 cells .*; pass score_bins=10_000") as info:
        cl.compare_auc(data=data, y_true="y", score_a="a", score_b="b")
    assert "'y', 'a', 'b'" in str(info.value)
    with pytest.raises(InvalidParameterError, match=r"more than 119 cells .*; pass fewer score_bins"):
        cl.compare_auc(data=data, y_true="y", score_a="a", score_b="b", score_bins=50)
    monkeypatch.setattr(_data, "MAX_SCORE_CELLS", cells)
    got = cl.compare_auc(data=data, y_true="y", score_a="a", score_b="b")
    want = [roc_auc_score(df["y"], df[c]) for c in "ab"]
    np.testing.assert_allclose([got.aucs[name] for name in got.names], want, rtol=1e-12)


def test_a_table_with_no_positive_answers_as_the_array_path_does():
    """evaluate(data=...) shares the array path's choice of the positive class (evaluation/_options.py);
    before, its own copy of that code raised StopIteration when no example held the positive label."""
    import pandas as pd

    y, p = [0, 0, 0, 0, 0], [0, 0, 1, 0, 0]
    counted = cl.evaluate(data=pd.DataFrame({"y": y, "p": p}), y_true="y", y_pred="p")
    assert counted.confusion_matrix() == cl.ConfusionMatrix.from_predictions(y, p)  # (0, 0, 1, 4)
    assert counted.confusion_matrix() == cl.evaluate(y, p).confusion_matrix()
