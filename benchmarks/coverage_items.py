"""Coverage of evaluate_items' intervals and the size of compare_items' tests on clustered items.

Beta-binomial clusters: ``C`` clusters of ``m_c`` items; each cluster draws a success rate
``r_c ~ Beta(a, b)`` with mean ``p = 0.7`` and ``a + b = 1/ICC − 1`` (so two items of one cluster
correlate with ``ICC``; ICC 0 is a fixed rate), each item is Bernoulli(r_c). Sizes are equal
(``m_c = 10``) or unequal (``m_c`` uniform on 2…18, mean 10). The truth is ``p`` (every item's
expectation, so the mean over items too).

* **Coverage**: the share of test sets whose 95 % interval holds ``p`` — ``evaluate_items(x)``'s
  naive interval (items assumed independent: sd/√n, t with n − 1 df) against
  ``evaluate_items(x, cluster=c)``'s clustered one (cluster-robust error with C/(C − 1), t with
  C − 1 df).
* **Size** (type-I error at α = 0.05): two systems with the same cluster-rate distribution drawn
  independently per cluster (``r^A_c, r^B_c ~ Beta(a, b)``, items Bernoulli), so A and B are
  exchangeable within each cluster and there is no difference; the share of two-sided p ≤ 0.05
  of the naive paired t test (items independent), the cluster-robust t test (C − 1 df), and
  ``compare_items(a, b, cluster=c).p_value()`` — the exact sign-flip test over clusters.

Each cell uses ``--reps`` seeded repetitions (Monte Carlo standard error √(q(1 − q)/reps): about
0.007 at q = 0.95 and 1,000 repetitions). Usage::

    PYTHONPATH=src python benchmarks/coverage_items.py              # the table in RESULTS.md
    PYTHONPATH=src python benchmarks/coverage_items.py --reps 200   # quicker, noisier
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from scipy import stats

import confusionlab as cl

P = 0.7
ICCS = (0.0, 0.1, 0.3, 0.7)
CLUSTERS = (10, 50, 200)
ALPHA = 0.05
#: The table's columns after sizes, clusters and ICC.
COLUMNS = ("naive", "clustered", "naive t", "clustered t", "sign-flip")


def _rates(rng: np.random.Generator, icc: float, count: int) -> np.ndarray:
    if icc == 0.0:
        return np.full(count, P)
    total = 1.0 / icc - 1.0
    return rng.beta(P * total, (1.0 - P) * total, size=count)


def _sizes(rng: np.random.Generator, count: int, equal: bool) -> np.ndarray:
    return np.full(count, 10) if equal else rng.integers(2, 19, size=count)


def _cell(icc: float, count: int, equal: bool, reps: int, seed: int) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    covered = {"naive": 0, "clustered": 0}
    rejected = {"naive t": 0, "clustered t": 0, "sign-flip": 0}
    for _ in range(reps):
        sizes = _sizes(rng, count, equal)
        cluster = np.repeat(np.arange(count), sizes)
        x = rng.binomial(1, _rates(rng, icc, count)[cluster]).astype(float)
        r = cl.evaluate_items(x, cluster=cluster)
        lo, hi = r.naive_interval(0.95)
        covered["naive"] += lo <= P <= hi
        lo, hi = r.interval(0.95)
        covered["clustered"] += lo <= P <= hi
        a = rng.binomial(1, _rates(rng, icc, count)[cluster]).astype(float)
        b = rng.binomial(1, _rates(rng, icc, count)[cluster]).astype(float)
        c = cl.compare_items(a, b, cluster=cluster)
        n = cluster.size
        if c.naive_std_error > 0:
            rejected["naive t"] += 2 * stats.t.sf(abs(c.value) / c.naive_std_error, n - 1) <= ALPHA
        if c.std_error > 0:
            rejected["clustered t"] += 2 * stats.t.sf(abs(c.value) / c.std_error, count - 1) <= ALPHA
        rejected["sign-flip"] += c.p_value() <= ALPHA
    return {**{k: v / reps for k, v in covered.items()}, **{k: v / reps for k, v in rejected.items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=1000)
    args = parser.parse_args()
    start = time.perf_counter()
    print(f"{args.reps} repetitions a cell; p = {P}; mean cluster size 10\n")
    header = ["sizes", "clusters", "ICC", "naive 95 % CI", "clustered 95 % CI", "naive t size", "clustered t size"]
    print("| " + " | ".join([*header, "sign-flip size"]) + " |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    seed = 0
    for equal in (True, False):
        for count in CLUSTERS:
            for icc in ICCS:
                seed += 1
                q = _cell(icc, count, equal, args.reps, seed)
                numbers = " | ".join(f"{q[k]:.3f}" for k in COLUMNS)
                print(f"| {'equal' if equal else 'unequal'} | {count} | {icc:g} | {numbers} |", flush=True)
    print(f"\n{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
