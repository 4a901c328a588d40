"""Figures of the lessons on metric distributions (notebooks 01–04).

PMF panels of the two uncertainty models, multiplicities on a slice, contour
families and MCC ellipses in ROC space, a slice's lattice with the points on a
contour, and the 1/√N shrinkage pictures. Every helper draws on the matplotlib
``Axes`` it is given (or on a new one), puts a title on every axis and returns the
axes; colours come from :mod:`confusionlab.lessons.style`.

This module gives the lessons' names; the figures live by topic in ``_pmfs`` (PMF panels),
``_roc_contours`` (contours and lattices in ROC space), ``_shrinkage`` (PMFs and SDs as N
grows), ``_questions`` (the three questions of lesson 01) and ``_colours`` (shades and
level colours).

Examples
--------
>>> import matplotlib
>>> matplotlib.use("Agg")
>>> import confusionlab as cl
>>> from confusionlab.lessons.distributions import plot_pmf
>>> d = cl.metric_distribution(cl.ConfusionMatrix(tp=16, fn=4, fp=8, tn=32), "balanced_accuracy", tolerance=0)
>>> ax = plot_pmf(d, model="beta-binomial", xlabel="balanced accuracy")
>>> ax.get_xlabel(), ax.get_ylabel(), len(ax.collections[0].get_segments())
('balanced accuracy', 'probability', 81)
"""

from __future__ import annotations

from ..models import SLICE_MODELS
from ._colours import MAX_SHADES, darker, shades
from ._colours import _level_colours as _level_colours
from ._figure import MAX_BINS
from ._pmfs import plot_model_pair, plot_multiplicities, plot_pmf
from ._questions import QUESTIONS, plot_three_questions, three_questions
from ._roc_contours import (
    MAX_LATTICE_POINTS,
    default_levels,
    plot_contour_families,
    plot_contours,
    plot_eccentricity,
    plot_lattice_contours,
    plot_mcc_ellipses,
)
from ._shrinkage import plot_intervals, plot_pmf_histograms, plot_sd_loglog

__all__ = [
    "MAX_BINS",
    "MAX_LATTICE_POINTS",
    "MAX_SHADES",
    "MODELS",
    "QUESTIONS",
    "darker",
    "default_levels",
    "plot_contour_families",
    "plot_contours",
    "plot_eccentricity",
    "plot_intervals",
    "plot_lattice_contours",
    "plot_mcc_ellipses",
    "plot_model_pair",
    "plot_multiplicities",
    "plot_pmf",
    "plot_pmf_histograms",
    "plot_sd_loglog",
    "plot_three_questions",
    "shades",
    "three_questions",
]

#: The two slice models, in the order the lessons show them (an alias of
#: :data:`confusionlab.models.SLICE_MODELS`).
MODELS: tuple[str, ...] = SLICE_MODELS
