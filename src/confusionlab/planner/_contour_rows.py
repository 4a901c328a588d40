"""Row readers of MCC and the F-scores: each lattice row's prefix below a ratio, from a contour's root."""

from __future__ import annotations

import numpy as np

from ..metrics import Metric


class Rows:
    """A metric's exact ratios on a (TP, TN) window, row by row, without forming the lattice.

    For the metrics below the ratio ``f = num/den`` that the core sorts on (every integer
    below 2**53: the same double, see :func:`lattice_ratios`) is non-decreasing in TN
    along a row (TP fixed), so the points of a row with ``f ≤ t`` are a prefix, whose
    length :meth:`count` finds from a real root of ``f = t`` along the row, confirmed (or
    stepped) with the exact ratios.
    """

    def __init__(self, tp_lo: int, rows: int, tn_lo: int, cols: int, p: int, n: int) -> None:
        self.tp = (tp_lo + np.arange(rows)).astype(np.float64)
        self.tn_lo, self.cols, self.p, self.n = tn_lo, cols, p, n

    def f(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """The exact ratio at rows ``i``, columns ``j`` (arrays of the same shape)."""
        raise NotImplementedError

    def root(self, t: np.ndarray) -> np.ndarray:
        """Real TN where ``f`` crosses each threshold ``t[k]`` (shape ``(len(t), 1)``) on
        each row (NaN where it does not); a guess, confirmed by :meth:`count`."""
        raise NotImplementedError

    def defined(self) -> bool:
        """Whether every point of the window has ``den > 0`` (no 0/0 or x/0 point)."""
        return True

    def to_ratio(self, v: np.ndarray) -> np.ndarray:
        """Metric values → ratios (the value is a non-decreasing function of the ratio)."""
        return v

    def count(self, t: np.ndarray) -> np.ndarray | None:
        """For each threshold ``t[k]`` and row ``i``, the number of columns with ``f ≤ t[k]``
        (shape ``(len(t), rows)``); None if a guess could not be confirmed exactly (the
        caller falls back)."""
        t = np.asarray(t, dtype=np.float64)[:, None]
        with np.errstate(invalid="ignore", divide="ignore"):
            y = self.root(t)
        rows = np.broadcast_to(np.arange(self.tp.size)[None, :], y.shape)
        whole = self.f(rows, np.full(y.shape, self.cols - 1)) <= t
        finite = np.isfinite(y)
        guess = np.where(finite, np.floor(np.where(finite, y, 0.0)) - self.tn_lo + 1, np.where(whole, self.cols, 0))
        c = np.clip(guess, 0, self.cols).astype(np.intp)
        for _ in range(3):  # the root is accurate to far less than a column; confirm, step if needed
            below_ok = (c == 0) | (self.f(rows, np.maximum(c - 1, 0)) <= t)
            above_ok = (c == self.cols) | (self.f(rows, np.minimum(c, self.cols - 1)) > t)
            if below_ok.all() and above_ok.all():
                return c
            c = c - ~below_ok + ~above_ok
        return None


class MccRows(Rows):
    """MCC: ``f(TP, TN) = r·|r| / (p·n·(n − s)(p + s))`` with ``r = n·TP + p·TN − p·n`` and
    ``s = TN − TP`` (the core's integers, formed without the four-count products).

    Non-decreasing in TN: ∂MCC/∂TN has the sign of ``2p·PP·PN − (TP·TN − FP·FN)(PP − PN)``
    (PP = TP + FP, PN = FN + TN), which expands to a polynomial in TP, FN, FP, TN with
    positive coefficients only, ``2a²b + a²d + 3abc + acd + 2ab² + 3abd + b²c + bcd + ad² +
    bc²`` (a, b, c, d = TP, FN, FP, TN); ``f = sign·MCC²`` and a correctly rounded division
    keep the order. The root is that of ``r² = t·p·n·PP·PN`` (a quadratic in TN) on the
    side of the sign of t.
    """

    def defined(self) -> bool:
        # TP + FP = n − s > 0 and FN + TN = p + s > 0 for every s = TN − TP of the window
        s_lo = self.tn_lo - self.tp[-1]
        s_hi = self.tn_lo + self.cols - 1 - self.tp[0]
        return bool(self.n - s_hi > 0 and self.p + s_lo > 0)

    def to_ratio(self, v: np.ndarray) -> np.ndarray:
        return np.copysign(v * v, v)

    def f(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        p, n = float(self.p), float(self.n)
        x = self.tp[i]
        y = self.tn_lo + j.astype(np.float64)
        r = n * x + (p * y - p * n)
        s = y - x
        return (r * np.abs(r)) / (p * n * ((n - s) * (p + s)))

    def root(self, t: np.ndarray) -> np.ndarray:
        return mcc_root(float(self.p), float(self.n), self.tp[None, :], t)


class FbetaRows(Rows):
    """F-beta: the core's ``f = A·TP / (A·TP + r·FN + s·FP)`` (``A = r + s``, β² = r/s),
    read from the metric's exact form. Non-decreasing in TN: the numerator does not depend
    on it and the denominator falls by ``s`` per step (FP = n − TN). The root is linear:
    ``TN = n − (A·TP/t − A·TP − r·FN)/s``.
    """

    def __init__(self, metric: Metric, *args: int) -> None:
        super().__init__(*args)
        self.metric = metric
        unit = [metric.exact(*(np.array([int(k == j)]) for k in range(4))) for j in range(3)]
        self.A, self.r, self.s = float(unit[0].num[0]), float(unit[1].den[0]), float(unit[2].den[0])

    def f(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        x = self.tp[i].astype(np.int64)
        y = self.tn_lo + j.astype(np.int64)
        form = self.metric.exact(x, self.p - x, self.n - y, y, as_float=True)
        return np.true_divide(form.num, form.den)

    def root(self, t: np.ndarray) -> np.ndarray:
        return fbeta_root(self.A, self.r, self.s, self.p, self.n, self.tp[None, :], t)


def mcc_root(p: float, n: float, x: np.ndarray, t: np.ndarray) -> np.ndarray:
    """The TN at which MCC's row TP = ``x`` (p positives, n negatives) crosses ``t``: the larger root
    of the quadratic for t ≥ 0, the smaller below."""
    c0 = n * x - p * n
    k = np.abs(t) * p * n
    a2 = p * p + k
    a1 = 2 * p * c0 - k * (n + 2 * x - p)
    a0 = c0 * c0 - k * (n + x) * (p - x)
    root = np.sqrt(a1 * a1 - 4 * a2 * a0)
    return (-a1 + np.where(t >= 0, root, -root)) / (2 * a2)


def fbeta_root(A: float, r: float, s: float, p: float, n: float, x: np.ndarray, t: np.ndarray) -> np.ndarray:
    """The TN at which F-beta's row TP = ``x`` crosses ``t`` (``A``, ``r``, ``s``: the reader's
    constants); NaN where t ≤ 0 or TP = 0 (a row of zeros: no crossing inside, the row is all below
    or all above)."""
    ax = A * x
    y = n - (ax / t - ax - r * (p - x)) / s
    return np.where((t > 0) & (x > 0), y, np.nan)


def rows_for(metric: Metric, tp_lo: int, rows: int, tn_lo: int, cols: int, p: int, n: int) -> Rows | None:
    """The row reader of ``metric`` (MCC, F-beta), or None."""
    if metric.name == "mcc":
        return MccRows(tp_lo, rows, tn_lo, cols, p, n)
    fbeta = metric.name == "f1" or (metric.name[:1] == "f" and metric.name[1:].replace(".", "", 1).isdigit())
    if fbeta:
        form = metric.exact(np.array([1]), np.array([1]), np.array([1]), np.array([1]))
        if form.kind == "ratio" and form.scale == 1.0 and form.undefined is None:
            return FbetaRows(metric, tp_lo, rows, tn_lo, cols, p, n)
    return None
