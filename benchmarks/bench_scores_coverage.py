"""Coverage of the AUC's 95 % interval by simulation: DeLong-logit and the score interval.

Three score models, each with the true AUC known in closed form (computed here, not by the
library):

* ``binormal``: positives N(d, 1), negatives N(0, 1), AUC = Φ(d/√2).
* ``unequal``: positives N(d, 2²), negatives N(0, 1), AUC = Φ(d/√5) (the binormal shape the score
  interval's variance assumes is wrong here).
* ``exponential``: positives Exp(rate λ), negatives Exp(1) — larger is more positive — AUC =
  1/(1 + λ) (Hanley & McNeil's model).

For each (model, AUC, p, n) ``--reps`` test sets are drawn (seeded; the same test sets serve every
method) and the share of intervals containing the true AUC is printed, with the mean width; the
Monte Carlo standard error is √(c(1 − c)/reps) (0.005 at c = 0.95 with 2,000 test sets).

Methods:

* ``logit``: DeLong's variance on the logit scale with the boundary rule
  (``RocCurve.interval(method="logit")``; the default before this study).
* ``score``: every θ with ``(Â − θ)² ≤ z²·r·V_BN(θ)``, ``V_BN`` the equal-variance binormal
  variance, ``r = max(1, V_DeLong / V_BN(Â))`` (``method="score"``).
* ``default``: what ``RocCurve.interval()`` returns (score below ``SMALL_CLASS`` examples in the
  smaller class, logit from there).

Usage::

    PYTHONPATH=src python benchmarks/bench_scores_coverage.py            # the table in RESULTS.md
    PYTHONPATH=src python benchmarks/bench_scores_coverage.py --quick    # 400 test sets a cell
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
from scipy.stats import norm

from confusionlab.scores._delong import SMALL_CLASS
from confusionlab.scores._input import Scores
from confusionlab.scores._results import RocCurve

CONFIDENCE = 0.95
AUCS = (0.6, 0.75, 0.9, 0.95, 0.99)
SIZES = ((20, 20), (50, 50), (200, 200), (500, 500), (20, 500), (500, 20), (50, 500), (20, 100), (30, 300))
MODELS = ("binormal", "unequal", "exponential")


def sampler(model: str, auc: float):
    if model == "binormal":
        d = np.sqrt(2) * norm.ppf(auc)
        return lambda rng, p, n: (rng.normal(d, 1, p), rng.normal(0, 1, n))
    if model == "unequal":
        d = np.sqrt(5) * norm.ppf(auc)
        return lambda rng, p, n: (rng.normal(d, 2, p), rng.normal(0, 1, n))
    rate = 1 / auc - 1
    return lambda rng, p, n: (rng.exponential(1 / rate, p), rng.exponential(1.0, n))


def run(reps: int, models=MODELS, aucs=AUCS, sizes=SIZES) -> list[dict]:
    names = ("logit", "score", "default")
    rows = []
    for model in models:
        for auc in aucs:
            draw = sampler(model, auc)
            for p, n in sizes:
                rng = np.random.default_rng([p, n, int(auc * 1000), MODELS.index(model)])
                hits, width = dict.fromkeys(names, 0), dict.fromkeys(names, 0.0)
                for _ in range(reps):
                    x, y = draw(rng, p, n)
                    s = Scores(np.sort(x), np.sort(y), 1)
                    curve = RocCurve(s)
                    ends = {
                        "logit": curve.interval(CONFIDENCE, method="logit"),
                        "score": curve.interval(CONFIDENCE, method="score"),
                    }
                    ends["default"] = ends[curve._method()]  # what curve.interval() returns
                    for k, (lo, hi) in ends.items():
                        hits[k] += lo <= auc <= hi
                        width[k] += hi - lo
                row = {"model": model, "auc": auc, "p": p, "n": n}
                row |= {k: h / reps for k, h in hits.items()} | {f"w:{k}": w / reps for k, w in width.items()}
                rows.append(row)
                print(
                    f"{model:<11} AUC {auc:<5} {p:>4} + {n:<4} "
                    + " ".join(f"{k} {hits[k] / reps:.3f} ({width[k] / reps:.3f})" for k in names),
                    flush=True,
                )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=2000)
    parser.add_argument("--quick", action="store_true", help="400 test sets a cell")
    parser.add_argument("--models", nargs="*", default=list(MODELS), choices=MODELS)
    args = parser.parse_args()
    reps = 400 if args.quick else args.reps
    start = time.perf_counter()
    rows = run(reps, models=tuple(args.models))
    names = ("logit", "score", "default")
    print(
        f"\n{reps} test sets a cell, SMALL_CLASS = {SMALL_CLASS}, {time.perf_counter() - start:.0f} s, "
        f"load {os.getloadavg()[0]:.1f}\n"
    )
    print("| model | AUC | p | n | " + " | ".join(names) + " | width (default) |")
    print("|---|---:|---:|---:|" + "---:|" * (len(names) + 1))
    for r in rows:
        cells = " | ".join(f"{r[k]:.3f}" for k in names)
        print(f"| {r['model']} | {r['auc']} | {r['p']} | {r['n']} | {cells} | {r['w:default']:.3f} |")


if __name__ == "__main__":
    main()
