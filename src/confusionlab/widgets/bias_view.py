"""BiasView: per-facet ROC points with uncertainty clouds and the bias-metric table.

Built from ipywidgets and bqplot only (no custom JavaScript). Everything shown
comes from :mod:`confusionlab.bias`: the per-facet confusion counts of the
report's count table, posterior predictive draws from
:func:`confusionlab.bias.uncertainty.dirichlet_multinomial_draws` (the model the
post-training intervals use), and each metric's ``interval``.
"""

from __future__ import annotations

import html
import math
from typing import Any

import bqplot as bq
import ipywidgets as w
import numpy as np
import traitlets

from ..bias.report import BiasReport
from ..bias.uncertainty import dirichlet_multinomial_draws

__all__ = ["BiasView", "metrics_table_html", "roc_points"]

FACET_COLORS = ("#1f77b4", "#d62728")  # a, d


def roc_points(cm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(FPR, TPR) of confusion counts ``(..., 4)`` ordered ``(TP, FP, FN, TN)``; NaN if undefined.

    Examples
    --------
    >>> fpr, tpr = roc_points(np.array([[2718, 84, 3678, 13900], [433, 10, 679, 8660]]))
    >>> np.round(fpr, 4).tolist(), np.round(tpr, 4).tolist()
    ([0.006, 0.0012], [0.425, 0.3894])
    """
    c = np.asarray(cm, dtype=np.float64)
    tp, fp, fn, tn = c[..., 0], c[..., 1], c[..., 2], c[..., 3]
    with np.errstate(invalid="ignore", divide="ignore"):
        return fp / (fp + tn), tp / (tp + fn)


def _fmt(x: float) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    return f"{x:.4g}"


def metrics_table_html(report: BiasReport, confidence: float = 0.95) -> tuple[str, list[str]]:
    """An HTML table of the report and the names of the flagged metrics.

    A metric is flagged when its interval at ``confidence`` contains the
    no-bias value (its sign is not established at these facet sizes).

    Examples
    --------
    >>> from confusionlab import bias
    >>> t = bias.CountTable.from_confusion(a=(2718, 84, 3678, 13900), d=(433, 10, 679, 8660))
    >>> _, flagged = metrics_table_html(bias.report_from_counts(t, n_samples=2000))
    >>> "DAR" in flagged, "DPPL" in flagged
    (True, False)
    """
    rows, flagged = [], []
    for name, m in report.items():
        if m.value is None:
            rows.append(
                f"<tr><td title='{html.escape(m.description)}'>{name}</td>"
                f"<td colspan=4><i>{html.escape(m.error or '')}</i></td></tr>"
            )
            continue
        lo, hi = m.interval(confidence)
        has_interval = not math.isnan(lo)
        flag = has_interval and m.contains_no_bias(confidence)
        if flag:
            flagged.append(name)
        style = " style='background:#fff3cd'" if flag else ""
        interval = f"[{_fmt(lo)}, {_fmt(hi)}]" if has_interval else "–"
        note = "contains no-bias value" if flag else ""
        rows.append(
            f"<tr{style}><td title='{html.escape(m.description)}'>{name}</td>"
            f"<td>{_fmt(m.value)}</td><td>{interval}</td><td>{_fmt(m.prob_sign_real)}</td>"
            f"<td>{note}</td></tr>"
        )
    head = f"<tr><th>metric</th><th>value</th><th>{confidence:.0%} interval</th><th>P(sign real)</th><th></th></tr>"
    return f"<table class='cl-bias'>{head}{''.join(rows)}</table>", flagged


class BiasView(w.VBox):
    """Bias report viewer: facets in ROC space with uncertainty clouds, and the metric table.

    Parameters
    ----------
    report : BiasReport
        From :func:`confusionlab.bias.report` (with ``predicted=`` for the ROC panel)
        or :func:`confusionlab.bias.report_from_counts`.
    confidence : float
        Initial interval probability (a slider changes it).
    n_cloud : int
        Posterior predictive draws per facet drawn as the cloud (kept small:
        bqplot's SVG marks slow down past a few thousand points).
    seed : int
        Seed of the cloud's draws.

    Attributes
    ----------
    confidence : float (traitlet)
    flagged : list of str (traitlet)
        Metrics whose interval contains their no-bias value.

    Examples
    --------
    >>> from confusionlab import bias
    >>> t = bias.CountTable.from_confusion(a=(2718, 84, 3678, 13900), d=(433, 10, 679, 8660))
    >>> v = BiasView(bias.report_from_counts(t, n_samples=2000), n_cloud=200)
    >>> "DAR" in v.flagged
    True
    """

    confidence = traitlets.Float(0.95)
    flagged = traitlets.List(traitlets.Unicode())

    def __init__(
        self, report: BiasReport, confidence: float = 0.95, n_cloud: int = 400, seed: int = 0, **kwargs: Any
    ) -> None:
        if not isinstance(report, BiasReport):
            raise TypeError(f"report must be a BiasReport, got {type(report).__name__}")
        if not 0.0 < confidence < 1.0:
            raise ValueError(f"confidence must be in (0, 1), got confidence={confidence!r}")
        if not isinstance(n_cloud, int) or n_cloud < 1 or n_cloud > 5000:
            raise ValueError(f"n_cloud must be an integer in [1, 5000], got {n_cloud!r}")
        self.report = report
        self.table = w.HTML()
        self.slider = w.FloatSlider(
            value=confidence, min=0.5, max=0.99, step=0.01, description="interval", readout_format=".0%"
        )
        children: list[Any] = []
        self.figure = None
        if report.counts.has_predictions:
            self.figure = self._roc_figure(report.counts.confusion(), n_cloud, seed)
            children.append(self.figure)
        children += [self.slider, self.table]
        super().__init__(children=children, **kwargs)
        traitlets.link((self.slider, "value"), (self, "confidence"))
        self.confidence = confidence
        self._redraw()

    def _roc_figure(self, cm: np.ndarray, n_cloud: int, seed: int) -> bq.Figure:
        xs, ys = bq.LinearScale(min=0.0, max=1.0), bq.LinearScale(min=0.0, max=1.0)
        marks = [bq.Lines(x=[0, 1], y=[0, 1], scales={"x": xs, "y": ys}, colors=["#999999"], line_style="dashed")]
        draws = dirichlet_multinomial_draws(cm, n_samples=n_cloud, seed=seed)  # (S, 2, 4)
        fpr_c, tpr_c = roc_points(draws)
        fpr, tpr = roc_points(cm)
        self.cloud_points = (fpr_c, tpr_c)
        self.observed_points = (fpr, tpr)
        for f, name in enumerate(("a (rest)", "d (sensitive)")):
            marks.append(
                bq.Scatter(
                    x=fpr_c[:, f],
                    y=tpr_c[:, f],
                    scales={"x": xs, "y": ys},
                    colors=[FACET_COLORS[f]],
                    opacities=[0.15],
                    default_size=12,
                    stroke=None,
                )
            )
            marks.append(
                bq.Scatter(
                    x=[fpr[f]],
                    y=[tpr[f]],
                    scales={"x": xs, "y": ys},
                    colors=[FACET_COLORS[f]],
                    default_size=90,
                    marker="diamond",
                    labels=[name],
                    display_legend=True,
                    stroke="black",
                )
            )
        axes = [bq.Axis(scale=xs, label="FPR"), bq.Axis(scale=ys, side="left", label="TPR")]
        return bq.Figure(
            marks=marks,
            axes=axes,
            title="Facets in ROC space",
            layout=w.Layout(width="420px", height="400px"),
            legend_location="bottom-right",
        )

    @traitlets.observe("confidence")
    def _on_confidence(self, change: dict) -> None:
        self._redraw()

    def _redraw(self) -> None:
        text, flagged = metrics_table_html(self.report, self.confidence)
        self.table.value = text
        self.flagged = flagged
