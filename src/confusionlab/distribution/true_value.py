"""The posterior of a metric's true value, by a product quadrature of the rates' Beta posteriors."""

from __future__ import annotations

import numpy as np
from scipy import stats

from ..confusion import ConfusionMatrix
from ..metrics import Metric
from ..models import TRUE_VALUE_PRIOR
from .origin import Origin
from .pmf import MetricDistribution

__all__ = ["TRUE_VALUE_NODES", "TRUE_VALUE_PRIOR"]


#: Quantile nodes per rate of the ``target="true_value"`` quadrature (K² points in all).
TRUE_VALUE_NODES = 400


def _true_value_distribution(
    cm: ConfusionMatrix, m: Metric, alpha: float, undefined_value: float | None, origin: Origin
) -> MetricDistribution:
    """The metric's posterior under the rates' Beta posteriors, by the quantile product rule."""
    k = TRUE_VALUE_NODES
    nodes = (np.arange(k) + 0.5) / k
    tpr = stats.beta.ppf(nodes, cm.tp + alpha, cm.fn + alpha)
    tnr = stats.beta.ppf(nodes, cm.tn + alpha, cm.fp + alpha)
    p, n = float(cm.p), float(cm.n)
    tp, tn = (p * tpr)[:, None], (n * tnr)[None, :]
    vals = np.broadcast_to(m.values(tp, p - tp, n - tn, tn, undefined=np.nan), (k, k)).reshape(-1)
    undefined_at = np.isnan(vals)
    n_undef = int(np.count_nonzero(undefined_at))
    undef_mass = n_undef / (k * k)
    if n_undef:
        vals = vals[~undefined_at] if undefined_value is None else np.where(undefined_at, undefined_value, vals)
    values, counts = np.unique(vals, return_counts=True)
    return MetricDistribution(
        values,
        counts / float(k * k),
        counts,
        metric=m.name,
        model="beta-binomial",
        undefined_mass=undef_mass,
        undefined_points=n_undef,
        lattice_points=k * k,
        strategy=f"quadrature({k}x{k})",
        undefined_excluded=undefined_value is None,
        check_total=True,
        target="true_value",
        cdf_error=(2 * k - 1) / k**2,
        origin=origin,
        method="quadrature",
    )
