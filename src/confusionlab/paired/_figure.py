"""The figure of a paired comparison: the PMF of A − B, coloured by the side each difference favours."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._result import new_figure
from ..palette import NEUTRAL, PAIR_COLOURS, THEME

if TYPE_CHECKING:
    from ._result import PairedComparison

__all__ = ["MAX_PLOT_STICKS", "difference_figure"]

#: :meth:`PairedComparison.plot` draws one stick per difference up to this many; beyond, a histogram.
MAX_PLOT_STICKS = 600


def difference_figure(result: PairedComparison, ax: Any = None) -> Any:
    """The PMF of ``result``'s difference A − B (:meth:`PairedComparison.plot
    <confusionlab.PairedComparison.plot>`); returns the Figure (drawn into ``ax`` when given)."""
    fig, ax = new_figure(ax)
    d = result.difference
    finite = np.isfinite(d.values)
    values, probs = d.values[finite], d.probabilities[finite]
    if values.size > MAX_PLOT_STICKS:  # bins of width h centred on multiples of h: 0 stays in the middle of one
        half = max(float(np.abs(values).max()), 1e-12)
        h = 2 * half / (MAX_PLOT_STICKS // 2)
        index = np.rint(values / h).astype(np.int64)
        index, inverse = np.unique(index, return_inverse=True)
        values, probs = index * h, np.bincount(inverse.reshape(-1), weights=probs)
    colours = np.where(values > 0, PAIR_COLOURS["A"], np.where(values < 0, PAIR_COLOURS["B"], NEUTRAL))
    if values.size:
        clustered = result.n_clusters is not None  # cluster=: the verdict's interval is the cluster-robust one
        lo, hi = result.interval(0.95) if clustered else np.clip(d.interval(0.95), values.min(), values.max())
        shaded = f"95 % interval (clustered, {result.n_clusters} clusters)" if clustered else "95 % interval"
        ax.axvspan(lo, hi, color=THEME["grid"], alpha=0.6, lw=0, label=shaded)
        ax.vlines(values, 0, probs, colors=colours.tolist(), lw=1.5)
        ax.axvline(0, color=NEUTRAL, lw=0.8)
        ax.axvline(result.value, color=NEUTRAL, lw=1, ls="--", label=f"observed {result.value:.3g}")
        for side in ("A", "B"):
            ax.plot([], [], color=PAIR_COLOURS[side], lw=1.5, label=f"{side} better")
        shown = np.clip(d.interval(1 - 1e-6), values.min(), values.max())  # all but a millionth of the mass
        lo, hi = min(shown[0], 0.0, result.value), max(shown[1], 0.0, result.value)
        if clustered:  # the clustered interval, wider than the sticks, shown whole
            interval = result.interval(0.95)
            lo, hi = min(lo, interval[0]), max(hi, interval[1])
        pad = 0.04 * (hi - lo) or 0.05
        ax.set_xlim(lo - pad, hi + pad)
        ax.legend(fontsize="small", frameon=False)
    else:
        ax.text(0.5, 0.5, "no finite difference", ha="center", va="center", transform=ax.transAxes)
    label = result._metric.label
    where = "true values" if result.target == "true_value" else "new test set"
    ax.set_xlabel(f"{label} of A − {label} of B ({where})")
    ax.set_ylabel("probability" if values.size <= MAX_PLOT_STICKS else "probability (binned)")
    ax.set_title(f"P(A > B) = {result.prob_greater:.3g}, P(A = B) = {result.prob_equal:.3g}", fontsize="medium")
    return fig
