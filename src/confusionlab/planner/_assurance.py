"""Planning with assurance: the interval reported *after* the test, over the test's outcomes.

With ``assurance=q`` the criterion at N is no longer the half-width of the planned
distribution but the probability, over the predictive distribution of the test's
outcomes (TP', TN'), that the interval reported from the observed outcome is at most
the requested half-width; :func:`_assurance_at` enumerates the outcomes exactly.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._validation import InvalidParameterError
from ..confusion import ConfusionMatrix
from ..models import slice_model
from ._criterion import _ONE_SIDED, _Evaluator
from ._search import with_slack

__all__ = ["DEFAULT_ASSURANCE_TOLERANCE", "MAX_OUTCOMES", "outcome_count"]

#: Default tail mass left out of the enumeration of test outcomes for ``assurance``
#: (per marginal, as ``tolerance``): the assurance is known to within this bound.
DEFAULT_ASSURANCE_TOLERANCE = 1e-3
#: Most test outcomes enumerated for one assurance evaluation (each needs a distribution).
MAX_OUTCOMES = 20_000
#: Seconds of enumeration before the progress bar appears.
PROGRESS_DELAY = 0.5


def _outcomes(
    ev: _Evaluator, N: int, tolerance: float
) -> tuple[ConfusionMatrix, Any, str | None, np.ndarray, np.ndarray]:
    cm = ev.matrix(N)
    sm = slice_model(cm, ev.model, prior=ev.prior, tolerance=tolerance)
    side = _ONE_SIDED.get(ev.metric.name)
    tp_pmf = sm.tp_pmf if side != "n" else np.ones(1)
    tn_pmf = sm.tn_pmf if side != "p" else np.ones(1)
    return cm, sm, side, tp_pmf, tn_pmf


def outcome_count(ev: _Evaluator, N: int, tolerance: float) -> int:
    """How many test outcomes the assurance criterion enumerates at N (each one exact distribution)."""
    _, _, _, tp_pmf, tn_pmf = _outcomes(ev, N, tolerance)
    return int(tp_pmf.size * tn_pmf.size)


def suggested_outcomes(count: int) -> int:
    """A ``max_outcomes`` with room above ``count`` (a quarter more, rounded up to thousands)."""
    return int(math.ceil(count * 1.25 / 1000) * 1000)


def _assurance_at(
    ev: _Evaluator, N: int, half_width: float, q: float, tolerance: float, max_outcomes: int, bar: Any = None
) -> tuple[float, float, float, float]:
    """The assurance criterion at N, exactly over the enumerated test outcomes.

    Outcomes (TP', TN') of the test are the predictive lattice of ``ev.model`` from the
    planned matrix, each marginal's tails of mass ≤ ``tolerance`` left out; each
    outcome's *reported* half-width is that of its own distribution's central interval
    (NaN, never meeting the goal, for an outcome whose binomial plug-in is degenerate:
    an all-correct test set reported with the binomial model has a zero-width interval).
    Returns ``(quantile, probability, unenumerated_mass, granularity)``: ``probability``
    = enumerated mass with reported half-width ≤ ``half_width`` (a lower bound, at most
    ``unenumerated_mass`` below the truth); ``quantile`` = the smallest x with
    enumerated mass of half-widths ≤ x at least q (inf if the enumeration holds less
    than q), so ``quantile ≤ half_width`` exactly when ``probability ≥ q``.

    ``bar``, a tqdm progress bar (or None), advances by one per outcome enumerated; its
    description names N.
    """
    cm, sm, side, tp_pmf, tn_pmf = _outcomes(ev, N, tolerance)
    count = tp_pmf.size * tn_pmf.size
    if count > max_outcomes:
        raise InvalidParameterError(
            f"max_outcomes: assurance at N = {N:,} would enumerate {count:,} test outcomes (one exact distribution "
            f"each), more than max_outcomes={max_outcomes:,}; pass max_outcomes={suggested_outcomes(count)}, or "
            "ask for a wider half_width"
        )
    widths = np.empty((tp_pmf.size, tn_pmf.size))
    if bar is not None:
        bar.set_description(f"assurance at N = {N:,}", refresh=False)
    for i in range(tp_pmf.size):
        for j in range(tn_pmf.size):
            tp = sm.tp_lo + i if side != "n" else cm.tp
            tn = sm.tn_lo + j if side != "p" else cm.tn
            widths[i, j] = ev.criterion(ConfusionMatrix(tp=tp, fn=cm.p - tp, fp=cm.n - tn, tn=tn))[0]
        if bar is not None:
            bar.update(tn_pmf.size)
    mass = np.multiply.outer(tp_pmf, tn_pmf).ravel()
    flat = widths.ravel()
    error = max(0.0, 1.0 - float(mass.sum()))
    probability = float(mass[flat <= with_slack(half_width)].sum())
    order = np.argsort(flat, kind="stable")
    cum = np.cumsum(mass[order])
    k = int(np.searchsorted(cum, q - 1e-12))
    quantile = float(flat[order[k]]) if k < flat.size else math.nan
    if not math.isfinite(quantile):  # the enumeration holds less than q, or the q-quantile is undefined
        return math.inf, probability, error, 1.0
    distinct = np.unique(flat[np.isfinite(flat)])
    i = int(np.searchsorted(distinct, quantile))
    around = distinct[max(i - 1, 0) : i + 2]
    gap = float(np.max(np.diff(around))) if around.size > 1 else 0.0
    return quantile, probability, error, (gap / quantile if quantile > 0 else 1.0)
