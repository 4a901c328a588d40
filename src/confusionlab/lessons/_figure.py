"""Pieces the lesson modules share: an Axes to draw on, and PMFs drawn as binned step curves."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np


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
