"""Issue 20 defect 4: CDDL with thousands of subgroups answers in seconds (was 185 s at 5,000).

Past ``CDD_MC_BUDGET`` subgroup × draw pairs the interval is the normal distribution with
the exact mean and variance of CDD = Σ (n_i/n)(D_i − A_i) (independent subgroups). The
moments are checked against Monte Carlo draws of the subgroups' own model, the interval
against the Monte Carlo interval, and the large case by making the Monte Carlo draw fail
if it is called (the old code drew every subgroup: it fails that test).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from confusionlab import bias
from confusionlab.bias import _cdd, uncertainty
from confusionlab.bias import label_metrics as lm
from confusionlab.distribution import count_draws


def _outcomes(groups: int, size: int, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.multinomial(size, [0.4, 0.1, 0.35, 0.15], size=groups).reshape(groups, 2, 2)


@pytest.mark.parametrize("target", ["next_test_set", "true_value"])
def test_exact_moments_are_the_monte_carlo_moments(target):
    g = _outcomes(150, 12)
    mean, var = _cdd._cdd_moments(g, 1.0, target)

    def cdd(x: np.ndarray) -> np.ndarray:
        return lm.conditional_demographic_disparity(x.reshape(*x.shape[:-1], 2, 2))

    draws = uncertainty.sampled_metric(cdd, g.reshape(150, 4), n_draws=10_000, random_state=3, target=target)
    se = draws.std() / np.sqrt(draws.size)
    assert abs(draws.mean() - mean) < 4 * se
    assert draws.var() == pytest.approx(var, rel=0.06)  # sd of a variance estimate at 10,000 draws: 1.4 %


@pytest.mark.parametrize("target", ["next_test_set", "true_value"])
def test_normal_interval_agrees_with_the_monte_carlo_one(target, monkeypatch):
    g = _outcomes(200, 12)
    monkeypatch.setattr(_cdd, "CDD_MC_BUDGET", 10**12)
    mc = uncertainty.cdd_distribution(g, target=target, n_draws=20_000)
    monkeypatch.setattr(_cdd, "CDD_MC_BUDGET", 0)
    normal = uncertainty.cdd_distribution(g, target=target)
    assert mc.strategy.startswith("monte carlo") and normal.strategy.startswith("normal approximation")
    err = uncertainty.interval_mc_error(mc, 0.95)
    for x, y in zip(mc.interval(0.95), normal.interval(0.95), strict=True):
        assert abs(x - y) <= err + 1e-3


def test_five_thousand_subgroups_draw_nothing(monkeypatch):
    rng = np.random.default_rng(0)
    rows = 200_000
    df = pd.DataFrame(
        {"y": rng.integers(0, 2, rows), "sex": rng.choice(["F", "M"], rows), "zip": rng.integers(0, 5000, rows)}
    )

    def no_draws(*args, **kwargs):
        raise AssertionError("CDDL drew Monte Carlo samples of 5,000 subgroups")

    monkeypatch.setattr(count_draws, "dirichlet_multinomial_rows", no_draws)
    monkeypatch.setattr(count_draws, "dirichlet_rows", no_draws)
    for target in ("next_test_set", "true_value"):
        r = bias.report(df, label="y", positive_values=[1], facet="sex", facet_values=["F"], group="zip",
                        stage="pre", target=target)  # fmt: skip
        lo, hi = r["CDDL"].interval(0.95)
        assert lo < hi and r["CDDL"].distribution.strategy.startswith("normal approximation")


def test_draws_are_the_same_with_and_without_a_progress_bar():
    cells = np.array([[30, 10, 5, 55], [20, 20, 40, 20]])
    fn = {"x": lambda d: d[..., 0, 1] / 40.0}
    quiet = uncertainty.sampled_metrics(fn, cells, n_draws=3000, random_state=4, progress=False)["x"]
    shown = uncertainty.sampled_metrics(fn, cells, n_draws=3000, random_state=4, progress=True)["x"]
    assert np.array_equal(quiet, shown)
