"""Shrinkage pictures: PMFs at growing N, SD against N on log-log axes, the two models' intervals (lesson 04)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from matplotlib.axes import Axes

from .._validation import InvalidParameterError, check_choice, check_confidence
from ..distribution import MetricDistribution
from ._colours import shades
from ._figure import FIGSIZE, axes, bin_edges, pmf_stairs
from .style import MODEL_COLOURS, NEUTRAL


def plot_pmf_histograms(
    dists: Mapping[str, MetricDistribution],
    *,
    model: str = "beta-binomial",
    bin_width: float = 0.005,
    xlabel: str = "metric value",
    ax: Axes | None = None,
) -> Axes:
    """Several PMFs of one model as histograms (mass per bin), light to dark in the model's colour.

    Parameters
    ----------
    dists : mapping label → MetricDistribution
        Drawn in order, e.g. growing N.
    model : str
        Picks the colour family.
    bin_width : float
        Width of the bins (the PMFs can hold hundreds of thousands of values).

    Returns
    -------
    Axes
        One step line (``ax.patches``) per distribution.
    """
    model = check_choice(model, "model", tuple(MODEL_COLOURS))
    if not dists:
        raise InvalidParameterError("dists must hold at least one distribution")
    lo = min(float(np.min(d.values[np.isfinite(d.values)])) for d in dists.values())
    hi = max(float(np.max(d.values[np.isfinite(d.values)])) for d in dists.values())
    bins = bin_edges(lo, hi, bin_width)
    ax = axes(ax, FIGSIZE)
    pmf_stairs(ax, dists, bins, shades(MODEL_COLOURS[model], len(dists)), lw=1.3)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(f"probability per bin of {bin_width:g}")
    ax.set_title(f"{model} model", fontsize=10)
    ax.legend(fontsize=8)
    return ax


def plot_sd_loglog(
    sizes: Sequence[int],
    sds: Mapping[tuple[str, str], Sequence[float]],
    *,
    paper: Mapping[tuple[str, str], Sequence[tuple[int, float]]] | None = None,
    ax: Axes | None = None,
) -> dict[tuple[str, str], float]:
    """SD against test-set size on log–log axes, one line per (metric, model), with fitted slopes.

    Parameters
    ----------
    sizes : test-set sizes N
    sds : mapping (metric, model) → SD at each size
    paper : mapping (metric, model) → [(N, published SD), …], drawn as crosses
    ax : Axes, optional

    Returns
    -------
    dict
        The least-squares slope of log SD on log N for each (metric, model).
    """
    ax = axes(ax, (6.5, 4.0))
    sizes = np.asarray(sizes, dtype=float)
    markers = {}
    slopes: dict[tuple[str, str], float] = {}
    for (name, model), values in sds.items():
        y = np.asarray(values, dtype=float)
        if y.shape != sizes.shape or np.any(y <= 0) or np.any(sizes <= 0):
            raise InvalidParameterError(f"sds[{(name, model)!r}] must hold one positive SD per size")
        b = float(np.polyfit(np.log(sizes), np.log(y), 1)[0])
        slopes[name, model] = b
        marker = markers.setdefault(name, "osD^v"[len(markers) % 5])
        style = "--" if model == "binomial" else "-"
        ax.plot(sizes, y, marker + style, color=MODEL_COLOURS.get(model, NEUTRAL), ms=5,
                label=f"{name}, {model}: slope {b:.3f}")  # fmt: skip
    for points in (paper or {}).values():
        if points:
            ax.plot(*zip(*points, strict=False), "x", color=NEUTRAL, ms=7)
    if paper:
        ax.plot([], [], "x", color=NEUTRAL, label="paper")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("test-set size N")
    ax.set_ylabel("SD of the metric")
    ax.set_xticks(sizes, [f"{s:g}" for s in sizes])
    ax.minorticks_off()
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    return slopes


def plot_intervals(
    dists: Mapping[str, MetricDistribution],
    *,
    observed: float,
    confidence: float = 0.95,
    bin_width: float = 0.02,
    xlabel: str = "metric value",
    ax: Axes | None = None,
) -> Axes:
    """PMFs of the two models as histograms with their central intervals shaded.

    Parameters
    ----------
    dists : mapping model → MetricDistribution
    observed : the observed metric value (a solid grey line)
    confidence : mass of the central interval
    bin_width : histogram bin width

    Returns
    -------
    Axes
    """
    confidence = check_confidence(confidence)
    ax = axes(ax, (7.5, 3.0))
    for model, d in dists.items():
        colour = MODEL_COLOURS[check_choice(model, "model", tuple(MODEL_COLOURS))]
        finite = np.isfinite(d.values)
        bins = bin_edges(float(d.values[finite].min()), float(d.values[finite].max()), bin_width)
        mass, _ = np.histogram(d.values[finite], bins=bins, weights=d.probabilities[finite])
        ax.stairs(mass, bins, color=colour, label=model)
        ax.axvspan(*d.interval(confidence), color=colour, alpha=0.12)
    ax.axvline(observed, color=NEUTRAL, lw=1, label=f"observed {observed:.3f}")
    ax.set_xlabel(f"{xlabel} (shaded: central {confidence:.0%} intervals)")
    ax.set_ylabel(f"probability per {bin_width:g}")
    ax.legend(fontsize=8)
    return ax
