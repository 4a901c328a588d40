"""The AUC of clustered examples: Obuchowski's (1997) nonparametric variance.

Several examples of one cluster (the lesions of one patient, the sentences of one speaker) are
not independent; DeLong's variance then is too small. Obuchowski (1997, *Biometrics* 53,
567–578) keeps DeLong's placements and sums them by cluster. With clusters i = 1..I holding
m_i positives and n_i negatives (either may be 0), M = Σ m_i, N = Σ n_i, ψ(x, y) = 1, ½, 0 for
x >, =, < y:

* the structural components V10(x) = (1/N) Σ_y ψ(x, y) of each positive, V01(y) = (1/M) Σ_x ψ(x, y)
  of each negative, over all clusters, and their cluster sums V10_i, V01_i;
* AUC = Σ_i V10_i / M;
* S10 = I/((I − 1)M) Σ_i (V10_i − m_i·AUC)², S01 = I/((I − 1)N) Σ_i (V01_i − n_i·AUC)²,
  S11 = I/(I − 1) Σ_i (V10_i − m_i·AUC)(V01_i − n_i·AUC);
* Var(AUC) = S10/M + S01/N + 2·S11/(M·N).

Each example its own cluster gives DeLong's variance up to the factor I/(I − 1)·(M − 1)/M (and
likewise for N), since then S11 = 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import InvalidParameterError, check_memory
from ..models.cluster import cluster_codes
from ._checks import check_scores
from ._input import truth

__all__ = ["ClusteredAuc", "check_nested", "clustered_auc", "obuchowski", "summarise"]

#: The label of the clustered AUC interval.
OBUCHOWSKI = "Obuchowski (1997) clustered variance, logit scale"


def obuchowski(
    is_pos: np.ndarray, scores: np.ndarray, codes: np.ndarray, n_clusters: int, weights: np.ndarray | None = None
) -> tuple[float, float]:
    """``(AUC, Obuchowski's variance)`` of scores in clusters (module docstring for the formulas).

    One sort: on the sorted scores every tie block's positives and negatives are counted, each
    positive's V10 is (negatives below its block + half its block's) / N and each negative's V01
    (positives above its block + half its block's) / M; the cluster sums are weighted bincounts.

    Parameters
    ----------
    is_pos : numpy.ndarray of bool
        Whether each example is positive.
    scores : numpy.ndarray of float
    codes : numpy.ndarray of int
        Each example's cluster in ``range(n_clusters)``.
    n_clusters : int
    weights : numpy.ndarray, optional
        Each row's count (rows of a count table); 1 each by default.

    Returns
    -------
    (float, float)
        NaN variance with fewer than two clusters.

    Examples
    --------
    >>> is_pos = np.array([True, False, True, False, True, False])
    >>> auc, var = obuchowski(is_pos, np.array([0.9, 0.2, 0.4, 0.5, 0.8, 0.1]), np.array([0, 0, 1, 1, 2, 2]), 3)
    >>> round(auc, 4), round(var, 5)
    (0.8889, 0.04938)
    """
    w = np.ones(scores.shape[0]) if weights is None else np.asarray(weights, dtype=np.float64)
    order = np.argsort(scores, kind="stable")
    ordered = scores[order]
    pos_sorted = is_pos[order]
    w_sorted = w[order]
    block = np.concatenate([[0], np.cumsum(ordered[1:] != ordered[:-1])])
    pos_w = np.bincount(block, weights=w_sorted * pos_sorted)
    neg_w = np.bincount(block, weights=w_sorted * ~pos_sorted)
    m, n = float(pos_w.sum()), float(neg_w.sum())
    neg_below = np.cumsum(neg_w) - neg_w / 2.0  # negatives below the block + half the block's
    pos_above = m - np.cumsum(pos_w) + pos_w / 2.0  # positives above the block + half the block's
    c_sorted = codes[order]
    v10_i = np.bincount(c_sorted, weights=w_sorted * pos_sorted * neg_below[block] / n, minlength=n_clusters)
    v01_i = np.bincount(c_sorted, weights=w_sorted * ~pos_sorted * pos_above[block] / m, minlength=n_clusters)
    m_i = np.bincount(c_sorted, weights=w_sorted * pos_sorted, minlength=n_clusters)
    n_i = np.bincount(c_sorted, weights=w_sorted * ~pos_sorted, minlength=n_clusters)
    auc = float(v10_i.sum() / m)
    i = n_clusters
    if i < 2:
        return auc, float("nan")
    d10 = v10_i - m_i * auc
    d01 = v01_i - n_i * auc
    s10 = i / ((i - 1) * m) * float(d10 @ d10)
    s01 = i / ((i - 1) * n) * float(d01 @ d01)
    s11 = i / (i - 1) * float(d10 @ d01)
    return auc, s10 / m + s01 / n + 2.0 * s11 / (m * n)


@dataclass(frozen=True)
class ClusteredAuc:
    """A curve's clustered AUC: Obuchowski's variance, the clusters and the cost of clustering.

    Attributes
    ----------
    variance : float
        Obuchowski's variance of the AUC.
    n_clusters : int
    design_effect : float
        Obuchowski's variance over DeLong's: how much the clustering inflates the AUC's variance
        (the design effect's definition, Kish's ratio of variances).
    effective_size : float
        The examples (P + N) over the design effect.
    method : str
    """

    variance: float
    n_clusters: int
    design_effect: float
    effective_size: float
    method: str = OBUCHOWSKI


def clustered_auc(y_true: Any, y_score: Any, positive: Any, cluster: Any, delong_variance: float) -> ClusteredAuc:
    """Obuchowski's variance of the examples' AUC given their ``cluster`` ids (checked by name)."""
    is_pos, _ = truth(y_true, positive)
    scores = check_scores(y_score, "y_score", is_pos.shape[0])
    names, codes = cluster_codes(cluster, is_pos.shape[0])
    return summarise(is_pos, scores, codes, names, delong_variance)


def summarise(
    is_pos: np.ndarray,
    scores: np.ndarray,
    codes: np.ndarray,
    names: list[Any],
    delong_variance: float,
    weights: np.ndarray | None = None,
    where: str = "",
) -> ClusteredAuc:
    """The :class:`ClusteredAuc` of checked labels and scores whose clusters are ``names[codes]``
    (only the clusters present count; ``weights``: rows of a count table; ``where`` names a group
    in the refusal of a single cluster).

    >>> is_pos = np.array([True, False, True, False])
    >>> c = summarise(is_pos, np.array([0.9, 0.2, 0.4, 0.5]), np.array([0, 0, 2, 2]), ["a", "b", "c"], 0.05)
    >>> c.n_clusters
    2
    """
    rows = float(is_pos.shape[0] if weights is None else np.sum(weights))
    check_memory(48.0 * scores.shape[0], f"cluster= over {scores.shape[0]:,} scores", "score a sample of the clusters")
    present, codes = np.unique(codes, return_inverse=True)
    if present.size < 2:
        raise InvalidParameterError(
            f"cluster holds a single cluster ({names[int(present[0])]!r}){where}; the clustered AUC variance needs "
            "at least two clusters"
        )
    _, variance = obuchowski(is_pos, scores, codes.reshape(-1), int(present.size), weights)
    effect = variance / delong_variance if delong_variance > 0 else float("nan")
    return ClusteredAuc(
        variance=variance,
        n_clusters=int(present.size),
        design_effect=effect,
        effective_size=rows / effect if effect > 0 else float("nan"),
    )


def check_nested(c_codes: np.ndarray, c_names: list[Any], g_codes: np.ndarray, g_names: list[Any]) -> None:
    """Refuse (naming ``cluster``) a cluster with rows in two groups: with ``groups=`` the clusters must
    be nested in the groups, so that the groups' AUCs are independent (the groups' simultaneous
    intervals and the gap between groups assume it).

    >>> check_nested(np.array([0, 0, 1]), ["a", "b"], np.array([0, 0, 1]), ["F", "M"])
    >>> check_nested(np.array([0, 0, 1]), ["a", "b"], np.array([0, 1, 1]), ["F", "M"])
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: cluster: cluster 'a' has rows in groups 'F' and 'M'; with groups= ...
    """
    first = np.full(len(c_names), -1, dtype=np.int64)
    present, at = np.unique(c_codes, return_index=True)
    first[present] = g_codes[at]  # each cluster's group of its first row
    spanning = np.flatnonzero(first[c_codes] != g_codes)
    if spanning.size:
        row = int(spanning[0])
        c = int(c_codes[row])
        raise InvalidParameterError(
            f"cluster: cluster {c_names[c]!r} has rows in groups {g_names[int(first[c])]!r} and "
            f"{g_names[int(g_codes[row])]!r}; with groups= each cluster must lie in one group (clusters nested in "
            "groups: the groups' AUCs are then independent, as the simultaneous intervals and the gap between "
            "groups assume); for a group's own clustered AUC call roc_curve(..., cluster=) on that group's rows"
        )
