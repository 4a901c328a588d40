"""``evaluate_items`` and ``compare_items``: the checks at the boundary, then the item table."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._arrays import check_same_length
from .._errors import InvalidParameterError
from ._checks import check_ids, check_scores
from ._cluster_stats import clustered_std_error, design_effect, effective_size, icc, naive_std_error
from ._options import Options, check_options
from ._result import ItemComparison, ItemEvaluation
from ._sign_flip import integer_sums, score_grid
from ._table import ItemTable, item_table

__all__ = ["compare_items", "evaluate_items", "from_table"]


def evaluate_items(
    scores: Any,
    *,
    item: Any = None,
    cluster: Any = None,
    data: Any = None,
    confidence: float = 0.95,
) -> ItemEvaluation:
    """The mean score over test items, with a standard error that knows clustered and repeated items.

    Parameters
    ----------
    scores : array-like of float
        One score per row: 1 correct, 0 wrong, or partial credit (booleans count as 1/0). NaN,
        missing values and non-numbers are refused.
    item : array-like, optional
        The item of each row, when items have several rows (K samples or epochs of one
        question): each item's rows are averaged first. Default: each row is its own item.
    cluster : array-like, optional
        The cluster of each row (passage, patient, speaker); an item's rows share one cluster.
        Default: the items are independent.
    data : DataFrame, optional
        pandas, polars, pyarrow, DuckDB, Dask or PySpark: ``scores``, ``item`` and ``cluster`` are
        then column names, (item, cluster, score) counted by the engine.
    confidence : float, default 0.95
        The level of the interval the summary and ``to_frame()`` state.

    Returns
    -------
    ItemEvaluation
        ``.value`` (the mean of the items' means), ``.std_error``, ``.interval(confidence)``,
        ``.icc``, ``.design_effect``, ``.effective_size``, ``.variance_split`` (items with
        several rows), ``.naive_std_error`` and ``.naive_interval()`` for comparison.

    Raises
    ------
    InvalidParameterError
        Scores that are not finite numbers, ids of another length or missing, an item in two
        clusters, fewer than two items (two clusters with ``cluster=``), a bad ``confidence``.
    TooLargeError
        More rows than the memory limit holds, refused before anything is allocated.

    Notes
    -----
    With ``cluster=``, ``std_error = √(C/(C − 1) · Σ_c (Σ_{i∈c} (x̄_i − x̄))²) / n`` over the ``n``
    items' means ``x̄_i`` in ``C`` clusters: Miller's (2024) cluster-robust error with the
    finite-cluster correction, equal to Inspect's ``stderr(cluster=)``. Without it, the sample
    standard deviation of the items' means over √n (Inspect's ``stderr()``). The interval is
    Student's t with C − 1 (or n − 1) degrees of freedom, Inspect's ``ci()``: with few clusters
    the t quantile is markedly wider than the normal one, which is what keeps the coverage near
    the level (``benchmarks/coverage_items.py``). The result's ``data=`` path counts (item,
    cluster, score) cells, so it gives the same numbers as the arrays.

    Without ``cluster=`` the items are assumed independent; items that share a passage, a
    patient or a speaker are not, and then the interval is too narrow. Coverage of the 95 %
    interval in ``benchmarks/coverage_items.py`` (beta-binomial clusters, mean size 10, 2,000
    test sets a cell, Monte Carlo error ±0.005):

    ==========  ========  =====================  =====================
    ICC         clusters  naive (equal/unequal)  clustered (eq./uneq.)
    ==========  ========  =====================  =====================
    0           10        0.944 / 0.952          0.944 / 0.947
    0.1         50        0.842 / 0.813          0.952 / 0.950
    0.3         50        0.686 / 0.648          0.945 / 0.944
    0.7         10        0.516 / 0.483          0.930 / 0.897
    0.7         200       0.549 / 0.482          0.953 / 0.949
    ==========  ========  =====================  =====================

    With few clusters of unequal sizes the clustered interval still falls short (0.90–0.93 at
    10 clusters); a cluster-robust error has C − 1 degrees of freedom at most.

    Examples
    --------
    >>> import confusionlab as cl
    >>> r = cl.evaluate_items([1, 1, 0, 0, 1, 0], cluster=["a", "a", "b", "b", "c", "c"])
    >>> r.value, round(r.std_error, 4), round(r.naive_std_error, 4)  # √(1.5·(1 + 1 + 0))/6, √(0.3)/√6
    (0.5, 0.2887, 0.2236)
    >>> r.design_effect > 1
    True
    """
    options = check_options(confidence=confidence)
    if data is not None:
        from ._data import EVALUATE_DOOR, from_counts

        return from_counts(EVALUATE_DOOR(data, options, scores=scores, item=item, cluster=cluster), options)
    x = check_scores(scores, "scores")
    table = item_table([x], check_ids(item, "item", x.size), check_ids(cluster, "cluster", x.size))
    return evaluation_of(table, options)


def compare_items(
    scores_a: Any,
    scores_b: Any,
    *,
    item: Any = None,
    cluster: Any = None,
    data: Any = None,
    confidence: float = 0.95,
) -> ItemComparison:
    """The paired difference A − B of two systems scored on the same rows, with an exact test.

    Parameters
    ----------
    scores_a, scores_b : array-like of float
        A's and B's score on each row (the same items, samples and order): 1, 0 or partial credit.
    item : array-like, optional
        The item of each row (K rows per item: each item's difference of means is taken).
    cluster : array-like, optional
        The cluster of each row; default: the items are independent.
    data : DataFrame, optional
        Any supported frame: ``scores_a``, ``scores_b``, ``item``, ``cluster`` are column names.
    confidence : float, default 0.95
        The level of the interval the summary and ``to_frame()`` state.

    Returns
    -------
    ItemComparison
        ``.value`` (mean difference over items), ``.std_error``, ``.interval()``,
        ``.p_value(alternative)`` and ``.test()``: the sign-flip randomization test over the
        clusters (or items), exact by integer convolution when the scores lie on a grid
        (0/1, halves, …), by enumeration up to 20 clusters otherwise, else Monte Carlo (labelled).

    Raises
    ------
    InvalidParameterError
        As :func:`evaluate_items`; ``scores_a`` and ``scores_b`` of different lengths.

    Notes
    -----
    The test flips the sign of each cluster's summed difference ``s_c = Σ_{i∈c} (ā_i − b̄_i)``:
    under no difference within clusters every pattern is equally likely, and the p-value is the
    share of the ``2^C`` sums ``Σ ε_c s_c`` at least as extreme as the observed one. It needs no
    normal approximation. Size at α = 0.05 in ``benchmarks/coverage_items.py`` (beta-binomial
    clusters of mean size 10, A and B exchangeable within clusters, 2,000 test sets a cell):

    ===========  =====  ================  ==================  =========
    clusters     ICC    naive paired t    cluster-robust t    sign-flip
    ===========  =====  ================  ==================  =========
    10 equal     0.3    0.308             0.049               0.034
    10 unequal   0.7    0.541             0.071               0.038
    50 equal     0.3    0.324             0.051               0.048
    200 unequal  0.3    0.372             0.055               0.052
    ===========  =====  ================  ==================  =========

    At 10 clusters the exact test stayed at 0.026–0.038 in every cell (discreteness makes it
    conservative); the cluster-robust t test went to 0.074 with unequal sizes.
    The interval is the t interval of :func:`evaluate_items` on the items' differences.

    Without ``cluster=`` the items are assumed independent; items that share a passage, a
    patient or a speaker are not, and then the interval is too narrow and the test too eager.

    Examples
    --------
    >>> import confusionlab as cl
    >>> c = cl.compare_items([1, 1, 1, 0, 1, 1], [0, 1, 0, 0, 0, 1], cluster=[1, 1, 2, 2, 3, 3])
    >>> round(c.value, 4), c.p_value(), c.test().method  # sums 1, 1, 1: only (+,+,+) and (−,−,−) reach |3|
    (0.5, 0.25, 'exact')
    """
    options = check_options(confidence=confidence)
    if data is not None:
        from ._data import COMPARE_DOOR, from_counts

        table = COMPARE_DOOR(data, options, scores_a=scores_a, scores_b=scores_b, item=item, cluster=cluster)
        return from_counts(table, options)
    a = check_scores(scores_a, "scores_a")
    b = check_scores(scores_b, "scores_b")
    check_same_length({"scores_a": a, "scores_b": b}, "a paired comparison")
    table = item_table([a, b], check_ids(item, "item", a.size), check_ids(cluster, "cluster", a.size))
    return comparison_of(table, options)


def _summary(table: ItemTable, x: np.ndarray) -> dict[str, Any]:
    """The mean of the per-item values ``x`` with its errors and the cluster statistics."""
    clustered = table.clusters is not None
    codes = table.cluster_codes
    n = x.size
    rho = icc(x, codes) if clustered else float("nan")
    deff = design_effect(rho, table.cluster_sizes) if clustered else 1.0
    return {
        "value": float(x.mean()),
        "std_error": clustered_std_error(x, codes) if clustered else naive_std_error(x),
        "naive_std_error": naive_std_error(x),
        "n_items": n,
        "n_rows": int(table.rows.sum()),
        "n_clusters": table.n_clusters if clustered else None,
        "df": (table.n_clusters if clustered else n) - 1,
        "icc": rho,
        "design_effect": deff,
        "effective_size": effective_size(n, deff),
    }


def _check_clusters(table: ItemTable) -> None:
    if table.clusters is not None and table.n_clusters < 2:
        raise InvalidParameterError(
            f"cluster must hold at least two clusters, got {table.n_clusters}: one cluster gives no error"
        )


def evaluation_of(table: ItemTable, options: Options) -> ItemEvaluation:
    """The :class:`ItemEvaluation` of a one-system item table."""
    _check_clusters(table)
    x = table.means[0]
    summary = _summary(table, x)
    k = table.rows
    if bool(np.all(k >= 2)):
        within = (table.squares[0] - table.sums[0] ** 2 / k) / (k - 1)  # each item's sample variance
        summary["samples_variance"] = float(np.sum(np.maximum(within, 0.0) / k)) / x.size**2
    else:
        summary["samples_variance"] = None
    return ItemEvaluation(summary, confidence=options.confidence)


def comparison_of(table: ItemTable, options: Options) -> ItemComparison:
    """The :class:`ItemComparison` of a two-system item table (rows aligned: A and B on each)."""
    _check_clusters(table)
    means = table.means
    d = means[0] - means[1]
    summary = _summary(table, d)
    summary["value_a"], summary["value_b"] = float(means[0].mean()), float(means[1].mean())
    sums = np.bincount(table.cluster_codes, weights=d, minlength=table.n_clusters)
    integers = integer_sums(table.sums[0] - table.sums[1], table.rows, table.cluster_codes, score_grid(table.values))
    return ItemComparison(summary, confidence=options.confidence, sums=sums, integers=integers)


def from_table(table: ItemTable, options: Options) -> ItemEvaluation | ItemComparison:
    """The result of an item table: an evaluation of one system, a comparison of two."""
    return evaluation_of(table, options) if table.sums.shape[0] == 1 else comparison_of(table, options)
