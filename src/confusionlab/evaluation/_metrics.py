"""The metrics an evaluation reports, and the question each of its answers names."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import InvalidParameterError
from ..metrics import get_metric

__all__ = [
    "DEFAULT_METRICS",
    "DEFAULT_MULTICLASS_METRICS",
    "MACRO_PREFIX",
    "MULTICLASS_MCC",
    "QUESTIONS",
    "metric_label",
    "metric_name",
    "multiclass_mcc",
    "table_values",
]

#: Metrics an evaluation reports when ``metrics`` is not given (binary / more classes).
DEFAULT_METRICS = ("f1", "recall", "precision", "balanced_accuracy")
DEFAULT_MULTICLASS_METRICS = ("macro_f1", "macro_recall", "macro_precision")
#: Prefix of the macro averages over one-vs-rest classes ("macro_f1", "macro_recall", …).
#: ``macro_mcc`` is one of them: the mean of the classes' one-vs-rest MCCs, *not*
#: scikit-learn's multi-class ``matthews_corrcoef`` (that is :data:`MULTICLASS_MCC`).
MACRO_PREFIX = "macro_"
#: Gorodkin's multi-class MCC R_K (scikit-learn's ``matthews_corrcoef`` on multi-class labels).
MULTICLASS_MCC = "multiclass_mcc"
#: The question each ``target`` answers, in words (every view and page shows it).
QUESTIONS = {
    "next_test_set": "What will {metric} be on a new test set of the same size{refit}?",
    "true_value": "Where does the true {metric} lie{refit}, given this test set?",
}
_REFIT_WORDS = {"next_test_set": ", scored by a new refit of the model", "true_value": " for a new refit of the model"}


def metric_name(name: Any, argument: str) -> str:
    """The canonical name of a metric, a macro average or the multi-class MCC.

    Parameters
    ----------
    name : str
        A metric's name or alias, ``"macro_"`` and a metric, or ``"multiclass_mcc"``.
    argument : str
        The argument that holds ``name``, for the message.

    Returns
    -------
    str

    Raises
    ------
    InvalidParameterError
        ``name`` is no metric, naming ``argument``.

    Examples
    --------
    >>> metric_name("F1", "metric"), metric_name("Macro_Recall", "metrics")
    ('f1', 'macro_recall')
    """
    if not isinstance(name, str):
        raise InvalidParameterError(f"{argument} must hold metric names, got {name!r}")
    key = name.strip().lower()
    if key == MULTICLASS_MCC:
        return key
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
    """Whether ``name`` is a metric of the whole K × K table (a macro average or the
    multi-class MCC), sampled by Monte Carlo, rather than a binary metric."""
    return name.startswith(MACRO_PREFIX) or name == MULTICLASS_MCC


def metric_label(name: str) -> str:
    """How a canonical metric name (as :func:`metric_name` gives it) is written for people.

    The metric's label; a macro average keeps its name.

    Examples
    --------
    >>> metric_label("multiclass_mcc"), metric_label("macro_f1")
    ('multi-class MCC', 'macro_f1')
    """
    if name == MULTICLASS_MCC:
        return "multi-class MCC"
    return name if _is_macro(name) else get_metric(name).label


def multiclass_mcc(tables: Any) -> np.ndarray:
    r"""Gorodkin's multi-class MCC :math:`R_K` of K × K tables (rows true, columns predicted).

    .. math::

        R_K = \frac{c\,s - \sum_k p_k t_k}{\sqrt{(s^2 - \sum_k p_k^2)\,(s^2 - \sum_k t_k^2)}}

    with ``c`` the correct predictions (the trace), ``s`` the objects, ``t_k`` and ``p_k``
    the objects truly in and predicted as class k. It is scikit-learn's
    ``matthews_corrcoef`` on multi-class labels (0 where the denominator is 0, as there),
    and the binary MCC for K = 2. It is not ``macro_mcc``, the mean of the K one-vs-rest
    MCCs (a different number: 0.7965 against 0.7971 on one three-class test set).

    Parameters
    ----------
    tables : array_like, shape (..., K, K)
        Counts (or expected counts) of one or many tables.

    Returns
    -------
    numpy.ndarray, shape (...)

    Examples
    --------
    >>> round(float(multiclass_mcc([[5, 1, 0], [2, 6, 1], [0, 1, 4]])), 6)  # sklearn: 0.619249
    0.619249
    """
    t = np.asarray(tables, dtype=np.float64)
    true, pred = t.sum(axis=-1), t.sum(axis=-2)
    s = true.sum(axis=-1)
    c = np.einsum("...ii->...", t)
    num = c * s - np.sum(pred * true, axis=-1)
    den = np.sqrt((s * s - np.sum(pred * pred, axis=-1)) * (s * s - np.sum(true * true, axis=-1)))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), 0.0)


def table_values(name: str, tables: Any) -> np.ndarray:
    """A table metric (:func:`_is_macro`) of K × K tables, shape (..., K, K) → (...).

    A macro average is the mean over the K classes of the one-vs-rest metric (0 where
    it is 0/0); the caller restricts the tables to the classes present.
    """
    t = np.asarray(tables, dtype=np.float64)
    if name == MULTICLASS_MCC:
        return multiclass_mcc(t)
    metric = get_metric(name[len(MACRO_PREFIX) :])
    diag = np.einsum("...ii->...i", t)
    total = t.sum(axis=(-2, -1))[..., None]
    fn, fp = t.sum(axis=-1) - diag, t.sum(axis=-2) - diag
    return metric.values(diag, fn, fp, total - diag - fn - fp).mean(axis=-1)
