"""The arguments of an audit that do not depend on the data, checked once into one frozen object."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..._validation import (
    InvalidParameterError,
    check_confidence,
    check_flag,
    check_instance,
    check_margin,
    check_names,
)
from .._checks import check_column_names
from ..results import POSTTRAINING, PRETRAINING
from ..selection import LabelSelection, label_selection

__all__ = ["AUDIT_METRICS", "DEFAULT_METRICS", "AuditArguments", "audit_arguments"]

#: Metrics an audit can judge: every count-based comparison of two facets (GE is not a
#: comparison, CDDL/CDDPL need a subgroup column and FT the features).
AUDIT_METRICS = tuple(m for m in (*PRETRAINING, *POSTTRAINING) if m not in ("CDDL", "CDDPL", "FT", "GE"))

#: What an audit judges without ``metrics=``: how the groups are *treated*, not how large they are
#: (CI measures a group's share of the data, so every group but the one near half would be "bias";
#: the KL family on a binary label restates DPL). With predictions: the positive-prediction rate
#: (DPPL, demographic parity), recall (RD, equal opportunity), specificity (SD, the false-positive
#: side of equalised odds) and accuracy (AD); labels only: the positive-label rate (DPL).
DEFAULT_METRICS = {"post": ("DPPL", "RD", "SD", "AD"), "pre": ("DPL",)}


@dataclass(frozen=True)
class AuditArguments:
    """What :func:`~confusionlab.bias.audit` was asked, checked: the columns, the metrics and how to judge them."""

    label: str
    labels: LabelSelection
    predicted: str | None
    columns: list[str]
    metrics: list[str]
    margins: dict[str, float]
    confidence: float
    reference: dict[str, Any]
    intersections: bool
    simultaneous: bool
    dropna: bool


def audit_arguments(
    *,
    label: Any,
    positive_values: Any,
    label_threshold: Any,
    facets: Any,
    predicted: Any,
    dropna: Any,
    intersections: Any,
    metrics: Any,
    margin: Any,
    confidence: Any,
    reference: Any,
    simultaneous: Any,
) -> AuditArguments:
    """Check the arguments of :func:`~confusionlab.bias.audit` in the order its documentation lists the errors.

    >>> a = audit_arguments(label="y", positive_values=[1], label_threshold=None, facets="sex", predicted="p",
    ...                     dropna=False, intersections=False, metrics=None, margin=0.05, confidence=0.95,
    ...                     reference=None, simultaneous=True)
    >>> a.columns, a.metrics, a.margins["RD"]
    (['sex'], ['DPPL', 'RD', 'SD', 'AD'], 0.05)
    """
    columns = check_column_names(facets, "facets")
    metric_names = _check_metrics(metrics, predicted)
    margins = _check_margins(margin, metric_names)
    confidence = check_confidence(confidence)
    intersections = check_flag(intersections, "intersections")
    simultaneous = check_flag(simultaneous, "simultaneous")
    dropna = check_flag(dropna, "dropna")
    check_instance(label, "label", str, "a column name")
    if predicted is not None:
        check_instance(predicted, "predicted", str, "a column name")
    if reference is not None:
        check_instance(reference, "reference", Mapping, "a dict facet column → reference value")
    reference = dict(reference or {})
    unknown = [c for c in reference if c not in columns]
    if unknown:
        raise InvalidParameterError(f"reference names {unknown!r}, which are not among facets {columns!r}")
    labels = label_selection(positive_values, label_threshold)
    if label in columns or (predicted is not None and predicted in columns):
        raise InvalidParameterError(f"facets {columns!r} must not include the label or predicted column")
    return AuditArguments(
        label=label,
        labels=labels,
        predicted=predicted,
        columns=columns,
        metrics=metric_names,
        margins=margins,
        confidence=confidence,
        reference=reference,
        intersections=intersections,
        simultaneous=simultaneous,
        dropna=dropna,
    )


def _check_metrics(metrics: Sequence[str] | None, predicted: str | None) -> list[str]:
    if metrics is None:
        return list(DEFAULT_METRICS["post" if predicted is not None else "pre"])
    names = check_names(metrics, "metrics", AUDIT_METRICS, "metric names such as ['DPPL', 'DI']")
    post = [m for m in names if m not in PRETRAINING]
    if post and predicted is None:
        raise InvalidParameterError(
            f"metrics {post!r} compare predictions: give predicted=<column of predicted labels>"
        )
    return names


def _check_margins(margin: Any, metrics: list[str]) -> dict[str, float]:
    """One margin per metric (:func:`~confusionlab._validation.check_margin`: finite, ≥ 0)."""
    if isinstance(margin, Mapping):
        missing = [m for m in metrics if m not in margin]
        if missing:
            raise InvalidParameterError(
                f"margin: no margin for {missing!r} (give one per audited metric, or one number)"
            )
        return {m: check_margin(margin[m], f"margin[{m!r}]") for m in metrics}
    value = check_margin(margin)
    return dict.fromkeys(metrics, value)
