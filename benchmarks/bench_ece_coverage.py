"""Coverage of the ECE's interval for the population's ECE (issue 35 items 12 and 17).

Forecasts q ~ Beta(a, b) of N examples, outcomes y ~ Bernoulli(p(q)) with p the truth: calibrated
(p = q, population ECE 0) or miscalibrated (p = q^0.7 overconfident-low, p = clip(q + 0.08)).
The population's ECE is that of the fixed forecasts and bins, Σ_b (k_b/N)·|mean_b(p − q)|,
computed from the true p. For each scenario: how often ``Calibration.interval(0.95)`` holds it
and its mean width, with the plug-in bootstrap's percentile interval (the method before) beside it.

    PYTHONPATH=src python benchmarks/bench_ece_coverage.py --reps 500
"""

from __future__ import annotations

import argparse

import numpy as np

import confusionlab as cl
from confusionlab.calibration._ece import percentile_interval

SCENARIOS = {
    "calibrated": lambda q: q,
    "q^0.7": lambda q: q**0.7,
    "q+0.08": lambda q: np.clip(q + 0.08, 0, 1),
}
SETS = [(300, 10, (0.5, 2.0)), (2000, 10, (0.5, 2.0)), (2000, 20, (2.0, 2.0)), (500, 500, (1.0, 1.0))]


def run(reps: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    print(
        "| N | bins | forecasts | truth | population ECE (mean) | new: coverage | new: width "
        "| bootstrap: coverage | bootstrap: width |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for n, bins, (a, b) in SETS:
        for name, truth in SCENARIOS.items():
            hit_new = hit_old = 0
            w_new = w_old = pop_sum = 0.0
            for _ in range(reps):
                q = rng.beta(a, b, n)
                p = truth(q)
                y = rng.random(n) < p
                c = cl.calibration(y, q, bins=bins, n_resamples=400, random_state=int(rng.integers(2**31)))
                ids = np.searchsorted(c.edges[1:-1], q)
                k = np.bincount(ids, minlength=bins)
                gap = np.bincount(ids, weights=p - q, minlength=bins)
                pop = float(np.abs(gap).sum() / n)
                pop_sum += pop
                lo, hi = c.interval(0.95)
                hit_new += lo <= pop <= hi
                w_new += hi - lo
                olo, ohi = percentile_interval(c.bootstrap_error.ece, 0.95)
                hit_old += olo <= pop <= ohi
                w_old += ohi - olo
                assert k.sum() == n
            print(
                f"| {n} | {bins} | Beta({a:g}, {b:g}) | {name} | {pop_sum / reps:.4f} | {hit_new / reps:.3f} | "
                f"{w_new / reps:.3f} | {hit_old / reps:.3f} | {w_old / reps:.3f} |"
            )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=500)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    run(args.reps, args.seed)
