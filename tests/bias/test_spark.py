"""PySpark: bias.report and bias.audit count in Spark (one aggregation) and agree with pandas exactly.

The tests start a local[2] SparkSession themselves (Java 17), stopped at the end of the session. Each
Spark job costs seconds, so there are few tests on small frames.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from confusionlab import bias
from confusionlab.bias.auditing import audit

#: One SparkSession for the module, on the xdist worker of the other engine tests (tests/data).
pytestmark = pytest.mark.xdist_group("engines")


@pytest.fixture(scope="module")
def spark():
    from _spark import local_spark_session

    session = local_spark_session("confusionlab-tests")
    yield session
    session.stop()


def _data() -> pd.DataFrame:
    rng = np.random.default_rng(11)
    n = 400
    sex = rng.choice(["F", "M"], n, p=[0.4, 0.6])
    race = rng.choice(["a", "b", "c"], n, p=[0.6, 0.3, 0.1])
    y = (rng.random(n) < np.where(sex == "F", 0.3, 0.5)).astype(np.int64)
    p = np.where(rng.random(n) < 0.8, y, 1 - y)
    score = rng.random(n).round(3)
    df = pd.DataFrame({"y": y, "p": p, "sex": sex, "race": race, "score": score})
    df["score"] = df["score"].astype(float)
    df.loc[5, "score"] = np.nan
    return df


def _to_spark(spark, df: pd.DataFrame):
    """A Spark frame from plain Python rows (no pandas conversion), NaN kept as NaN, None as null."""
    from pyspark.sql.types import DoubleType, LongType, StringType, StructField, StructType

    kind = {"i": LongType(), "f": DoubleType(), "O": StringType()}
    schema = StructType([StructField(c, kind[df[c].dtype.kind], True) for c in df.columns])
    rows = [tuple(None if v is None else (float(v) if isinstance(v, float) else v) for v in r)
            for r in df.astype(object).itertuples(index=False)]  # fmt: skip
    rows = [tuple(v.item() if isinstance(v, np.generic) else v for v in r) for r in rows]
    return spark.createDataFrame(rows, schema)


@pytest.fixture(scope="module")
def frames(spark):
    df = _data()
    return df, _to_spark(spark, df)


def _same(a: float | None, b: float | None) -> bool:
    return (a is None and b is None) or a == b or (a is not None and b is not None and math.isnan(a) and math.isnan(b))


def test_report_identical_to_pandas_in_one_aggregation(frames, monkeypatch):
    df, sdf = frames
    calls = []
    cls = type(sdf)  # pyspark.sql.classic.dataframe.DataFrame in Spark 4
    original = cls.collect
    monkeypatch.setattr(cls, "collect", lambda self: calls.append(1) or original(self))
    kw = dict(label="y", positive_values=[1], facet="sex", facet_values=["F"], predicted="p", group="race",
              n_draws=500)  # fmt: skip
    r_spark = bias.report(sdf, **kw)
    assert len(calls) == 1  # one groupBy(...).count(); only the count table is collected
    r_pandas = bias.report(df, **kw)
    np.testing.assert_array_equal(r_spark.counts.counts, r_pandas.counts.counts)
    assert r_spark.counts.groups == r_pandas.counts.groups
    assert r_spark.counts.label_values == r_pandas.counts.label_values
    count_based = [m for m in r_pandas if m != "FT"]
    assert len(count_based) == 20
    for m in count_based:
        assert _same(r_spark[m].value, r_pandas[m].value), m
        assert r_spark[m].error == r_pandas[m].error, m
    for m in ("DPPL", "DI", "AD", "CDDL"):
        assert r_spark[m].interval(0.9) == r_pandas[m].interval(0.9)


def test_missing_values_and_thresholds_as_in_pandas(frames):
    df, sdf = frames
    kw = dict(label="y", positive_values=[1], facet="score", facet_threshold=0.5, predicted="p")
    with pytest.raises(ValueError, match=r"facet: column 'score' has 1 missing value"):
        bias.report(sdf, **kw)
    r_spark = bias.report(sdf, **kw, dropna=True, stage="pre")
    r_pandas = bias.report(df, **kw, dropna=True, stage="pre")
    np.testing.assert_array_equal(r_spark.counts.counts, r_pandas.counts.counts)
    assert r_spark.value_or_threshold == r_pandas.value_or_threshold
    assert all(_same(r_spark[m].value, r_pandas[m].value) for m in r_pandas)


def test_audit_identical_to_pandas_in_one_aggregation(frames, monkeypatch):
    df, sdf = frames
    calls = []
    cls = type(sdf)  # pyspark.sql.classic.dataframe.DataFrame in Spark 4
    original = cls.collect
    monkeypatch.setattr(cls, "collect", lambda self: calls.append(1) or original(self))
    kw = dict(label="y", positive_values=[1], predicted="p", facets=["sex", "race"], intersections=True,
              metrics=["DPL", "DPPL", "DI", "RD"], margin=0.1, n_draws=500)  # fmt: skip
    a_spark = audit(sdf, **kw)
    assert len(calls) == 1
    a_pandas = audit(df, **kw)
    pd.testing.assert_frame_equal(a_spark.to_frame(), a_pandas.to_frame())
    pd.testing.assert_frame_equal(a_spark.sizes, a_pandas.sizes)
