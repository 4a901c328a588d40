"""Independent brute force for the paired model: every cell composition, exact rationals.

Nothing here imports confusionlab. The Dirichlet-multinomial PMF is rational for a
rational prior (Γ(c + a)/Γ(a) is the rising factorial a(a+1)…(a+c−1)), so the whole
enumeration is exact; metric values are compared through exact keys (Fractions, and
MCC by its signed square), 0/0 being 0 (the paper's convention).
"""

from __future__ import annotations

from fractions import Fraction as F
from math import factorial


def rising(a: F, k: int) -> F:
    out = F(1)
    for i in range(k):
        out *= a + i
    return out


def compositions(total: int, parts: int):
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in compositions(total - first, parts - 1):
            yield (first, *rest)


def cell_pmf(model: str, observed: tuple[int, ...], future: int, prior=(F(1, 2),) * 4) -> dict[tuple[int, ...], F]:
    """Exact PMF of the four cells of a new class of size ``future``."""
    out = {}
    if model == "paired-beta-binomial":
        alpha = [F(c) + a for c, a in zip(observed, prior, strict=True)]
        a0 = sum(alpha)
        for comp in compositions(future, 4):
            coef = F(factorial(future))
            for c, a in zip(comp, alpha, strict=True):
                coef *= rising(a, c) / factorial(c)
            out[comp] = coef / rising(a0, future)
    else:
        total = sum(observed)
        shares = [F(c, total) for c in observed]
        for comp in compositions(future, 4):
            coef = F(factorial(future))
            for c, q in zip(comp, shares, strict=True):
                coef *= q**c / factorial(c)
            if coef:
                out[comp] = coef
    return out


def key(metric: str, tp: int, fn: int, fp: int, tn: int) -> F:
    """An exact key, increasing in the metric's value."""
    p, n = tp + fn, fp + tn
    if metric == "accuracy":
        return F(tp + tn, p + n)
    if metric == "balanced_accuracy":
        return (F(tp, p) + F(tn, n)) / 2
    if metric == "f1":
        den = 2 * tp + fp + fn
        return F(2 * tp, den) if den else F(0)
    if metric == "mcc":
        den = (tp + fp) * (fn + tn) * (tp + fn) * (fp + tn)
        num = tp * tn - fp * fn
        return F(num * abs(num), den) if den else F(0)
    raise KeyError(metric)


def value(metric: str, tp: int, fn: int, fp: int, tn: int) -> float:
    k = key(metric, tp, fn, fp, tn)
    if metric == "mcc":
        return (1 if k > 0 else -1 if k < 0 else 0) * float(abs(k)) ** 0.5
    return float(k)


def paired(model: str, positives, negatives, metric: str, future=None):
    """(P(A > B), P(A = B), P(A < B), {difference: mass}, {value: mass of A}) exactly."""
    p_new, n_new = future if future is not None else (sum(positives), sum(negatives))
    # one prior on every cell whatever the counts (two classifiers that never disagreed included)
    prior = (F(1, 2),) * 4
    pos = cell_pmf(model, positives, p_new, prior)
    neg = cell_pmf(model, negatives, n_new, prior)
    greater = equal = less = F(0)
    diff: dict[float, F] = {}
    marg_a: dict[F, F] = {}
    for cp, wp in pos.items():
        ta, tb = cp[0] + cp[1], cp[0] + cp[2]
        for cn, wn in neg.items():
            fa, fb = cn[0] + cn[1], cn[0] + cn[2]
            w = wp * wn
            ka = key(metric, ta, p_new - ta, fa, n_new - fa)
            kb = key(metric, tb, p_new - tb, fb, n_new - fb)
            if ka > kb:
                greater += w
            elif ka == kb:
                equal += w
            else:
                less += w
            marg_a[ka] = marg_a.get(ka, F(0)) + w
            d = (
                0.0
                if ka == kb
                else value(metric, ta, p_new - ta, fa, n_new - fa) - value(metric, tb, p_new - tb, fb, n_new - fb)
            )
            d = round(d, 12)
            diff[d] = diff.get(d, F(0)) + w
    return greater, equal, less, diff, marg_a
