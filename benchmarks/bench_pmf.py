"""Exact metric PMFs vs the naive float grouping, measured in one run.

For each size and metric this times ``confusionlab.metric_distribution`` (exact
grouping) and a naive baseline on the *same* pruned beta-binomial lattice: the
metric's float values grouped with ``np.unique`` (inexact: it splits ties that
differ by rounding), masses summed with ``np.bincount``. Both include the
marginal PMFs. Runs alternate between the two and the medians are compared, so
machine noise hits both alike. Ratio = exact / naive (<= 1.0: exact is no slower).
The last line checks SPEC E6's goal: MCC at p = n = 5000, observed rates 0.8/0.7,
ratio <= 1.0 (stretch 0.5).

``--clock cpu`` times the thread's CPU time instead of the wall clock: on a machine
shared with other jobs it leaves out the time the process waits for a core.

Usage::

    python benchmarks/bench_pmf.py            # p = n = 500 and 5000
    python benchmarks/bench_pmf.py --repeat 31
    python benchmarks/bench_pmf.py --sizes 5000 --clock cpu
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import numpy as np

import confusionlab as cl
from confusionlab.models import slice_model

METRICS = ["accuracy", "balanced_accuracy", "f1", "mcc"]


def naive(cm: cl.ConfusionMatrix, metric: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    sl = slice_model(cm, "beta-binomial", tolerance=1e-12)
    tp, tn = sl.tp, sl.tn
    values = cl.METRICS[metric].values(tp, sl.p - tp, sl.n - tn, tn)
    weights = np.multiply.outer(sl.tp_pmf, sl.tn_pmf)
    unique, inverse, counts = np.unique(values.ravel(), return_inverse=True, return_counts=True)
    return unique, np.bincount(inverse, weights=weights.ravel()), counts


def exact(cm: cl.ConfusionMatrix, metric: str) -> cl.MetricDistribution:
    return cl.metric_distribution(cm, metric, "beta-binomial", tolerance=1e-12)


CLOCKS = {"wall": time.perf_counter, "cpu": time.thread_time}


def timed(fn, *args, clock=time.perf_counter) -> float:
    start = clock()
    fn(*args)
    return clock() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[500, 5000], help="p = n values")
    parser.add_argument("--repeat", type=int, default=21, help="timed runs of each (median reported)")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall", help="wall clock or thread CPU time")
    args = parser.parse_args()
    clock = CLOCKS[args.clock]
    print(f"numpy {np.__version__}, python {platform.python_version()}, {platform.machine()}, {args.clock} clock")
    print(
        f"{'p = n':>6} {'rates':>7} {'metric':>18} {'lattice':>9} {'exact values':>12} {'naive values':>12} "
        f"{'exact ms':>9} {'naive ms':>9} {'ratio':>6}"
    )
    # every metric at observed rates 0.8/0.8, and SPEC E6's MCC case at rates 0.8/0.7
    cases = [(size, 0.8, 0.8, metric) for size in args.sizes for metric in METRICS]
    cases += [(size, 0.8, 0.7, "mcc") for size in args.sizes]
    goal = None
    for size, tpr, tnr, metric in cases:
        cm = cl.ConfusionMatrix.from_rates(size, size, tpr, tnr)
        d = exact(cm, metric)  # warm-up, and the numbers to show
        u, _, _ = naive(cm, metric)
        t_exact, t_naive = [], []
        for _ in range(args.repeat):
            t_exact.append(timed(exact, cm, metric, clock=clock))
            t_naive.append(timed(naive, cm, metric, clock=clock))
        me, mn = statistics.median(t_exact), statistics.median(t_naive)
        print(
            f"{size:>6} {tpr:>3}/{tnr:<3} {metric:>18} {d.lattice_points:>9,} {len(d):>12,} {len(u):>12,} "
            f"{me * 1e3:>9.2f} {mn * 1e3:>9.2f} {me / mn:>6.2f}"
        )
        if (size, tpr, tnr, metric) == (5000, 0.8, 0.7, "mcc"):
            goal = me / mn
    if goal is not None:
        verdict = "met" if goal <= 1.0 else "NOT met"
        print(f"SPEC E6 (mcc, p = n = 5000, rates 0.8/0.7): exact / naive = {goal:.2f} (goal <= 1.0: {verdict})")


if __name__ == "__main__":
    main()
