"""Figures of the lessons on metric distributions (notebooks 01–04).

PMF panels of the two uncertainty models, multiplicities on a slice, contour
families and MCC ellipses in ROC space, a slice's lattice with the points on a
contour, and the 1/√N shrinkage pictures. Every helper draws on the matplotlib
``Axes`` it is given (or on a new one), puts a title on every axis and returns the
axes; colours come from :mod:`confusionlab.lessons.style`.

Examples
--------
>>> import matplotlib
>>> matplotlib.use("Agg")
>>> import confusionlab as cl
>>> from confusionlab.lessons.distributions import plot_pmf
>>> d = cl.metric_distribution(cl.ConfusionMatrix(tp=16, fn=4, fp=8, tn=32), "balanced_accuracy", tolerance=0)
>>> ax = plot_pmf(d, model="beta-binomial", xlabel="balanced accuracy")
>>> ax.get_xlabel(), ax.get_ylabel(), len(ax.collections[0].get_segments())
('balanced accuracy', 'probability', 81)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.colors import to_rgb
from matplotlib.ticker import MaxNLocator

from .. import palette
from .._validation import (
    DEFAULT_TOLERANCE,
    InvalidParameterError,
    check_choice,
    check_confidence,
    check_positive_count,
    check_tolerance,
)
from ..confusion import ConfusionMatrix
from ..contours import contour, mcc_eccentricity
from ..distribution import MetricDistribution, metric_distribution
from ..metrics import get_metric
from ..models import SLICE_MODELS
from ._figure import axes, pmf_stairs
from .style import METRIC_CMAP, MODEL_COLOURS, NEUTRAL

__all__ = [
    "MAX_BINS",
    "MAX_LATTICE_POINTS",
    "MAX_SHADES",
    "MODELS",
    "QUESTIONS",
    "darker",
    "default_levels",
    "plot_contour_families",
    "plot_contours",
    "plot_eccentricity",
    "plot_intervals",
    "plot_lattice_contours",
    "plot_mcc_ellipses",
    "plot_model_pair",
    "plot_multiplicities",
    "plot_pmf",
    "plot_pmf_histograms",
    "plot_sd_loglog",
    "plot_three_questions",
    "shades",
    "three_questions",
]

#: The two slice models, in the order the lessons show them (an alias of
#: :data:`confusionlab.models.SLICE_MODELS`).
MODELS: tuple[str, ...] = SLICE_MODELS

#: Largest slice :func:`plot_lattice_contours` draws point by point.
MAX_LATTICE_POINTS = 200_000

#: Most histogram bins a figure draws.
MAX_BINS = 100_000

#: Most shades :func:`shades` makes (one per curve of a figure).
MAX_SHADES = 1_000

#: Size of a lesson's single-panel figure (inches).
_FIGSIZE = (6.0, 3.6)

#: Shade of the unit square (the rates a test set can reach).
_SQUARE = "0.92"


def _bins(lo: float, hi: float, bin_width: Any) -> np.ndarray:
    """Edges of bins of ``bin_width`` covering [lo, hi], at most :data:`MAX_BINS` of them."""
    if isinstance(bin_width, bool) or not isinstance(bin_width, (int, float)) or not 0 < bin_width <= 1:
        raise InvalidParameterError(f"bin_width must be a number in (0, 1], got {bin_width!r}")
    if (hi - lo) / bin_width + 2 > MAX_BINS:
        raise InvalidParameterError(f"bin_width={bin_width!r} gives more than {MAX_BINS:,} bins over [{lo:g}, {hi:g}]")
    start = np.floor(lo / bin_width) * bin_width
    return np.arange(start, hi + 2 * bin_width, bin_width)


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


# --------------------------------------------------------------------------- PMFs
def plot_pmf(
    dist: MetricDistribution,
    *,
    ax: Axes | None = None,
    model: str = "beta-binomial",
    xlabel: str = "metric value",
    confidence: float | None = None,
    title: str | None = None,
    legend: bool = False,
) -> Axes:
    """One PMF as sticks, one per distinct value, with its mean (and a central interval).

    Parameters
    ----------
    dist : MetricDistribution
        From :func:`confusionlab.metric_distribution`.
    ax : Axes, optional
    model : {"binomial", "beta-binomial", "dirichlet-multinomial"}
        Picks the colour (:data:`~confusionlab.lessons.style.MODEL_COLOURS`).
    xlabel : str
        Axis title under the panel (the metric's name).
    confidence : float, optional
        Shade the central interval of this mass.
    title : str, optional
        Panel title; default: number of values, mean and SD.
    legend : bool
        Add a legend: the sticks (labelled with the model), the interval and the mean.

    Returns
    -------
    Axes
        Sticks in ``ax.collections[0]``; the mean is the line labelled ``"mean"``.
    """
    model = check_choice(model, "model", tuple(MODEL_COLOURS))
    ax = axes(ax, _FIGSIZE)
    colour = MODEL_COLOURS[model]
    finite = np.isfinite(dist.values)
    ax.vlines(dist.values[finite], 0, dist.probabilities[finite], color=colour, lw=1.0, label=f"{model} PMF")
    mean = dist.mean()
    if confidence is not None:
        lo, hi = dist.interval(check_confidence(confidence))
        ax.axvspan(lo, hi, color=colour, alpha=0.12, label=f"central {confidence:.0%} interval")
    ax.axvline(mean, color=NEUTRAL, lw=1.0, ls="--", label="mean")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("probability")
    ax.set_ylim(bottom=0)
    if title is None:
        title = f"{model}: {len(dist)} values, mean {mean:.3f}, sd {dist.std():.3f}"
    ax.set_title(title, fontsize=9)
    if legend:
        ax.legend(fontsize=7, loc="upper left")
    return ax


def plot_model_pair(
    cm: ConfusionMatrix,
    metric: str,
    *,
    tolerance: float = DEFAULT_TOLERANCE,
    confidence: float = 0.95,
    axes: Sequence[Axes] | None = None,
) -> np.ndarray:
    """The PMF of ``metric`` under the binomial (left) and beta-binomial (right) models.

    Both panels share their axes, so the beta-binomial's wider spread shows at a glance;
    the observed value is a solid grey line.

    Parameters
    ----------
    cm : ConfusionMatrix
        The observed matrix (a new test set of the same size is predicted).
    metric : str
        A key of :data:`confusionlab.METRICS`.
    tolerance : float
        Tail mass each marginal may drop (as in :func:`confusionlab.metric_distribution`).
    confidence : float
        Mass of the shaded central interval.
    axes : pair of Axes, optional

    Returns
    -------
    ndarray of two Axes
    """
    tolerance = check_tolerance(tolerance)
    name = get_metric(metric).name
    new_figure = axes is None
    if axes is None:
        _, axes = plt.subplots(1, 2, figsize=(11, 3.4), sharex=True, sharey=True)
    axes = np.asarray(axes)
    observed = float(get_metric(name).values(cm.tp, cm.fn, cm.fp, cm.tn))
    lo, hi = np.inf, -np.inf
    for ax, model in zip(axes, SLICE_MODELS, strict=False):
        d = metric_distribution(cm, name, model, tolerance=tolerance)
        plot_pmf(d, ax=ax, model=model, xlabel=get_metric(name).label, confidence=confidence)
        ax.axvline(observed, color=NEUTRAL, lw=1.0, label=f"observed {observed:.3f}")
        ax.legend(fontsize=7, loc="upper left")
        lo, hi = min(lo, float(d.ppf(1e-6))), max(hi, float(d.ppf(1 - 1e-6)))
    if np.isfinite(lo) and np.isfinite(hi) and hi > lo:  # zoom on all but 1e-6 of the mass
        pad = 0.05 * (hi - lo)
        for ax in axes:
            ax.set_xlim(lo - pad, hi + pad)
    if new_figure:
        axes[0].figure.tight_layout()
    return axes


def plot_multiplicities(
    dist: MetricDistribution, *, ax: Axes | None = None, xlabel: str = "metric value", title: str | None = None
) -> Axes:
    """How many lattice points give each distinct value (``dist.multiplicities``).

    The count axis has integer ticks only. The default title names the metric by its label.

    Returns
    -------
    Axes
        Sticks in ``ax.collections[0]``.
    """
    ax = axes(ax, _FIGSIZE)
    finite = np.isfinite(dist.values)
    ax.vlines(dist.values[finite], 0, dist.multiplicities[finite], color=NEUTRAL, lw=0.8)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("lattice points")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    if title is None:
        title = f"{get_metric(dist.metric).label}: {len(dist)} distinct values"
    ax.set_title(title, fontsize=9)
    return ax


# ----------------------------------------------------------------------- contours
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
    ax = axes(ax, _FIGSIZE)
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


# ---------------------------------------------------------------------- shrinkage
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
    bins = _bins(lo, hi, bin_width)
    ax = axes(ax, _FIGSIZE)
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
        bins = _bins(float(d.values[finite].min()), float(d.values[finite].max()), bin_width)
        mass, _ = np.histogram(d.values[finite], bins=bins, weights=d.probabilities[finite])
        ax.stairs(mass, bins, color=colour, label=model)
        ax.axvspan(*d.interval(confidence), color=colour, alpha=0.12)
    ax.axvline(observed, color=NEUTRAL, lw=1, label=f"observed {observed:.3f}")
    ax.set_xlabel(f"{xlabel} (shaded: central {confidence:.0%} intervals)")
    ax.set_ylabel(f"probability per {bin_width:g}")
    ax.legend(fontsize=8)
    return ax


# ------------------------------------------------------------------ three questions
#: The three questions of lesson 01, in the order it shows them: (label, model, target).
QUESTIONS: tuple[tuple[str, str, str], ...] = (
    ("sampling distribution (binomial plug-in)", "binomial", "next_test_set"),
    ("true value (posterior)", "beta-binomial", "true_value"),
    ("next test set (predictive)", "beta-binomial", "next_test_set"),
)


def three_questions(cm: ConfusionMatrix, metric: str) -> dict[str, MetricDistribution]:
    """The distributions behind the three questions about one observed matrix, keyed by label.

    The sampling distribution of the metric (the binomial plug-in, what a row bootstrap
    stratified by class gives), the posterior of its true value (Jeffreys' prior, the
    library's default there) and the predictive distribution on the next test set of the same
    size (uniform prior, the default there).

    Examples
    --------
    >>> import confusionlab as cl
    >>> d = three_questions(cl.ConfusionMatrix(tp=16, fn=4, fp=8, tn=32), "mcc")
    >>> [round(x.std(), 3) for x in d.values()]
    [0.106, 0.104, 0.151]
    """
    name = get_metric(metric).name
    return {label: metric_distribution(cm, name, model, target=target) for label, model, target in QUESTIONS}


def plot_three_questions(
    cm: ConfusionMatrix,
    metric: str,
    *,
    confidence: float = 0.95,
    bin_width: float = 0.02,
    axes: Sequence[Axes] | None = None,
) -> np.ndarray:
    """The three questions side by side: one histogram panel each, on shared axes.

    Each panel shades its central ``confidence`` interval and says its SD in the title;
    the observed value is a solid grey line. Colours: the binomial plug-in orange, the
    true value's posterior dark blue-grey, the next test set blue (as in every view).

    Returns
    -------
    ndarray of three Axes
        ``ax.patches[0]`` is the histogram (a step patch), ``ax.patches[1]`` the interval.
    """
    confidence = check_confidence(confidence)
    name = get_metric(metric).name
    dists = three_questions(cm, name)
    new_figure = axes is None
    if axes is None:
        _, axes = plt.subplots(1, 3, figsize=(13, 3.3), sharex=True, sharey=True)
    axes = np.asarray(axes)
    observed = float(get_metric(name).values(cm.tp, cm.fn, cm.fp, cm.tn))
    for ax, ((label, model, target), d) in zip(axes, zip(QUESTIONS, dists.values(), strict=True), strict=False):
        colour = palette.MODEL_COLOURS["true_value" if target == "true_value" else model]
        finite = np.isfinite(d.values)
        bins = _bins(float(d.values[finite].min()), float(d.values[finite].max()), bin_width)
        mass, _ = np.histogram(d.values[finite], bins=bins, weights=d.probabilities[finite])
        ax.stairs(mass, bins, color=colour, fill=True, alpha=0.6, label=label)
        lo, hi = d.interval(confidence)
        ax.axvspan(lo, hi, color=colour, alpha=0.12, label=f"central {confidence:.0%}: [{lo:.2f}, {hi:.2f}]")
        ax.axvline(observed, color=NEUTRAL, lw=1.0, label=f"observed {observed:.3f}")
        ax.set_title(f"{label}\nSD {d.std():.3f}", fontsize=9)
        ax.set_xlabel(get_metric(name).label)
        ax.legend(fontsize=7, loc="upper left")
    axes[0].set_ylabel(f"probability per {bin_width:g}")
    widest = list(dists.values())[-1]  # the next test set: zoom on all but 1e-4 of its mass
    lo, hi = float(widest.ppf(1e-4)), float(widest.ppf(1 - 1e-4))
    if np.isfinite(lo) and np.isfinite(hi) and hi > lo:
        pad = 0.05 * (hi - lo)
        axes[0].set_xlim(lo - pad, hi + pad)
    if new_figure:
        axes[0].figure.tight_layout()
    return axes
