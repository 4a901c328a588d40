"""``plan_test_size(..., icc=, cluster_size=)``: a plan for clustered test items, by the design effect.

A test set of clusters of m rows with intraclass correlation ρ carries the information of
N / D independent rows, D = 1 + (m − 1)·ρ the design effect (Kish): the plan for independent
rows, N, becomes ⌈D·N⌉ rows in ⌈D·N / m⌉ clusters (the rows rounded up to whole clusters).
"""

from __future__ import annotations

import math
from typing import Any

from .._validation import InvalidParameterError, check_real

__all__ = ["check_cluster_plan", "clustered_plan"]


def check_cluster_plan(icc: Any, cluster_size: Any) -> tuple[float, float] | None:
    """``(icc, cluster_size)`` checked, or None when neither is given (one alone is refused).

    >>> check_cluster_plan(0.1, 10), check_cluster_plan(None, None)
    ((0.1, 10.0), None)
    """
    if icc is None and cluster_size is None:
        return None
    if icc is None or cluster_size is None:
        missing = "icc" if icc is None else "cluster_size"
        raise InvalidParameterError(
            f"{missing}: a plan for clustered rows needs both icc= (the intraclass correlation of the rows' "
            "correctness, e.g. 0.1) and cluster_size= (the mean rows per cluster)"
        )
    rho = check_real(icc, "icc", "a correlation in [0, 1]")
    if not 0.0 <= rho <= 1.0:
        raise InvalidParameterError(f"icc must be a correlation in [0, 1], got {icc!r}")
    size = check_real(cluster_size, "cluster_size", "a mean cluster size ≥ 1")
    if not (1.0 <= size < 1e9):
        raise InvalidParameterError(f"cluster_size must be a mean cluster size of at least 1, got {cluster_size!r}")
    return rho, size


def clustered_plan(n_independent: int, icc: float, cluster_size: float) -> tuple[float, int, int]:
    """``(design effect, rows, clusters)`` for a plan of ``n_independent`` independent rows.

    >>> clustered_plan(200, 0.1, 10)
    (1.9, 380, 38)
    """
    effect = 1.0 + (cluster_size - 1.0) * icc
    rows = math.ceil(round(effect * n_independent, 9))
    clusters = math.ceil(round(rows / cluster_size, 9))
    return effect, max(rows, math.ceil(round(clusters * cluster_size, 9))), clusters
