"""Contours in ROC space: a metric's levels, families of metrics, MCC's ellipses, a slice's lattice (lessons 02–03)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.ticker import MaxNLocator

from .._validation import InvalidParameterError, check_positive_count
from ..confusion import ConfusionMatrix
from ..contours import contour, mcc_eccentricity
from ..metrics import get_metric
from ._colours import _level_colours, _strong_level_colours
from ._figure import FIGSIZE, axes
from .style import NEUTRAL

#: Largest slice :func:`plot_lattice_contours` draws point by point.
MAX_LATTICE_POINTS = 200_000

#: Shade of the unit square (the rates a test set can reach).
_SQUARE = "0.92"


def default_levels(metric: str) -> list[float]:
    """Four contour levels suited to a metric's range.

    0.2, 0.4, 0.6, 0.8 for metrics in [0, 1]; −0.6, −0.2, 0.2, 0.6 for metrics in
    [−1, 1]; 0.25, 0.5, 2, 4 for the unbounded likelihood and odds ratios.

    Parameters
    ----------
    metric : str
        A key (or alias) of :data:`confusionlab.METRICS`.

    Returns
    -------
    list of float

    Examples
    --------
    >>> default_levels("mcc"), default_levels("lr_plus")
    ([-0.6, -0.2, 0.2, 0.6], [0.25, 0.5, 2.0, 4.0])
    """
    lo, hi = get_metric(metric).range
    if hi == np.inf:
        return [0.25, 0.5, 2.0, 4.0]
    if lo < 0:
        return [-0.6, -0.2, 0.2, 0.6]
    return [0.2, 0.4, 0.6, 0.8]


def plot_contours(
    metric: str,
    p: int,
    n: int,
    *,
    levels: Sequence[float] | None = None,
    window: tuple[float, float, float, float] = (-1.1, 1.6, -1.1, 1.6),
    common_point: tuple[float, float] | None = None,
    ax: Axes | None = None,
) -> Axes:
    """Contours of one metric on the slice (p, n) in ROC space, the unit square shaded.

    Each level is coloured on the metric colour map (red low, blue high) as in the widgets.

    Parameters
    ----------
    metric : str
    p, n : int
        Positives and negatives of the slice.
    levels : sequence of float, optional
        Default :func:`default_levels`.
    window : (x0, x1, y0, y1)
        Region drawn (contours beyond the unit square too).
    common_point : (x, y), optional
        The point a family of lines shares, marked with a dot.
    ax : Axes, optional

    Returns
    -------
    Axes
        One line per drawn polyline (``ax.lines``), plus the common point.
    """
    p, n = check_positive_count(p, "p"), check_positive_count(n, "n")
    name = get_metric(metric).name
    levels = default_levels(name) if levels is None else [float(v) for v in levels]
    ax = axes(ax, (4.0, 4.0))
    ax.add_patch(plt.Rectangle((0, 0), 1, 1, color=_SQUARE, zorder=0))
    for level, colour in zip(levels, _level_colours(name, levels), strict=False):
        for k, line in enumerate(contour(name, level, p=p, n=n, window=window)):
            ax.plot(line[:, 0], line[:, 1], color=colour, lw=1.3, label=f"{level:g}" if k == 0 else None)
    if common_point is not None:
        ax.plot(*common_point, "o", color=NEUTRAL, ms=4)
    ax.set_xlim(window[:2])
    ax.set_ylim(window[2:])
    ax.set_aspect("equal")
    ax.set_xlabel("FPR")
    ax.set_ylabel("TPR")
    ax.set_title(f"{name}:\n{get_metric(name).geometry}", fontsize=8)
    return ax


def plot_contour_families(
    names: Sequence[str],
    p: int,
    n: int,
    *,
    common_points: Mapping[str, tuple[float, float]] | None = None,
    ncols: int = 3,
) -> np.ndarray:
    """A grid of :func:`plot_contours` panels, one per metric (a static figure).

    Returns
    -------
    ndarray of Axes
        One per metric (unused cells removed).
    """
    names = [get_metric(m).name for m in names]
    if not names:
        raise InvalidParameterError("names must list at least one metric")
    ncols = check_positive_count(ncols, "ncols")
    rows = -(-len(names) // ncols)
    fig, axes = plt.subplots(rows, ncols, figsize=(3.6 * ncols, 3.6 * rows), squeeze=False)
    common_points = common_points or {}
    for ax, name in zip(axes.flat, names, strict=False):
        plot_contours(name, p, n, ax=ax, common_point=common_points.get(name))
        ax.legend(fontsize=6, loc="lower right", title="level", title_fontsize=6)
    for ax in axes.flat[len(names) :]:
        ax.remove()
    fig.tight_layout()
    return axes.flat[: len(names)]


def plot_mcc_ellipses(
    slices: Mapping[float, tuple[int, int]],
    *,
    ks: Sequence[float] = (0.25, 0.5, 0.75),
    limits: Mapping[float, tuple[float, float]] | None = None,
) -> np.ndarray:
    """The full MCC = ±k ellipses at several prevalences, one panel per slice.

    Parameters
    ----------
    slices : mapping prevalence → (p, n)
    ks : levels |MCC| drawn (each coloured on the metric colour map)
    limits : mapping prevalence → (lo, hi) of both axes; default (−0.6, 1.6)

    Returns
    -------
    ndarray of Axes
    """
    if not slices:
        raise InvalidParameterError("slices must hold at least one (p, n)")
    limits = limits or {}
    fig, axes = plt.subplots(1, len(slices), figsize=(3.7 * len(slices), 3.9), squeeze=False)
    colours = _level_colours("mcc", ks)
    for ax, (prevalence, (p, n)) in zip(axes[0], slices.items(), strict=False):
        lo, hi = limits.get(prevalence, (-0.6, 1.6))
        ax.add_patch(plt.Rectangle((0, 0), 1, 1, color=_SQUARE, zorder=0))
        for k, colour in zip(ks, colours, strict=False):
            for sign in (1, -1):
                for i, line in enumerate(contour("mcc", sign * k, p=p, n=n, window=(lo, hi, lo, hi))):
                    label = f"|MCC| = {k}" if sign == 1 and i == 0 else None
                    ax.plot(line[:, 0], line[:, 1], color=colour, lw=1.3, label=label)
        ax.plot([0, 1], [0, 1], ":", color=NEUTRAL, lw=0.8)
        e = mcc_eccentricity(0.5, prevalence)
        ax.set_title(f"π = {prevalence:g} (p = {p}, n = {n})\ne(|MCC| = 0.5) = {e:.3f}", fontsize=9)
        ax.set_xlim(lo, hi)
        ax.set_ylim(lo, hi)
        ax.set_aspect("equal")
        ax.set_xlabel("FPR")
        ax.set_ylabel("TPR")
    axes[0, 0].legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    return axes[0]


def plot_eccentricity(
    *,
    ks: Sequence[float] = (0.25, 0.5, 0.75),
    paper: Mapping[float, float] | None = None,
    ax: Axes | None = None,
) -> Axes:
    """Eccentricity of the MCC = ±k ellipse against the prevalence π, one curve per |k|.

    ``paper`` maps prevalences to published eccentricities (for |MCC| = 0.5), drawn as triangles.
    """
    ax = axes(ax, FIGSIZE)
    prevalence = np.linspace(0.005, 0.995, 199)
    for k, colour in zip(ks, _level_colours("mcc", ks), strict=False):
        ax.plot(prevalence, [mcc_eccentricity(k, q) for q in prevalence], color=colour, label=f"|MCC| = {k}")
    if paper:
        ax.plot(list(paper), list(paper.values()), "^", color=NEUTRAL, ms=6, label="paper (|MCC| = 0.5)")
    ax.set_xlabel("prevalence π = p / N")
    ax.set_ylabel("eccentricity of the MCC ellipse")
    ax.set_ylim(0.6, 1.0)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    return ax


def plot_lattice_contours(
    metric: str,
    p: int,
    n: int,
    marked: Mapping[Any, tuple[np.ndarray, np.ndarray]],
    *,
    observed: ConfusionMatrix | None = None,
    ax: Axes | None = None,
) -> Axes:
    """A slice's lattice in ROC space with some contours and the lattice points on them.

    Parameters
    ----------
    metric : str
    p, n : int
    marked : mapping level → (FPR, TPR) arrays
        The lattice points found on each level's contour (drawn as dots on its line).
    observed : ConfusionMatrix, optional
        Drawn as a star.
    ax : Axes, optional

    Returns
    -------
    Axes
        With the counts FP (top) and TP (right) as secondary axes with integer ticks.
    """
    p, n = check_positive_count(p, "p"), check_positive_count(n, "n")
    if (p + 1) * (n + 1) > MAX_LATTICE_POINTS:
        raise InvalidParameterError(
            f"p = {p}, n = {n} gives {(p + 1) * (n + 1):,} lattice points; "
            f"a figure draws at most {MAX_LATTICE_POINTS:,} (take a smaller slice)"
        )
    name = get_metric(metric).name
    ax = axes(ax, (7.5, 4.6))
    tp, tn = np.meshgrid(np.arange(p + 1), np.arange(n + 1), indexing="ij")
    ax.plot(((n - tn) / n).ravel(), (tp / p).ravel(), ".", color="0.75", ms=3, label=f"lattice ({p + 1} × {n + 1})")
    levels = [float(level) for level in marked]
    colours = _strong_level_colours(name, levels)  # the middle of RdBu is too pale on the dots
    for (level, (x, y)), colour in zip(marked.items(), colours, strict=False):
        for line in contour(name, float(level), p=p, n=n, extend=True):
            ax.plot(line[:, 0], line[:, 1], "--", color=colour, lw=0.8)
        for line in contour(name, float(level), p=p, n=n):
            ax.plot(line[:, 0], line[:, 1], color=colour, lw=1.5)
        ax.plot(x, y, "o", color=colour, ms=6, label=f"{get_metric(name).label} = {level}: {len(x)} lattice points")
    if observed is not None:
        ax.plot(observed.fpr, observed.tpr, "*", color=NEUTRAL, ms=13, label="observed")
    ax.add_patch(plt.Rectangle((0, 0), 1, 1, fill=False, color=NEUTRAL, lw=0.8))
    ax.set_aspect("equal")
    ax.set_xlabel(f"FPR = FP / {n}")
    ax.set_ylabel(f"TPR = TP / {p}")
    top = ax.secondary_xaxis("top", functions=(lambda x: x * n, lambda c: c / n))  # the counts, integer ticks
    right = ax.secondary_yaxis("right", functions=(lambda y: y * p, lambda c: c / p))
    for secondary, label in ((top.xaxis, "FP"), (right.yaxis, "TP")):
        secondary.set_major_locator(MaxNLocator(integer=True))
        secondary.set_label_text(label, fontsize=8)
    ax.set_title(f"{get_metric(name).label} contours through the lattice p = {p}, n = {n}", fontsize=9)
    ax.legend(fontsize=8, loc="upper left")
    return ax
