"""BiasView: per-facet ROC points with uncertainty clouds and the bias-metric table.

The ROC panel is a canvas chart (:class:`~confusionlab.widgets.canvas_chart.BiasChart`,
drawn offline in the static HTML export too), the table and slider are ipywidgets.
Everything shown comes from :mod:`confusionlab.bias` and the core: the per-facet confusion counts of
the report's count table, posterior predictive draws from
:func:`confusionlab.distribution.count_draws.dirichlet_multinomial_draws` (the model the
post-training intervals use), each metric's ``interval``, and the rates of
:class:`confusionlab.ConfusionMatrix`.
"""

from __future__ import annotations

import html
import math
from typing import Any

import ipywidgets as w
import numpy as np
import traitlets

from .._deprecation import renamed_arguments
from .._validation import InvalidParameterError, check_instance, check_int, check_random_state
from .._views import register_view
from ..bias.results import PLAIN_NAMES, BiasMetric, BiasReport
from ..confusion import CONFUSION_ORDER, ConfusionMatrix
from ..distribution.count_draws import dirichlet_multinomial_draws
from ..palette import GROUP_COLOURS, NEUTRAL, THEME
from ._common import Confidence, StatefulWidget
from .canvas_chart import BiasChart, series

__all__ = ["BiasView", "bias_metric_view", "metrics_table_html", "roc_points"]

#: Colours of facet a (the rest) and facet d (the sensitive facet): the palette's group colours.
FACET_COLOURS = (GROUP_COLOURS["a"], GROUP_COLOURS["d"])
#: The old name of :data:`FACET_COLOURS`.
FACET_COLORS = FACET_COLOURS
#: Most posterior predictive draws per facet drawn as the cloud.
MAX_CLOUD_DRAWS = 5000


def confusion_columns(cm: Any) -> dict[str, np.ndarray]:
    """The count arrays ``tp, fn, fp, tn`` of confusion counts ``(..., 4)`` in the column
    order of :meth:`confusionlab.bias.CountTable.confusion` (``CONFUSION_ORDER``)."""
    counts = np.asarray(cm)
    if counts.shape[-1:] != (4,):
        raise InvalidParameterError(f"confusion counts must have 4 columns {CONFUSION_ORDER}, got shape {counts.shape}")
    return {name: counts[..., k] for k, name in enumerate(CONFUSION_ORDER)}


def roc_points(cm: Any) -> tuple[np.ndarray, np.ndarray]:
    """(FPR, TPR) of confusion counts ``(..., 4)`` in the bias tables' column order
    (``tp, fn, fp, tn``), from :class:`~confusionlab.ConfusionMatrix`; NaN where a class
    (or the whole facet) is empty.

    Examples
    --------
    >>> fpr, tpr = roc_points(np.array([[2718, 3678, 84, 13900], [433, 679, 10, 8660]]))
    >>> np.round(fpr, 4).tolist(), np.round(tpr, 4).tolist()
    ([0.006, 0.0012], [0.425, 0.3894])
    """
    columns = confusion_columns(cm)
    shape = columns["tp"].shape
    flat = {name: np.ravel(v) for name, v in columns.items()}
    fpr = np.full(flat["tp"].size, np.nan)
    tpr = np.full(flat["tp"].size, np.nan)
    for i in range(fpr.size):
        counts = {name: int(v[i]) for name, v in flat.items()}
        if any(counts.values()):  # an empty facet has no confusion matrix
            matrix = ConfusionMatrix(**counts)
            fpr[i], tpr[i] = matrix.fpr, matrix.tpr
    return fpr.reshape(shape), tpr.reshape(shape)


def _fmt(x: float) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    return f"{x:.4g}"


def _shown_name(name: str) -> str:
    """A metric's name in the table: Clarify's abbreviation, with CI spelled out (a reader of an
    interval table would take "CI" for a confidence interval)."""
    return f"{PLAIN_NAMES['CI']} (CI)" if name == "CI" else html.escape(name)


def metrics_table_html(report: BiasReport, confidence: float = 0.95) -> tuple[str, list[str]]:
    """An HTML table of the report and the names of the flagged metrics.

    A metric is flagged when its interval at ``confidence`` contains the
    no-bias value (its sign is not established at these facet sizes).

    Examples
    --------
    >>> from confusionlab import bias
    >>> t = bias.CountTable.from_confusion(a=(2718, 3678, 84, 13900), d=(433, 679, 10, 8660))
    >>> _, flagged = metrics_table_html(bias.report_from_counts(t, n_draws=2000))
    >>> "DAR" in flagged, "DPPL" in flagged
    (True, False)
    """
    rows, flagged = [], []
    for name, m in report.items():
        if m.value is None:
            rows.append(
                f"<tr><td title='{html.escape(m.description)}'>{_shown_name(name)}</td>"
                f"<td colspan=4><i>{html.escape(m.error or '')}</i></td></tr>"
            )
            continue
        lo, hi = m.interval(confidence)
        has_interval = not math.isnan(lo)
        flag = has_interval and m.contains_no_bias(confidence)
        if flag:
            flagged.append(name)
        style = f" style='background:{THEME['highlight']}'" if flag else ""
        interval = f"[{_fmt(lo)}, {_fmt(hi)}]" if has_interval else "–"
        note = "contains no-bias value" if flag else ""
        rows.append(
            f"<tr{style}><td title='{html.escape(m.description)}'>{_shown_name(name)}</td>"
            f"<td>{_fmt(m.value)}</td><td>{interval}</td><td>{_fmt(m.prob_sign_real)}</td>"
            f"<td>{note}</td></tr>"
        )
    head = f"<tr><th>metric</th><th>value</th><th>{confidence:.0%} interval</th><th>P(sign real)</th><th></th></tr>"
    return f"<table class='cl-bias'>{head}{''.join(rows)}</table>", flagged


class BiasView(StatefulWidget, w.VBox):
    """Bias report viewer: facets in ROC space with uncertainty clouds, and the metric table.

    Parameters
    ----------
    report : BiasReport
        From :func:`confusionlab.bias.report` (with ``predicted=`` for the ROC panel)
        or :func:`confusionlab.bias.report_from_counts`.
    confidence : float
        Initial interval probability, in (0, 1) (a slider changes it).
    n_draws : int
        Posterior predictive draws per facet drawn as the cloud (1 to 5,000;
        formerly ``n_cloud``, still accepted with a FutureWarning).
    random_state : None, int, SeedSequence or Generator
        Randomness of the cloud's draws.

    Attributes
    ----------
    confidence : float (traitlet)
        Validated before anything changes: a refused value (or a failure while
        building the table) leaves the view as it was.
    flagged : list of str (traitlet)
        Metrics whose interval contains their no-bias value.

    Examples
    --------
    >>> from confusionlab import bias
    >>> t = bias.CountTable.from_confusion(a=(2718, 3678, 84, 13900), d=(433, 679, 10, 8660))
    >>> v = BiasView(bias.report_from_counts(t, n_draws=2000), n_draws=200)
    >>> "DAR" in v.flagged
    True
    """

    confidence = Confidence(0.95)
    flagged = traitlets.List(traitlets.Unicode())

    @renamed_arguments(n_cloud="n_draws")
    def __init__(
        self,
        report: BiasReport,
        confidence: float = 0.95,
        n_draws: int = 400,
        random_state: Any = 0,
        **kwargs: Any,
    ) -> None:
        check_instance(report, "report", BiasReport, "a BiasReport (from confusionlab.bias.report)")
        n_draws = check_int(n_draws, "n_draws", minimum=1, maximum=MAX_CLOUD_DRAWS)
        check_random_state(random_state)  # refused even when there is no cloud to draw (no predictions)
        self.report = report
        self.table = w.HTML()
        self.slider = w.FloatSlider(
            value=0.95, min=0.5, max=0.99, step=0.01, description="interval", readout_format=".0%"
        )
        children: list[Any] = []
        self.figure: BiasChart | None = None
        if report.counts.has_predictions:
            self.figure = self._roc_figure(report.counts.confusion(), n_draws, random_state)
            children.append(self.figure)
        else:  # said in the page, not a silently missing plot
            children.append(
                w.HTML(
                    "<i>No ROC panel: this report has no predictions (pass <code>predicted=</code> to "
                    "<code>bias.report</code>); the table below has the label metrics.</i>"
                )
            )
        children += [self.slider, self.table]
        super().__init__(children=children, confidence=confidence, **kwargs)
        self.add_class("confusionlab-bias-view")

    def _setup(self) -> None:
        self._fit_slider()
        self.slider.value = self.confidence
        traitlets.link((self.slider, "value"), (self, "confidence"))

    def _fit_slider(self) -> None:
        """Widen the slider so that it can show the confidence (set from code)."""
        self.slider.min = min(self.slider.min, self.confidence)
        self.slider.max = max(self.slider.max, self.confidence)

    def _roc_figure(self, cm: np.ndarray, n_draws: int, random_state: Any) -> BiasChart:
        draws = dirichlet_multinomial_draws(cm, n_draws=n_draws, random_state=random_state)  # (S, 2, 4)
        fpr_c, tpr_c = roc_points(draws)
        fpr, tpr = roc_points(cm)
        self.cloud_points = (fpr_c, tpr_c)
        self.observed_points = (fpr, tpr)
        # Series: the chance diagonal, then per facet its cloud and its observed point.
        marks = [series("line", [0, 1], [0, 1], colour=NEUTRAL, dash=True, width=1)]
        for f, name in enumerate(("a (rest)", "d (sensitive)")):
            marks.append(series("points", fpr_c[:, f], tpr_c[:, f], colour=FACET_COLOURS[f], alpha=0.15, size=2.5))
            marks.append(
                series("points", [fpr[f]], [tpr[f]], colour=FACET_COLOURS[f], size=7, marker="diamond", stroke=True,
                       label=name)
            )  # fmt: skip
        chart = BiasChart(width=420, height=400)
        chart.show(
            marks,
            title="Facets in ROC space",
            x_label="FPR",
            y_label="TPR",
            x_domain=[0.0, 1.0],
            y_domain=[0.0, 1.0],
            message=f"diamonds: observed facets; clouds: {n_draws} posterior predictive draws per facet",
        )
        return chart

    @traitlets.observe("confidence")
    def _on_confidence(self, change: traitlets.Bunch) -> None:
        self._request(self._ALL_PARTS)

    def _refresh(self, parts: set[str]) -> None:
        text, flagged = metrics_table_html(self.report, self.confidence)  # may fail: nothing changed yet
        self._fit_slider()
        self.table.value = text
        self.flagged = flagged


def bias_metric_view(metric: BiasMetric) -> w.HTML:
    """The view of one :class:`~confusionlab.bias.BiasMetric`: its sentence and its row (an
    ``ipywidgets.HTML``; a whole report's interactive view is :class:`BiasView`)."""
    text = f"<p>{html.escape(metric.summary())}</p>" + metric.to_frame().to_html(float_format=lambda v: f"{v:.4g}")
    return w.HTML(text)


register_view(BiasMetric, bias_metric_view)
register_view(BiasReport, BiasView)
