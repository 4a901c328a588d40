"""The metrics an evaluation reports, and the question each of its answers names."""

from __future__ import annotations

from typing import Any

from .._validation import InvalidParameterError
from ..metrics import get_metric

__all__ = ["DEFAULT_METRICS", "DEFAULT_MULTICLASS_METRICS", "MACRO_PREFIX", "QUESTIONS"]

#: Metrics an evaluation reports when ``metrics`` is not given (binary / more classes).
DEFAULT_METRICS = ("f1", "recall", "precision", "balanced_accuracy")
DEFAULT_MULTICLASS_METRICS = ("macro_f1", "macro_recall", "macro_precision")
#: Prefix of the macro averages over one-vs-rest classes ("macro_f1", "macro_recall", …).
MACRO_PREFIX = "macro_"
#: The question each ``target`` answers, in words (every view and page shows it).
QUESTIONS = {
    "next_test_set": "What will {metric} be on a new test set of the same size{refit}?",
    "true_value": "Where does the true {metric} lie{refit}, given this test set?",
}
_REFIT_WORDS = {"next_test_set": ", scored by a new refit of the model", "true_value": " for a new refit of the model"}


def _metric_name(name: Any, argument: str) -> str:
    """The canonical name of a metric or a macro average (``"F1"`` → ``"f1"``), or an
    InvalidParameterError naming ``argument``."""
    if not isinstance(name, str):
        raise InvalidParameterError(f"{argument} must hold metric names, got {name!r}")
    key = name.strip().lower()
    if key.startswith(MACRO_PREFIX):
        try:
            return MACRO_PREFIX + get_metric(key[len(MACRO_PREFIX) :]).name
        except (TypeError, ValueError) as err:
            raise InvalidParameterError(f"{argument}: unknown macro average {name!r} ({err})") from None
    try:
        return get_metric(key).name
    except (TypeError, ValueError) as err:
        raise InvalidParameterError(f"{argument}: {err}") from None


def _is_macro(name: str) -> bool:
    return name.startswith(MACRO_PREFIX)


def _label(name: str) -> str:
    """How a (canonical) metric name is written for people: the metric's label, or the macro name."""
    return name if _is_macro(name) else get_metric(name).label
