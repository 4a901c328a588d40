"""The item table: per item its rows, the sums of its scores (and of their squares) and its cluster.

Both paths end here: the arrays (one score per row) and ``data=`` (a count table of
(item, cluster, score) cells, counted by the data's engine). Everything the item jobs compute is a
function of this table: the items' means, the within-item variances, the clusters.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._errors import InvalidParameterError
from ..labels import code_groups

__all__ = ["ItemTable", "item_table"]


@dataclass(frozen=True)
class ItemTable:
    """Items (sorted by id) with their rows and sums; the sums of each scored system (one, or A and B).

    Attributes
    ----------
    items : list
        The distinct item ids (each row its own item when no ids were given: ``0 … n − 1``).
    rows : ndarray of int64
        Rows (samples, epochs) of each item.
    sums, squares : ndarray of float64, shape (systems, items)
        Σ score and Σ score² over each item's rows, per system.
    clusters : list or None
        The distinct cluster ids (None without clusters: each item is its own).
    cluster_codes : ndarray of int64
        Each item's cluster (``0 … C − 1``; ``arange(items)`` without clusters).
    values : ndarray of float64
        The distinct row scores of every system (to find the grid of partial credit).
    """

    items: list[Any]
    rows: np.ndarray
    sums: np.ndarray
    squares: np.ndarray
    clusters: list[Any] | None
    cluster_codes: np.ndarray
    values: np.ndarray

    @property
    def means(self) -> np.ndarray:
        """Each system's items' means, shape (systems, items)."""
        return self.sums / self.rows

    @property
    def n_clusters(self) -> int:
        return int(self.cluster_codes.max()) + 1

    @property
    def cluster_sizes(self) -> np.ndarray:
        """Items per cluster."""
        return np.bincount(self.cluster_codes, minlength=self.n_clusters)


def item_table(
    scores: list[np.ndarray], item: np.ndarray | None, cluster: np.ndarray | None, weights: Any = None
) -> ItemTable:
    """The item table of rows (``scores``: one array per system, aligned; ``weights``: rows per cell
    when the rows come counted).

    Raises
    ------
    InvalidParameterError
        An item found in two clusters, or fewer than two items.

    Examples
    --------
    >>> t = item_table([np.array([1.0, 0.0, 1.0])], np.array(["q1", "q1", "q2"]), None)
    >>> t.items, t.rows.tolist(), t.means.tolist()
    (['q1', 'q2'], [2, 1], [[0.5, 1.0]])
    >>> item_table([np.array([1.0, 0.0, 1.0])], np.array(["q", "q", "r"]), np.array(["a", "b", "b"]))
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: item 'q' is in two clusters ('b' and 'a'); an item's rows must share one cluster
    """
    length = scores[0].size
    w = np.ones(length) if weights is None else np.asarray(weights, dtype=np.float64)
    if item is None:
        items, codes = list(range(length)), np.arange(length)
        rows = np.ones(length, dtype=np.int64)
    else:
        items, codes = code_groups(item)
        rows = np.bincount(codes, weights=w, minlength=len(items)).astype(np.int64)
    if len(items) < 2:
        raise InvalidParameterError(f"scores must cover at least two items, got {len(items)}: one item has no spread")
    sums = np.stack([np.bincount(codes, weights=w * s, minlength=len(items)) for s in scores])
    squares = np.stack([np.bincount(codes, weights=w * s * s, minlength=len(items)) for s in scores])
    if cluster is None:
        names, cluster_codes = None, np.arange(len(items))
    else:
        names, row_codes = code_groups(cluster)
        cluster_codes = np.full(len(items), -1, dtype=np.int64)
        cluster_codes[codes] = row_codes
        split = np.flatnonzero(cluster_codes[codes] != row_codes)
        if split.size:
            r = int(split[0])
            first = names[int(cluster_codes[codes[r]])]
            raise InvalidParameterError(
                f"item {items[int(codes[r])]!r} is in two clusters ({first!r} and {names[int(row_codes[r])]!r}); "
                "an item's rows must share one cluster"
            )
    values = np.unique(np.concatenate(scores))
    return ItemTable(items, rows, sums, squares, names, cluster_codes, values)
