"""How many first rows Spark's score bins need: the largest possible AUC difference of
``roc_curve(data=spark_frame, score_bins=10_000)`` as a function of ``KNOT_SAMPLE``.

Spark bins a score column by :class:`~confusionlab._tables.knots.Knots`: a piecewise-linear
distribution function through ≈ 75 quantiles of the first ``KNOT_SAMPLE`` rows. Fewer rows make
the glance that reads them cheaper and the bins less equal. This script measures the second part
in numpy (the same bins as Spark's: ``Knots.bin_of`` is the arithmetic Spark's expression does):
for each sample size, the stated bound ``Σ_b pos_b · neg_b / (2 P N)`` over the bins, against
exact quantile bins (numpy's), and the heaviest bin's count over the mean. It also says whether
Spark takes its uniform grid (``_grid_bin_items``) or falls back to the CASE tree. No timing.

Scores (10**7 rows, ``--rows`` to change; 40 % positives): binormal (``randn + y``, as
``bench_scale.py``), lognormal (``exp(randn + y)``, skewed), and probabilities
(``sigmoid(2·randn + 1.5·y − 2)``, most near 0).

Usage::

    python benchmarks/bench_knot_sample.py
    python benchmarks/bench_knot_sample.py --rows 1000000
"""

from __future__ import annotations

import argparse

import numpy as np

from confusionlab._tables.knots import knots_from_sample
from confusionlab._tables.spark import _grid_bin_items

BINS = 10_000
SAMPLES = (10_000, 20_000, 50_000, 100_000, 200_000)


def _bound(bins: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    total = np.bincount(bins, minlength=BINS).astype(np.float64)
    pos = np.bincount(bins, weights=y, minlength=BINS)
    neg = total - pos
    bound = float(pos @ neg / (2.0 * y.sum() * (y.size - y.sum())))
    return bound, float(total.max() / total[total > 0].mean())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=10**7)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    y = (rng.random(args.rows) < 0.4).astype(np.float64)
    e = rng.standard_normal(args.rows)
    scores = {
        "binormal": e + y,
        "lognormal": np.exp(e + y),
        "probabilities": 1.0 / (1.0 + np.exp(-(2.0 * e + 1.5 * y - 2.0))),
    }
    print(f"{args.rows:,} rows, {BINS:,} bins")
    print(f"{'scores':>14} {'bins from':>22} {'AUC bound':>11} {'÷ exact':>8} {'max/mean':>9} {'Spark':>6}")
    for name, s in scores.items():
        edges = np.quantile(s, np.arange(BINS) / BINS, method="lower")
        exact, heaviest = _bound(np.searchsorted(edges, s, side="right") - 1, y)
        print(f"{name:>14} {'exact quantiles':>22} {exact:11.4e} {1.0:8.3f} {heaviest:9.2f} {'':>6}")
        for n in SAMPLES:
            knots = knots_from_sample(s[:n], BINS)
            bound, heaviest = _bound(knots.bin_of(s), y)
            path = "grid" if _grid_bin_items("v", knots) is not None else "tree"
            row = f"{name:>14} {f'first {n:,} rows':>22} {bound:11.4e} {bound / exact:8.3f} {heaviest:9.2f}"
            print(f"{row} {path:>6}")


if __name__ == "__main__":
    main()
