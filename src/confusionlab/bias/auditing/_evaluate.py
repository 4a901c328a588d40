"""Each audited group as a report's comparison: its count table, its evaluator and its metrics' values."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ..counts import CountTable
from ..evaluator import Evaluator
from ..results import PRETRAINING, BiasMetric
from ._cells import Combinations
from ._groups import Group

__all__ = ["Evaluated", "evaluate_groups"]


class Evaluated(NamedTuple):
    """A group with the comparison's count table, its evaluator and its metrics (posteriors not computed yet)."""

    facet: str
    text: str
    d: np.ndarray
    a: np.ndarray
    table: CountTable
    evaluator: Evaluator
    found: dict[str, BiasMetric]


def evaluate_groups(
    groups: list[Group], combos: Combinations, has_predictions: bool, opts: dict[str, Any], names: list[str]
) -> list[Evaluated]:
    """Every group's comparison of facet *d* (the group) with facet *a* (whom it is compared with) and its values.

    The values are cheap (the posteriors come later), so the Bonferroni m can count the rows
    actually judged: a row whose metric is undefined has no interval and is no claim.
    """
    evaluated = []
    for facet_name, label_text, d, a in groups:
        counts = np.stack([a, d])[None]
        t = CountTable(counts, combos.label_values, combos.label_positive, None, has_predictions)
        ev, found = _evaluated(t, opts, names, f"{facet_name} = {label_text}")
        evaluated.append(Evaluated(facet_name, label_text, d, a, t, ev, found))
    return evaluated


def _evaluated(
    t: CountTable, opts: dict[str, Any], names: list[str], what: str
) -> tuple[Evaluator, dict[str, BiasMetric]]:
    """The evaluator of one comparison and its metrics' values (posteriors not computed yet)."""
    ev = Evaluator(t, **opts, facet_text=what)
    found = dict(ev.pre(False)) if any(n in PRETRAINING for n in names) else {}
    if t.has_predictions and any(n not in PRETRAINING for n in names):
        found.update(ev.post(False))
    return ev, found
