"""The statements that stay true although the threshold was chosen on the same data.

A band simultaneous over every threshold
----------------------------------------
Write ``TPR(t) = P(S ≥ t | positive)``, ``FPR(t) = P(S ≥ t | negative)`` and ``π`` the prevalence.
Three events, each of probability at least ``confidence ** (1/3)`` (Šidák, ``_band.statement_level``):

* the positives' empirical distribution function lies within ``d_p`` of the true one at every
  score — the exact finite-sample Kolmogorov–Smirnov quantile ``d_p = kstwo(p).ppf(confidence ** (1/3))``
  given the ``p`` positives (Campbell 1994's ROC band, ``scores/_band.py``, takes the same
  distance); then ``|TPR̂(t) − TPR(t)| ≤ d_p`` at every ``t`` at once;
* the same for the negatives, ``d_n = kstwo(n).ppf(confidence ** (1/3))``;
* ``π`` lies in its Clopper–Pearson interval at level ``confidence ** (1/3)``.

Given the class sizes the two KS statements are independent and the prevalence's holds over them,
so all three hold together with probability ``≥ confidence`` (``statement_level`` gives the
argument), whatever the score distributions (ties only make the KS bounds conservative). On that
event the true value at *every* threshold lies between the smallest and the largest of the objective
over the box ``TPR̂ ± d_p`` × ``FPR̂ ± d_n`` × ``π``'s interval (exact for the cost and the
monotone metrics, ``_objective``); at ``+∞`` the rates are 0 exactly. Hence the band holds at the
threshold chosen from the data too, and the interval at the chosen candidate is valid after
selection.

Why this band and not the posterior's: a simultaneous band from the posterior (a max-statistic
over Bayesian-bootstrap draws of the whole cost curve) is about half as wide but holds only as the
sample grows: measured at the chosen threshold (``benchmarks/coverage_threshold.py --alternative``,
200 test sets each) it covered 93–96 % with 500 examples or prevalence ½, and 75–76 % with 100
examples and few positives, where the choice exploits the tails. This band covered 99.5–100 % in
every setting measured (36 settings, N 100–5,000, prevalence 0.05–0.5). Its price is width:
``d ≈ 1.36/√size``, constant along the curve — about 3.4 times the pointwise interval's.

The plausible thresholds
------------------------
On the same event the truly best threshold ``t*`` is plausible: its candidate (the one standing for
the thresholds around ``t*``) has a lower bound no larger than the smallest upper bound of any
candidate (for a cost; the mirror for a metric). With constraints, a candidate is *possible* when
its constraint rates' upper bounds reach the bounds and *sure* when their lower bounds do; the best
threshold among those truly meeting the constraints is possible, and can be no worse than any sure
candidate. The plausible set is a confidence set for the best threshold at ``confidence``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ..metrics import get_metric
from ._band import ks_quantile, prevalence_interval, statement_level
from ._candidates import Candidates
from ._objective import Objective

__all__ = ["SimultaneousBand", "simultaneous_band"]


@dataclass(frozen=True)
class SimultaneousBand:
    """Per candidate, the true value's bounds that hold for every candidate at once, and the plausible ones.

    Attributes
    ----------
    lower, upper : numpy.ndarray
        The true objective's bounds at each candidate.
    possible, sure : numpy.ndarray of bool
        Whether the constraints may hold / surely hold there (all True without constraints).
    plausible : numpy.ndarray of bool
        The candidates the band cannot exclude as the best.
    d_pos, d_neg : float
        The Kolmogorov–Smirnov distances of the positives' and the negatives' rates.
    prevalence : (float, float)
        The prevalence's interval.
    confidence : float
        The level of the three statements together.
    """

    lower: np.ndarray
    upper: np.ndarray
    possible: np.ndarray
    sure: np.ndarray
    plausible: np.ndarray
    d_pos: float
    d_neg: float
    prevalence: tuple[float, float]
    confidence: float


def _boxes(c: Candidates, d_pos: float, d_neg: float) -> tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]:
    """Each candidate's TPR and FPR box; at +∞ (the last) both rates are 0 exactly."""
    tpr, fpr = c.tp / c.p, c.fp / c.n
    exact = np.isinf(c.thresholds)
    dp = np.where(exact, 0.0, d_pos)
    dn = np.where(exact, 0.0, d_neg)
    return (np.clip(tpr - dp, 0, 1), np.clip(tpr + dp, 0, 1)), (np.clip(fpr - dn, 0, 1), np.clip(fpr + dn, 0, 1))


def simultaneous_band(
    c: Candidates, objective: Objective, subject_to: Mapping[str, float], confidence: float
) -> SimultaneousBand:
    """The band of the true objective over every candidate at ``confidence``, and the plausible candidates.

    >>> from confusionlab.decision._candidates import candidates_from_blocks
    >>> c = candidates_from_blocks(np.arange(6.0), np.array([0, 0, 1, 0, 1, 1]), np.array([1, 1, 0, 1, 0, 0]))
    >>> band = simultaneous_band(c, Objective(cost=(1.0, 1.0)), {}, 0.95)
    >>> band.plausible.tolist()  # six examples say little
    [True, True, True, True, True, True, True]
    """
    level = statement_level(confidence, 3)
    d_pos, d_neg = ks_quantile(c.p, level), ks_quantile(c.n, level)
    prevalence = prevalence_interval(c.p, c.total, level)
    tpr, fpr = _boxes(c, d_pos, d_neg)
    lower, upper = objective.bounds(tpr, fpr, prevalence)
    possible = np.ones(c.size, dtype=bool)
    sure = np.ones(c.size, dtype=bool)
    for name, bound in subject_to.items():
        lo, hi = Objective(metric=get_metric(name)).bounds(tpr, fpr, prevalence)
        possible &= hi >= bound
        sure &= lo >= bound
    plausible = possible.copy()
    if sure.any():
        if objective.minimize:
            plausible &= lower <= upper[sure].min()
        else:
            plausible &= upper >= lower[sure].max()
    return SimultaneousBand(lower, upper, possible, sure, plausible, d_pos, d_neg, prevalence, confidence)
