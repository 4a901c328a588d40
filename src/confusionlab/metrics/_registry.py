"""The registry :data:`METRICS`, name and alias resolution, and the value of a metric for a matrix."""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction

from .._validation import InvalidParameterError, check_instance, check_undefined
from ..confusion import ConfusionMatrix
from ._definitions import (
    _accuracy,
    _balanced_accuracy,
    _cohen_kappa,
    _diagnostic_odds_ratio,
    _fowlkes_mallows,
    _g_mean,
    _informedness,
    _jaccard,
    _lr_minus,
    _lr_plus,
    _markedness,
    _npv,
    _precision,
    _prevalence_threshold,
    _simple_rate,
)
from ._fbeta import fbeta_metric
from ._mcc import _mcc
from ._metric import Metric


def _build_registry() -> dict[str, Metric]:
    metrics = [
        _accuracy(),
        _balanced_accuracy(),
        _informedness(),
        _markedness(),
        fbeta_metric(1),
        _jaccard(),
        _precision(),
        _npv(),
        _simple_rate("recall", "Recall (TPR, sensitivity)", "TP / (TP + FN)", "tpr", "tnr", ("tpr", "sensitivity")),
        _simple_rate("tnr", "Specificity (TNR)", "TN / (TN + FP)", "tnr", "recall", ("specificity", "selectivity")),
        _simple_rate("fpr", "False positive rate", "FP / (FP + TN)", "fpr", "fnr", ("fall_out",)),
        _simple_rate("fnr", "False negative rate", "FN / (FN + TP)", "fnr", "fpr", ("miss_rate",)),
        _mcc(),
        _cohen_kappa(),
        _g_mean(),
        _fowlkes_mallows(),
        _lr_plus(),
        _lr_minus(),
        _diagnostic_odds_ratio(),
        _prevalence_threshold(),
    ]
    return {m.name: m for m in metrics}


class _Registry(Mapping[str, Metric]):
    """Read-only mapping name -> :class:`Metric`; also resolves aliases and 'f<beta>'."""

    def __init__(self, metrics: dict[str, Metric]) -> None:
        self._metrics = metrics
        self._aliases = {a: m.name for m in metrics.values() for a in m.aliases}

    def __getitem__(self, name: str) -> Metric:
        try:
            return get_metric(name)
        except (ValueError, TypeError) as err:
            raise KeyError(str(err)) from None

    def __contains__(self, name: object) -> bool:
        try:
            get_metric(name)  # type: ignore[arg-type]
        except (ValueError, TypeError):
            return False
        return True

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self._metrics)

    def __len__(self) -> int:
        return len(self._metrics)

    def __repr__(self) -> str:
        return f"METRICS({', '.join(self._metrics)})"


_METRICS = _build_registry()
METRICS: Mapping[str, Metric] = _Registry(_METRICS)
"""All metrics by name. ``METRICS["mcc"]``; aliases (``"tpr"``, ``"ba"``) and ``"f2"`` work too."""

_FBETA = re.compile(r"^f_?(?:beta_?)?(\d+(?:\.\d+)?)$")


def get_metric(metric: str | Metric) -> Metric:
    """Resolve a metric name (or alias, or ``"f<beta>"``) to its :class:`Metric`.

    >>> get_metric("tpr").name
    'recall'
    >>> get_metric("f0.5").name
    'f0.5'
    """
    if isinstance(metric, Metric):
        return metric
    check_instance(metric, "metric", str, "a metric name or a Metric")
    key = metric.strip().lower().replace("-", "_").replace(" ", "_")
    if key in _METRICS:
        return _METRICS[key]
    registry: _Registry = METRICS  # type: ignore[assignment]
    if key in registry._aliases:
        return _METRICS[registry._aliases[key]]
    match = _FBETA.match(key)
    if match:
        return fbeta_metric(Fraction(match.group(1)))
    raise InvalidParameterError(f"unknown metric {metric!r}; expected one of {sorted(_METRICS)} (or 'f<beta>')")


def metric_value(cm: ConfusionMatrix, metric: str | Metric, *, undefined: float = 0.0) -> float:
    """The value of ``metric`` for the confusion matrix ``cm``.

    Parameters
    ----------
    cm : ConfusionMatrix
    metric : str or Metric
        A name from :data:`METRICS` (aliases accepted).
    undefined : float, default 0.0
        Returned where the metric is 0/0 (the paper's convention is 0); pass
        ``float("nan")`` to see undefined values as NaN.

    Examples
    --------
    >>> cm = ConfusionMatrix(tp=16, fn=4, fp=8, tn=32)
    >>> round(metric_value(cm, "mcc"), 4)
    0.5774
    >>> metric_value(ConfusionMatrix(tp=0, fn=20, fp=0, tn=40), "mcc")
    0.0
    """
    check_instance(cm, "cm", ConfusionMatrix, "a ConfusionMatrix")
    if not (isinstance(undefined, float) and undefined != undefined):  # NaN shows undefined values as NaN
        undefined = check_undefined(undefined, allow_exclude=False)
    return get_metric(metric)(cm, undefined=undefined)
