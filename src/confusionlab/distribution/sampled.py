"""A metric distribution estimated by Monte Carlo draws of the same model.

Used where the exact lattice does not fit (``method="auto"``) or when asked
(``method="monte-carlo"``): the draws' values are grouped as the lattice's are, with the
Monte Carlo error of the mean and the Dvoretzky–Kiefer–Wolfowitz bound on the cdf.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._validation import (
    check_memory,
    check_random_state,
)
from ..confusion import ConfusionMatrix
from ..metrics import Metric
from ..models import SIMPLEX_MODELS, rate_draws, simplex_draws, slice_draws
from .arithmetic import _INT64_SAFE
from .origin import Origin
from .pmf import MetricDistribution
from .pushforward import lattice_distribution

__all__ = ["DEFAULT_DRAWS", "MAX_DISTRIBUTION_DRAWS", "MC_CDF_RISK"]


#: Monte Carlo draws of one distribution when ``n_draws`` is not given.
DEFAULT_DRAWS = 20_000
#: Most Monte Carlo draws of one distribution.
MAX_DISTRIBUTION_DRAWS = 10**8
#: Risk of the Dvoretzky–Kiefer–Wolfowitz bound a Monte Carlo distribution states as its
#: ``cdf_error``: with probability at least 1 − this, ``|cdf − exact cdf| ≤ cdf_error`` everywhere.
MC_CDF_RISK = 1e-3
#: Bytes per Monte Carlo draw of one distribution (four count arrays, the rates, the values,
#: the sort of :func:`numpy.unique`).
_BYTES_PER_DRAW = 96


def _dkw_bound(n_draws: int) -> float:
    """The Dvoretzky–Kiefer–Wolfowitz bound: sup |empirical cdf − cdf| ≤ it with probability
    ≥ 1 − :data:`MC_CDF_RISK` (Massart's constant).

    >>> round(_dkw_bound(20_000), 4)
    0.0138
    """
    return math.sqrt(math.log(2.0 / MC_CDF_RISK) / (2.0 * n_draws))


def _sampled_counts(
    cm: ConfusionMatrix,
    model: str,
    alpha: float,
    size: tuple[int, int] | int,
    target: str,
    n_draws: int,
    rng: np.random.Generator,
) -> tuple[np.ndarray, ...]:
    """``n_draws`` draws of (TP, FN, FP, TN) of the same model (a new test set of ``size``:
    a pair ``(p, n)`` for the slice models, a total for the simplex), or for
    ``target="true_value"`` of (p·TPR, p·(1 − TPR), n·(1 − TNR), n·TNR) under the rates'
    Beta posteriors: the models' own samplers (:mod:`confusionlab.models.draws`)."""
    if target == "true_value":
        return rate_draws(cm, alpha, n_draws, rng)
    if model in SIMPLEX_MODELS:
        return simplex_draws(cm, alpha, int(size), n_draws, rng)  # type: ignore[arg-type]
    return slice_draws(cm, model, alpha, size, n_draws, rng)  # type: ignore[arg-type]


def _sampled_distribution(
    cm: ConfusionMatrix,
    m: Metric,
    model: str,
    alpha: float,
    size: tuple[int, int] | int,
    undefined_value: float | None,
    target: str,
    n_draws: int,
    random_state: Any,
    origin: Origin | None,
) -> MetricDistribution:
    """The metric's distribution estimated by ``n_draws`` draws of the same model
    (:func:`_sampled_counts`), with the Monte Carlo error of its mean and the DKW bound
    on its cdf."""
    check_memory(
        float(n_draws) * _BYTES_PER_DRAW,
        f"n_draws={n_draws:,} Monte Carlo draws of the {m.name} distribution",
        "use a smaller n_draws",
    )
    rng = check_random_state(random_state)
    counts = _sampled_counts(cm, model, alpha, size, target, n_draws, rng)
    vals = m.values(*counts, undefined=np.nan)
    undefined_at = np.isnan(vals)
    n_undef = int(np.count_nonzero(undefined_at))
    if n_undef:
        vals = vals[~undefined_at] if undefined_value is None else np.where(undefined_at, undefined_value, vals)
    finite = bool(np.isfinite(vals).all())
    mc_error = float(np.std(vals) / math.sqrt(vals.size)) if finite and vals.size else math.nan
    largest = int(size) if isinstance(size, int) else int(size[0] + size[1])
    # integer draws are grouped on exact values as the lattice is (the same floats), where the
    # exact keys fit in 64 bits; beyond, near ties would be decided by Python integers one by
    # one (seconds for 10⁵ draws): the draws' floats are grouped as they are
    exact_keys = target == "next_test_set" and m.magnitude(largest) < _INT64_SAFE
    if exact_keys:
        cols = tuple(np.asarray(c, dtype=np.int64) for c in counts)
        grouped = lattice_distribution(
            m,
            cols,
            np.full(n_draws, 1.0 / n_draws),
            largest=largest,
            pruned=0.0,
            model=model,
            undefined=undefined_value,
        )
        # the masses are counts of draws: from the multiplicities, exactly (not sums of 1/n)
        values, mult = grouped.values, grouped.multiplicities
    else:
        values, mult = np.unique(vals, return_counts=True)
    return MetricDistribution(
        values,
        mult / float(n_draws),
        mult,
        metric=m.name,
        model=model,
        undefined_mass=n_undef / float(n_draws),
        undefined_points=n_undef,
        lattice_points=n_draws,
        strategy=f"monte-carlo({n_draws})",
        undefined_excluded=undefined_value is None,
        check_total=True,
        target=target,
        cdf_error=_dkw_bound(n_draws),
        mc_error=mc_error,
        origin=origin,
        method="monte-carlo",
    )
