"""The figure of a threshold choice: the objective against the threshold, its bands and the plausible set.

Many candidates (up to a million distinct scores) are drawn in at most :data:`DRAWN` blocks of
neighbouring candidates: a block shows its first candidate's value, the band's envelope over the
block (the smallest lower and the largest upper bound) and is shaded when any candidate in it is
plausible, so nothing the band says is hidden by thinning. The chosen candidate is always drawn.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._text import as_written
from ..palette import NEUTRAL, THEME

__all__ = ["DRAWN", "POINTWISE_DRAWN", "draw_choice"]

#: Most blocks of candidates drawn.
DRAWN = 2000
#: Candidates whose pointwise interval is drawn (spread along the scores).
POINTWISE_DRAWN = 25


def _blocks(size: int, chosen: int) -> np.ndarray:
    """The first candidate of each block: at most :data:`DRAWN`, the chosen one a block of its own."""
    starts = np.unique(np.linspace(0, size, min(size, DRAWN), endpoint=False).astype(np.int64))
    return np.unique(np.concatenate([starts, [chosen], [chosen + 1] if chosen + 1 < size else []]).astype(np.int64))


def _spread(usable: np.ndarray, count: int) -> np.ndarray:
    if usable.size == 0:
        return usable
    return usable[np.unique(np.linspace(0, usable.size - 1, min(usable.size, count)).round().astype(int))]


def draw_choice(
    ax: Any,
    *,
    thresholds: np.ndarray,
    values: np.ndarray,
    lower: np.ndarray,
    upper: np.ndarray,
    plausible: np.ndarray,
    chosen: int,
    pointwise: Any,
    labels: dict[str, str],
) -> None:
    """Draw into ``ax``: the finite candidates' ``values`` as a staircase, the band ``lower``–``upper``, the
    ``pointwise(k)`` intervals at some candidates, the ``plausible`` ones shaded and the ``chosen`` one marked.
    ``labels``: ``curve``, ``band``, ``y`` (axis) and ``title`` (drawn as written)."""
    finite = int(np.isfinite(thresholds).sum())  # +inf ("none positive") is last and not on the axis
    if finite:
        starts = _blocks(finite, min(chosen, finite - 1))
        x = thresholds[starts]
        low = np.minimum.reduceat(lower[:finite], starts)
        high = np.maximum.reduceat(upper[:finite], starts)
        shaded = np.logical_or.reduceat(plausible[:finite], starts)
        colour = THEME["accent"]
        ax.fill_between(x, low, high, step="post", color=colour, alpha=0.15, label=labels["band"])
        ax.step(x, values[starts], where="post", color=colour, lw=1.2, label=labels["curve"])
        shown = _spread(np.flatnonzero(~np.isnan(values[:finite])), POINTWISE_DRAWN)
        if shown.size:
            bounds = np.array([pointwise(k) for k in shown])
            ax.vlines(thresholds[shown], bounds[:, 0], bounds[:, 1], color=NEUTRAL, lw=1.5, label="pointwise interval")
        _shade(ax, x, shaded)
    at = thresholds[chosen] if np.isfinite(thresholds[chosen]) else (thresholds[finite - 1] if finite else 0.0)
    ax.axvline(at, color=THEME["warning"], lw=1, ls="--", label="chosen")
    ax.set_xlabel("threshold (score ≥ threshold is positive)")
    as_written(ax.set_ylabel(labels["y"]))
    as_written(ax.set_title(labels["title"], fontsize=9))
    as_written(ax.legend(loc="best", fontsize=7, frameon=False))


def _shade(ax: Any, x: np.ndarray, shaded: np.ndarray) -> None:
    """Shade each run of plausible blocks (a block stands for the thresholds up to its first score)."""
    starts = np.flatnonzero(shaded & ~np.concatenate([[False], shaded[:-1]]))
    ends = np.flatnonzero(shaded & ~np.concatenate([shaded[1:], [False]]))
    for k, (a, b) in enumerate(zip(starts, ends, strict=True)):
        left = x[a - 1] if a > 0 else x[a]
        ax.axvspan(left, x[b], color=NEUTRAL, alpha=0.12, lw=0, label="plausible" if k == 0 else None)
