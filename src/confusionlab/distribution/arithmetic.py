"""The arithmetic of a metric's exact keys on a lattice, and its price in memory.

A metric is a ratio of integer polynomials in the counts; on test sets of up to ``N``
examples its keys fit in doubles (below 2**53), in int64 (below 2**62) or need more
(float ratios with near ties decided in Python integers). :func:`key_arithmetic` says
which; :func:`lattice_bytes` prices the grouping of one lattice point accordingly.
"""

from __future__ import annotations

import numpy as np

from .._validation import (
    TooLargeError,
)
from ..metrics import Metric

__all__ = ["BYTES_PER_LATTICE_POINT", "FLOAT_LATTICE_BYTES", "LATTICE_BYTES", "key_arithmetic", "lattice_bytes"]


#: Peak bytes per lattice point while a metric distribution is grouped (weights, exact
#: numerator and denominator, sort key, order, masks), by the arithmetic of the exact keys:
#: ``"float"`` below 2**53, ``"int64"`` below 2**62, ``"clustered"`` beyond (float ratios,
#: near ties decided with Python integers and Fractions). Measured with tracemalloc over
#: every metric (float keys 25 to 75 bytes a point, g_mean 123; MCC on int64 99, MCC
#: clustered 520), with headroom; a lattice whose estimate exceeds the memory limit is
#: refused before it is built. Float keys are priced per metric (:data:`FLOAT_LATTICE_BYTES`).
LATTICE_BYTES = {"float": 96, "int64": 128, "clustered": 640}
#: Metrics whose float-key grouping needs another price than ``LATTICE_BYTES["float"]``
#: (measured peaks: rates 25 bytes a point by one bincount, accuracy 41, the balanced
#: family 48, prevalence threshold 99, g_mean 123).
FLOAT_LATTICE_BYTES = {
    **dict.fromkeys(("recall", "tnr", "fpr", "fnr"), 32),
    "accuracy": 56,
    **dict.fromkeys(("balanced_accuracy", "cohen_kappa", "informedness"), 64),
    "prevalence_threshold": 128,
    "g_mean": 160,
}
#: The price of the float path's costliest metric (for the callers that price a lattice by one number).
BYTES_PER_LATTICE_POINT = max(LATTICE_BYTES["float"], *FLOAT_LATTICE_BYTES.values())
_INT64_SAFE = 2**62


def key_arithmetic(metric: Metric, largest_total: int, counts: tuple[np.ndarray, ...]) -> str:
    """How a metric's exact keys on a lattice are computed.

    Parameters
    ----------
    metric : Metric
        The metric.
    largest_total : int
        The largest test-set size on the lattice (bounds the keys).
    counts : tuple of ndarray
        The lattice's (TP, FN, FP, TN) count arrays, read only when the bound alone does
        not decide between int64 and more.

    Returns
    -------
    str
        ``"float"`` (exact below 2**53), ``"int64"``, or ``"clustered"`` (beyond 64 bits:
        float ratios with a bounded error, ties decided with Python integers, see
        :func:`~confusionlab.grouping.group_clustered`).

    Raises
    ------
    ValueError
        Where the keys need integers beyond 64 bits and degree-2 terms beyond 2**53.

    Examples
    --------
    >>> from confusionlab.metrics import get_metric
    >>> key_arithmetic(get_metric("accuracy"), 100, ())
    'float'
    """
    bound = metric.magnitude(largest_total)
    if bound < 2**53:
        return "float"
    if bound < _INT64_SAFE:
        return "int64"
    form = metric._exact(*(np.asarray(c, dtype=np.float64) for c in counts))
    big = max(float(np.abs(form.num).max(initial=0)), float(np.abs(form.den).max(initial=0)))
    if big < _INT64_SAFE / 4:
        return "int64"
    if float(largest_total) ** 2 >= 2.0**53:
        raise ValueError(
            f"{metric.name}'s exact keys at N = {largest_total:,} need integers beyond 64 bits and degree-2 "
            f"terms beyond 2**53; this size is not supported exactly. Use a smaller future_size"
        )
    return "clustered"


def _arithmetic_fits(metric: Metric, largest_total: int) -> None:
    """Raise :class:`TooLargeError` where :func:`key_arithmetic` would refuse the exact keys
    (degree-2 terms beyond 2**53), so that ``method="auto"`` samples instead."""
    if metric.magnitude(largest_total) >= _INT64_SAFE and float(largest_total) ** 2 >= 2.0**53:
        raise TooLargeError(f"{metric.name}'s exact keys at N = {largest_total:,} are beyond 64 bits")


def lattice_bytes(metric: Metric, largest_total: int) -> int:
    """Peak bytes per lattice point of ``metric``'s grouping on test sets of up to ``largest_total``.

    The arithmetic is read off the metric's bound on its exact keys, before any key is
    computed (:data:`LATTICE_BYTES`; keys that may pass 2**62 are priced as clustered).

    >>> from confusionlab.metrics import get_metric
    >>> lattice_bytes(get_metric("accuracy"), 100), lattice_bytes(get_metric("mcc"), 300_000)
    (56, 640)
    """
    bound = metric.magnitude(largest_total)
    if bound < 2**53:
        return FLOAT_LATTICE_BYTES.get(metric.name, LATTICE_BYTES["float"])
    return LATTICE_BYTES["int64" if bound < _INT64_SAFE else "clustered"]
