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

import numbers
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from ._validation import InvalidParameterError, check_beta, check_instance, check_undefined
from .confusion import ConfusionMatrix

__all__ = [
    "METRICS",
    "ExactForm",
    "Metric",
    "ParametricCurve",
    "fbeta_metric",
    "get_metric",
    "metric_value",
]

ArrayLike = Any


# ----------------------------------------------------------------------------- exact forms
@dataclass(frozen=True)
class ExactForm:
    """A metric value as an exact ratio of integer arrays.

    ``kind == "ratio"``: value = ``scale * num / den``.
    ``kind == "signed_square"``: value = ``sign(num) * sqrt(scale * |num| / den)``.
    ``kind == "custom"``: value = ``transform(num, den)``.
    In every kind the value is a non-decreasing function of the rational number
    ``num / den``, so equal ratios mean equal values and sorting by the ratio
    sorts by value. Points with ``num == den == 0`` or in ``undefined`` are undefined (0/0);
    points with ``den == 0 != num`` are ±inf (x/0, by the sign of ``num``).

    ``bounds``, when known without scanning the lattice (e.g. on a slice, see
    :meth:`Metric._exact_on_slice`), are upper bounds on ``|num|``, ``den`` and
    ``|num / den|`` over the points with ``den > 0``; :mod:`confusionlab.grouping` then
    skips its scans of the lattice.
    """

    num: np.ndarray
    den: np.ndarray
    kind: str = "ratio"
    scale: float = 1.0
    undefined: np.ndarray | None = None
    transform: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None
    bounds: tuple[float, float, float] | None = None

    def special_points(self, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The points where the value is not ``num/den``: ``(where, undefined, sign)``.

        ``where`` are flat indices into ``shape`` of every point with ``den == 0`` or in
        ``undefined`` (one pass over the lattice; such points are few). For each,
        ``undefined`` says 0/0 (or listed in ``undefined``), and ``sign`` is +1/−1 for the
        rest, which are x/0 = ±inf.
        """
        special = np.broadcast_to(np.asarray(self.den) == 0, shape)
        if self.undefined is not None:
            special = special | np.broadcast_to(self.undefined, shape)
        if not special.any():
            empty = np.empty(0, dtype=np.intp)
            return empty, np.empty(0, dtype=bool), np.empty(0)
        where = np.flatnonzero(special)
        at = np.unravel_index(where, shape)
        num = np.broadcast_to(np.asarray(self.num), shape)[at]
        den = np.broadcast_to(np.asarray(self.den), shape)[at]
        undefined = (den == 0) & (num == 0)
        if self.undefined is not None:
            undefined |= np.broadcast_to(self.undefined, shape)[at]
        return where, undefined, np.sign(num).astype(np.float64)

    def value(self, num: np.ndarray, den: np.ndarray, *, overwrite: bool = False) -> np.ndarray:
        """The metric value of integer ratios ``num/den`` (``den > 0``).

        ``den`` may be the scalar 1 (``num`` then holds the ratios, as floats). With
        ``overwrite=True`` a float64 ``num`` may be overwritten by the result.
        """
        num = np.asarray(num, dtype=np.float64)
        den_one = np.ndim(den) == 0 and den == 1
        den = np.asarray(den, dtype=np.float64)
        if self.kind == "ratio":
            return self.scale * (num / den) if self.scale != 1.0 else num / den
        if self.kind == "signed_square":  # sign(num) * sqrt(scale * (|num| / den)), in place
            negative = num < 0
            out = num if overwrite and num.ndim and num.flags.writeable else np.empty_like(num)
            np.abs(num, out=out)
            if not den_one:  # x / 1.0 == x
                np.divide(out, den, out=out)
            if self.scale != 1.0:
                np.multiply(out, self.scale, out=out)
            np.sqrt(out, out=out)
            np.negative(out, out=out, where=negative)  # = sign(num) * out: +0.0 where num is ±0
            return out if out.ndim else out[()]
        assert self.transform is not None
        return self.transform(num, den)


def _i(x: ArrayLike) -> np.ndarray:
    arr = np.asarray(x)
    if arr.dtype.kind not in "iu":
        raise InvalidParameterError(f"exact forms need integer counts, got an array of dtype {arr.dtype}")
    return arr.astype(np.int64, copy=False)


# ----------------------------------------------------------------------------- contours
@dataclass(frozen=True)
class ParametricCurve:
    """A contour branch ``t -> (fpr(t), tpr(t))`` for ``t`` in ``[t_min, t_max]``.

    ``t_range(window)`` gives the parameter range that covers a window
    ``(x0, x1, y0, y1)``; ``xy(t)`` gives the points (NaN where the curve does
    not exist).
    """

    xy: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]
    t_range: Callable[[tuple[float, float, float, float]], tuple[float, float]]
    spacing: str = "linear"  # or "cosine" (denser at both ends)


def _x_param(y_of_x: Callable[[np.ndarray], np.ndarray]) -> ParametricCurve:
    return ParametricCurve(lambda t: (t, y_of_x(t)), lambda w: (w[0], w[1]))


def _y_param(x_of_y: Callable[[np.ndarray], np.ndarray]) -> ParametricCurve:
    return ParametricCurve(lambda t: (x_of_y(t), t), lambda w: (w[2], w[3]))


def _horizontal(y0: float) -> ParametricCurve:
    return _x_param(lambda x: np.full_like(x, y0))


def _vertical(x0: float) -> ParametricCurve:
    return _y_param(lambda y: np.full_like(y, x0))


def _u_param(d_of_u: Callable[[np.ndarray], np.ndarray], prevalence: float, *, u01: bool) -> ParametricCurve:
    """Curves written in u = π·TPR + (1−π)·FPR and d = TPR − FPR (MCC, markedness)."""

    def xy(u: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        d = d_of_u(u)
        return u - prevalence * d, u + (1 - prevalence) * d

    def t_range(w: tuple[float, float, float, float]) -> tuple[float, float]:
        if u01:
            return 0.0, 1.0
        lo = (1 - prevalence) * w[0] + prevalence * w[2]
        hi = (1 - prevalence) * w[1] + prevalence * w[3]
        return lo, hi

    return ParametricCurve(xy, t_range, "cosine" if u01 else "linear")


# ----------------------------------------------------------------------------- the metric type
@dataclass(frozen=True)
class Metric:
    """A confusion-matrix metric: its value, exact grouping form and contour.

    Attributes
    ----------
    name : str
        Registry name, e.g. ``"mcc"``.
    label : str
        Display name, e.g. ``"Matthews correlation coefficient"``.
    range : tuple of float
        Smallest and largest possible value.
    formula : str
        The definition in counts.
    swap : str or None
        Name of the metric this one becomes when the positive and negative classes
        are exchanged (itself for symmetric metrics).
    geometry : str
        What its ROC-space contours look like.
    """

    name: str
    label: str
    range: tuple[float, float]
    formula: str
    _float: Callable[..., np.ndarray] = field(repr=False)
    _exact: Callable[..., ExactForm] = field(repr=False)
    _contour: Callable[[float, int, int], list[ParametricCurve]] = field(repr=False)
    swap: str | None = None
    geometry: str = ""
    aliases: tuple[str, ...] = ()
    #: N -> a bound on every integer the exact form computes for matrices of total N
    magnitude: Callable[[int], int] = field(default=lambda N: N * N, repr=False)
    #: (tp, tn, p, n) -> the exact form on the slice p, n (same integers, fewer passes, bounds), or None
    _slice_exact: Callable[..., ExactForm] | None = field(default=None, repr=False)

    def values(
        self, tp: ArrayLike, fn: ArrayLike, fp: ArrayLike, tn: ArrayLike, *, undefined: float = 0.0
    ) -> np.ndarray:
        """Metric values as float64 (broadcasting), ``undefined`` where 0/0.

        Counts may be floats (e.g. ``p * tpr``) to evaluate at any ROC point.
        """
        args = [np.asarray(a, dtype=np.float64) for a in (tp, fn, fp, tn)]
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.asarray(self._float(*args), dtype=np.float64)
        if undefined == undefined:  # not NaN: replace
            out = np.where(np.isnan(out), undefined, out)
        return out

    def exact(self, tp: ArrayLike, fn: ArrayLike, fp: ArrayLike, tn: ArrayLike, *, as_float: bool = False) -> ExactForm:
        """The exact integer form used to group equal values (see :class:`ExactForm`).

        With ``as_float=True`` the integers are computed in float64, which is exact
        (and faster) while ``self.magnitude(N) < 2**53``; the caller checks that.
        """
        counts = [_i(c) for c in (tp, fn, fp, tn)]
        if as_float:
            counts = [c.astype(np.float64) for c in counts]
        return self._exact(*counts)

    def _exact_on_slice(self, tp: ArrayLike, tn: ArrayLike, p: int, n: int, *, as_float: bool = False) -> ExactForm:
        """An exact form for the points ``(tp, p − tp, n − tn, tn)`` of the slice ``p``, ``n``.

        The same integers as :meth:`exact` (so the same groups and the very same values),
        computed with the slice's constants in fewer passes over the lattice, and with
        ``bounds`` known in advance (see :class:`ExactForm`). MCC: ``TP·TN − FP·FN =
        n·TP − p·FP`` and ``(TP + FN)(FP + TN) = p·n``. Metrics without a slice form
        return :meth:`exact`. ``tp`` and ``tn`` broadcast together (a column and a row
        on a lattice); ``as_float`` as in :meth:`exact`.

        Examples
        --------
        >>> mcc = get_metric("mcc")
        >>> tp, tn = np.array([[3], [4]]), np.array([[5, 6]])
        >>> form = mcc._exact_on_slice(tp, tn, 5, 7)
        >>> form.num.tolist(), form.den.tolist()
        ([[121, 256], [324, 529]], [[1225, 1120], [1260, 1225]])
        >>> plain = mcc.exact(tp, 5 - tp, 7 - tn, tn)
        >>> bool((plain.num == form.num).all() and (plain.den == form.den).all())
        True
        """
        tp, tn = _i(tp), _i(tn)
        p, n = int(p), int(n)
        if self._slice_exact is None:
            return self.exact(tp, p - tp, n - tn, tn, as_float=as_float)
        if as_float:
            tp, tn = tp.astype(np.float64), tn.astype(np.float64)
        return self._slice_exact(tp, tn, p, n)

    def rate_values(
        self, fpr: ArrayLike, tpr: ArrayLike, p: float, n: float, *, undefined: float = np.nan
    ) -> np.ndarray:
        """Value at ROC point(s) ``(fpr, tpr)`` of a slice with ``p`` positives, ``n`` negatives."""
        fpr = np.asarray(fpr, dtype=np.float64)
        tpr = np.asarray(tpr, dtype=np.float64)
        return self.values(p * tpr, p * (1 - tpr), n * fpr, n * (1 - fpr), undefined=undefined)

    def contour_curves(self, level: float, p: int, n: int) -> list[ParametricCurve]:
        """The ``level`` contour's branches as parametric curves in ROC space."""
        return self._contour(float(level), p, n)

    def __call__(self, cm: ConfusionMatrix, *, undefined: float = 0.0) -> float:
        return float(self.values(cm.tp, cm.fn, cm.fp, cm.tn, undefined=undefined))


def _div(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a / b, where x/0 is ±inf and only 0/0 (or NaN) is NaN, the metric being undefined there."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(b == 0, np.where((a == 0) | np.isnan(a), np.nan, np.copysign(np.inf, a)), a / b)


def _ratio(num: np.ndarray, den: np.ndarray, **kw: Any) -> ExactForm:
    return ExactForm(np.asarray(num), np.asarray(den), "ratio", **kw)


def _signed_square(root_num: np.ndarray, den: np.ndarray) -> ExactForm:
    """sign(r) * sqrt(r**2 / den) from the integer r."""
    root_num = np.asarray(root_num)
    return ExactForm(root_num * np.abs(root_num), np.asarray(den), "signed_square")


# ----------------------------------------------------------------------------- definitions
def _accuracy() -> Metric:
    def contour(k: float, p: int, n: int) -> list[ParametricCurve]:
        if p == 0:
            return [_vertical(1 - k)]
        return [_x_param(lambda x: (k * (p + n) - n + n * x) / p)]

    return Metric(
        "accuracy",
        "Accuracy",
        (0.0, 1.0),
        "(TP + TN) / N",
        lambda tp, fn, fp, tn: _div(tp + tn, tp + fn + fp + tn),
        lambda tp, fn, fp, tn: _ratio(tp + tn, tp + fn + fp + tn),
        contour,
        swap="accuracy",
        geometry="parallel lines, slope n/p",
        aliases=("acc",),
        magnitude=lambda N: N,
    )


def _balanced_accuracy() -> Metric:
    return Metric(
        "balanced_accuracy",
        "Balanced accuracy",
        (0.0, 1.0),
        "(TPR + TNR) / 2",
        lambda tp, fn, fp, tn: (_div(tp, tp + fn) + _div(tn, fp + tn)) / 2,
        lambda tp, fn, fp, tn: _ratio((fp + tn) * tp + (tp + fn) * tn, 2 * (tp + fn) * (fp + tn)),
        lambda k, p, n: [_x_param(lambda x: 2 * k - 1 + x)],
        swap="balanced_accuracy",
        geometry="parallel lines, slope 1",
        aliases=("ba",),
    )


def _informedness() -> Metric:
    return Metric(
        "informedness",
        "Informedness (Youden's J)",
        (-1.0, 1.0),
        "TPR + TNR - 1",
        lambda tp, fn, fp, tn: _div(tp, tp + fn) + _div(tn, fp + tn) - 1,
        lambda tp, fn, fp, tn: _ratio((fp + tn) * tp + (tp + fn) * tn - (tp + fn) * (fp + tn), (tp + fn) * (fp + tn)),
        lambda k, p, n: [_x_param(lambda x: k + x)],
        swap="informedness",
        geometry="parallel lines, slope 1 (the balanced-accuracy family)",
        aliases=("bm", "youden_j", "bookmaker_informedness"),
    )


def _markedness() -> Metric:
    def contour(k: float, p: int, n: int) -> list[ParametricCurve]:
        pi = p / (p + n)
        return [_u_param(lambda u: k * u * (1 - u) / (pi * (1 - pi)), pi, u01=False)]

    return Metric(
        "markedness",
        "Markedness",
        (-1.0, 1.0),
        "PPV + NPV - 1",
        lambda tp, fn, fp, tn: _div(tp, tp + fp) + _div(tn, fn + tn) - 1,
        lambda tp, fn, fp, tn: _ratio(tp * (fn + tn) + tn * (tp + fp) - (tp + fp) * (fn + tn), (tp + fp) * (fn + tn)),
        contour,
        swap="markedness",
        geometry="parabolas through (0,0) and (1,1)",
        aliases=("mk",),
    )


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


def _jaccard() -> Metric:
    return Metric(
        "jaccard",
        "Jaccard index (threat score)",
        (0.0, 1.0),
        "TP / (TP + FN + FP)",
        lambda tp, fn, fp, tn: _div(tp, tp + fn + fp),
        lambda tp, fn, fp, tn: _ratio(tp, tp + fn + fp),
        lambda k, p, n: [_x_param(lambda x: k * (p + n * x) / p)],
        swap=None,
        geometry="pencil of lines through (-p/n, 0), as F1",
        aliases=("threat_score", "critical_success_index", "iou"),
        magnitude=lambda N: N,
    )


def _precision() -> Metric:
    def contour(k: float, p: int, n: int) -> list[ParametricCurve]:
        if k >= 1:
            return [_vertical(0.0)]
        return [_y_param(lambda y: p * (1 - k) * y / (k * n))] if k > 0 else [_horizontal(0.0)]

    return Metric(
        "precision",
        "Precision (PPV)",
        (0.0, 1.0),
        "TP / (TP + FP)",
        lambda tp, fn, fp, tn: _div(tp, tp + fp),
        lambda tp, fn, fp, tn: _ratio(tp, tp + fp),
        contour,
        swap="npv",
        geometry="lines through the origin",
        aliases=("ppv",),
        magnitude=lambda N: N,
    )


def _npv() -> Metric:
    def contour(k: float, p: int, n: int) -> list[ParametricCurve]:
        if k <= 0:
            return [_vertical(1.0)]
        if k >= 1:
            return [_horizontal(1.0)]
        return [_x_param(lambda x: 1 - n * (1 - x) * (1 - k) / (k * p))]

    return Metric(
        "npv",
        "Negative predictive value",
        (0.0, 1.0),
        "TN / (TN + FN)",
        lambda tp, fn, fp, tn: _div(tn, tn + fn),
        lambda tp, fn, fp, tn: _ratio(tn, tn + fn),
        contour,
        swap="precision",
        geometry="lines through (1, 1)",
        aliases=("negative_predictive_value",),
        magnitude=lambda N: N,
    )


def _simple_rate(name: str, label: str, formula: str, which: str, swap: str, aliases: tuple[str, ...]) -> Metric:
    pick = {
        "tpr": (lambda tp, fn, fp, tn: (tp, tp + fn), lambda k: _horizontal(k)),
        "fnr": (lambda tp, fn, fp, tn: (fn, tp + fn), lambda k: _horizontal(1 - k)),
        "tnr": (lambda tp, fn, fp, tn: (tn, fp + tn), lambda k: _vertical(1 - k)),
        "fpr": (lambda tp, fn, fp, tn: (fp, fp + tn), lambda k: _vertical(k)),
    }[which]
    parts, curve = pick
    return Metric(
        name,
        label,
        (0.0, 1.0),
        formula,
        lambda tp, fn, fp, tn: _div(*parts(tp, fn, fp, tn)),
        lambda tp, fn, fp, tn: _ratio(*parts(tp, fn, fp, tn)),
        lambda k, p, n: [curve(k)],
        swap=swap,
        geometry="horizontal lines" if which in ("tpr", "fnr") else "vertical lines",
        aliases=aliases,
        magnitude=lambda N: N,
    )


def _mcc() -> Metric:
    def contour(k: float, p: int, n: int) -> list[ParametricCurve]:
        pi = p / (p + n)
        c = k / np.sqrt(pi * (1 - pi))
        return [_u_param(lambda u: c * np.sqrt(np.clip(u * (1 - u), 0, None)), pi, u01=True)]

    def value(tp: np.ndarray, fn: np.ndarray, fp: np.ndarray, tn: np.ndarray) -> np.ndarray:
        den = (tp + fp) * (fn + tn) * (tp + fn) * (fp + tn)
        return _div(tp * tn - fp * fn, np.sqrt(den))

    return Metric(
        "mcc",
        "Matthews correlation coefficient",
        (-1.0, 1.0),
        "(TP·TN − FP·FN) / √((TP+FP)(TP+FN)(TN+FP)(TN+FN))",
        value,
        lambda tp, fn, fp, tn: _signed_square(tp * tn - fp * fn, (tp + fp) * (fn + tn) * (tp + fn) * (fp + tn)),
        contour,
        swap="mcc",
        geometry="half-ellipses centred at (½, ½) through (0, 0) and (1, 1)",
        aliases=("matthews_corrcoef", "phi_coefficient"),
        magnitude=lambda N: N**4 // 4,
        _slice_exact=_mcc_on_slice,
    )


#: Lattice points per block when a form is computed block by block (temporaries stay in cache).
_BLOCK = 1 << 15


def _mcc_on_slice(tp: np.ndarray, tn: np.ndarray, p: int, n: int) -> ExactForm:
    """MCC's exact form on a slice (p, n fixed), two arrays written once each.

    With FN = p − TP and FP = n − TN, ``r = TP·TN − FP·FN = n·TP − p·FP`` is a column
    plus a row, ``num = r·|r|``, and ``den = (TP+FP)(FN+TN)·p·n`` is the column-plus-row
    ``TP + FP`` times the column-plus-row ``p·n·(FN + TN)``: the same integers as the
    general form, every product exact where the caller's magnitude check holds. They are
    computed by blocks of rows, so the temporaries stay in cache and only ``num`` and
    ``den`` are allocated. Bounds without a scan: ``|r|`` is largest at the extremes of
    TP and TN, ``den ≤ (N/2)²·p·n`` and ``|num/den| = MCC² ≤ 1``.
    """
    pn = p * n
    fp = n - tn
    a, b, c, d = n * tp, p * fp, pn * (p - tp), pn * tn  # r = a − b; p·n·(FN + TN) = c + d
    shape = np.broadcast_shapes(np.shape(tp), np.shape(tn))
    if len(shape) != 2:  # not a lattice: plain arrays
        r = a - b
        num = np.abs(r) * r
        den = (tp + fp) * (c + d)
    else:
        num = np.empty(shape, dtype=np.result_type(tp, tn))
        den = np.empty_like(num)
        rows = max(1, _BLOCK // max(1, shape[1]))
        temp = np.empty((min(rows, shape[0]), shape[1]), dtype=num.dtype)
        parts = [np.broadcast_to(x, shape) for x in (a, b, tp, fp, c, d)]
        for lo in range(0, shape[0], rows):
            nb, db = num[lo : lo + rows], den[lo : lo + rows]
            tb = temp[: nb.shape[0]]
            ab, bb, tpb, fpb, cb, dbb = (x[lo : lo + rows] for x in parts)
            np.subtract(ab, bb, out=tb)  # r
            np.abs(tb, out=nb)
            nb *= tb  # r·|r|
            np.add(tpb, fpb, out=db)  # TP + FP
            np.add(cb, dbb, out=tb)  # p·n·(FN + TN)
            db *= tb
    r_lo = n * float(np.min(tp, initial=p)) - p * float(np.max(fp, initial=0))
    r_hi = n * float(np.max(tp, initial=0)) - p * float(np.min(fp, initial=n))
    big = max(-r_lo, r_hi, 0.0)
    total = p + n
    return ExactForm(num, den, "signed_square", bounds=(big * big, float(total * total // 4) * pn, 1.0))


def _cohen_kappa() -> Metric:
    def contour(k: float, p: int, n: int) -> list[ParametricCurve]:
        den = p * (2 * n + k * (p - n))
        if den == 0:
            return []
        return [_x_param(lambda x: (k * (n * n - n * p) * x + k * n * p + k * p * p + 2 * n * p * x) / den)]

    return Metric(
        "cohen_kappa",
        "Cohen's kappa",
        (-1.0, 1.0),
        "2(TP·TN − FN·FP) / ((TP+FP)(FP+TN) + (TP+FN)(FN+TN))",
        lambda tp, fn, fp, tn: _div(2 * (tp * tn - fn * fp), (tp + fp) * (fp + tn) + (tp + fn) * (fn + tn)),
        lambda tp, fn, fp, tn: _ratio(2 * (tp * tn - fn * fp), (tp + fp) * (fp + tn) + (tp + fn) * (fn + tn)),
        contour,
        swap="cohen_kappa",
        geometry="pencil of lines through (p/(p−n), p/(p−n)); parallel, slope 1, when p = n",
        aliases=("kappa",),
        magnitude=lambda N: 2 * N * N,
    )


def _g_mean() -> Metric:
    return Metric(
        "g_mean",
        "Geometric mean of TPR and TNR",
        (0.0, 1.0),
        "√(TPR·TNR)",
        lambda tp, fn, fp, tn: np.sqrt(_div(tp, tp + fn) * _div(tn, fp + tn)),
        lambda tp, fn, fp, tn: ExactForm(tp * tn, (tp + fn) * (fp + tn), "signed_square"),
        lambda k, p, n: [_x_param(lambda x: k * k / (1 - x))],
        swap="g_mean",
        geometry="hyperbolas",
        aliases=("gmean", "geometric_mean"),
    )


def _fowlkes_mallows() -> Metric:
    def contour(k: float, p: int, n: int) -> list[ParametricCurve]:
        if k == 0:
            return [_horizontal(0.0)]
        return [_y_param(lambda y: p * y * (y - k * k) / (k * k * n))]

    return Metric(
        "fowlkes_mallows",
        "Fowlkes–Mallows index",
        (0.0, 1.0),
        "√(PPV·TPR)",
        lambda tp, fn, fp, tn: np.sqrt(_div(tp, tp + fp) * _div(tp, tp + fn)),
        lambda tp, fn, fp, tn: ExactForm(tp * tp, (tp + fp) * (tp + fn), "signed_square"),
        contour,
        swap=None,
        geometry="parabolas",
        aliases=("fm", "fowlkes_mallows_index"),
    )


def _lr_plus() -> Metric:
    return Metric(
        "lr_plus",
        "Positive likelihood ratio",
        (0.0, np.inf),
        "TPR / FPR",
        lambda tp, fn, fp, tn: _div(_div(tp, tp + fn), _div(fp, fp + tn)),
        lambda tp, fn, fp, tn: _ratio(tp * (fp + tn), (tp + fn) * fp),
        lambda k, p, n: [_x_param(lambda x: k * x)],
        swap=None,
        geometry="lines through the origin",
        aliases=("positive_likelihood_ratio",),
    )


def _lr_minus() -> Metric:
    return Metric(
        "lr_minus",
        "Negative likelihood ratio",
        (0.0, np.inf),
        "FNR / TNR",
        lambda tp, fn, fp, tn: _div(_div(fn, tp + fn), _div(tn, fp + tn)),
        lambda tp, fn, fp, tn: _ratio(fn * (fp + tn), (tp + fn) * tn),
        lambda k, p, n: [_x_param(lambda x: 1 - k * (1 - x))],
        swap=None,
        geometry="lines through (1, 1)",
        aliases=("negative_likelihood_ratio",),
    )


def _diagnostic_odds_ratio() -> Metric:
    return Metric(
        "diagnostic_odds_ratio",
        "Diagnostic odds ratio",
        (0.0, np.inf),
        "(TP·TN) / (FP·FN)",
        lambda tp, fn, fp, tn: _div(tp * tn, fp * fn),
        lambda tp, fn, fp, tn: _ratio(tp * tn, fp * fn),
        lambda k, p, n: [_x_param(lambda x: k * x / (1 - x + k * x))],
        swap="diagnostic_odds_ratio",
        geometry="hyperbolas through (0, 0) and (1, 1)",
        aliases=("dor",),
    )


def _pt_transform(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    # w = num/den = FPR/(FPR + TPR); PT = √w / (√w + √(1 − w))
    a = np.sqrt(num)
    return a / (a + np.sqrt(den - num))


def _prevalence_threshold() -> Metric:
    def value(tp: np.ndarray, fn: np.ndarray, fp: np.ndarray, tn: np.ndarray) -> np.ndarray:
        # (√(TPR·FPR) − FPR)/(TPR − FPR) = √FPR / (√TPR + √FPR): the same wherever TPR ≠ FPR,
        # and its continuous limit ½ on the chance diagonal TPR = FPR > 0; 0/0 only at (0, 0).
        root_tpr, root_fpr = np.sqrt(_div(tp, tp + fn)), np.sqrt(_div(fp, fp + tn))
        return _div(root_fpr, root_tpr + root_fpr)

    def exact(tp: np.ndarray, fn: np.ndarray, fp: np.ndarray, tn: np.ndarray) -> ExactForm:
        x, y = fp * (tp + fn), tp * (fp + tn)  # FPR and TPR on the common denominator p·n
        undefined = (x + y == 0) | ((tp + fn) == 0) | ((fp + tn) == 0)
        return ExactForm(x, x + y, "custom", undefined=undefined, transform=_pt_transform)

    def contour(k: float, p: int, n: int) -> list[ParametricCurve]:
        if k <= 0:
            return [_vertical(0.0)]
        c = ((1 - k) / k) ** 2
        return [_x_param(lambda x: c * x)]

    return Metric(
        "prevalence_threshold",
        "Prevalence threshold",
        (0.0, 1.0),
        "(√(TPR·FPR) − FPR) / (TPR − FPR)",
        value,
        exact,
        contour,
        swap=None,
        geometry="lines through the origin",
        aliases=("pt",),
        magnitude=lambda N: 2 * N * N,
    )


def _build_registry() -> dict[str, Metric]:
    metrics = [
        _accuracy(),
        _balanced_accuracy(),
        _informedness(),
        _markedness(),
        fbeta_metric(1),
        _jaccard(),
        _precision(),
        _npv(),
        _simple_rate("recall", "Recall (TPR, sensitivity)", "TP / (TP + FN)", "tpr", "tnr", ("tpr", "sensitivity")),
        _simple_rate("tnr", "Specificity (TNR)", "TN / (TN + FP)", "tnr", "recall", ("specificity", "selectivity")),
        _simple_rate("fpr", "False positive rate", "FP / (FP + TN)", "fpr", "fnr", ("fall_out",)),
        _simple_rate("fnr", "False negative rate", "FN / (FN + TP)", "fnr", "fpr", ("miss_rate",)),
        _mcc(),
        _cohen_kappa(),
        _g_mean(),
        _fowlkes_mallows(),
        _lr_plus(),
        _lr_minus(),
        _diagnostic_odds_ratio(),
        _prevalence_threshold(),
    ]
    return {m.name: m for m in metrics}


class _Registry(Mapping[str, Metric]):
    """Read-only mapping name -> :class:`Metric`; also resolves aliases and 'f<beta>'."""

    def __init__(self, metrics: dict[str, Metric]) -> None:
        self._metrics = metrics
        self._aliases = {a: m.name for m in metrics.values() for a in m.aliases}

    def __getitem__(self, name: str) -> Metric:
        try:
            return get_metric(name)
        except (ValueError, TypeError) as err:
            raise KeyError(str(err)) from None

    def __contains__(self, name: object) -> bool:
        try:
            get_metric(name)  # type: ignore[arg-type]
        except (ValueError, TypeError):
            return False
        return True

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self._metrics)

    def __len__(self) -> int:
        return len(self._metrics)

    def __repr__(self) -> str:
        return f"METRICS({', '.join(self._metrics)})"


_METRICS = _build_registry()
METRICS: Mapping[str, Metric] = _Registry(_METRICS)
"""All metrics by name. ``METRICS["mcc"]``; aliases (``"tpr"``, ``"ba"``) and ``"f2"`` work too."""

_FBETA = re.compile(r"^f_?(?:beta_?)?(\d+(?:\.\d+)?)$")


def get_metric(metric: str | Metric) -> Metric:
    """Resolve a metric name (or alias, or ``"f<beta>"``) to its :class:`Metric`.

    >>> get_metric("tpr").name
    'recall'
    >>> get_metric("f0.5").name
    'f0.5'
    """
    if isinstance(metric, Metric):
        return metric
    check_instance(metric, "metric", str, "a metric name or a Metric")
    key = metric.strip().lower().replace("-", "_").replace(" ", "_")
    if key in _METRICS:
        return _METRICS[key]
    registry: _Registry = METRICS  # type: ignore[assignment]
    if key in registry._aliases:
        return _METRICS[registry._aliases[key]]
    match = _FBETA.match(key)
    if match:
        return fbeta_metric(Fraction(match.group(1)))
    raise InvalidParameterError(f"unknown metric {metric!r}; expected one of {sorted(_METRICS)} (or 'f<beta>')")


def metric_value(cm: ConfusionMatrix, metric: str | Metric, *, undefined: float = 0.0) -> float:
    """The value of ``metric`` for the confusion matrix ``cm``.

    Parameters
    ----------
    cm : ConfusionMatrix
    metric : str or Metric
        A name from :data:`METRICS` (aliases accepted).
    undefined : float, default 0.0
        Returned where the metric is 0/0 (the paper's convention is 0); pass
        ``float("nan")`` to see undefined values as NaN.

    Examples
    --------
    >>> cm = ConfusionMatrix(tp=16, fn=4, fp=8, tn=32)
    >>> round(metric_value(cm, "mcc"), 4)
    0.5774
    >>> metric_value(ConfusionMatrix(tp=0, fn=20, fp=0, tn=40), "mcc")
    0.0
    """
    check_instance(cm, "cm", ConfusionMatrix, "a ConfusionMatrix")
    if not (isinstance(undefined, float) and undefined != undefined):  # NaN shows undefined values as NaN
        undefined = check_undefined(undefined, allow_exclude=False)
    return get_metric(metric)(cm, undefined=undefined)
