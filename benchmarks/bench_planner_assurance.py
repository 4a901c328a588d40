"""The planner's long searches, each against its own slow path measured in the same run.

1. Assurance at one size: the pruned enumeration (``_assurance_at``: exact distributions only
   for the outcomes its calibrated normal bounds leave undecided) against the full one
   (``_assurance_full``: one exact distribution per outcome), cold caches, at the size the plan
   ends on (MCC/F1/balanced accuracy, prevalence 0.1, TPR 0.8, TNR 0.9, ± 0.05, assurance 0.9);
   the pruned one twice: its exact half-widths one outcome at a time (the code before issue 20's
   batching) and many outcomes at once (``contour_half_widths``, MCC and the F-scores). "exact" =
   distributions computed; ratios = full / batched and one at a time / batched.
2. Whole assurance plans, one outcome at a time (before) against batched (now), CPU seconds:
   MCC ± 0.05 and ± 0.03 at prevalence 0.1, and the README's MCC ± 0.03 at prevalence 0.25.
3. The normal limit: ``plan_test_size(..., method="auto")`` where the exact search would take
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
from confusionlab.confusion import ConfusionMatrix
from confusionlab.metrics import get_metric
from confusionlab.planner import _assurance, _plan
from confusionlab.planner._criterion import _Evaluator

CASES = [("mcc", 3762), ("f1", 2818), ("balanced_accuracy", 1550)]
PLANS = [
    ("MCC ± 0.05, π = 0.1", {"prevalence": 0.1, "tpr": 0.8, "tnr": 0.9, "half_width": 0.05}),
    ("MCC ± 0.03, π = 0.1", {"prevalence": 0.1, "tpr": 0.8, "tnr": 0.9, "half_width": 0.03}),
    ("README: MCC ± 0.03, π = 0.25", {"prevalence": 0.25, "tpr": 0.62, "tnr": 0.93, "half_width": 0.03}),
]


class OneAtATime(_Evaluator):
    """The evaluator before the batching: each outcome's exact half-width on its own."""

    def half_widths(self, p, n, tp, tn):
        pairs = zip(tp.tolist(), tn.tolist(), strict=True)
        return [self.criterion(ConfusionMatrix(tp=a, fn=p - a, fp=n - b, tn=b)) for a, b in pairs]


def evaluator(metric: str, kind=_Evaluator) -> _Evaluator:
    return kind(get_metric(metric), 0.1, 0.8, 0.9, 0.95, "beta-binomial", 1.0, 1e-12, "next_test_set")


def timed(fn, *args, **kwargs):
    """(CPU seconds, wall seconds, result): CPU time is what load does not inflate."""
    cpu, wall = time.process_time(), time.perf_counter()
    out = fn(*args, **kwargs)
    return time.process_time() - cpu, time.perf_counter() - wall, out


def assurance_plan(kind, **kw):
    """``plan_test_size("mcc", ..., assurance=0.9)`` with the evaluator class ``kind``."""
    saved = _plan._Evaluator
    _plan._Evaluator = kind
    try:
        return cl.plan_test_size("mcc", **kw, assurance=0.9, target="next_test_set", progress=False)
    finally:
        _plan._Evaluator = saved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exact", action="store_true", help="also the exact ± 0.01 plan (about four minutes)")
    args = parser.parse_args()
    print(f"# planner long searches, python {platform.python_version()}, load {os.getloadavg()[0]:.1f}")
    print("\n| assurance at N | outcomes | full (CPU s) | exact (full) | one at a time (CPU s) | batched (CPU s) "
          "| exact (pruned) | full / batched | one at a time / batched |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|")
    for metric, N in CASES:
        ev_full, ev_one, ev_fast = evaluator(metric), evaluator(metric, OneAtATime), evaluator(metric)
        t_full, _, a = timed(_assurance._assurance_full, ev_full, N, 0.05, 0.9, 1e-3, 10**6)
        t_one, _, b = timed(_assurance._assurance_at, ev_one, N, 0.05, 0.9, 1e-3, 10**6)
        t_fast, _, c = timed(_assurance._assurance_at, ev_fast, N, 0.05, 0.9, 1e-3, 10**6)
        assert a[0] == b[0] and abs(a[1] - b[1]) < 1e-12 and b == c, (a, b, c)  # full: another summation order
        outcomes = _assurance.outcome_count(ev_fast, N, 1e-3)
        print(
            f"| {metric} {N:,} | {outcomes:,} | {t_full:.2f} | {len(ev_full.cache):,} | {t_one:.2f} | {t_fast:.2f} "
            f"| {len(ev_fast.cache):,} | {t_full / t_fast:.1f} | {t_one / t_fast:.1f} |"
        )
    print("\n| assurance plan (0.9) | N | assurance | one at a time: CPU s (wall) | batched: CPU s (wall) | ratio |")
    print("|---|---|---|---|---|---|")
    for label, kw in PLANS:
        c_one, w_one, before = timed(assurance_plan, OneAtATime, **kw)
        c_now, w_now, now = timed(assurance_plan, _Evaluator, **kw)
        assert (before.N, before.achieved_assurance, before.curve) == (now.N, now.achieved_assurance, now.curve)
        print(
            f"| {label} | {now.N:,} | {now.achieved_assurance:.4f} | {c_one:.1f} ({w_one:.1f}) "
            f"| {c_now:.1f} ({w_now:.1f}) | {c_one / c_now:.1f} |"
        )

    print("\n| plan | method | N | CPU s | exact N | exact CPU s | ratio |")
    print("|---|---|---|---|---|---|---|")
    goals = [0.02, 0.01] if args.exact else [0.02]
    for h in goals:
        kw = dict(prevalence=0.1, tpr=0.8, tnr=0.9, half_width=h, target="next_test_set", max_size=200_000)
        t_auto, _, auto = timed(cl.plan_test_size, "mcc", **kw)
        t_exact, _, exact = timed(cl.plan_test_size, "mcc", **kw, method="exact")
        print(
            f"| MCC next test set ± {h} | {auto.method} (error {auto.approximation_error or 0:.2g}) | {auto.N:,} "
            f"| {t_auto:.2f} | {exact.N:,} | {t_exact:.1f} | {t_exact / t_auto:.0f} |"
        )
    t_auto, _, auto = timed(cl.plan_test_size, "mcc", prevalence=0.3, tpr=0.8, tnr=0.9, half_width=2e-4, max_size=10**8)
    print(
        f"| MCC true value ± 2e-4 | {auto.method} (error {auto.approximation_error:.2g}) | {auto.N:,} "
        f"| {t_auto:.2f} | (exact search: ≈ 10⁵ sizes) | – | – |"
    )


if __name__ == "__main__":
    main()
