"""The scores of a fitted scikit-learn classifier, and what a ``TunedThresholdClassifierCV`` chose.

scikit-learn's rule is the library's: ``TunedThresholdClassifierCV.predict`` labels an example
positive when its score is at least ``best_threshold_`` (``_threshold_scores_to_class_labels``), on
``predict_proba``'s column of the positive class or on ``decision_function``. Nothing here imports
scikit-learn: the estimator is read through its public attributes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import InvalidParameterError, check_choice
from ..labels import same_label

__all__ = ["RESPONSE_METHODS", "estimator_scores"]

#: Where the scores come from.
RESPONSE_METHODS = ("auto", "predict_proba", "decision_function")


def _response(estimator: Any, method: str) -> str:
    if method == "auto":
        method = "predict_proba" if hasattr(estimator, "predict_proba") else "decision_function"
    if not callable(getattr(estimator, method, None)):
        raise InvalidParameterError(f"estimator has no {method}(); pass response_method= one it has")
    return method


def estimator_scores(
    estimator: Any, X: Any, positive: Any, response_method: str
) -> tuple[np.ndarray, Any, float | None, str | None]:
    """``(scores, positive label, tuned threshold or None, tuned scoring name or None)`` of a fitted classifier.

    >>> from sklearn.linear_model import LogisticRegression
    >>> clf = LogisticRegression().fit([[0.0], [1.0], [2.0], [3.0]], ["no", "no", "yes", "yes"])
    >>> s, label, tuned, scoring = estimator_scores(clf, [[0.5], [2.5]], None, "auto")
    >>> label, bool(s[0] < 0.5 < s[1]), tuned, scoring
    ('yes', True, None, None)
    """
    method = check_choice(response_method, "response_method", RESPONSE_METHODS)
    tuned = getattr(estimator, "best_threshold_", None)
    scoring = None
    model = estimator
    if tuned is not None:  # a fitted TunedThresholdClassifierCV: its own response method and scoring
        model = getattr(estimator, "estimator_", estimator)
        method = getattr(estimator, "response_method", "auto")
        given = getattr(estimator, "scoring", None)
        scoring = given if isinstance(given, str) else None
        tuned = float(tuned)
    classes = getattr(estimator, "classes_", None)
    if classes is None:
        raise InvalidParameterError("estimator must be a fitted classifier (it has no classes_); fit it first")
    classes = list(np.asarray(classes).tolist())
    if len(classes) != 2:
        raise InvalidParameterError(f"estimator must be a binary classifier, it has {len(classes)} classes {classes!r}")
    label = classes[1] if positive is None else positive
    if tuned is not None and not same_label(label, classes[1]):
        raise InvalidParameterError(
            f"positive={positive!r}: a TunedThresholdClassifierCV's threshold is on the scores of {classes[1]!r} "
            "(classes_[1]); leave positive out"
        )
    column = next((k for k, c in enumerate(classes) if same_label(c, label)), None)
    if column is None:
        raise InvalidParameterError(f"positive={positive!r} is not one of the estimator's classes {classes!r}")
    method = _response(model, method)
    out = np.asarray(getattr(model, method)(X), dtype=np.float64)
    if method == "predict_proba":
        scores = out[:, column]
    else:
        scores = out.reshape(-1) if column == 1 else -out.reshape(-1)
    return scores, label, tuned, scoring
