"""The exact marginal PMF of a count under the slice models, its window and its pruned tails."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import (
    InvalidParameterError,
    check_memory,
)

__all__ = ["Marginal", "marginal", "prune_tails", "shared_marginal"]


def prune_tails(
    pmf: np.ndarray, tolerance: float, *, already: tuple[float, float] = (0.0, 0.0)
) -> tuple[int, int, float]:
    """Indices ``lo, hi`` (inclusive) keeping all but tails of mass <= tolerance/2 each.

    ``already`` is the mass known to lie beyond each end of ``pmf`` (left, right); it
    counts against that side's budget of ``tolerance/2``. Returns ``(lo, hi,
    dropped_mass)`` where ``dropped_mass`` is the mass dropped here (not ``already``);
    nothing is dropped when ``tolerance == 0``.

    >>> prune_tails(np.array([1e-20, 0.5, 0.5, 1e-20]), 1e-12)
    (1, 2, 2e-20)
    """
    if tolerance == 0 or pmf.size == 0:
        return 0, pmf.size - 1, 0.0
    left_budget = max(0.0, tolerance / 2 - already[0])
    right_budget = max(0.0, tolerance / 2 - already[1])
    left = np.cumsum(pmf)
    right = np.cumsum(pmf[::-1])
    lo = int(np.searchsorted(left, left_budget, side="right"))
    hi = pmf.size - 1 - int(np.searchsorted(right, right_budget, side="right"))
    if lo > hi:  # a single point carries almost everything
        lo = hi = int(np.argmax(pmf))
        return lo, hi, float(pmf.sum() - pmf[lo])
    dropped = float((left[lo - 1] if lo > 0 else 0.0) + (right[pmf.size - 2 - hi] if hi < pmf.size - 1 else 0.0))
    return lo, hi, dropped


#: Bytes per value of a marginal while it is computed (ratios, their cumulative sum, pmf).
_MARGINAL_BYTES = 40
#: The window of a marginal leaves out at most ``tolerance * _OUTSIDE`` on each side, so
#: the normalisation it assumes is off by at most that (relative); pruning then drops
#: tails up to ``tolerance / 2`` each, measured exactly inside the window.
_OUTSIDE = 1e-4


@dataclass(frozen=True)
class Marginal:
    """The PMF of a count on a window ``lo, lo + 1, …``, with the mass beyond it.

    ``pmf.sum() + dropped == 1`` (to rounding): ``dropped`` bounds the true mass outside
    the window, which is what the window's normalisation assumes.
    """

    lo: int
    pmf: np.ndarray
    dropped: float


def marginal(
    model: str,
    successes: int,
    trials: int,
    future: int,
    prior: float,
    tolerance: float,
    what: str,
    *,
    advice: str = "use a smaller future_size",
) -> Marginal:
    """PMF of the count of successes among ``future`` new trials, tails beyond ``tolerance`` dropped.

    ``binomial``: Bin(future, successes/trials). ``beta-binomial``: BetaBin(future,
    successes + prior, trials − successes + prior).

    The support is never materialised whole: a window of mean ± k·sd (k from the
    tolerance) is widened until the mass beyond each end is provably below
    ``tolerance · 1e-4``; above the memory limit it is refused before allocating,
    with ``advice`` (at ``tolerance=0``: the advice to prune). Inside the window the
    PMF is built from its ratios P(k+1)/P(k), summed as logarithms in ``log1p`` form
    (accurate at any size), and normalised together with the bound on the mass
    outside, so ``pmf.sum() + dropped == 1`` whatever the size (scipy's
    ``betabinom`` loses that near 1e12 trials). Each tail's bound is geometric:
    beyond the window the ratios keep decreasing, the PMF being log-concave there
    (binomial always; beta-binomial when both parameters are ≥ 1; a parameter below
    1 puts its end of the support inside the window). Then tails lighter than
    ``tolerance/2`` each, the window's bound included, are pruned.

    Examples
    --------
    >>> m = marginal("beta-binomial", 16, 20, 20, 1.0, 0.0, "positives")
    >>> m.lo, m.pmf.size, round(float(m.pmf.sum()), 12), m.dropped
    (0, 21, 1.0, 0.0)
    """
    if model == "binomial":
        if trials == 0:
            if future == 0:
                return Marginal(0, np.ones(1), 0.0)
            raise InvalidParameterError(
                f"the binomial model needs observed {what} to estimate a rate; use the "
                "beta-binomial model, whose prior covers an empty class"
            )
        rate = successes / trials
        if successes in (0, trials) or future == 0:  # a point mass (the whole support when tolerance is 0)
            at = future if successes == trials else 0
            if tolerance > 0:
                return Marginal(at, np.ones(1), 0.0)
            check_memory(
                float(future + 1) * 8, f"the full {what} marginal ({future + 1:,} counts)", "use a tolerance > 0"
            )
            pmf = np.zeros(future + 1)
            pmf[at] = 1.0
            return Marginal(0, pmf, 0.0)
        mean, var = future * rate, future * rate * (1 - rate)
        log_concave, a, b = True, 0.0, 0.0
    else:
        a, b = successes + prior, trials - successes + prior
        if future == 0:
            return Marginal(0, np.ones(1), 0.0)
        share = a / (a + b)  # written so that a huge prior (1e150) cannot overflow
        mean = future * share
        var = future * share * (b / (a + b)) * ((a + b + future) / (a + b + 1))
        log_concave, rate = a >= 1 and b >= 1, 0.0

    def log_ratios(k: np.ndarray) -> np.ndarray:
        """log P(k+1)/P(k)."""
        k = k.astype(np.float64)
        if model == "binomial":
            return np.log1p((future - 2 * k - 1) / (k + 1)) + (math.log(rate) - math.log1p(-rate))
        return _log_shifted(a, k + 1) - _log_shifted(b, future - k)

    if tolerance == 0:
        lo, hi = 0, future
    else:
        # in logarithms: tolerance · _OUTSIDE underflows to 0 below about 1e-300
        reach = math.sqrt(2 * (math.log(2) - math.log(tolerance) - math.log(_OUTSIDE))) + 1.0
        sd = math.sqrt(var)
        lo = max(0, math.floor(mean - reach * sd))
        hi = min(future, math.ceil(mean + reach * sd))
        if not log_concave:
            lo = 0 if a < 1 else lo
            hi = future if b < 1 else hi
    if tolerance == 0:
        advice = "use a tolerance > 0 (e.g. 1e-12): the dropped tail mass is bounded and reported"
    while True:
        size = hi - lo + 1
        check_memory(
            float(size) * _MARGINAL_BYTES,
            f"the {what} marginal over {size:,} counts ({lo:,}…{hi:,}, tolerance={tolerance:g})",
            advice,
        )
        logs = np.empty(size)
        logs[0] = 0.0
        np.cumsum(log_ratios(np.arange(lo, hi)), out=logs[1:])
        logs -= logs.max()
        shape = np.exp(logs)
        left = right = 0.0
        if lo > 0:
            q = math.exp(-float(log_ratios(np.array([lo - 1]))[0]))  # P(lo-1)/P(lo)
            left = math.inf if q >= 1 else float(shape[0]) * q / (1 - q)
        if hi < future:
            r = math.exp(float(log_ratios(np.array([hi]))[0]))  # P(hi+1)/P(hi)
            right = math.inf if r >= 1 else float(shape[-1]) * r / (1 - r)
        total = float(shape.sum())
        limit = total * tolerance * _OUTSIDE
        grow_left, grow_right = left > limit, right > limit
        if not (grow_left or grow_right):
            break
        width = hi - lo + 1
        lo = max(0, lo - width) if grow_left else lo
        hi = min(future, hi + width) if grow_right else hi
    norm = total + left + right
    pmf = shape / norm
    left_mass, right_mass = left / norm, right / norm
    first, last, dropped = prune_tails(pmf, tolerance, already=(left_mass, right_mass))
    return Marginal(lo + first, pmf[first : last + 1], dropped + left_mass + right_mass)


def _log_shifted(param: float, d: np.ndarray) -> np.ndarray:
    """``log((d − 1 + param) / d)`` for ``d ≥ 1`` and ``param > 0``, accurate at both ends.

    ``log1p((param − 1)/d)`` where that ratio is small; where ``d − 1 + param`` is tiny
    (a prior of 1e-300 with no observation: ``param − 1`` rounds to −1 and the
    ``log1p`` form would read ``log(0) = −∞``) the difference of logarithms of
    ``(d − 1) + param``, computed without the cancellation, is exact instead.

    >>> float(_log_shifted(1e-300, np.array([1.0]))[0])
    -690.7755278982137
    """
    x = (param - 1) / d
    near = x < -0.5
    exact = np.log(np.where(near, (d - 1) + param, 1.0)) - np.log(np.where(near, d, 1.0))
    return np.where(near, exact, np.log1p(np.where(near, 0.0, x)))


#: Small marginals kept for reuse by :func:`slice_model` (many groups × refits of an
#: evaluation share their (TP, p) and (TN, n)): at most this many, each of at most
#: :data:`_SHARED_MARGINAL_SIZE` counts (32 kB), read-only.
_SHARED_MARGINALS: dict[tuple[Any, ...], Marginal] = {}
_SHARED_MARGINAL_COUNT = 4096
_SHARED_MARGINAL_SIZE = 4096


def shared_marginal(
    model: str, successes: int, trials: int, future: int, prior: float, tolerance: float, what: str
) -> Marginal:
    """:func:`marginal`, kept for reuse when small: the same numbers, computed once.

    Many groups and refits of an evaluation share their (TP, p) and (TN, n); a marginal of
    at most 4,096 counts is kept (read-only) and handed out again for the same arguments.

    Parameters
    ----------
    model, successes, trials, future, prior, tolerance, what
        As for :func:`marginal`.

    Returns
    -------
    Marginal
        The marginal, its ``pmf`` read-only when it was kept.

    Examples
    --------
    >>> shared_marginal("beta-binomial", 16, 20, 20, 1.0, 0.0, "positives") is shared_marginal(
    ...     "beta-binomial", 16, 20, 20, 1.0, 0.0, "positives")
    True
    """
    key = (model, successes, trials, future, prior, tolerance, what)
    hit = _SHARED_MARGINALS.get(key)
    if hit is not None:
        return hit
    m = marginal(model, successes, trials, future, prior, tolerance, what)
    if m.pmf.size <= _SHARED_MARGINAL_SIZE:
        m.pmf.setflags(write=False)
        if len(_SHARED_MARGINALS) >= _SHARED_MARGINAL_COUNT:
            _SHARED_MARGINALS.clear()
        _SHARED_MARGINALS[key] = m
    return m
