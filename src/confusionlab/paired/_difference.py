"""The distribution of metric_A − metric_B: every pair of the support, or both binned on one grid."""

from __future__ import annotations

import numpy as np

from .._validation import check_memory
from ..distribution import MetricDistribution
from ._engine import ExactEngine, MonteCarloEngine

__all__ = ["DIFFERENCE_BINS", "MAX_DIFFERENCE_POINTS", "difference_distribution", "exact_quantiles"]

#: The distribution of A − B visits every point of the four-dimensional support up to this
#: many points (grouped on exact rank pairs: about 250 MB and a second); beyond, it is binned
#: (``DIFFERENCE_BINS``) and its quantiles are found from exact tail masses (:func:`exact_quantiles`).
#: At 2·10⁷ points the visit took 10–45 s and 2.1 GB (a degenerate MCC at 400 examples).
MAX_DIFFERENCE_POINTS = 2e6
DIFFERENCE_BINS = 401
#: Relative width to which :func:`exact_quantiles` locates a quantile of the difference.
QUANTILE_WIDTH = 1e-12


def difference_distribution(
    engine: ExactEngine | MonteCarloEngine, *, metric: str, model: str, pruned_mass: float, target: str
) -> MetricDistribution:
    """Distribution of metric_A − metric_B under ``engine`` (an exact enumeration or draws).

    Up to ``MAX_DIFFERENCE_POINTS`` points every point of the support is visited
    (differences grouped on 12 decimals, as :func:`confusionlab.compare` does; a pair
    of exactly equal values is exactly 0); beyond, both values are binned on a
    common grid of ``DIFFERENCE_BINS`` bins of width h and each difference is placed
    within h of its true value (``strategy`` says which). A pair of infinite values
    of the same sign is undefined (``undefined_mass``, excluded). The masses are scaled to
    the retained mass ``1 − pruned_mass``; ``metric``, ``model`` and ``target`` label the result.
    """
    retained = 1.0 - pruned_mass
    if isinstance(engine, ExactEngine) and engine.points > MAX_DIFFERENCE_POINTS:
        values, masses, counts = binned_difference(engine, pruned_mass)
        strategy = f"binned({DIFFERENCE_BINS})"
        undefined_mass = 0.0
    else:
        if isinstance(engine, ExactEngine):
            check_memory(float(engine.points) * 40.0, f"the {engine.points:,} pairs of the difference", "")
        ra, rb, mass = engine.pair_masses
        va, vb = engine.values[ra], engine.values[rb]
        with np.errstate(invalid="ignore"):
            raw = va - vb
            # group as compare() does (12 decimals), but never merge a non-zero difference into 0
            rounded = np.round(raw, 12)
            diff = np.where(ra == rb, 0.0, np.where(rounded == 0, raw, rounded))
        undefined = np.isnan(diff)
        undefined_mass = float(mass[undefined].sum()) * retained
        values, inverse = np.unique(diff[~undefined], return_inverse=True)
        masses = np.bincount(inverse.reshape(-1), weights=mass[~undefined]) * retained
        counts = np.bincount(inverse.reshape(-1))
        strategy = "pairs" if isinstance(engine, ExactEngine) else f"monte-carlo({engine.n_draws})"
    return MetricDistribution(
        values,
        masses,
        counts,
        metric=f"{metric} difference",
        model=model,
        pruned_mass=pruned_mass,
        undefined_mass=undefined_mass,
        undefined_excluded=True,
        strategy=strategy,
        check_total=True,
        target=target,
    )


def binned_difference(engine: ExactEngine, pruned_mass: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(values, masses, counts) of A − B with both metrics binned on one grid of ``DIFFERENCE_BINS``
    bins of width h: each difference is a multiple of h within h of its true value."""
    finite = engine.values[np.isfinite(engine.values)]
    lo, hi = float(finite.min()), float(finite.max())
    width = (hi - lo) / (DIFFERENCE_BINS - 1) or 1.0
    edges = lo - width / 2 + width * np.arange(DIFFERENCE_BINS + 1)
    joint = engine.binned_joint(edges, edges)
    k = np.subtract.outer(np.arange(DIFFERENCE_BINS), np.arange(DIFFERENCE_BINS)).reshape(-1)
    masses = np.bincount(k + DIFFERENCE_BINS - 1, weights=joint.reshape(-1))
    values = (np.arange(masses.size) - (DIFFERENCE_BINS - 1)) * width
    keep = masses > 0
    return values[keep], masses[keep] * (1.0 - pruned_mass), np.ones(int(keep.sum()), dtype=np.int64)


def exact_quantiles(engine: ExactEngine, probs: list[float]) -> list[float]:
    """The quantiles ``probs`` of A − B (smallest x with P(A − B ≤ x) ≥ q), located within
    :data:`QUANTILE_WIDTH` above the support value by bisection on the exact tail mass
    P(A − B > x) (one query of the engine's sweep per step, no pair visited), then rounded to
    12 decimals as the visited pairs are grouped."""
    finite = engine.values[np.isfinite(engine.values)]
    span = float(finite.max() - finite.min()) + 1.0 if finite.size else 1.0
    out = []
    for q in probs:
        lo, hi = -span, span  # P(A − B ≤ lo) = 0 < q ≤ P(A − B ≤ hi) = 1
        while hi - lo > QUANTILE_WIDTH * max(1.0, abs(hi)):
            mid = 0.5 * (lo + hi)
            if 1.0 - float(engine.below([mid], [True])[0]) >= q:
                hi = mid
            else:
                lo = mid
        out.append(float(np.round(hi, 12)))  # on the pairs' grid of 12 decimals
    return out
