"""Predictive stability of non-deterministic models (SPEC Part C).

How much do the predictions of a random forest, a boosted ensemble or a neural network
change when it is refitted with another seed? This subpackage measures that per object
and in aggregate, compares it with the classical agreement coefficients, and models
stability against the number of learners to recommend how many to use.

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
from .distances import (
    mean_pair_distance,
    mean_pair_squared_difference,
    nominal_distances,
    ordinal_distances,
    ordinal_positions,
    pair_distance_sums,
)
from .measures import MAX_BOOT, StabilityResult, phi, psi, stability
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
    "mean_pair_distance",
    "mean_pair_squared_difference",
    "nominal_distances",
    "ordinal_distances",
    "ordinal_positions",
    "pair_distance_sums",
    "phi",
    "psi",
    "stability",
    "stability_curve",
    "twopl",
]
