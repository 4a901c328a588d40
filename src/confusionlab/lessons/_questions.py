"""The three questions about one observed matrix: their distributions and their panels (lesson 01)."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes

from .. import palette
from .._validation import check_confidence
from ..confusion import ConfusionMatrix
from ..distribution import MetricDistribution, metric_distribution
from ..metrics import get_metric
from ._figure import bin_edges
from .style import NEUTRAL

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
        bins = bin_edges(float(d.values[finite].min()), float(d.values[finite].max()), bin_width)
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
