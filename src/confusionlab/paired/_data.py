"""``compare_paired(data=...)`` and ``rank_models(data=...)``: the agreement cells counted by the engine.

The (true label, A's prediction, B's prediction) table — for a ranking (true label, each
classifier's prediction) — is counted where the data lives
(:func:`confusionlab._tables.count_columns`: one aggregation in Spark or Dask);
the labels are checked and the positive class chosen as the array path does, and the
2 × 4 agreement cells go to :func:`~confusionlab.paired.compare_paired_cells`, so the
numbers are the array path's. A ranking's 2**k pattern counts are expanded into one
boolean vector per classifier (k + 1 bytes per row, memory checked) and ranked by
:func:`~confusionlab.paired.rank_models` itself.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import InvalidParameterError, check_memory
from ..labels import distinct_labels, labels_equal, positive_label
from ._checks import check_binary_labels

__all__ = ["compare_paired_data", "rank_models_data"]


def _positive_bits(data: Any, columns: dict[str, str], positive: Any, what: str) -> tuple[dict[str, Any], Any]:
    """Per cell: whether each column's label is the positive class; and the counts."""
    from .._tables import MAX_LABELS, count_columns
    from ..evaluation._data import label_array

    table = count_columns(data, columns, limits=dict.fromkeys(columns, MAX_LABELS))  # refused before counting
    table.refuse_missing(columns)
    if int(table.n.sum()) == 0:
        raise InvalidParameterError(f"data has no rows: {what} needs at least one example")
    arrays = {arg: label_array(table.values[arg]) for arg in columns}
    labels = distinct_labels(*arrays.values())
    check_binary_labels(labels, positive, tuple(columns), what)
    positive = positive_label(labels, positive)
    return {arg: labels_equal(a, positive) for arg, a in arrays.items()}, table.n


def compare_paired_data(
    data: Any,
    y_true: Any,
    pred_a: Any,
    pred_b: Any,
    metric: Any,
    *,
    positive: Any = None,
    options: dict[str, Any] | None = None,
) -> Any:
    """:func:`~confusionlab.compare_paired` of three columns of ``data``.

    ``options`` are the keyword arguments :func:`~confusionlab.compare_paired` passes on to
    :func:`~confusionlab.paired.compare_paired_cells` (the same mapping its array path passes).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"y": [1] * 10 + [0] * 10, "a": [1] * 9 + [0] + [0] * 9 + [1],
    ...                    "b": [1] * 7 + [0] * 3 + [0] * 8 + [1] * 2})
    >>> r = compare_paired_data(df, "y", "a", "b", "balanced_accuracy", options={"target": "next_test_set"})
    >>> r.method, round(r.value, 3), round(r.prob_greater, 3)
    ('exact', 0.15, 0.793)
    """
    from ..evaluation._data import check_column_name
    from ._compare import compare_paired_cells

    columns = {
        name: check_column_name(v, name) for name, v in (("y_true", y_true), ("pred_a", pred_a), ("pred_b", pred_b))
    }
    bits, n = _positive_bits(data, columns, positive, "a paired comparison")  # type: ignore[arg-type]
    t, a, b = bits["y_true"], bits["pred_a"], bits["pred_b"]
    column = np.select([a & b, a & ~b, ~a & b], [0, 1, 2], 3)
    cells = np.zeros((2, 4), dtype=np.int64)
    np.add.at(cells, (np.where(t, 0, 1), column), n)
    return compare_paired_cells(cells, metric, **(options or {}))


def rank_models_data(
    data: Any, y_true: Any, predictions: Any, metric: Any, *, positive: Any = None, **options: Any
) -> Any:
    """:func:`~confusionlab.rank_models` of columns of ``data``: ``predictions`` maps each name to its column.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"y": [1] * 10 + [0] * 10, "a": [1] * 9 + [0] + [0] * 10,
    ...                    "b": [1] * 7 + [0] * 3 + [0] * 8 + [1] * 2})
    >>> r = rank_models_data(df, "y", {"a": "a", "b": "b"}, "accuracy", target="next_test_set")
    >>> r.best, r.method
    ('a', 'exact')
    """
    from ..evaluation._data import check_column_name
    from ._ranking import rank_models

    if isinstance(predictions, (list, tuple)):
        predictions = {c: c for c in predictions}
    if not isinstance(predictions, dict) or not predictions:
        raise InvalidParameterError(
            "with data=, predictions maps each classifier's name to its column ({'A': 'pred_a', 'B': 'pred_b'}) "
            f"or lists the columns; got {type(predictions).__name__}"
        )
    y_true = check_column_name(y_true, "y_true")
    columns = {"y_true": y_true} | {
        f"predictions[{k!r}]": check_column_name(v, f"predictions[{k!r}]") for k, v in predictions.items()
    }
    bits, n = _positive_bits(data, columns, positive, "a ranking")  # type: ignore[arg-type]
    rows = int(n.sum())
    check_memory(float(len(columns)) * rows, f"{len(columns)} boolean vectors of {rows:,} rows", "rank fewer rows")
    expanded = {arg: np.repeat(v, n) for arg, v in bits.items()}
    t = expanded.pop("y_true")
    preds = {k: expanded[f"predictions[{k!r}]"] for k in predictions}
    return rank_models(t, preds, metric, positive=True, **options)
