"""Coverage of clustered intervals and the type-I error of clustered paired tests (SPEC G3).

Test sets of C clusters (10, 50, 200) of mean size 10 (equal sizes, or unequal: uniform on
2..18). Each cluster draws its own accuracy p_c ~ Beta with mean μ = 0.8 and its own prevalence
π_c ~ Beta with mean 0.4, both with intraclass correlation ρ (0, 0.1, 0.3, 0.7: a Beta(a, b)
has ICC 1/(a + b + 1) for its Bernoulli rows — the beta-binomial model of a cluster); each row's
truth is Bernoulli(π_c), and the prediction is right with probability p_c. The true metrics are
those of the expected cell proportions (TP = πμ, FN = π(1 − μ), FP = (1 − π)(1 − μ), TN = (1 − π)μ:
p_c and π_c independent), the population ratio every interval estimates.

Coverage of the 95 % intervals of accuracy, F1 and MCC from ``evaluate``: naive (the default,
rows independent), clustered (``cluster=``, the cluster-robust delta method) and the cluster
bootstrap (percentile, 1,000 resamples of clusters, :func:`confusionlab.models.cluster.cluster_bootstrap`).

Type-I error at α = 0.05 of the paired comparison of two classifiers with the same true metric
(each draws its own accuracy per cluster from the same Beta: some clusters favour A, others B,
as topics favour one model or another; the same ICC ρ): naive (the default
``compare_paired`` interval excludes 0), clustered (``compare_paired(..., cluster=).p_value() <
0.05``) and the cluster bootstrap (its percentile interval of A − B excludes 0).

``--part size`` measures the clustered test alone with more test sets (the computation
``compare_paired(..., cluster=).p_value()`` runs, without the posterior it also builds).

    PYTHONPATH=src .venv/bin/python benchmarks/coverage_cluster.py --reps 100 --part coverage
    PYTHONPATH=src .venv/bin/python benchmarks/coverage_cluster.py --reps 200 --part type1
    PYTHONPATH=src .venv/bin/python benchmarks/coverage_cluster.py --reps 1000 --part size
"""

from __future__ import annotations

import argparse
import itertools
import time

import numpy as np

import confusionlab as cl
from confusionlab.metrics import get_metric
from confusionlab.models import cluster as mc

METRICS = ("accuracy", "f1", "mcc")
ACCURACY, PREVALENCE = 0.8, 0.4


def _beta(rng: np.random.Generator, mean: float, icc: float, size: int) -> np.ndarray:
    if icc == 0:
        return np.full(size, mean)
    total = (1 - icc) / icc
    return rng.beta(mean * total, (1 - mean) * total, size)


def _test_set(rng: np.random.Generator, n_clusters: int, icc: float, equal: bool, classifiers: int = 1):
    sizes = np.full(n_clusters, 10) if equal else rng.integers(2, 19, n_clusters)
    cluster = np.repeat(np.arange(n_clusters), sizes)
    skill = np.repeat(_beta(rng, ACCURACY, icc, n_clusters), sizes)
    prevalence = np.repeat(_beta(rng, PREVALENCE, icc, n_clusters), sizes)
    y = (rng.random(cluster.size) < prevalence).astype(int)
    preds = [np.where(rng.random(cluster.size) < skill, y, 1 - y)]
    for _ in range(classifiers - 1):  # each classifier its own accuracy per cluster, all from one Beta
        skill = np.repeat(_beta(rng, ACCURACY, icc, n_clusters), sizes)
        preds.append(np.where(rng.random(cluster.size) < skill, y, 1 - y))
    return y, preds, cluster


def _truth(metric: str) -> float:
    pi, mu = PREVALENCE, ACCURACY
    return float(get_metric(metric).values(pi * mu, pi * (1 - mu), (1 - pi) * (1 - mu), (1 - pi) * mu))


def _cells(y: np.ndarray, pred: np.ndarray, cluster: np.ndarray, n_clusters: int) -> np.ndarray:
    cell = np.where(y == 1, np.where(pred == 1, 0, 1), np.where(pred == 1, 2, 3))
    return mc.cluster_cells(cluster, cell, n_clusters)


def coverage(reps: int, seed: int, resamples: int) -> None:
    print(
        "coverage of 95 % intervals (naive = evaluate's default, clustered = cluster=, bootstrap = cluster bootstrap)"
    )
    head = f"{'ICC':>4} {'C':>4} {'sizes':>7} " + " ".join(f"{m + ' ' + k:>16}" for m in METRICS for k in ("nv/cl/bs",))
    print(head)
    truth = {m: _truth(m) for m in METRICS}
    for icc, c, equal in itertools.product((0.0, 0.1, 0.3, 0.7), (10, 50, 200), (True, False)):
        rng = np.random.default_rng([seed, int(icc * 10), c, equal])
        hits = {(m, k): 0 for m in METRICS for k in ("naive", "clustered", "bootstrap")}
        done = 0
        while done < reps:
            y, (pred,), cluster = _test_set(rng, c, icc, equal)
            if y.min() == y.max() or pred.min() == pred.max():
                continue  # a test set without both classes (10 clusters at ICC 0.7): no F1 or MCC to speak of
            done += 1
            naive = cl.evaluate(y, pred, metrics=list(METRICS)).interval()
            clustered = cl.evaluate(y, pred, metrics=list(METRICS), cluster=cluster).interval()
            cells = _cells(y, pred, cluster, c)
            for m in METRICS:
                boot = mc.bootstrap_interval(mc.cluster_bootstrap(m, cells, resamples, rng), 0.95)
                for k, (lo, hi) in (("naive", naive[m]), ("clustered", clustered[m]), ("bootstrap", boot)):
                    hits[m, k] += bool(lo <= truth[m] <= hi)
        cols = " ".join(
            f"{'/'.join(f'{hits[m, k] / reps:.2f}' for k in ('naive', 'clustered', 'bootstrap')):>16}" for m in METRICS
        )
        print(f"{icc:>4} {c:>4} {'equal' if equal else 'unequal':>7} {cols}", flush=True)


def type_one(reps: int, seed: int, resamples: int) -> None:
    print("\ntype-I error at alpha = 0.05 of the paired comparison, equal true metrics (naive / clustered / bootstrap)")
    print(f"{'ICC':>4} {'C':>4} {'sizes':>7} {'accuracy':>16} {'f1':>16}")
    for icc, c, equal in itertools.product((0.0, 0.1, 0.3, 0.7), (10, 50, 200), (True, False)):
        rng = np.random.default_rng([seed, 7, int(icc * 10), c, equal])
        rejections = {(m, k): 0 for m in ("accuracy", "f1") for k in ("naive", "clustered", "bootstrap")}
        done = 0
        while done < reps:
            y, (a, b), cluster = _test_set(rng, c, icc, equal, classifiers=2)
            if y.min() == y.max():
                continue
            done += 1
            cells = np.stack([_cells(y, a, cluster, c), _cells(y, b, cluster, c)], axis=1)
            for m in ("accuracy", "f1"):
                lo, hi = cl.compare_paired(y, a, b, m, n_draws=20_000).interval()
                rejections[m, "naive"] += not (lo <= 0 <= hi)
                rejections[m, "clustered"] += (
                    cl.compare_paired(y, a, b, m, n_draws=2_000, cluster=cluster).p_value() < 0.05
                )
                values = mc.cluster_bootstrap(m, cells, resamples, rng)
                blo, bhi = mc.bootstrap_interval(values[:, 0] - values[:, 1], 0.95)
                rejections[m, "bootstrap"] += not (blo <= 0 <= bhi)
        cols = " ".join(
            f"{'/'.join(f'{rejections[m, k] / reps:.3f}' for k in ('naive', 'clustered', 'bootstrap')):>16}"
            for m in ("accuracy", "f1")
        )
        print(f"{icc:>4} {c:>4} {'equal' if equal else 'unequal':>7} {cols}", flush=True)


def size(reps: int, seed: int) -> None:
    from confusionlab.paired._cluster import clustered_classifiers

    print("\nsize at alpha = 0.05 of the cluster-level test alone (accuracy / f1)")
    print(f"{'ICC':>4} {'C':>4} {'sizes':>7} {'accuracy':>9} {'f1':>9}")
    for icc, c, equal in itertools.product((0.0, 0.1, 0.3, 0.7), (10, 50, 200), (True, False)):
        rng = np.random.default_rng([seed, 11, int(icc * 10), c, equal])
        rejections = dict.fromkeys(("accuracy", "f1"), 0)
        done = 0
        while done < reps:
            y, (a, b), cluster = _test_set(rng, c, icc, equal, classifiers=2)
            if y.min() == y.max():
                continue
            done += 1
            for m in rejections:
                tested = clustered_classifiers(m, ["A", "B"], y == 1, [a == 1, b == 1], cluster)
                rejections[m] += tested.p_value(0, 1) < 0.05
        cols = " ".join(f"{rejections[m] / reps:>9.3f}" for m in ("accuracy", "f1"))
        print(f"{icc:>4} {c:>4} {'equal' if equal else 'unequal':>7} {cols}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--part", choices=("coverage", "type1", "size", "both"), default="both")
    args = parser.parse_args()
    start = time.perf_counter()
    if args.part in ("coverage", "both"):
        coverage(args.reps, args.seed, args.resamples)
    if args.part in ("type1", "both"):
        type_one(args.reps, args.seed, args.resamples)
    if args.part == "size":
        size(args.reps, args.seed)
    print(f"\n{args.reps} test sets a row; {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
