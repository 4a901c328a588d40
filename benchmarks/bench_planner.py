"""The test-size planner against one metric distribution at the planned N, measured in one run.

For each (metric, prevalence) this times ``plan_test_size`` (TPR 0.8, TNR 0.9, target
± 0.03 at 95 %) and ``metric_distribution`` at the planned matrix. Runs alternate
between the two and the medians are compared, so machine noise hits both alike.
Ratio = planning time / one distribution at the planned N; the goal is <= 50 (the
search must not evaluate every N). Each plan starts with a cold cache. "exact
half-widths" counts the sizes evaluated exactly (distinct counts); for balanced accuracy
they are read from its integer keys without building a distribution.

Usage::

    python benchmarks/bench_planner.py
    python benchmarks/bench_planner.py --repeat 9 --half-width 0.05
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import confusionlab as cl
from confusionlab.planner import plan_test_size

METRICS = ["mcc", "f1", "balanced_accuracy", "recall"]
PREVALENCES = [0.1, 0.3, 0.5]


def timed(fn, *args, **kwargs) -> tuple[float, object]:
    start = time.perf_counter()
    result = fn(*args, **kwargs)
    return time.perf_counter() - start, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--half-width", type=float, default=0.03)
    args = parser.parse_args()
    print(f"# planner benchmark, python {platform.python_version()}, target ± {args.half_width}, TPR 0.8, TNR 0.9")
    print("| metric | prevalence | planned N | exact half-widths | plan (ms) | one distribution (ms) | ratio |")
    print("|---|---|---|---|---|---|---|")
    ratios = []
    for metric in METRICS:
        for prevalence in PREVALENCES:
            kwargs = dict(prevalence=prevalence, tpr=0.8, tnr=0.9, half_width=args.half_width, target="next_test_set")
            plans, singles = [], []
            plan = None
            for _ in range(args.repeat):
                t, plan = timed(plan_test_size, metric, **kwargs)
                plans.append(t)
                singles.append(timed(cl.metric_distribution, plan.matrix, metric)[0])
            ratio = statistics.median(plans) / statistics.median(singles)
            ratios.append(ratio)
            print(
                f"| {metric} | {prevalence} | {plan.N:,} | {plan.evaluations} | {statistics.median(plans) * 1e3:.1f} "
                f"| {statistics.median(singles) * 1e3:.2f} | {ratio:.1f} |"
            )
    print(f"\nmedian ratio {statistics.median(ratios):.1f}, worst {max(ratios):.1f} (goal <= 50)")


if __name__ == "__main__":
    main()
