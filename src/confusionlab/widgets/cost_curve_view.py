"""`CostCurveView`: what a classifier costs at every class prior and cost ratio, and how sure.

The view of a :class:`~confusionlab.CostCurve` (Drummond & Holte): the normalised expected cost of
the best operating point against the probability cost PC(+), the ROC hull points' cost lines (grey),
the trivial classifiers (dashed) and the simultaneous band (shaded: where the whole true cost curve
lies, every PC at once). A cursor (a slider, or the ``probability_cost`` trait) reads out the cost,
its band and the operating point that is best there. Python sends every number once; the cursor only
picks a column, so it works offline in the static HTML export too.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import traitlets

from .._validation import check_instance
from .._views import register_view
from ..decision import CostCurve
from ._common import Buffer, BundledWidget, Confidence, FiniteReal, Integer, InvalidTraitError, nearest_index

__all__ = ["CostCurveView"]


class CostCurveView(BundledWidget, bundle="cost_curve"):
    """A :class:`~confusionlab.CostCurve` with its simultaneous band and a probability-cost cursor.

    Parameters
    ----------
    curve : CostCurve
        From :func:`confusionlab.cost_curve`.
    confidence : float
        Level of the simultaneous band (default 0.95).
    probability_cost : float
        Where the cursor stands, in [0, 1] (the readout is at the nearest point of the curve's grid).
    width : int
        Width of the canvas in CSS pixels.

    Notes
    -----
    Browser state: root class ``confusionlab-cost-curve`` with ``data-points`` (grid points),
    ``data-hull`` (hull lines drawn), ``data-shaded`` (1 when the band is drawn), ``data-index``,
    ``data-probability-cost``, ``data-cost``, ``data-band`` (lower;upper at the cursor),
    ``data-confidence`` and ``data-generation``.

    Examples
    --------
    >>> import confusionlab as cl
    >>> view = cl.CostCurveView(cl.cost_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), probability_cost=0.5)
    >>> view.index, round(float(view.curve.cost[view.index]), 4)
    (250, 0.25)
    """

    confidence = Confidence(0.95, help="level of the simultaneous band").tag(sync=True)
    probability_cost = FiniteReal(0.5, help="the cursor's probability cost PC(+)").tag(sync=True)
    width = Integer(560, min=320, max=2400, help="width in CSS pixels").tag(sync=True)
    generation = Integer(0, help="state counter set by a controller").tag(sync=True)

    _pc = Buffer("<f8").tag(sync=True)
    _cost = Buffer("<f8").tag(sync=True)
    _lower = Buffer("<f8").tag(sync=True)
    _upper = Buffer("<f8").tag(sync=True)
    _hull_fpr = Buffer("<f8").tag(sync=True)
    _hull_tpr = Buffer("<f8").tag(sync=True)
    _best = Buffer("<i4").tag(sync=True)
    _summary = traitlets.Dict().tag(sync=True)

    def __init__(self, curve: CostCurve, **kwargs: Any) -> None:
        self._curve = check_instance(curve, "curve", CostCurve, "a CostCurve (from confusionlab.cost_curve)")
        super().__init__(**kwargs)

    @property
    def curve(self) -> CostCurve:
        """The cost curve shown."""
        return self._curve

    @property
    def index(self) -> int:
        """The grid point the cursor reads: the probability cost nearest to :attr:`probability_cost`."""
        return nearest_index(self._curve.probability_cost, self.probability_cost)

    @traitlets.validate("probability_cost")
    def _check_probability_cost(self, proposal: traitlets.Bunch) -> float:
        value = proposal.value
        if not 0.0 <= value <= 1.0:
            raise InvalidTraitError(f"probability_cost must lie in [0, 1], got {value!r}")
        return value

    @traitlets.observe("confidence")
    def _on_change(self, change: traitlets.Bunch) -> None:
        self._request({"all"})

    def _refresh(self, parts: set[str]) -> None:
        curve, level = self._curve, self.confidence
        band = curve.band(level)
        pc, f, t = curve.probability_cost, curve.hull_fpr, curve.hull_tpr
        lines = (1.0 - t)[None, :] * pc[:, None] + f[None, :] * (1.0 - pc[:, None])
        lo, hi = curve.interval(level)
        pct = f"{level:.0%}"
        self._pc, self._cost = pc, curve.cost
        self._lower, self._upper = band.lower, band.upper
        self._hull_fpr, self._hull_tpr = f, t
        self._best = lines.argmin(axis=1).astype(np.int32)
        self._summary = {
            "confidence": level,
            "area": curve.value,
            "interval": [lo, hi],
            "title": f"Cost curve: {curve.p:,} positives, {curve.n:,} negatives",
            "text": curve.summary(level),
            "note": (
                "The thick line is the classifier's normalised expected cost when it uses its best operating point "
                "for the class prior and costs summed up by the probability cost PC(+) on the x axis (0: only "
                "false positives cost, 1: only missed positives do). Each grey line is the cost of one point of the "
                "ROC convex hull (the points that can be best); the "
                "dashed lines are the trivial classifiers (everything negative, everything positive): below them "
                f"the classifier is worth using. Shaded: the {pct} band that holds the true cost curve at every "
                "PC(+) at once. Move the slider to read a probability cost."
            ),
        }


register_view(CostCurve, CostCurveView)
