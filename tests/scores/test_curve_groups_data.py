"""roc_curve / precision_recall_curve with data= and groups= give the array path's GroupedCurves,
and refuse what it refuses (one group) with its message."""

import numpy as np
import pandas as pd
import pytest

import confusionlab as cl
from confusionlab import InvalidParameterError

RNG = np.random.default_rng(7)
Y = RNG.integers(0, 2, 300)
S = np.round(RNG.normal(Y * 0.8, 1.0), 2)  # rounded: ties, as real scores have
G = RNG.choice(["east", "north", "south"], 300)
DF = pd.DataFrame({"y": Y, "s": S, "g": G})


@pytest.mark.parametrize("curve", [cl.roc_curve, cl.precision_recall_curve])
def test_grouped_curves_from_data_equal_the_array_path(curve):
    got = curve(data=DF, y_true="y", y_score="s", groups="g")
    ref = curve(Y, S, groups=G)
    assert type(got) is type(ref) is cl.scores.GroupedCurves
    assert list(got.members) == list(ref.members) == ["east", "north", "south"]
    assert got.value == pytest.approx(ref.value, abs=1e-12)
    np.testing.assert_allclose(got.interval(), ref.interval(), atol=1e-12)
    for name, member in got.members.items():
        rows = G == name
        assert member.value == pytest.approx(curve(Y[rows], S[rows]).value, abs=1e-12)


def test_one_group_from_data_is_refused_as_the_array_path_refuses_it():
    one = DF.assign(g="all")
    with pytest.raises(InvalidParameterError, match="at least two") as ref:
        cl.roc_curve(Y, S, groups=one["g"].to_numpy())
    with pytest.raises(InvalidParameterError, match="at least two") as got:
        cl.roc_curve(data=one, y_true="y", y_score="s", groups="g")
    assert str(got.value) == str(ref.value)
