"""Coverage of the decision curve's simultaneous band by simulation with a known true curve, and how much of it
the prevalence's uncertainty takes.

Each test set draws N labels with prevalence π and each example's risk from a known class-conditional
distribution: ``binormal`` (risk = expit(score), score ~ N(1, 1) for positives and N(−1, 1) for negatives)
or ``beta`` (risk ~ Beta(3, 2) for positives and Beta(2, 3) for negatives, not binormal). The true net
benefit at p_t is π·TPR(p_t) − p_t/(1 − p_t)·(1 − π)·FPR(p_t). A band covers when the whole true curve
(p_t = 0.01, …, 0.99) lies in it. Three bands at 95 %:

* ``band``: ``decision_curve(y, r).band(0.95)`` — KS at c^(1/3) for each class and π's Clopper–Pearson
  interval at c^(1/3);
* ``π fixed``: the same data with ``prevalence=`` the observed P/N — KS at √c, the prevalence's
  uncertainty ignored;
* ``pointwise``: the pointwise 95 % true-value intervals read as a band.

Usage::

    python benchmarks/bench_decision_band.py
    python benchmarks/bench_decision_band.py --reps 400 --sizes 100 500 2000 --prevalences 0.05 0.2 0.5
"""

from __future__ import annotations

import argparse
import os
import platform

import numpy as np
from scipy import special, stats

import confusionlab as cl

THRESHOLDS = np.arange(1, 100) / 100


def true_rates(kind: str) -> tuple[np.ndarray, np.ndarray]:
    if kind == "binormal":
        cut = special.logit(THRESHOLDS)
        return stats.norm.sf(cut - 1.0), stats.norm.sf(cut + 1.0)
    return stats.beta.sf(THRESHOLDS, 3, 2), stats.beta.sf(THRESHOLDS, 2, 3)


def draw(kind: str, size: int, prevalence: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    y = rng.uniform(size=size) < prevalence
    while y.all() or not y.any():
        y = rng.uniform(size=size) < prevalence
    if kind == "binormal":
        risk = special.expit(np.where(y, rng.normal(1.0, 1.0, size), rng.normal(-1.0, 1.0, size)))
    else:
        risk = np.where(y, rng.beta(3, 2, size), rng.beta(2, 3, size))
    return y, risk


def covers(lower: np.ndarray, upper: np.ndarray, truth: np.ndarray) -> bool:
    return bool(np.all((lower <= truth + 1e-12) & (truth <= upper + 1e-12)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=200)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 500, 2000])
    parser.add_argument("--prevalences", type=float, nargs="+", default=[0.05, 0.2, 0.5])
    parser.add_argument("--kinds", nargs="+", default=["binormal", "beta"])
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    print(
        f"python {platform.python_version()}, numpy {np.__version__}, {os.cpu_count()} cores, "
        f"load {os.getloadavg()[0]:.1f}; {args.reps} test sets per row, 95 % bands"
    )
    print(f"{'kind':>9} {'N':>5} {'π':>5} {'band':>6} {'π fixed':>8} {'pointwise':>9} {'mean width':>10}")
    rng = np.random.default_rng(args.seed)
    w = THRESHOLDS / (1 - THRESHOLDS)
    for kind in args.kinds:
        tpr, fpr = true_rates(kind)
        for size in args.sizes:
            for prevalence in args.prevalences:
                truth = prevalence * tpr - w * (1 - prevalence) * fpr
                hits = np.zeros(3)
                width = 0.0
                for _ in range(args.reps):
                    y, risk = draw(kind, size, prevalence, rng)
                    dc = cl.decision_curve(y, risk, thresholds=THRESHOLDS)
                    band = dc.band(0.95)
                    fixed = cl.decision_curve(y, risk, thresholds=THRESHOLDS, prevalence=y.mean()).band(0.95)
                    lo, hi = dc.interval_arrays(0.95)["model"]
                    hits += [
                        covers(band.lower["model"], band.upper["model"], truth),
                        covers(fixed.lower["model"], fixed.upper["model"], truth),
                        covers(lo, hi, truth),
                    ]
                    width += float(np.mean(band.upper["model"] - band.lower["model"])) / args.reps
                cover = hits / args.reps
                print(
                    f"{kind:>9} {size:>5} {prevalence:>5.2f} {cover[0]:>6.3f} {cover[1]:>8.3f} {cover[2]:>9.3f} "
                    f"{width:>10.3f}"
                )


if __name__ == "__main__":
    main()
