"""Coverage by simulation (fixed seeds): binormal models, AUC 0.6–0.99, 20–500 examples per class.

The true ROC curve of the binormal model with unit variances and separation d is
R(t) = Φ(d + Φ⁻¹(t)), its AUC Φ(d/√2). A larger study belongs in benchmarks/.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import norm
from sklearn.metrics import roc_auc_score

import confusionlab as cl
from confusionlab.scores._input import Scores
from confusionlab.scores._results import PrecisionRecallCurve, RocCurve

CONFIDENCE = 0.95


def _samples(auc: float, p: int, n: int, reps: int, seed: int):
    d = np.sqrt(2) * norm.ppf(auc)
    rng = np.random.default_rng(seed)
    for _ in range(reps):
        yield d, Scores(np.sort(rng.normal(d, 1, p)), np.sort(rng.normal(0, 1, n)), 1)


@pytest.mark.parametrize(
    ("auc", "size"),
    [(0.6, 20), (0.6, 500), (0.75, 50), (0.9, 200), (0.95, 20), (0.99, 20), (0.99, 50), (0.99, 200)],
)
def test_delong_logit_interval_covers_the_true_auc(auc, size):
    reps = 1500
    hits = 0
    for _, s in _samples(auc, size, size, reps, seed=int(auc * 1000) + size):
        lo, hi = RocCurve(s).interval(CONFIDENCE)
        hits += lo <= auc <= hi
    assert hits / reps >= CONFIDENCE - 0.02, hits / reps


@pytest.mark.parametrize(("auc", "p", "n"), [(0.95, 20, 500), (0.99, 500, 20), (0.9, 50, 500)])
def test_the_default_interval_covers_with_a_small_class(auc, p, n):
    """Regression: DeLong-logit covered 0.885–0.908 at (0.95, 20, 500), 0.85 at (0.99, 500, 20)
    and 0.92 at (0.9, 50, 500) (benchmarks/bench_scores_coverage.py); the default now switches to
    the score interval when a class has fewer than 100 examples."""
    reps, hits, logit_hits = 800, 0, 0
    for _, s in _samples(auc, p, n, reps, seed=p * n + int(auc * 100)):
        curve = RocCurve(s)
        lo, hi = curve.interval(CONFIDENCE)
        hits += lo <= auc <= hi
        lo, hi = curve.interval(CONFIDENCE, method="logit")
        logit_hits += lo <= auc <= hi
    assert hits / reps >= CONFIDENCE - 0.02, hits / reps
    assert hits > logit_hits


@pytest.mark.parametrize(("auc", "p", "n"), [(0.6, 20, 20), (0.8, 50, 200), (0.95, 200, 50), (0.99, 500, 500)])
def test_the_simultaneous_band_covers_the_whole_true_curve(auc, p, n):
    reps = 200
    roc_hits = pr_hits = 0
    for d, s in _samples(auc, p, n, reps, seed=p + n):
        band = RocCurve(s).band(CONFIDENCE)
        true = norm.cdf(d + norm.ppf(band.fpr))
        roc_hits += bool(np.all((band.lower <= true + 1e-12) & (true <= band.upper + 1e-12)))
        pr = PrecisionRecallCurve(s).band(CONFIDENCE)
        fpr = norm.cdf(norm.ppf(pr.recall) - d)  # the true ROC inverted: FPR at each recall
        precision = p * pr.recall / (p * pr.recall + n * fpr)
        pr_hits += bool(np.all((pr.lower <= precision + 1e-12) & (precision <= pr.upper + 1e-12)))
    assert roc_hits / reps >= CONFIDENCE
    assert pr_hits / reps >= CONFIDENCE


def test_the_bootstrap_interval_covers_roughly():
    reps, hits = 150, 0
    for _, s in _samples(0.8, 60, 60, reps, seed=3):
        lo, hi = RocCurve(s).interval(CONFIDENCE, method="bootstrap", n_resamples=400, random_state=1)
        hits += lo <= 0.8 <= hi
    assert hits / reps >= CONFIDENCE - 0.05


def test_the_macro_ovr_interval_covers_the_true_macro_auc():
    def draw(rng, size):
        y = np.repeat(np.arange(3), size)
        logits = rng.normal(size=(3 * size, 3)) + np.eye(3)[y]
        return y, np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)

    rng = np.random.default_rng(0)
    truth = roc_auc_score(*draw(rng, 200_000), multi_class="ovr")  # the population value, to ±0.001
    for size in (20, 100):
        reps, hits = 400, 0
        for _ in range(reps):
            lo, hi = cl.roc_curve(*draw(rng, size), multi_class="ovr").interval(CONFIDENCE)
            hits += lo <= truth <= hi
        assert hits / reps >= CONFIDENCE - 0.02, (size, hits / reps)
