"""A fast, seeded smoke version of ``benchmarks/coverage_cluster.py``: beta-binomial clusters with
ICC 0.5 (30 clusters of 10 rows, design effect 5.5). The clustered interval of accuracy and F1
must cover the true value in at least 85 % of 200 test sets; the same interval with the rows taken
as independent (every row its own cluster) covers about 2Φ(1.96/√5.5) − 1 ≈ 60 % and must stay
below 80 %. A method that ignored the clusters, or over-corrected wildly, fails one of the bounds."""

from __future__ import annotations

import math

import numpy as np
from scipy.stats import norm

import confusionlab as cl
from confusionlab.metrics import get_metric
from confusionlab.models import cluster as mc


def test_clustered_intervals_cover_where_independent_ones_do_not():
    rng = np.random.default_rng(20261207)
    c, m, icc, mu, pi = 30, 10, 0.5, 0.8, 0.4
    total = (1 - icc) / icc
    truth = {
        name: float(get_metric(name).values(pi * mu, pi * (1 - mu), (1 - pi) * (1 - mu), (1 - pi) * mu))
        for name in ("accuracy", "f1")
    }
    covered = {(name, kind): 0 for name in truth for kind in ("clustered", "independent")}
    reps = 200
    for _ in range(reps):
        skill = np.repeat(rng.beta(mu * total, (1 - mu) * total, c), m)
        y = (rng.random(c * m) < pi).astype(int)
        pred = np.where(rng.random(c * m) < skill, y, 1 - y)
        cell = np.where(y == 1, np.where(pred == 1, 0, 1), np.where(pred == 1, 2, 3))
        clustered = mc.cluster_cells(np.repeat(np.arange(c), m), cell, c)
        independent = mc.cluster_cells(np.arange(c * m), cell, c * m)
        for name, value in truth.items():
            for kind, cells in (("clustered", clustered), ("independent", independent)):
                lo, hi = mc.cluster_robust_interval(name, cells, 0.95)
                covered[name, kind] += bool(lo <= value <= hi)
    for name in truth:
        assert covered[name, "clustered"] / reps >= 0.85, covered
        assert covered[name, "independent"] / reps <= 0.80, covered


def test_clustered_auc_interval_covers_where_delong_does_not():
    """The ROC smoke of ``benchmarks/coverage_roc_cluster.py`` (its model: each cluster's prevalence
    ~ Beta(mean 0.4, ICC 0.7), scores 0.954·y + u_c + e with u_c ~ N(0, 0.7), e ~ N(0, 0.3); true AUC
    Φ(0.954/√2) = 0.75): 50 clusters of 10 rows, 80 seeded test sets. Obuchowski's interval covered
    94 % in the benchmark's 2,000 sets and must cover ≥ 85 % here; DeLong's, the rows taken as
    independent, covered 59 % there (design effect ≈ 5) and must stay below 80 %."""
    rng = np.random.default_rng(37)
    c, m, icc, truth = 50, 10, 0.7, 0.75
    shift = math.sqrt(2.0) * float(norm.ppf(truth))
    total = (1 - icc) / icc
    cluster = np.repeat(np.arange(c), m)
    covered = {"clustered": 0, "delong": 0}
    reps = 80
    for _ in range(reps):
        prevalence = np.repeat(rng.beta(0.4 * total, 0.6 * total, c), m)
        y = (rng.random(c * m) < prevalence).astype(int)
        score = shift * y + np.repeat(rng.normal(0, math.sqrt(icc), c), m) + rng.normal(0, math.sqrt(1 - icc), c * m)
        for kind, curve in (("clustered", cl.roc_curve(y, score, cluster=cluster)), ("delong", cl.roc_curve(y, score))):
            lo, hi = curve.interval(method="auto" if kind == "clustered" else "logit")
            covered[kind] += bool(lo <= truth <= hi)
    assert covered["clustered"] / reps >= 0.85, covered
    assert covered["delong"] / reps <= 0.80, covered
