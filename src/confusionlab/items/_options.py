"""The arguments of the item jobs that do not depend on the data, checked once into one frozen
:class:`Options` that the array path and the ``data=`` path (``_data``) both take whole."""

from __future__ import annotations

from dataclasses import dataclass

from .._validation import check_confidence

__all__ = ["Options", "check_options"]


@dataclass(frozen=True)
class Options:
    """The item jobs' arguments that do not depend on the data, checked."""

    #: The level of the interval the result's summary and frame state.
    confidence: float


def check_options(*, confidence: object) -> Options:
    """Check every argument of :func:`~confusionlab.evaluate_items` and
    :func:`~confusionlab.compare_items` that does not need the data.

    >>> check_options(confidence=0.9).confidence
    0.9
    """
    return Options(confidence=check_confidence(confidence))
