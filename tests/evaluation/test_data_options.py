"""evaluate(data=...) gets evaluate's checked options as one object (they were spelled out a second
time as keywords for the data path, and checked there); the answers are the array path's."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import confusionlab as cl
from confusionlab.evaluation._data import evaluate_data
from confusionlab.evaluation._options import check_options


def test_the_data_path_takes_the_checked_options_object():
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, 300)
    p = np.where(rng.random(300) < 0.8, y, 1 - y)
    g = rng.choice(["u", "v"], 300)
    df = pd.DataFrame({"y": y, "p": p, "g": g})
    options = check_options(
        model="binomial",
        method="auto",
        metrics="f1",
        target="next_test_set",
        tolerance=1e-9,
        prior=None,
        n_draws=500,
        random_state=1,
        min_class_size=40,
        progress=False,
    )
    got = evaluate_data(df, "y", "p", groups="g", options=options)
    expected = cl.evaluate(
        y, p, groups=g, model="binomial", metrics="f1", tolerance=1e-9, min_class_size=40, target="next_test_set"
    )
    pd.testing.assert_frame_equal(got.to_frame(), expected.to_frame())
    assert (got.model, got.tolerance, got.n_draws, got.min_class_size) == ("binomial", 1e-9, 500, 40)


@pytest.mark.parametrize(
    ("option", "value"), [("n_draws", 0), ("model", "gaussian"), ("min_class_size", -1), ("tolerance", 5)]
)
def test_evaluate_data_refuses_a_bad_option_by_name(option, value):
    df = pd.DataFrame({"y": [1, 0] * 10, "p": [1, 1] * 10})
    with pytest.raises(cl.InvalidParameterError, match=option):
        cl.evaluate("y", "p", data=df, **{option: value})
