"""choose_threshold(data=) on every engine equals the array path: the same candidates, choice, intervals
and plausible sets (the count table is the tie blocks, so every number is the same)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import confusionlab as cl

from .conftest import ENGINES, in_engine, make_frame

DF = make_frame()
COLS = {c: DF[c].to_numpy() for c in DF.columns}


@pytest.fixture(params=ENGINES)
def data(request):
    return in_engine(DF, request.param, request)


def _same(a, b):
    assert a.candidates.tolist() == b.candidates.tolist()
    assert (a.threshold, a.confusion_matrix, a.value) == (b.threshold, b.confusion_matrix, b.value)
    assert a.interval() == b.interval() and a.interval(kind="pointwise") == b.interval(kind="pointwise")
    assert a.plausible_thresholds.tolist() == b.plausible_thresholds.tolist()


def test_choose_threshold(data):
    counted = cl.choose_threshold("yes", "s", cost=(1, 3), positive="yes", data=data)
    _same(counted, cl.choose_threshold(COLS["yes"], COLS["s"], cost=(1, 3), positive="yes"))
    constrained = cl.choose_threshold("y", "t", maximize="recall", subject_to={"precision": 0.6}, data=data)
    reference = cl.choose_threshold(COLS["y"], COLS["t"], maximize="recall", subject_to={"precision": 0.6})
    _same(constrained, reference)
    assert constrained.prob_constraint == reference.prob_constraint


def test_choose_threshold_groups(data):
    counted = cl.choose_threshold("y", "s", maximize="balanced_accuracy", groups="g", data=data)
    reference = cl.choose_threshold(COLS["y"], COLS["s"], maximize="balanced_accuracy", groups=COLS["g"])
    assert counted.names == reference.names == ["east", "north", "south"]
    for name in counted.names:
        _same(counted[name], reference[name])
    assert counted.interval() == reference.interval()


def test_choose_threshold_refuses_bad_columns():
    df = DF.assign(text=np.where(DF["y"] == 1, "a", "b"), nan=DF["s"].where(DF.index > 3), inf=DF["s"])
    df.loc[5, "inf"] = np.inf
    with pytest.raises(cl.InvalidParameterError, match="y_score"):
        cl.choose_threshold("y", "text", cost=(1, 1), data=df)
    with pytest.raises(cl.InvalidParameterError, match="y_score: column 'nan' has 4 missing"):
        cl.choose_threshold("y", "nan", cost=(1, 1), data=df)
    with pytest.raises(cl.InvalidParameterError, match="infinite"):
        cl.choose_threshold("y", "inf", cost=(1, 1), data=df)
    with pytest.raises(cl.InvalidParameterError, match="y_true"):
        cl.choose_threshold(COLS["y"], "s", cost=(1, 1), data=df)
    with pytest.raises(cl.InvalidParameterError, match="no rows"):
        cl.choose_threshold("y", "s", cost=(1, 1), data=df.iloc[:0])
    with pytest.raises(cl.InvalidParameterError, match="data"):
        cl.choose_threshold("y", "s", cost=(1, 1), data=pd.Series([1, 2]))
