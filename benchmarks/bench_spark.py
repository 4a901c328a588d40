"""Benchmark bias.report on a PySpark DataFrame against Spark's own groupBy(...).count() (SPEC E4).

Usage (Java 17; pyspark from the ``spark`` extra)::

    .venv/bin/python benchmarks/bench_spark.py --rows 1e7

Starts a local[2] SparkSession (UI off, bound to 127.0.0.1, 2 shuffle partitions),
generates the rows in Spark (``spark.range`` and ``rand``: nothing is shipped from
Python), caches them, and times in the same run (median of 3, after one warm-up):

* the baseline: ``df.groupBy("facet", "label", "pred", "group").count().collect()``,
  Spark's own count of the columns a report needs;
* ours: ``bias.report(df, ..., predicted=, group=)``, all 20 count-based metrics
  (values only; the intervals do not touch Spark), which runs one aggregation in Spark
  and collects only the count table.

The goal is ours / baseline <= 1.5 at 1e7 rows.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from confusionlab import bias


def session():
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # tests/_spark.py, the tests' session
    from _spark import local_spark_session

    return local_spark_session("confusionlab-bench", spark__driver__memory="4g")


def make(spark, n: int):
    from pyspark.sql import functions as F

    df = spark.range(n).select(
        (F.rand(1) < 0.35).cast("int").alias("facet"),
        (F.rand(2) < 0.3).cast("int").alias("label"),
        (F.floor(F.rand(4) * 5)).cast("int").alias("group"),
    )
    df = df.withColumn("pred", F.when(F.rand(3) < 0.85, F.col("label")).otherwise(1 - F.col("label")))
    return df.cache()


def timed(fn, repeat: int) -> float:
    fn()  # warm-up (JIT, caches)
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", nargs="+", type=float, default=[1e7])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    spark = session()
    kw = dict(label="label", positive_values=[1], facet="facet", facet_values=[1], predicted="pred", group="group")
    print(f"{'rows':>12} {'groupBy.count s':>16} {'bias.report s':>14} {'ratio':>7}")
    try:
        for rows in args.rows:
            n = int(rows)
            df = make(spark, n)
            assert df.count() == n  # materialise the cache before timing
            base = timed(lambda df=df: df.groupBy("facet", "label", "pred", "group").count().collect(), args.repeat)
            ours = timed(lambda df=df: bias.report(df, **kw), args.repeat)
            print(f"{n:>12,} {base:>16.3f} {ours:>14.3f} {ours / base:>7.2f}")
            df.unpersist()
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
