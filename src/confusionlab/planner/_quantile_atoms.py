"""The quantile atoms of an exact central interval read from sorted ratios, shared by the fast paths."""

from __future__ import annotations

from typing import Any

import numpy as np

#: The fast paths defer to :func:`~confusionlab.metric_distribution` when a cumulative mass
#: lies within this margin of an interval's level (far above the rounding of any of their
#: sums, far below any mass that matters).
_LEVEL_MARGIN = 1e-9


def _quantile_atom(fs: np.ndarray, cs: np.ndarray, below: float, level: float, margin: float) -> tuple | None:
    """The atom of a band of sorted ratios ``fs`` (cumulative masses ``cs``, mass ``below`` under
    the band) where the cdf crosses ``level``: ``(ratio, start, end)`` with ``fs[start:end]`` equal
    to it, or None when the band does not reach the level or the cdf passes within ``margin`` of it
    just below or at the atom (then rounding could move the quantile: the caller declines)."""
    k = int(np.searchsorted(cs, level, side="left"))
    if k >= fs.size:
        return None
    q = fs[k]
    start = int(np.searchsorted(fs, q, side="left"))
    end = int(np.searchsorted(fs, q, side="right"))
    before = cs[start - 1] if start > 0 else below
    if not (cs[end - 1] >= level + margin and before < level - margin):
        return None
    return q, start, end


def _half_width_from_ratios(form: Any, quantiles: list, neighbours: list) -> tuple[float, float]:
    """Half-width and granularity (as :func:`interval_half_width`) from the interval's two
    quantiles and each one's neighbouring atoms, all given as ratios of the exact ``form``."""
    values = form.value(np.array(quantiles), np.ones(2))
    lo_value, hi_value = float(values[0]), float(values[1])
    h = (hi_value - lo_value) / 2
    if not h > 0:
        return h, 1.0
    gaps = []
    for (smaller, larger), value in zip(neighbours, (lo_value, hi_value), strict=True):
        near = form.value(np.array([smaller, larger]), np.ones(2))
        gaps.append(max(value - float(near[0]), float(near[1]) - value))
    return h, (gaps[0] + gaps[1]) / 2 / h
