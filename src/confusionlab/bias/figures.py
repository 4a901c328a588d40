"""Figures of bias results, drawn with matplotlib into an Axes the caller gives (no pyplot).

Three pictures, each answering the question of its result:

* :func:`draw_distribution` — one metric: its posterior predictive distribution, the
  central interval shaded, the no-bias value and the observed value as lines
  (:meth:`BiasMetric.plot <confusionlab.bias.BiasMetric.plot>`);
* :func:`draw_intervals` — a report: a forest plot, one row per metric, its interval as
  a bar measured from its no-bias value, red where the interval excludes it and grey
  where it holds it, a circle for an exact interval and a square for a Monte Carlo one
  (:meth:`BiasReport.plot <confusionlab.bias.BiasReport.plot>` and the lessons'
  :func:`~confusionlab.lessons.bias.plot_intervals`);
* :func:`draw_verdict_grid` — an audit: groups × metrics, each cell coloured by its
  verdict (:meth:`Audit.plot <confusionlab.bias.Audit.plot>`).

Colours come from :mod:`confusionlab.palette`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._deps import require
from .._text import as_written
from ..palette import MISSING, NEUTRAL, SIGN_COLOURS, THEME, VERDICT_COLOURS, to_rgb

__all__ = [
    "EXCLUDES_COLOUR",
    "HOLDS_COLOUR",
    "SHORT_VERDICTS",
    "draw_distribution",
    "draw_intervals",
    "draw_verdict_grid",
    "method_of",
]

#: Colour of a metric whose interval excludes the no-bias value (its own, not group d's red).
EXCLUDES_COLOUR = SIGN_COLOURS["excludes no bias"]
#: Colour of a metric whose interval holds the no-bias value (a grey).
HOLDS_COLOUR = SIGN_COLOURS["holds no bias"]

#: Short text of each verdict in a grid cell.
SHORT_VERDICTS = {"bias": "bias", "no material bias": "fair", "insufficient evidence": "?"}


def method_of(metric: Any) -> str:
    """``"exact"``, ``"Monte Carlo"`` or ``"none"`` (no posterior: FT, a failed metric)."""
    dist = metric.distribution
    if dist is None:
        return "none"
    return "exact" if str(getattr(dist, "strategy", "")).startswith("exact") else "Monte Carlo"


def draw_distribution(ax: Any, metric: Any, confidence: float = 0.95) -> None:
    """One metric's posterior predictive distribution with its interval, no-bias and observed values.

    Up to 80 atoms are drawn as stems; more (a lattice, Monte Carlo draws) as a
    histogram of their probabilities. A metric without a distribution (FT, or
    one that could not be computed) is said in words.
    """
    dist = metric.distribution
    if dist is None:
        why = metric.error or "no posterior distribution (FT is not a function of counts)"
        as_written(
            ax.text(0.5, 0.5, f"{metric.name}: {why}", ha="center", va="center", wrap=True, transform=ax.transAxes)
        )
        ax.set_title(metric.description)
        return
    lo, hi = dist.interval(confidence)
    finite = np.isfinite(dist.values)
    values, probabilities = dist.values[finite], dist.probabilities[finite]
    if values.size <= 80:
        ax.vlines(values, 0.0, probabilities, color=THEME["accent"], lw=2)
        ax.set_ylabel("probability")
    else:
        bins = np.linspace(values.min(), values.max(), 61) if values.max() > values.min() else 1
        ax.hist(values, bins=bins, weights=probabilities, color=THEME["accent"], alpha=0.8)
        ax.set_ylabel("probability per bin")
    span = (float(values.min()), float(values.max())) if values.size else (lo, hi)
    ax.axvspan(
        lo if math.isfinite(lo) else span[0],
        hi if math.isfinite(hi) else span[1],
        color=THEME["accent"],
        alpha=0.15,
        label=f"{confidence:.0%} interval [{lo:.4g}, {hi:.4g}]",
    )
    ax.axvline(metric.no_bias, color=NEUTRAL, ls="--", lw=1, label=f"no bias ({metric.no_bias:g})")
    ax.axvline(metric.value, color=THEME["foreground"], lw=1.5, label=f"observed ({metric.value:.4g})")
    ax.set_xlabel(metric.name)
    ax.set_title(metric.description)
    ax.legend(fontsize="small", loc="best")


def draw_intervals(ax: Any, metrics: Sequence[Any], confidence: float = 0.95) -> None:
    """Forest plot: each metric's interval and value, measured from its no-bias value.

    Rows top to bottom in the order of ``metrics`` (those without a distribution
    are left out). ``ax.lines`` holds one bar per metric, in order, then the dashed
    no-bias line; ``ax.collections`` one marker per metric.
    """
    Line2D = require("matplotlib.lines", "notebooks", "plot()").Line2D

    rows = [m for m in metrics if m.value is not None and m.distribution is not None]
    for y, m in enumerate(rows):
        lo, hi = m.interval(confidence)
        colour = HOLDS_COLOUR if lo <= m.no_bias <= hi else EXCLUDES_COLOUR
        ax.plot([lo - m.no_bias, hi - m.no_bias], [y, y], color=colour, lw=3, solid_capstyle="butt")
        marker = "o" if method_of(m) == "exact" else "s"
        ax.scatter([m.value - m.no_bias], [y], color=colour, marker=marker, zorder=3, edgecolor=THEME["background"])
    ax.axvline(0.0, color=NEUTRAL, lw=1, ls="--")
    ax.set_yticks(range(len(rows)), [m.name for m in rows])
    ax.invert_yaxis()
    ax.set_xlabel("metric − no-bias value")
    ax.set_ylabel("bias metric")
    ax.set_title(f"{confidence:.0%} posterior predictive intervals")
    handles = [
        Line2D([], [], color=EXCLUDES_COLOUR, lw=3, label="excludes no bias"),
        Line2D([], [], color=HOLDS_COLOUR, lw=3, label="holds no bias"),
        Line2D([], [], color=NEUTRAL, marker="o", ls="", label="exact"),
        Line2D([], [], color=NEUTRAL, marker="s", ls="", label="Monte Carlo"),
    ]
    ax.legend(handles=handles, fontsize="small", loc="best")


def draw_verdict_grid(ax: Any, grid: Any, *, title: str = "") -> None:
    """Groups × metrics, each cell coloured by its verdict (:data:`~confusionlab.palette.VERDICT_COLOURS`).

    ``grid`` is :meth:`Audit.verdict_table <confusionlab.bias.Audit.verdict_table>`: rows
    ``(facet, group)``, columns metrics, cells verdicts (missing where a group has no
    row for a metric, drawn in the palette's colour for missing values).
    """
    Patch = require("matplotlib.patches", "notebooks", "plot()").Patch

    cells = grid.to_numpy(dtype=object)
    if cells.size == 0:
        ax.text(0.5, 0.5, "no rows to show", ha="center", va="center", transform=ax.transAxes)
        return
    image = np.array([[to_rgb(VERDICT_COLOURS.get(v, MISSING)) for v in row] for row in cells], dtype=float) / 255.0
    ax.imshow(image.reshape(*cells.shape, 3), aspect="auto", interpolation="nearest")
    for (i, j), v in np.ndenumerate(cells):
        ax.text(j, i, SHORT_VERDICTS.get(v, "–"), ha="center", va="center", fontsize="small", color=THEME["foreground"])
    as_written(ax.set_xticks(range(cells.shape[1]), [str(c) for c in grid.columns]))
    as_written(ax.set_yticks(range(cells.shape[0]), [f"{facet}: {group}" for facet, group in grid.index]))
    ax.tick_params(axis="x", top=True, labeltop=True, bottom=False, labelbottom=False)
    handles = [Patch(color=c, label=v) for v, c in VERDICT_COLOURS.items()]
    ax.legend(handles=handles, fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    if title:
        ax.set_title(title)
