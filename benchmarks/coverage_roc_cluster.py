"""Coverage of the clustered AUC interval (Obuchowski 1997) against the naive ones (SPEC G3, issue 37).

Test sets of C clusters (10, 50, 200) of mean size 10 (equal sizes, or unequal: uniform on
2..18). Each cluster draws its prevalence π_c ~ Beta with mean 0.4 and intraclass correlation ρ
(a Beta(a, b) has ICC 1/(a + b + 1) for its Bernoulli rows, as ``coverage_cluster.py``); each row
is positive with probability π_c and its score is δ·y + u_c + e, with u_c ~ N(0, ρ) the cluster's
random effect, shared by all its rows, and e ~ N(0, 1 − ρ) the row's own noise: ρ (0, 0.3, 0.7) is
the intraclass correlation of the scores within a class (and of the labels). A positive and a
negative of two different clusters differ by N(δ, 2), so the true AUC (the population's: the
limit of the estimate as the clusters grow in number) is Φ(δ/√2) = 0.75 whatever ρ, with
δ = √2·Φ⁻¹(0.75). (Pairs within one cluster, about 1/C of the pairs at equal sizes, have the
larger AUC Φ(δ/√(2(1 − ρ))): at 10 clusters and ρ = 0.7 the estimate's expectation lies above
the truth, part of what the coverage measures.)

Coverage of the 95 % intervals of the AUC from ``roc_curve``: naive DeLong (``method="logit"``,
rows independent), naive Hanley & McNeil (their 1982 variance on the same logit scale, rows
independent), naive default (``interval()`` without ``cluster=``: the score interval below 100
examples in the smaller class, else DeLong) and clustered (``roc_curve(..., cluster=)``:
Obuchowski's variance on the logit scale, z quantile). The mean design effect (Obuchowski's
variance over DeLong's) is reported beside.

    PYTHONPATH=src .venv/bin/python benchmarks/coverage_roc_cluster.py --reps 1000
"""

from __future__ import annotations

import argparse
import itertools
import math
import time

import numpy as np
from scipy.stats import norm

import confusionlab as cl
from confusionlab.scores import _delong

AUC = 0.75
SHIFT = math.sqrt(2.0) * float(norm.ppf(AUC))
PREVALENCE = 0.4
METHODS = ("delong", "hanley", "default", "clustered")


def _beta(rng: np.random.Generator, mean: float, icc: float, size: int) -> np.ndarray:
    if icc == 0:
        return np.full(size, mean)
    total = (1 - icc) / icc
    return rng.beta(mean * total, (1 - mean) * total, size)


def test_set(rng: np.random.Generator, n_clusters: int, icc: float, equal: bool):
    """Labels, scores and cluster ids of one simulated test set (the module docstring's model)."""
    sizes = np.full(n_clusters, 10) if equal else rng.integers(2, 19, n_clusters)
    cluster = np.repeat(np.arange(n_clusters), sizes)
    y = (rng.random(cluster.size) < np.repeat(_beta(rng, PREVALENCE, icc, n_clusters), sizes)).astype(int)
    effect = np.repeat(rng.normal(0.0, math.sqrt(icc), n_clusters), sizes)
    score = SHIFT * y + effect + rng.normal(0.0, math.sqrt(1.0 - icc), cluster.size)
    return y, score, cluster


def hanley_interval(curve: cl.RocCurve, confidence: float = 0.95) -> tuple[float, float]:
    """Hanley & McNeil's (1982) variance at the estimate, on DeLong's logit scale (rows independent)."""
    variance = _delong.hanley_mcneil_variance(curve.value, curve.p, curve.n)
    centre, variance = _delong.delong_variance(curve.value, variance, curve.p, curve.n)
    return _delong.logit_interval(centre, variance, confidence)


def intervals(y: np.ndarray, score: np.ndarray, cluster: np.ndarray) -> tuple[dict[str, tuple[float, float]], float]:
    naive = cl.roc_curve(y, score)
    clustered = cl.roc_curve(y, score, cluster=cluster)
    out = {
        "delong": naive.interval(method="logit"),
        "hanley": hanley_interval(naive),
        "default": naive.interval(),
        "clustered": clustered.interval(),
    }
    return out, clustered.design_effect


def coverage(reps: int, seed: int) -> None:
    print(f"coverage of 95 % intervals of the AUC (truth {AUC}); {' / '.join(METHODS)}; mean design effect")
    print(f"{'ICC':>4} {'C':>4} {'sizes':>7} {'delong':>7} {'hanley':>7} {'default':>8} {'clustered':>10} {'deff':>6}")
    for icc, c, equal in itertools.product((0.0, 0.3, 0.7), (10, 50, 200), (True, False)):
        rng = np.random.default_rng([seed, int(icc * 10), c, equal])
        hits = dict.fromkeys(METHODS, 0)
        effects = []
        done = 0
        while done < reps:
            y, score, cluster = test_set(rng, c, icc, equal)
            if y.min() == y.max():
                continue  # a test set of one class (10 clusters at ICC 0.7): no AUC to speak of
            done += 1
            ends, effect = intervals(y, score, cluster)
            effects.append(effect)
            for k, (lo, hi) in ends.items():
                hits[k] += bool(lo <= AUC <= hi)
        cols = " ".join(f"{hits[k] / reps:>{w}.3f}" for k, w in zip(METHODS, (7, 7, 8, 10), strict=True))
        print(f"{icc:>4} {c:>4} {'equal' if equal else 'unequal':>7} {cols} {np.mean(effects):>6.2f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    start = time.perf_counter()
    coverage(args.reps, args.seed)
    print(f"\n{args.reps} test sets a row; {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
