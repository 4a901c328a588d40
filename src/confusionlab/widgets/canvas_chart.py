"""`CanvasChart`: the small canvas chart behind BiasView and StabilityView.

Points, lines and bars on a linear or log x axis, drawn by ``js/chart/chart.js`` on a
canvas; both views load the one bundle ``static/chart.js`` and tell their charts apart
by the root class they send. An anywidget's state, unlike a bqplot figure, draws in the
static HTML export too (its front-end travels in the state). The chart holds no
mathematics: its owner computes every series with the core and sets them here in one
:meth:`CanvasChart.show` (one message).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import traitlets

from .._validation import InvalidParameterError, check_choice
from ._common import Buffer, BundledWidget, Integer, buffer_array

__all__ = ["BiasChart", "CanvasChart", "StabilityChart", "series"]

SERIES_KINDS = ("points", "line", "bars")


def series(kind: str, x: Any, y: Any, **style: Any) -> dict[str, Any]:
    """One series: ``kind`` in ``("points", "line", "bars")``, coordinates and style
    (``colour``, ``alpha``, ``size``, ``width``, ``dash``, ``marker``, ``stroke``,
    ``label``; bars take ``end``, the right edge of the last bar).

    Examples
    --------
    >>> s = series("line", [1, 2], [0.5, 0.6], colour="#ff7f0e")
    >>> s["kind"], s["xy"].tolist()
    ('line', [[1.0, 0.5], [2.0, 0.6]])
    """
    kind = check_choice(kind, "kind", SERIES_KINDS)
    xs = np.asarray(x, dtype=np.float64).ravel()
    ys = np.asarray(y, dtype=np.float64).ravel()
    if xs.shape != ys.shape:
        raise InvalidParameterError(f"x and y must have the same length, got {xs.size} and {ys.size}")
    return {"kind": kind, "xy": np.column_stack([xs, ys]), **style}


def _finite_or_none(value: Any) -> Any:
    if isinstance(value, float | np.floating):
        return float(value) if np.isfinite(value) else None
    return value


class CanvasChart(BundledWidget, bundle="chart"):
    """A canvas chart: title, axes (x linear or log), series of points, lines and bars.

    The root element carries ``confusionlab-chart`` and the subclass's class
    (``_root_class``), with ``data-series`` and ``data-marks`` (marks drawn), and
    ``data-error`` plus a message in the page when it cannot draw.
    """

    #: Class of the chart's root element, besides ``confusionlab-chart``.
    _root_class = traitlets.Unicode("confusionlab-plot").tag(sync=True)

    title = traitlets.Unicode("").tag(sync=True)
    x_label = traitlets.Unicode("").tag(sync=True)
    y_label = traitlets.Unicode("").tag(sync=True)
    x_log = traitlets.Bool(False).tag(sync=True)
    x_domain = traitlets.List(traitlets.Float(), [0.0, 1.0]).tag(sync=True)
    y_domain = traitlets.List(traitlets.Float(), [0.0, 1.0]).tag(sync=True)
    width = Integer(420, min=200, max=2000).tag(sync=True)
    height = Integer(360, min=150, max=2000).tag(sync=True)
    message = traitlets.Unicode("").tag(sync=True)
    _series = traitlets.List(traitlets.Dict()).tag(sync=True)  # style, offset and count per series
    _xy = Buffer("<f8").tag(sync=True)  # (x, y) pairs of every series, concatenated
    _texts = traitlets.List(traitlets.Dict()).tag(sync=True)  # {x, y, text}

    def _refresh(self, parts: set[str]) -> None:
        """Nothing to compute: the owner sets the series with :meth:`show`."""

    def show(self, marks: Sequence[dict[str, Any]], texts: Sequence[dict[str, Any]] = (), **traits: Any) -> None:
        """Set the series (from :func:`series`), texts and any traits, in one message."""
        specs, chunks, offset = [], [], 0
        for mark in marks:
            xy = mark["xy"]
            style = {k: _finite_or_none(v) for k, v in mark.items() if k != "xy"}
            specs.append({**style, "offset": offset, "count": int(xy.shape[0])})
            chunks.append(xy)
            offset += int(xy.shape[0])
        xy = np.concatenate(chunks) if chunks else np.zeros((0, 2))
        clean = [{"x": float(t["x"]), "y": float(t["y"]), "text": str(t["text"])} for t in texts]
        with self.hold_sync():
            for name, value in traits.items():
                setattr(self, name, value)
            self._xy = xy
            self._series = specs
            self._texts = clean

    def series_xy(self, index: int) -> np.ndarray:
        """The (x, y) pairs sent for series ``index``, shape (count, 2)."""
        spec = self._series[index]
        pairs = buffer_array(self, "_xy").reshape(-1, 2)
        return pairs[spec["offset"] : spec["offset"] + spec["count"]]


class BiasChart(CanvasChart):
    """BiasView's chart: facets in ROC space (root ``confusionlab-bias-plot``)."""

    _root_class = traitlets.Unicode("confusionlab-bias-plot").tag(sync=True)


class StabilityChart(CanvasChart):
    """StabilityView's charts: the 2PL curve, the histogram (root ``confusionlab-stability-plot``)."""

    _root_class = traitlets.Unicode("confusionlab-stability-plot").tag(sync=True)
