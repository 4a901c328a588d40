"""Net benefit (Vickers & Elkin 2006) and net interventions avoided, as dcurves computes them.

At threshold probability ``p_t`` the harm of a false positive is ``w = p_t / (1 − p_t)`` times the
benefit of a true positive:

    NB = TP/N − w · FP/N − harm,

or, with a given prevalence π (a case-control sample), ``NB = π · TPR − w · (1 − π) · FPR − harm``
(dcurves' ``tp_rate`` and ``fp_rate``). "All" treats everyone (TPR = FPR = 1), "none" no one (NB = 0).
Net interventions avoided per patient: ``(NB − NB_all) / w`` (dcurves' ``nper = 1``; ±inf or NaN at
``p_t = 0``, as dcurves).
"""

from __future__ import annotations

import numpy as np

from ._counts import Counts

__all__ = ["NetBenefit", "net_benefit", "odds"]


def odds(thresholds: np.ndarray) -> np.ndarray:
    """``w = p_t / (1 − p_t)``, the exchange rate of a false positive for a true positive."""
    return thresholds / (1.0 - thresholds)


class NetBenefit:
    """dcurves' columns for one strategy: ``test_pos_rate``, ``tp_rate``, ``fp_rate``, ``net_benefit``."""

    def __init__(self, test_pos_rate: np.ndarray, tp_rate: np.ndarray, fp_rate: np.ndarray, harm: float, w: np.ndarray):
        self.test_pos_rate = test_pos_rate
        self.tp_rate = tp_rate
        self.fp_rate = fp_rate
        self.harm = harm
        self.net_benefit = tp_rate - w * fp_rate - harm


def net_benefit(c: Counts, thresholds: np.ndarray, prevalence: float, harm: float) -> NetBenefit:
    """The net benefit of a model's counts ``c`` at ``thresholds`` (``prevalence``: the observed p/N or
    the one given), in dcurves' arithmetic: ``tp_rate = TP/P · π``, ``fp_rate = FP/N₋ · (1 − π)``.

    >>> from ._counts import Counts
    >>> nb = net_benefit(Counts(np.array([8]), np.array([10]), 10, 90), np.array([0.1]), 0.1, 0.0)
    >>> round(float(nb.net_benefit[0]), 6)  # 8/100 − (1/9)·10/100
    0.068889
    """
    n_total = c.p + c.n
    test_pos_rate = (c.tp + c.fp) / n_total
    tp_rate = c.tp / c.p * prevalence
    fp_rate = c.fp / c.n * (1.0 - prevalence)
    return NetBenefit(test_pos_rate, tp_rate, fp_rate, harm, odds(thresholds))


def treat_all(thresholds: np.ndarray, n_total: int, prevalence: float) -> NetBenefit:
    """ "All": everyone treated (dcurves' risk 1 + ε, positive at every threshold)."""
    ones = np.ones(thresholds.shape)
    return NetBenefit(ones, ones * prevalence, ones * (1.0 - prevalence), 0.0, odds(thresholds))


def treat_none(thresholds: np.ndarray) -> NetBenefit:
    """ "None": no one treated (NB = 0)."""
    zeros = np.zeros(thresholds.shape)
    return NetBenefit(zeros, zeros, zeros, 0.0, odds(thresholds))


def interventions_avoided(nb: np.ndarray, nb_all: np.ndarray, thresholds: np.ndarray) -> np.ndarray:
    """``(NB − NB_all) / w`` per patient (dcurves' division: ±inf or NaN at ``p_t = 0``)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return (nb - nb_all) / odds(thresholds)
