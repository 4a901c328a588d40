"""``calibration(data=...)`` beyond the distinct-forecast limit bins in every engine, exactly.

With more distinct forecasts than ``MAX_DISTINCT_SCORES`` (here lowered to 40 so that a 600-row
frame crosses it), each engine counts (true label, bin, group) with the sums of the forecasts'
powers and their extremes. The bins, their counts, positives and mean forecasts, the ECE, its
interval and the Brier score must equal the array path's with the same edges (to 1e-12); the
counts are also checked against ``collections.Counter`` of the rows binned by numpy's
``searchsorted`` (scikit-learn's rule), and the mean forecasts and frequencies against
scikit-learn's ``calibration_curve`` where the edges are the array path's own. The forecasts of
``make_frame`` are rounded to 3 decimals, so quantile edges fall on forecasts: the tie rule
(``edges[b] < q ≤ edges[b + 1]``) is exercised on every engine.
"""

from __future__ import annotations

import importlib
from collections import Counter

import numpy as np
import pandas as pd
import pytest

import confusionlab as cl

from .conftest import ENGINES, in_engine, make_frame

DATA = importlib.import_module("confusionlab.calibration._data")
BINS = importlib.import_module("confusionlab.calibration._bins")

DF = make_frame()
Y, Q, G = DF["y"].to_numpy(), DF["q"].to_numpy(), DF["g"].to_numpy()
#: engines whose quantiles are exact (numpy's percentile of every forecast)
EXACT_QUANTILES = {"pandas", "polars", "polars-lazy", "pyarrow", "duckdb"}


@pytest.fixture(autouse=True)
def small_limit(monkeypatch):
    assert len(np.unique(Q)) > 40  # the frame crosses the lowered limit
    monkeypatch.setattr(DATA, "MAX_DISTINCT_SCORES", 40)


@pytest.fixture(params=ENGINES)
def engine(request):
    return request.param


def reference(y, q, edges, seed=0):
    """The array path's calibration of ``(y, q)`` on ``edges`` (the same Calibration class)."""
    from confusionlab.calibration import Calibration

    b = BINS.bin_forecasts(q, y.astype(bool), len(edges) - 1, "quantile", edges=edges)
    return Calibration(b, strategy="quantile", positive=1, n_resamples=200, n_draws=200, random_state=seed)


def assert_same_bins(got, ref):
    np.testing.assert_array_equal(got.counts, ref.counts)
    np.testing.assert_array_equal(got.positives, ref.positives)
    np.testing.assert_array_equal(got._bins.index, ref._bins.index)
    np.testing.assert_allclose(got.mean_forecast, ref.mean_forecast, rtol=1e-12, atol=1e-12)
    assert got.value == pytest.approx(ref.value, rel=1e-12, abs=1e-12)
    assert got.brier == pytest.approx(ref.brier, rel=1e-12, abs=1e-12)
    np.testing.assert_allclose(got.interval(0.9), ref.interval(0.9), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
def test_every_engine_bins_as_the_array_path(engine, strategy, request):
    data = in_engine(DF, engine, request)
    got = cl.calibration("y", "q", data=data, bins=7, strategy=strategy, n_resamples=200, n_draws=200)
    assert got.approximation is not None and "binned where the data lives" in got.approximation
    if strategy == "uniform" or engine in EXACT_QUANTILES:
        own = cl.calibration(Y, Q, bins=7, strategy=strategy)
        np.testing.assert_array_equal(got.edges, own.edges)  # exact edges: the array path's own bins
        from sklearn.calibration import calibration_curve  # scikit-learn 1.9.1

        prob_true, prob_pred = calibration_curve(Y, Q, n_bins=7, strategy=strategy)
        np.testing.assert_allclose(got.observed_frequency, prob_true, rtol=1e-12)
        np.testing.assert_allclose(got.mean_forecast, prob_pred, rtol=1e-12)
    assert got.edges[0] == Q.min() or strategy == "uniform"
    assert_same_bins(got, reference(Y, Q, got.edges))
    ids = np.searchsorted(got.edges[1:-1], Q)  # an independent count of the rows per bin
    rows = Counter(ids.tolist())
    assert {int(got._bins.index[i]): int(n) for i, n in enumerate(got.counts)} == dict(rows)


def test_every_engine_bins_each_group_as_the_array_path(engine, request):
    data = in_engine(DF, engine, request)
    got = cl.calibration("y", "q", data=data, bins=5, groups="g", n_resamples=200, n_draws=200)
    assert got.names == ["east", "north", "south"]
    assert_same_bins(got.overall, reference(Y, Q, got.overall.edges))
    for name in got.names:
        rows = G == name
        member = got[name]
        np.testing.assert_array_equal(member.edges, got.overall.edges)  # the groups share the column's edges
        assert "sharing the whole column's quantile edges" in member.approximation
        assert_same_bins(member, reference(Y[rows], Q[rows], member.edges))


def test_every_engine_refuses_missing_and_out_of_range_forecasts(engine, request):
    df = DF.copy()
    df["q_nan"] = df["q"]
    df.loc[[5, 9], "q_nan"] = np.nan
    df["q_big"] = df["q"] + 0.5
    df["q_neg"] = df["q"] - 0.5
    data = in_engine(df, engine, request)
    with pytest.raises(cl.InvalidParameterError, match=r"^y_prob: column 'q_nan' has 2 missing value"):
        cl.calibration("y", "q_nan", data=data, bins=4)
    for column, strategy in (("q_big", "uniform"), ("q_neg", "quantile")):
        with pytest.raises(cl.InvalidParameterError, match=rf"^y_prob: column '{column}' must hold probabilities"):
            cl.calibration("y", column, data=data, bins=4, strategy=strategy)


def test_text_forecasts_beyond_the_limit_are_refused_by_name(engine, request):
    df = DF.assign(text=[f"<b>{i}</b>" for i in range(len(DF))])
    with pytest.raises(cl.InvalidParameterError, match=r"^y_prob: column 'text' must hold numbers"):
        cl.calibration("y", "text", data=in_engine(df, engine, request))


def test_below_the_limit_nothing_changes():
    """At most the limit: every forecast a cell, the array path's answer, band and p-value included."""
    df = pd.DataFrame({"y": Y, "q": Q.round(1)})
    got = cl.calibration("y", "q", data=df, bins=4, random_state=0)
    ref = cl.calibration(Y, Q.round(1), bins=4, random_state=0)
    assert got.approximation is None and "band_method" in got.to_frame()
    assert set(got.to_frame()["band_method"]) == {"Poisson-binomial"}
    np.testing.assert_array_equal(got.band().lower, ref.band().lower)
    assert got.p_value() == ref.p_value()


def test_hostile_column_names_and_a_nullable_missing_value():
    df = pd.DataFrame({"$x^$": Y, "<script>q</script>": Q, "a.b`c": Q})
    got = cl.calibration("$x^$", "<script>q</script>", data=df, bins=3, n_resamples=100, n_draws=100)
    assert_same_bins(got, reference(Y, Q, got.edges))
    assert "<script>q" not in got.to_html()
    nullable = df.astype({"a.b`c": "Float64"})
    nullable.loc[3, "a.b`c"] = pd.NA
    with pytest.raises(cl.InvalidParameterError, match=r"^y_prob: column 'a.b`c' has 1 missing value"):
        cl.calibration("$x^$", "a.b`c", data=nullable, bins=3)


@pytest.mark.parametrize("engine", ["dask", "spark"])
def test_a_cluster_table_beyond_its_cell_bound_is_refused_on_the_cluster(engine, request, monkeypatch):
    """Labels × bins × groups beyond the cell bound (lowered to 5) stop before the table travels."""
    monkeypatch.setattr(DATA, "MAX_CELLS", 5)
    with pytest.raises(cl.InvalidParameterError, match=r"^y_prob: the table of \(label, bin, group\).*fewer bins"):
        cl.calibration("y", "q", data=in_engine(DF, engine, request), bins=4, strategy="uniform")


@pytest.mark.slow
def test_spark_beyond_the_real_limit_answers(spark, monkeypatch):
    """10⁶ + 1,000 distinct forecasts in Spark (the real limit, not lowered): binned by Spark, the
    diagram and the Brier score equal the array path's on the same rows with the same edges."""
    from pyspark.sql import functions as F

    from confusionlab._tables import MAX_DISTINCT_SCORES

    monkeypatch.setattr(DATA, "MAX_DISTINCT_SCORES", MAX_DISTINCT_SCORES)  # undo the lowered limit
    rows = 1_001_000
    df = spark.range(rows).select(F.rand(7).alias("q")).select("q", (F.rand(8) < F.col("q")).cast("int").alias("y"))
    got = cl.calibration("y", "q", data=df, n_resamples=100, n_draws=100)
    arrow = df.toArrow()
    q, y = arrow.column("q").to_numpy(), arrow.column("y").to_numpy()
    assert np.unique(q).size > 10**6 and got.n_forecasts == rows
    assert "approximate (from a sample" in got.approximation
    assert_same_bins(got, reference(y, q, got.edges))
