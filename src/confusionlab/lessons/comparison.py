"""Figures of the lessons on class balance, comparing classifiers and test-set size.

Notebooks 05 (class imbalance), 06 and 07 (is my model better? ranking), 10 (the
evaluation workbench), 11 and 12 (how big a test set? assurance) draw with these helpers, so that a lesson cell
reads as one call:

* :func:`plot_sd_curve` — the SD of a metric against a count (the plateau of 05);
* :func:`plot_pmf_histograms` — exact PMFs binned on a common grid, overlaid;
* :func:`plot_difference` — the PMF of A − B with the mass above 0 shaded (06);
* :func:`plot_lower_tail` — P(A − B ≤ x) on a log scale: the far tail a decision reads (06);
* :func:`plot_prob_greater` — P(A > B) against the size of the future test set (06);
* :func:`plot_half_width` — the exact half-width of a planned interval against N (10);
* :func:`class_balance_view` — a prevalence slider driving a :class:`MetricPMF` view (05).

Every plotting helper draws on the ``Axes`` it is given (a new one when ``ax`` is None)
and returns it; every panel gets axis labels and a title; colours come from
:mod:`confusionlab.lessons.style`.

Examples
--------
>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from confusionlab.lessons.comparison import plot_sd_curve
>>> ax = plot_sd_curve([20, 80, 200], [0.0895, 0.0708, 0.0664], xlabel="negatives n", floor=0.06)
>>> len(ax.lines), ax.get_ylabel()
(2, 'SD of the metric')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .._deprecation import renamed_arguments
from .._validation import InvalidParameterError, check_count, check_half_width, check_int, check_probability
from ._figure import axes, pmf_stairs
from .style import DIVERGING_STOPS, MODEL_COLOURS, NEUTRAL, PAIR_COLOURS

__all__ = [
    "BALANCE_COLOURS",
    "class_balance_view",
    "plot_difference",
    "plot_half_width",
    "plot_lower_tail",
    "plot_pmf_histograms",
    "plot_prob_greater",
    "plot_sd_curve",
]

#: Colours of overlaid PMFs, in order: the red end of the metric scale, its blue end, neutral grey.
BALANCE_COLOURS: tuple[str, ...] = (DIVERGING_STOPS[0], DIVERGING_STOPS[-1], NEUTRAL, DIVERGING_STOPS[2])


def _finite_curve(x: Any, y: Any, x_name: str, y_name: str) -> tuple[np.ndarray, np.ndarray]:
    """Two equally long 1-D arrays of finite numbers, or a ValueError naming the argument."""
    arrays = []
    for name, values in ((x_name, x), (y_name, y)):
        try:
            a = np.asarray(values, dtype=float)
        except (TypeError, ValueError):
            raise InvalidParameterError(f"{name} must be a sequence of numbers, got {type(values).__name__}") from None
        if a.ndim != 1 or a.size == 0:
            raise InvalidParameterError(f"{name} must be a non-empty 1-D sequence, got shape {a.shape}")
        if not np.all(np.isfinite(a)):
            raise InvalidParameterError(f"{name} must hold finite numbers only")
        arrays.append(a)
    if arrays[0].size != arrays[1].size:
        raise InvalidParameterError(
            f"{x_name} and {y_name} must have the same length, got {arrays[0].size} and {arrays[1].size}"
        )
    return arrays[0], arrays[1]


def _bins(bins: Any) -> np.ndarray:
    try:
        edges = np.asarray(bins, dtype=float)
    except (TypeError, ValueError):
        raise InvalidParameterError(f"bins must be a sequence of bin edges, got {type(bins).__name__}") from None
    if edges.ndim != 1 or edges.size < 2 or not np.all(np.isfinite(edges)) or np.any(np.diff(edges) <= 0):
        raise InvalidParameterError("bins must be at least two finite, strictly increasing edges")
    return edges


def plot_sd_curve(
    x: Sequence[float],
    sd: Sequence[float],
    *,
    xlabel: str,
    ylabel: str = "SD of the metric",
    title: str = "",
    paper: Mapping[float, float] | None = None,
    floor: float | None = None,
    floor_label: str = "floor",
    log_x: bool = False,
    label: str = "computed (beta-binomial)",
    ax: Any = None,
) -> Any:
    """The SD of a metric against a count, with published values and a floor.

    Parameters
    ----------
    x, sd : sequences of numbers
        The counts (e.g. negatives n) and the SD at each (same length).
    xlabel, ylabel, title : str
        Axis labels and panel title.
    paper : mapping x → SD, optional
        Published values, drawn as black crosses.
    floor : float, optional
        A horizontal reference line (e.g. the plateau sd(TPR)/2), labelled ``floor_label``.
    log_x : bool
        Logarithmic x axis.
    label : str
        Legend entry of the computed curve (drawn in the beta-binomial colour).
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
        Lines drawn: the curve, then the paper's crosses, then the floor.
    """
    xs, ys = _finite_curve(x, sd, "x", "sd")
    ax = axes(ax)
    ax.plot(xs, ys, "o-", ms=4, color=MODEL_COLOURS["beta-binomial"], label=label)
    if paper:
        ax.plot(list(paper), list(paper.values()), "x", ms=8, color="black", label="paper")
    if floor is not None:
        ax.axhline(float(floor), color=NEUTRAL, ls="--", lw=1, label=f"{floor_label} = {float(floor):.4f}")
    if log_x:
        ax.set_xscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title or f"{ylabel} against {xlabel}", fontsize=10)
    ax.set_ylim(0, max(float(ys.max()), float(floor or 0)) * 1.15)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    return ax


def plot_pmf_histograms(
    distributions: Mapping[str, Any],
    bins: Sequence[float],
    *,
    xlabel: str,
    title: str = "",
    colours: Sequence[str] | None = None,
    fill: bool = False,
    ax: Any = None,
) -> Any:
    """Exact PMFs binned on one grid and overlaid as step curves.

    Parameters
    ----------
    distributions : mapping label → MetricDistribution
        Each is drawn as the mass in each bin (the legend adds its SD).
    bins : sequence of numbers
        Common bin edges (strictly increasing).
    xlabel, title : str
    colours : sequence of str, optional
        One per distribution; default :data:`BALANCE_COLOURS`, or the A/B colours of
        :data:`~confusionlab.lessons.style.PAIR_COLOURS` when the labels start with "A" and "B".
    fill : bool
        Fill the areas (translucent).
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
        One step patch per distribution.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np, confusionlab as cl
    >>> d = cl.metric_distribution(cl.ConfusionMatrix(tp=8, fn=2, fp=2, tn=8), "accuracy")
    >>> ax = plot_pmf_histograms({"p = 10": d}, np.linspace(0, 1, 21), xlabel="accuracy")
    >>> len(ax.patches), ax.get_ylabel()
    (1, 'probability per bin of 0.05')
    """
    edges = _bins(bins)
    if not isinstance(distributions, Mapping) or not distributions:
        raise InvalidParameterError("distributions must be a non-empty mapping label -> MetricDistribution")
    labels = list(distributions)
    if colours is None:
        ab = [str(k)[:1] for k in labels]
        colours = [PAIR_COLOURS[k] for k in ab] if ab in (["A", "B"], ["A"], ["B"]) else list(BALANCE_COLOURS)
    if len(colours) < len(labels):
        raise InvalidParameterError(
            f"colours must give one colour per distribution ({len(labels)}), got {len(colours)}"
        )
    ax = axes(ax)
    pmf_stairs(ax, distributions, edges, colours[: len(labels)], fill=fill, alpha=0.4 if fill else 1.0)
    widths = np.diff(edges)
    per = f" of {widths[0]:.3g}" if np.allclose(widths, widths[0]) else ""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(f"probability per bin{per}")
    ax.set_title(title or f"PMF of {xlabel}", fontsize=10)
    ax.legend(fontsize=8)
    return ax


def plot_difference(
    difference: Any,
    prob_greater: float,
    *,
    bins: Sequence[float],
    xlabel: str = "metric difference A − B",
    title: str = "",
    ax: Any = None,
) -> Any:
    """The PMF of A − B, binned, with the bins at or above 0 shaded in A's colour.

    Parameters
    ----------
    difference : MetricDistribution
        The distribution of A − B (``compare(...).difference`` or a paired comparison's).
    prob_greater : float
        P(A > B), written in the legend.
    bins : sequence of numbers
        Bin edges.
    xlabel, title : str
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
        Two step patches (all bins, the shaded ones) and a vertical line at 0.
    """
    edges = _bins(bins)
    p = check_probability(prob_greater, "prob_greater")
    ax = axes(ax)
    mass, _ = np.histogram(difference.values, bins=edges, weights=difference.probabilities)
    ax.stairs(mass, edges, color=NEUTRAL)
    shaded = np.where(edges[:-1] >= 0, mass, 0.0)
    ax.stairs(shaded, edges, color=PAIR_COLOURS["A"], fill=True, alpha=0.4, label=f"P(A > B) = {p:.3f}")
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(f"probability per bin of {edges[1] - edges[0]:.3g}")
    ax.set_title(title or "difference A − B", fontsize=10)
    ax.legend(fontsize=8)
    return ax


def plot_lower_tail(
    distributions: Mapping[str, Any],
    *,
    upto: float,
    xlabel: str = "x",
    title: str = "",
    colours: Sequence[str] | None = None,
    ax: Any = None,
) -> Any:
    """The lower tail P(X ≤ x) of each distribution up to ``upto``, on a log scale.

    Two distributions of A − B can look alike as histograms yet differ threefold in P(A − B ≤ 0):
    the tail drawn on a log scale shows it. The legend gives each P(X ≤ 0).

    Parameters
    ----------
    distributions : mapping label → MetricDistribution
        Each is drawn as the step curve of its CDF over its values at or below ``upto``.
    upto : float
        The largest x drawn.
    xlabel, title : str
    colours : sequence of str, optional
        One per distribution; default :data:`BALANCE_COLOURS`.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
        One step line per distribution (log-scaled y) and a vertical line at 0.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import confusionlab as cl
    >>> a = cl.metric_distribution(cl.ConfusionMatrix(tp=8, fn=2, fp=2, tn=8), "accuracy", target="true_value")
    >>> b = cl.metric_distribution(cl.ConfusionMatrix(tp=6, fn=4, fp=3, tn=7), "accuracy", target="true_value")
    >>> ax = plot_lower_tail({"A − B": cl.compare(a, b).difference}, upto=0.1)
    >>> ax.get_yscale(), ax.get_legend().get_texts()[0].get_text()
    ('log', 'A − B: P(X ≤ 0) = 0.15')
    """
    if not isinstance(distributions, Mapping) or not distributions:
        raise InvalidParameterError("distributions must be a non-empty mapping label -> MetricDistribution")
    if isinstance(upto, bool) or not isinstance(upto, (int, float)) or not np.isfinite(upto):
        raise InvalidParameterError(f"upto must be a finite number, got {upto!r}")
    colours = list(BALANCE_COLOURS) if colours is None else list(colours)
    if len(colours) < len(distributions):
        raise InvalidParameterError(
            f"colours must give one colour per distribution ({len(distributions)}), got {len(colours)}"
        )
    ax = axes(ax)
    for (label, d), colour in zip(distributions.items(), colours, strict=False):
        values, cdf = np.asarray(d.values, dtype=float), np.cumsum(d.probabilities)
        keep = values <= upto
        at_zero = float(cdf[values <= 0][-1]) if np.any(values <= 0) else 0.0
        ax.step(values[keep], cdf[keep], where="post", color=colour, label=f"{label}: P(X ≤ 0) = {at_zero:.2g}")
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(f"P(X ≤ {xlabel})" if len(xlabel) <= 12 else "P(X ≤ x)")
    ax.set_title(title or "the lower tail (log scale)", fontsize=10)
    ax.legend(fontsize=8)
    return ax


def plot_prob_greater(
    sizes: Sequence[float],
    probabilities: Sequence[float],
    *,
    limit: float | None = None,
    xlabel: str = "future test-set size N",
    ylabel: str = "P(A > B)",
    title: str = "",
    log_y: bool = False,
    label: str = "",
    ax: Any = None,
) -> Any:
    """A probability (P(A > B), or P(A ≤ B) with ``log_y``) against the future test-set size.

    Parameters
    ----------
    sizes : sequence of numbers
        Future test-set sizes (positive; the x axis is logarithmic).
    probabilities : sequence of numbers in [0, 1]
        The probability at each size.
    limit : float, optional
        The limit as the future test set grows (the true-value answer), a dashed line.
    xlabel, ylabel, title, label : str
    log_y : bool
        Logarithmic y axis (for probabilities near 0, such as P(A ≤ B)).
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
        Lines drawn: the curve (model A's colour), then the limit.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> ax = plot_prob_greater([60, 120, 600], [0.72, 0.76, 0.80], limit=0.81)
    >>> [line.get_linestyle() for line in ax.lines]
    ['-', '--']
    """
    xs, ys = _finite_curve(sizes, probabilities, "sizes", "probabilities")
    if np.any(xs <= 0):
        raise InvalidParameterError("sizes must be positive")
    if np.any((ys < 0) | (ys > 1)):
        raise InvalidParameterError("probabilities must lie in [0, 1]")
    if limit is not None:
        limit = check_probability(limit, "limit")
    ax = axes(ax)
    ax.plot(xs, ys, "o-", ms=4, color=PAIR_COLOURS["A"], label=label or ylabel)
    if limit is not None:
        ax.axhline(limit, color=NEUTRAL, ls="--", lw=1, label=f"limit (true values): {limit:.4g}")
    ax.set_xscale("log")
    if log_y:
        ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title or f"{ylabel} as the future test set grows", fontsize=10)
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)
    return ax


@renamed_arguments(target="half_width")
def plot_half_width(
    sizes: Sequence[float],
    exact: Sequence[float],
    *,
    half_width: float,
    plan_size: int,
    plan_half_width: float,
    approx: Sequence[float] | None = None,
    title: str = "",
    ax: Any = None,
) -> Any:
    """The exact half-width of a planned interval against N (a staircase), with the requested half-width and the plan.

    Parameters
    ----------
    sizes, exact : sequences of numbers
        Test-set sizes N and the exact half-width at each.
    half_width : float
        The half-width asked for (dashed line); ``target=`` is its old name.
    plan_size, plan_half_width : int, float
        The planned N and its half-width (an open circle).
    approx : sequence of numbers, optional
        A smooth approximation at the same sizes (grey line).
    title : str
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
        Lines drawn: the staircase, the approximation (if given), the requested half-width, the plan.
    """
    xs, ys = _finite_curve(sizes, exact, "sizes", "exact")
    plan_size = check_count(plan_size, "plan_size")
    half_width = check_half_width(half_width)
    ax = axes(ax)
    ax.step(xs, ys, where="post", color=MODEL_COLOURS["beta-binomial"], label="exact half-width")
    if approx is not None:
        _, ya = _finite_curve(sizes, approx, "sizes", "approx")
        ax.plot(xs, ya, lw=1, color=NEUTRAL, alpha=0.7, label="normal approximation")
    ax.axhline(half_width, ls="--", color=DIVERGING_STOPS[0], label=f"requested ± {half_width:g}")
    ax.plot([plan_size], [float(plan_half_width)], "o", mfc="none", ms=10, color=DIVERGING_STOPS[0],
            label=f"plan N = {plan_size}")  # fmt: skip
    ax.set_xlabel("test-set size N")
    ax.set_ylabel("half-width of the 95% interval")
    ax.set_title(title or "exact half-width against N", fontsize=10)
    ax.legend(fontsize=8)
    return ax


def class_balance_view(
    N: int = 1000,
    *,
    tpr: float = 0.8,
    tnr: float = 0.8,
    metric: str = "balanced_accuracy",
    prevalence: float = 0.01,
    width: int = 420,
) -> Any:
    """A prevalence slider above a :class:`~confusionlab.widgets.metric_pmf.MetricPMF` view.

    The slider sets π; the view shows the beta-binomial PMF of ``metric`` for a test set
    of ``N`` examples with p = ⌊π·N + ½⌋ positives and the rates ``tpr`` and ``tnr``
    (counts rounded as :func:`confusionlab.planner.plan_counts` does).

    Parameters
    ----------
    N : int
        Size of the test set (2 to 20,000).
    tpr, tnr : float
        The classifier's rates.
    metric : str
        A key of :data:`confusionlab.METRICS`.
    prevalence : float
        Initial π (the slider runs from 0.005 to 0.5 in steps of 0.005).
    width : int
        Width of the PMF panel in CSS pixels.

    Returns
    -------
    ipywidgets.VBox
        ``children`` = (slider, MetricPMF); ``box.pmf`` is the view, ``box.slider`` the slider.

    Examples
    --------
    >>> box = class_balance_view(200, prevalence=0.05)
    >>> box.pmf.p, box.pmf.tp
    (10, 8)
    >>> box.slider.value = 0.5
    >>> box.pmf.p, box.pmf.n, box.pmf.tp, box.pmf.tn
    (100, 100, 80, 80)
    """
    import ipywidgets as widgets

    from ..planner import plan_counts
    from ..widgets.metric_pmf import MetricPMF

    N = check_int(N, "N", minimum=2, maximum=20_000)
    tpr = check_probability(tpr, "tpr")
    tnr = check_probability(tnr, "tnr")
    prevalence = check_probability(prevalence, "prevalence")
    prevalence = min(0.5, max(0.005, round(prevalence / 0.005) * 0.005))

    def counts(pi: float) -> dict[str, int]:
        p, n, tp, tn = plan_counts(N, pi, tpr, tnr)
        return {"p": p, "n": n, "tp": tp, "tn": tn}

    pmf = MetricPMF(**counts(prevalence), metric=metric, models=["beta-binomial"], width=width)
    slider = widgets.FloatSlider(
        value=prevalence,
        min=0.005,
        max=0.5,
        step=0.005,
        readout_format=".3f",
        description="prevalence π",
        continuous_update=False,
        style={"description_width": "initial"},
        layout=widgets.Layout(width=f"{width}px"),
    )
    slider.observe(lambda change: pmf.update(**counts(change["new"])), "value")
    box = widgets.VBox([slider, pmf])
    box.pmf, box.slider = pmf, slider
    return box
