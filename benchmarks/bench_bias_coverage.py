"""Coverage of the 95 % true-value interval of DPL/DPPL, per prior (issue 20): does it cover the true disparity?

Usage::

    PYTHONPATH=src .venv/bin/python benchmarks/bench_bias_coverage.py [--reps 400] [--seed 0]

For each scenario (true rates q_a, q_d of the two facets) and total size N (facet d holds
30 % of it), ``--reps`` data sets are drawn: k_a ~ Bin(N_a, q_a), k_d ~ Bin(N_d, q_d). Each
gets the library's 95 % interval of the true DPL (``report_from_counts(..., target=
"true_value")["DPL"].interval(0.95)``; DPPL is the same function of the predicted positives),
and the share of intervals that hold q_a − q_d is printed with its binomial standard error
(±√(c(1 − c)/reps)), per prior. Identical count pairs are computed once.
"""

from __future__ import annotations

import argparse
import math

import numpy as np

from confusionlab.bias import CountTable, report_from_counts

SCENARIOS = {"equal rates 0.5/0.5": (0.5, 0.5), "disparity 0.3/0.1": (0.3, 0.1), "rare 0.05/0.02": (0.05, 0.02)}
SIZES = (30, 100, 300, 1000)


def interval(k_a: int, n_a: int, k_d: int, n_d: int, prior: str) -> tuple[float, float]:
    t = CountTable.from_confusion(a=(k_a, 0, n_a - k_a, 0), d=(k_d, 0, n_d - k_d, 0))
    return report_from_counts(t, stage="pre", prior=prior, target="true_value")["DPL"].interval(0.95)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=400)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
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


if __name__ == "__main__":
    main()
