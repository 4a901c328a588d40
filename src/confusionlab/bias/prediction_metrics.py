"""Post-training bias metrics: DPPL, DI, DCA, DCR, RD, DAR, DRR, SD, AD, TE, CDDPL, FT, GE.

All but FT are pure vectorised functions of per-facet confusion counts
``cm`` of shape (..., 2, 4): facet (a, d) × ``(tp, fn, fp, tn)``, the
library's count order (that of :meth:`CountTable.confusion
<confusionlab.bias.counts.CountTable.confusion>`). Leading axes
are kept (posterior draws). NaN marks a value smclarify refuses to compute
(an empty facet; GE when every row is a false negative).

Signs follow smclarify 0.5, which for SD, DRR and FT differ from some AWS
prose (the Clarify blog prints SD and DRR as a − d, and the AWS documentation
describes FT with the opposite sign): differences are a − d except SD, DRR,
DCR and TE, which are d − a. Rates use smclarify's division: 0/0 → 0, x/0 → +inf, and a
difference of two +inf rates is 0.
"""

from __future__ import annotations

import math
import numbers
import warnings

import numpy as np

from .._deps import require
from .._validation import InvalidParameterError
from ._arith import divide, inf_diff
from .label_metrics import conditional_demographic_disparity, difference_in_proportions

__all__ = [
    "FT_WARN_ROWS",
    "accuracy_difference",
    "conditional_demographic_disparity",
    "difference_in_acceptance_rates",
    "difference_in_conditional_acceptance",
    "difference_in_conditional_rejection",
    "difference_in_positive_predictions",
    "difference_in_rejection_rates",
    "disparate_impact",
    "flip_test",
    "generalized_entropy",
    "recall_difference",
    "specificity_difference",
    "treatment_equality",
]

FT_WARN_ROWS = 2_000_000
"""Above this many rows :func:`flip_test` warns (it needs every row, not counts)."""


def _parts(cm: np.ndarray) -> tuple[np.ndarray, ...]:
    """``tp, fn, fp, tn`` (in the library's order) and the mask of non-empty facet pairs."""
    c = np.asarray(cm, dtype=np.float64)
    if c.ndim < 2 or c.shape[-2:] != (2, 4):
        raise InvalidParameterError(f"cm must have shape (..., 2, 4): facets (a, d) x (tp, fn, fp, tn), got {c.shape}")
    tp, fn, fp, tn = c[..., 0], c[..., 1], c[..., 2], c[..., 3]
    n = c.sum(axis=-1)
    ok = (n[..., 0] > 0) & (n[..., 1] > 0)
    return tp, fn, fp, tn, ok


def _a_minus_d(rate: np.ndarray, ok: np.ndarray) -> np.ndarray:
    return np.where(ok, inf_diff(rate[..., 0], rate[..., 1]), np.nan)


def _d_minus_a(rate: np.ndarray, ok: np.ndarray) -> np.ndarray:
    return np.where(ok, inf_diff(rate[..., 1], rate[..., 0]), np.nan)


def difference_in_positive_predictions(cm: np.ndarray) -> np.ndarray:
    r"""DPPL = q̂_a − q̂_d (predicted-positive rates).

    Examples
    --------
    >>> cm = [[2718, 3678, 84, 13900], [433, 679, 10, 8660]]  # (tp, fn, fp, tn) of a, d
    >>> round(float(difference_in_positive_predictions(cm)), 4)
    0.0922
    """
    tp, fn, fp, tn, _ = _parts(cm)
    return difference_in_proportions(np.stack([fn + tn, tp + fp], axis=-1))


def disparate_impact(cm: np.ndarray) -> np.ndarray:
    r"""DI = q̂_d / q̂_a; 0 when both rates are 0, +inf when only q̂_a is 0.

    Examples
    --------
    >>> cm = [[2718, 3678, 84, 13900], [433, 679, 10, 8660]]  # (tp, fn, fp, tn) of a, d
    >>> round(float(disparate_impact(cm)), 4)
    0.3294
    """
    tp, fn, fp, tn, ok = _parts(cm)
    n = tp + fp + fn + tn
    with np.errstate(invalid="ignore", divide="ignore"):
        q = (tp + fp) / n
    return np.where(ok, divide(q[..., 1], q[..., 0]), np.nan)


def difference_in_conditional_acceptance(cm: np.ndarray) -> np.ndarray:
    r"""DCA = c_a − c_d with c = (TP + FN)/(TP + FP) (observed over predicted positives).

    Examples
    --------
    >>> cm = [[2718, 3678, 84, 13900], [433, 679, 10, 8660]]  # (tp, fn, fp, tn) of a, d
    >>> round(float(difference_in_conditional_acceptance(cm)), 3)
    -0.228
    """
    tp, fn, fp, _tn, ok = _parts(cm)
    return _a_minus_d(divide(tp + fn, tp + fp), ok)


def difference_in_conditional_rejection(cm: np.ndarray) -> np.ndarray:
    r"""DCR = r_d − r_a with r = (TN + FP)/(TN + FN) (observed over predicted negatives).

    Examples
    --------
    >>> cm = [[2718, 3678, 84, 13900], [433, 679, 10, 8660]]  # (tp, fn, fp, tn) of a, d
    >>> round(float(difference_in_conditional_rejection(cm)), 3)
    0.133
    """
    _tp, fn, fp, tn, ok = _parts(cm)
    return _d_minus_a(divide(tn + fp, tn + fn), ok)


def recall_difference(cm: np.ndarray) -> np.ndarray:
    r"""RD = recall_a − recall_d, recall = TP/(TP + FN).

    Notes
    -----
    The 95 % true-value interval (``target="true_value"``: the difference of the two facets'
    Beta posteriors, exact) was simulated in ``benchmarks/bench_bias_coverage.py --confusion``
    (200 data sets a cell, ± 0.015; facet d holds 30 % of N = 30–1,000; RESULTS.md).
    With the default uniform prior it covered the true RD in 0.935–1.00 of data sets; it over-covers
    (0.98–1.00) when facet d has only a few positives (N ≤ 100 or rare positives), and the lowest
    cell, 0.935 (equal rates, N = 300), is within about one standard error of 0.95. With
    ``prior="jeffreys"`` it under-covers when facet d has a handful of positives: 0.575 (prevalence
    0.1, recall 0.95, N = 30), 0.81 (N = 30) and 0.915–0.92 (N = 30–300).

    Examples
    --------
    >>> cm = [[2718, 3678, 84, 13900], [433, 679, 10, 8660]]  # (tp, fn, fp, tn) of a, d
    >>> round(float(recall_difference(cm)), 3)
    0.036
    """
    tp, fn, _fp, _tn, ok = _parts(cm)
    return _a_minus_d(divide(tp, tp + fn), ok)


def difference_in_acceptance_rates(cm: np.ndarray) -> np.ndarray:
    r"""DAR = precision_a − precision_d, precision = TP/(TP + FP).

    Examples
    --------
    >>> cm = [[2718, 3678, 84, 13900], [433, 679, 10, 8660]]  # (tp, fn, fp, tn) of a, d
    >>> round(float(difference_in_acceptance_rates(cm)), 3)
    -0.007
    """
    tp, _fn, fp, _tn, ok = _parts(cm)
    return _a_minus_d(divide(tp, tp + fp), ok)


def difference_in_rejection_rates(cm: np.ndarray) -> np.ndarray:
    r"""DRR = NPV_d − NPV_a, NPV = TN/(TN + FN) (d − a, as smclarify).

    Examples
    --------
    >>> cm = [[2718, 3678, 84, 13900], [433, 679, 10, 8660]]  # (tp, fn, fp, tn) of a, d
    >>> round(float(difference_in_rejection_rates(cm)), 4)
    0.1365
    """
    _tp, fn, _fp, tn, ok = _parts(cm)
    return _d_minus_a(divide(tn, tn + fn), ok)


def specificity_difference(cm: np.ndarray) -> np.ndarray:
    r"""SD = TNR_d − TNR_a, TNR = TN/(TN + FP) (d − a, as smclarify).

    Notes
    -----
    The 95 % true-value interval (``target="true_value"``: the difference of the two facets'
    Beta posteriors, exact) was simulated in ``benchmarks/bench_bias_coverage.py --confusion``
    (200 data sets a cell, ± 0.015; facet d holds 30 % of N = 30–1,000; RESULTS.md).
    With the default uniform prior it covered the true SD in 0.935–0.995 of data sets (lowest 0.935
    at N = 1,000, within about one standard error of 0.95); ``prior="jeffreys"`` gave 0.93–0.99.

    Examples
    --------
    >>> cm = [[2718, 3678, 84, 13900], [433, 679, 10, 8660]]  # (tp, fn, fp, tn) of a, d
    >>> round(float(specificity_difference(cm)), 4)
    0.0049
    """
    _tp, _fn, fp, tn, ok = _parts(cm)
    return _d_minus_a(divide(tn, tn + fp), ok)


def accuracy_difference(cm: np.ndarray) -> np.ndarray:
    r"""AD = accuracy_a − accuracy_d.

    Notes
    -----
    The 95 % true-value interval (``target="true_value"``: the difference of the two facets'
    Beta posteriors, exact) was simulated in ``benchmarks/bench_bias_coverage.py --confusion``
    (200 data sets a cell, ± 0.015; facet d holds 30 % of N = 30–1,000; RESULTS.md).
    With the default uniform prior it covered the true AD (accuracy π·TPR + (1 − π)·TNR of each
    facet's population) in 0.94–1.00 of data sets (lowest 0.94 at N = 1,000, within about one
    standard error of 0.95; over-covering, 0.98–1.00, at N ≤ 300 with rare positives);
    ``prior="jeffreys"`` gave 0.945–0.985.

    Examples
    --------
    >>> cm = [[2718, 3678, 84, 13900], [433, 679, 10, 8660]]  # (tp, fn, fp, tn) of a, d
    >>> round(float(accuracy_difference(cm)), 3)
    -0.114
    """
    tp, fn, fp, tn, ok = _parts(cm)
    return _a_minus_d(divide(tp + tn, tp + fp + fn + tn), ok)


def treatment_equality(cm: np.ndarray) -> np.ndarray:
    r"""TE = FN_d/FP_d − FN_a/FP_a.

    Examples
    --------
    >>> cm = [[2718, 3678, 84, 13900], [433, 679, 10, 8660]]  # (tp, fn, fp, tn) of a, d
    >>> round(float(treatment_equality(cm)), 4)
    24.1143
    """
    _tp, fn, fp, _tn, ok = _parts(cm)
    return _d_minus_a(divide(fn, fp), ok)


def generalized_entropy(cm_all: np.ndarray, alpha: float = 2.0) -> np.ndarray:
    r"""Generalized entropy index GE(α) of the benefits b = ŷ − y + 1 over all rows.

    GE = Σ_rows ((b/b̄)^α − 1) / (N α (α − 1)); Clarify uses α = 2, i.e.
    ½(mean(b²)/mean(b)² − 1). Only counts are needed: b is 0 for a false
    negative, 1 for TP and TN, 2 for a false positive.

    Parameters
    ----------
    cm_all : array_like, shape (..., 4)
        ``(tp, fn, fp, tn)`` over all rows (both facets).
    alpha : float, default 2
        Any finite real number other than 0 and 1.

    Returns
    -------
    ndarray
        NaN when there are no rows or every row is a false negative.

    Examples
    --------
    >>> round(float(generalized_entropy([3151, 4357, 94, 22560])), 6)
    0.086527
    """
    if isinstance(alpha, (bool, np.bool_)) or not isinstance(alpha, numbers.Real):
        raise InvalidParameterError(f"alpha must be a real number, got {alpha!r}")
    if not math.isfinite(alpha) or alpha in (0, 1):
        raise InvalidParameterError(f"alpha must be finite and not 0 or 1, got alpha={alpha!r}")
    c = np.asarray(cm_all, dtype=np.float64)
    if c.ndim < 1 or c.shape[-1] != 4:
        raise InvalidParameterError(f"cm_all must have shape (..., 4): (tp, fn, fp, tn), got {c.shape}")
    tp, fn, fp, tn = c[..., 0], c[..., 1], c[..., 2], c[..., 3]
    n = c.sum(axis=-1)
    ok = (n > 0) & (tp + tn + fp > 0)
    safe_n = np.where(ok, n, 1.0)
    mean = np.where(ok, (tp + tn + 2.0 * fp) / safe_n, 1.0)
    s = (tp + tn) * ((1.0 / mean) ** alpha - 1) + fp * ((2.0 / mean) ** alpha - 1) - fn
    return np.where(ok, s / (safe_n * alpha * (alpha - 1)), np.nan)


def flip_test(
    features_a: np.ndarray,
    predicted_a: np.ndarray,
    features_d: np.ndarray,
    predicted_d: np.ndarray,
) -> float:
    r"""Counterfactual FlipTest FT, as smclarify 0.5.

    A k-nearest-neighbour classifier (k = 5, or 1 when facet a has at most 9
    rows; Euclidean distance on the unscaled features; uniform votes) is fitted
    on facet a with the *model's predictions* as targets and predicts facet d.
    FT = (#[model 1, k-NN 0] − #[model 0, k-NN 1]) / n_d.

    Parameters
    ----------
    features_a, features_d : ndarray, shape (n_a, k) and (n_d, k)
        Numeric features of each facet.
    predicted_a, predicted_d : ndarray of bool
        The model's binarised predictions.

    Returns
    -------
    float

    Notes
    -----
    The search is exact (scikit-learn's KD-tree), O(n log n). FT needs every
    row, not counts; above :data:`FT_WARN_ROWS` rows a warning suggests
    subsampling, e.g. ``report(df.sample(200_000, random_state=0), ...)`` or
    a stratified sample of each facet: FT is a proportion over facet d, so its
    sampling error is about ``sqrt(FT(1-FT)/n_d_sample)``.

    Examples
    --------
    >>> xa = np.array([[0.0], [1.0], [2.0]]); xd = np.array([[0.1], [1.9]])
    >>> flip_test(xa, np.array([False, False, True]), xd, np.array([True, True]))
    0.5
    """
    xa = np.asarray(features_a, dtype=np.float64)
    xd = np.asarray(features_d, dtype=np.float64)
    ya = np.asarray(predicted_a, dtype=bool)
    yd = np.asarray(predicted_d, dtype=bool)
    if xa.ndim != 2 or xd.ndim != 2 or xa.shape[1] != xd.shape[1]:
        raise InvalidParameterError(f"features must be 2-D with the same columns, got shapes {xa.shape} and {xd.shape}")
    if xa.shape[1] == 0:
        raise InvalidParameterError("FT needs at least one numeric feature (features=[])")
    if len(xa) == 0:
        raise ValueError("FT: facet a is empty")
    if len(xd) == 0:
        raise ValueError("FT: facet d is empty")
    if not (np.isfinite(xa).all() and np.isfinite(xd).all()):
        raise ValueError("FT: features contain NaN or infinite values")
    if len(xa) + len(xd) > FT_WARN_ROWS:
        warnings.warn(
            f"FT on {len(xa) + len(xd)} rows: the exact k-NN is slow at this size; "
            "consider computing FT on a random subsample (see flip_test's Notes)",
            stacklevel=2,
        )
    NearestNeighbors = require("sklearn.neighbors", "bias", "flip_test()").NearestNeighbors

    k = 5 if len(xa) > 9 else 1
    k = min(k, len(xa))
    nn = NearestNeighbors(n_neighbors=k, algorithm="kd_tree").fit(xa)
    idx = nn.kneighbors(xd, return_distance=False)
    votes = ya[idx].sum(axis=1)
    knn = votes * 2 > k
    flips = int(np.sum(yd & ~knn)) - int(np.sum(~yd & knn))
    return flips / len(xd)
