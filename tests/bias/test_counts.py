"""The count table: the pandas (numpy bincount) path equals the generic narwhals path."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from confusionlab import bias
from confusionlab.bias.counts import CountTable


@st.composite
def frames(draw):
    n = draw(st.integers(1, 60))
    ints = st.lists(st.integers(-3, 3), min_size=n, max_size=n)
    label = draw(ints)
    pred = [draw(st.sampled_from(sorted(set(label)))) for _ in range(n)]
    facet = draw(st.lists(st.sampled_from(["F", "M", "X"]), min_size=n, max_size=n))
    group = draw(st.lists(st.sampled_from(["g1", "g2", "g3"]), min_size=n, max_size=n))
    age = draw(st.lists(st.floats(0, 100, allow_nan=False), min_size=n, max_size=n))
    return pd.DataFrame(
        {"y": np.array(label, dtype=np.int16), "p": np.array(pred, np.int16), "s": facet, "g": group, "age": age}
    )


@settings(max_examples=60, deadline=None)
@given(frames(), st.sampled_from([[1], [0, 2], [-3]]), st.booleans())
def test_pandas_path_equals_pyarrow_path(df, positive, by_threshold):
    if not df.y.isin(positive).any() and not df.p.isin(positive).any():
        positive = [int(df.y.iloc[0])]
    facet = dict(facet="age", facet_threshold=50.0) if by_threshold else dict(facet="s", facet_values=["F", "X"])
    kw = dict(label="y", positive_values=positive, predicted="p", group="g", **facet)
    a = bias.report(df, **kw)
    b = bias.report(pa.Table.from_pandas(df, preserve_index=False), **kw)
    np.testing.assert_array_equal(a.counts.counts, b.counts.counts)
    assert a.counts.label_values == b.counts.label_values
    assert a.counts.groups == b.counts.groups
    assert a.to_clarify_json() == b.to_clarify_json()
    assert a.counts.n == len(df)


def test_table_axes_and_views():
    df = pd.DataFrame(
        {
            "y": ["lo", "mid", "hi", "hi", "lo", "mid"],
            "p": ["hi", "lo", "hi", "lo", "lo", "hi"],
            "s": ["F", "F", "F", "M", "M", "M"],
            "g": list("aabbab"),
        }
    )
    r = bias.report(df, label="y", positive_values=["hi"], facet="s", facet_values=["F"], predicted="p", group="g")
    t = r.counts
    assert t.label_values == ("hi", "lo", "mid") and t.label_positive.tolist() == [True, False, False]
    assert t.counts.shape == (2, 2, 3, 2) and t.n == 6
    assert t.facet_sizes.tolist() == [3, 3]
    assert t.label_distribution(binary=False).tolist() == [[1, 1, 1], [1, 1, 1]]
    # (tp, fn, fp, tn): a = M rows (hi,lo) (lo,lo) (mid,hi); d = F rows (lo,hi) (mid,lo) (hi,hi)
    assert t.confusion().tolist() == [[0, 1, 1, 1], [1, 0, 1, 1]]


def test_from_confusion_checks_counts():
    with pytest.raises(ValueError, match=r"a\[fp\] must be a non-negative count, got -1"):
        CountTable.from_confusion(a=(1, 2, -1, 3), d=(1, 1, 1, 1))
    with pytest.raises(ValueError, match=r"a\[tp\] must be an integer count, got the non-integer 1.5"):
        CountTable.from_confusion(a=(1.5, 2, 1, 3), d=(1, 1, 1, 1))
    with pytest.raises(TypeError, match=r"counts must be a CountTable, got dict"):
        bias.report_from_counts({"a": 1})
