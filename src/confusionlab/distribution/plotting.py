"""How a metric distribution is drawn: sticks at its values, its central interval shaded."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..palette import NEUTRAL

if TYPE_CHECKING:
    from .pmf import MetricDistribution

__all__ = ["MAX_STICKS", "PLOT_BINS"]


#: Most sticks :meth:`MetricDistribution.plot` draws; a larger PMF is drawn as the mass
#: in :data:`PLOT_BINS` equal bins (a difference of two MCC distributions has 10⁵ values).
MAX_STICKS = 5_000
PLOT_BINS = 400


def _draw_pmf(ax: Any, d: MetricDistribution, colour: str, marker: float | None, marker_label: str) -> None:
    """Sticks at ``d``'s finite values (or, beyond :data:`MAX_STICKS`, the mass per bin), its
    central 95 % interval shaded, ``marker`` as a dashed grey line."""
    finite = np.isfinite(d.values)
    if finite.any():
        shown = d.values[finite]
        if shown.size <= MAX_STICKS:
            ax.vlines(shown, 0, d._p[finite], color=colour, lw=1.0)
        else:
            edges = np.linspace(shown[0], shown[-1], PLOT_BINS + 1)
            mass, _ = np.histogram(shown, bins=edges, weights=d._p[finite])
            ax.stairs(
                mass, edges, color=colour, fill=True, alpha=0.8, label=f"mass per bin of {edges[1] - edges[0]:.3g}"
            )
        lo, hi = d.interval(0.95)
        lo, hi = max(lo, float(shown[0])), min(hi, float(shown[-1]))  # an end at ±inf: to the last finite value
        if lo <= hi:
            ax.axvspan(lo, hi, color=colour, alpha=0.15, lw=0, label="central 95% interval")
        if marker is not None and np.isfinite(marker):
            ax.axvline(marker, color=NEUTRAL, lw=1.0, ls="--", label=f"{marker_label} {marker:.4g}")
        ax.set_ylim(bottom=0)
        ax.legend(fontsize=7, loc="upper left")
    else:
        ax.text(0.5, 0.5, "no finite value to draw", transform=ax.transAxes, ha="center", va="center")
    if d.infinite_mass > 0:
        ax.text(0.99, 0.97, f"P(±∞) = {d.infinite_mass:.3g}", transform=ax.transAxes, ha="right", va="top", fontsize=7)
    ax.set_ylabel("probability")
