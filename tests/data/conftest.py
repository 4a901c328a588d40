"""Fixtures of the data= tests: one frame in every engine, a local[2] SparkSession and a Dask
LocalCluster, each started once for this folder (package scope) and stopped after it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ENGINES = ("pandas", "polars", "polars-lazy", "pyarrow", "duckdb", "dask", "spark")
HERE = Path(__file__).parent


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Keep this folder's tests on one pytest-xdist worker (``--dist loadgroup``, as `make
    pytest` runs them), so that one SparkSession and one LocalCluster serve them all."""
    for item in items:
        if HERE in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.xdist_group("engines"))


@pytest.fixture(scope="package")
def spark():
    from _spark import local_spark_session

    session = local_spark_session("confusionlab-data-tests")
    yield session
    session.stop()


@pytest.fixture(scope="package")
def dask_client():
    from dask.distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    client = Client(cluster)
    yield client
    client.close()
    cluster.close()


def make_frame(n: int = 600, seed: int = 3) -> pd.DataFrame:
    """True labels (0/1 and three text classes), predictions, three classifiers' labels, two
    scores with ties, a forecast probability and a group."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    g = rng.choice(["north", "south", "east"], n, p=[0.5, 0.3, 0.2])
    s = (rng.normal(size=n) + 1.2 * y).round(1)  # ties
    t = (rng.normal(size=n) + 0.8 * y + 0.5 * s).round(2)
    yes = np.where(y == 1, "yes", "no")

    def noisy(rate: float) -> np.ndarray:
        return np.where(rng.random(n) < rate, yes, np.where(yes == "yes", "no", "yes"))

    y3 = rng.choice(["cat", "dog", "eel"], n)
    p3 = np.where(rng.random(n) < 0.7, y3, rng.choice(["cat", "dog", "eel"], n))
    q = np.clip(0.5 + 0.25 * (s - 0.6), 0.0, 1.0).round(3)
    return pd.DataFrame(
        {
            "y": y,
            "p": (s > 0.5).astype(np.int64),
            "yes": yes,
            "a": noisy(0.85),
            "b": noisy(0.8),
            "c": noisy(0.75),
            "y3": y3,
            "p3": p3,
            "s": s,
            "t": t,
            "q": q,
            "g": g,
        }
    )


def to_spark(spark, df: pd.DataFrame):
    """A Spark frame from plain Python rows with an explicit schema (NaN kept as NaN, None as null)."""
    from pyspark.sql.types import DoubleType, LongType, StringType, StructField, StructType

    kind = {"i": LongType(), "f": DoubleType(), "O": StringType(), "U": StringType()}
    schema = StructType([StructField(c, kind[df[c].dtype.kind], True) for c in df.columns])
    rows = []
    for r in df.astype(object).itertuples(index=False):
        rows.append(tuple(v.item() if isinstance(v, np.generic) else v for v in r))
    rows = [tuple(None if v is pd.NA else v for v in r) for r in rows]
    return spark.createDataFrame(rows, schema)


def in_engine(df: pd.DataFrame, engine: str, request: pytest.FixtureRequest):
    """``df`` held by ``engine`` (Spark and Dask through their package fixtures)."""
    import pyarrow as pa

    if engine == "pandas":
        return df
    if engine in ("polars", "polars-lazy"):
        import polars as pl

        frame = pl.from_pandas(df)
        return frame.lazy() if engine == "polars-lazy" else frame
    if engine == "pyarrow":
        return pa.Table.from_pandas(df, preserve_index=False)
    if engine == "duckdb":
        import duckdb

        return duckdb.connect().from_arrow(pa.Table.from_pandas(df, preserve_index=False))
    if engine == "dask":
        import dask.dataframe as dd

        request.getfixturevalue("dask_client")
        return dd.from_pandas(df, npartitions=3)
    if engine == "spark":
        return to_spark(request.getfixturevalue("spark"), df)
    raise AssertionError(engine)
