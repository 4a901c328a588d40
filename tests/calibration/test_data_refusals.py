"""``calibration(data=...)`` refuses a forecast column of text by name, as ``roc_curve(data=...)`` does.

Before, every engine ended in numpy's "could not convert string to float", and a column of numeric
text ("0.1") was silently read as numbers."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import confusionlab as cl

FRAME = pd.DataFrame(
    {"y": [0, 1, 0, 1], "q": list("abcd"), "s": ["0.1", "0.5", "0.2", "0.3"], "r": [0.1, 0.6, 0.3, 0.9]}
)


def engines():
    yield "pandas", FRAME
    for name, convert in (
        ("polars", lambda: __import__("polars").from_pandas(FRAME)),
        ("pyarrow", lambda: __import__("pyarrow").Table.from_pandas(FRAME)),
        ("duckdb", lambda: __import__("duckdb").from_df(FRAME)),
    ):
        try:
            yield name, convert()
        except ImportError:
            continue


@pytest.mark.parametrize(("engine", "frame"), list(engines()), ids=[name for name, _ in engines()])
@pytest.mark.parametrize(("column", "first"), [("q", "'a'"), ("s", "'0.1'")])
def test_a_text_forecast_column_is_refused_by_name(engine, frame, column, first):
    with pytest.raises(cl.InvalidParameterError, match=rf"^y_prob: column '{column}' must hold numbers.*got {first}"):
        cl.calibration("y", column, data=frame)


@pytest.mark.parametrize(("engine", "frame"), list(engines()), ids=[name for name, _ in engines()])
def test_a_numeric_forecast_column_gives_the_array_answer(engine, frame):
    got = cl.calibration("y", "r", data=frame, bins=2, random_state=0)
    # two quantile bins {0.1, 0.3} and {0.6, 0.9}: ½·|0 − 0.2| + ½·|1 − 0.75|
    assert got.value == pytest.approx(0.5 * 0.2 + 0.5 * 0.25, abs=1e-15)
    assert got.value == cl.calibration(FRAME.y.to_numpy(), FRAME.r.to_numpy(np.float64), bins=2, random_state=0).value
