"""compare_paired(..., cluster=) against the unclustered call, at 10**6 examples in 10**4 clusters (SPEC G3).

Two classifiers (accuracy 0.80 and 0.78, labels 0/1, integer cluster ids uniform over 10**4
clusters) on 10**6 examples. ``plain`` times ``compare_paired(y, a, b, metric)`` (its default
true-value answer, 100,000 draws), ``clustered`` the same call with ``cluster=ids`` (the same
answer plus the per-cluster counts, the cluster-robust interval and the cluster-level test).
Runs alternate and medians are compared; the target is ratio ≤ 3. Also
``roc_curve(..., cluster=)`` (Obuchowski's variance) against ``roc_curve`` on the same rows.

Usage::

    PYTHONPATH=src .venv/bin/python benchmarks/bench_cluster.py --repeat 7
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np
from _machine import machine

import confusionlab as cl


def _median_times(calls: dict[str, object], repeat: int) -> dict[str, float]:
    times: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(repeat):
        for name, call in calls.items():
            start = time.perf_counter()
            call()  # type: ignore[operator]
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(ts) for name, ts in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--size", type=int, default=10**6)
    parser.add_argument("--clusters", type=int, default=10**4)
    args = parser.parse_args()
    load = os.getloadavg()
    rng = np.random.default_rng(0)
    n, c = args.size, args.clusters
    ids = rng.integers(0, c, n)
    y = rng.integers(0, 2, n)
    a = np.where(rng.random(n) < 0.80, y, 1 - y)
    b = np.where(rng.random(n) < 0.78, y, 1 - y)
    score = y + rng.normal(0, 1, n)
    print(f"{n:,} examples in {c:,} clusters; median of {args.repeat} alternating runs")
    print(f"{'call':>28} {'plain s':>9} {'clustered s':>12} {'ratio':>7}")
    for metric in ("accuracy", "f1", "mcc"):
        t = _median_times(
            {
                "plain": lambda m=metric: cl.compare_paired(y, a, b, m),
                "clustered": lambda m=metric: cl.compare_paired(y, a, b, m, cluster=ids),
            },
            args.repeat,
        )
        ratio = t["clustered"] / t["plain"]
        print(f"{'compare_paired ' + metric:>28} {t['plain']:>9.3f} {t['clustered']:>12.3f} {ratio:>7.2f}")
    t = _median_times(
        {
            "plain": lambda: cl.roc_curve(y, score).interval(),
            "clustered": lambda: cl.roc_curve(y, score, cluster=ids).interval(),
        },
        args.repeat,
    )
    print(
        f"{'roc_curve + interval':>28} {t['plain']:>9.3f} {t['clustered']:>12.3f} {t['clustered'] / t['plain']:>7.2f}"
    )
    print(machine(load))


if __name__ == "__main__":
    main()
