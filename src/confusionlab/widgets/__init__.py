"""Jupyter widgets of ConfusionLab (anywidget front-ends bundled from ``js/``).

Widgets are thin: traitlets hold the state, observers call the exact core
(:mod:`confusionlab.metrics`, :mod:`confusionlab.contours`,
:mod:`confusionlab.lattice`) and ship the results to the browser as binary
buffers.
"""

from __future__ import annotations

from .roc_slice import RocSlice

__all__ = ["RocSlice"]
