"""Independent brute-force reference: plain-Python enumeration with exact numbers.

Nothing here imports confusionlab. Metric values are written from their textbook
definitions; rational metrics are ``Fraction``s, square-root metrics are
represented exactly by ``(sign, Fraction(square))``, and the one metric with a
difference of square roots (prevalence threshold) is evaluated with 60-digit
``Decimal`` arithmetic and grouped on 50 significant digits.
"""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal, getcontext
from fractions import Fraction as F
from math import comb

getcontext().prec = 60


def _sqrt_key(num: F, den: F):
    """sign(num) * sqrt(num**2 / den) as an exact key (None if undefined)."""
    if den == 0:
        return None
    sign = (num > 0) - (num < 0)
    return (sign, num * num / den)


INF = float("inf")


def _over(a: F, b: F):
    """a / b exactly; x/0 is ±inf (a float key), 0/0 is undefined (None)."""
    if b == 0:
        return None if a == 0 else (INF if a > 0 else -INF)
    return F(a) / F(b)


def exact_value(metric: str, tp: int, fn: int, fp: int, tn: int):
    """Exact hashable value key: a Fraction, (sign, square), ±inf for x/0, or None when 0/0."""
    p, n = tp + fn, fp + tn
    N = p + n
    pp, pn = tp + fp, fn + tn

    def ratio(a, b):
        return None if b == 0 else F(a, b)

    if metric == "accuracy":
        return ratio(tp + tn, N)
    if metric == "balanced_accuracy":
        return None if p == 0 or n == 0 else (F(tp, p) + F(tn, n)) / 2
    if metric == "informedness":
        return None if p == 0 or n == 0 else F(tp, p) + F(tn, n) - 1
    if metric == "markedness":
        return None if pp == 0 or pn == 0 else F(tp, pp) + F(tn, pn) - 1
    if metric == "f1":
        return ratio(2 * tp, 2 * tp + fp + fn)
    if metric == "f2":
        return ratio(5 * tp, 5 * tp + 4 * fn + fp)
    if metric == "jaccard":
        return ratio(tp, tp + fp + fn)
    if metric == "precision":
        return ratio(tp, pp)
    if metric == "npv":
        return ratio(tn, pn)
    if metric == "recall":
        return ratio(tp, p)
    if metric == "tnr":
        return ratio(tn, n)
    if metric == "fpr":
        return ratio(fp, n)
    if metric == "fnr":
        return ratio(fn, p)
    if metric == "cohen_kappa":
        po = F(tp + tn, N)
        pe = F(pp * p + pn * n, N * N)
        return None if pe == 1 else (po - pe) / (1 - pe)
    if metric == "lr_plus":
        return None if p == 0 or n == 0 else _over(F(tp, p), F(fp, n))
    if metric == "lr_minus":
        return None if p == 0 or n == 0 else _over(F(fn, p), F(tn, n))
    if metric == "diagnostic_odds_ratio":
        return _over(F(tp * tn), F(fp * fn))
    if metric == "mcc":
        return _sqrt_key(F(tp * tn - fp * fn), F(pp * pn * p * n))
    if metric == "g_mean":
        return None if p == 0 or n == 0 else (1 if tp * tn else 0, F(tp, p) * F(tn, n))
    if metric == "fowlkes_mallows":
        if pp == 0 or p == 0:
            return None
        return (1 if tp else 0, F(tp, pp) * F(tp, p))
    if metric == "prevalence_threshold":
        if p == 0 or n == 0 or tp == fp == 0:
            return None
        if tp * n == fp * p:  # TPR = FPR > 0: the continuous limit of the formula is 1/2
            return Decimal(format(Decimal("0.5"), ".50e"))
        tpr, fpr = Decimal(tp) / Decimal(p), Decimal(fp) / Decimal(n)
        value = ((tpr * fpr).sqrt() - fpr) / (tpr - fpr)
        return Decimal(format(value, ".50e"))
    raise KeyError(metric)


def as_float(key) -> float:
    if isinstance(key, tuple):
        sign, square = key
        return sign * float(square) ** 0.5
    return float(key)


def binomial_pmf(k: int, n: int, rate: F) -> F:
    return comb(n, k) * rate**k * (1 - rate) ** (n - k)


def _beta(a: int, b: int) -> F:
    """B(a, b) for positive integers, exactly."""
    from math import factorial

    return F(factorial(a - 1) * factorial(b - 1), factorial(a + b - 1))


def beta_binomial_pmf(k: int, n: int, a: int, b: int) -> F:
    return comb(n, k) * _beta(k + a, n - k + b) / _beta(a, b)


def slice_distribution(metric: str, tp_obs: int, fn_obs: int, fp_obs: int, tn_obs: int, model: str):
    """{value key: (Fraction mass, multiplicity)} plus the undefined mass and count.

    The binomial model uses the observed rates; the beta-binomial one the uniform
    prior. Full lattice, nothing pruned.
    """
    p, n = tp_obs + fn_obs, fp_obs + tn_obs
    if model == "binomial":
        wtp = [binomial_pmf(k, p, F(tp_obs, p)) for k in range(p + 1)]
        wtn = [binomial_pmf(k, n, F(tn_obs, n)) for k in range(n + 1)]
    else:
        wtp = [beta_binomial_pmf(k, p, tp_obs + 1, fn_obs + 1) for k in range(p + 1)]
        wtn = [beta_binomial_pmf(k, n, tn_obs + 1, fp_obs + 1) for k in range(n + 1)]
    groups: dict = defaultdict(lambda: [F(0), 0])
    undefined = [F(0), 0]
    for tp in range(p + 1):
        for tn in range(n + 1):
            key = exact_value(metric, tp, p - tp, n - tn, tn)
            slot = undefined if key is None else groups[key]
            slot[0] += wtp[tp] * wtn[tn]
            slot[1] += 1
    return dict(groups), tuple(undefined)
