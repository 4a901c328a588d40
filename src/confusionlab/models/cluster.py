"""Clustered test items: when the rows of a test set are not independent draws.

Several questions from one passage, several scans of one patient, several sentences of one
speaker: the rows of a cluster resemble each other, and an interval that treats them as
independent is too narrow. This module holds the machinery every job shares once the
rows carry a cluster id:

* :func:`cluster_codes` — the clusters' names and each row's integer code (the library's one
  group coding, :func:`~confusionlab.labels.code_groups`);
* :func:`cluster_cells` — the per-cluster confusion counts, shape (clusters, 4) in
  :data:`~confusionlab.confusion.CONFUSION_ORDER` (TP, FN, FP, TN);
* :func:`icc` — the intraclass correlation of a binary outcome, the one-way ANOVA estimator;
* :func:`design_effect` and :func:`effective_size` — the variance inflation 1 + (m − 1)·ICC
  (for unequal sizes, its coefficient-of-variation form) and the test-set size it is worth;
* :func:`influence` and :func:`cluster_robust_variance` — the cluster-robust (sandwich,
  linearisation) variance of a ratio metric by the delta method, from the per-cluster counts;
* :func:`cluster_robust_interval` — its Student-t interval with C − 1 degrees of freedom;
* :func:`cluster_bootstrap` — the metric over clusters resampled with replacement, vectorised
  (multinomial cluster weights times the per-cluster count matrix), memory checked first.

Every function is pure: counts in, numbers out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from scipy import stats

from .._errors import InvalidParameterError
from .._memory import check_memory
from .._missing import as_labels
from ..labels import code_groups
from ..metrics import get_metric

__all__ = [
    "ANALYTIC_GRADIENTS",
    "BOOTSTRAP_METHOD",
    "DELTA_METHOD",
    "ClusterInterval",
    "bootstrap_interval",
    "cluster_bootstrap",
    "cluster_cells",
    "cluster_codes",
    "cluster_robust_interval",
    "cluster_robust_variance",
    "design_effect",
    "effective_size",
    "icc",
    "influence",
    "metric_gradient",
]


# ----------------------------------------------------------------------------- coding
def cluster_codes(cluster: Any, n: int, name: str = "cluster") -> tuple[list[Any], np.ndarray]:
    """The distinct clusters and each row's integer code among them.

    Parameters
    ----------
    cluster : array-like
        One cluster id per row (numbers or labels; no missing value).
    n : int
        The number of rows the ids must match.
    name : str, default "cluster"
        The argument's name, for messages.

    Returns
    -------
    names : list
        The distinct clusters, sorted as :func:`~confusionlab.labels.code_groups` sorts groups.
    codes : numpy.ndarray of int64
        ``names[codes[i]]`` is the cluster of row ``i``.

    Raises
    ------
    InvalidParameterError
        A missing id, a length other than ``n``, or two ids that read the same (``1`` and ``"1"``).

    Examples
    --------
    >>> names, codes = cluster_codes(["b", "a", "b"], 3)
    >>> names, codes.tolist()
    (['a', 'b'], [1, 0, 1])
    >>> cluster_codes([1.0, float("nan")], 2)
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: cluster has 1 missing value (None/NaN/<NA>) at position 1; ...
    """
    ids = as_labels(cluster, name)
    if ids.shape[0] != n:
        raise InvalidParameterError(f"{name} must give one cluster id per row: {n} rows, got {ids.shape[0]} ids")
    if ids.dtype.kind in "iu" and ids.size and int(ids.max()) - int(ids.min()) < 4 * ids.size + 1024:
        return _small_integer_codes(ids)
    try:
        names, codes = code_groups(ids)
    except InvalidParameterError as exc:
        raise InvalidParameterError(str(exc).replace("groups", name, 1)) from None
    return names, np.asarray(codes, dtype=np.int64)


def _small_integer_codes(ids: np.ndarray) -> tuple[list[Any], np.ndarray]:
    """:func:`~confusionlab.labels.code_groups` of integers of a small range, by counting instead of
    sorting (10⁶ ids in 10⁴ clusters: about 15 ms instead of 0.5 s)."""
    low = int(ids.min())
    offsets = (ids.astype(np.int64) - low) if ids.dtype.kind == "i" else (ids - ids.dtype.type(low)).astype(np.int64)
    present = np.bincount(offsets) > 0
    rank = np.cumsum(present) - 1
    return (np.flatnonzero(present) + low).tolist(), rank[offsets].astype(np.int64)


def cluster_cells(
    codes: np.ndarray, cells: np.ndarray, n_clusters: int, weights: np.ndarray | None = None
) -> np.ndarray:
    """Per-cluster confusion counts from each row's cluster code and cell index.

    Parameters
    ----------
    codes : numpy.ndarray of int
        Each row's cluster code in ``range(n_clusters)``.
    cells : numpy.ndarray of int
        Each row's cell in :data:`~confusionlab.confusion.CONFUSION_ORDER`: 0 = TP, 1 = FN,
        2 = FP, 3 = TN.
    n_clusters : int
        The number of clusters.
    weights : numpy.ndarray of int, optional
        Each row's count (the rows of a count table); 1 each by default.

    Returns
    -------
    numpy.ndarray of int64, shape (n_clusters, 4)
        Row ``c`` holds cluster ``c``'s (TP, FN, FP, TN).

    Examples
    --------
    >>> cluster_cells(np.array([0, 0, 1, 1, 1]), np.array([0, 3, 1, 0, 0]), 2).tolist()
    [[1, 0, 0, 1], [2, 1, 0, 0]]
    """
    flat = np.bincount(codes.astype(np.int64) * 4 + cells.astype(np.int64), weights=weights, minlength=4 * n_clusters)
    return flat.astype(np.int64).reshape(n_clusters, 4)


# ----------------------------------------------------------------------------- ICC, design effect
def icc(successes: Any, sizes: Any, squares: Any = None) -> float:
    """The intraclass correlation of an outcome, by the one-way ANOVA estimator (binary by default).

    With clusters of sizes :math:`n_c` (N rows, C clusters) and :math:`s_c` successes each,
    :math:`\\bar y_c = s_c/n_c` and :math:`\\bar y = \\sum s_c/N`:

    .. math::

        \\mathrm{MSB} = \\frac{\\sum_c n_c(\\bar y_c - \\bar y)^2}{C - 1},\\quad
        \\mathrm{MSW} = \\frac{\\sum_c (q_c - s_c \\bar y_c)}{N - C},\\quad
        n_0 = \\frac{N - \\sum_c n_c^2/N}{C - 1},\\quad
        \\hat\\rho = \\frac{\\mathrm{MSB} - \\mathrm{MSW}}{\\mathrm{MSB} + (n_0 - 1)\\,\\mathrm{MSW}}

    with :math:`q_c` the cluster's sum of squared outcomes (:math:`q_c = s_c` for a 0/1 outcome)
    (the ANOVA estimator of Fleiss, for unequal sizes; Ridout, Demétrio and Firth 1999 found
    it among the best of twenty for binary data). It may be negative (rows of a cluster
    less alike than rows of different clusters); it is NaN where undefined: one cluster
    (no between-cluster spread), every cluster of one row (no within-cluster spread) or
    every row the same outcome (MSB = MSW = 0).

    Parameters
    ----------
    successes : array-like
        The outcome's sum in each cluster (for 0/1: its count of ones, e.g. correct predictions).
    sizes : array-like of int
        Each cluster's number of rows (≥ 1).
    squares : array-like, optional
        The sum of the squared outcomes in each cluster; default ``successes`` (a 0/1 outcome).

    Returns
    -------
    float

    Examples
    --------
    Two clusters, one all ones and one all zeros: the rows of a cluster agree perfectly.

    >>> icc([3, 0], [3, 3])
    1.0
    >>> round(icc([2, 1, 3, 0], [3, 3, 3, 3]), 4)
    0.4375
    """
    s = np.asarray(successes, dtype=np.float64)
    n = np.asarray(sizes, dtype=np.float64)
    c = n.size
    total = float(n.sum())
    if c < 2 or total <= c:
        return float("nan")
    mean = float(s.sum()) / total
    q = s if squares is None else np.asarray(squares, dtype=np.float64)
    within = float(np.sum(q - s * s / n))
    between = float(np.sum(n * (s / n - mean) ** 2))
    msb = between / (c - 1)
    msw = within / (total - c)
    n0 = (total - float(np.sum(n * n)) / total) / (c - 1)
    denominator = msb + (n0 - 1.0) * msw
    return float((msb - msw) / denominator) if denominator > 0 else float("nan")


def design_effect(sizes: Any, icc: float) -> float:
    """The variance inflation of a mean over clustered rows: 1 + (m − 1)·ICC, sizes unequal allowed.

    For clusters of equal size m this is Kish's 1 + (m − 1)·ρ. For unequal sizes it is the
    coefficient-of-variation form of Eldridge, Ashby and Kerry (2006),
    1 + ((1 + cv²)·m̄ − 1)·ρ, with m̄ the mean size and cv the sizes' standard deviation
    (ddof = 0) over m̄ — which equals 1 + (Σ n_c²/N − 1)·ρ. Clusters of one row each give 1
    whatever ρ (NaN included). A negative ρ (an estimate below 0 by chance: rows of a cluster less
    alike than rows of different clusters) counts as 0, so the design effect is never below 1 — the
    ANOVA estimate can reach −1/(n₀ − 1), where the formula would give a design effect of 0 and an
    infinite effective size.

    Parameters
    ----------
    sizes : array-like of int
        Each cluster's number of rows.
    icc : float
        The intraclass correlation (:func:`icc`).

    Returns
    -------
    float

    Examples
    --------
    >>> design_effect([10] * 5, 0.1)
    1.9
    >>> round(design_effect([2, 4, 6], 0.5), 4)
    2.8333
    >>> design_effect([1, 1, 1], float("nan"))
    1.0
    >>> design_effect([2, 2, 2], -1.0)
    1.0
    """
    icc = 0.0 if icc < 0 else icc  # NaN stays NaN
    n = np.asarray(sizes, dtype=np.float64)
    total = float(n.sum())
    inflation = float(np.sum(n * n)) / total - 1.0  # (1 + cv²)·m̄ − 1
    return 1.0 if inflation == 0 else float(1.0 + inflation * icc)


def effective_size(sizes: Any, icc: float) -> float:
    """The number of independent rows the clustered test set is worth: N / design effect.

    Examples
    --------
    >>> round(effective_size([10] * 5, 0.1), 6)
    26.315789
    """
    n = np.asarray(sizes, dtype=np.float64)
    return float(n.sum()) / design_effect(n, icc)


# ----------------------------------------------------------------------------- delta method
def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return num / den


def _rate_gradient(totals: np.ndarray, numerator: tuple[int, ...], denominator: tuple[int, ...]) -> np.ndarray:
    """∂(Σ numerator cells / Σ denominator cells)/∂cells."""
    num = totals[..., list(numerator)].sum(axis=-1)
    den = totals[..., list(denominator)].sum(axis=-1)
    value = _ratio(num, den)
    grad = np.zeros_like(totals)
    for k in denominator:
        grad[..., k] -= value
    for k in numerator:
        grad[..., k] += 1.0
    return grad / den[..., None]


def _mcc_gradient(totals: np.ndarray) -> np.ndarray:
    tp, fn, fp, tn = (totals[..., k] for k in range(4))
    num = tp * tn - fp * fn
    root = np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    value = _ratio(num, root)
    with np.errstate(divide="ignore", invalid="ignore"):
        d_log = np.stack(
            [
                1 / (tp + fp) + 1 / (tp + fn),
                1 / (tp + fn) + 1 / (tn + fn),
                1 / (tp + fp) + 1 / (tn + fp),
                1 / (tn + fp) + 1 / (tn + fn),
            ],
            axis=-1,
        )
        d_num = np.stack([tn, -fp, -fn, tp], axis=-1)
        return d_num / root[..., None] - value[..., None] / 2 * d_log


def _f1_gradient(totals: np.ndarray) -> np.ndarray:
    tp, fn, fp = totals[..., 0], totals[..., 1], totals[..., 2]
    den = 2 * tp + fn + fp
    value = _ratio(2 * tp, den)
    grad = np.stack([2 - 2 * value, -value, -value, np.zeros_like(value)], axis=-1)
    return grad / den[..., None]


def _balanced_accuracy_gradient(totals: np.ndarray) -> np.ndarray:
    return (_rate_gradient(totals, (0,), (0, 1)) + _rate_gradient(totals, (3,), (2, 3))) / 2


#: The metrics whose gradient of the cell totals (TP, FN, FP, TN) is written out; any other
#: registered metric's is taken by central differences (:func:`metric_gradient`).
ANALYTIC_GRADIENTS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "accuracy": lambda t: _rate_gradient(t, (0, 3), (0, 1, 2, 3)),
    "precision": lambda t: _rate_gradient(t, (0,), (0, 2)),
    "recall": lambda t: _rate_gradient(t, (0,), (0, 1)),
    "tnr": lambda t: _rate_gradient(t, (3,), (2, 3)),
    "npv": lambda t: _rate_gradient(t, (3,), (1, 3)),
    "fpr": lambda t: _rate_gradient(t, (2,), (2, 3)),
    "fnr": lambda t: _rate_gradient(t, (1,), (0, 1)),
    "f1": _f1_gradient,
    "mcc": _mcc_gradient,
    "balanced_accuracy": _balanced_accuracy_gradient,
}


def metric_gradient(metric: str, totals: Any) -> np.ndarray:
    """The gradient of a metric with respect to the four cell totals (TP, FN, FP, TN).

    Written out for :data:`ANALYTIC_GRADIENTS` (accuracy, precision, recall, specificity
    ``"tnr"``, NPV, FPR, FNR, F1, MCC, balanced accuracy); any other metric of
    :data:`~confusionlab.metrics.METRICS` by central differences of its ``values`` at the
    cell proportions (step 1e-6, then divided by N: the metrics are ratios of counts).
    NaN where the metric is undefined (0/0).

    Parameters
    ----------
    metric : str
        A binary metric's name.
    totals : array-like, shape (..., 4)
        Cell totals (TP, FN, FP, TN), floats allowed.

    Returns
    -------
    numpy.ndarray, shape (..., 4)

    Examples
    --------
    Accuracy (TP + TN)/N at (3, 1, 1, 5): ∂/∂TP = (1 − 0.8)/10, ∂/∂FN = −0.8/10.

    >>> metric_gradient("accuracy", [3, 1, 1, 5]).round(3).tolist()
    [0.02, -0.08, -0.08, 0.02]
    """
    t = np.asarray(totals, dtype=np.float64)
    name = get_metric(metric).name
    if name in ANALYTIC_GRADIENTS:
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.asarray(ANALYTIC_GRADIENTS[name](t), dtype=np.float64)
    m = get_metric(name)
    size = t.sum(axis=-1, keepdims=True)
    share = t / size
    step = 1e-6
    grad = np.empty_like(t)
    for k in range(4):
        up, down = share.copy(), share.copy()
        up[..., k] += step
        down[..., k] -= step
        grad[..., k] = (
            m.values(*np.moveaxis(up, -1, 0), undefined=np.nan) - m.values(*np.moveaxis(down, -1, 0), undefined=np.nan)
        ) / (2 * step)
    return grad / size


def influence(metric: str, cells: Any, weights: Any = None) -> np.ndarray:
    """Each cluster's linearised contribution to a metric's estimate (the delta method).

    With per-cluster counts :math:`t_c` (TP, FN, FP, TN), totals :math:`T = \\sum_c t_c` and
    the estimate :math:`f(T)`, cluster ``c`` contributes :math:`u_c = \\nabla f(T)\\cdot(t_c - T/C)`;
    for the ratio metrics (homogeneous of degree 0 in the counts) :math:`\\nabla f(T)\\cdot T = 0`,
    so :math:`u_c = \\nabla f(T)\\cdot t_c`. For accuracy :math:`u_c = (\\text{correct}_c - \\hat a\\, n_c)/N`.

    Parameters
    ----------
    metric : str
        A binary metric's name.
    cells : array-like, shape (C, 4) or (C, ..., 4)
        Per-cluster counts; extra axes (classifiers) are kept.
    weights : array-like, optional
        How many clusters each row of ``cells`` stands for (patterns shared by many clusters:
        the rows of a test set as clusters of one); 1 each by default.

    Returns
    -------
    numpy.ndarray, shape (C, ...)

    Examples
    --------
    >>> influence("accuracy", [[2, 0, 0, 0], [0, 1, 1, 0]]).tolist()
    [0.25, -0.25]
    """
    t = np.asarray(cells, dtype=np.float64)
    w = np.ones(t.shape[0]) if weights is None else np.asarray(weights, dtype=np.float64)
    shape = (-1,) + (1,) * (t.ndim - 1)
    totals = np.sum(t * w.reshape(shape), axis=0)
    grad = metric_gradient(metric, totals)
    return np.sum((t - totals / w.sum()) * grad, axis=-1)


def cluster_robust_variance(contributions: Any, *, correction: bool = True, weights: Any = None) -> np.ndarray:
    """The cluster-robust (sandwich) variance from each cluster's linearised contribution.

    :math:`V = \\frac{C}{C - 1} \\sum_c u_c^2` (the contributions sum to zero). The factor
    C/(C − 1) is the small-cluster correction (statsmodels' and Stata's CR1 for a mean:
    their second factor (N − 1)/(N − K) is 1 with the one regressor of a mean);
    ``correction=False`` gives the uncorrected CR0. NaN with fewer than two clusters.

    Parameters
    ----------
    contributions : array-like, shape (C, ...)
        :func:`influence` (for a paired difference: classifier A's minus B's).
    correction : bool, default True
    weights : array-like, optional
        How many clusters each contribution stands for (as in :func:`influence`).

    Returns
    -------
    numpy.ndarray (a 0-d array for one metric)

    Examples
    --------
    >>> float(cluster_robust_variance([0.25, -0.25]))
    0.25
    """
    u = np.asarray(contributions, dtype=np.float64)
    w = np.ones(u.shape[0]) if weights is None else np.asarray(weights, dtype=np.float64)
    c = float(w.sum())
    if c < 2:
        return np.full(u.shape[1:], np.nan)
    factor = c / (c - 1) if correction else 1.0
    return factor * np.sum(u * u * w.reshape((-1,) + (1,) * (u.ndim - 1)), axis=0)


class ClusterInterval(tuple):
    """A clustered interval ``(lower, upper)`` with its estimate, standard error and method.

    Attributes
    ----------
    estimate, std_error : float
    n_clusters : int
    method : str
        How it was computed (``"cluster-robust delta method (t, C - 1 df)"`` or
        ``"cluster bootstrap (percentile)"``).
    """

    estimate: float
    std_error: float
    n_clusters: int
    method: str

    def __new__(cls, lower: float, upper: float, **fields: Any) -> ClusterInterval:
        out = super().__new__(cls, (float(lower), float(upper)))
        for key, value in fields.items():
            setattr(out, key, value)
        return out


#: The label of the delta-method interval.
DELTA_METHOD = "cluster-robust delta method (t, C - 1 df)"
#: The label of the cluster bootstrap's interval.
BOOTSTRAP_METHOD = "cluster bootstrap (percentile)"


def cluster_robust_interval(
    metric: str, cells: Any, confidence: float = 0.95, *, bounds: tuple[float, float] = (-np.inf, np.inf)
) -> ClusterInterval:
    """The metric's cluster-robust interval: estimate ± t·SE, with C − 1 degrees of freedom.

    SE² is :func:`cluster_robust_variance` of :func:`influence` (CR1). The quantile is
    Student's t with C − 1 degrees of freedom (the usual reference distribution of a
    cluster-robust statistic with few clusters), and the interval is clipped to ``bounds``
    (the metric's range). It answers the true-value question — where the metric's value
    lies in the population of clusters the test clusters were drawn from — as a frequentist
    interval; it assumes independent clusters, not independent rows. NaN bounds where the
    metric is undefined or fewer than two clusters are given; a zero-width interval where every
    cluster agrees exactly (e.g. all predictions right).

    Parameters
    ----------
    metric : str
    cells : array-like, shape (C, 4)
        Per-cluster counts (TP, FN, FP, TN).
    confidence : float, default 0.95
    bounds : (float, float)
        The metric's range, to clip to.

    Returns
    -------
    ClusterInterval

    Examples
    --------
    >>> ci = cluster_robust_interval("accuracy", [[3, 0, 0, 1], [1, 1, 1, 1], [0, 2, 0, 0]], bounds=(0, 1))
    >>> round(ci.estimate, 4), round(ci.std_error, 4), ci.n_clusters
    (0.6, 0.2498, 3)
    """
    t = np.asarray(cells, dtype=np.float64)
    totals = t.sum(axis=0)
    estimate = float(get_metric(metric).values(*totals, undefined=np.nan))
    se = float(np.sqrt(cluster_robust_variance(influence(metric, t))))
    c = t.shape[0]
    if not (np.isfinite(estimate) and np.isfinite(se)):
        lower = upper = float("nan")
    else:
        q = float(stats.t.ppf((1 + confidence) / 2, c - 1))
        lower, upper = max(bounds[0], estimate - q * se), min(bounds[1], estimate + q * se)
    return ClusterInterval(lower, upper, estimate=estimate, std_error=se, n_clusters=c, method=DELTA_METHOD)


# ----------------------------------------------------------------------------- bootstrap
def cluster_bootstrap(
    metric: str, cells: Any, n_resamples: int, rng: np.random.Generator, *, name: str = "n_resamples"
) -> np.ndarray:
    """The metric on ``n_resamples`` cluster bootstrap resamples, without a loop over them.

    Each resample draws C clusters with replacement: its weights are one Multinomial(C, 1/C)
    draw over the clusters, and its cell totals the weights times the (C, 4) count matrix
    (one matrix product for every resample). The weights, ``n_resamples × C`` integers, are
    checked against :func:`~confusionlab.memory_limit` before they are drawn.

    Parameters
    ----------
    metric : str
    cells : array-like, shape (C, 4) or (C, k, 4)
        Per-cluster counts (of k classifiers on the same rows: resampled together).
    n_resamples : int
    rng : numpy.random.Generator
    name : str
        The argument's name in messages.

    Returns
    -------
    numpy.ndarray, shape (n_resamples,) or (n_resamples, k)
        The metric of each resample (NaN where undefined).

    Raises
    ------
    TooLargeError
        Before drawing, when the weights would not fit in the memory limit.

    Examples
    --------
    >>> values = cluster_bootstrap("accuracy", [[3, 0, 0, 1], [1, 1, 1, 1], [0, 2, 0, 0]], 5, np.random.default_rng(0))
    >>> values.shape, bool(((0 <= values) & (values <= 1)).all())
    ((5,), True)
    """
    t = np.asarray(cells, dtype=np.float64)
    c = t.shape[0]
    check_memory(
        float(n_resamples) * (c * 16.0 + t[0].size * 8.0),
        f"{name}={n_resamples:,} cluster bootstrap resamples of {c:,} clusters",
        f"lower {name}",
    )
    weights = rng.multinomial(c, np.full(c, 1.0 / c), size=n_resamples)
    totals = (weights.astype(np.float64) @ t.reshape(c, -1)).reshape(n_resamples, *t.shape[1:])
    return get_metric(metric).values(*np.moveaxis(totals, -1, 0), undefined=np.nan)


def bootstrap_interval(values: np.ndarray, confidence: float) -> tuple[float, float]:
    """The percentile interval of bootstrap values (NaN resamples left out).

    Examples
    --------
    >>> [round(x, 9) for x in bootstrap_interval(np.arange(101.0), 0.9)]
    [5.0, 95.0]
    """
    finite = values[np.isfinite(values)]
    if finite.size == 0:
        return float("nan"), float("nan")
    lo, hi = np.quantile(finite, [(1 - confidence) / 2, (1 + confidence) / 2])
    return float(lo), float(hi)
