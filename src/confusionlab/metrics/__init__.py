"""Binary confusion-matrix metrics: value, exact grouping form and contour.

Every metric in :data:`METRICS` carries three things:

* ``values(tp, fn, fp, tn)`` — the value as a float, vectorised over numpy arrays;
* ``exact(tp, fn, fp, tn)`` — an :class:`ExactForm`: the value written as a ratio
  of two integer arrays ``num / den`` (or, for square-root metrics, as a signed
  square ``sign * sqrt(|num| / den)``). Two lattice points have the same metric
  value exactly when their ratios are equal as rational numbers, which is what
  :mod:`confusionlab.grouping` groups on;
* ``contour(level, p, n)`` — the level set in ROC space (x = FPR, y = TPR) as a
  parametric curve (see :mod:`confusionlab.contours`).

A point where a metric is 0/0 is *undefined* (e.g. MCC at the ROC corners);
``values`` returns ``undefined`` there (0.0 by default, the paper's convention).
A ratio with a zero denominator and a non-zero numerator is ±inf, not undefined
(LR+ with FPR = 0 < TPR, LR− with TNR = 0, DOR with FN·FP = 0 < TP·TN), as in
scikit-learn, pycm and the authors' R code: the ratio grows without bound as its
denominator shrinks, whereas 0/0 has no limit to report.
"""

from __future__ import annotations

from ._curves import ParametricCurve
from ._exact import ExactForm
from ._fbeta import fbeta_metric
from ._metric import Metric
from ._registry import METRICS, get_metric, metric_value

__all__ = [
    "METRICS",
    "ExactForm",
    "Metric",
    "ParametricCurve",
    "fbeta_metric",
    "get_metric",
    "metric_value",
]
