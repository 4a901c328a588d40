"""StabilityView: stability against the number of learners, with a stability-target slider.

The plots are canvas charts (:class:`~confusionlab.widgets.canvas_chart.StabilityChart`,
drawn offline in the static HTML export too); slider and texts are ipywidgets. The widget is thin: the
2PL fit, n(S*) and per-object stability all come from :mod:`confusionlab.stability`; the
widget keeps its state in traitlets and redraws on change. A degenerate 2PL fit
(plateau, decreasing data) is drawn with its reason, and the view says why it cannot
recommend a number of learners; a refused stability target leaves the view as it was.
:func:`stability_result_view` is the smaller view of one :class:`~confusionlab.stability.StabilityResult`
(its ``view()``): the summary, the histogram of per-object stability and the least stable objects.

Colours come from :mod:`confusionlab.palette`: measured points :data:`~confusionlab.palette.NEUTRAL`,
the 2PL fit and the histogram the accent colour, the stability-target line the muted one.
"""

from __future__ import annotations

import html
import warnings
from types import SimpleNamespace
from typing import Any

import ipywidgets as w
import numpy as np
import traitlets

from .._deprecation import renamed_arguments
from .._validation import InvalidParameterError, check_int, check_probability, check_real_array
from .._views import register_view
from ..palette import NEUTRAL, THEME
from ..stability import ExtrapolationWarning, StabilityCurve, StabilityResult, TwoPLFit, fit_2pl
from ._common import InvalidTraitError, StatefulWidget
from .canvas_chart import StabilityChart, series

__all__ = ["StabilityView", "stability_result_view"]


def _least_stable_html(per_object: np.ndarray, labels: list[str], k: int) -> str:
    """An ordered HTML list of the k least stable objects (labels HTML-escaped)."""
    defined = np.flatnonzero(~np.isnan(per_object))
    order = defined[np.argsort(per_object[defined], kind="stable")][:k]
    items = "".join(f"<li>{html.escape(labels[i])}: S = {per_object[i]:.4f}</li>" for i in order)
    return f"<b>Least stable objects</b><ol>{items}</ol>"


def _histogram_panel(per_object: np.ndarray, object_labels: Any, measure: str, n_least: int) -> SimpleNamespace:
    """The histogram of per-object stability (a canvas chart) and the list of the least stable objects.

    Returns ``chart``, ``least_stable`` (an HTML widget), ``histogram`` (its ``x``, ``y``
    and ``edges``) and ``box`` (both side by side).
    """
    n_least = check_int(n_least, "n_least", minimum=0)
    if np.any(np.isinf(per_object)):
        raise InvalidParameterError("per_object must hold finite stabilities (NaN for an undefined object), got ±inf")
    labels = [str(i) for i in range(per_object.size)] if object_labels is None else [str(v) for v in object_labels]
    if len(labels) != per_object.size:
        raise InvalidParameterError(f"object_labels has {len(labels)} entries for {per_object.size} objects")
    counts, edges = np.histogram(per_object[~np.isnan(per_object)], bins=20)
    chart = StabilityChart(width=360, height=260, x_label=f"per-object {measure}", y_label="objects")
    chart.show(
        [series("bars", edges[:-1], counts, colour=THEME["accent"], end=float(edges[-1]))],
        x_domain=[float(edges[0]), float(edges[-1])] if edges[-1] > edges[0] else [0.0, 1.0],
        y_domain=[0.0, float(max(1, counts.max())) * 1.05],
        title=f"Per-object stability ({int(counts.sum())} objects)",
    )
    least = w.HTML(_least_stable_html(per_object, labels, n_least))
    return SimpleNamespace(
        chart=chart,
        least_stable=least,
        histogram=SimpleNamespace(x=(edges[:-1] + edges[1:]) / 2, y=counts, edges=edges),
        box=w.HBox([chart, least]),
    )


def stability_result_view(result: StabilityResult, *, object_labels: Any = None, n_least: int = 10) -> w.VBox:
    """The view of one :class:`~confusionlab.stability.StabilityResult` (what its ``view()`` returns).

    Its summary in words, the histogram of per-object stability and the ``n_least`` least
    stable objects (named by ``object_labels``, default their indices). For stability
    against the number of learners see :class:`StabilityView`.

    Examples
    --------
    >>> from confusionlab.stability import phi
    >>> from confusionlab.widgets.stability_view import stability_result_view
    >>> box = stability_result_view(phi([[0, 1, 1], [0, 1, 0]], [0, 1, 1, 0], "nominal"))
    >>> int(box.histogram.y.sum()), len(box.children)
    (3, 2)
    """
    if not isinstance(result, StabilityResult):
        raise InvalidParameterError(f"result must be a StabilityResult, got {type(result).__name__}")
    summary = w.HTML(f"<p>{html.escape(result.summary())}</p>")
    summary.add_class("confusionlab-stability-message")
    children: list[w.Widget] = [summary]
    panel = None
    if result.defined:
        panel = _histogram_panel(result.per_object, object_labels, result.measure, n_least)
        children.append(panel.box)
    box = w.VBox(children)
    box.add_class("confusionlab-stability-view")
    box.histogram = None if panel is None else panel.histogram
    return box


class StabilityTarget(traitlets.Float):
    """A stability target S*, strictly between 0 and 1."""

    def validate(self, obj: Any, value: Any) -> float:
        try:
            return check_probability(value, self.name, open_interval=True)
        except (TypeError, ValueError) as error:
            raise InvalidTraitError(str(error)) from None


#: The old name of :class:`StabilityTarget`.
Target = StabilityTarget


class StabilityView(StatefulWidget, w.VBox):
    """Stability S against the number of learners, the fitted 2PL curve and a stability target.

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
    stability_target : float
        Initial stability target S* (``target=`` is its old name, still accepted for one
        release with a FutureWarning).
    n_least : int
        How many of the least stable objects to list.

    Attributes
    ----------
    stability_target : float (traitlet)
        The stability target S*; the slider is linked to it. (``target`` is its old name:
        a property that still reads and sets it, with a FutureWarning.)
    recommended : float or None (traitlet)
        n(S*) from the 2PL fit, updated whenever ``stability_target`` changes; None when
        the fit cannot answer (a degenerate fit, or a target it never reaches), and the
        view's label says why.
    fit : TwoPLFit
        The 2PL fit drawn (its ``reason`` says when it is degenerate).

    Examples
    --------
    >>> from confusionlab.stability import twopl
    >>> from confusionlab.widgets.stability_view import StabilityView
    >>> n = [250, 500, 750, 1000, 2000]
    >>> view = StabilityView(n_learners=n, stability=twopl(n, 100.0, 1.0), stability_target=0.9)
    >>> round(view.recommended)
    900

    See Also
    --------
    confusionlab.stability.stability_curve : the curve this view draws.
    confusionlab.stability.TwoPLFit.learners_for : n(S*), the recommended number of learners.
    stability_result_view : the view of one stability result (no curve).
    """

    stability_target = StabilityTarget(0.95).tag(sync=False)
    #: What the chart shows rolls back with the traits.
    _EXTRA_STATE = ("_x", "_target_line")
    recommended = traitlets.Float(None, allow_none=True).tag(sync=False)

    @renamed_arguments(target="stability_target")
    def __init__(
        self,
        curve: StabilityCurve | None = None,
        *,
        n_learners: Any = None,
        stability: Any = None,
        per_object: Any = None,
        object_labels: Any = None,
        measure: str | None = None,
        stability_target: float = 0.95,
        n_least: int = 10,
        **kwargs: Any,
    ) -> None:
        n_least = check_int(n_least, "n_least", minimum=0)
        if curve is not None:
            n = np.asarray(curve.n_learners, dtype=float)
            s = curve.stability(measure)
            fit = curve.fit_2pl(measure)
            m = measure or curve.measure
            if per_object is None and m in ("phi", "psi"):
                per_object = curve.result(n.size - 1, m).per_object
        elif n_learners is not None and stability is not None:
            n = check_real_array(n_learners, "n_learners")
            s = check_real_array(stability, "stability")
            fit = fit_2pl(n, s)
            m = measure or "stability"
        else:
            raise InvalidParameterError("StabilityView needs a curve or both n_learners and stability")
        self.fit: TwoPLFit = fit
        self.n_learners, self.measured = n, s

        self._measure = m
        self._y_domain = [float(min(0.0, np.nanmin(s))), 1.0]
        # What the chart shows (kept here too, for code and tests): x range, target line.
        self._x = SimpleNamespace(min=float(n.min()), max=float(n.max()))
        self._target_line = SimpleNamespace(x=np.zeros(0), y=np.zeros(0))
        self.figure = StabilityChart(
            width=520,
            height=340,
            x_log=True,
            x_label="number of learners",
            y_label=m,
            title=f"2PL fit: p1 = {fit.p1:.3g}, p2 = {fit.p2:.3g}" + ("" if fit.reason is None else " (degenerate)"),
        )
        # starts at the stability target (_setup) and widens to show one set from code (_fit_slider)
        self.slider = w.FloatSlider(min=0.5, max=0.999, step=0.001, readout_format=".3f", description="target S*")
        self.label = w.Label()
        self.label.add_class("confusionlab-stability-message")
        children: list[w.Widget] = [self.figure, self.slider, self.label]

        self.per_object = None if per_object is None else check_real_array(per_object, "per_object")
        if self.per_object is not None:
            panel = _histogram_panel(self.per_object, object_labels, m, n_least)
            self.histogram, self.histogram_figure, self.least_stable = panel.histogram, panel.chart, panel.least_stable
            children.append(panel.box)

        super().__init__(children=children, stability_target=stability_target, **kwargs)
        self.add_class("confusionlab-stability-view")

    @property
    def target(self) -> float:
        """The old name of :attr:`stability_target` (reads and sets it, with a FutureWarning)."""
        _warn_target()
        return self.stability_target

    @target.setter
    def target(self, value: float) -> None:
        _warn_target()
        self.stability_target = value

    def _setup(self) -> None:
        self._fit_slider()
        self.slider.value = self.stability_target
        w.link((self.slider, "value"), (self, "stability_target"))

    def _fit_slider(self) -> None:
        """Widen the slider so that it can show the stability target (set from code)."""
        self.slider.min = min(self.slider.min, self.stability_target)
        self.slider.max = max(self.slider.max, self.stability_target)

    @traitlets.observe("stability_target")
    def _on_target(self, change: traitlets.Bunch) -> None:
        self._request(self._ALL_PARTS)

    def _refresh(self, parts: set[str]) -> None:
        # Everything is computed first; the marks change only once nothing can fail.
        s_star = self.stability_target
        with warnings.catch_warnings(record=True) as caught:  # shown in the label, not as a warning
            warnings.simplefilter("always", ExtrapolationWarning)
            try:
                n_star: float | None = self.fit.learners_for(s_star)
                message = ""
            except (ValueError, ZeroDivisionError, OverflowError) as exc:  # a degenerate fit says so
                n_star, message = None, f"No recommendation for S* = {s_star:.3f}: {exc}"
        extrapolated = any(issubclass(item.category, ExtrapolationWarning) for item in caught)
        lo = float(min(self.n_learners.min(), n_star or np.inf)) / 1.5
        hi = float(max(self.n_learners.max(), n_star or 0.0)) * 1.5
        grid = np.geomspace(lo, hi, 200)
        curve = self.fit.predict(grid)
        marks = [series("line", grid, curve, colour=THEME["accent"], label="2PL fit")]
        marks.append(series("points", self.n_learners, self.measured, colour=NEUTRAL, size=4, label="measured"))
        texts: list[dict[str, Any]] = []
        line = np.zeros(0)
        if n_star is not None:
            line = np.array([n_star, n_star])
            marks.append(series("line", line, self._y_domain, colour=THEME["muted"], dash=True, width=1.5))
            text = f"{n_star:,.0f} learners for S* = {s_star:.3f}"
            texts.append({"x": n_star, "y": s_star, "text": text})
            message = f"Recommended for the target: {text}" + (
                " (an extrapolation of the 2PL fit, far beyond the measured grid: measure there to confirm it)"
                if extrapolated
                else ""
            )
        # Everything computed: now the view changes.
        self._fit_slider()
        self.recommended = n_star
        self._x = SimpleNamespace(min=lo, max=hi)
        self._target_line = SimpleNamespace(x=line, y=np.array(self._y_domain) if line.size else np.zeros(0))
        self.figure.show(marks, texts, x_domain=[lo, hi], y_domain=self._y_domain)  # the label says the rest
        self.label.value = message


def _warn_target() -> None:
    warnings.warn(
        "StabilityView.target is renamed stability_target; the old name will stop working in the next release",
        FutureWarning,
        stacklevel=3,
    )


register_view(StabilityResult, stability_result_view)
register_view(StabilityCurve, StabilityView)
