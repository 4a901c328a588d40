"""StabilityView: stability against the number of learners, with a target slider.

Built from ipywidgets and bqplot only (no custom JavaScript). The widget is thin: the
2PL fit, n(S*) and per-object stability all come from :mod:`confusionlab.stability`; the
widget keeps its state in traitlets and redraws on change.
"""

from __future__ import annotations

import html
from typing import Any

import bqplot as bq
import ipywidgets as w
import numpy as np
import traitlets

from ..stability import StabilityCurve, TwoPLFit, fit_2pl

__all__ = ["StabilityView"]


def _least_stable_html(per_object: np.ndarray, labels: list[str], k: int) -> str:
    """An ordered HTML list of the k least stable objects (labels HTML-escaped)."""
    defined = np.flatnonzero(~np.isnan(per_object))
    order = defined[np.argsort(per_object[defined], kind="stable")][:k]
    items = "".join(f"<li>{html.escape(labels[i])}: S = {per_object[i]:.4f}</li>" for i in order)
    return f"<b>Least stable objects</b><ol>{items}</ol>"


class StabilityView(w.VBox):
    """Stability S against the number of learners, the fitted 2PL curve and a target.

    Parameters
    ----------
    curve : StabilityCurve, optional
        A computed curve; its default measure is shown (or ``measure``).
    n_learners, stability : array_like, optional
        Plain arrays instead of a curve (at least 4 grid points, S > 0).
    per_object : array_like, optional
        Per-object stability to show as a histogram (default with a curve: phi/psi at the
        largest number of learners).
    object_labels : sequence of str, optional
        Names of the objects for the least-stable list (default: their indices).
    measure : str, optional
        Measure of ``curve`` to show.
    target : float
        Initial target stability S*.
    n_least : int
        How many of the least stable objects to list.

    Attributes
    ----------
    target : float (traitlet)
        Target stability; the slider is linked to it.
    recommended : float (traitlet)
        n(S*) from the 2PL fit, updated whenever ``target`` changes.
    fit : TwoPLFit
        The 2PL fit drawn.

    Examples
    --------
    >>> from confusionlab.stability import twopl
    >>> from confusionlab.widgets.stability_view import StabilityView
    >>> n = [250, 500, 750, 1000, 2000]
    >>> view = StabilityView(n_learners=n, stability=twopl(n, 100.0, 1.0), target=0.9)
    >>> round(view.recommended)
    900
    """

    target = traitlets.Float(0.95).tag(sync=False)
    recommended = traitlets.Float(allow_none=True).tag(sync=False)

    def __init__(
        self,
        curve: StabilityCurve | None = None,
        *,
        n_learners: Any = None,
        stability: Any = None,
        per_object: Any = None,
        object_labels: Any = None,
        measure: str | None = None,
        target: float = 0.95,
        n_least: int = 10,
        **kwargs: Any,
    ) -> None:
        if curve is not None:
            n = np.asarray(curve.n_learners, dtype=float)
            s = curve.stability(measure)
            fit = curve.fit_2pl(measure)
            m = measure or curve.measure
            if per_object is None and m in ("phi", "psi"):
                per_object = curve.result(n.size - 1, m).per_object
        elif n_learners is not None and stability is not None:
            n = np.asarray(n_learners, dtype=float)
            s = np.asarray(stability, dtype=float)
            fit = fit_2pl(n, s)
            m = measure or "stability"
        else:
            raise TypeError("StabilityView needs a curve or both n_learners and stability")
        self.fit: TwoPLFit = fit
        self.n_learners, self.measured = n, s

        self._x = bq.LogScale()
        self._y = bq.LinearScale(min=float(min(0.0, np.nanmin(s))), max=1.0)
        points = bq.Scatter(
            x=n,
            y=s,
            scales={"x": self._x, "y": self._y},
            colors=["#1f77b4"],
            tooltip=bq.Tooltip(fields=["x", "y"], formats=[".0f", ".4f"]),
        )
        self._model_line = bq.Lines(scales={"x": self._x, "y": self._y}, colors=["#ff7f0e"])
        self._target_line = bq.Lines(scales={"x": self._x, "y": self._y}, colors=["gray"], line_style="dashed")
        self._target_text = bq.Label(scales={"x": self._x, "y": self._y}, colors=["gray"], default_size=12)
        self.figure = bq.Figure(
            marks=[self._model_line, points, self._target_line, self._target_text],
            axes=[
                bq.Axis(scale=self._x, label="number of learners"),
                bq.Axis(scale=self._y, side="left", label=m),
            ],
            title=f"2PL fit: p1 = {fit.p1:.3g}, p2 = {fit.p2:.3g}",
            layout=w.Layout(width="520px", height="340px"),
        )
        self.slider = w.FloatSlider(
            value=target,
            min=0.5,
            max=0.999,
            step=0.001,
            readout_format=".3f",
            description="target S*",
            continuous_update=True,
        )
        self.label = w.Label()
        children: list[w.Widget] = [self.figure, self.slider, self.label]

        self.per_object = None if per_object is None else np.asarray(per_object, dtype=float)
        if self.per_object is not None:
            labels = (
                [str(i) for i in range(self.per_object.size)]
                if object_labels is None
                else [str(v) for v in object_labels]
            )
            if len(labels) != self.per_object.size:
                raise ValueError(f"object_labels has {len(labels)} entries for {self.per_object.size} objects")
            counts, edges = np.histogram(self.per_object[~np.isnan(self.per_object)], bins=20)
            hx, hy = bq.LinearScale(), bq.LinearScale()
            self.histogram = bq.Bars(
                x=(edges[:-1] + edges[1:]) / 2,
                y=counts,
                scales={"x": hx, "y": hy},
                colors=["#2ca02c"],
            )
            hist_fig = bq.Figure(
                marks=[self.histogram],
                axes=[
                    bq.Axis(scale=hx, label=f"per-object {m}", tick_format=".2f"),
                    bq.Axis(scale=hy, side="left", label="objects"),
                ],
                layout=w.Layout(width="360px", height="260px"),
            )
            self.least_stable = w.HTML(_least_stable_html(self.per_object, labels, n_least))
            children.append(w.HBox([hist_fig, self.least_stable]))

        super().__init__(children=children, **kwargs)
        w.link((self.slider, "value"), (self, "target"))
        self.observe(self._on_target, names="target")
        self.target = float(target)
        self._on_target(None)

    def _on_target(self, _change: Any) -> None:
        try:
            n_star = self.fit.learners_for(self.target)
        except ValueError as exc:
            self.recommended = None
            self.label.value = str(exc)
            self._target_line.x, self._target_line.y = [], []
            return
        self.recommended = n_star
        lo = float(min(self.n_learners.min(), n_star)) / 1.5
        hi = float(max(self.n_learners.max(), n_star)) * 1.5
        self._x.min, self._x.max = lo, hi
        grid = np.geomspace(lo, hi, 200)
        self._model_line.x, self._model_line.y = grid, self.fit.predict(grid)
        self._target_line.x = np.array([n_star, n_star])
        self._target_line.y = np.array([self._y.min, 1.0])
        self._target_text.x, self._target_text.y = [n_star], [self.target]
        text = f"{n_star:,.0f} learners for S* = {self.target:.3f}"
        self._target_text.text = [text]
        self.label.value = f"Recommended for the target: {text}"
