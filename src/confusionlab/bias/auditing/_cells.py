"""Counting an audit's cells: one group-by over every facet column, into a dense table of combinations."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..._tables import Cells, check_columns, to_narwhals
from ..._validation import InvalidParameterError
from .._request import BiasRequest, facet_key
from ..counts import _assemble, counted_cells
from ..selection import FacetSelection
from ._options import AuditArguments

__all__ = ["MAX_COMBINATIONS", "Combinations", "count_combinations"]

#: Most combinations of facet values an audit accepts (the count table is dense in them);
#: more are refused as soon as the counts come back.
MAX_COMBINATIONS = 1_000_000


@dataclass(frozen=True)
class Combinations:
    """The counts of every combination of facet values that occurs.

    ``counts`` is (G, L, P): combination × label value × prediction (the report's cells);
    ``combos[g]`` is combination g's tuple of facet values, and ``values_of[i]`` the sorted
    values of facet column i.
    """

    counts: np.ndarray
    combos: list[tuple[Any, ...]]
    values_of: list[list[Any]]
    label_values: tuple[Any, ...]
    label_positive: np.ndarray


def _sort_key(v: Any) -> tuple[str, Any]:
    return (type(v).__name__, v)


def count_combinations(data: Any, args: AuditArguments) -> Combinations:
    """One group-by over every facet column, in the engine, through the report's counting call.

    The combinations of facet values become a dense (G, L, P) table through the report's own
    assembly; more than :data:`MAX_COMBINATIONS` of them, or a reference value that does not
    occur, are refused.
    """
    label, predicted, columns = args.label, args.predicted, args.columns
    frame = to_narwhals(data)
    check_columns(frame, label=label, facets=columns, predicted=predicted)
    schema = frame.collect_schema()
    for arg, col in (("label", label), ("predicted", predicted)):
        if args.labels.threshold is not None and col is not None and not schema[col].is_numeric():
            raise InvalidParameterError(
                f"{arg}: column {col!r} is {schema[col]}, not numeric; label_threshold needs numbers"
            )
    request = BiasRequest(label, args.labels, None, predicted, dropna=args.dropna, facets=tuple(columns))
    cells = counted_cells(frame, request)

    combos = list(zip(*(cells.keys[facet_key(i)] for i in range(len(columns))), strict=True))
    combo_ids = {c: i for i, c in enumerate(dict.fromkeys(combos))}
    if len(combo_ids) > MAX_COMBINATIONS:
        raise InvalidParameterError(
            f"facets {columns!r} take {len(combo_ids):,} combinations of values, more than MAX_COMBINATIONS = "
            f"{MAX_COMBINATIONS:,}: bin or group the facets' values, or audit fewer facets at once"
        )
    as_cells = Cells(
        {"_f": [False] * len(combos), "_l": cells.keys["_l"], "_g": [combo_ids[c] for c in combos]}
        | ({"_p": cells.keys["_p"]} if predicted is not None else {}),
        cells.n,
    )
    assembly = BiasRequest(label, args.labels, FacetSelection(tuple(columns), ()), predicted, "_combo")
    float_pred = predicted is not None and schema[predicted].is_float() and not schema[label].is_float()
    table = _assemble(as_cells, assembly, float_predictions=float_pred)
    combo_of = list(combo_ids)
    values_of = [sorted({c[i] for c in combo_of}, key=_sort_key) for i in range(len(columns))]
    for col, ref in args.reference.items():
        i = columns.index(col)
        if ref not in values_of[i]:
            raise InvalidParameterError(
                f"reference: value {ref!r} does not occur in facet column {col!r} (values: {values_of[i][:20]!r})"
            )
    return Combinations(table.counts[:, 0], combo_of, values_of, table.label_values, table.label_positive)
