"""The Matthews correlation coefficient, with its exact form on a slice computed in blocks."""

from __future__ import annotations

import numpy as np

from ._curves import ParametricCurve, _u_param
from ._exact import ExactForm, _signed_square
from ._metric import Metric, _div


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
