"""Old home of the input layer, now :mod:`confusionlab._tables`: importing it warns (FutureWarning).

The names a report and an audit count with (:class:`BiasRequest`, imported here under its old
name ``CountRequest``, and :func:`count_cells`) are in :mod:`confusionlab.bias._request`; the
generic counting layer is :mod:`confusionlab._tables`. This module goes in the next release.
"""

from __future__ import annotations

import warnings

from ..._tables import Cells, TooManyCells, check_columns, column_names, missing_expr, to_narwhals
from .._request import KEYS, count_cells, facet_key
from .._request import BiasRequest as CountRequest
from .._rows import distinct_values, facet_expr, facet_max, feature_rows

__all__ = [
    "KEYS",
    "Cells",
    "CountRequest",
    "TooManyCells",
    "check_columns",
    "column_names",
    "count_cells",
    "distinct_values",
    "facet_expr",
    "facet_key",
    "facet_max",
    "feature_rows",
    "missing_expr",
    "to_narwhals",
]


def moved(old: str, new: str) -> None:
    """Warn (FutureWarning) that module ``old`` is now ``new``."""
    warnings.warn(
        f"{old} is moved to {new}; the old path will stop working in the next release",
        FutureWarning,
        stacklevel=3,
    )


moved("confusionlab.bias.engines", "confusionlab._tables")
