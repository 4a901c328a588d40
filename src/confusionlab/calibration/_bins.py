"""Binning forecasts as scikit-learn's ``calibration_curve`` does, keeping the counts.

``strategy="uniform"`` cuts [0, 1] into ``bins`` equal widths; ``"quantile"`` puts the
edges at the forecasts' percentiles (``numpy.percentile``, linear interpolation), so the
bins hold about as many forecasts each. A forecast goes to bin ``b`` when
``edges[b] < q ≤ edges[b + 1]`` (the first bin also takes ``q = edges[0]``): this is
``numpy.searchsorted(edges[1:-1], q)``, scikit-learn's rule, so the mean forecast and
the observed frequency of every non-empty bin equal ``calibration_curve``'s. Empty bins
(ties at a quantile edge, or no forecast in a uniform bin) are dropped, as there.
The bins depend on the forecasts only, never on the outcomes.

:func:`bins_from_sums` builds the same bins from a table binned where the data lives (``data=``
with more distinct forecasts than a count table holds): per (bin, outcome) cell the count, the
sums of the forecasts' first four powers and their extremes. The counts, positives and sums of
forecasts are then those of the rows, so every number computed from them (the diagram, the ECE
and its interval, the Brier score) is the array path's; the forecasts themselves are not kept.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["POWERS", "STRATEGIES", "Bins", "bin_forecasts", "bins_from_sums", "quantile_edges"]

#: Sums of the powers 1 … POWERS of the forecasts kept per (bin, outcome) when only sums are known.
POWERS = 4

#: The binning strategies.
STRATEGIES = ("quantile", "uniform")


@dataclass(frozen=True)
class Bins:
    """Forecasts grouped by bin (non-empty bins only), in the order of the bins.

    Attributes
    ----------
    edges : numpy.ndarray
        The ``bins + 1`` edges of all bins, empty ones included.
    index : numpy.ndarray
        For each non-empty bin, its position among all bins (``edges[index]`` is its left edge).
    counts : numpy.ndarray
        Forecasts per non-empty bin.
    starts : numpy.ndarray
        ``q[starts[b]:starts[b + 1]]`` are bin ``b``'s forecasts in :attr:`q`.
    q, y : numpy.ndarray or None
        The forecasts and the outcomes (0/1 floats), sorted by bin (stable); None when only the
        bins' sums are known (:func:`bins_from_sums`).
    forecast_sums, positives : numpy.ndarray
        Per non-empty bin, the sum of the forecasts and the number of positives.
    class_sums : numpy.ndarray or None
        Only from :func:`bins_from_sums`: shape (bins, 2, POWERS + 1), per non-empty bin and
        outcome (0 negatives, 1 positives) the sums of the forecasts' powers 0 … POWERS.
    class_ranges : numpy.ndarray or None
        Only from :func:`bins_from_sums`: shape (bins, 2, 2), per non-empty bin and outcome the
        smallest and the largest forecast (+inf, −inf for an outcome the bin lacks).
    note : str
        How the bins were made when not from the forecasts themselves (said by the result).
    """

    edges: np.ndarray
    index: np.ndarray
    counts: np.ndarray
    starts: np.ndarray | None
    q: np.ndarray | None
    y: np.ndarray | None
    forecast_sums: np.ndarray
    positives: np.ndarray
    class_sums: np.ndarray | None = None
    class_ranges: np.ndarray | None = None
    note: str = ""

    @property
    def summarised(self) -> bool:
        """Whether only the bins' sums are known, not each forecast (:func:`bins_from_sums`)."""
        return self.q is None

    @property
    def mean_forecast(self) -> np.ndarray:
        return self.forecast_sums / self.counts

    @property
    def observed_frequency(self) -> np.ndarray:
        return self.positives / self.counts

    def forecasts(self, b: int) -> np.ndarray:
        """Bin ``b``'s forecasts (only the bin's mean, repeated, when the bins are :attr:`summarised`)."""
        if self.q is None:
            return np.full(int(self.counts[b]), self.mean_forecast[b])
        return self.q[self.starts[b] : self.starts[b + 1]]


def bin_forecasts(q: np.ndarray, y: np.ndarray, bins: int, strategy: str, *, edges: np.ndarray | None = None) -> Bins:
    """Group forecasts ``q`` (in [0, 1]) and outcomes ``y`` (booleans) into bins (``edges``: these
    ``bins + 1`` edges instead of the strategy's).

    >>> b = bin_forecasts(np.array([0.1, 0.8, 0.3, 0.9]), np.array([0, 1, 1, 1], bool), 2, "uniform")
    >>> b.counts.tolist(), b.mean_forecast.round(2).tolist(), b.observed_frequency.tolist()
    ([2, 2], [0.2, 0.85], [0.5, 1.0])
    """
    if edges is not None:
        edges = np.asarray(edges, dtype=np.float64)
    elif strategy == "quantile":
        edges = quantile_edges(q, bins)
    else:
        edges = np.linspace(0.0, 1.0, bins + 1)
    ids = np.searchsorted(edges[1:-1], q)
    yf = y.astype(np.float64)
    totals = np.bincount(ids, minlength=bins)
    sums = np.bincount(ids, weights=q, minlength=bins)
    hits = np.bincount(ids, weights=yf, minlength=bins)
    index = np.flatnonzero(totals)
    order = np.argsort(ids, kind="stable")
    counts = totals[index]
    return Bins(
        edges=edges,
        index=index,
        counts=counts,
        starts=np.concatenate([[0], np.cumsum(counts)]),
        q=q[order],
        y=yf[order],
        forecast_sums=sums[index],
        positives=np.rint(hits[index]).astype(np.int64),
    )


def bins_from_sums(
    edges: np.ndarray,
    cell_bin: np.ndarray,
    cell_positive: np.ndarray,
    counts: np.ndarray,
    sums: np.ndarray,
    lows: np.ndarray,
    highs: np.ndarray,
    *,
    note: str = "",
) -> Bins:
    """The bins of a table of cells, each one bin's forecasts of one outcome: their bin (an index of
    the ``len(edges) − 1`` bins), outcome, count, sums of the powers 1 … POWERS (``sums``, one row
    per cell) and smallest and largest forecast. Several cells of one (bin, outcome) are added up.

    >>> q = np.array([0.1, 0.8, 0.3, 0.9]); y = np.array([0, 1, 1, 1], bool)
    >>> powers = np.column_stack([q**j for j in range(1, POWERS + 1)])
    >>> ids = np.searchsorted([0.5], q)
    >>> b = bins_from_sums(np.linspace(0, 1, 3), ids, y, np.ones(4, int), powers, q, q)
    >>> b.counts.tolist(), b.mean_forecast.round(2).tolist(), b.observed_frequency.tolist(), b.summarised
    ([2, 2], [0.2, 0.85], [0.5, 1.0], True)
    """
    edges = np.asarray(edges, dtype=np.float64)
    size = edges.size - 1
    where = (np.asarray(cell_bin, dtype=np.intp), np.asarray(cell_positive, dtype=bool).astype(np.intp))
    table = np.zeros((size, 2, POWERS + 1))
    np.add.at(table, (*where, 0), np.asarray(counts, dtype=np.float64))
    for j in range(1, POWERS + 1):
        np.add.at(table, (*where, j), np.asarray(sums, dtype=np.float64)[:, j - 1])
    ranges = np.empty((size, 2, 2))
    ranges[..., 0], ranges[..., 1] = np.inf, -np.inf
    np.minimum.at(ranges, (*where, 0), np.asarray(lows, dtype=np.float64))
    np.maximum.at(ranges, (*where, 1), np.asarray(highs, dtype=np.float64))
    totals = table[:, :, 0].sum(axis=1)
    index = np.flatnonzero(totals > 0)
    kept = table[index]
    return Bins(
        edges=edges,
        index=index,
        counts=np.rint(totals[index]).astype(np.int64),
        starts=None,
        q=None,
        y=None,
        forecast_sums=kept[:, 0, 1] + kept[:, 1, 1],
        positives=np.rint(kept[:, 1, 0]).astype(np.int64),
        class_sums=kept,
        class_ranges=ranges[index],
        note=note,
    )


def quantile_edges(q: np.ndarray, bins: int) -> np.ndarray:
    """``np.percentile(q, np.linspace(0, 1, bins + 1) * 100)`` value for value, from one sort.

    numpy's linear rule (index ``(n − 1)·p``, interpolated from the nearer end) on the sorted
    forecasts: np.percentile partitions at every edge, 4 s at 100,000 bins of 100,000 forecasts.

    >>> q = np.random.default_rng(0).random(101)
    >>> bool(np.array_equal(quantile_edges(q, 7), np.percentile(q, np.linspace(0, 1, 8) * 100)))
    True
    """
    s = np.sort(q)
    top = s.size - 1
    v = top * np.true_divide(np.linspace(0.0, 1.0, bins + 1) * 100, 100)
    lo = np.minimum(np.floor(v).astype(np.intp), top)
    a, b = s[lo], s[np.minimum(lo + 1, top)]
    t = v - lo
    d = b - a
    out = a + d * t
    np.subtract(b, d * (1 - t), out=out, where=t >= 0.5)
    return out
