"""A band around the decision curve, simultaneous over the thresholds, from Campbell's ROC band.

Campbell (1994): with probability ≥ √c each, the empirical distribution functions of the positives'
and the negatives' risks lie within the exact Kolmogorov–Smirnov quantiles ``d₊ = kstwo(P).ppf(√c)``
and ``d₋ = kstwo(N₋).ppf(√c)`` of the true ones everywhere; then at **every** threshold at once
TPR ∈ [TPR̂ − d₊, TPR̂ + d₊] and FPR ∈ [FPR̂ − d₋, FPR̂ + d₋] (each clipped to [0, 1]; the KS bound is
conservative where risks tie).

The prevalence's uncertainty. NB = π·TPR − w·(1 − π)·FPR − harm also moves with π, which a cohort
estimates: the three statements are then each made at ``c^(1/3)`` (:func:`statement_level`, which
says why the three hold together with probability ≥ c), π in its Clopper–Pearson interval. NB
increases in π (its coefficient TPR + w·FPR ≥ 0) and in TPR and decreases in FPR, so over the box

    lower = π_lo·TPR_lo − w·(1 − π_lo)·FPR_hi − harm,   upper = π_hi·TPR_hi − w·(1 − π_hi)·FPR_lo − harm.

With a given prevalence (a case-control sample) π is fixed and the two KS statements take √c
each. The band covers the whole true curve of one model (every threshold at once, so also the one
a rule later picks from the same data); "all" gets π's interval mapped, "none" is 0.

Measured (``benchmarks/bench_decision_band.py``: binormal and Beta risks, N = 100–2,000, π = 0.05–0.5,
200 test sets each, p_t = 0.01–0.99): the 95 % band covered the whole true curve in 98–100 % of the
test sets (conservative: KS bounds each class's whole distribution). Ignoring the prevalence's
uncertainty (π fixed at the observed P/N, KS at √c) covered only 42–56 %: at small p_t net benefit is
≈ π − w·(1 − π), which moves with π̂ by its binomial error whatever TPR and FPR do. The pointwise 95 %
intervals read as a band covered 44–68 %.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from scipy import stats

from ._counts import Counts

__all__ = ["DecisionBand", "decision_band", "ks_quantile", "prevalence_interval", "statement_level"]


def statement_level(confidence: float, statements: int) -> float:
    """The level of each of the band's ``statements`` so that all hold together at ``confidence``.

    The bands of decisions rest on up to three statements: the positives' empirical distribution
    function lies within its Kolmogorov–Smirnov distance of the true one everywhere, the same for the
    negatives, and (unless it is given) the prevalence lies in its Clopper–Pearson interval. Each is
    made at ``confidence ** (1/statements)`` (Šidák), which is exact here, not an approximation:

    * given the class counts ``(P, N)``, the positives' scores and the negatives' scores are two
      independent samples (the examples are drawn independently), so the two KS events are
      conditionally independent, and each holds with conditional probability ≥ its level whatever
      ``(P, N)`` is (the exact KS quantile of that many draws; ties only make it conservative);
      hence ``P(both | P, N) ≥ level²`` for every ``(P, N)``;
    * the prevalence's event is a function of ``P`` alone, with probability ≥ ``level``;
    * so ``P(all three) = E[1{π covered} · P(both | P, N)] ≥ level² · P(π covered) ≥ level³``.

    Bonferroni (``1 − (1 − c)/k`` each) needs no independence and is a little wider; Šidák's product
    is the sharper bound these independent statements allow.

    >>> round(statement_level(0.95, 3), 6), round(statement_level(0.95, 2), 6)
    (0.983048, 0.974679)
    """
    return confidence ** (1.0 / statements)


@lru_cache(maxsize=256)
def ks_quantile(size: int, level: float) -> float:
    """The exact quantile of the Kolmogorov–Smirnov statistic of ``size`` draws (Campbell's band's ``d``).

    >>> round(ks_quantile(20, 0.95), 4)
    0.2941
    """
    return float(stats.kstwo.ppf(level, size))


def prevalence_interval(p: int, n_total: int, level: float) -> tuple[float, float]:
    """The Clopper–Pearson interval of the prevalence at ``level`` (exact coverage ≥ level).

    >>> lo, hi = prevalence_interval(105, 750, 0.95)
    >>> round(lo, 4), round(hi, 4)
    (0.116, 0.1669)
    """
    tail = (1.0 - level) / 2.0
    lo = 0.0 if p == 0 else float(stats.beta.ppf(tail, p, n_total - p + 1))
    hi = 1.0 if p == n_total else float(stats.beta.ppf(1 - tail, p + 1, n_total - p))
    return lo, hi


@dataclass(frozen=True)
class DecisionBand:
    """A simultaneous band: strategy name → ``lower``, ``upper`` arrays over ``thresholds``.

    ``lower[name]``, ``upper[name]``; ``d_pos``, ``d_neg`` the KS half-widths per model; ``prevalence``
    the interval of π used (equal ends when it was given).
    """

    thresholds: np.ndarray
    lower: dict
    upper: dict
    confidence: float
    d_pos: dict
    d_neg: dict
    prevalence: tuple[float, float]

    def __iter__(self):
        yield self.lower
        yield self.upper


def decision_band(
    counts: dict, thresholds: np.ndarray, harm: dict, prevalence: float | None, confidence: float
) -> DecisionBand:
    """The band of every model's curve (each simultaneous over the thresholds) and of "all"."""
    first = next(iter(counts.values()))
    p, n = first.p, first.n
    w = thresholds / (1.0 - thresholds)
    if prevalence is None:
        level = statement_level(confidence, 3)
        pi_lo, pi_hi = prevalence_interval(p, p + n, level)
    else:
        level = statement_level(confidence, 2)
        pi_lo = pi_hi = prevalence
    lower, upper, d_pos, d_neg = {}, {}, {}, {}
    for name, c in counts.items():
        lower[name], upper[name], d_pos[name], d_neg[name] = _model_band(c, w, pi_lo, pi_hi, level, harm[name])
    k = 1.0 / (1.0 - thresholds)
    lower["all"], upper["all"] = (pi_lo - thresholds) * k, (pi_hi - thresholds) * k
    lower["none"] = upper["none"] = np.zeros(thresholds.shape)
    return DecisionBand(thresholds, lower, upper, confidence, d_pos, d_neg, (pi_lo, pi_hi))


def _model_band(c: Counts, w: np.ndarray, pi_lo: float, pi_hi: float, level: float, harm: float):
    d_p, d_n = ks_quantile(c.p, level), ks_quantile(c.n, level)
    tpr, fpr = c.tp / c.p, c.fp / c.n
    tpr_lo, tpr_hi = np.clip(tpr - d_p, 0, 1), np.clip(tpr + d_p, 0, 1)
    fpr_lo, fpr_hi = np.clip(fpr - d_n, 0, 1), np.clip(fpr + d_n, 0, 1)
    lower = pi_lo * tpr_lo - w * (1 - pi_lo) * fpr_hi - harm
    upper = pi_hi * tpr_hi - w * (1 - pi_hi) * fpr_lo - harm
    return lower, upper, d_p, d_n
