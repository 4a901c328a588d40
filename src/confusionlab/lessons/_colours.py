"""Colours of a lesson's curves: shades of one colour, a darker tone, a metric's levels on its colour map."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from matplotlib.colors import to_rgb

from .._validation import InvalidParameterError, check_positive_count
from ..metrics import get_metric
from .style import METRIC_CMAP

#: Most shades :func:`shades` makes (one per curve of a figure).
MAX_SHADES = 1_000


def shades(colour: str, k: int) -> list[tuple[float, float, float]]:
    """``k`` shades of ``colour``, light to full (for a sequence such as growing N).

    Examples
    --------
    >>> shades("#2166ac", 2)[-1] == to_rgb("#2166ac")
    True
    """
    k = check_positive_count(k, "k")
    if k > MAX_SHADES:
        raise InvalidParameterError(f"k must be at most {MAX_SHADES} (one shade per curve of a figure), got {k:,}")
    rgb = np.array(to_rgb(colour))
    weights = np.linspace(0.35, 1.0, k) if k > 1 else np.ones(1)
    return [tuple(float(c) for c in (1 - w) * 1.0 + w * rgb) for w in weights]


#: How far :func:`darker` mixes a colour towards black (lattice figures: lines on grey dots).
_DARKEN = 0.35


def darker(colour: Any, amount: float = _DARKEN) -> tuple[float, float, float]:
    """``colour`` mixed towards black by ``amount`` (0: unchanged, 1: black).

    Examples
    --------
    >>> darker("#ffffff", 0.5)
    (0.5, 0.5, 0.5)
    """
    if isinstance(amount, bool) or not isinstance(amount, (int, float)) or not 0 <= amount <= 1:
        raise InvalidParameterError(f"amount must be a number in [0, 1], got {amount!r}")
    return tuple(float(c) * (1 - amount) for c in to_rgb(colour))


def _strong_level_colours(metric: str, levels: Sequence[float]) -> list[Any]:
    """Like :func:`_level_colours`, but at least 0.3 away from the scale's pale middle, and darker.

    Red stays low and blue high; lines drawn over a grey lattice need the contrast.
    """
    lo, hi = get_metric(metric).range
    levels = np.asarray(levels, dtype=float)
    t = 0.5 + np.log(levels) / (2 * np.log(8.0)) if not np.isfinite(hi) else (levels - lo) / (hi - lo)
    t = np.clip(t, 0.0, 1.0)
    side = np.where(t < 0.5, -1.0, 1.0)
    t = 0.5 + side * np.maximum(np.abs(t - 0.5), 0.3)
    return [darker(METRIC_CMAP(float(v)), 0.2) for v in np.clip(t, 0.0, 1.0)]


def _level_colours(metric: str, levels: Sequence[float]) -> list[Any]:
    """Colour of each level on the metric colour map (red low → blue high), as in the widgets."""
    lo, hi = get_metric(metric).range
    levels = np.asarray(levels, dtype=float)
    if not np.isfinite(hi):  # ratios: compare on a log scale, 1 in the middle
        t = 0.5 + np.log(levels) / (2 * np.log(8.0))
    else:
        t = (levels - lo) / (hi - lo)
    return [METRIC_CMAP(float(v)) for v in np.clip(t, 0.05, 0.95)]
