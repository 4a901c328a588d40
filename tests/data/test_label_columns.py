"""Label columns of too many values (scores or a row id passed as labels) refused by name on Spark and
Dask before any aggregation (a glance at the first rows), and, when the many values come later, by the
count itself without bringing the table to the client; Spark's score bins (Knots) against numpy's."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

import confusionlab as cl
from confusionlab import InvalidParameterError
from confusionlab._tables import table as table_module
from confusionlab._tables.knots import Knots, knots_from_sample

from .conftest import in_engine


def id_frame(n: int = 12_000) -> pd.DataFrame:
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, n)
    return pd.DataFrame({"y": y, "p": np.where(rng.random(n) < 0.8, y, 1 - y), "a": y, "row": np.arange(n)})


@pytest.mark.parametrize("engine", ["dask", "spark"])
def test_a_row_id_as_labels_is_refused_before_counting(engine, request, monkeypatch):
    """Before this check a row id went to the aggregation and 12,000 cells (10⁸ on real data) came back."""
    data = in_engine(id_frame(), engine, request)

    def no_count(*args, **kwargs):  # pragma: no cover - reaching it is the failure
        raise AssertionError("the table was counted")

    monkeypatch.setattr(table_module, "count_cells", no_count)
    message = r"more than 1,000 distinct values in its first 10,000 rows: is it a score or a row id"
    with pytest.raises(InvalidParameterError, match=rf"^y_pred: column 'row' has {message}"):
        cl.evaluate(data=data, y_true="y", y_pred="row")
    with pytest.raises(InvalidParameterError, match=rf"^y_true: column 'row' has {message}"):
        cl.compare_paired(data=data, y_true="row", pred_a="a", pred_b="p", metric="f1")
    with pytest.raises(InvalidParameterError, match=rf"^predictions\['B'\]: column 'row' has {message}"):
        cl.rank_models(data=data, y_true="y", predictions={"A": "a", "B": "row"}, metric="accuracy")


@pytest.mark.parametrize("engine", ["dask", "spark"])
def test_many_values_after_the_first_rows_are_refused_by_the_bounded_count(engine, request, monkeypatch):
    """The first 10,000 rows hold one label, the rest a row id: the glance passes, the count is refused
    by the engine (Spark collects at most MAX_CELLS + 1 rows, Dask refuses on the workers)."""
    df = id_frame(20_000)
    df["late"] = np.where(np.arange(len(df)) < 10_000, 0, np.arange(len(df)))
    monkeypatch.setattr(table_module, "MAX_CELLS", 500)
    data = in_engine(df, engine, request)
    if engine == "dask":
        import dask.dataframe as dd

        data = dd.from_pandas(df, npartitions=2)  # the first partition: the 10,000 rows of one label
    with pytest.raises(InvalidParameterError, match=r"^y_true: column 'late' has more than 1,000 distinct values"):
        cl.evaluate(data=data, y_true="late", y_pred="p")
    ev = cl.evaluate(data=data, y_true="y", y_pred="p")  # the same frame's label columns count as before
    assert ev.confusion_matrix() == cl.ConfusionMatrix.from_predictions(df["y"], df["p"])


def test_spark_knots_bin_as_numpy_does(spark):
    """Spark's CASE tree of the knots gives numpy's Knots.bin_of on values at, between, below and above
    the knots, and on ±inf (bin −1) and −0.0."""
    from pyspark.sql.types import DoubleType, StructField, StructType

    from confusionlab._tables.spark import _knots_bin

    rng = np.random.default_rng(2)
    sample = rng.standard_normal(5_000)
    knots = knots_from_sample(sample, 997)
    x = np.asarray(knots.x)
    values = np.concatenate(
        [x, np.nextafter(x, -np.inf), np.nextafter(x, np.inf), rng.standard_normal(2_000) * 3, [-1e300, 1e300, -0.0]]
    )
    values = np.concatenate([values, [np.inf, -np.inf]])
    frame = spark.createDataFrame([(float(v),) for v in values], StructType([StructField("s", DoubleType())]))
    got = np.asarray([r[0] for r in frame.select(_knots_bin("s", knots)).collect()])
    np.testing.assert_array_equal(got, knots.bin_of(values))
    finite = np.isfinite(values)
    order = np.argsort(values[finite], kind="stable")
    assert np.all(np.diff(got[finite][order]) >= 0)  # monotone: the bins are intervals


def test_knots_a_subnormal_apart_keep_every_bin_finite_and_monotone(spark):
    """A sample holding 0 and 5e-324 gives knots one subnormal apart: their slope was infinite and a
    score exactly at the first knot got 0·inf = NaN (numpy: an arbitrary integer; Spark: the top bin,
    above larger scores). Capped at the largest double, the bins are in range and non-decreasing, and
    Spark's CASE tree and grid give numpy's."""
    from pyspark.sql.types import DoubleType, StructField, StructType

    from confusionlab._tables.spark import _grid_bin_items, _knots_bin

    knots = knots_from_sample(np.array([0.0, 5e-324, 1.0, 2.0, 3.0]), 4)
    assert knots.x[:2] == (0.0, 5e-324) and np.all(np.isfinite(knots.a))
    values = np.array([-1.0, 0.0, 5e-324, 1e-323, 0.5, 1.0, 1.25, 2.0, 3.0, 4.0])
    want = knots.bin_of(values)
    # by hand: F·bins through (0, 0), (5e-324, 0.8), (1, 1.6), (2, 2.4), (3, 3.2), the last bin from 3 on
    assert want.tolist() == [0, 0, 0, 0, 1, 1, 1, 2, 3, 3]
    frame = spark.createDataFrame([(float(v),) for v in values], StructType([StructField("v", DoubleType())]))
    tree = np.asarray([r[0] for r in frame.select(_knots_bin("v", knots)).collect()])
    items = _grid_bin_items("v", knots)
    assert items is not None
    grid = np.asarray([r[0] for r in frame.selectExpr(*items).select("_bin").collect()])
    np.testing.assert_array_equal(tree, want)
    np.testing.assert_array_equal(grid, want)


#: doubles whose SQL literal must come back bit for bit: subnormals, 1 − 2⁻⁵³, 0.1, the extremes, −0.0
AWKWARD = [5e-324, -5e-324, 2.2250738585072014e-308, 1 - 2**-53, 1 + 2**-52, 0.1, -0.1, 1e-5, 1e300, -0.0, 0.0]
AWKWARD += [1.7976931348623157e308, -1.7976931348623157e308, 123456789.12345679, 2.0**60]


def test_spark_sql_double_literals_round_trip(spark):
    """The knots' SQL string writes each double as a literal Spark reads back to the same bits (±inf
    and NaN too), and so do the grid's constant arrays, so the CASE tree and the grid compare and
    multiply exactly the numbers of Knots."""
    from confusionlab._tables.spark import _sql_array, _sql_double

    values = [*AWKWARD, np.inf, -np.inf]
    row = spark.range(1).selectExpr(*(f"{_sql_double(v)} AS v{i}" for i, v in enumerate(values))).collect()[0]
    got = np.asarray(list(row), dtype=np.float64)
    np.testing.assert_array_equal(got.view(np.int64), np.asarray(values, dtype=np.float64).view(np.int64))
    nan = spark.range(1).selectExpr(f"{_sql_double(np.nan)} AS v").collect()[0][0]
    assert np.isnan(nan)
    arrays = spark.range(1).selectExpr(f"{_sql_array(values)} AS d", f"{_sql_array([np.nan])} AS n").collect()[0]
    np.testing.assert_array_equal(np.asarray(arrays[0]).view(np.int64), np.asarray(values).view(np.int64))
    assert np.isnan(arrays[1][0])
    ints = spark.range(1).selectExpr(f"{_sql_array([-(2**31), 0, 2**31 - 1], 'INT')} AS i").collect()[0][0]
    assert ints == [-(2**31), 0, 2**31 - 1]


def test_spark_knots_bin_on_awkward_knots_and_column_name(spark):
    """Knots at subnormal, sub-ulp and huge scores, in a column whose name needs quoting (a backtick,
    a space, a dot): Spark's bins are numpy's."""
    from pyspark.sql.types import DoubleType, StructField, StructType

    from confusionlab._tables.spark import _knots_bin

    x = np.array([-1e300, -5e-324, 5e-324, 0.1, 1 - 2**-53, 1.0, 1e300])
    c = np.array([0.0, 3.0, 3.5, 40.0, 60.0, 61.0, 99.0])
    with np.errstate(over="ignore"):
        a = np.append(np.diff(c) / np.diff(x), 0.0)
    finite = np.isfinite(a)
    knots = Knots(tuple(x[finite].tolist()), tuple(c[finite].tolist()), tuple(a[finite].tolist()), 100)
    kx = np.asarray(knots.x)
    values = np.concatenate([kx, np.nextafter(kx, -np.inf), np.nextafter(kx, np.inf), AWKWARD, [0.3, 0.99, 5.0]])
    name = "odd `score`.x y"
    schema = StructType([StructField(name, DoubleType())])
    frame = spark.createDataFrame([(float(v),) for v in values], schema)
    got = np.asarray([r[0] for r in frame.select(_knots_bin(name, knots)).collect()])
    np.testing.assert_array_equal(got, knots.bin_of(values))


def test_spark_scores_sorted_first_rows_unlike_the_rest(spark, monkeypatch):
    """A frame sorted by score: the first rows (the knots' sample, 300 here) are the lowest scores, so
    nearly every row fell in the top bin; the count sees the lopsided bin and draws the knots from all
    rows. The result is the array path's on the binned scores, and the bins about equal."""
    from .conftest import to_spark

    monkeypatch.setattr(table_module, "KNOT_SAMPLE", 300)
    rng = np.random.default_rng(9)
    n = 4_000
    y = rng.integers(0, 2, n)
    s = rng.standard_normal(n) + y
    order = np.argsort(s)
    df = pd.DataFrame({"y": y[order], "s": s[order]})
    c = cl.roc_curve(data=to_spark(spark, df).coalesce(1), y_true="y", y_score="s", score_bins=40)
    edges = c.score_edges
    b = np.searchsorted(edges[1:], df["s"].to_numpy(), side="right")
    ref = cl.roc_curve(df["y"].to_numpy(), edges[b])
    np.testing.assert_array_equal(c.tpr, ref.tpr)
    np.testing.assert_array_equal(c.fpr, ref.fpr)
    assert np.bincount(b).max() <= 3 * n / 40


@pytest.mark.parametrize(
    "label_type, labels",
    [("int", [-7, 0, 3, 2**31 - 1]), ("tinyint", [-128, 1, 127]), ("boolean", [False, True]), ("bigint", [0, 1])],
)
@pytest.mark.parametrize("grid", [True, False])
def test_spark_packed_key_cells_as_the_tuple_grouping(spark, label_type, labels, grid, monkeypatch):
    """(label, knots' bin) counted by one packed long key per row gives the cells, smallest scores and
    missing counts of the grouping by (label, bin, missing flags): negative and extreme labels, booleans,
    infinite scores (bin −1), missing scores, labels, and both (a 64-bit label takes the tuple grouping);
    the bins found by the grid or, where it declines, by the CASE tree."""
    from pyspark.sql import functions as F

    from confusionlab._tables import Bins, CountRequest, Values, count_cells
    from confusionlab._tables import spark as spark_engine
    from confusionlab._tables.spark import _packable

    rng = np.random.default_rng(9)
    n = 3_000
    s = rng.standard_normal(n)
    s[rng.random(n) < 0.03] = np.nan
    s[:4] = [np.inf, -np.inf, -0.0, 5e-324]
    y = [labels[i] for i in rng.integers(0, len(labels), n)]
    rows = [(None if i % 97 == 0 else str(y[i]), None if i % 89 == 0 else float(s[i])) for i in range(n)]
    frame = spark.createDataFrame(rows, "y string, s double").select(F.col("y").cast(label_type).alias("y"), "s")
    knots = knots_from_sample(s[np.isfinite(s)], 50)
    request = CountRequest({"_l": Values("y"), "_k0": Bins("s", knots)})
    packed = dataclasses.replace(request, columnar=True)
    assert spark_engine._grid_bin_items("s", knots) is not None
    if not grid:
        monkeypatch.setattr(spark_engine, "_grid_bin_items", lambda *args: None)
    assert (_packable(frame, packed) is None) == (label_type == "bigint")
    got, want = count_cells(frame, packed), count_cells(frame, request)  # columnar=False: the tuple grouping

    def cells(c):
        return sorted(zip(c.keys["_l"], c.keys["_k0"], c.lows["_k0"], c.n, strict=True))

    assert cells(got) == cells(want)
    assert got.missing == want.missing and got.dropped == want.dropped
    assert set(got.missing) == {"y", "s"} and sorted(set(got.keys["_l"])) == sorted(labels)


@pytest.mark.parametrize("seed, bins", [(3, 10_000), (4, 997), (5, 2)])
def test_spark_grid_bins_as_numpy_does(spark, seed, bins):
    """The uniform grid that finds a score's knot interval (two look-ups) gives numpy's Knots.bin_of on
    values at, just below and above the knots and the grid's cell edges, below and above the range,
    ±inf (bin −1) and −0.0, also with the first two and the last two knots in one cell; inner knots two to
    a cell, or a range of no finite scale, leave it to the CASE tree."""
    from pyspark.sql.types import DoubleType, StructField, StructType

    from confusionlab._tables.spark import GRID_CELLS, _grid_bin_items

    def grid_bins(frame, knots):
        items = _grid_bin_items("v", knots)
        assert items is not None
        return np.asarray([r[0] for r in frame.selectExpr(*items).select("_bin").collect()])

    rng = np.random.default_rng(seed)
    knots = knots_from_sample(rng.standard_normal(20_000) * 10.0**seed, bins)
    x = np.asarray(knots.x)
    edges = x[0] + np.arange(GRID_CELLS + 1) * ((x[-1] - x[0]) / GRID_CELLS)
    near = np.concatenate([x, edges])
    spread = rng.standard_normal(3_000) * 10.0**seed
    values = np.concatenate([near, np.nextafter(near, -np.inf), np.nextafter(near, np.inf), spread, AWKWARD])
    values = np.concatenate([values, [np.inf, -np.inf]])
    frame = spark.createDataFrame([(float(v),) for v in values], StructType([StructField("v", DoubleType())]))
    np.testing.assert_array_equal(grid_bins(frame, knots), knots.bin_of(values))
    crowded = Knots((0.0, 1e-9, 2e-9, 1.0), (0.0, 1.0, 2.0, 3.0), (1e9, 1e9, 1.0, 0.0), 4)
    tiny = Knots((0.0, 5e-324), (0.0, 1.0), (0.0, 0.0), 2)
    assert _grid_bin_items("v", crowded) is None and _grid_bin_items("v", tiny) is None
    # the first two knots in one cell, the last two too: only inner knots need cells of their own
    ends = Knots((0.0, 1e-9, 0.5, 1 - 1e-9, 1.0), (0.0, 1.0, 2.0, 3.0, 3.5), (1e9, 2.0, 2.0, 5e8, 0.0), 4)
    near = np.asarray(ends.x)
    values = np.concatenate([near, np.nextafter(near, -np.inf), np.nextafter(near, np.inf), [-1.0, 0.25, 2.0]])
    frame = spark.createDataFrame([(float(v),) for v in values], StructType([StructField("v", DoubleType())]))
    np.testing.assert_array_equal(grid_bins(frame, ends), ends.bin_of(values))


def test_spark_glance_serves_the_label_check_and_the_knots(spark, monkeypatch):
    """One glance at the first rows gives the label check its first HEAD_ROWS rows and the knots their
    first KNOT_SAMPLE rows: the same refusal and the same knots as reading each on its own."""
    from .conftest import to_spark

    monkeypatch.setattr(table_module, "KNOT_SAMPLE", 15_000)
    df = id_frame(20_000)
    df["s"] = np.random.default_rng(1).standard_normal(len(df))
    data = to_spark(spark, df)
    head = table_module.glance(data, ["y", "row", "s"], 15_000)
    assert head.num_rows == 15_000
    assert table_module.score_binning(data, "s", 100, head=head) == table_module.score_binning(data, "s", 100)
    table_module.check_distinct(data, {"y_true": "y"}, {"y_true": 2}, head=head)
    with pytest.raises(InvalidParameterError, match=r"^y_true: column 'row' has more than 9,999 distinct values"):
        table_module.check_distinct(data, {"y_true": "row"}, {"y_true": 9_999}, head=head)
    table_module.check_distinct(data, {"y_true": "row"}, {"y_true": 10_000}, head=head)  # its first 10,000 rows
