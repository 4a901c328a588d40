"""The input layer's engine modules are interchangeable: each has the same functions with the same
signatures, and the dispatch picks one by the frame's type."""

from __future__ import annotations

import inspect

import pandas as pd
import pyarrow as pa
import pytest

from confusionlab._tables import dask, engine_of, narwhals, pandas, spark

ENGINE_MODULES = (pandas, narwhals, dask, spark)
FUNCTIONS = ("count_cells", "distinct_at_most", "score_edges", "score_binning", "glance", "head_distinct")


@pytest.mark.parametrize("name", FUNCTIONS)
def test_every_engine_has_the_same_function(name):
    signatures = {m.__name__: inspect.signature(getattr(m, name)).parameters for m in ENGINE_MODULES}
    first = next(iter(signatures.values()))
    assert all(list(p) == list(first) for p in signatures.values()), signatures
    assert all(name in m.__all__ for m in ENGINE_MODULES)


def test_the_engine_is_picked_by_the_frame_type():
    df = pd.DataFrame({"a": [1, 2]})
    assert engine_of(df) is pandas
    assert engine_of(pa.Table.from_pandas(df)) is narwhals
    assert [m.REMOTE for m in ENGINE_MODULES] == [False, False, True, True]
