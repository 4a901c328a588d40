"""StabilityView: stability against the number of learners, with a target slider.

Built from ipywidgets and bqplot only (no custom JavaScript). The widget is thin: the
2PL fit, n(S*) and per-object stability all come from :mod:`confusionlab.stability`; the
widget keeps its state in traitlets and redraws on change. A degenerate 2PL fit
(plateau, decreasing data) is drawn with its reason, and the view says why it cannot
recommend a number of learners; a refused target leaves the view as it was.
"""

from __future__ import annotations

import html
import warnings
from typing import Any

import bqplot as bq
import ipywidgets as w
import numpy as np
import traitlets

from .._validation import check_probability
from ..stability import ExtrapolationWarning, StabilityCurve, TwoPLFit, fit_2pl
from ._common import StatefulWidget

__all__ = ["StabilityView"]


def _least_stable_html(per_object: np.ndarray, labels: list[str], k: int) -> str:
    """An ordered HTML list of the k least stable objects (labels HTML-escaped)."""
    defined = np.flatnonzero(~np.isnan(per_object))
    order = defined[np.argsort(per_object[defined], kind="stable")][:k]
    items = "".join(f"<li>{html.escape(labels[i])}: S = {per_object[i]:.4f}</li>" for i in order)
    return f"<b>Least stable objects</b><ol>{items}</ol>"


class Target(traitlets.Float):
    """A target stability S*, strictly between 0 and 1."""

    def validate(self, obj: Any, value: Any) -> float:
        try:
            return check_probability(value, self.name, open_interval=True)
        except (TypeError, ValueError) as error:
            raise traitlets.TraitError(str(error)) from None


class StabilityView(StatefulWidget, w.VBox):
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
    recommended : float or None (traitlet)
        n(S*) from the 2PL fit, updated whenever ``target`` changes; None when the fit
        cannot answer (a degenerate fit, or a target it never reaches), and the view's
        label says why.
    fit : TwoPLFit
        The 2PL fit drawn (its ``reason`` says when it is degenerate).

    Examples
    --------
    >>> from confusionlab.stability import twopl
    >>> from confusionlab.widgets.stability_view import StabilityView
    >>> n = [250, 500, 750, 1000, 2000]
    >>> view = StabilityView(n_learners=n, stability=twopl(n, 100.0, 1.0), target=0.9)
    >>> round(view.recommended)
    900
    """

    target = Target(0.95).tag(sync=False)
    recommended = traitlets.Float(None, allow_none=True).tag(sync=False)

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
            title=f"2PL fit: p1 = {fit.p1:.3g}, p2 = {fit.p2:.3g}" + ("" if fit.reason is None else " (degenerate)"),
            layout=w.Layout(width="520px", height="340px"),
        )
        self.slider = w.FloatSlider(
            value=0.95,
            min=0.5,
            max=0.999,
            step=0.001,
            readout_format=".3f",
            description="target S*",
            continuous_update=True,
        )
        self.label = w.Label()
        self.label.add_class("confusionlab-stability-message")
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

        super().__init__(children=children, target=target, **kwargs)
        self.add_class("confusionlab-stability-view")

    def _setup(self) -> None:
        self._fit_slider()
        self.slider.value = self.target
        w.link((self.slider, "value"), (self, "target"))

    def _fit_slider(self) -> None:
        """Widen the slider so that it can show the target (set from code)."""
        self.slider.min = min(self.slider.min, self.target)
        self.slider.max = max(self.slider.max, self.target)

    @traitlets.observe("target")
    def _on_target(self, change: traitlets.Bunch) -> None:
        self._request(self._ALL_PARTS)

    def _refresh(self, parts: set[str]) -> None:
        # Everything is computed first; the marks change only once nothing can fail.
        target = self.target
        with warnings.catch_warnings(record=True) as caught:  # shown in the label, not as a warning
            warnings.simplefilter("always", ExtrapolationWarning)
            try:
                n_star: float | None = self.fit.learners_for(target)
                message = ""
            except (ValueError, ZeroDivisionError, OverflowError) as exc:  # a degenerate fit says so
                n_star, message = None, f"No recommendation for S* = {target:.3f}: {exc}"
        extrapolated = any(issubclass(item.category, ExtrapolationWarning) for item in caught)
        lo = float(min(self.n_learners.min(), n_star or np.inf)) / 1.5
        hi = float(max(self.n_learners.max(), n_star or 0.0)) * 1.5
        grid = np.geomspace(lo, hi, 200)
        curve = self.fit.predict(grid)
        self._fit_slider()
        self.recommended = n_star
        self._x.min, self._x.max = lo, hi
        self._model_line.x, self._model_line.y = grid, curve
        if n_star is None:
            self._target_line.x, self._target_line.y = [], []
            self._target_text.x, self._target_text.y, self._target_text.text = [], [], []
            self.label.value = message
            return
        self._target_line.x = np.array([n_star, n_star])
        self._target_line.y = np.array([self._y.min, 1.0])
        self._target_text.x, self._target_text.y = [n_star], [target]
        text = f"{n_star:,.0f} learners for S* = {target:.3f}"
        self._target_text.text = [text]
        self.label.value = f"Recommended for the target: {text}" + (
            " (an extrapolation of the 2PL fit, far beyond the measured grid: measure there to confirm it)"
            if extrapolated
            else ""
        )
