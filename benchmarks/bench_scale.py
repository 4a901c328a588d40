"""data= at scale: evaluate and roc_curve counted inside Dask and Spark, against a bare group-by
count of the same rows on the same cluster, measured in the same run.

* Dask: a LocalCluster (2 workers × 1 thread), 10**8 rows (``--quick``: 10**7) generated on the
  workers (``dd.from_map``: each partition draws its own rows; nothing is persisted, so every
  pass — ours and the baseline's — generates the rows again). Columns: ``y`` (0/1), ``p``
  (0/1), ``g`` (20 groups), ``s`` (a binormal score, every value distinct).
  Baseline: ``ddf.groupby(["g", "y", "p"]).size().compute()``.
* Spark: local[2], 10**7 rows (``--quick``: 10**6) from ``spark.range`` with ``rand``/``randn``.
  Baseline: ``df.groupBy("g", "y", "p").count().collect()``.

Measured: ``cl.evaluate(data=..., y_true="y", y_pred="p", groups="g")`` (labels, 20 groups, no
refits, ``target="true_value"``: at these sizes the next test set's exact distribution exceeds the
memory limit, issue 24's other part) with ``.value`` and ``.interval()``, and ``cl.roc_curve(data=..., y_true="y",
y_score="s", score_bins=10_000)`` with ``.value`` and ``.interval()`` (one pass for the engine's
quantiles, one for the count). Goal: each ≤ 2× the baseline. Ratio = median(ours) /
median(baseline) over ``--repeat`` alternating runs after ``--warmup`` runs of each (Spark's JVM
compiles a query's generated code as it runs: a new query takes several calls to reach its steady
time, the baseline's simpler one fewer; the ratio of first calls is reported apart). Peak client
memory: tracemalloc's peak of one more call of each (Python and numpy allocations in this process;
traced apart from the timed runs, which tracing would slow) and the process's peak RSS.

Usage::

    python benchmarks/bench_scale.py            # Dask 10^8, Spark 10^7
    python benchmarks/bench_scale.py --quick    # Dask 10^7, Spark 10^6
    python benchmarks/bench_scale.py --only dask
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import confusionlab as cl

GROUPS = 20
BINS = 10_000


def _seconds(fn: Callable[[], Any]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def _peak_mib(fn: Callable[[], Any]) -> float:
    """tracemalloc's peak of one call (a run of its own: tracing every allocation slows the Python
    side, so the timed runs go untraced)."""
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def _compare(
    name: str, baseline: Callable[[], Any], cases: dict[str, Callable[[], Any]], repeat: int, warmup: int
) -> None:
    first = {key: _seconds(fn) for key, fn in (("baseline", baseline), *cases.items())}
    for _ in range(warmup - 1):  # imports on the workers, the JIT of each query's generated code
        for fn in (baseline, *cases.values()):
            fn()
    times: dict[str, list[float]] = {"baseline": [], **{k: [] for k in cases}}
    for _ in range(repeat):
        for key, fn in (("baseline", baseline), *cases.items()):
            times[key].append(_seconds(fn))
    peaks = {key: _peak_mib(fn) for key, fn in (("baseline", baseline), *cases.items())}
    base = statistics.median(times["baseline"])
    print(f"\n{name}")
    print(f"{'case':>34} {'median s':>9} {'ratio':>6} {'goal':>5} {'peak MiB':>9} {'first s':>8} {'ratio':>6}")
    row = f"{'bare group-by count':>34} {base:9.2f} {1.0:6.2f} {'':>5} {peaks['baseline']:9.1f}"
    print(f"{row} {first['baseline']:8.2f} {1.0:6.2f}")
    for key in cases:
        med = statistics.median(times[key])
        row = f"{key:>34} {med:9.2f} {med / base:6.2f} {'≤ 2':>5} {peaks[key]:9.1f}"
        print(f"{row} {first[key]:8.2f} {first[key] / first['baseline']:6.2f}")


def _evaluate(data: Any) -> None:
    ev = cl.evaluate(data=data, y_true="y", y_pred="p", groups="g", target="true_value")
    assert len(ev.groups) == GROUPS + 1
    ev.value, ev.interval()


def _roc(data: Any) -> None:
    c = cl.roc_curve(data=data, y_true="y", y_score="s", score_bins=BINS)
    c.value, c.interval()


def _partition(i: int, rows: int) -> Any:
    import pandas as pd

    rng = np.random.default_rng(i)
    y = (rng.random(rows) < 0.4).astype(np.int8)
    s = rng.standard_normal(rows) + y
    return pd.DataFrame(
        {"y": y, "p": (s > 0.5).astype(np.int8), "g": rng.integers(0, GROUPS, rows, dtype=np.int8), "s": s}
    )


def bench_dask(rows: int, repeat: int, warmup: int) -> None:
    import dask.dataframe as dd
    from dask.distributed import Client, LocalCluster

    parts = max(8, rows // 1_000_000)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster):
            ddf = dd.from_map(_partition, range(parts), rows=rows // parts)
            _compare(
                f"Dask LocalCluster (2 × 1 thread), {rows:,} rows in {parts} partitions generated on the workers",
                lambda: ddf.groupby(["g", "y", "p"]).size().compute(),
                {
                    "evaluate (labels, 20 groups)": lambda: _evaluate(ddf),
                    "roc_curve (score_bins=10^4)": lambda: _roc(ddf),
                },
                repeat,
                warmup,
            )


def bench_spark(rows: int, repeat: int, warmup: int) -> None:
    from pyspark.sql import functions as F

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # tests/_spark.py, the tests' session
    from _spark import local_spark_session

    spark = local_spark_session("bench-scale")
    try:
        y = (F.rand(1) < 0.4).cast("int")
        df = (
            spark.range(rows, numPartitions=2)
            .select(y.alias("y"), (F.col("id") % GROUPS).cast("int").alias("g"), F.randn(2).alias("e"))
            .select("y", "g", (F.col("e") + F.col("y")).alias("s"))
            .select("y", "g", "s", (F.col("s") > 0.5).cast("int").alias("p"))
        )
        _compare(
            f"PySpark local[2], {rows:,} rows from spark.range",
            lambda: df.groupBy("g", "y", "p").count().collect(),
            {"evaluate (labels, 20 groups)": lambda: _evaluate(df), "roc_curve (score_bins=10^4)": lambda: _roc(df)},
            repeat,
            warmup,
        )
    finally:
        spark.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="Dask 10^7 rows, Spark 10^6")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--warmup", type=int, default=1, help="untimed runs of each before the timed ones (≥ 1)")
    parser.add_argument("--only", choices=("dask", "spark"))
    args = parser.parse_args()
    if args.only in (None, "dask"):
        bench_dask(10**7 if args.quick else 10**8, args.repeat, max(args.warmup, 1))
    if args.only in (None, "spark"):
        bench_spark(10**6 if args.quick else 10**7, args.repeat, max(args.warmup, 1))
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak RSS of the client process: {rss:.0f} MiB")


if __name__ == "__main__":
    main()
