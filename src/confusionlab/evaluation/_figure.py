"""The figures of an evaluation: the metric's distribution per group, for slides, PNGs and pages."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._deps import require
from .._text import as_written
from ..palette import NEUTRAL, SOURCE_COLOURS
from ._metrics import metric_label

if TYPE_CHECKING:
    from ._result import Evaluation

__all__: list[str] = []

_TEST, _REFIT = SOURCE_COLOURS["test set"], SOURCE_COLOURS["refit"]
#: A PMF with more distinct values than this is drawn binned (:func:`draw_pmf`).
MAX_STICKS = 600
#: Bins of a binned PMF.
PMF_BINS = 200


def _shown(ev: Evaluation, max_groups: int) -> list[Any]:
    """The groups drawn: the last ``max_groups`` (the whole test set is the last group)."""
    return ev.groups[-max_groups:] if len(ev.groups) > max_groups else list(ev.groups)


def evaluation_figure(ev: Evaluation, metric: str, confidence: float, max_groups: int) -> Any:
    """Per group, the metric's PMF with its interval and the refits' means, and the
    decomposition of its spread into the test-set and refit shares of the variance."""
    Figure = require("matplotlib.figure", "notebooks", "the figure of plot() and to_html()").Figure

    names = _shown(ev, max_groups)
    fig = Figure(figsize=(9, 1.6 * len(names) + 0.8), layout="constrained")
    axes = fig.subplots(len(names), 2, squeeze=False, width_ratios=[3, 1])
    as_written(fig.suptitle(ev.question(metric), fontsize=10))
    for row, name in enumerate(names):
        d = ev.distribution(metric, name)
        ax, bar = axes[row]
        top = draw_pmf(ax, d.values, d._p)
        interval = ev.interval_of(metric, confidence, name)  # with cluster=: the cluster-robust one
        lo, hi = interval
        ax.axvspan(lo, hi, color=_TEST, alpha=0.08)
        if ev.n_refits:
            means = ev.refit_means(metric, name)
            ax.plot(means, np.full(len(means), top * 1.05), "|", color=_REFIT, markersize=10)
        flag = "  (too small to say)" if ev.too_small(metric, name) else ""
        clusters = getattr(interval, "n_clusters", None)
        if clusters is not None:
            flag += f"  (clustered interval, {clusters} clusters; the sticks take the rows as independent)"
        as_written(
            ax.set_title(f"{name}: {ev.value_of(metric, name):.3f} [{lo:.3f}, {hi:.3f}]{flag}", fontsize=9, loc="left")
        )
        ax.set_yticks([])
        dec = ev.decompose(metric, name)
        total = dec["total_sd"] ** 2 or 1.0
        share = dec["test_set_sd"] ** 2 / total
        bar.barh([0], [share], color=_TEST, label="test set")
        bar.barh([0], [1 - share], left=[share], color=_REFIT, label="refit")
        bar.set_xlim(0, 1)
        bar.set_yticks([])
        bar.set_title(f"sd {dec['total_sd']:.3f}", fontsize=9)
    as_written(axes[-1][0].set_xlabel(metric))
    axes[-1][1].set_xlabel("share of variance")
    if ev.n_refits:
        axes[0][1].legend(fontsize=7, loc="lower right")
    return fig


def draw_pmf(ax: Any, values: np.ndarray, probabilities: np.ndarray) -> float:
    """The finite part of a PMF: one stick per value up to :data:`MAX_STICKS` values, beyond that
    its mass in :data:`PMF_BINS` equal bins drawn as a step (a refit mixture holds millions of
    values: their sticks were a solid block and took minutes). Returns the tallest height drawn."""
    finite = np.isfinite(values)
    values, probabilities = values[finite], probabilities[finite]
    if values.size <= MAX_STICKS:
        ax.vlines(values, 0, probabilities, color=_TEST, linewidth=1)
        return float(probabilities.max()) if probabilities.size else 0.0
    mass, edges = np.histogram(values, bins=PMF_BINS, weights=probabilities)
    ax.stairs(mass, edges, color=_TEST, fill=True, alpha=0.6)
    ax.set_ylabel("probability per bin", fontsize=7)
    return float(mass.max())


def draw_intervals(ev: Evaluation, ax: Any, metric: str, confidence: float, max_groups: int) -> None:
    """Into one Axes: per group, the central interval (a bar), the observed value (a dot) and
    the refits' means (ticks); groups too small to say anything are marked."""
    names = _shown(ev, max_groups)
    for row, name in enumerate(names):
        lo, hi = ev.interval_of(metric, confidence, name)
        ax.plot([lo, hi], [row, row], color=_TEST, linewidth=4, alpha=0.5, solid_capstyle="butt")
        ax.plot([ev.value_of(metric, name)], [row], "o", color=NEUTRAL, markersize=5)
        if ev.n_refits:
            means = ev.refit_means(metric, name)
            ax.plot(means, np.full(len(means), row), "|", color=_REFIT, markersize=9)
    ax.set_yticks(range(len(names)))
    as_written(
        ax.set_yticklabels([f"{n} (too small)" if ev.too_small(metric, n) else str(n) for n in names], fontsize=8)
    )
    ax.set_ylim(-0.6, len(names) - 0.4)
    ax.set_xlabel(f"{metric_label(metric)}: observed (dot), {confidence:.0%} interval (bar)")
    as_written(ax.set_title(ev.question(metric), fontsize=9))
