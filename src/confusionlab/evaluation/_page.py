"""The self-contained HTML page of an evaluation (no server, no internet)."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from .._result import figure_data_uri, html_page

if TYPE_CHECKING:
    from ._result import Evaluation

__all__: list[str] = []


def evaluation_page(ev: Evaluation, metric: str, confidence: float) -> str:
    """The question in words, the figure of :meth:`Evaluation.plot` as an embedded PNG, and the
    table of :meth:`Evaluation.to_frame` (every metric, every group)."""
    png = figure_data_uri(ev.plot(metric=metric, confidence=confidence))
    frame = ev.to_frame(confidence=confidence)
    refits = f"{ev.n_refits} refits" if ev.n_refits else "one model"
    of = "the true value" if ev.target == "true_value" else "the metric on a new test set of the same size"
    body = (
        f"<p class='confusionlab-summary question'>{html.escape(ev.question(metric))}</p>"
        f"<p>{html.escape(ev.summary(confidence))}</p>"
        f"<p>Intervals hold {confidence:.0%} of each distribution of {of} (model: {html.escape(ev.model)}). "
        "Groups flagged <em>too_small</em> have fewer than "
        f"{ev.min_class_size} positives or negatives: their numbers say little.</p>"
        f"<img alt='distribution of {html.escape(metric)} per group' src='{png}'>"
        f"{frame.to_html(index=False, float_format=lambda v: f'{v:.4g}')}"
    )
    title = f"Evaluation of {refits} on {ev.sizes()['objects']:,} test objects"
    return html_page(title, body, page_class="confusionlab-evaluation-page")
