"""PMF panels: one distribution as sticks, the two slice models side by side, multiplicities (lessons 01, 03)."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.ticker import MaxNLocator

from .._validation import DEFAULT_TOLERANCE, check_choice, check_confidence, check_tolerance
from ..confusion import ConfusionMatrix
from ..distribution import MetricDistribution, metric_distribution
from ..metrics import get_metric
from ..models import SLICE_MODELS
from ._figure import FIGSIZE, axes
from .style import MODEL_COLOURS, NEUTRAL


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
    ax = axes(ax, FIGSIZE)
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
    ax = axes(ax, FIGSIZE)
    finite = np.isfinite(dist.values)
    ax.vlines(dist.values[finite], 0, dist.multiplicities[finite], color=NEUTRAL, lw=0.8)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("lattice points")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    if title is None:
        title = f"{get_metric(dist.metric).label}: {len(dist)} distinct values"
    ax.set_title(title, fontsize=9)
    return ax
