"""Hostile arguments to bias.audit: a valid audit, or a ValueError/TypeError naming the argument."""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from confusionlab.bias.auditing import COLUMNS, audit

HOSTILE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.integers(2**53 - 2, 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=4),
    st.lists(st.sampled_from(["s", "r", "y", "p", "x", 1]), max_size=4),
    st.sampled_from([np.nan, np.int64(3), np.float32(0.5), np.array([1, 2]), object(), {"s": "F"}, b"x", ("s",)]),
)
DF = pd.DataFrame({"y": [1, 0, 1, 0, 1, 1] * 5, "p": [1, 0, 0, 0, 1, 1] * 5, "s": list("FFFMMM") * 5,
                   "r": list("xyxyxz") * 5})  # fmt: skip
BASE = dict(label="y", positive_values=[1], predicted="p", facets=["s", "r"], metrics=["DPPL", "DI"], margin=0.1,
            n_draws=200)  # fmt: skip
ARGS = ["label", "positive_values", "facets", "predicted", "intersections", "metrics", "margin", "confidence",
        "reference", "simultaneous", "prior", "n_draws", "random_state", "tolerance", "dropna"]  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(ARGS), HOSTILE)
def test_hostile_argument(name, value):
    try:
        a = audit(DF, **{**BASE, name: value})
    except (ValueError, TypeError) as exc:
        msg = str(exc)
        names = {name, "facet", "column", "label", "predicted", "metric"}
        assert any(n in msg for n in names), f"{type(exc).__name__} does not name {name}: {msg}"
    else:
        assert list(a.columns) == list(COLUMNS)
        assert set(a.verdict) <= {"bias", "no material bias", "insufficient evidence"}
        assert 0 < a.level < 1


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from("FM"), st.sampled_from("xyz"), st.integers(0, 1), st.integers(0, 1)),
             min_size=1, max_size=25),
    st.booleans(),
)  # fmt: skip
def test_any_small_table(rows, intersections):
    # tiny, lopsided, single-valued facets and empty intersections: an audit or a named error, never a crash
    d = pd.DataFrame(rows, columns=["s", "r", "y", "p"])
    try:
        a = audit(d, **{**BASE, "intersections": intersections})
    except ValueError as exc:
        assert "positive_values" in str(exc) or "predicted" in str(exc)
        return
    assert (a.verdict[a["value"].isna()] == "insufficient evidence").all()  # .value is the protocol mapping
    assert (a.sizes.n > 0).all()
