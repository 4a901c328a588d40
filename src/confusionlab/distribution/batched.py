"""Slice mixtures of many groups at once, in array operations across the groups."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._validation import (
    DEFAULT_TOLERANCE,
    InvalidParameterError,
    check_choice,
    check_tolerance,
    check_undefined,
)
from ..grouping import injective
from ..metrics import Metric, get_metric
from ..models import SLICE_MODELS, resolve_prior, shared_marginal
from .arithmetic import key_arithmetic
from .mixtures import SliceMixture
from .moments import _component_moments, _one_blas_thread
from .pmf import TOTAL_MASS_TOLERANCE, MetricDistribution, checked_in_bulk

__all__ = ["BATCH_CHUNK_POINTS", "BATCH_POINTS", "slice_mixtures"]


#: Largest union lattice (points) of one group that :func:`slice_mixtures` batches; larger
#: ones are left to :func:`slice_mixture` (their own grouping costs more than the call).
BATCH_POINTS = 4096
#: Points (groups × padded lattice) processed in one chunk of :func:`slice_mixtures`.
BATCH_CHUNK_POINTS = 1 << 20


def _gather(
    chunk: np.ndarray, lo_r: np.ndarray, u: np.ndarray, table: np.ndarray, lo: np.ndarray, width: int
) -> np.ndarray:
    """The marginals of the chunk's (group, run) pairs on each group's union window, shape
    (groups, R, width): ``table`` holds the distinct marginals (a zero column last, for padding)."""
    pos = lo[chunk, None, None] + np.arange(width)[None, None, :] - lo_r[chunk][:, :, None]
    pad = table.shape[1] - 1
    pos = np.where((pos >= 0) & (pos < pad), pos, pad)
    return table[u[chunk][:, :, None], pos]


def slice_mixtures(
    counts: Any,
    metric: str | Metric | Sequence[str | Metric],
    model: str = "beta-binomial",
    *,
    prior: Any = "uniform",
    tolerance: float = DEFAULT_TOLERANCE,
    undefined: float = 0.0,
) -> Any:
    """:func:`slice_mixture` of many groups at once, in array operations across the groups.

    Parameters
    ----------
    counts : array-like of int, shape (groups, R, 4)
        Each group's R matrices (TP, FN, FP, TN), one slice per group (the same p and n
        within a group).
    metric : str, Metric or sequence of them
        As for :func:`slice_mixture`; several metrics share the chunks' marginals, weights
        and lattices.
    model, prior, tolerance, undefined
        As for :func:`slice_mixture` (``undefined`` a number: 0/0 points take that value).

    Returns
    -------
    list of SliceMixture or None
        For each group, equal to ``slice_mixture`` of its matrices (values, multiplicities,
        undefined points; masses and moments to rounding), or None where the group is not
        batched: a union lattice above :data:`BATCH_POINTS` points, or keys whose doubles
        might merge distinct values (the caller computes those one by one). For a sequence
        of metrics: ``{metric name: that list}``.

    Notes
    -----
    The union lattices are padded to the largest of a chunk of groups (at most
    :data:`BATCH_CHUNK_POINTS` points a chunk); the refits' marginals are computed once
    per distinct (count, size) and gathered; the pooled weights are one batched matrix
    product; the grouping is one sort on (group, num/den), exact because the chunk's
    bound ``D**2 * V`` is below 2**51 (:mod:`confusionlab.grouping`), then one more on
    (group, value) that merges the 0/0 and x/0 points as :func:`lattice_distribution` does.

    Examples
    --------
    >>> from confusionlab import ConfusionMatrix
    >>> from confusionlab.distribution import slice_mixture
    >>> cms = [[(16, 4, 8, 32), (14, 6, 6, 34)], [(3, 1, 2, 4), (2, 2, 1, 5)]]
    >>> batched = slice_mixtures(cms, "f1")
    >>> one = slice_mixture([ConfusionMatrix(tp=3, fn=1, fp=2, tn=4), ConfusionMatrix(tp=2, fn=2, fp=1, tn=5)], "f1")
    >>> bool(np.allclose(batched[1].distribution.probabilities, one.distribution.probabilities, atol=1e-15))
    True
    """

    several = isinstance(metric, Sequence) and not isinstance(metric, str)
    ms = list(dict.fromkeys(get_metric(x) for x in (metric if several else [metric])))  # type: ignore[union-attr]
    model = check_choice(model, "model", SLICE_MODELS)
    tolerance = check_tolerance(tolerance)
    undefined_value = check_undefined(undefined)
    alpha = resolve_prior(prior)
    c4 = np.asarray(counts, dtype=np.int64)
    if c4.ndim != 3 or c4.shape[2] != 4 or c4.shape[1] == 0 or np.any(c4 < 0):
        raise InvalidParameterError(f"counts must be (groups, R, 4) non-negative counts, got shape {c4.shape}")
    n_groups, r, _ = c4.shape
    outs: dict[str, list[SliceMixture | None]] = {m.name: [None] * n_groups for m in ms}
    if n_groups == 0 or undefined_value is None:
        return outs if several else outs[ms[0].name]
    tp, fn, fp, tn = (c4[..., i] for i in range(4))
    p, n = tp + fn, fp + tn
    if np.any(p != p[:, :1]) or np.any(n != n[:, :1]):
        raise InvalidParameterError("counts must share one slice per group: the same p and n in every run")
    p, n = p[:, 0], n[:, 0]

    def marginals(k: np.ndarray, size: np.ndarray, what: str) -> tuple[np.ndarray, ...]:
        """lo, length, dropped of every (group, run), and the distinct marginals padded in one table."""
        stride = int(size.max()) + 1  # (count, size) as one integer key: a 1-D unique, not a row sort
        keys, inverse = np.unique(k.reshape(-1) + stride * np.repeat(size, r), return_inverse=True)
        made = [shared_marginal(model, int(a % stride), int(a // stride), int(a // stride), alpha, tolerance, what)
                for a in keys]  # fmt: skip
        lo = np.array([x.lo for x in made], dtype=np.int64)
        length = np.array([x.pmf.size for x in made], dtype=np.int64)
        table = np.zeros((len(made), int(length.max()) + 1))  # the last column stays 0: padding
        for i, x in enumerate(made):
            table[i, : x.pmf.size] = x.pmf
        dropped = np.array([x.dropped for x in made])
        inverse = inverse.reshape(n_groups, r)
        return lo[inverse], length[inverse], dropped[inverse], inverse, table

    tp_lo_r, tp_len_r, tp_drop, tp_u, tp_table = marginals(tp, p, "positives (TP)")
    tn_lo_r, tn_len_r, tn_drop, tn_u, tn_table = marginals(tn, n, "negatives (TN)")
    tp_lo, tp_hi = tp_lo_r.min(axis=1), (tp_lo_r + tp_len_r).max(axis=1)
    tn_lo, tn_hi = tn_lo_r.min(axis=1), (tn_lo_r + tn_len_r).max(axis=1)
    size_p, size_q = tp_hi - tp_lo, tn_hi - tn_lo
    pruned = (tp_drop + tn_drop - tp_drop * tn_drop).mean(axis=1)
    points = size_p * size_q
    todo = np.flatnonzero(points <= BATCH_POINTS)
    todo = todo[np.lexsort((size_q[todo], size_p[todo]))]
    start = 0
    while start < todo.size:  # chunks of groups with similar windows, padded to the chunk's largest
        stop = start + 1
        while stop < todo.size:
            pm, qm = size_p[todo[stop]], size_q[todo[start : stop + 1]].max()
            if (stop + 1 - start) * pm * qm > BATCH_CHUNK_POINTS:
                break
            stop += 1
        chunk = todo[start:stop]
        start = stop

        pm, qm = int(size_p[chunk].max()), int(size_q[chunk].max())
        a = _gather(chunk, tp_lo_r, tp_u, tp_table, tp_lo, pm)
        b = _gather(chunk, tn_lo_r, tn_u, tn_table, tn_lo, qm)
        with _one_blas_thread():
            weights = np.matmul(a.transpose(0, 2, 1), b) / r  # (groups, P, Q)
        valid = (np.arange(pm)[None, :, None] < size_p[chunk, None, None]) & (
            np.arange(qm)[None, None, :] < size_q[chunk, None, None]
        )
        pc, nc = p[chunk, None, None], n[chunk, None, None]
        tpv = np.minimum(tp_lo[chunk, None, None] + np.arange(pm)[None, :, None], pc)
        tnv = np.minimum(tn_lo[chunk, None, None] + np.arange(qm)[None, None, :], nc)
        cols = (tpv, pc - tpv, nc - tnv, tnv)
        largest = int((p[chunk] + n[chunk]).max())
        for m in ms:  # the chunk's marginals, weights and lattice are shared by the metrics
            out = outs[m.name]
            arithmetic = key_arithmetic(m, largest, cols)
            if arithmetic == "clustered":
                continue
            form = m.exact(*cols, as_float=arithmetic != "int64")
            shape = weights.shape
            keep = valid if tolerance == 0 else valid & (weights > 0)
            num = np.broadcast_to(np.asarray(form.num, dtype=np.float64), shape)
            den = np.broadcast_to(np.asarray(form.den, dtype=np.float64), shape)
            regular = keep & (den != 0)
            if form.undefined is not None:
                regular &= ~np.broadcast_to(form.undefined, shape)
            with np.errstate(divide="ignore", invalid="ignore"):
                f = num / den
            if regular.any():
                dmax = float(den[regular].max())
                vmax = float(np.abs(f[regular]).max())
                if not (num[regular].__abs__().max() < 2.0**53 and dmax < 2.0**53 and injective(dmax**2 * vmax)):
                    continue
            gid = np.broadcast_to(np.arange(chunk.size)[:, None, None], shape)
            # the regular points: one sort on (group, num/den), one value per run of equal keys
            g_reg, f_reg, w_reg = gid[regular], f[regular], weights[regular]
            order = np.lexsort((f_reg, g_reg))
            g_reg, f_reg, w_reg = g_reg[order], f_reg[order], w_reg[order]
            starts = np.flatnonzero(np.r_[True, (g_reg[1:] != g_reg[:-1]) | (f_reg[1:] != f_reg[:-1])])
            seg_g = g_reg[starts]
            seg_w = np.add.reduceat(w_reg, starts) if starts.size else np.empty(0)
            seg_c = np.diff(np.r_[starts, g_reg.size])
            seg_v = f_reg[starts].copy()
            seg_v = seg_v if form.kind == "ratio" and form.scale == 1.0 else form.value(seg_v, 1, overwrite=True)
            # the special points (0/0: the undefined value; x/0: ±inf), merged as lattice_distribution does
            where, undefined_at, sign_at = form.special_points(shape)
            kept_special = keep.reshape(-1)[where]
            where, undefined_at, sign_at = where[kept_special], undefined_at[kept_special], sign_at[kept_special]
            sp_g = gid.reshape(-1)[where]
            sp_w = weights.reshape(-1)[where]
            sp_v = np.where(undefined_at, undefined_value, np.where(sign_at > 0, np.inf, -np.inf))
            undef_mass = np.bincount(sp_g[undefined_at], weights=sp_w[undefined_at], minlength=chunk.size)
            undef_points = np.bincount(sp_g[undefined_at], minlength=chunk.size)
            all_g = np.r_[seg_g, sp_g]
            all_v = np.r_[seg_v, sp_v]
            all_w = np.r_[seg_w, sp_w]
            all_c = np.r_[seg_c, np.ones(sp_g.size, dtype=np.int64)]
            order = np.lexsort((all_v, all_g))
            all_g, all_v, all_w, all_c = all_g[order], all_v[order], all_w[order], all_c[order]
            firsts = np.flatnonzero(np.r_[True, (all_g[1:] != all_g[:-1]) | (all_v[1:] != all_v[:-1])])
            values = all_v[firsts]
            masses = np.add.reduceat(all_w, firsts)
            mults = np.add.reduceat(all_c, firsts)
            bounds = np.searchsorted(all_g[firsts], np.arange(chunk.size + 1))
            lattice_points = np.count_nonzero(keep.reshape(chunk.size, -1), axis=1)
            # the checks MetricDistribution makes of each, made here at once: atoms strictly increasing
            # within each group (one sort on (group, value) made them so), masses finite, ≥ 0, summing to 1
            if np.isnan(values).any() or not np.all(np.isfinite(masses)) or np.any(masses < 0):
                raise ArithmeticError(f"the batched {m.name} mixtures hold NaN values or invalid masses; please report")
            totals = np.bincount(all_g[firsts], weights=masses, minlength=chunk.size) + pruned[chunk]
            if np.any(np.abs(totals - 1.0) > TOTAL_MASS_TOLERANCE):
                worst = float(totals[np.argmax(np.abs(totals - 1.0))])
                raise ArithmeticError(
                    f"a batched {m.name} mixture ({model}) lost precision: its probabilities and pruned mass add up "
                    f"to {worst!r}, not 1; please report this with the counts that produced it"
                )
            with _one_blas_thread():
                means, variances = _component_moments(m, cols, a, b, undefined_value, valid)
            label = f"{model} mixture of {r}"
            with checked_in_bulk():
                made = [
                    MetricDistribution(
                        values[bounds[i] : bounds[i + 1]],
                        masses[bounds[i] : bounds[i + 1]],
                        mults[bounds[i] : bounds[i + 1]],
                        metric=m.name,
                        model=label,
                        undefined_mass=float(undef_mass[i]),
                        undefined_points=int(undef_points[i]),
                        pruned_mass=float(pruned[g]),
                        lattice_points=int(lattice_points[i]),
                        strategy="float-injective (batched over groups)",
                    )
                    for i, g in enumerate(chunk)
                ]
            for i, g in enumerate(chunk):
                out[g] = SliceMixture(made[i], means[i], variances[i])
    return outs if several else outs[ms[0].name]
