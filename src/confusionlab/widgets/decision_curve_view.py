"""`DecisionCurveView`: is the model worth using, at which threshold probabilities, and how sure.

The view of a :class:`~confusionlab.DecisionCurve`. On one canvas, over the threshold
probabilities ``p_t``: the net benefit of each model, of treating all and of treating none; around
each model its pointwise interval (the darker shade: where the true net benefit lies at one
threshold fixed in advance) and its simultaneous band (the lighter, wider shade: where the whole
true curve lies, every threshold at once). A threshold cursor (a slider, or the ``threshold`` trait)
reads out each model's net benefit with its interval, its band and P(useful) = P(net benefit > 0)
at the nearest threshold of the curve. Python sends every number once (binary buffers); the cursor
only picks a column, so it works offline in the static HTML export too.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import traitlets

from .._validation import check_instance
from .._views import register_view
from ..decision import DecisionCurve
from ._common import Buffer, BundledWidget, Confidence, FiniteReal, Integer, InvalidTraitError, nearest_index

__all__ = ["DecisionCurveView"]


class DecisionCurveView(BundledWidget, bundle="decision_curve"):
    """A :class:`~confusionlab.DecisionCurve` with its intervals, its band and a threshold cursor.

    Parameters
    ----------
    curve : DecisionCurve
        From :func:`confusionlab.decision_curve`.
    confidence : float
        Level of the pointwise intervals and of the simultaneous band (default: the curve's).
    threshold : float
        Where the cursor stands, a threshold probability within the curve's range (the readout is
        at the nearest of the curve's thresholds; default: where the first model gains most over
        treating all and treating none).
    width : int
        Width of the canvas in CSS pixels.

    Notes
    -----
    Browser state: root class ``confusionlab-decision-curve`` with ``data-strategies`` and
    ``data-models`` (counts), ``data-thresholds`` (points per curve), ``data-lines`` and
    ``data-shaded`` (drawn), ``data-index`` and ``data-threshold`` (the cursor's column),
    ``data-net-benefit`` and ``data-prob-useful`` (the models' values there, separated by
    ``;``), ``data-confidence`` and ``data-generation``.

    A refused value (a threshold outside the curve's range, say) changes nothing, in Python or in
    the browser.

    Examples
    --------
    >>> import numpy as np
    >>> import confusionlab as cl
    >>> rng = np.random.default_rng(0)
    >>> risk = rng.uniform(size=400)
    >>> y = rng.uniform(size=400) < risk
    >>> view = cl.DecisionCurveView(cl.decision_curve(y, {"model": risk}), threshold=0.3)
    >>> view._summary["names"], round(view.threshold, 2), view.index
    (['model', 'treat all', 'treat none'], 0.3, 30)
    >>> view.confidence = 0.8
    >>> view._summary["confidence"]
    0.8
    """

    confidence = Confidence(0.95, help="level of the pointwise intervals and of the band").tag(sync=True)
    threshold = FiniteReal(0.0, help="the cursor's threshold probability").tag(sync=True)
    width = Integer(640, min=320, max=2400, help="width in CSS pixels").tag(sync=True)
    generation = Integer(0, help="state counter set by a controller").tag(sync=True)

    _thresholds = Buffer("<f8").tag(sync=True)
    _net_benefit = Buffer("<f8").tag(sync=True)
    _lower = Buffer("<f8").tag(sync=True)
    _upper = Buffer("<f8").tag(sync=True)
    _band_lower = Buffer("<f8").tag(sync=True)
    _band_upper = Buffer("<f8").tag(sync=True)
    _prob_useful = Buffer("<f8").tag(sync=True)
    _summary = traitlets.Dict().tag(sync=True)

    def __init__(self, curve: DecisionCurve, **kwargs: Any) -> None:
        self._curve = check_instance(
            curve, "curve", DecisionCurve, "a DecisionCurve (from confusionlab.decision_curve)"
        )
        kwargs.setdefault("confidence", curve.confidence)
        kwargs.setdefault("threshold", float(curve.thresholds[self._default_index(curve)]))
        super().__init__(**kwargs)

    @staticmethod
    def _default_index(curve: DecisionCurve) -> int:
        nb = curve.net_benefit
        gain = nb[curve.models[0]] - np.maximum(nb["all"], 0.0)
        return int(np.nanargmax(gain)) if np.isfinite(gain).any() else 0

    @property
    def curve(self) -> DecisionCurve:
        """The decision curve shown."""
        return self._curve

    @property
    def index(self) -> int:
        """The column of the curve the cursor reads: the threshold nearest to :attr:`threshold`."""
        return nearest_index(self._curve.thresholds, self.threshold)

    @traitlets.validate("threshold")
    def _check_threshold(self, proposal: traitlets.Bunch) -> float:
        value = proposal.value
        t = self._curve.thresholds
        lo, hi = float(t.min()), float(t.max())
        if not lo <= value <= hi:
            raise InvalidTraitError(
                f"threshold must be a threshold probability in the curve's range [{lo:g}, {hi:g}], got {value!r}"
            )
        return value

    @traitlets.observe("confidence")
    def _on_change(self, change: traitlets.Bunch) -> None:
        self._request({"all"})

    def _refresh(self, parts: set[str]) -> None:
        curve, level = self._curve, self.confidence
        names = [*curve.models, "all", "none"]
        intervals = curve.interval_arrays(level, target=curve.target)
        band = curve.band(level)
        nb = curve.net_benefit
        self._thresholds = curve.thresholds
        self._net_benefit = np.concatenate([nb[k] for k in names])
        self._lower = np.concatenate([intervals[k][0] for k in names])
        self._upper = np.concatenate([intervals[k][1] for k in names])
        self._band_lower = np.concatenate([band.lower[k] for k in names])
        self._band_upper = np.concatenate([band.upper[k] for k in names])
        self._prob_useful = np.concatenate([curve.prob_useful[m] for m in curve.models])
        self._summary = self._words(curve, level)

    @staticmethod
    def _words(curve: DecisionCurve, level: float) -> dict[str, Any]:
        pct = f"{level:.0%}"
        top = max(float(np.nanmax(v)) for v in curve.net_benefit.values())
        top = max(top, 0.01)
        prevalence = "given" if curve.prevalence_given else "observed"
        return {
            "names": [str(m) for m in curve.models] + ["treat all", "treat none"],
            "models": len(curve.models),
            "confidence": level,
            "y_range": [-0.05 * top - 0.01, 1.15 * top],
            "title": f"Decision curve: {curve.n:,} examples, {prevalence} prevalence {curve.prevalence:.3g}",
            "text": curve.summary(level),
            "note": (
                "Each coloured line is a model's net benefit: the true positives it finds per example, minus its "
                "false positives weighed at the exchange rate p_t/(1 − p_t) (a false positive costs that many true "
                "positives). The grey line treats everyone, the black line at 0 treats no one; a model is worth "
                f"using where its line is above both. Darker shade: the {pct} interval at each threshold on its "
                "own — where the true net benefit lies if that threshold was fixed in advance. Lighter, wider "
                f"shade: the {pct} band that holds at every threshold at once — it stays valid when the threshold "
                "is picked after looking at this curve. P(useful): the probability that the model's true net "
                "benefit is above 0, better than treating no one. Move the slider to read a threshold."
            ),
        }


register_view(DecisionCurve, DecisionCurveView)
