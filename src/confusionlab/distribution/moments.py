"""Each mixture component's mean and variance, from one lattice of values (matrix products)."""

from __future__ import annotations

from typing import Any

import numpy as np
from threadpoolctl import ThreadpoolController

from ..metrics import Metric

__all__ = []


_CONTROLLER: list[ThreadpoolController] = []


def _one_blas_thread() -> Any:
    """A context limiting BLAS to one thread. threadpoolctl's controller is built once:
    each ``threadpool_limits`` call re-reads the loaded libraries (about 9 ms, most of a
    small group's mixture)."""
    if not _CONTROLLER:
        _CONTROLLER.append(ThreadpoolController())
    return _CONTROLLER[0].limit(limits=1, user_api="blas")


def _component_moments(
    m: Metric,
    cols: tuple[np.ndarray, ...],
    a: np.ndarray,
    b: np.ndarray,
    undefined: float | None,
    valid: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Each component's mean and variance of its retained mass, from the lattice values.

    E_r[f] = Σ_ij a_ri b_rj f_ij is one matrix product, (a f) · b summed per row; only
    the indicator products that can be non-zero (excluded 0/0 points, ±inf values)
    are computed. ``a``, ``b`` (and ``cols``) may carry leading batch axes (groups, by
    :func:`slice_mixtures`); ``valid`` then marks the points of each padded lattice.
    """
    with np.errstate(all="ignore"):
        values = m.values(*cols, undefined=np.nan)
    # the whole lattice: a metric of TN alone (specificity) gives a row, and a @ row fails
    values = np.broadcast_to(values, np.broadcast_shapes(*(np.shape(c) for c in cols)))
    undefined_points = np.isnan(values)
    finite = np.isfinite(values)
    if undefined is not None:
        values = np.where(undefined_points, undefined, values)
        finite |= undefined_points
        undefined_points = np.zeros_like(undefined_points)
    kept = finite & ~undefined_points
    if valid is not None:
        kept = kept & valid  # padding: a and b are 0 there

    def expect(f: np.ndarray) -> np.ndarray:
        return np.einsum("...rq,...rq->...r", a @ np.ascontiguousarray(f, dtype=np.float64), b)

    every = bool(kept.all())  # then no masked copies of the lattice's values
    mass = expect(kept) if not every else a.sum(axis=-1) * b.sum(axis=-1)
    if not finite.all():  # ±inf values: a component whose mass reaches them has infinite moments
        plus, minus = expect(values == np.inf), expect(values == -np.inf)
    else:
        plus = minus = np.zeros(a.shape[:-1])
    v = values if every else np.where(kept, values, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        means = expect(v) / mass
        present = ~np.isnan(means)
        centre = np.where(present, means, 0.0).sum(axis=-1, keepdims=True) / np.maximum(
            present.sum(axis=-1, keepdims=True), 1
        )
        centre = np.where(np.isfinite(means).any(axis=-1, keepdims=True), centre, 0.0)
        d = values - centre[..., None]  # centred: no cancellation in E[d²] − E[d]²
        if not every:
            d[~kept] = 0.0
        np.multiply(d, d, out=d)
        variances = np.maximum(expect(d) / mass - (means - centre) ** 2, 0.0)
    means = np.where(plus > 0, np.where(minus > 0, np.nan, np.inf), np.where(minus > 0, -np.inf, means))
    variances = np.where((plus > 0) | (minus > 0), np.where(np.isnan(means), np.nan, np.inf), variances)
    return means, variances
