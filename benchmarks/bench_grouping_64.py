"""Exact grouping beyond 64 bits (issue 21): exact ties decided in array operations.

MCC on a slice with p = n and equal rates ties every point with its mirror (MCC(TP, TN) =
MCC(TN, TP)); beyond int64 (p = n ≥ 55,000) ``group_clustered`` decided each tie by making a
:class:`~fractions.Fraction` of every tied point. Now the runs whose members are all equal
are found by cross-multiplying Python integers in object arrays, and only the others (none
here) go through Fractions. Baseline: the same call with the Fraction path put back
(``exact_pairs=None``), in the same run, alternating; also the asymmetric slice (few ties)
and the int64 path below 2**62 (p = n = 30,000) as per-point references.

Usage::

    PYTHONPATH=src python benchmarks/bench_grouping_64.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import confusionlab as cl
import confusionlab.distribution.pushforward as distribution_module
from confusionlab.grouping import group_clustered


def _fraction_path(ratio, weights, exact_ratios, value_of, exact_pairs=None):
    return group_clustered(ratio, weights, exact_ratios, value_of, None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()}")
    cases = [(50_000, 0.85, 0.85, "symmetric, beyond 64 bits"), (50_000, 0.8, 0.9, "asymmetric, beyond 64 bits"),
             (30_000, 0.85, 0.85, "symmetric, int64 keys")]  # fmt: skip
    for n, tpr, tnr, label in cases:
        cm = cl.ConfusionMatrix.from_rates(n, n, tpr, tnr)
        new, old = [], []
        for _ in range(args.repeat):
            start = time.perf_counter()
            d = cl.metric_distribution(cm, "mcc", tolerance=1e-6)
            new.append(time.perf_counter() - start)
            saved = distribution_module.group_clustered
            distribution_module.group_clustered = _fraction_path
            try:
                start = time.perf_counter()
                cl.metric_distribution(cm, "mcc", tolerance=1e-6)
                old.append(time.perf_counter() - start)
            finally:
                distribution_module.group_clustered = saved
        t_new, t_old = statistics.median(new), statistics.median(old)
        print(f"p = n = {n:,} ({label}, {d.strategy}): {d.lattice_points:,} points, {d.values.size:,} values; "
              f"Fraction path {t_old:.2f} s, now {t_new:.2f} s, ratio {t_old / t_new:.1f}×, "
              f"{t_new / d.lattice_points * 1e9:.0f} ns a point")  # fmt: skip
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
