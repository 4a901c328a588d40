"""``evaluate(..., cluster=)``: per-cluster counts and the clustered intervals of an :class:`Evaluation`.

With ``cluster=`` the rows are no longer taken as independent: each (group, cluster) gets its
four cells (TP, FN, FP, TN), and every interval the evaluation reports is the cluster-robust
delta-method interval of :func:`confusionlab.models.cluster.cluster_robust_interval` computed
from them. The evaluation also reports the ICC of the rows' correctness, the design effect and
the effective size (:mod:`confusionlab.models.cluster`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._memory import check_memory
from .._validation import InvalidParameterError
from ..metrics import get_metric
from ..models.cluster import (
    DELTA_METHOD,
    ClusterInterval,
    cluster_codes,
    cluster_robust_interval,
    design_effect,
    effective_size,
    icc,
)
from ._metrics import _is_macro

__all__ = ["ClusterSummary", "ClusteredCounts", "check_clusterable", "clustered_counts"]


@dataclass(frozen=True)
class ClusteredCounts:
    """The per-cluster confusion counts of every group of an evaluation (the whole test set last).

    Attributes
    ----------
    names : list
        The distinct cluster ids.
    cells : numpy.ndarray of int64, shape (groups, clusters, 4)
        ``cells[g, c]`` is cluster ``c``'s (TP, FN, FP, TN) within group ``g``.
    method : str
        The label of the intervals.
    """

    names: list[Any]
    cells: np.ndarray
    method: str = DELTA_METHOD

    def present(self, g: int) -> np.ndarray:
        """The (clusters, 4) counts of the clusters with a row in group ``g``."""
        cells = self.cells[g]
        return cells[cells.sum(axis=1) > 0]

    def interval(self, metric: str, confidence: float, g: int) -> ClusterInterval:
        """The cluster-robust interval of ``metric`` in group ``g``."""
        return cluster_robust_interval(metric, self.present(g), confidence, bounds=get_metric(metric).range)

    def icc(self, g: int) -> float:
        """The ANOVA ICC of the rows' correctness (prediction = truth) in group ``g``."""
        cells = self.present(g)
        return icc(cells[:, 0] + cells[:, 3], cells.sum(axis=1))

    def design_effect(self, g: int) -> float:
        """1 + (Σ n_c²/N − 1)·ICC in group ``g``."""
        return design_effect(self.present(g).sum(axis=1), self.icc(g))

    def effective_size(self, g: int) -> float:
        """N / design effect in group ``g``."""
        return effective_size(self.present(g).sum(axis=1), self.icc(g))


def check_clusterable(positive_index: int | None, metrics: list[str], refits: bool) -> None:
    """Refuse what the clustered intervals do not cover: refits, several classes, macro averages."""
    if refits:
        raise InvalidParameterError(
            "cluster= takes one prediction vector (y_pred), not refits: the clustered interval is of one "
            "classifier's metric; evaluate each refit's y_pred with cluster= on its own"
        )
    if positive_index is None:
        raise InvalidParameterError(
            "cluster= gives clustered intervals of binary metrics; with more than two classes pass "
            "positive=<label> (one class against the rest)"
        )
    macro = [name for name in metrics if _is_macro(name)]
    if macro:
        raise InvalidParameterError(
            f"cluster= gives clustered intervals of binary metrics, not of the table metrics {macro!r}; "
            "choose binary metrics (metrics=['f1', 'accuracy', ...])"
        )


def clustered_counts(
    cluster: Any,
    t_codes: np.ndarray,
    p_codes: np.ndarray,
    positive_index: int,
    group_codes: np.ndarray | None,
    n_groups: int,
    weights: np.ndarray | None = None,
) -> ClusteredCounts:
    """Count each (group, cluster, cell) of the rows (``weights``: rows of a count table).

    Parameters
    ----------
    cluster : array-like
        A cluster id per row (checked: no missing value, the rows' length).
    t_codes, p_codes : numpy.ndarray of int
        The rows' true and predicted class codes.
    positive_index : int
        The positive class's code.
    group_codes : numpy.ndarray of int or None
        The rows' group codes among ``n_groups`` groups (None: no groups).
    n_groups : int
        The number of groups, the whole test set not counted.
    weights : numpy.ndarray of int, optional
        Each row's count (a count table's rows); 1 each by default.

    Returns
    -------
    ClusteredCounts

    Examples
    --------
    >>> cc = clustered_counts(["a", "a", "b", "b"], np.array([1, 1, 0, 0]), np.array([1, 0, 0, 1]), 1, None, 1)
    >>> cc.cells[-1].tolist()
    [[1, 1, 0, 0], [0, 0, 1, 1]]
    """
    names, codes = cluster_codes(cluster, t_codes.shape[0])
    c = len(names)
    groups = n_groups + (group_codes is not None)
    check_memory(float(groups) * c * 4 * 8, f"cluster= with {c:,} clusters in {groups:,} groups", "use fewer groups")
    truth = t_codes == positive_index
    said = p_codes == positive_index
    cell = np.where(truth, np.where(said, 0, 1), np.where(said, 2, 3))
    rows = cell + 4 * codes
    if group_codes is not None:
        rows = rows + 4 * c * group_codes
    flat = np.bincount(rows, weights=weights, minlength=4 * c * max(n_groups, 1)).astype(np.int64)
    cells = flat.reshape(-1, c, 4)
    if group_codes is not None:
        cells = np.concatenate([cells, cells.sum(axis=0, keepdims=True)])
    return ClusteredCounts(names=names, cells=cells)


def clustered_columns(frame: Any, counts: ClusteredCounts, groups: list[Any], confidence: float) -> Any:
    """:meth:`Evaluation.to_frame` with the clustered intervals: ``lower``/``upper`` replaced, and
    ``std_error``, ``interval_method``, ``n_clusters``, ``icc``, ``design_effect``, ``effective_size`` added."""
    index = {str(name): g for g, name in enumerate(groups)}
    rows = [counts.interval(m, confidence, index[str(g)]) for g, m in zip(frame["group"], frame["metric"], strict=True)]
    where = [index[str(g)] for g in frame["group"]]
    frame = frame.assign(
        lower=[ci[0] for ci in rows],
        upper=[ci[1] for ci in rows],
        std_error=[ci.std_error for ci in rows],
        interval_method=[ci.method for ci in rows],
        n_clusters=[ci.n_clusters for ci in rows],
        icc=[counts.icc(g) for g in where],
        design_effect=[counts.design_effect(g) for g in where],
        effective_size=[counts.effective_size(g) for g in where],
    )
    return frame


class ClusterSummary:
    """What :class:`~confusionlab.Evaluation` says of its clusters: how its intervals were computed, the
    ICC, the design effect and the effective size (``_clustered`` is its :class:`ClusteredCounts`, or
    None without ``cluster=``; ``groups`` and ``sizes()`` are the evaluation's)."""

    _clustered: ClusteredCounts | None

    @property
    def interval_method(self) -> str:
        """How :meth:`interval` was computed: the independent-rows posterior's central interval, or
        with ``cluster=`` the cluster-robust delta method."""
        return "posterior (independent rows)" if self._clustered is None else self._clustered.method

    @property
    def icc(self) -> float:
        """With ``cluster=``: the ANOVA intraclass correlation of the rows' correctness (NaN without)."""
        return float("nan") if self._clustered is None else self._clustered.icc(len(self.groups) - 1)

    @property
    def design_effect(self) -> float:
        """With ``cluster=``: 1 + (Σ n_c²/N − 1)·ICC, the variance inflation of clustering (1 without)."""
        return 1.0 if self._clustered is None else self._clustered.design_effect(len(self.groups) - 1)

    @property
    def effective_size(self) -> float:
        """The number of independent rows the test set is worth: N / :attr:`design_effect`."""
        if self._clustered is None:
            return float(self.sizes()["objects"])
        return self._clustered.effective_size(len(self.groups) - 1)
