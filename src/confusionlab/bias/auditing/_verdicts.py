"""The verdict of each audited row, kept only when the counts could have contradicted it."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..counts import CountTable
from ..results import BiasMetric, verdict_of
from ._evaluate import _evaluated

__all__ = ["row_verdict"]

#: Metrics of the group sizes alone (class imbalance): every table of the group's size gives the
#: same value, and the sizes are what they judge, so a small group's CI verdict stands (a group of
#: one row among thousands is under-represented).
_SIZE_ONLY = ("CI",)


def _reach(
    a: np.ndarray, d: np.ndarray, t: CountTable, opts: dict[str, Any], names: list[str], what: str
) -> dict[str, list[float]]:
    """Values each metric takes on tables of the group's size: its own, every row in one cell, proportional to the rest.

    With the comparison's counts ``a`` fixed, a group of ``n`` rows can hold its rows
    in any of the cells; the tables with all ``n`` rows in one cell are the metric's
    most extreme, and the one closest to ``a``'s proportions (largest remainders) is
    its nearest to no bias. A verdict is only evidence when these reach both sides
    of the band (:func:`_either_way`): a group of one row has a KS of about 0.5 and a
    smoothed JS below 0.1 whatever its row is, so neither "bias" nor "no material
    bias" could have come out otherwise.
    """
    n = int(d.sum())
    tables = [d]
    for cell in range(d.size):
        alt = np.zeros_like(d)
        alt.reshape(-1)[cell] = n
        tables.append(alt)
    if a.sum() > 0:
        share = a.reshape(-1) / a.sum() * n
        near = np.floor(share).astype(d.dtype)
        near[np.argsort(near - share, kind="stable")[: n - int(near.sum())]] += 1
        tables.append(near.reshape(d.shape))
    reach: dict[str, list[float]] = {m: [] for m in names}
    for alt in tables:
        probe = CountTable(np.stack([a, alt])[None], t.label_values, t.label_positive, None, t.has_predictions)
        _, found = _evaluated(probe, opts, names, what)
        for m in names:
            if found[m].value is not None:
                reach[m].append(float(found[m].value))
    return reach


def _either_way(values: list[float], no_bias: float, margin: float) -> bool:
    """Whether ``values`` do not all fall on one side of the band ``no_bias ± margin``: below it, inside
    it, or above it (a band of width 0 is crossed by values on both sides of it).

    >>> _either_way([0.49, 0.51], 0.0, 0.1), _either_way([0.02, 0.5], 0.0, 0.1), _either_way([-0.2, 0.3], 0.0, 0.0)
    (False, True, True)
    """
    sides = {-1 if v < no_bias - margin else 1 if v > no_bias + margin else 0 for v in values}
    return len(sides) > 1


def row_verdict(
    name: str, bm: BiasMetric, level: float, margin: float, reach: list[float]
) -> tuple[float, float, str, bool]:
    """Metric ``name``'s row: its interval at ``level``, its verdict, and whether that was withdrawn.

    The verdict is :func:`~confusionlab.bias.results.verdict_of` the interval against
    ``no_bias ± margin``; "bias" or "no material bias" becomes "insufficient evidence" when the
    tables a group of that size could hold (``reach``, see :func:`_reach`) all fall on one side of
    the band. A row without a value has no interval and is "insufficient evidence".
    """
    if bm.value is None:
        return math.nan, math.nan, "insufficient evidence", False
    lo, hi = bm.interval(level)
    verdict = verdict_of(lo, hi, bm.no_bias, margin)
    decided = verdict != "insufficient evidence" and name not in _SIZE_ONLY
    if decided and not _either_way(reach, bm.no_bias, margin):
        return lo, hi, "insufficient evidence", True
    return lo, hi, verdict, False
