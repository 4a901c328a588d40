"""What a metric distribution was computed from: the observed matrix and the settings."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..confusion import ConfusionMatrix
from ..metrics import Metric

__all__ = ["Origin"]


@dataclass(frozen=True)
class Origin:
    """What a distribution was computed from: the observed matrix and the settings of
    :func:`metric_distribution` (what :attr:`MetricDistribution.value` and
    :meth:`MetricDistribution.view` need).

    Plain data (it pickles with the distribution).

    Attributes
    ----------
    cm : ConfusionMatrix
        The observed matrix.
    label : str
        The metric's display name (:attr:`Metric.label <confusionlab.metrics.Metric.label>`).
    observed : float
        The metric on ``cm`` (a 0/0 metric takes ``undefined``, NaN when that is None).
    prior : float
        The prior pseudo-count α (unused by the binomial model).
    tolerance : float
        Tail mass each marginal was allowed to drop.
    future_size : (p, n) or int
        The size of the predicted test set as resolved: ``(p, n)`` for the slice
        models, ``N`` for the simplex model, the observed size for ``target="true_value"``.
    undefined : float or None
        The value given to 0/0 points (None: excluded).
    """

    cm: ConfusionMatrix
    label: str
    observed: float
    prior: float
    tolerance: float
    future_size: tuple[int, int] | int
    undefined: float | None

    @classmethod
    def of(
        cls,
        cm: ConfusionMatrix,
        metric: Metric,
        prior: float,
        tolerance: float,
        future_size: tuple[int, int] | int,
        undefined: float | None,
    ) -> Origin:
        """The origin of ``metric``'s distribution for ``cm`` (its observed value computed here)."""
        observed = metric(cm, undefined=np.nan if undefined is None else undefined)
        return cls(cm, metric.label, observed, prior, tolerance, future_size, undefined)
