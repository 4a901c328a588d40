"""rank_models' Monte Carlo draws for k classifiers vs the dense draws of every cell, one run.

Per true class the k classifiers' predictions fall in 2**k agreement cells; a draw of the
model is Dirichlet(cells + 2**(1 − k)) shares, then multinomial counts, and each classifier's
count is the sum of its cells. ``dense`` is the baseline in plain numpy (what rank_models did
until 0.3): ``rng.dirichlet`` over all 2**k cells and ``rng.multinomial`` on them, in chunks.
``sparse`` is :func:`confusionlab.models.paired_draws.classifier_counts` (the observed cells
and only the empty cells that can draw an example). Both draw the positives of one test set
of N examples scored by k noisy classifiers (80 % agreement with the truth each). Ratio =
sparse / dense (< 1: faster); medians of alternating runs.

Usage::

    python benchmarks/bench_rank_draws.py                 # k = 8, 10, 12; N = 300; 20,000 draws
    python benchmarks/bench_rank_draws.py --draws 100000 --repeat 3
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from confusionlab.models.paired_draws import classifier_counts

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import machine


def setup(k: int, size: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, size)
    preds = np.stack([np.where(rng.random(size) < 0.8, y, 1 - y) for _ in range(k)])
    pattern = (preds.astype(np.int64) << np.arange(k)[:, None]).sum(axis=0)
    cells = np.bincount(pattern[y == 1], minlength=2**k)
    bits = (np.arange(2**k)[:, None] >> np.arange(k)[None, :]) & 1
    return cells, bits


def dense(cells: np.ndarray, bits: np.ndarray, future: int, n_draws: int, rng: np.random.Generator) -> np.ndarray:
    prior = 2.0 ** (1 - bits.shape[1])
    out = np.empty((n_draws, bits.shape[1]), dtype=np.int64)
    step = max(1, 4_000_000 // cells.size)
    for s in range(0, n_draws, step):
        m = min(step, n_draws - s)
        out[s : s + m] = rng.multinomial(future, rng.dirichlet(cells + prior, size=m)) @ bits
    return out


def sparse(cells: np.ndarray, bits: np.ndarray, future: int, n_draws: int, rng: np.random.Generator) -> np.ndarray:
    prior = 2.0 ** (1 - bits.shape[1])
    return classifier_counts("paired-beta-binomial", cells, bits, future, n_draws, rng, prior)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=20_000)
    parser.add_argument("--size", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--classifiers", type=int, nargs="+", default=[8, 10, 12])
    args = parser.parse_args()
    load = os.getloadavg()
    print(f"rank_models draws: N = {args.size}, {args.draws:,} draws of the positives, medians of {args.repeat}")
    print(f"{'k':>3} {'cells':>6} {'observed':>8} {'dense s':>9} {'sparse s':>9} {'ratio':>7}")
    for k in args.classifiers:
        cells, bits = setup(k, args.size)
        future = int(cells.sum())
        times: dict[str, list[float]] = {"dense": [], "sparse": []}
        for r in range(args.repeat):
            for name, f in (("dense", dense), ("sparse", sparse)):
                rng = np.random.default_rng(r)
                t0 = time.perf_counter()
                f(cells, bits, future, args.draws, rng)
                times[name].append(time.perf_counter() - t0)
        d, s = statistics.median(times["dense"]), statistics.median(times["sparse"])
        print(f"{k:>3} {2**k:>6} {int(np.count_nonzero(cells)):>8} {d:>9.3f} {s:>9.3f} {s / d:>7.3f}")
    print(machine(load))


if __name__ == "__main__":
    main()
