"""The memory an evaluation keeps: its cached distributions, under the library's memory limit.

An evaluation caches every distribution it computes (a refit mixture of a large group holds
millions of atoms). :class:`KeptDistributions` counts what the cache holds and, before a
large computation, forgets the oldest distributions until the computation's peak and what
is kept fit under :func:`~confusionlab.memory_limit`; a forgotten distribution is computed
again when asked for (the same answer: exact ones have no randomness, sampled ones a seed
of their own). :func:`parallel_jobs` runs jobs side by side only when their peaks fit together.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

import numpy as np

from .._validation import memory_limit
from ..distribution import MIXTURE_EXTRA_BYTES, MetricDistribution, lattice_bytes
from ..metrics import Metric

__all__ = [
    "KEPT_BYTES_PER_ATOM",
    "KeptDistributions",
    "kept_bytes",
    "kept_in_advance",
    "mixture_peak",
    "mixture_points",
    "parallel_jobs",
]

#: Bytes a kept distribution holds per atom: its values, probabilities and multiplicities,
#: the normalised probabilities and the cumulative sums its quantiles compute (8 bytes each).
KEPT_BYTES_PER_ATOM = 40


def kept_bytes(value: Any) -> int:
    """Bytes the distributions in ``value`` (one, or a tuple or list holding some) keep.

    >>> import confusionlab as cl
    >>> d = cl.metric_distribution(cl.ConfusionMatrix(tp=3, fn=1, fp=1, tn=3), "recall")
    >>> kept_bytes((d, {"sd": 0.1}, [d])) == 2 * KEPT_BYTES_PER_ATOM * d.values.size
    True
    """
    if isinstance(value, MetricDistribution):
        return KEPT_BYTES_PER_ATOM * int(np.size(value.values))
    if isinstance(value, tuple | list):
        return sum(kept_bytes(v) for v in value)
    return 0


class KeptDistributions:
    """The byte count of an evaluation's cache, oldest entry first (thread-safe).

    Examples
    --------
    >>> cache = {}
    >>> kept = KeptDistributions(cache)
    >>> kept.keep("a", [0.0] * 3)
    [0.0, 0.0, 0.0]
    >>> kept.make_room(0.0), "a" in cache
    (None, True)
    """

    def __init__(self, cache: dict[Any, Any]) -> None:
        self._cache = cache
        self._sizes: OrderedDict[Any, int] = OrderedDict()
        self._lock = threading.Lock()
        self.total = 0

    def keep(self, key: Any, value: Any) -> Any:
        """Store ``value`` under ``key`` in the cache and count it; returns ``value``."""
        size = kept_bytes(value)
        with self._lock:
            self._cache[key] = value
            self.total += size - self._sizes.pop(key, 0)
            self._sizes[key] = size
        return value

    def make_room(self, nbytes: float) -> None:
        """Forget the oldest distributions until ``nbytes`` more fit under the memory limit."""
        limit = memory_limit()
        with self._lock:
            while self._sizes and self.total + nbytes > limit:
                key, size = self._sizes.popitem(last=False)
                self._cache.pop(key, None)
                self.total -= size


def mixture_points(p: int, n: int, max_points: float | None) -> float:
    """Most points of the union lattice of a group's refits (``p`` positives, ``n``
    negatives): the whole slice, at most ``max_points``.

    >>> mixture_points(9, 9, None), mixture_points(9, 9, 50)
    (100.0, 50.0)
    """
    points = float(p + 1) * (n + 1)
    return points if max_points is None else min(points, float(max_points))


def mixture_peak(m: Metric, p: int, n: int, max_points: float | None) -> float:
    """Bytes a slice mixture of a group may need at its peak and then keep: its
    :func:`mixture_points` times the grouping's, the mixture's and the kept distribution's
    bytes per point.

    >>> from confusionlab.metrics import get_metric
    >>> mixture_peak(get_metric("recall"), 9, 9, None) == 100 * (32 + MIXTURE_EXTRA_BYTES + KEPT_BYTES_PER_ATOM)
    True
    """
    per_point = lattice_bytes(m, p + n) + MIXTURE_EXTRA_BYTES + KEPT_BYTES_PER_ATOM
    return mixture_points(p, n, max_points) * per_point


def kept_in_advance(points: list[float], room: float) -> int:
    """How many of the jobs (in order, each keeping up to ``points`` atoms) may be computed
    ahead of being read: those whose kept distributions fit in ``room`` bytes. A job computed
    ahead whose result is forgotten before it is read would be computed twice.

    >>> kept_in_advance([10.0, 10.0, 10.0], 2 * 10 * KEPT_BYTES_PER_ATOM)
    2
    """
    total, count = 0.0, 0
    for x in points:
        total += x * KEPT_BYTES_PER_ATOM
        if total > room:
            break
        count += 1
    return count


def parallel_jobs(peaks: list[float], most: int) -> int:
    """How many of the jobs (each up to its ``peaks`` bytes) run at once: at most ``most``,
    and no more than the largest peaks that fit together under the memory limit (at least 1).

    >>> parallel_jobs([1.0, 1.0, 1.0], 4)
    3
    >>> parallel_jobs([2.0**40] * 4, 4)
    1
    """
    limit = memory_limit()
    largest = sorted(peaks, reverse=True)[: max(most, 1)]
    fits = 1
    while fits < len(largest) and sum(largest[: fits + 1]) <= limit:
        fits += 1
    return fits
