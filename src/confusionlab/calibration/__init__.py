"""Calibration of forecast probabilities, with its uncertainty.

:func:`calibration` bins the forecasts as scikit-learn's ``calibration_curve`` does and
returns a :class:`Calibration`: per bin the mean forecast, the observed frequency and the
count; the expected calibration error (ECE) with a conservative interval of the
population's ECE (every bin's outcome rate bounded at once); the Brier score with its
bootstrap interval stratified by bin; the exact consistency band (each bin's
Poisson-binomial central interval, simultaneous over the bins by Šidák); and the Monte
Carlo p-value of calibration.

One module per idea: ``_bins`` (the bins), ``_poisson_binomial`` (the exact PMF and its
error bound), ``_band`` (the band), ``_pvalue`` (the test), ``_ece`` (ECE, Brier score,
bootstrap), ``_ece_interval`` (the ECE's interval), ``_result`` (the result) and
``_calibration`` (the function, its checks).

``confusionlab.calibration`` is the *function* (``cl.calibration(y_true, y_prob)``); this
subpackage is reached by ``from confusionlab.calibration import Calibration, calibration``.

:meth:`Calibration.view` is :class:`confusionlab.CalibrationView`, the interactive
reliability diagram. ``multi_class="classwise"`` and ``groups=`` give a :class:`CalibrationSet`
(one calibration per class or group, bands simultaneous over all of them, ``_multi``);
``multi_class="top-label"`` a :class:`Calibration` of the largest probability of each row.
"""

from ._band import ConsistencyBand, sidak_level
from ._calibration import MAX_BINS, MULTI_CLASS, calibration
from ._multi import CalibrationSet
from ._poisson_binomial import PoissonBinomial, binomial_pmf, central_interval, poisson_binomial_pmf
from ._pvalue import CalibrationTest
from ._result import Calibration

__all__ = [
    "MAX_BINS",
    "MULTI_CLASS",
    "Calibration",
    "CalibrationSet",
    "CalibrationTest",
    "ConsistencyBand",
    "PoissonBinomial",
    "binomial_pmf",
    "calibration",
    "central_interval",
    "poisson_binomial_pmf",
    "sidak_level",
]
