"""The arguments of :func:`~confusionlab.roc_curve`, :func:`~confusionlab.precision_recall_curve` and
:func:`~confusionlab.compare_auc` that do not depend on the data, checked once into one frozen
:class:`Options` that the array path and the ``data=`` path (``_data``) both take whole."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .._validation import InvalidParameterError, check_int

__all__ = ["MAX_SCORE_BINS", "Options", "check_options"]

#: Most score bins.
MAX_SCORE_BINS = 10**6


@dataclass(frozen=True)
class Options:
    """A score function's arguments that do not depend on the data, checked."""

    #: As given; checked against the labels once they are known.
    positive: Any = None
    #: ``score_bins``: quantile bins of the scores (``data=`` only), or None.
    score_bins: int | None = None
    #: As given (its choice depends on the scores' shape); with ``data=`` it must be None.
    multi_class: str | None = None

    def refuse_bins(self) -> None:
        """Refuse ``score_bins`` on the array path (the engine bins a column; arrays are binned by the caller)."""
        if self.score_bins is not None:
            raise InvalidParameterError(
                "score_bins= needs data= (a DataFrame whose columns y_true and y_score name); with arrays, "
                "bin the scores yourself (groups= works with arrays too)"
            )


def check_options(*, positive: Any = None, score_bins: Any = None, multi_class: Any = None) -> Options:
    """Check every argument of a score function that does not need the data.

    >>> check_options(score_bins=100).score_bins
    100
    >>> check_options(score_bins=1)
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: score_bins must be at least 2, got 1
    """
    bins = None if score_bins is None else check_int(score_bins, "score_bins", minimum=2, maximum=MAX_SCORE_BINS)
    return Options(positive=positive, score_bins=bins, multi_class=multi_class)
