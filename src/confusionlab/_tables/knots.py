"""Score bins of about equal counts as a column expression: a piecewise-linear distribution function.

:class:`Knots` maps a score to its bin by ``floor(bins · F(x))``, ``F`` piecewise linear through
a few quantiles of a sample (:func:`knots_from_sample`): a few comparisons and one
multiply-add per row, which an engine evaluates as a column expression.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["KNOTS", "TAIL_PROBS", "Knots", "knots_from_sample"]

#: Knots of the piecewise-linear distribution function (evenly spaced in probability) …
KNOTS = 64
#: … and the tail probabilities added to them (each side), where a distribution bends most.
TAIL_PROBS = (1e-5, 1e-4, 1e-3, 3e-3, 1e-2)


@dataclass(frozen=True)
class Knots:
    """A monotone map from a score to one of ``bins`` bins: ``floor(bins · F(x))``, ``F`` piecewise linear.

    ``F`` passes through ``(x[i], c[i] / bins)`` with slope ``a[i] / bins`` up to ``x[i + 1]``
    (0 below ``x[0]``, clamped to the last bin at and above ``x[-1]``): a sample's distribution
    function through a few quantiles, so the bins hold about equal counts. A few dozen
    comparisons and one multiply-add per row, which an engine evaluates as a column expression
    (Spark: one ``CASE``, generated code), where a binary search over 10⁴ edges is a function
    call per row (``Bucketizer``). The bins are intervals of scores because the map is
    non-decreasing; the engine reports each cell's smallest score (:attr:`Cells.lows
    <confusionlab._tables.request.Cells.lows>`), and those are the bins' lower edges, so the
    counted table is exactly the array path's on the scores replaced by their bin's lower edge.
    Infinite scores map to bin −1 (refused).

    >>> k = knots_from_sample(np.arange(100.0), 4)
    >>> k.bin_of(np.array([-5.0, 0.0, 24.9, 25.0, 99.0, 1e9, np.inf])).tolist()
    [0, 0, 0, 1, 3, 3, -1]
    """

    x: tuple[float, ...]
    c: tuple[float, ...]
    a: tuple[float, ...]
    bins: int

    def bin_of(self, s: np.ndarray) -> np.ndarray:
        """The bins of the scores ``s`` (numpy; the engines build the same arithmetic)."""
        s = np.asarray(s, dtype=np.float64)
        x = np.asarray(self.x)
        i = np.clip(np.searchsorted(x, s, side="right") - 1, 0, max(len(x) - 2, 0))
        with np.errstate(invalid="ignore", over="ignore"):
            u = np.asarray(self.c)[i] + (s - x[i]) * np.asarray(self.a)[i]
        u = np.where(s >= x[-1], self.bins - 1.0, u)
        out = np.floor(np.clip(u, 0.0, self.bins - 1.0)).astype(np.int64)
        return np.where(np.isinf(s), -1, out)


def knots_from_sample(x: np.ndarray, bins: int) -> Knots:
    """:class:`Knots` for ``bins`` bins from a sample ``x`` of the (finite, non-missing) scores.

    The knots are the sample's quantiles at :data:`KNOTS` even steps and at :data:`TAIL_PROBS`
    (and one minus them); ``F`` at a knot is the share of the sample below it.

    >>> k = knots_from_sample(np.array([0.0, 1.0, 2.0, 3.0]), 2)
    >>> k.x, k.bins
    ((0.0, 1.0, 2.0, 3.0), 2)
    """
    x = np.sort(np.asarray(x, dtype=np.float64)[np.isfinite(x)])
    if x.size == 0:
        return Knots((0.0,), (0.0,), (0.0,), bins)
    tails = np.asarray(TAIL_PROBS)
    probs = np.unique(np.concatenate([np.linspace(0.0, 1.0, KNOTS + 1), tails, 1.0 - tails]))
    knots = np.unique(np.quantile(x, probs, method="lower"))
    share = np.searchsorted(x, knots, side="left") / x.size
    c = share * bins
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        a = np.diff(c) / np.diff(knots)
    # knots a subnormal apart (0 and 5e-324) would make a slope infinite, and 0·inf a NaN bin at the
    # knot itself: the largest double keeps the map finite and non-decreasing (the next knot starts higher)
    a = np.append(np.minimum(a, np.finfo(np.float64).max), 0.0)
    return Knots(tuple(knots.tolist()), tuple(c.tolist()), tuple(a.tolist()), int(bins))
