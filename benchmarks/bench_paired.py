"""Exact paired MCC vs a 10**5-draw Monte Carlo of the same model in plain numpy, one run.

Two classifiers on one test set with p = n (scaled from a fixed 2 × 4 table of agreement
cells: 78 % / 5 % / 3 % / 14 % of the positives, 3 % / 5 % / 4 % / 88 % of the negatives).
``exact`` times ``compare_paired_cells(cells, "mcc")`` (enumeration of the pruned support,
ties exact) up to ``prob_greater``. ``monte-carlo`` is the baseline written in plain numpy:
Dirichlet(cells + ½) shares, multinomial counts, float MCC of A and B, P(A > B) as the mean
of ``mcc_a > mcc_b``. Runs alternate and medians are compared. Ratio = exact / Monte Carlo
(≤ 1.0: the exact answer costs no more than the sampled one).

Usage::

    python benchmarks/bench_paired.py            # p = n = 200 and 1000
    python benchmarks/bench_paired.py --repeat 11
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import numpy as np

import confusionlab as cl
from confusionlab.paired import compare_paired_cells

POSITIVE_SHARES = (0.78, 0.05, 0.03, 0.14)
NEGATIVE_SHARES = (0.03, 0.05, 0.04, 0.88)


def cells(size: int) -> list[list[int]]:
    rows = []
    for shares in (POSITIVE_SHARES, NEGATIVE_SHARES):
        row = [round(size * s) for s in shares[:3]]
        rows.append([*row, size - sum(row)])
    return rows


def monte_carlo(table: list[list[int]], draws: int, rng: np.random.Generator) -> float:
    mcc = cl.METRICS["mcc"]
    counts = []
    for row in table:
        shares = rng.dirichlet(np.asarray(row, dtype=float) + 0.5, size=draws)
        counts.append(rng.multinomial(sum(row), shares))
    pos, neg = counts
    p, n = sum(table[0]), sum(table[1])
    tp_a, tp_b = pos[:, 0] + pos[:, 1], pos[:, 0] + pos[:, 2]
    fp_a, fp_b = neg[:, 0] + neg[:, 1], neg[:, 0] + neg[:, 2]
    a = mcc.values(tp_a, p - tp_a, fp_a, n - fp_a)
    b = mcc.values(tp_b, p - tp_b, fp_b, n - fp_b)
    return float(np.mean(a > b))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[200, 1000])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--draws", type=int, default=100_000)
    args = parser.parse_args()
    print(f"python {platform.python_version()}, numpy {np.__version__}, {platform.machine()}")
    print(f"{'p = n':>6s} {'exact s':>9s} {'MC s':>9s} {'ratio':>6s} {'P exact':>8s} {'P MC':>8s} {'MC SE':>7s}")
    rng = np.random.default_rng(0)
    for size in args.sizes:
        table = cells(size)
        t_exact, t_mc = [], []
        for _ in range(args.repeat):
            start = time.perf_counter()
            exact = compare_paired_cells(table, "mcc").prob_greater
            t_exact.append(time.perf_counter() - start)
            start = time.perf_counter()
            sampled = monte_carlo(table, args.draws, rng)
            t_mc.append(time.perf_counter() - start)
        se = np.sqrt(sampled * (1 - sampled) / args.draws)
        e, m = statistics.median(t_exact), statistics.median(t_mc)
        print(f"{size:6d} {e:9.4f} {m:9.4f} {e / m:6.2f} {exact:8.4f} {sampled:8.4f} {se:7.4f}")


if __name__ == "__main__":
    main()
