"""The posterior of a metric's true value: a Beta for a single rate, else a product quadrature of
the rates' Beta posteriors."""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy import stats

from .._result import Result
from .._validation import check_points, check_quantiles
from ..confusion import ConfusionMatrix
from ..metrics import Metric
from ..models import TRUE_VALUE_PRIOR
from .origin import Origin
from .pmf import MetricDistribution

__all__ = ["SINGLE_RATES", "TRUE_VALUE_NODES", "TRUE_VALUE_PRIOR", "RateDistribution"]


#: Quantile nodes per rate of the ``target="true_value"`` quadrature (K² points in all).
TRUE_VALUE_NODES = 400


#: The metrics that are one rate, with the counts (successes, failures) of its Beta posterior:
#: recall = TPR ~ Beta(TP + α, FN + α), and so on.
SINGLE_RATES = {"recall": ("tp", "fn"), "fnr": ("fn", "tp"), "tnr": ("tn", "fp"), "fpr": ("fp", "tn")}


class RateDistribution(MetricDistribution):
    """The true value of a single rate: its Beta posterior, exactly.

    The atoms (:attr:`values`, :attr:`probabilities`) are the Beta's quantiles at the
    probabilities (i + ½)/K of the quadrature (what mixtures, comparisons and figures pool);
    ``cdf``, ``sf``, ``ppf``, ``interval``, ``mean``, ``var`` and ``support`` are the Beta's
    own (scipy), so the interval is the Beta's central interval.

    Examples
    --------
    >>> from confusionlab import ConfusionMatrix, metric_distribution
    >>> d = metric_distribution(ConfusionMatrix(tp=3, fn=1, fp=4, tn=409), "recall", target="true_value")
    >>> lo, hi = d.interval(0.95)
    >>> ref = stats.beta(3.5, 1.5).interval(0.95)
    >>> bool(abs(lo - ref[0]) < 1e-12 and abs(hi - ref[1]) < 1e-12), round(lo, 4), round(hi, 4)
    (True, 0.2838, 0.9715)
    """

    def __init__(self, *args: Any, a: float, b: float, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.a, self.b = float(a), float(b)
        self.beta = stats.beta(self.a, self.b)

    def view(self) -> Any:
        """The summary above the figure of the Beta posterior (a figure widget): the true value is
        continuous, so :class:`~confusionlab.MetricPMF`, which draws the next test set's lattice,
        does not show it."""
        return Result.view(self)

    def cdf(self, x: Any) -> np.ndarray | float:
        """P(rate <= x), the Beta's cdf (1 at +inf, NaN at NaN)."""
        x = check_points(x)
        out = np.where(np.isnan(x), np.nan, self.beta.cdf(x))
        return out if out.ndim else float(out)

    def sf(self, x: Any) -> np.ndarray | float:
        """P(rate > x), the Beta's survival function."""
        x = check_points(x)
        out = np.where(np.isnan(x), np.nan, self.beta.sf(x))
        return out if out.ndim else float(out)

    def ppf(self, q: Any) -> np.ndarray | float:
        """The Beta's quantile function."""
        out = np.asarray(self.beta.ppf(check_quantiles(q)), dtype=np.float64)
        return out if out.ndim else float(out)

    def mean(self) -> float:
        return self.a / (self.a + self.b)

    def var(self) -> float:
        s = self.a + self.b
        return self.a * self.b / (s * s * (s + 1.0))

    def support(self) -> tuple[float, float]:
        return 0.0, 1.0

    def to_scipy(self) -> Any:
        """The frozen ``scipy.stats.beta`` of the rate."""
        return self.beta


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
    single = SINGLE_RATES.get(m.name) if not n_undef else None
    beta = {} if single is None else {"a": getattr(cm, single[0]) + alpha, "b": getattr(cm, single[1]) + alpha}
    return (RateDistribution if beta else MetricDistribution)(
        values,
        counts / float(k * k),
        counts,
        metric=m.name,
        model="beta-binomial",
        undefined_mass=undef_mass,
        undefined_points=n_undef,
        lattice_points=k * k,
        strategy=f"beta({beta['a']:g}, {beta['b']:g})" if beta else f"quadrature({k}x{k})",
        undefined_excluded=undefined_value is None,
        check_total=True,
        target="true_value",
        cdf_error=0.0 if beta else (2 * k - 1) / k**2,
        origin=origin,
        method="exact" if beta else "quadrature",
        **beta,
    )
