"""The :class:`Metric` type: a value, an exact grouping form and a contour, with 0/0 undefined."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..confusion import ConfusionMatrix
from ._curves import ParametricCurve
from ._exact import ArrayLike, ExactForm, _i


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
        >>> from confusionlab.metrics import get_metric
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
