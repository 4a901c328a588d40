"""`CalibrationView`: is this model calibrated — the reliability diagram with its exact band.

The reliability diagram of a :class:`~confusionlab.calibration.Calibration` (observed frequency
against mean forecast, per bin) with the exact consistency band as a bar over each bin, the
histogram of the forecasts below it on the same axis, and the expected calibration error with
its interval and the p-value of calibration in words. Every number comes from the
:class:`~confusionlab.calibration.Calibration`; the browser only scales and draws. A canvas
anywidget, so it renders in the static HTML export offline.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets
import traitlets

from .._validation import check_instance
from .._views import register_view
from ..calibration import Calibration, CalibrationSet, CalibrationTest
from ._common import Buffer, BundledWidget, Confidence, Integer

__all__ = ["CalibrationView", "calibration_set_view", "p_value_in_words"]


def p_value_in_words(test: CalibrationTest, confidence: float = 0.95) -> str:
    """What the p-value of calibration says, in a sentence.

    >>> from confusionlab.calibration import CalibrationTest
    >>> print(p_value_in_words(CalibrationTest(0.42, 0.005, 0.031, 10_000)))
    If the forecasts were calibrated, an ECE of at least 0.031 would occur in about 42% of test sets like this one (p = 0.42 ± 0.005, 10,000 Monte Carlo draws): no evidence of miscalibration (which does not prove calibration).
    >>> print(p_value_in_words(CalibrationTest(1 / 10_001, 1e-4, 0.2, 10_000)))
    If the forecasts were calibrated, an ECE of at least 0.2 would occur in fewer than 1 in 10,000 test sets like this one (p = 0.0001 ± 0.0001, 10,000 Monte Carlo draws): evidence of miscalibration at the 5% level.
    """  # noqa: E501
    p, draws = test.p_value, test.n_draws
    how_often = f"fewer than 1 in {draws:,}" if p <= 1.5 / (1 + draws) else f"about {100 * p:.2g}% of"
    alpha = 1 - confidence
    verdict = (
        f"evidence of miscalibration at the {alpha:.0%} level"
        if p < alpha
        else "no evidence of miscalibration (which does not prove calibration)"
    )
    return (
        f"If the forecasts were calibrated, an ECE of at least {test.statistic:.3g} would occur in {how_often} "
        f"test sets like this one (p = {p:.2g} ± {test.mc_error:.1g}, {draws:,} Monte Carlo draws): {verdict}."
    )


class CalibrationView(BundledWidget, bundle="calibration"):
    """The reliability diagram of a :class:`~confusionlab.calibration.Calibration`, with its band.

    Parameters
    ----------
    calibration : Calibration
        From :func:`confusionlab.calibration`.
    confidence : float
        Simultaneous level of the consistency band and level of the ECE's interval (default 0.95).
    width : int
        Width of the diagram in CSS pixels.
    histogram_bins : int
        Equal-width bins over [0, 1] of the forecasts' histogram.

    Notes
    -----
    Browser state: root class ``confusionlab-calibration`` with ``data-bins`` (non-empty
    bins), ``data-points`` and ``data-bands`` (drawn), ``data-bars`` (histogram bars drawn),
    ``data-outside`` (bins outside the band), ``data-confidence``, ``data-ece``,
    ``data-p-value`` and ``data-generation``.

    A refused value (a confidence outside (0, 1), say) changes nothing, in Python or in
    the browser.

    Examples
    --------
    >>> import numpy as np
    >>> import confusionlab as cl
    >>> rng = np.random.default_rng(0)
    >>> q = rng.uniform(size=1000)
    >>> cal = cl.calibration(rng.uniform(size=1000) < q, q, bins=5, random_state=0)
    >>> view = cl.CalibrationView(cal)
    >>> view._summary["bins"], view._summary["outside"]
    (5, 0)
    >>> view.confidence = 0.8
    >>> view._summary["confidence"]
    0.8
    """

    confidence = Confidence(0.95, help="level of the band and of the ECE's interval").tag(sync=True)
    width = Integer(420, min=240, max=2000, help="width in CSS pixels").tag(sync=True)
    histogram_bins = Integer(40, min=5, max=400, help="bins of the forecasts' histogram")
    generation = Integer(0, help="state counter set by a controller").tag(sync=True)

    _ALL_PARTS = frozenset({"all"})

    _x = Buffer("<f8").tag(sync=True)
    _observed = Buffer("<f8").tag(sync=True)
    _lower = Buffer("<f8").tag(sync=True)
    _upper = Buffer("<f8").tag(sync=True)
    _counts = Buffer("<f8").tag(sync=True)
    _outside = Buffer("<f4").tag(sync=True)
    _hist_edges = Buffer("<f8").tag(sync=True)
    _hist_counts = Buffer("<f8").tag(sync=True)
    _summary = traitlets.Dict().tag(sync=True)

    def __init__(self, calibration: Calibration, **kwargs: Any) -> None:
        self._calibration = check_instance(
            calibration, "calibration", Calibration, "a Calibration (from confusionlab.calibration)"
        )
        super().__init__(**kwargs)

    @property
    def calibration(self) -> Calibration:
        return self._calibration

    @traitlets.observe("confidence", "histogram_bins")
    def _on_change(self, change: traitlets.Bunch) -> None:
        self._request({"all"})

    def _refresh(self, parts: set[str]) -> None:
        cal, c = self._calibration, self.confidence
        band = cal.band(c)
        lo, hi = cal.interval(c)
        b_lo, b_hi = cal.brier_interval(c)
        test = cal.test()
        boot = cal.bootstrap_error
        counts, edges = cal.histogram(self.histogram_bins)
        pct = f"{c:.0%}"
        outside = int(band.outside.sum())
        self._x = cal.mean_forecast
        self._observed = cal.observed_frequency
        self._lower = band.lower
        self._upper = band.upper
        self._counts = cal.counts
        self._outside = band.outside
        self._hist_edges = edges
        self._hist_counts = counts
        self._summary = {
            "ece": cal.value,
            "interval": [lo, hi],
            "brier": cal.brier,
            "brier_interval": [b_lo, b_hi],
            "confidence": c,
            "p_value": test.p_value,
            "mc_error": test.mc_error,
            "n_draws": test.n_draws,
            "bins": cal.n_bins,
            "forecasts": cal.n_forecasts,
            "outside": outside,
            "per_bin_confidence": band.per_bin_confidence,
            "note": (
                f"Bars: the {'exact' if cal.approximation is None else 'approximate'} {pct} consistency band — where "
                f"calibrated forecasts would put each bin's observed frequency, all {cal.n_bins} bins at once with "
                f"probability at least {pct} ("
                f"{'Poisson-binomial' if cal.approximation is None else 'binomial at each bin mean'}, "
                f"each bin at {band.per_bin_confidence:.4g}). {outside} of {cal.n_bins} bins lie outside "
                f"(red). Dashed: perfect calibration. Below: the forecasts' histogram."
            ),
            "verdict": p_value_in_words(test, c),
            "error_note": (
                f"{cal.n_forecasts:,} forecasts (how each interval is computed: this line's tooltip)."
                + ("" if cal.approximation is None else f" Approximate: {cal.approximation}.")
            ),
            "error_detail": (
                f"Band exact up to {band.error_bound:.1g} in probability; "
                "the ECE's interval bounds every bin's outcome rate at once (Clopper–Pearson, Šidák): it holds "
                f"the population's ECE with probability at least {pct}, conservatively; the Brier score's from "
                f"{cal.n_resamples:,} stratified bootstrap resamples ("
                + (
                    "every bin resampled pair by pair)."
                    if boot.normal_bins == 0
                    else f"approximation error at most {boot.brier_error:.1g})."
                )
            ),
        }


def calibration_set_view(calibrations: CalibrationSet) -> ipywidgets.VBox:
    """The view of a :class:`~confusionlab.calibration.CalibrationSet`: one :class:`CalibrationView`
    per member, each band at the member level that makes all of them hold at once with probability
    at least 95 %."""
    level = calibrations.member_confidence(0.95, what="band")
    member = calibrations.member_noun
    header = ipywidgets.HTML(
        f"<p>One diagram per {member}; each band at {level:.4g} so that all hold at once with probability "
        "at least 95 %.</p>"
    )
    views = [CalibrationView(c, confidence=level) for c in calibrations.members.values()]
    titles = [ipywidgets.HTML(f"<b>{member} {html.escape(str(name))}</b>") for name in calibrations.members]
    boxes = [ipywidgets.VBox([t, v]) for t, v in zip(titles, views, strict=True)]
    return ipywidgets.VBox([header, ipywidgets.HBox(boxes, layout=ipywidgets.Layout(flex_flow="row wrap"))])


register_view(Calibration, CalibrationView)
register_view(CalibrationSet, calibration_set_view)
