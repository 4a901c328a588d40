"""A lattice PMF pushed through a metric, grouped on exact values.

The core of :func:`~confusionlab.distribution.metric_distribution` and of the mixtures:
the lattice's (TP, FN, FP, TN) count arrays and their masses become the metric's
distinct values (:mod:`confusionlab.grouping`), with the 0/0 points (undefined) and
the x/0 points (±inf) set apart.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..grouping import Grouped, group_clustered, group_exact, merge_equal_doubles
from ..metrics import ExactForm, Metric
from .arithmetic import key_arithmetic
from .origin import Origin
from .pmf import MetricDistribution

__all__ = ["lattice_distribution"]


def lattice_distribution(
    m: Metric,
    cols: tuple[np.ndarray, ...],
    weights: np.ndarray,
    *,
    largest: int,
    pruned: float,
    model: str,
    undefined: float | None,
    keep: np.ndarray | None = None,
    slice_pn: tuple[int, int] | None = None,
    origin: Origin | None = None,
) -> MetricDistribution:
    """Push a lattice PMF through a metric, grouping on exact values (the core of
    :func:`metric_distribution`).

    ``cols`` are the (TP, FN, FP, TN) count arrays broadcasting to ``weights``' shape;
    ``largest`` bounds their total; ``pruned`` is the mass the lattice lacks; ``undefined``
    the value of 0/0 points (None: excluded); ``keep`` (optional boolean array) leaves
    points out entirely (e.g. points of zero mass in a mixture's bounding box).
    ``slice_pn = (p, n)`` says the lattice lies on one slice (FN = p − TP, FP = n − TN):
    the metric's slice form (:meth:`~confusionlab.metrics.Metric._exact_on_slice`: the same
    integers in fewer passes, bounds known without a scan) is used in float64 arithmetic.
    ``origin`` (optional) records the observed matrix and settings the lattice came from.
    """
    arithmetic = key_arithmetic(m, largest, cols)
    form: ExactForm
    if slice_pn is not None and arithmetic == "float":
        form = m._exact_on_slice(cols[0], cols[3], *slice_pn, as_float=True)
    else:
        form = m.exact(*cols, as_float=arithmetic != "int64")
    shape = np.shape(weights)
    where, undefined_at, sign_at = form.special_points(shape)
    defined = None if keep is None else np.array(np.broadcast_to(keep, shape))
    if where.size:
        defined = np.ones(shape, dtype=bool) if defined is None else defined
        kept_special = defined.reshape(-1)[where]
        defined.reshape(-1)[where] = False
        where, undefined_at, sign_at = where[kept_special], undefined_at[kept_special], sign_at[kept_special]
    if arithmetic == "clustered":
        grouped = _group_beyond_64_bits(
            m, form, cols, weights, np.ones(shape, dtype=bool) if defined is None else defined
        )
    else:
        grouped = group_exact(form, weights, defined=defined)
    grouped = merge_equal_doubles(grouped)  # distinct rationals that are one double: one atom
    values, masses, counts = grouped.values, grouped.masses, grouped.counts
    w_at = np.broadcast_to(np.asarray(weights), shape)[np.unravel_index(where, shape)]
    for value, at in ((np.inf, ~undefined_at & (sign_at > 0)), (-np.inf, ~undefined_at & (sign_at < 0))):
        if at.any():
            values, masses, counts = _merge_value(
                values, masses, counts, value, float(w_at[at].sum()), int(np.count_nonzero(at))
            )
    n_undef = int(np.count_nonzero(undefined_at))
    undef_mass = float(w_at[undefined_at].sum())
    if n_undef and undefined is not None:
        values, masses, counts = _merge_value(values, masses, counts, undefined, undef_mass, n_undef)
    return MetricDistribution(
        values,
        masses,
        counts,
        metric=m.name,
        model=model,
        undefined_mass=undef_mass,
        undefined_points=n_undef,
        pruned_mass=pruned,
        lattice_points=int(np.prod(shape)) if keep is None else int(np.count_nonzero(keep)),
        strategy=grouped.strategy,
        undefined_excluded=undefined is None,
        check_total=True,
        origin=origin,
    )


def _group_beyond_64_bits(
    metric: Metric, form: ExactForm, cols: tuple[np.ndarray, ...], weights: np.ndarray, defined: np.ndarray
) -> Grouped:
    """Exact grouping when exact keys exceed int64 (see :func:`~confusionlab.grouping.group_clustered`)."""
    shape = np.shape(weights)
    kept = np.flatnonzero(np.asarray(defined).reshape(-1))
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.broadcast_to(np.true_divide(form.num, form.den), shape).reshape(-1)[kept]
    w = np.asarray(weights, dtype=np.float64).reshape(-1)[kept]

    def exact_ratios(members: np.ndarray) -> list[Fraction]:
        where = np.unravel_index(kept[members], shape)
        counts = [np.array([int(v) for v in np.broadcast_to(c, shape)[where]], dtype=object) for c in cols]
        exact = metric._exact(*counts)
        num = np.broadcast_to(exact.num, members.shape)
        den = np.broadcast_to(exact.den, members.shape)
        return [Fraction(int(a), int(b)) for a, b in zip(num, den, strict=True)]

    def exact_pairs(members: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        where = np.unravel_index(kept[members], shape)
        counts = [np.asarray(np.broadcast_to(c, shape)[where], dtype=np.int64).astype(object) for c in cols]
        exact = metric._exact(*counts)
        return np.broadcast_to(exact.num, members.shape), np.broadcast_to(exact.den, members.shape)

    return group_clustered(ratio, w, exact_ratios, lambda r: form.value(r, np.ones_like(r)), exact_pairs)


def _merge_value(
    values: np.ndarray, masses: np.ndarray, counts: np.ndarray, value: float, mass: float, points: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    i = int(np.searchsorted(values, value))
    if i < values.size and values[i] == value:
        masses, counts = masses.copy(), counts.copy()
        masses[i] += mass
        counts[i] += points
        return values, masses, counts
    return np.insert(values, i, value), np.insert(masses, i, mass), np.insert(counts, i, points)
