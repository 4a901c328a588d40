"""The planner's long searches, each against its own slow path measured in the same run.

1. Assurance at one size: the pruned enumeration (``_assurance_at``: exact distributions only
   for the outcomes its calibrated normal bounds leave undecided) against the full one
   (``_assurance_full``: one exact distribution per outcome, the code before), cold caches,
   at the size the plan ends on (MCC/F1/balanced accuracy, prevalence 0.1, TPR 0.8, TNR 0.9,
   ± 0.05, assurance 0.9). Ratio = full / pruned; "exact" = distributions computed.
2. The normal limit: ``plan_test_size(..., method="auto")`` where the exact search would take
   minutes (MCC, next test set, ± 0.02 — with ``--exact`` also ± 0.01, about four minutes — and
   a target near N = 10⁸) against ``method="exact"``.

Usage::

    python benchmarks/bench_planner_assurance.py            # a few minutes
    python benchmarks/bench_planner_assurance.py --exact    # adds the exact ± 0.01 plan (minutes more)
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import confusionlab as cl
from confusionlab.metrics import get_metric
from confusionlab.planner import _assurance
from confusionlab.planner._criterion import _Evaluator

CASES = [("mcc", 3762), ("f1", 2818), ("balanced_accuracy", 1550)]


def evaluator(metric: str) -> _Evaluator:
    return _Evaluator(get_metric(metric), 0.1, 0.8, 0.9, 0.95, "beta-binomial", 1.0, 1e-12, "next_test_set")


def timed(fn, *args, **kwargs):
    start = time.perf_counter()
    out = fn(*args, **kwargs)
    return time.perf_counter() - start, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exact", action="store_true", help="also the exact ± 0.01 plan (about four minutes)")
    args = parser.parse_args()
    print(f"# planner long searches, python {platform.python_version()}, load {os.getloadavg()[0]:.1f}")
    print("\n| assurance at N | outcomes | full (s) | exact (full) | pruned (s) | exact (pruned) | ratio |")
    print("|---|---|---|---|---|---|---|")
    for metric, N in CASES:
        ev_full, ev_fast = evaluator(metric), evaluator(metric)
        t_full, a = timed(_assurance._assurance_full, ev_full, N, 0.05, 0.9, 1e-3, 10**6)
        t_fast, b = timed(_assurance._assurance_at, ev_fast, N, 0.05, 0.9, 1e-3, 10**6)
        assert abs(a[1] - b[1]) < 1e-12 and a[0] == b[0], (a, b)
        outcomes = _assurance.outcome_count(ev_fast, N, 1e-3)
        print(
            f"| {metric} {N:,} | {outcomes:,} | {t_full:.2f} | {len(ev_full.cache):,} | {t_fast:.2f} "
            f"| {len(ev_fast.cache):,} | {t_full / t_fast:.1f} |"
        )
    kw = dict(prevalence=0.1, tpr=0.8, tnr=0.9, half_width=0.05, assurance=0.9, target="next_test_set")
    t, plan = timed(cl.plan_test_size, "mcc", **kw, progress=False)
    print(f"\nplan_test_size('mcc', ± 0.05, assurance=0.9): N = {plan.N:,} in {t:.1f} s (before: ≈ 43 s at load 4)")

    print("\n| plan | method | N | time (s) | exact N | exact time (s) | ratio |")
    print("|---|---|---|---|---|---|---|")
    goals = [0.02, 0.01] if args.exact else [0.02]
    for h in goals:
        kw = dict(prevalence=0.1, tpr=0.8, tnr=0.9, half_width=h, target="next_test_set", max_size=200_000)
        t_auto, auto = timed(cl.plan_test_size, "mcc", **kw)
        t_exact, exact = timed(cl.plan_test_size, "mcc", **kw, method="exact")
        print(
            f"| MCC next test set ± {h} | {auto.method} (error {auto.approximation_error or 0:.2g}) | {auto.N:,} "
            f"| {t_auto:.2f} | {exact.N:,} | {t_exact:.1f} | {t_exact / t_auto:.0f} |"
        )
    t_auto, auto = timed(cl.plan_test_size, "mcc", prevalence=0.3, tpr=0.8, tnr=0.9, half_width=2e-4, max_size=10**8)
    print(
        f"| MCC true value ± 2e-4 | {auto.method} (error {auto.approximation_error:.2g}) | {auto.N:,} "
        f"| {t_auto:.2f} | (exact search: ≈ 10⁵ sizes) | – | – |"
    )


if __name__ == "__main__":
    main()
