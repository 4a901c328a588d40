"""Pieces the lesson modules share: an Axes to draw on, bins of a width, and PMFs drawn as binned step curves."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .._validation import InvalidParameterError

#: Most histogram bins a figure draws.
MAX_BINS = 100_000

#: Size of a lesson's single-panel figure (inches).
FIGSIZE = (6.0, 3.6)


def axes(ax: Any, figsize: tuple[float, float] | None = None) -> Any:
    """``ax``, or the Axes of a new figure (of ``figsize``) when it is None."""
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=figsize)
    return ax


def pmf_stairs(
    ax: Any, distributions: Mapping[str, Any], edges: np.ndarray, colours: Sequence[Any], **style: Any
) -> None:
    """Each distribution's mass per bin of ``edges`` as a step curve labelled with its SD.

    ±inf atoms lie outside any finite bin and are left out, as ``np.histogram`` would.
    """
    for (label, d), colour in zip(distributions.items(), colours, strict=False):
        finite = np.isfinite(d.values)
        mass, _ = np.histogram(d.values[finite], bins=edges, weights=d.probabilities[finite])
        ax.stairs(mass, edges, color=colour, label=f"{label}: sd {d.std():.4f}", **style)


def bin_edges(lo: float, hi: float, bin_width: Any) -> np.ndarray:
    """Edges of bins of ``bin_width`` covering [lo, hi], at most :data:`MAX_BINS` of them."""
    if isinstance(bin_width, bool) or not isinstance(bin_width, (int, float)) or not 0 < bin_width <= 1:
        raise InvalidParameterError(f"bin_width must be a number in (0, 1], got {bin_width!r}")
    if (hi - lo) / bin_width + 2 > MAX_BINS:
        raise InvalidParameterError(f"bin_width={bin_width!r} gives more than {MAX_BINS:,} bins over [{lo:g}, {hi:g}]")
    start = np.floor(lo / bin_width) * bin_width
    return np.arange(start, hi + 2 * bin_width, bin_width)
