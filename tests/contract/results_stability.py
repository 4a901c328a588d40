"""One small instance of each result class of :mod:`confusionlab.stability` (for the protocol walk)."""

from __future__ import annotations

import numpy as np

from confusionlab import stability as st

GRID = np.array([2, 4, 8, 16, 32])


def stability_result() -> st.StabilityResult:
    rng = np.random.default_rng(0)
    pred = (rng.random((6, 40)) < np.linspace(0.05, 0.6, 40)).astype(int)
    return st.phi(pred, rng.integers(0, 2, size=100), "nominal")


def stability_curve() -> st.StabilityCurve:
    """Refits that flip fewer predictions away from the majority as the number of learners grows."""
    rng = np.random.default_rng(0)
    flips = np.stack([rng.random((4, 40)) < 0.4 / np.sqrt(n) for n in GRID])
    return st.StabilityCurve(
        n_learners=GRID,
        predictions=flips.astype(int),
        train_y=np.array([0, 1] * 20),
        reference=[None] * GRID.size,
        fit_seconds=np.outer(GRID, np.ones(4)) * 1e-3,
        measure="phi",
        scale="nominal",
    )


CASES = {"StabilityResult": stability_result, "StabilityCurve": stability_curve}
