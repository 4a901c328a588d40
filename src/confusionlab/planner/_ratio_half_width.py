"""Any two-class ratio metric's exact central interval on a slice in one counting pass over its ratios."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..metrics import Metric
from ._quantile_atoms import _LEVEL_MARGIN, _half_width_from_ratios, _quantile_atom

#: Buckets of the one counting pass of :func:`lattice_half_width`.
_BUCKETS = 4096


def lattice_ratios(metric: Metric, tp: np.ndarray, tn: np.ndarray, p: int, n: int) -> tuple[np.ndarray, Any] | None:
    """The ratio ``num/den`` of the metric's exact form at every lattice point ``(TP, TN)``, as
    :func:`~confusionlab.grouping.group_exact` computes it (``num`` and ``den`` exact in
    float64, one correctly rounded division), and the form (for its value map); None where
    the core would not take that path (integers from 2**53, special points, custom forms).

    MCC's integers are formed without the general four-count products: ``TP·TN − FP·FN =
    n·TP + p·TN − p·n`` and ``(TP+FP)(FN+TN)(TP+FN)(FP+TN) = p·n·(n − s)(p + s)`` with
    ``s = TN − TP`` (so the denominator is a strided view of one vector over ``s``). Every
    intermediate is an integer below 2**53 (the metric's ``magnitude`` bound), hence exact:
    the same integers as the core's, the same double ratios.
    """
    if not metric.magnitude(p + n) < 2**53:
        return None
    if metric.name == "mcc":
        r = np.add.outer(float(n) * tp, float(p) * tn - float(p) * float(n))
        num = r * np.abs(r)
        s = np.arange(int(tn[0]) - int(tp[-1]), int(tn[-1]) - int(tp[0]) + 1, dtype=np.float64)
        dvec = float(p) * float(n) * ((n - s) * (p + s))
        if not np.all(dvec > 0):
            return None
        # den[i, j] = dvec[(tn[j] - tp[i]) - s[0]] = dvec[(tp.size - 1 - i) + j]
        window = np.lib.stride_tricks.sliding_window_view(dvec, tn.size)
        den = window[::-1][window.shape[0] - tp.size :]
        form = metric.exact(np.array([1]), np.array([1]), np.array([1]), np.array([1]), as_float=True)
        return num / den, form
    tpc, tnr = tp.astype(np.int64)[:, None], tn.astype(np.int64)[None, :]
    form = metric.exact(tpc, p - tpc, n - tnr, tnr, as_float=True)
    if form.kind not in ("ratio", "signed_square") or form.undefined is not None:
        return None
    den = np.asarray(form.den)
    if not np.all(den > 0):
        return None
    return np.broadcast_to(np.true_divide(form.num, den), (tp.size, tn.size)), form


def lattice_half_width(
    metric: Metric, tp_pmf: np.ndarray, tp_lo: int, tn_pmf: np.ndarray, tn_lo: int, p: int, n: int, confidence: float
) -> tuple[float, float] | None:
    """Exact half-width (and granularity) of a metric's central interval without grouping the lattice.

    The quantiles of :meth:`MetricDistribution.interval` are read from the per-point ratios
    ``f = num/den`` of the metric's exact form (:func:`lattice_ratios`, the doubles the core
    sorts). The value is a non-decreasing function ``g`` of ``f`` (``g`` = identity or a
    signed square root, the core's map from a group's ratio to its value), so the smallest
    value whose cdf reaches a level is ``g`` of the smallest ratio whose cdf reaches it: no
    value needs grouping, only the ratios near the two levels sorting. One pass counts the
    masses in :data:`_BUCKETS` buckets of ``f`` (the bucket index is monotone in ``f``);
    the points of the buckets where the cdf crosses a level (± ``_LEVEL_MARGIN``) are sorted.
    As for balanced accuracy, the result is accepted only when the cdf at the quantile and
    just below it are at least ``_LEVEL_MARGIN`` clear of the level (summation order cannot
    decide then); otherwise, and wherever the core takes another arithmetic path (integers
    from 2**53, 0/0 or x/0 points), None: the caller builds the distribution.
    """
    tp = (tp_lo + np.arange(tp_pmf.size)).astype(np.float64)
    tn = (tn_lo + np.arange(tn_pmf.size)).astype(np.float64)
    got = lattice_ratios(metric, tp, tn, p, n)
    if got is None:
        return None
    f, form = got
    f = np.ascontiguousarray(f)
    w = np.multiply.outer(tp_pmf, tn_pmf)
    total = float(tp_pmf.sum()) * float(tn_pmf.sum())
    fmin, fmax = float(f.min()), float(f.max())
    if not (math.isfinite(fmin) and math.isfinite(fmax) and total > 0):
        return None
    levels = (np.array([(1 - confidence) / 2, (1 + confidence) / 2]) - 1e-12) * total
    margin = _LEVEL_MARGIN * total
    if fmax > fmin:
        scale = (_BUCKETS - 1) / (fmax - fmin)
        bucket = ((f - fmin) * scale).astype(np.intp).ravel()  # monotone in f: subtraction, product, floor
        cum = np.cumsum(np.bincount(bucket, weights=w.ravel(), minlength=_BUCKETS))
    else:
        bucket, cum = np.zeros(f.size, dtype=np.intp), np.array([total])
    flat, wflat = f.ravel(), w.ravel()
    quantiles, neighbours = [], []
    for level in levels:
        first = int(np.searchsorted(cum, level - margin, side="left"))
        last = min(int(np.searchsorted(cum, level + margin, side="left")), cum.size - 1)
        below = float(cum[first - 1]) if first > 0 else 0.0
        sel = np.flatnonzero((bucket >= first) & (bucket <= last))
        fs, ws = flat[sel], wflat[sel]
        order = np.argsort(fs, kind="stable")
        fs = fs[order]
        atom = _quantile_atom(fs, below + np.cumsum(ws[order]), below, level, margin)
        if atom is None:
            return None
        q, start, end = atom
        # Neighbouring ratios: a lower bucket holds only smaller ratios, a higher one only larger.
        if start > 0:
            smaller = fs[start - 1]
        else:
            rest = flat[bucket < first]
            smaller = rest.max() if rest.size else q
        if end < fs.size:
            larger = fs[end]
        else:
            rest = flat[bucket > last]
            larger = rest.min() if rest.size else q
        quantiles.append(q)
        neighbours.append((smaller, larger))
    return _half_width_from_ratios(form, quantiles, neighbours)
