"""Dirichlet-multinomial draws as one ``Generator.multinomial`` call (issue 21: CDDL and kl_labels="values").

The draws changed sampler (numpy's multinomial over a 2-D array of probabilities instead of a loop of
conditional binomials over the cells); they must keep the distribution. References are independent of the
code: the Dirichlet-multinomial's moments in closed form and each cell's exact beta-binomial marginal
(``scipy.stats.betabinom``), with a fixed seed and tolerances that a wrong sampler fails.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from confusionlab.bias.uncertainty import dirichlet_multinomial_draws

CELLS = np.array([[30, 10, 5, 0], [3, 0, 0, 1], [0, 0, 0, 0], [400, 250, 120, 230]])
DRAWS = 100_000


@pytest.mark.parametrize(("prior", "alpha"), [("uniform", 1.0), ("jeffreys", 0.5)])
def test_moments_match_the_dirichlet_multinomial(prior: str, alpha: float) -> None:
    x = dirichlet_multinomial_draws(CELLS, n_draws=DRAWS, random_state=3, prior=prior)
    assert x.shape == (DRAWS, *CELLS.shape)
    assert (x.sum(axis=-1) == CELLS.sum(axis=-1)).all()  # every draw keeps its vector's size
    assert (x[:, 2] == 0).all()  # an empty vector stays empty
    for row in (0, 1, 3):
        n, a = CELLS[row].sum(), CELLS[row] + alpha
        p = a / a.sum()
        mean = n * p
        var = n * p * (1 - p) * (n + a.sum()) / (1 + a.sum())
        got = x[:, row].astype(float)
        assert np.all(np.abs(got.mean(axis=0) - mean) <= 4.5 * np.sqrt(var / DRAWS)), (row, got.mean(axis=0), mean)
        np.testing.assert_allclose(got.var(axis=0), var, rtol=0.03)
        # the cells of a vector are negatively correlated: cov = −n p_i p_j (n + α0)/(1 + α0)
        cov = np.cov(got[:, 0], got[:, 1])[0, 1]
        want = -n * p[0] * p[1] * (n + a.sum()) / (1 + a.sum())
        assert abs(cov - want) <= 0.05 * abs(want), (row, cov, want)


def test_each_cell_is_its_beta_binomial_marginal() -> None:
    """The empirical cdf of every cell within 1.5 × the 1 % Kolmogorov–Smirnov bound of the exact marginal."""
    x = dirichlet_multinomial_draws(CELLS, n_draws=DRAWS, random_state=11)
    bound = 1.5 * 1.63 / np.sqrt(DRAWS)
    for row in (0, 1, 3):
        n, a = CELLS[row].sum(), CELLS[row] + 1.0
        for cell in range(4):
            k = np.arange(n + 1)
            exact = stats.betabinom.cdf(k, n, a[cell], a.sum() - a[cell])
            ecdf = np.searchsorted(np.sort(x[:, row, cell]), k, side="right") / DRAWS
            assert np.abs(ecdf - exact).max() <= bound, (row, cell, np.abs(ecdf - exact).max())


def test_a_tiny_prior_on_empty_cells_draws_without_error() -> None:
    """Gamma variates of shape 1e-300 underflow to 0: the vector's counts all go to its last cell."""
    x = dirichlet_multinomial_draws(np.array([[0, 0, 0], [2, 0, 1]]), n_draws=500, random_state=0, prior=1e-300)
    assert (x.sum(axis=-1) == [0, 3]).all()
    assert (x[:, 1, 1] == 0).all()  # an empty cell under a vanishing prior stays empty
