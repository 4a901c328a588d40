"""The F-beta family: one :class:`Metric` per rational ``beta**2``."""

from __future__ import annotations

import numbers
from fractions import Fraction

from .._validation import check_beta
from ._curves import ParametricCurve, _x_param
from ._exact import _ratio
from ._metric import Metric, _div


def fbeta_metric(beta: float | int | Fraction) -> Metric:
    """The F-beta score as a :class:`Metric`; ``beta**2`` must be rational.

    Floats are read through their decimal representation (``0.5`` is 1/2,
    ``0.1`` is 1/10), so exact grouping stays exact.

    >>> fbeta_metric(2).name
    'f2'
    >>> fbeta_metric(1).formula
    '2·TP / (2·TP + 1·FN + 1·FP)'
    """
    check_beta(beta)
    b = Fraction(beta) if isinstance(beta, numbers.Rational) else Fraction(repr(float(beta)))
    b2 = b * b
    r, s = b2.numerator, b2.denominator  # beta² = r / s
    name = "f1" if b == 1 else f"f{float(b):g}"
    b2f = float(b2)

    def contour(k: float, p: int, n: int) -> list[ParametricCurve]:
        if k == 1 + b2f:
            return []
        return [_x_param(lambda x: k * (b2f * p + n * x) / (p * (1 + b2f - k)))]

    label = "F1 score" if b == 1 else f"F-beta score (beta = {b})"
    return Metric(
        name,
        label,
        (0.0, 1.0),
        f"{r + s}·TP / ({r + s}·TP + {r}·FN + {s}·FP)",
        lambda tp, fn, fp, tn: _div((1 + b2f) * tp, (1 + b2f) * tp + b2f * fn + fp),
        lambda tp, fn, fp, tn: _ratio((r + s) * tp, (r + s) * tp + r * fn + s * fp),
        contour,
        swap=None,
        geometry="pencil of lines through (FPR, TPR) = (-β²p/n, 0)",
        aliases=("f_measure", "f1_score") if b == 1 else (),
        magnitude=lambda N: 2 * (r + s) * N,
    )
