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
from ._criterion import _ONE_SIDED, DRIFT_ALLOWANCE, _Evaluator, counts_normal_half_width, degenerate
from ._search import with_slack

__all__ = ["DEFAULT_ASSURANCE_TOLERANCE", "MAX_OUTCOMES", "outcome_count"]

#: Default tail mass left out of the enumeration of test outcomes for ``assurance``
#: (per marginal, as ``tolerance``): the assurance is known to within this bound.
DEFAULT_ASSURANCE_TOLERANCE = 1e-3
#: Most test outcomes enumerated for one assurance evaluation (each gets its normal half-width; the
#: few near the goal and the quantile, a tenth or less at the sizes the search ends on, an exact one).
MAX_OUTCOMES = 100_000
#: Seconds of work (the exact search, the assurance enumeration) before the progress bar appears.
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


def _quantile(values: np.ndarray, mass: np.ndarray, q: float) -> float:
    """The smallest value whose cumulative mass (in sorted order, NaN last) reaches ``q − 1e-12``
    (NaN when the mass held is less)."""
    order = np.argsort(values, kind="stable")
    cum = np.cumsum(mass[order])
    k = int(np.searchsorted(cum, q - 1e-12))
    return float(values[order[k]]) if k < values.size else math.nan


#: Outcomes evaluated exactly first at each N to calibrate the ratio of exact to normal
#: half-width over the outcome box (a grid of this many rows and columns, corners included).
CALIBRATION_GRID = 5


def _assurance_at(
    ev: _Evaluator, N: int, half_width: float, q: float, tolerance: float, max_outcomes: int, bar: Any = None
) -> tuple[float, float, float, float]:
    """The assurance criterion at N over the enumerated test outcomes, evaluating exactly only the
    outcomes that can decide it.

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

    How. The normal (delta-method) half-width ``a`` of every outcome is computed at once
    (:func:`~confusionlab.planner._criterion.counts_normal_half_width`); the exact one is
    ``h = ρ·a`` with ρ near 1. A grid of outcomes across the box (:data:`CALIBRATION_GRID`²,
    its corners included) is evaluated exactly, and ``ρ_lo = min ρ·(1 − g)``,
    ``ρ_hi = max ρ·(1 + g)`` over the evaluated outcomes (``g`` their granularity plus the
    planner's drift allowance, as in :func:`~confusionlab.planner.smallest_size`) bound
    the others: ``h ∈ [ρ_lo·a, ρ_hi·a]``. Every outcome whose bounds leave it undecided —
    on either side of the goal, or inside the band where the q-quantile can lie, or the
    quantile's neighbouring values — is evaluated exactly, each evaluation widening the
    bounds if needed (which can only add outcomes), until none is left. So the answer is
    the full enumeration's (:func:`_assurance_full`) wherever ρ stays within the
    calibrated bounds; the tests compare the two. Cost: one exact distribution per
    outcome near the goal and the quantile, a few per cent of the outcomes at the sizes
    the search ends on; each round's outcomes are evaluated together
    (:meth:`~confusionlab.planner._criterion._Evaluator.half_widths`: for MCC and the
    F-scores many outcomes at once, about 0.1 ms each at N ≈ 10⁴ instead of ≈ 0.5 ms).

    ``bar``, a tqdm progress bar (or None), advances by one per outcome evaluated exactly;
    its description names N.
    """
    cm, sm, side, tp_pmf, tn_pmf = _outcomes(ev, N, tolerance)
    rows, cols = tp_pmf.size, tn_pmf.size
    count = rows * cols
    if count > max_outcomes:
        raise InvalidParameterError(
            f"max_outcomes: assurance at N = {N:,} would enumerate {count:,} test outcomes, more than "
            f"max_outcomes={max_outcomes:,}; pass max_outcomes={suggested_outcomes(count)}, or "
            "ask for a wider half_width"
        )
    if bar is not None:
        bar.set_description(f"assurance at N = {N:,}", refresh=False)
    tp_axis = sm.tp_lo + np.arange(rows) if side != "n" else np.array([cm.tp])
    tn_axis = sm.tn_lo + np.arange(cols) if side != "p" else np.array([cm.tn])
    TP = np.repeat(tp_axis, cols)
    TN = np.tile(tn_axis, rows)
    mass = np.multiply.outer(tp_pmf, tn_pmf).ravel()
    error = max(0.0, 1.0 - float(mass.sum()))
    goal = with_slack(half_width)
    m, p, n = ev.metric, cm.p, cm.n
    with np.errstate(all="ignore"):
        approx = counts_normal_half_width(
            m, p, n, TP, TN, confidence=ev.confidence, model=ev.model, prior=ev.prior, target=ev.target
        )
    approx = np.where(np.isfinite(approx) & (approx > 0), approx, np.nan)  # no bound from it: evaluated
    widths = np.full(count, np.nan)
    known = degenerate(ev.model, m, p, n, TP, TN)  # NaN exactly (the criterion is undefined there)
    known = np.broadcast_to(np.asarray(known, dtype=bool), (count,)).copy()
    rhos: list[float] = []
    grains: list[float] = []
    drift = max(DRIFT_ALLOWANCE, 1.0 / min(p, n))

    def evaluate(indices: np.ndarray) -> None:
        todo = indices[~known[indices]]  # a degenerate outcome is known (NaN) already
        if todo.size:
            results = ev.half_widths(p, n, TP[todo], TN[todo])
            h = np.array([r[0] for r in results])
            g = np.array([r[1] for r in results])
            widths[todo] = h
            known[todo] = True
            a = approx[todo]
            use = np.isfinite(h) & (h > 0) & np.isfinite(a)
            rhos.extend((h[use] / a[use]).tolist())
            grains.extend((np.minimum(g[use], 0.5) + drift).tolist())
        if bar is not None:
            bar.update(len(indices))

    grid_r = np.unique(np.round(np.linspace(0, rows - 1, CALIBRATION_GRID)).astype(np.intp))
    grid_c = np.unique(np.round(np.linspace(0, cols - 1, CALIBRATION_GRID)).astype(np.intp))
    evaluate((grid_r[:, None] * cols + grid_c[None, :]).ravel())
    evaluate(np.flatnonzero(np.isnan(approx) & ~known))
    while True:
        if rhos:
            g = max(grains)
            rho_lo, rho_hi, rho_mid = min(rhos) * (1 - g), max(rhos) * (1 + g), float(np.median(rhos))
        else:  # nothing calibrates: every outcome exactly
            rho_lo, rho_hi, rho_mid = 0.0, math.inf, 1.0
        with np.errstate(invalid="ignore"):
            lower = np.where(known, widths, rho_lo * approx)
            upper = np.where(known, widths, rho_hi * approx)
            mid = np.where(known, widths, rho_mid * approx)
        # an undefined width sorts last (never meets the goal)
        lower, upper, mid = (np.where(np.isnan(x), np.inf, x) for x in (lower, upper, mid))
        unknown = ~known
        todo = unknown & ~((upper <= goal) | (lower > goal))  # undecided at the goal
        # The quantile with every unknown outcome at its estimate: exact once no unknown outcome's
        # bounds hold it (each is then on its true side of it), and it is then a known width.
        quantile = _quantile(mid, mass, q)
        if math.isfinite(quantile):
            todo |= unknown & (lower <= quantile) & (upper >= quantile)
            # its neighbouring widths (the granularity): known, or no unknown outcome between
            below = known & (widths < quantile)
            beneath = unknown & (upper < quantile)
            if below.any():
                todo |= beneath & (upper >= widths[below].max())
            elif beneath.any():
                todo |= beneath & (upper >= upper[beneath].max())
            above = known & (widths > quantile) & np.isfinite(widths)
            over = unknown & (lower > quantile) & np.isfinite(lower)
            if above.any():
                todo |= over & (lower <= widths[above].min())
            elif over.any():
                todo |= over & (lower <= lower[over].min())
        pending = np.flatnonzero(todo)
        if not pending.size:
            break
        evaluate(pending)
    probability = float(mass[known & (widths <= goal)].sum() + mass[unknown & (upper <= goal)].sum())
    if not math.isfinite(quantile):  # the enumeration holds less than q, or the q-quantile is undefined
        return math.inf, probability, error, 1.0
    distinct = np.unique(widths[known & np.isfinite(widths)])
    i = int(np.searchsorted(distinct, quantile))
    around = distinct[max(i - 1, 0) : i + 2]
    gap = float(np.max(np.diff(around))) if around.size > 1 else 0.0
    return quantile, probability, error, (gap / quantile if quantile > 0 else 1.0)


def _assurance_full(
    ev: _Evaluator, N: int, half_width: float, q: float, tolerance: float, max_outcomes: int, bar: Any = None
) -> tuple[float, float, float, float]:
    """The assurance criterion at N, one exact distribution for every enumerated outcome (the slow path).

    :func:`_assurance_at` gives the same answer from the outcomes near the goal and the
    quantile only; this one is kept as its reference (the tests compare the two). Outcomes,
    reported half-widths and the returned ``(quantile, probability, unenumerated_mass,
    granularity)`` are as :func:`_assurance_at` describes.

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
