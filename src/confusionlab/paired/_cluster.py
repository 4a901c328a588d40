"""``compare_paired(..., cluster=)`` and ``rank_models(..., cluster=)``: classifiers on clustered rows.

The rows of one cluster (one patient's scans, one passage's questions) are not independent,
so neither are the two classifiers' errors on them. Each classifier's four cells are counted
per cluster, shape (clusters, classifiers, 4), and the delta method of
:mod:`confusionlab.models.cluster` gives each metric's and each difference's cluster-robust
variance: a difference's linearised contribution per cluster is u_c = ∇f(T_A)·t_{A,c} −
∇f(T_B)·t_{B,c} (both classifiers on the same clusters, so their covariance is in it), its
variance C/(C − 1)·Σ_c u_c², its interval the difference ± t·SE with C − 1 degrees of freedom,
and its test the cluster-robust t-test of no difference (t = difference / SE, C − 1 degrees of
freedom). The same computation with every row its own cluster is the independent-rows variance;
their ratio is the design effect (Kish's definition, a ratio of variances).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats

from .._arrays import check_same_length
from .._validation import InvalidParameterError, as_labels, check_choice, check_labels_not_scores, check_memory
from ..labels import distinct_labels, labels_equal, positive_label
from ..metrics import get_metric
from ..models.cluster import (
    DELTA_METHOD,
    ClusterInterval,
    cluster_codes,
    cluster_robust_interval,
    cluster_robust_variance,
    icc,
    influence,
)
from ._checks import check_binary_labels

__all__ = [
    "CLUSTER_TEST",
    "ClusteredClassifiers",
    "ClusteredComparison",
    "ClusteredRanking",
    "clustered_classifiers",
    "clustered_rows",
    "clustered_verdict",
    "paired_cells",
    "positive_bits",
]

#: The label of the cluster-level test of no difference.
CLUSTER_TEST = "cluster-robust t-test (C - 1 df)"


@dataclass(frozen=True)
class ClusteredClassifiers:
    """k classifiers' cells per cluster, and the same rows as independent patterns.

    Attributes
    ----------
    metric : str
    names : list of str
        The classifiers.
    cells : numpy.ndarray, shape (C, k, 4)
        Each cluster's (TP, FN, FP, TN) of each classifier.
    patterns : numpy.ndarray, shape (P, k, 4), and pattern_counts, shape (P,)
        The distinct rows (truth and every prediction) as one-row clusters, with their counts:
        the independent-rows variance without a pass per row.
    discordant : numpy.ndarray, shape (C,)
        For two classifiers: the rows per cluster where exactly one is right (for the ICC of
        the difference of their correctness).
    """

    metric: str
    names: list[str]
    cells: np.ndarray
    patterns: np.ndarray
    pattern_counts: np.ndarray
    discordant: np.ndarray | None = None

    @property
    def n_clusters(self) -> int:
        return int(self.cells.shape[0])

    def interval(self, i: int, confidence: float) -> ClusterInterval:
        """Classifier ``i``'s metric with its cluster-robust interval."""
        return cluster_robust_interval(self.metric, self.cells[:, i], confidence, bounds=get_metric(self.metric).range)

    def _contributions(self, i: int, j: int, cells: np.ndarray, weights: Any = None) -> np.ndarray:
        return influence(self.metric, cells[:, i], weights) - influence(self.metric, cells[:, j], weights)

    def difference(self, i: int, j: int, confidence: float) -> ClusterInterval:
        """Classifier ``i``'s metric minus ``j``'s with its cluster-robust interval."""
        m = get_metric(self.metric)
        totals = self.cells.sum(axis=0)
        estimate = float(m.values(*totals[i], undefined=np.nan) - m.values(*totals[j], undefined=np.nan))
        se = float(np.sqrt(cluster_robust_variance(self._contributions(i, j, self.cells))))
        c = self.n_clusters
        if np.isfinite(estimate) and np.isfinite(se):
            q = float(stats.t.ppf((1 + confidence) / 2, c - 1))
            span = m.range[1] - m.range[0]
            lower, upper = max(-span, estimate - q * se), min(span, estimate + q * se)
        else:
            lower = upper = float("nan")
        return ClusterInterval(lower, upper, estimate=estimate, std_error=se, n_clusters=c, method=DELTA_METHOD)

    def independent_std_error(self, i: int, j: int | None = None) -> float:
        """The standard error of classifier ``i``'s metric (or of ``i`` − ``j``) with every row its own
        cluster (rows independent)."""
        if j is None:
            u = influence(self.metric, self.patterns[:, i], self.pattern_counts)
        else:
            u = self._contributions(i, j, self.patterns, self.pattern_counts)
        return float(np.sqrt(cluster_robust_variance(u, weights=self.pattern_counts)))

    def pair(self, i: int, j: int) -> ClusteredClassifiers:
        """Classifiers ``i`` and ``j`` alone (their ICC needs their rows: NaN here)."""
        return ClusteredClassifiers(
            metric=self.metric,
            names=[self.names[i], self.names[j]],
            cells=self.cells[:, [i, j]],
            patterns=self.patterns[:, [i, j]],
            pattern_counts=self.pattern_counts,
        )

    def p_value(self, i: int, j: int, alternative: str = "two-sided") -> float:
        """The cluster-robust t-test of no difference between classifiers ``i`` and ``j``."""
        alternative = check_choice(alternative, "alternative", ("two-sided", "greater", "less"))
        d = self.difference(i, j, 0.95)
        if not (np.isfinite(d.estimate) and np.isfinite(d.std_error)):
            return float("nan")
        if d.std_error == 0:  # every cluster agrees exactly: the difference is what it is
            against = {"two-sided": d.estimate != 0, "greater": d.estimate > 0, "less": d.estimate < 0}[alternative]
            return 0.0 if against else 1.0
        t = d.estimate / d.std_error
        df = self.n_clusters - 1
        if alternative == "greater":
            return float(stats.t.sf(t, df))
        if alternative == "less":
            return float(stats.t.cdf(t, df))
        return float(2 * stats.t.sf(abs(t), df))

    def design_effect(self, i: int, j: int | None = None) -> float:
        """The clustered variance of classifier ``i``'s metric (or of ``i`` − ``j``) over its
        independent-rows variance."""
        naive = self.independent_std_error(i, j)
        clustered = (self.interval(i, 0.95) if j is None else self.difference(i, j, 0.95)).std_error
        return float(clustered**2 / naive**2) if naive > 0 else float("nan")

    def icc(self, i: int | None = None) -> float:
        """The ANOVA ICC of classifier ``i``'s correctness, or (``i`` None) of the difference of the
        two classifiers' correctness (−1, 0 or 1 per row)."""
        right = self.cells[:, :, 0] + self.cells[:, :, 3]
        sizes = self.cells[:, 0].sum(axis=1)
        if i is not None:
            return icc(right[:, i], sizes)
        if self.discordant is None:
            return float("nan")
        return icc(right[:, 0] - right[:, 1], sizes, self.discordant)


def positive_bits(y_true: Any, predictions: dict[str, Any], positive: Any) -> tuple[np.ndarray, list[np.ndarray]]:
    """Whether each row's truth, and each classifier's prediction, is the positive class (checked
    as :meth:`PairedCounts.from_predictions <confusionlab.PairedCounts.from_predictions>` checks)."""
    t = check_labels_not_scores(as_labels(y_true, "y_true"), "y_true")
    preds = {name: check_labels_not_scores(as_labels(p, name), name) for name, p in predictions.items()}
    check_same_length({"y_true": t, **preds}, "a comparison")
    labels = distinct_labels(t, *preds.values())
    check_binary_labels(labels, positive, ("y_true", *preds), "a paired comparison")
    label = positive_label(labels, positive)
    return labels_equal(t, label), [labels_equal(p, label) for p in preds.values()]


def clustered_classifiers(
    metric: str,
    names: list[str],
    truth: np.ndarray,
    said: list[np.ndarray],
    cluster: Any,
    weights: np.ndarray | None = None,
) -> ClusteredClassifiers:
    """Count each classifier's cells per cluster (``weights``: the rows of a count table).

    Examples
    --------
    >>> truth = np.array([True, True, False, False])
    >>> cc = clustered_classifiers("accuracy", ["A", "B"], truth, [truth, ~truth], ["x", "x", "y", "y"])
    >>> cc.cells[:, 0].tolist(), cc.cells[:, 1].tolist()
    ([[2, 0, 0, 0], [0, 0, 0, 2]], [[0, 2, 0, 0], [0, 0, 2, 0]])
    >>> round(cc.difference(0, 1, 0.95).estimate, 3)
    1.0
    """
    cluster_names, codes = cluster_codes(cluster, truth.shape[0])
    c, k = len(cluster_names), len(said)
    if c < 2:
        raise InvalidParameterError(
            f"cluster holds a single cluster ({cluster_names[0]!r}); a clustered interval needs at least two clusters"
        )
    check_memory(float(c) * k * 4 * 8 * 2, f"cluster= with {c:,} clusters and {k} classifiers", "use fewer clusters")
    w = None if weights is None else np.asarray(weights, dtype=np.float64)
    cells = np.empty((c, k, 4), dtype=np.int64)
    for j, bits in enumerate(said):
        cell = np.where(truth, np.where(bits, 0, 1), np.where(bits, 2, 3))
        cells[:, j] = np.bincount(codes * 4 + cell, weights=w, minlength=4 * c).reshape(c, 4)
    pattern = truth.astype(np.int64) + sum((b.astype(np.int64) << (j + 1)) for j, b in enumerate(said))
    counts = np.bincount(pattern, weights=w, minlength=2 ** (k + 1))
    present = np.flatnonzero(counts)
    is_pos = (present & 1).astype(bool)
    patterns = np.empty((present.size, k, 4))
    for j in range(k):
        bit = ((present >> (j + 1)) & 1).astype(bool)
        patterns[:, j] = np.eye(4)[np.where(is_pos, np.where(bit, 0, 1), np.where(bit, 2, 3))]
    discordant = None
    if k == 2:
        right = [np.equal(truth, bits) for bits in said]
        discordant = np.bincount(codes, weights=(right[0] != right[1]) * (1.0 if w is None else w), minlength=c)
    return ClusteredClassifiers(
        metric=metric,
        names=names,
        cells=cells,
        patterns=patterns,
        pattern_counts=counts[present],
        discordant=discordant,
    )


class ClusteredComparison:
    """What a :class:`~confusionlab.PairedComparison` answers with ``cluster=`` (a mixin: its
    ``_cluster`` is set by :func:`~confusionlab.compare_paired`)."""

    _cluster: ClusteredClassifiers | None = None

    @property
    def interval_method(self) -> str:
        """How :meth:`interval` is computed: the posterior of independent rows, or with ``cluster=``
        the cluster-robust delta method."""
        return "posterior (independent rows)" if self._cluster is None else DELTA_METHOD

    @property
    def n_clusters(self) -> int | None:
        """With ``cluster=``: the number of clusters; None without (the rows taken as independent)."""
        return None if self._cluster is None else self._cluster.n_clusters

    @property
    def icc(self) -> float:
        """With ``cluster=``: the ANOVA ICC of the difference of the two classifiers' correctness
        (−1, 0 or 1 per row) within clusters; NaN without."""
        return float("nan") if self._cluster is None else self._cluster.icc()

    @property
    def design_effect(self) -> float:
        """With ``cluster=``: the clustered variance of A − B over its variance with the rows
        independent (both by the delta method); 1 without."""
        return 1.0 if self._cluster is None else self._cluster.design_effect(0, 1)

    @property
    def effective_size(self) -> float:
        """The test set's examples over :attr:`design_effect`."""
        return float(self.counts.p + self.counts.n) / self.design_effect  # type: ignore[attr-defined]

    def p_value(self, alternative: str = "two-sided") -> float:
        """With ``cluster=``: the cluster-level test of no difference, the cluster-robust t-test of
        A − B (t = difference / cluster-robust SE, C − 1 degrees of freedom).

        ``alternative``: ``"two-sided"`` (default), ``"greater"`` (A better) or ``"less"``.
        Without ``cluster=`` there is no such test (read :attr:`prob_greater`, the posterior
        probability that A's true metric exceeds B's, which assumes independent rows).
        """
        if self._cluster is None:
            raise InvalidParameterError(
                "p_value is the cluster-level test of compare_paired(..., cluster=ids); without cluster= read "
                "prob_greater and interval() (rows independent)"
            )
        return self._cluster.p_value(0, 1, alternative)


def clustered_verdict(interval: tuple[float, float], margin: float) -> str:
    """:meth:`PairedComparison.verdict`'s rule read off a clustered interval of A − B."""
    lo, hi = interval
    if lo > margin:
        return "A better"
    if hi < -margin:
        return "B better"
    if -margin <= lo and hi <= margin:
        return "practically equivalent"
    return "insufficient evidence"


def clustered_rows(frame: Any, cluster: ClusteredClassifiers, confidence: float) -> Any:
    """:meth:`PairedComparison.to_frame` with the rows A, B and A − B's clustered intervals: ``lower``
    and ``upper`` replaced, ``std_error``, ``interval_method`` and ``n_clusters`` added."""
    rows = [cluster.interval(0, confidence), cluster.interval(1, confidence), cluster.difference(0, 1, confidence)]
    return frame.assign(
        lower=[r[0] for r in rows],
        upper=[r[1] for r in rows],
        std_error=[r.std_error for r in rows],
        interval_method=[r.method for r in rows],
        n_clusters=[r.n_clusters for r in rows],
    )


def paired_cells(cluster: ClusteredClassifiers) -> list[list[int]]:
    """The 2 × 4 agreement cells of two classifiers (:class:`~confusionlab.PairedCounts`' order:
    both positive, only A, only B, neither; true positives first) from the row patterns."""
    counts = dict.fromkeys(range(8), 0)
    for pattern, patterns_count in zip(cluster.patterns, cluster.pattern_counts.tolist(), strict=True):
        truth = bool(pattern[0, 0] + pattern[0, 1])  # TP or FN: a positive row
        a, b = (bool(pattern[j, 0] + pattern[j, 2]) for j in (0, 1))  # TP or FP: said positive
        counts[int(truth) + 2 * a + 4 * b] += int(patterns_count)
    return [[counts[7], counts[3], counts[5], counts[1]], [counts[6], counts[2], counts[4], counts[0]]]


class ClusteredRanking:
    """What a :class:`~confusionlab.Ranking` answers with ``cluster=`` (a mixin: its ``_cluster``
    field is set by :func:`~confusionlab.rank_models`)."""

    _cluster: ClusteredClassifiers | None
    names: list[str]

    def _clustered(self) -> ClusteredClassifiers:
        if self._cluster is None:
            raise InvalidParameterError(
                "the clustered intervals of each classifier's metric need rank_models(..., cluster=ids); without "
                "cluster= the rows are taken as independent (prob_best, pairwise)"
            )
        return self._cluster

    @property
    def interval_method(self) -> str:
        """How :meth:`metric_intervals` are computed (with ``cluster=``), or that the rows are taken
        as independent."""
        return "posterior (independent rows)" if self._cluster is None else DELTA_METHOD

    def metric_intervals(self, confidence: float = 0.95) -> dict[str, tuple[float, float]]:
        """With ``cluster=``: classifier → the cluster-robust delta-method interval of its true metric
        (Student's t, C − 1 degrees of freedom; a :class:`~confusionlab.models.cluster.ClusterInterval`
        with its estimate and standard error)."""
        from .._validation import check_confidence

        c = check_confidence(confidence)
        cluster = self._clustered()
        return {name: cluster.interval(i, c) for i, name in enumerate(self.names)}

    @property
    def icc(self) -> dict[str, float]:
        """With ``cluster=``: classifier → the ANOVA ICC of its correctness within clusters."""
        cluster = self._clustered()
        return {name: cluster.icc(i) for i, name in enumerate(self.names)}

    @property
    def design_effect(self) -> dict[str, float]:
        """With ``cluster=``: classifier → its metric's clustered variance over its independent-rows variance."""
        cluster = self._clustered()
        return {name: cluster.design_effect(i) for i, name in enumerate(self.names)}

    @property
    def effective_size(self) -> dict[str, float]:
        """With ``cluster=``: classifier → the test set's examples over its design effect."""
        cluster = self._clustered()
        size = float(cluster.pattern_counts.sum())
        return {name: size / effect for name, effect in self.design_effect.items()}
