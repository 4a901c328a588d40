"""The smallest size whose exact half-width reaches a goal, although it is not monotone.

:func:`smallest_size` serves every planner (test sets here, facets in
:mod:`confusionlab.bias.planning`): bracket with a smooth approximation of the
half-width, then scan every candidate size in increasing order. Its Notes say why
the answer is the smallest size.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from .._deprecation import renamed_arguments

__all__ = ["MAX_SIZE", "TargetUnreachableError", "smallest_size", "stable_size"]

#: Largest test-set size searched by default (``max_size``): a half-width that no N up to
#: it reaches raises :class:`TargetUnreachableError` with the best N found.
MAX_SIZE = 1_000_000
#: Relative slack of every comparison with the goal. A half-width computed from float interval
#: ends exceeds an exactly met goal by a few ulps (recall at TPR 0.8, 250 examples, ± 0.1: the
#: half-width 25/250 computes as 0.10000000000000003), so without it sizes that meet the goal
#: exactly would be decided by rounding.
TIE_SLACK = 1e-12


def with_slack(half_width: float) -> float:
    """The goal a computed half-width is compared with: ``half_width`` and :data:`TIE_SLACK`.

    >>> 0.1 + 2e-17 <= with_slack(0.1), 0.1 * (1 + 1e-9) <= with_slack(0.1)
    (True, False)
    """
    return half_width * (1.0 + TIE_SLACK)


class TargetUnreachableError(ValueError):
    """No size up to the maximum searched reaches the requested half-width.

    A :class:`ValueError` about the data (the goal cannot be met), not about an argument.

    Attributes
    ----------
    best_N : int
        The size with the smallest half-width among those evaluated.
    best_half_width : float
        Its half-width.
    max_size : int
        The largest size searched.
    curve : dict
        N → half-width for every size evaluated.
    """

    def __init__(self, message: str, *, best_N: int, best_half_width: float, max_size: int, curve: dict) -> None:
        super().__init__(message)
        self.best_N = best_N
        self.best_half_width = best_half_width
        self.max_size = max_size
        self.curve = curve


@renamed_arguments(target="half_width")
def smallest_size(
    evaluate: Callable[[int], tuple[float, float]],
    approximate: Callable[[np.ndarray], np.ndarray],
    half_width: float,
    *,
    min_size: int,
    max_size: int,
    what: str = "N",
    infinite: Callable[[np.ndarray], np.ndarray] | None = None,
) -> tuple[int, float, dict[int, float]]:
    """The smallest size whose exact half-width is at most ``half_width``: bracket, then scan.

    Parameters
    ----------
    evaluate : callable
        ``size -> (half_width, granularity)``, exact (``granularity``: the relative change
        of the half-width if both interval ends moved by one atom).
    approximate : callable
        Vectorised smooth model of the half-width (the normal approximation with the
        rounded counts), cheap.
    half_width : float
        The goal: the largest half-width accepted (``target=`` is its old name).
    min_size, max_size : int
        The sizes searched.
    what : str
        The size's name, for messages.
    infinite : callable, optional
        Vectorised ``sizes -> bool``: the sizes whose exact half-width is known to be
        infinite (an interval end on an infinite value). They are recorded as such in the
        curve, never evaluated nor scanned.

    Returns
    -------
    (size, half_width, curve)
        ``curve`` maps every size evaluated exactly to its half-width.

    Raises
    ------
    TargetUnreachableError
        When no size up to ``max_size`` reaches ``half_width`` (with the best size found).

    Notes
    -----
    Why this is correct although the half-width is not monotone. Write the exact
    half-width as ``h(N) = ρ(N)·a(N)``, ``a`` the normal approximation computed with the
    same rounded counts as the criterion (so ``a`` already carries every jump caused by
    rounding p, TP and TN). What is left in ``ρ`` is (i) the skewness of the exact
    distribution, which changes slowly with N, and (ii) the discreteness of the quantiles:
    an interval end can move by at most one atom, a relative change of the granularity
    ``g`` measured on the evaluated distributions. The search

    1. brackets: finds on a geometric grid the first N with ``a(N) ≤ half_width``, evaluates
       ``h`` there and again at the N predicted by the calibrated ``ρ·a`` (two probes);
    2. sets ``ρ_lo = min ρ·(1 − g)`` over the evaluated sizes, where ``evaluate`` returns
       as ``g`` the granularity plus an allowance for the slow drift of ρ (the planner's:
       ``max(DRIFT_ALLOWANCE, 1/min(p, n))``, the order of the skewness and kurtosis
       corrections);
    3. scans, in increasing order, **every** size with ``ρ_lo·a(N) ≤ half_width`` (a size
       outside that set has ``h(N) > half_width`` unless its ρ fell below ρ_lo), each new
       evaluation lowering ``ρ_lo`` if needed, which can only add sizes to the scan;
    4. returns the smallest size evaluated with ``h ≤ half_width`` once every candidate below
       it has been evaluated.

    Sizes whose approximation is undefined (NaN) are always candidates. The result
    equals a scan of every size wherever ρ stays above ρ_lo; the tests compare it with
    such scans computed independently (plain numpy and scipy) over hundreds of random
    settings. Only the sizes near the crossing are evaluated: the search does not
    evaluate every N.
    """
    half_width = with_slack(half_width)
    curve: dict[int, float] = {}
    rhos: list[float] = []
    grains: list[float] = []

    def exact(size: int, a: float | None = None) -> float:
        if size not in curve:
            known = infinite is not None and bool(infinite(np.array([size], dtype=np.int64))[0])
            h, g = (math.inf, 1.0) if known else evaluate(size)
            curve[size] = h
            a = float(approximate(np.array([size]))[0]) if a is None else a
            if math.isfinite(h) and math.isfinite(a) and a > 0 and h > 0:
                rhos.append(h / a)
                grains.append(min(g, 0.5))
        return curve[size]

    # 1. bracket on a geometric grid, then two probes.
    grid = np.unique(np.round(np.geomspace(min_size, max_size, 96)).astype(np.int64))
    a_grid = approximate(grid)
    below = np.flatnonzero(a_grid <= half_width)
    n0 = int(grid[below[0]]) if below.size else max_size
    exact(n0)
    if rhos:
        ratio = rhos[-1] * float(approximate(np.array([n0]))[0]) / half_width
        # the half-width falls like 1/√N: the predicted size, capped before squaring can overflow
        n1 = max_size if not ratio < math.sqrt(max_size / n0) + 1 else math.ceil(n0 * ratio**2)
        exact(int(min(max(n1, min_size), max_size)))
    hi = int(min(max_size, max(curve) * 1.3 + 16))
    blocks = _Blocks(approximate, min_size)
    while True:
        rho_lo = min(rhos) * (1 - max(grains)) if rhos else 0.0
        successes = [s for s, h in curve.items() if h <= half_width]
        best = min(successes) if successes else None
        last = hi if best is None else best - 1
        evaluated = np.fromiter(curve, dtype=np.int64, count=len(curve))
        rescan = False
        for lo_b, hi_b in blocks.ranges(min_size, last):
            if rho_lo > 0 and blocks.none_below(lo_b, hi_b, half_width / rho_lo):
                continue
            sizes, approx = blocks.block(lo_b, hi_b)
            if rho_lo > 0:
                candidate = np.isnan(approx) | (rho_lo * approx <= half_width)
            else:
                candidate = np.ones(sizes.size, bool)
            if infinite is not None:
                candidate &= ~infinite(sizes)
            todo = np.flatnonzero(candidate & ~np.isin(sizes, evaluated))
            if not todo.size:
                continue
            # evaluate candidates in increasing order until ρ_lo moves (which changes the set)
            before = rho_lo
            for i in todo:
                h = exact(int(sizes[i]), float(approx[i]))
                if h <= half_width:
                    break
                if rhos and min(rhos) * (1 - max(grains)) < before:
                    break
            rescan = True
            break
        if rescan:
            continue
        if best is not None:
            return best, curve[best], dict(sorted(curve.items()))
        if hi >= max_size:
            finite = {s: h for s, h in curve.items() if not math.isnan(h)}
            best_size = min(finite, key=lambda s: (finite[s], s)) if finite else max_size
            raise TargetUnreachableError(
                f"no {what} up to {max_size:,} (max_size) reaches the half-width {half_width:g}; the best {what} "
                f"found is {best_size:,} with half-width {curve.get(best_size, math.nan):.4g}. Ask for a larger "
                f"half_width, a lower confidence, or raise max_size",
                best_N=best_size,
                best_half_width=curve.get(best_size, math.nan),
                max_size=max_size,
                curve=dict(sorted(curve.items())),
            )
        hi = int(min(max_size, hi * 1.5 + 16))
        end_approx = float(approximate(np.array([hi], dtype=np.int64))[0])
        if rho_lo > 0 and not rho_lo * end_approx <= half_width:
            exact(hi, end_approx)  # a probe at the new end keeps ρ calibrated where the scan goes next


#: Sizes whose approximation is held at once by the scans (a block); a block's extremes are
#: kept, so a block without candidates is skipped without being computed again.
BLOCK = 1 << 18
#: Blocks from this size on are first judged on a sample (every SAMPLE_STRIDE sizes and their
#: neighbours, the bounds widened by the largest step seen): a plan near 10⁸ does not compute
#: the approximation at every size below it. A block the sample cannot clear is scanned.
SAMPLED_FROM = 1 << 20
SAMPLE_STRIDE = 64


class _Blocks:
    """The sizes of a scan in blocks of :data:`BLOCK`: memory bounded whatever ``max_size``."""

    def __init__(self, approximate: Callable[[np.ndarray], np.ndarray], origin: int) -> None:
        self.approximate = approximate
        self.origin = origin
        self.extremes: dict[tuple[int, int], tuple[float, float, bool]] = {}

    def ranges(self, lo: int, hi: int, *, descending: bool = False) -> list[tuple[int, int]]:
        """The blocks covering ``lo … hi`` (aligned on the origin), as (first, last) sizes."""
        if hi < lo:
            return []
        first = (lo - self.origin) // BLOCK
        last = (hi - self.origin) // BLOCK
        out = []
        for b in range(first, last + 1):
            start = self.origin + b * BLOCK
            out.append((max(lo, start), min(hi, start + BLOCK - 1)))
        return out[::-1] if descending else out

    def block(self, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
        sizes = np.arange(lo, hi + 1, dtype=np.int64)
        approx = self.approximate(sizes)
        with np.errstate(invalid="ignore"):
            finite = approx[~np.isnan(approx)]
            self.extremes[(lo, hi)] = (
                float(finite.min()) if finite.size else math.inf,
                float(finite.max()) if finite.size else -math.inf,
                bool(finite.size < approx.size),
            )
        return sizes, approx

    def _extremes(self, lo: int, hi: int) -> tuple[float, float, bool]:
        if (lo, hi) not in self.extremes:
            if lo < SAMPLED_FROM or hi - lo < 4 * SAMPLE_STRIDE:
                self.block(lo, hi)
            else:
                self.extremes[(lo, hi)] = self._sampled(lo, hi)
        return self.extremes[(lo, hi)]

    def _sampled(self, lo: int, hi: int) -> tuple[float, float, bool]:
        """Bounds on the block's extremes from a sample every :data:`SAMPLE_STRIDE` sizes and
        their neighbours: widened by the stride times the largest relative step between
        neighbours seen (the rounding of the counts), times 4, plus the 1/√N trend."""
        at = np.unique(np.r_[np.arange(lo, hi, SAMPLE_STRIDE, dtype=np.int64), hi])
        near = np.minimum(at + 1, hi)
        a, b = self.approximate(at), self.approximate(near)
        if np.isnan(a).any() or np.isnan(b).any() or not (np.isfinite(a).all() and np.isfinite(b).all()):
            return -math.inf, math.inf, True  # scanned size by size
        with np.errstate(divide="ignore", invalid="ignore"):
            step = float(np.nanmax(np.abs(b / a - 1.0), initial=0.0))
        slack = 4.0 * SAMPLE_STRIDE * (step + 1.0 / lo)
        return float(a.min()) * (1.0 - slack), float(a.max()) * (1.0 + slack), False

    def none_below(self, lo: int, hi: int, bound: float) -> bool:
        """No size of the block has an approximation ≤ ``bound`` (nor an undefined one)."""
        low, _, has_nan = self._extremes(lo, hi)
        return not has_nan and not low <= bound

    def all_below(self, lo: int, hi: int, bound: float) -> bool:
        """Every size of the block has an approximation ≤ ``bound`` (none undefined)."""
        _, high, has_nan = self._extremes(lo, hi)
        return not has_nan and high <= bound


def stable_size(
    evaluate: Callable[[int], tuple[float, float]],
    approximate: Callable[[np.ndarray], np.ndarray],
    half_width: float,
    *,
    start: int,
    horizon: int,
    curve: dict[int, float],
) -> int:
    """The smallest size from which every size up to ``horizon`` meets ``half_width``.

    ``start`` is a size that meets it (the plan of :func:`smallest_size`); ``curve`` (the
    sizes evaluated so far, updated in place) calibrates the search. The answer is one
    more than the largest size in ``[start, horizon]`` whose exact half-width exceeds
    ``half_width`` (``start`` when there is none).

    Notes
    -----
    The mirror of :func:`smallest_size`'s scan: with ``h = ρ·a`` and
    ``ρ_hi = max ρ·(1 + g)`` over the evaluated sizes, a size with ``ρ_hi·a ≤ half_width``
    meets the goal unless its ρ rose above ρ_hi; every other size of the range (and
    every size whose approximation is undefined) is evaluated exactly, from the top
    down, each evaluation raising ρ_hi if needed (which can only add sizes). So every
    size of ``[start, horizon]`` is checked, exactly or by the calibrated bound.
    """
    half_width = with_slack(half_width)
    rhos: list[float] = []
    grains: list[float] = []

    def exact(size: int, a: float) -> float:
        h, g = evaluate(size)
        curve[size] = h
        if math.isfinite(h) and math.isfinite(a) and a > 0 and h > 0:
            rhos.append(h / a)
            grains.append(min(g, 0.5))
        return h

    blocks = _Blocks(approximate, start)
    done: set[int] = set()
    for size in sorted(s for s in curve if start <= s <= horizon):
        exact(size, float(approximate(np.array([size], dtype=np.int64))[0]))
        done.add(size)
    while True:
        rho_hi = max(rhos) * (1 + max(grains)) if rhos else math.inf
        failures = [s for s, h in curve.items() if start <= s <= horizon and not h <= half_width]
        last = max(failures) if failures else start - 1
        moved = False
        for lo_b, hi_b in blocks.ranges(last + 1, horizon, descending=True):
            if math.isfinite(rho_hi) and blocks.all_below(lo_b, hi_b, half_width / rho_hi):
                continue
            sizes, approx = blocks.block(lo_b, hi_b)
            with np.errstate(invalid="ignore"):
                candidate = ~(rho_hi * approx <= half_width)  # NaN (undefined) and inf·0 included
            todo = np.flatnonzero(candidate & ~np.isin(sizes, np.fromiter(done, dtype=np.int64, count=len(done))))
            if not todo.size:
                continue
            before = rho_hi
            for i in todo[::-1]:
                done.add(int(sizes[i]))
                h = exact(int(sizes[i]), float(approx[i]))
                if not h <= half_width or max(rhos, default=math.inf) * (1 + max(grains, default=0.0)) != before:
                    break
            moved = True
            break
        if not moved:
            return last + 1
