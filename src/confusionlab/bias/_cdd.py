"""The uncertainty of CDDL and CDDPL: a sum over subgroups, by Monte Carlo or, for many, its normal limit."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._validation import check_choice, check_n_draws
from ..distribution.count_draws import BYTES_PER_DRAW, DEFAULT_N_DRAWS, as_count_cells, sampled_metric
from ..distribution.pmf import MetricDistribution
from ..distribution.posterior import posterior_distribution, sampled_distribution
from ..models import TARGETS, resolve_prior
from . import label_metrics as lm

__all__ = ["CDD_MC_BUDGET", "cdd_distribution"]

#: Subgroup × draw pairs CDDL/CDDPL draw by Monte Carlo (a few seconds); beyond, the normal
#: distribution with the exact mean and variance of the sum over the subgroups (central limit).
CDD_MC_BUDGET = 5_000_000


def _cdd_moments(g: np.ndarray, al: float, target: str) -> tuple[float, float]:
    """Exact mean and variance of CDD = Σ_i (n_i/n)(D_i − A_i) under the subgroups' independent models.

    ``g`` is (G, 2 facets, 2 outcomes). In subgroup i (Dirichlet(cells + α) over its
    four cells) D_i = (d's share of the negatives) and A_i = (d's share of the
    positives) are, given the split into negatives and positives, independent
    beta(-binomial) shares (the Dirichlet's aggregation property): for the true value
    D_i ~ Beta(α_dn, α_an) and A_i ~ Beta(α_dp, α_ap); for a new sample of the same
    size the split m ~ BetaBin(n_i, α_an + α_dn, α_ap + α_dp) and D_i = BetaBin(m, α_dn,
    α_an)/m (0 when m = 0, as the metric), A_i alike with n_i − m. Linear in the rows.
    """
    from scipy import stats

    c = g.reshape(g.shape[0], 4).astype(np.float64) + al  # a_neg, a_pos, d_neg, d_pos
    an, ap, dn, dp = c.T
    n_i = g.reshape(g.shape[0], 4).sum(axis=1).astype(np.float64)
    n = n_i.sum()
    w = n_i / n
    mu_d, mu_a = dn / (dn + an), dp / (dp + ap)

    def beta_var(a: np.ndarray, b: np.ndarray, m: Any = None) -> np.ndarray:
        v = a * b / ((a + b) ** 2 * (a + b + 1.0))
        return v if m is None else v * (a + b + m) / np.where(m > 0, m, 1.0)

    if target == "true_value":
        mean_t = mu_d - mu_a
        var_t = beta_var(dn, an) + beta_var(dp, ap)
    else:
        sizes = n_i.astype(np.int64)
        owner = np.repeat(np.arange(sizes.size), sizes + 1)
        m = (np.arange(owner.size) - np.repeat(np.cumsum(sizes + 1) - (sizes + 1), sizes + 1)).astype(np.float64)
        pm = stats.betabinom.pmf(m, sizes[owner], (an + dn)[owner], (ap + dp)[owner])
        k = sizes[owner] - m
        has_d, has_a = m > 0, k > 0
        md, ma = mu_d[owner], mu_a[owner]
        e_d = np.where(has_d, md, 0.0)
        e_a = np.where(has_a, ma, 0.0)
        e_d2 = np.where(has_d, md**2 + beta_var(dn[owner], an[owner], m), 0.0)
        e_a2 = np.where(has_a, ma**2 + beta_var(dp[owner], ap[owner], k), 0.0)
        mean_t = np.bincount(owner, pm * (e_d - e_a), minlength=sizes.size)
        second = np.bincount(owner, pm * (e_d2 + e_a2 - 2.0 * e_d * e_a), minlength=sizes.size)
        var_t = np.maximum(second - mean_t**2, 0.0)
    return float(np.sum(w * mean_t)), float(np.sum(w**2 * var_t))


def cdd_distribution(
    g: np.ndarray,
    *,
    metric: str = "CDDL",
    prior: str | float = "uniform",
    n_draws: int = DEFAULT_N_DRAWS,
    random_state: Any = 0,
    target: str = "next_test_set",
    progress: bool | None = None,
) -> MetricDistribution | None:
    """The distribution of CDDL (or CDDPL) from per-subgroup outcomes ``g`` of shape (G, 2, 2).

    Each subgroup is one Dirichlet-multinomial (or, for the true value, Dirichlet)
    vector over its four (facet × outcome) cells at its observed size. With at most
    :data:`CDD_MC_BUDGET` subgroup × draw pairs, ``n_draws`` Monte Carlo draws (a
    progress bar when it takes long, see :func:`sampled_metrics`); beyond (thousands
    of subgroups), CDD is a sum of that many independent bounded terms and is given as
    the normal distribution with its **exact** mean and variance
    (:func:`_cdd_moments`, linear in the rows; strategy ``"normal approximation …"``),
    at ``n_draws`` equally weighted quantile nodes — seconds instead of minutes, and
    deterministic.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> g = rng.multinomial(30, [0.4, 0.1, 0.3, 0.2], size=2000).reshape(2000, 2, 2)
    >>> d = cdd_distribution(g)                  # 2,000 subgroups × 20,000 draws: past CDD_MC_BUDGET
    >>> d.strategy
    'normal approximation: exact mean and variance over 2,000 independent subgroups'
    >>> few = cdd_distribution(g[:50], n_draws=4000)  # Monte Carlo: the same mean within its error
    >>> few.strategy, bool(abs(few.mean() - _cdd_moments(g[:50], 1.0, "next_test_set")[0]) < 0.005)
    ('monte carlo: 4000 draws, random_state 0', True)
    """
    al = resolve_prior(prior)
    target = check_choice(target, "target", TARGETS)
    cells = as_count_cells(g, "g")
    n_groups = cells.shape[0]
    n_draws = check_n_draws(n_draws, bytes_per_draw=BYTES_PER_DRAW)
    if n_groups * n_draws <= CDD_MC_BUDGET:

        def cdd(draws: np.ndarray) -> np.ndarray:
            return lm.conditional_demographic_disparity(draws.reshape(*draws.shape[:-1], 2, 2))

        values = sampled_metric(
            cdd,
            cells.reshape(n_groups, 4),
            n_draws=n_draws,
            random_state=random_state,
            prior=prior,
            target=target,
            progress=progress,
        )
        return sampled_distribution(values, metric=metric, random_state=random_state, target=target)
    from scipy import stats

    mean, var = _cdd_moments(cells, al, target)
    nodes = (np.arange(n_draws) + 0.5) / n_draws
    values = mean + math.sqrt(var) * stats.norm.ppf(nodes)
    return posterior_distribution(
        values,
        1.0,
        metric=metric,
        strategy=f"normal approximation: exact mean and variance over {n_groups:,} independent subgroups",
        target=target,
    )
