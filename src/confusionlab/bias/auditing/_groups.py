"""The groups an audit judges: each value of each facet (against the rest or a reference) and intersections.

Every group is a sum of rows of the table of combinations, found through one code per
combination and column (linear in the number of combinations, whatever the number of groups).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from ._cells import Combinations
from ._options import AuditArguments

__all__ = ["Group", "audit_groups"]


class Group(NamedTuple):
    """One audited group: its facet and label, its counts ``d`` and the counts ``a`` it is compared with."""

    facet: str
    text: str
    d: np.ndarray
    a: np.ndarray


def _texts(values: Sequence[Any]) -> list[str]:
    """The group labels of a column's values: ``str`` of each, ``repr`` where two values print alike.

    A column holding both ``1`` and ``"1"`` has two groups; their labels must differ.

    >>> _texts([1, "1", "a"])
    ['1', "'1'", 'a']
    """
    shown = [str(v) for v in values]
    seen: dict[str, int] = {}
    for t in shown:
        seen[t] = seen.get(t, 0) + 1
    out = [repr(v) if seen[t] > 1 else t for v, t in zip(values, shown, strict=True)]
    if len(set(out)) < len(out):  # values whose repr agree too (e.g. two objects): number them
        out = [f"{t} #{k}" for k, t in enumerate(out)]
    return out


def _empty_note(present: np.ndarray, first: list[str], second: list[str], n_empty: int, shown: int = 20) -> str:
    """``"no rows for A & x, B & y"``: the combinations that never occur (the first ``shown`` of them)."""
    width = len(second)
    have = set(present.tolist())
    names = []
    for code in range(len(first) * width):
        if code not in have:
            names.append(f"{first[code // width]} & {second[code % width]}")
            if len(names) == shown:
                break
    more = f" and {n_empty - shown:,} more" if n_empty > shown else ""
    return f"no rows for {', '.join(names)}{more}"


class _Sums:
    """Sums of the combinations' counts by a code per combination; each facet column's codes and labels."""

    def __init__(self, combos: Combinations) -> None:
        self.counts = combos.counts
        self.total = combos.counts.sum(axis=0)
        self.codes, self.texts = [], []
        for i, values in enumerate(combos.values_of):
            index = {v: k for k, v in enumerate(values)}
            self.codes.append(
                np.fromiter((index[c[i]] for c in combos.combos), dtype=np.int64, count=len(combos.combos))
            )
            self.texts.append(_texts(values))

    def by(self, code: np.ndarray, size: int) -> np.ndarray:
        out = np.zeros((size, *self.counts.shape[1:]), dtype=self.counts.dtype)
        np.add.at(out, code, self.counts)
        return out


def _facet_groups(sums: _Sums, combos: Combinations, args: AuditArguments) -> list[Group]:
    """Each value of each facet column against the rest of the data, or against its reference value."""
    groups = []
    for i, col in enumerate(args.columns):
        values = combos.values_of[i]
        by_value = sums.by(sums.codes[i], len(values))
        ref_k = values.index(args.reference[col]) if col in args.reference else None
        for k in range(len(values)):
            if k == ref_k:
                continue
            d = by_value[k]
            groups.append(Group(col, sums.texts[i][k], d, sums.total - d if ref_k is None else by_value[ref_k]))
    return groups


def _intersection_groups(
    sums: _Sums, combos: Combinations, args: AuditArguments, i: int, j: int
) -> tuple[list[Group], list[str]]:
    """Each combination of values of facet columns i and j that occurs, and a note of those that do not."""
    columns, reference, values_of, texts = args.columns, args.reference, combos.values_of, sums.texts
    name = f"{columns[i]} & {columns[j]}"
    width = len(values_of[j])
    present, inverse = np.unique(sums.codes[i] * width + sums.codes[j], return_inverse=True)
    by_pair = sums.by(inverse.reshape(-1), present.size)
    ref_code = None
    if columns[i] in reference and columns[j] in reference:
        ref_code = values_of[i].index(reference[columns[i]]) * width + values_of[j].index(reference[columns[j]])
    ref_at = np.flatnonzero(present == ref_code)
    ref_counts = by_pair[ref_at[0]] if ref_at.size else np.zeros_like(sums.total)
    groups = []
    for k, code in enumerate(present.tolist()):
        if code == ref_code:
            continue
        d = by_pair[k]
        text = f"{texts[i][code // width]} & {texts[j][code % width]}"
        groups.append(Group(name, text, d, sums.total - d if ref_code is None else ref_counts))
    n_empty = len(values_of[i]) * width - present.size
    notes = [f"{name}: {_empty_note(present, texts[i], texts[j], n_empty)} (skipped)"] if n_empty else []
    return groups, notes


def audit_groups(combos: Combinations, args: AuditArguments) -> tuple[list[Group], list[str]]:
    """Every group of the audit in its order (facets, then intersections) and the notes of skipped combinations."""
    sums = _Sums(combos)
    groups = _facet_groups(sums, combos, args)
    notes: list[str] = []
    if args.intersections:
        for i, j in itertools.combinations(range(len(args.columns)), 2):
            more, skipped = _intersection_groups(sums, combos, args, i, j)
            groups += more
            notes += skipped
    return groups, notes
