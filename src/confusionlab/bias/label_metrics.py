"""Pre-training bias metrics (labels only): CI, DPL, KL, JS, LP, TVD, KS, CDDL.

Every function is pure and vectorised: count arrays may carry any number of
leading axes (posterior draws, lattice points) and the result has those axes.
Where smclarify raises (an empty facet, no label value shared by both facets,
no positive or no negative label) the value is NaN; :mod:`.report` turns a NaN
observed value into a failed metric with its error text.

Conventions (smclarify 0.5): facet index 0 is *a* (the rest), 1 is *d* (the
sensitive values); label axes are ``[negative, positive]`` or one entry per
label value.
"""

from __future__ import annotations

import numpy as np

from ._arith import divide

__all__ = [
    "class_imbalance",
    "conditional_demographic_disparity",
    "difference_in_proportions",
    "jensen_shannon",
    "kolmogorov_smirnov",
    "kullback_leibler",
    "lp_norm",
    "total_variation_distance",
]


def _f(x: np.ndarray) -> np.ndarray:
    return np.asarray(x, dtype=np.float64)


def class_imbalance(sizes: np.ndarray) -> np.ndarray:
    r"""Class imbalance CI = (n_a − n_d)/(n_a + n_d).

    Parameters
    ----------
    sizes : array_like, shape (..., 2)
        Facet sizes ``[n_a, n_d]``.

    Returns
    -------
    ndarray, shape (...)
        NaN where a facet is empty.

    Examples
    --------
    >>> float(class_imbalance([20380, 9782]))
    0.3513692725946555
    """
    s = _f(sizes)
    na, nd = s[..., 0], s[..., 1]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where((na > 0) & (nd > 0), (na - nd) / (na + nd), np.nan)


def difference_in_proportions(outcomes: np.ndarray) -> np.ndarray:
    r"""DPL (labels) or DPPL (predictions): q_a − q_d.

    Parameters
    ----------
    outcomes : array_like, shape (..., 2, 2)
        Per facet (a, d) the counts ``[negative, positive]``.

    Examples
    --------
    >>> round(float(difference_in_proportions([[13984, 6396], [8670, 1112]])), 6)
    0.200159
    """
    o = _f(outcomes)
    n = o.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        q = o[..., 1] / n
    out = q[..., 0] - q[..., 1]
    return np.where((n[..., 0] > 0) & (n[..., 1] > 0), out, np.nan)


def _shared(dist: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per-facet label proportions and the mask of values present in both facets."""
    d = _f(dist)
    n = d.sum(axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = d / n
    pa, pd = p[..., 0, :], p[..., 1, :]
    mask = (d[..., 0, :] > 0) & (d[..., 1, :] > 0)
    ok = mask.any(axis=-1)
    return np.where(mask, pa, 1.0), np.where(mask, pd, 1.0), mask, ok


def kullback_leibler(dist: np.ndarray) -> np.ndarray:
    r"""KL(P_a ‖ P_d) = Σ P_a ln(P_a/P_d) over label values present in both facets.

    Parameters
    ----------
    dist : array_like, shape (..., 2, L)
        Per facet (a, d) the counts of each label value.

    Notes
    -----
    As smclarify 0.5: label values absent from either facet are dropped and the
    remaining proportions are *not* renormalised, so the value can be negative.
    NaN when no label value occurs in both facets.

    Examples
    --------
    >>> round(float(kullback_leibler([[13984, 6396], [8670, 1112]])), 6)
    0.143069
    """
    pa, pd, mask, ok = _shared(dist)
    terms = np.where(mask, pa * np.log(pa / pd), 0.0)
    return np.where(ok, terms.sum(axis=-1), np.nan)


def jensen_shannon(dist: np.ndarray) -> np.ndarray:
    r"""JS = ½[KL(P_a ‖ M) + KL(P_d ‖ M)], M = (P_a + P_d)/2, on shared label values.

    Examples
    --------
    >>> round(float(jensen_shannon([[13984, 6396], [8670, 1112]])), 6)
    0.030756
    """
    pa, pd, mask, ok = _shared(dist)
    m = 0.5 * (pa + pd)
    ta = np.where(mask, pa * np.log(pa / m), 0.0).sum(axis=-1)
    td = np.where(mask, pd * np.log(pd / m), 0.0).sum(axis=-1)
    return np.where(ok, 0.5 * (ta + td), np.nan)


def lp_norm(dist: np.ndarray, order: float = 2) -> np.ndarray:
    r"""LP = ‖P_a − P_d‖_p on shared label values (p = 2 for Clarify's LP).

    Examples
    --------
    >>> round(float(lp_norm([[13984, 6396], [8670, 1112]])), 6)
    0.283067
    """
    pa, pd, mask, ok = _shared(dist)
    diff = np.where(mask, np.abs(pa - pd), 0.0)
    if order == np.inf:
        val = diff.max(axis=-1)
    elif order == 1:
        val = diff.sum(axis=-1)
    else:
        val = (diff**order).sum(axis=-1) ** (1.0 / order)
    return np.where(ok, val, np.nan)


def total_variation_distance(dist: np.ndarray) -> np.ndarray:
    r"""TVD = ½‖P_a − P_d‖₁ on shared label values.

    Examples
    --------
    >>> round(float(total_variation_distance([[13984, 6396], [8670, 1112]])), 6)
    0.200159
    """
    return 0.5 * lp_norm(dist, 1)


def kolmogorov_smirnov(dist: np.ndarray) -> np.ndarray:
    r"""KS = max |P_a − P_d| over shared label values (not a CDF distance, as smclarify).

    Examples
    --------
    >>> round(float(kolmogorov_smirnov([[13984, 6396], [8670, 1112]])), 6)
    0.200159
    """
    return lp_norm(dist, np.inf)


def conditional_demographic_disparity(outcomes: np.ndarray) -> np.ndarray:
    r"""CDDL (labels) or CDDPL (predictions).

    CDD = (1/n) Σ_i n_i (D_i − A_i), with, in subgroup i, D_i the share of its
    negative outcomes that fall in facet d and A_i the share of its positive
    outcomes that fall in d (0 when the subgroup has none).

    Parameters
    ----------
    outcomes : array_like, shape (..., G, 2, 2)
        Per subgroup and facet (a, d) the counts ``[negative, positive]``.

    Returns
    -------
    ndarray
        NaN where there is no positive or no negative outcome at all (smclarify
        raises). An empty facet d gives 0.0, as in smclarify.

    Examples
    --------
    >>> round(float(conditional_demographic_disparity([[[5, 5], [9, 1]]])), 4)  # 9/14 - 1/6
    0.4762
    """
    o = _f(outcomes)
    neg, pos = o[..., 0], o[..., 1]  # (..., G, 2)
    n_neg, n_pos = neg.sum(axis=-1), pos.sum(axis=-1)  # (..., G)
    d_share = np.where(n_neg > 0, neg[..., 1] / np.where(n_neg > 0, n_neg, 1), 0.0)
    a_share = np.where(n_pos > 0, pos[..., 1] / np.where(n_pos > 0, n_pos, 1), 0.0)
    n_g = n_neg + n_pos
    val = divide((n_g * (d_share - a_share)).sum(axis=-1), n_g.sum(axis=-1))
    ok = (n_pos.sum(axis=-1) > 0) & (n_neg.sum(axis=-1) > 0)
    return np.where(ok, val, np.nan)
