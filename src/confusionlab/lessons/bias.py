"""Figures and small tables of the bias lessons (notebooks 08 and 13).

A bias report holds one metric per row, each with a posterior predictive interval that is
either exact (computed on the lattice of the two facets' counts) or Monte Carlo (drawn from
the Dirichlet-multinomial model). :func:`interval_frame` tabulates both facts and
:func:`plot_intervals` draws them: one row per metric, its distance from the no-bias value,
the interval as a bar; red where the interval excludes the no-bias value, grey where it
holds it; a circle for an exact interval, a square for a Monte Carlo one.

Examples
--------
>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from confusionlab import bias
>>> t = bias.CountTable.from_confusion(a=(2718, 3678, 84, 13900), d=(433, 679, 10, 8660))
>>> r = bias.report_from_counts(t, stage="post", n_draws=2000, target="next_test_set")
>>> frame = interval_frame(r, metrics=["DPPL", "DAR"])
>>> frame[["method", "holds_no_bias"]].to_dict("index")
{'DPPL': {'method': 'exact', 'holds_no_bias': False}, 'DAR': {'method': 'Monte Carlo', 'holds_no_bias': True}}
>>> ax = plot_intervals(r, metrics=["DPPL", "DAR", "RD"])
>>> [t.get_text() for t in ax.get_yticklabels()]
['DPPL', 'DAR', 'RD']
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .._validation import InvalidParameterError, check_confidence, check_instance, check_names
from ..bias.figures import EXCLUDES_COLOUR, HOLDS_COLOUR, draw_intervals, method_of
from ..bias.results import BiasReport

__all__ = ["EXCLUDES_COLOUR", "HOLDS_COLOUR", "interval_frame", "plot_intervals"]


def _rows(report: Any, metrics: Sequence[str] | None) -> list[Any]:
    check_instance(report, "report", BiasReport, "a BiasReport (from confusionlab.bias.report)")
    if metrics is None:
        names = [k for k, m in report.items() if m.value is not None]
        if not names:
            raise InvalidParameterError("metrics: nothing to show (the report computed no metric)")
    else:
        if isinstance(metrics, str):  # one name would read as a list of its letters
            check_instance(metrics, "metrics", (list, tuple), "a sequence of metric names")
        names = check_names(metrics, "metrics", list(report), "metric names the report has")
    missing = [k for k in names if report[k].value is None]
    if missing:
        raise InvalidParameterError(f"metrics: {missing} could not be computed ({report[missing[0]].error})")
    return [report[k] for k in names]


def interval_frame(report: Any, confidence: float = 0.95, *, metrics: Sequence[str] | None = None) -> Any:
    """One row per metric: value, interval, no-bias value, whether the interval holds it, exact or Monte Carlo.

    Parameters
    ----------
    report : BiasReport
        From :func:`confusionlab.bias.report` or :func:`confusionlab.bias.report_from_counts`.
    confidence : float, default 0.95
        Level of the central posterior predictive interval.
    metrics : sequence of str, optional
        The rows, in this order (default: every metric that could be computed).

    Returns
    -------
    pandas.DataFrame
        Indexed by metric, columns ``value``, ``lower``, ``upper``, ``no_bias``, ``holds_no_bias``,
        ``method`` (``"exact"`` or ``"Monte Carlo"``, ``"none"`` for FT) and
        ``prob_same_sign`` (probability that the metric on a new sample of the same facet
        sizes has the observed sign).

    Examples
    --------
    >>> from confusionlab import bias
    >>> t = bias.CountTable.from_confusion(a=(50, 10, 5, 35), d=(20, 10, 5, 15))
    >>> f = interval_frame(bias.report_from_counts(t, stage="post", n_draws=500), metrics=["DI"])
    >>> f.loc["DI", "method"], float(f.loc["DI", "no_bias"])
    ('exact', 1.0)
    """
    import pandas as pd

    confidence = check_confidence(confidence)
    rows = []
    for m in _rows(report, metrics):
        lo, hi = m.interval(confidence)
        holds = bool(lo <= m.no_bias <= hi) if not math.isnan(lo) else False
        rows.append(
            {
                "metric": m.name,
                "value": m.value,
                "lower": lo,
                "upper": hi,
                "no_bias": m.no_bias,
                "holds_no_bias": holds,
                "method": method_of(m),
                "prob_same_sign": m.prob_sign_real,
            }
        )
    return pd.DataFrame(rows).set_index("metric")


def plot_intervals(
    report: Any, confidence: float = 0.95, *, metrics: Sequence[str] | None = None, ax: Any = None
) -> Any:
    """Forest plot of a bias report: each metric's distance from its no-bias value, with its interval.

    Parameters
    ----------
    report : BiasReport
    confidence : float, default 0.95
    metrics : sequence of str, optional
        Rows from top to bottom (default: every computed metric with an interval). Metrics on very
        different scales (TE) are better left out or drawn alone.
    ax : matplotlib Axes, optional
        Drawn on; a new figure when omitted.

    Returns
    -------
    matplotlib.axes.Axes
        One horizontal bar per metric (``ax.lines``, in order, then the dashed no-bias line) and one
        marker per metric;
        red (:data:`EXCLUDES_COLOUR`) when the interval excludes the no-bias value, grey
        (:data:`HOLDS_COLOUR`) when it holds it; marker ``"o"`` exact, ``"s"`` Monte Carlo.
    """
    import matplotlib.pyplot as plt

    confidence = check_confidence(confidence)
    rows = [m for m in _rows(report, metrics) if m.distribution is not None]
    if ax is None:
        _, ax = plt.subplots(figsize=(6.5, 0.35 * len(rows) + 1.2))
    draw_intervals(ax, rows, confidence)  # the figure of BiasReport.plot
    return ax
