r"""Classical agreement coefficients used as comparators, closed-form and vectorised.

Predictions are refits × objects: the refits play the role of raters, the objects of
subjects/units/targets. Each function returns a :class:`~confusionlab.stability.Coefficient`
(a ``float`` with ``name`` and ``reason``). Where a coefficient is mathematically undefined
the ``on_undefined=`` policy decides: ``"raise"`` (default, the same in
:mod:`~confusionlab.stability.measures` and :class:`~confusionlab.stability.StabilityCurve`:
data that cannot answer get a clear error, never a silent NaN) raises
:class:`~confusionlab.stability.UndefinedError` with the reason, ``"warn"`` emits an
:class:`~confusionlab.stability.UndefinedCoefficientWarning` and returns NaN with the
reason, ``"nan"`` returns it silently.

Documented undefined cases
--------------------------
- Fleiss' κ: every prediction in one category (P_e = 1; statsmodels returns NaN).
- Gwet's AC1: fewer than two categories.
- Krippendorff's α: no object with two or more predictions, or all pairable values equal
  (D_e = 0).
- ICC: one object, or a zero denominator (e.g. all predictions equal).

Why phi and psi instead: under extreme prevalence (20 objects × 10 refits, 19 objects
always "neg", one 8 × "neg" and 2 × "pos") Fleiss' κ is 0.102 and Krippendorff's α 0.107
although the refits agree on almost everything, while Gwet's AC1 is 0.982 and phi, against
training responses with 10 % positives, 0.902 (tests/stability/test_comparators.py). When every
prediction is in one class κ is undefined and phi is 1. On few test objects the ICC is biased
low and highly variable.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import InvalidParameterError
from ._checks import check_on_undefined
from ._counting import category_counts
from ._input import as_float, as_matrix, check_scale
from ._undefined import Coefficient, OnUndefined, undefined_result
from .distances import ordinal_positions, pair_distance_sums

__all__ = ["ICC_FORMS", "fleiss_kappa", "gwet_ac1", "icc", "krippendorff_alpha"]

ICC_FORMS: tuple[str, ...] = ("1,1", "2,1", "3,1", "1,k", "2,k", "3,k")
# pingouin < 0.7 names, pingouin >= 0.7 / McGraw–Wong names (A = absolute agreement,
# C = consistency)
_PINGOUIN_NAMES = {
    "ICC1": "1,1",
    "ICC2": "2,1",
    "ICC3": "3,1",
    "ICC1k": "1,k",
    "ICC2k": "2,k",
    "ICC3k": "3,k",
    "ICC(1,1)": "1,1",
    "ICC(A,1)": "2,1",
    "ICC(C,1)": "3,1",
    "ICC(1,k)": "1,k",
    "ICC(A,k)": "2,k",
    "ICC(C,k)": "3,k",
    "A,1": "2,1",
    "C,1": "3,1",
    "A,k": "2,k",
    "C,k": "3,k",
}


def _complete_counts(predictions: Any, categories: Any, name: str) -> tuple[np.ndarray, int]:
    pred = as_matrix(predictions)
    (counts,), _ = category_counts([(predictions, pred, "predictions", True)], categories, ordinal=False)
    if np.any(counts.sum(axis=1) != pred.shape[0]):
        raise InvalidParameterError(
            f"{name} needs every refit to predict every object; predictions has missing "
            "values. Use krippendorff_alpha, phi or psi, which skip missing values."
        )
    return counts, pred.shape[0]


def _observed_agreement(counts: np.ndarray, n_refits: int) -> float:
    """Mean over objects of the proportion of agreeing ordered pairs (Fleiss' P-bar)."""
    p_i = (np.sum(counts.astype(np.float64) ** 2, axis=1) - n_refits) / (n_refits * (n_refits - 1.0))
    return float(p_i.mean())


def fleiss_kappa(predictions: Any, categories: Any = None, *, on_undefined: OnUndefined = "raise") -> Coefficient:
    r"""Fleiss' κ for categorical predictions of R refits on N objects.

    Parameters
    ----------
    predictions : array_like of shape (refits, objects)
        Categorical predictions, no missing values.
    categories : sequence, optional
        Category list; must contain every observed value. Unused categories do not change κ.
    on_undefined : {"raise", "warn", "nan"}, default "raise"
        What to do when κ is undefined (all predictions in one category).

    Returns
    -------
    Coefficient

    See Also
    --------
    gwet_ac1 : the same observed agreement with another chance correction.
    krippendorff_alpha : allows missing predictions, ordinal and metric scales.
    phi, psi : per-object stability against a reference sample, which stays meaningful
        where κ fails (extreme prevalence, one category).

    Notes
    -----
    With :math:`n_{ic}` the number of refits putting object i in category c,
    :math:`P_i = (\sum_c n_{ic}^2 - R)/(R(R-1))`, :math:`\bar P = \operatorname{mean}_i P_i`,
    :math:`p_c = \sum_i n_{ic}/(NR)`, :math:`P_e = \sum_c p_c^2` and
    :math:`\kappa = (\bar P - P_e)/(1 - P_e)`. On a single object κ = −1/(R − 1) whatever the
    predictions.

    Examples
    --------
    >>> from confusionlab.stability import fleiss_kappa
    >>> float(fleiss_kappa([[0], [0], [1], [1], [1]]))  # one object, R = 5
    -0.25
    """
    on_undefined = check_on_undefined(on_undefined)
    counts, r = _complete_counts(predictions, categories, "fleiss_kappa")
    p_bar = _observed_agreement(counts, r)
    p_c = counts.sum(axis=0) / counts.sum()
    if np.count_nonzero(p_c) <= 1:
        return undefined_result(
            "fleiss_kappa",
            "all predictions fall in one category (expected agreement P_e = 1)",
            on_undefined,
        )
    p_e = float(np.sum(p_c**2))
    return Coefficient((p_bar - p_e) / (1.0 - p_e), "fleiss_kappa")


def gwet_ac1(predictions: Any, categories: Any = None, *, on_undefined: OnUndefined = "raise") -> Coefficient:
    r"""Gwet's AC1 for categorical predictions of R refits on N objects.

    Parameters
    ----------
    predictions : array_like of shape (refits, objects)
        Categorical predictions, no missing values.
    categories : sequence, optional
        Category list; K = its length (default: the observed categories).
    on_undefined : {"raise", "warn", "nan"}, default "raise"
        What to do when AC1 is undefined (K < 2).

    Returns
    -------
    Coefficient

    See Also
    --------
    fleiss_kappa : the same observed agreement with Fleiss' chance correction.
    krippendorff_alpha, phi, psi

    Notes
    -----
    :math:`AC_1 = (\bar P - P_e)/(1 - P_e)` with Fleiss' :math:`\bar P` and
    :math:`P_e = \sum_c p_c (1 - p_c) / (K - 1)`.

    Examples
    --------
    >>> from confusionlab.stability import gwet_ac1
    >>> round(float(gwet_ac1([[0, 0, 1], [0, 0, 1], [0, 1, 1]])), 4)
    0.561
    """
    on_undefined = check_on_undefined(on_undefined)
    counts, r = _complete_counts(predictions, categories, "gwet_ac1")
    k = counts.shape[1]
    if k < 2:
        return undefined_result("gwet_ac1", "fewer than two categories (pass categories= to fix K)", on_undefined)
    p_bar = _observed_agreement(counts, r)
    p_c = counts.sum(axis=0) / counts.sum()
    p_e = float(np.sum(p_c * (1.0 - p_c)) / (k - 1))
    return Coefficient((p_bar - p_e) / (1.0 - p_e), "gwet_ac1")


def krippendorff_alpha(
    predictions: Any,
    scale: str = "nominal",
    categories: Any = None,
    *,
    on_undefined: OnUndefined = "raise",
) -> Coefficient:
    r"""Krippendorff's α with refits as coders and objects as units; NaN = missing.

    Parameters
    ----------
    predictions : array_like of shape (refits, objects)
        Predictions; NaN/None marks a missing value. Objects with fewer than two
        predictions are not pairable and are ignored.
    scale : {"nominal", "ordinal", "metric"}
        Level of measurement (``"metric"`` is Krippendorff's interval metric).
    categories : sequence, optional
        Category list (ordered for ``"ordinal"``); unused categories do not change α.
    on_undefined : {"raise", "warn", "nan"}, default "raise"
        What to do when α is undefined (no pairable values, or D_e = 0).

    Returns
    -------
    Coefficient

    See Also
    --------
    fleiss_kappa, gwet_ac1 : for complete nominal predictions.
    phi, psi : the same mean-distance construction, per object, against the training
        responses or out-of-sample predictions instead of the pooled predictions.
    stability_curve : any of these measures against the number of learners.

    Notes
    -----
    With :math:`m_u` pairable values in unit u, :math:`n = \sum_u m_u`, per-unit counts
    :math:`n_{uc}` and totals :math:`n_c`,
    :math:`\alpha = 1 - (n-1)\sum_u \frac{n_u^\top \delta\, n_u}{m_u - 1} /
    \sum_{c,k} n_c n_k \delta_{ck}`. The ordinal δ uses the totals :math:`n_c` of the
    pairable values. For the metric scale the sums are computed from per-unit and total sums
    of squares, so no value × value array is built. On a single object α = 0.

    Examples
    --------
    >>> import numpy as np
    >>> from confusionlab.stability import krippendorff_alpha
    >>> pred = np.array([[1, 2, 3, 3], [1, 2, 3, 4], [np.nan, 2, 3, 4]])
    >>> round(float(krippendorff_alpha(pred, "metric")), 4)
    0.9153
    """
    on_undefined = check_on_undefined(on_undefined)
    scale = check_scale(scale)
    pred = as_matrix(predictions)
    if scale == "metric":
        x = as_float(pred, "predictions")
        present = ~np.isnan(x)
        m_u = present.sum(axis=0)
        x = x[:, m_u >= 2]
        present = present[:, m_u >= 2]
        m_u = m_u[m_u >= 2]
        n = float(m_u.sum())
        if n == 0:
            return undefined_result("krippendorff_alpha", "no object has two or more predictions", on_undefined)
        filled = np.where(present, x, 0.0)
        means = filled.sum(axis=0) / m_u
        ss_u = np.sum(np.where(present, (filled - means) ** 2, 0.0), axis=0)
        ss_tot = float(np.sum(np.where(present, (filled - filled.sum() / n) ** 2, 0.0)))
        # Σ_u Σ_{j≠l}(x−x')²/(m_u−1) = Σ_u 2 m_u SS_u/(m_u−1);  Σ_{a≠b} = 2 n SS_tot
        observed = float(np.sum(2.0 * m_u * ss_u / (m_u - 1.0)))
        expected = 2.0 * n * ss_tot
    else:
        (counts,), _ = category_counts(
            [(predictions, pred, "predictions", True)], categories, ordinal=scale == "ordinal"
        )
        counts = counts.astype(np.float64)
        m_u = counts.sum(axis=1)
        counts = counts[m_u >= 2]
        m_u = m_u[m_u >= 2]
        if m_u.size == 0:
            return undefined_result("krippendorff_alpha", "no object has two or more predictions", on_undefined)
        n = float(m_u.sum())
        n_c = counts.sum(axis=0)
        # ordinal δ(c, k) = (t_c − t_k)², t the mid-ranks of the pairable totals n_c
        positions = None if scale == "nominal" else ordinal_positions(n_c)
        observed = float(np.sum(pair_distance_sums(counts, positions) / (m_u - 1.0)))
        expected = float(pair_distance_sums(n_c, positions))
    if not expected > 0.0:
        return undefined_result(
            "krippendorff_alpha",
            "all pairable predictions are equal (expected disagreement D_e = 0)",
            on_undefined,
        )
    return Coefficient(1.0 - (n - 1.0) * observed / expected, "krippendorff_alpha")


def _normalise_form(form: Any) -> str:
    if isinstance(form, str):
        compact = form.replace(" ", "")
        f = _PINGOUIN_NAMES.get(compact, compact.replace("(", "").replace(")", ""))
        if f in ICC_FORMS:
            return f
    raise InvalidParameterError(
        f"form must be one of {ICC_FORMS} (or pingouin's names {tuple(_PINGOUIN_NAMES)}); got {form!r}"
    )


def icc(predictions: Any, form: str = "1,1", *, on_undefined: OnUndefined = "raise") -> Coefficient:
    r"""Shrout–Fleiss intraclass correlation with objects as targets and refits as raters.

    Parameters
    ----------
    predictions : array_like of shape (refits, objects)
        Metric predictions, no missing values.
    form : {"1,1", "2,1", "3,1", "1,k", "2,k", "3,k"}
        Shrout–Fleiss form; pingouin's names (``"ICC1"``, ``"ICC(A,1)"``, ``"ICC(C,k)"``,
        …) are accepted (A = absolute agreement = 2, C = consistency = 3).
        ``"1,1"`` (one-way random effects, single rater) is the measure used for predictive
        stability in the literature.
    on_undefined : {"raise", "warn", "nan"}, default "raise"
        What to do when the ICC is undefined (one object, or a zero denominator).

    Returns
    -------
    Coefficient

    See Also
    --------
    krippendorff_alpha : with ``scale="metric"``, allows missing predictions.
    psi : per-object stability against out-of-sample predictions, far less variable than
        the ICC on few test objects.

    Notes
    -----
    With n objects, k refits, and the two-way ANOVA mean squares MSR (objects), MSC
    (refits), MSE (residual) and MSW (within objects):

    ====== ===========================================================
    1,1    (MSR − MSW) / (MSR + (k − 1) MSW)
    2,1    (MSR − MSE) / (MSR + (k − 1) MSE + k (MSC − MSE) / n)
    3,1    (MSR − MSE) / (MSR + (k − 1) MSE)
    1,k    (MSR − MSW) / MSR
    2,k    (MSR − MSE) / (MSR + (MSC − MSE) / n)
    3,k    (MSR − MSE) / MSR
    ====== ===========================================================

    References
    ----------
    P. E. Shrout and J. L. Fleiss (1979), Intraclass correlations: uses in assessing rater
    reliability. Psychological Bulletin 86(2), 420–428.

    Examples
    --------
    >>> from confusionlab.stability import icc
    >>> round(float(icc([[1.0, 2.0, 3.0], [1.5, 2.5, 3.5]])), 4)
    0.8824
    """
    on_undefined = check_on_undefined(on_undefined)
    f = _normalise_form(form)
    x = as_float(as_matrix(predictions), "predictions")
    if np.isnan(x).any():
        raise InvalidParameterError("icc needs every refit to predict every object; predictions has missing values")
    k, n = x.shape
    if n < 2:
        return undefined_result("icc", "one object: the between-object variance cannot be estimated", on_undefined)
    grand = x.mean()
    obj_means = x.mean(axis=0)
    refit_means = x.mean(axis=1)
    ss_tot = float(np.sum((x - grand) ** 2))
    ss_r = float(k * np.sum((obj_means - grand) ** 2))
    ss_c = float(n * np.sum((refit_means - grand) ** 2))
    ss_e = max(ss_tot - ss_r - ss_c, 0.0)
    msr = ss_r / (n - 1)
    msw = (ss_tot - ss_r) / (n * (k - 1))
    msc = ss_c / (k - 1)
    mse = ss_e / ((n - 1) * (k - 1))
    num, den = {
        "1,1": (msr - msw, msr + (k - 1) * msw),
        "2,1": (msr - mse, msr + (k - 1) * mse + k * (msc - mse) / n),
        "3,1": (msr - mse, msr + (k - 1) * mse),
        "1,k": (msr - msw, msr),
        "2,k": (msr - mse, msr + (msc - mse) / n),
        "3,k": (msr - mse, msr),
    }[f]
    if den == 0.0:
        return undefined_result("icc", f"the ICC({f}) denominator is 0 (no variation in the predictions)", on_undefined)
    return Coefficient(num / den, "icc")
