"""The arguments only the score curves take: scores, their classes, alternatives and score matrices."""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._validation import InvalidParameterError, check_choice, missing_mask, refuse_missing, short_repr, to_numpy
from ..labels import same_label

__all__ = [
    "check_alternative",
    "check_multi_class",
    "check_omitted",
    "check_score_classes",
    "check_score_matrix",
    "check_scores",
]


def check_scores(value: Any, name: str, length: int) -> np.ndarray:
    """Real scores (higher = more positive) as a 1-D float64 array of ``length``; missing values and ±inf refused.

    >>> check_scores([0.2, 0.9], "y_score", 2).tolist()
    [0.2, 0.9]
    >>> check_scores([0.2, float("nan")], "y_score", 2)
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: y_score has 1 missing value (None/NaN/<NA>) at position 1; drop or fill it first
    """
    if isinstance(value, (str, bytes)) or value is None:
        raise InvalidParameterError(f"{name} must be an array of real scores, got {short_repr(value)}")
    raw = np.asarray(to_numpy(value))
    refuse_missing(missing_mask(raw), name)
    if raw.dtype.kind == "O" and all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in raw.flat):
        raw = raw.astype(np.float64)  # e.g. a column of a nullable frame whose other columns hold <NA>
    if raw.dtype.kind not in "iuf":
        raise InvalidParameterError(
            f"{name} must hold real numbers (scores, higher = more positive), got dtype {raw.dtype}: "
            f"{short_repr(raw.tolist())}"
        )
    scores = raw.astype(np.float64, copy=False)
    if scores.ndim != 1:
        raise InvalidParameterError(f"{name} must be one-dimensional, got shape {scores.shape}")
    if scores.shape[0] != length:
        raise InvalidParameterError(
            f"{name} must have one score per label: length {length} (as y_true), got {scores.shape[0]}"
        )
    bad = np.isinf(scores)
    if bad.any():
        raise InvalidParameterError(
            f"{name} has {int(bad.sum())} infinite value(s), the first at position "
            f"{int(np.flatnonzero(bad)[0])}; drop those rows or fill them first"
        )
    return scores


def check_score_classes(labels: Sequence[Any], positive: Any, name: str = "y_true") -> None:
    """Refuse true labels that cannot be split into positives and negatives (``labels``: the distinct ones).

    >>> check_score_classes([0, 1], None)
    >>> check_score_classes(["spam"], None)
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: y_true holds one class only ('spam'); a curve of scores needs ...
    """
    if len(labels) < 2:
        shown = ", ".join(map(repr, labels)) or "no examples"
        raise InvalidParameterError(
            f"{name} holds one class only ({shown}); a curve of scores needs positive and negative examples"
        )
    if positive is None and len(labels) > 2:
        shown = ", ".join(map(repr, labels[:6])) + (" …" if len(labels) > 6 else "")
        raise InvalidParameterError(
            f"{name} holds {len(labels)} classes ({shown}); pass positive=<label> to score that class against "
            "the others"
        )
    if positive is not None and not any(same_label(v, positive) for v in labels):
        raise InvalidParameterError(
            f"positive={positive!r} does not occur in {name} (labels: {short_repr(list(labels))}); check its spelling "
            "and type"
        )


def check_alternative(value: Any, name: str = "alternative") -> str:
    """The alternative of a test: ``"greater"``, ``"less"`` or ``"two-sided"``.

    >>> check_alternative("greater")
    'greater'
    """
    return check_choice(value, name, ("greater", "less", "two-sided"))


def check_omitted(value: Any, name: str, because: str) -> None:
    """Refuse an argument that must be left out (``because`` says why).

    >>> check_omitted(None, "score_b", "score_a is a dict of classifiers")
    >>> check_omitted([0.1], "score_b", "score_a is a dict of classifiers")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: score_b must be omitted when score_a is a dict of classifiers, got [0.1]
    """
    if value is not None:
        raise InvalidParameterError(f"{name} must be omitted when {because}, got {short_repr(value)}")


def check_score_matrix(value: Any, name: str, rows: int, classes: int) -> np.ndarray:
    """A (samples × classes) matrix of finite real scores, one column per class (at least 3 classes).

    >>> check_score_matrix([[0.2, 0.5, 0.3], [0.6, 0.1, 0.3]], "y_score", 2, 3).shape
    (2, 3)
    """
    if classes < 3:
        raise InvalidParameterError(
            f"a score matrix needs at least three classes in y_true, got {classes}; for two classes pass the "
            f"positive class's scores as a 1-D {name}"
        )
    matrix = np.asarray(getattr(value, "to_numpy", lambda: value)())
    if matrix.ndim != 2 or matrix.shape != (rows, classes):
        raise InvalidParameterError(
            f"{name} must be a (samples × classes) matrix of shape ({rows}, {classes}) — one column per class of "
            f"y_true, in sorted order — got shape {matrix.shape}"
        )
    columns = [check_scores(matrix[:, j], f"{name}[:, {j}]", rows) for j in range(classes)]
    return np.column_stack(columns)


def check_multi_class(value: Any, score_ndim: int, name: str = "multi_class") -> str | None:
    """``None`` for one column of scores; ``"ovr"`` or ``"hand-till"`` for a score matrix (then required).

    >>> check_multi_class(None, 1) is None, check_multi_class("ovr", 2)
    (True, 'ovr')
    >>> check_multi_class(None, 2)
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: y_score is a (samples × classes) matrix: pass multi_class='ovr' or ...
    """
    if value is None:
        if score_ndim == 2:
            raise InvalidParameterError(
                "y_score is a (samples × classes) matrix: pass multi_class='ovr' or 'hand-till', or the positive "
                "class's column alone for two classes"
            )
        return None
    return check_choice(value, name, ("ovr", "hand-till"))
