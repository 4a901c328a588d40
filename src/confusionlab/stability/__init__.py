"""Predictive stability of non-deterministic models.

How much do the predictions of a random forest, a boosted ensemble or a neural network
change when it is refitted with another seed? This subpackage measures that per object
and in aggregate, compares it with the classical agreement coefficients, and models
stability against the number of learners to recommend how many to use:

* :func:`phi` and :func:`psi` (:func:`stability` for any reference sample): per-object
  stability S_i = 1 − D_o,i / D_e and its mean, a :class:`StabilityResult`;
* :func:`fleiss_kappa`, :func:`gwet_ac1`, :func:`krippendorff_alpha`, :func:`icc`: the
  classical agreement coefficients, with refits as raters;
* :func:`stability_curve`: refits over a grid of learner counts (a :class:`StabilityCurve`),
  :func:`fit_2pl` and :class:`TwoPLFit`: the two-parameter logistic model of stability
  against the number of learners, and how many learners reach a ``stability_target``.

The method follows T. M. Lange, F. Heinrich et al., "A General Framework for Stability
Assessment of Non-Deterministic Prediction Models" (R package APS) and the optRF package
for the 2PL model.

>>> from confusionlab import stability as st
>>> s = st.phi([[0, 1], [0, 1], [0, 0]], train_y=[0, 1, 1, 0], scale="nominal")
>>> s.per_object.round(3).tolist(), round(s.value, 3)
([1.0, 0.0], 0.5)

Importing this module is light (numpy and scipy only); scikit-learn, joblib and tqdm are
imported only when :func:`stability_curve` runs.
"""

from __future__ import annotations

from ._input import MAX_CATEGORIES
from ._undefined import Coefficient, UndefinedCoefficientWarning, UndefinedError
from .comparators import ICC_FORMS, fleiss_kappa, gwet_ac1, icc, krippendorff_alpha
from .curve import DEFAULT_N_LEARNERS, StabilityCurve, stability_curve
from .distances import *  # noqa: F403 (the distance functions, listed once in distances.__all__)
from .distances import __all__ as _DISTANCES
from .measures import MAX_BOOT, MAX_RESAMPLES, StabilityResult, phi, psi, stability
from .twopl import (
    EXTRAPOLATION_FACTOR,
    MIN_LOGIT_RISE,
    DegenerateFitWarning,
    ExtrapolationWarning,
    Recommendation,
    TwoPLFit,
    fit_2pl,
    twopl,
)

__all__ = [
    "DEFAULT_N_LEARNERS",
    "EXTRAPOLATION_FACTOR",
    "ICC_FORMS",
    "MAX_BOOT",
    "MAX_CATEGORIES",
    "MAX_RESAMPLES",
    "MIN_LOGIT_RISE",
    "Coefficient",
    "DegenerateFitWarning",
    "ExtrapolationWarning",
    "Recommendation",
    "StabilityCurve",
    "StabilityResult",
    "TwoPLFit",
    "UndefinedCoefficientWarning",
    "UndefinedError",
    "fit_2pl",
    "fleiss_kappa",
    "gwet_ac1",
    "icc",
    "krippendorff_alpha",
    "phi",
    "psi",
    "stability",
    "stability_curve",
    "twopl",
    *_DISTANCES,
]
