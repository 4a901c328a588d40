"""Issue 35 item 8 under the true-value default: where R refits' posteriors would pool more than
``TRUE_VALUE_MIXTURE_ATOMS`` quadrature atoms (method="auto"), each refit contributes n_draws / R
draws of its posterior, so the mixture holds n_draws draws. References: an independent simulation
of the refits' true F1 (Jeffreys Beta posteriors of each refit's TPR and TNR, the prevalence
fixed, numpy only) and the exact pooled quadratures (the path below the budget)."""

from __future__ import annotations

import numpy as np
import pytest

import confusionlab as cl
import confusionlab.evaluation._distributions as distributions_module


def _data(n=3000, runs=12, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    refits = np.where(rng.random((runs, n)) < 0.85, y, 1 - y)
    return y, refits


def _simulated_f1(y, refits, draws_per_refit=40_000, seed=3):
    rng = np.random.default_rng(seed)
    p, n = int((y == 1).sum()), int((y == 0).sum())
    out = []
    for pred in refits:
        tp = int(((pred == 1) & (y == 1)).sum())
        tn = int(((pred == 0) & (y == 0)).sum())
        tpr = rng.beta(tp + 0.5, p - tp + 0.5, draws_per_refit)
        fpr = 1 - rng.beta(tn + 0.5, n - tn + 0.5, draws_per_refit)
        out.append(2 * p * tpr / (2 * p * tpr + n * fpr + p * (1 - tpr)))
    return np.concatenate(out)


def test_sampled_refit_mixture_matches_simulation_and_exact(monkeypatch):
    y, refits = _data()
    exact = cl.evaluate(y, refits=refits, metrics=["f1"])  # 12 refits: 1.92e6 atoms, pooled exactly
    assert exact.distribution("f1").method == "quadrature"
    monkeypatch.setattr(distributions_module, "TRUE_VALUE_MIXTURE_ATOMS", 10_000)
    sampled = cl.evaluate(y, refits=refits, metrics=["f1"])
    d = sampled.distribution("f1")
    assert d.method == "monte-carlo" and d.values.size <= 20_004  # n_draws pooled, not R × n_draws
    reference = np.quantile(_simulated_f1(y, refits), [0.025, 0.975])
    assert sampled.interval_of("f1") == pytest.approx(reference, abs=0.003)
    assert sampled.interval_of("f1") == pytest.approx(exact.interval_of("f1"), abs=0.003)
    frame = sampled.to_frame()
    assert frame.loc[0, "method"] == "monte-carlo" and frame.loc[0, "target"] == "true_value"
    parts = exact.decompose("f1")
    assert sampled.decompose("f1")["total_sd"] == pytest.approx(parts["total_sd"], rel=0.05)
