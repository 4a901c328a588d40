"""Coverage of the 95 % true-value interval of DPL/DPPL, RD, SD and AD, per prior (issue 20): does it cover the truth?

Usage::

    PYTHONPATH=src .venv/bin/python benchmarks/bench_bias_coverage.py [--reps 400] [--seed 0]

For each scenario (true rates q_a, q_d of the two facets) and total size N (facet d holds
30 % of it), ``--reps`` data sets are drawn: k_a ~ Bin(N_a, q_a), k_d ~ Bin(N_d, q_d). Each
gets the library's 95 % interval of the true DPL (``report_from_counts(..., target=
"true_value")["DPL"].interval(0.95)``; DPPL is the same function of the predicted positives),
and the share of intervals that hold q_a − q_d is printed with its binomial standard error
(±√(c(1 − c)/reps)), per prior. Identical count pairs are computed once.

RD, SD, AD (the audit's other default metrics; ``--confusion``): each facet's confusion cells are
Multinomial(N_f; π·TPR, π·(1 − TPR), (1 − π)·(1 − TNR), (1 − π)·TNR) with its own prevalence π and rates;
the truths are RD = TPR_a − TPR_d, SD = TNR_d − TNR_a, AD = acc_a − acc_d with acc = π·TPR + (1 − π)·TNR,
and the interval is ``report_from_counts(..., stage="post", target="true_value")[m].interval(0.95)``.
"""

from __future__ import annotations

import argparse
import math

import numpy as np

from confusionlab.bias import CountTable, report_from_counts

SCENARIOS = {"equal rates 0.5/0.5": (0.5, 0.5), "disparity 0.3/0.1": (0.3, 0.1), "rare 0.05/0.02": (0.05, 0.02)}
SIZES = (30, 100, 300, 1000)
#: (prevalence, TPR, TNR) of facets a and d.
CONFUSION_SCENARIOS = {
    "equal (0.3, 0.8, 0.9)": ((0.3, 0.8, 0.9), (0.3, 0.8, 0.9)),
    "disparity a (0.3, 0.85, 0.9), d (0.2, 0.7, 0.95)": ((0.3, 0.85, 0.9), (0.2, 0.7, 0.95)),
    "accurate, rare (0.1, 0.95, 0.98)": ((0.1, 0.95, 0.98), (0.1, 0.95, 0.98)),
}
CONFUSION_METRICS = ("RD", "SD", "AD")


def _cells(prevalence: float, tpr: float, tnr: float) -> np.ndarray:
    """The four cells' probabilities (TP, FN, FP, TN)."""
    return np.array([prevalence * tpr, prevalence * (1 - tpr), (1 - prevalence) * (1 - tnr), (1 - prevalence) * tnr])


def confusion_rows(reps: int, seed: int) -> None:
    print(f"\n| scenario | N (N_a, N_d) | metric | uniform | jeffreys |  ({reps} data sets each; ± one standard error)")
    print("|---|---|---|---|---|")
    for name, (fa, fd) in CONFUSION_SCENARIOS.items():
        acc = [f[0] * f[1] + (1 - f[0]) * f[2] for f in (fa, fd)]
        truth = {"RD": fa[1] - fd[1], "SD": fd[2] - fa[2], "AD": acc[0] - acc[1]}
        for n in SIZES:
            n_d = round(0.3 * n)
            n_a = n - n_d
            rng = np.random.default_rng([seed, n, len(name)])
            ta, td = (
                rng.multinomial(n_a, _cells(*fa), reps),
                rng.multinomial(n_d, _cells(*fd), reps),
            )
            cover = {(m, pr): 0 for m in CONFUSION_METRICS for pr in ("uniform", "jeffreys")}
            memo: dict[tuple, dict] = {}
            for a, d in zip(map(tuple, ta), map(tuple, td), strict=True):
                for prior in ("uniform", "jeffreys"):
                    key = (a, d, prior)
                    if key not in memo:
                        r = report_from_counts(CountTable.from_confusion(a=a, d=d), stage="post", prior=prior,
                                               target="true_value")  # fmt: skip
                        memo[key] = {m: r[m].interval(0.95) if r[m].value is not None else (np.nan, np.nan)
                                     for m in CONFUSION_METRICS}  # fmt: skip
                    for m in CONFUSION_METRICS:
                        lo, hi = memo[key][m]
                        cover[m, prior] += bool(lo <= truth[m] <= hi)
            for m in CONFUSION_METRICS:
                cells = []
                for prior in ("uniform", "jeffreys"):
                    c = cover[m, prior] / reps
                    cells.append(f"{c:.3f} ± {math.sqrt(c * (1 - c) / reps):.3f}")
                print(f"| {name} | {n} ({n_a}, {n_d}) | {m} | {cells[0]} | {cells[1]} |", flush=True)


def interval(k_a: int, n_a: int, k_d: int, n_d: int, prior: str) -> tuple[float, float]:
    t = CountTable.from_confusion(a=(k_a, 0, n_a - k_a, 0), d=(k_d, 0, n_d - k_d, 0))
    return report_from_counts(t, stage="pre", prior=prior, target="true_value")["DPL"].interval(0.95)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=400)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--confusion", action="store_true", help="RD, SD, AD only (skip DPL/DPPL)")
    args = ap.parse_args()
    if args.confusion:
        confusion_rows(args.reps, args.seed)
        return
    print(f"| scenario | N (N_a, N_d) | uniform | jeffreys |  ({args.reps} data sets each; ± one standard error)")
    print("|---|---|---|---|")
    for name, (q_a, q_d) in SCENARIOS.items():
        for n in SIZES:
            n_d = round(0.3 * n)
            n_a = n - n_d
            rng = np.random.default_rng([args.seed, n, int(1000 * q_a), int(1000 * q_d)])
            k_a, k_d = rng.binomial(n_a, q_a, args.reps).tolist(), rng.binomial(n_d, q_d, args.reps).tolist()
            ks = list(zip(k_a, k_d, strict=True))
            row = []
            for prior in ("uniform", "jeffreys"):
                memo: dict[tuple[int, int], tuple[float, float]] = {}
                hits = 0
                for k in ks:
                    if k not in memo:
                        memo[k] = interval(k[0], n_a, k[1], n_d, prior)
                    lo, hi = memo[k]
                    hits += lo <= q_a - q_d <= hi
                c = hits / args.reps
                row.append(f"{c:.3f} ± {math.sqrt(c * (1 - c) / args.reps):.3f}")
            print(f"| {name} | {n} ({n_a}, {n_d}) | {row[0]} | {row[1]} |", flush=True)
    confusion_rows(args.reps, args.seed)


if __name__ == "__main__":
    main()
