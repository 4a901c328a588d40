"""Jupyter widgets of ConfusionLab (anywidget front-ends bundled from ``js/``).

Widgets are thin: traitlets hold the state, observers call the exact core
(:mod:`confusionlab.metrics`, :mod:`confusionlab.contours`,
:mod:`confusionlab.lattice`) and ship the results to the browser as binary
buffers.

Each widget module registers the views of the results it shows
(:func:`confusionlab._views.view_for`); importing this package loads them all, which is how
``result.view()`` finds its widget without the result importing it.
"""

from __future__ import annotations

from . import (  # noqa: F401  (imported to register their views)
    audit_view,
    bias_view,
    calibration_view,
    cost_curve_view,
    decision_curve_view,
    decision_view,
    evaluation_view,
    figure_view,
    metric_pmf,
    paired_view,
    planner_view,
    roc_view,
    stability_view,
)
from .roc_slice import RocSlice

__all__ = ["RocSlice"]
