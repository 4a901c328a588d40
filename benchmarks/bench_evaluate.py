"""``evaluate`` on a large test set with refits and groups vs one ``np.bincount`` pass, in one run.

The workload of issue 10: ``rows`` test objects, ``refits`` refitted models, ``groups`` groups;
``evaluate`` counts every (refit, group) table and then every group's exact distribution of one
metric for every refit is computed (``Evaluation.by_group``, the mixtures included). The
baseline is one ``np.bincount`` pass over the same arrays (the refits matrix keyed by group and
true label), the least any exact count of these tables can cost. Ratio = evaluate / bincount.

Usage::

    python benchmarks/bench_evaluate.py                       # 1e6 rows × 50 refits, 20 groups
    python benchmarks/bench_evaluate.py --rows 100000 --repeat 3
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import numpy as np

from confusionlab.evaluation import evaluate


def data(rows: int, refits: int, groups: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, rows).astype(np.int8)
    pred = np.where(rng.random(rows) < 0.85, y, 1 - y).astype(np.int8)
    flips = rng.random((refits, rows)) < 0.05
    runs = np.where(flips, 1 - pred, pred).astype(np.int8)
    return y, runs, rng.integers(0, groups, rows)


def baseline(y: np.ndarray, runs: np.ndarray, g: np.ndarray) -> np.ndarray:
    key = (g.astype(np.int64) * 4 + y * 2)[None, :] + runs
    return np.bincount(key.ravel())


def workbench(y: np.ndarray, runs: np.ndarray, g: np.ndarray, metric: str) -> int:
    ev = evaluate(y, refits=runs, groups=g, metrics=[metric])
    return len(ev.by_group(metric))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--refits", type=int, default=50)
    parser.add_argument("--groups", type=int, default=20)
    parser.add_argument("--metric", default="f1")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs of each (median reported)")
    args = parser.parse_args()
    y, runs, g = data(args.rows, args.refits, args.groups)
    print(f"numpy {np.__version__}, python {platform.python_version()}, {platform.machine()}")
    print(f"rows {args.rows:,} × refits {args.refits} × groups {args.groups}, metric {args.metric}")
    t_base, t_eval = [], []
    for _ in range(args.repeat):  # alternate, so machine noise hits both alike
        start = time.perf_counter()
        baseline(y, runs, g)
        t_base.append(time.perf_counter() - start)
        start = time.perf_counter()
        workbench(y, runs, g, args.metric)
        t_eval.append(time.perf_counter() - start)
    b, e = statistics.median(t_base), statistics.median(t_eval)
    print(f"{'bincount s':>11} {'evaluate s':>11} {'ratio':>7}")
    print(f"{b:11.3f} {e:11.3f} {e / b:7.1f}")


if __name__ == "__main__":
    main()
