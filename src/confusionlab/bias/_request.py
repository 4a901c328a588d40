"""What a bias report or audit counts, compiled into the input layer's generic request.

A report asks for facet *d* (a :class:`~.selection.FacetSelection`) and, for CDDL/CDDPL, a
subgroup column; an audit asks for the raw values of every facet column at once, so that each
group it judges is a sum of cells. :class:`BiasRequest` says so in the terms of a report,
:meth:`BiasRequest.compile` turns it into a :class:`confusionlab._tables.CountRequest` (a
label threshold becomes a flag, facet *d* a flag, every other column its values), and
:func:`count_cells` counts it on any engine. The keys of the cells are :data:`KEYS` and, for
the audit's facet columns, :func:`facet_key`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._tables import Above, Cells, CountRequest, Key, OneOf, Values
from .._tables import count_cells as count_request
from .selection import FacetSelection, LabelSelection

__all__ = ["KEYS", "BiasRequest", "count_cells", "facet_key"]

KEYS = ("_f", "_l", "_p", "_g")
"""Key names of the cells of a :class:`BiasRequest`: facet d?, label, prediction, group (then :func:`facet_key`)."""


def facet_key(i: int) -> str:
    """Key name of the raw values of ``BiasRequest.facets[i]`` in the cells.

    >>> facet_key(2)
    '_k2'
    """
    return f"_k{i}"


@dataclass(frozen=True)
class BiasRequest:
    """What a report or an audit counts: the columns, and how facet and label are selected.

    Attributes
    ----------
    label : str
        Label column.
    labels : LabelSelection
        Positive label values or a threshold; the prediction is binarised the
        same way when a threshold is given.
    facet : FacetSelection or None
        Which rows form facet *d* (key ``"_f"``); None for no such key.
    predicted, group : str or None
        Prediction column (key ``"_p"``) and subgroup column (key ``"_g"``).
    dropna : bool
        Leave out rows with a missing value in any of these columns (else they are refused).
    facets : tuple of str
        Columns counted by their raw values (keys :func:`facet_key` ``(i)``).

    Examples
    --------
    >>> from confusionlab.bias.selection import label_selection
    >>> BiasRequest("y", label_selection([1]), None, "p", facets=("sex", "race")).keys
    ['_l', '_p', '_k0', '_k1']
    """

    label: str
    labels: LabelSelection
    facet: FacetSelection | None
    predicted: str | None = None
    group: str | None = None
    dropna: bool = False
    facets: tuple[str, ...] = ()

    @property
    def checked(self) -> list[tuple[str, str]]:
        """``(argument, column)`` pairs whose missing values are counted, each column once."""
        pairs = [("label", self.label)]
        pairs += [("facet", c) for c in (self.facet.columns if self.facet is not None else ())]
        pairs += [("facets", c) for c in self.facets]
        pairs += [(a, c) for a, c in (("predicted", self.predicted), ("group", self.group)) if c is not None]
        seen: dict[str, str] = {}
        for arg, col in pairs:
            seen.setdefault(col, arg)
        return [(arg, col) for col, arg in seen.items()]

    @property
    def keys(self) -> list[str]:
        """The key names this request produces."""
        return list(self.compile().keys)

    def compile(self) -> CountRequest:
        """The generic request: facet *d* and a thresholded label or prediction as flags, the rest as values.

        >>> from confusionlab.bias.selection import facet_selection, label_selection
        >>> req = BiasRequest("y", label_selection(label_threshold=0.5), facet_selection("s", ["F"]), "p")
        >>> for name, key in req.compile().keys.items():
        ...     print(name, key)
        _f OneOf(columns=('s',), values=('F',))
        _l Above(column='y', threshold=0.5)
        _p Above(column='p', threshold=0.5)
        """
        threshold = self.labels.threshold

        def label_like(column: str) -> Key:
            return Values(column) if threshold is None else Above(column, threshold)

        keys: dict[str, Key] = {}
        if self.facet is not None:
            f = self.facet
            keys["_f"] = (
                Above(f.columns[0], f.threshold) if f.threshold is not None else OneOf(f.columns, f.values or ())
            )
        keys["_l"] = label_like(self.label)
        if self.predicted is not None:
            keys["_p"] = label_like(self.predicted)
        if self.group is not None:
            keys["_g"] = Values(self.group)
        return CountRequest(keys | {facet_key(i): Values(c) for i, c in enumerate(self.facets)})


def count_cells(frame: Any, request: BiasRequest) -> Cells:
    """The cells of ``request`` on whatever engine holds ``frame`` (one aggregation).

    The values of the audit's facet columns come back as Python scalars on every engine
    (group labels are built from them).

    Examples
    --------
    >>> import pandas as pd
    >>> from confusionlab.bias.selection import facet_selection, label_selection
    >>> df = pd.DataFrame({"y": [1, 0, None], "s": ["F", "M", "M"]}).astype({"y": "Int64"})
    >>> req = BiasRequest("y", label_selection([1]), facet_selection("s", ["F"]), dropna=True)
    >>> c = count_cells(df, req)
    >>> c.n, c.missing, c.dropped
    ([1, 1], {'y': 1}, 1)
    >>> by_value = BiasRequest("y", label_selection([1]), None, facets=("s",), dropna=True)
    >>> c = count_cells(df, by_value)
    >>> sorted(zip(c.keys["_k0"], c.keys["_l"], c.n))
    [('F', 1, 1), ('M', 0, 1)]
    """
    cells = count_request(frame, request.compile())
    for i in range(len(request.facets)):
        key = facet_key(i)
        cells.keys[key] = [v.item() if isinstance(v, np.generic) else v for v in cells.keys[key]]
    return cells
