"""``evaluate(data=...)``: the (group, true label, prediction) table counted by the engine, then an Evaluation.

The table is counted where the data lives (:func:`confusionlab._tables.count_columns`:
one aggregation in Spark or Dask, only the table leaves the cluster); the classes, the
groups and the per-group confusion tables are then built from it exactly as
:func:`~confusionlab.evaluate` builds them from arrays (the same sort of the classes and the
group names, the same int64 tables), so every number is the array path's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import (
    InvalidParameterError,
    check_labels_not_scores,
)
from ..labels import code_groups
from ._labels import ALL, MAX_GROUPS, _classes
from ._options import Options, check_simplex_fits, check_target_model, positive_and_metrics
from ._result import Evaluation

__all__ = ["check_column_name", "evaluate_data", "label_array"]


def check_column_name(value: Any, name: str, *, optional: bool = False) -> str | None:
    """A column name of ``data=`` (a string), or an InvalidParameterError naming the argument."""
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise InvalidParameterError(
            f"with data=, {name} is a column name (a string), got {type(value).__name__}; e.g. "
            f'{name}="{name}" — or pass the arrays without data='
        )
    return value


def label_array(values: list[Any]) -> np.ndarray:
    """The distinct labels of a table column as the array path reads such a column (object for text)."""
    arr = np.asarray(values)
    if arr.dtype.kind in "USO":
        arr = np.asarray(values, dtype=object)
    return arr


def evaluate_data(
    data: Any,
    y_true: Any,
    y_pred: Any = None,
    *,
    groups: Any = None,
    refits: Any = None,
    positive: Any = None,
    options: Options,
) -> Evaluation:
    """:func:`~confusionlab.evaluate` of the columns ``y_true``, ``y_pred``, ``groups`` of ``data``.

    ``options`` are :func:`~confusionlab.evaluate`'s other arguments, checked once by
    :func:`~confusionlab.evaluation._options.check_options` (``evaluate`` calls this with them).

    Examples
    --------
    >>> import pandas as pd
    >>> from confusionlab import evaluate
    >>> df = pd.DataFrame({"y": [1, 1, 0, 0, 1, 0, 1, 0], "p": [1, 0, 0, 0, 1, 1, 1, 0]})
    >>> evaluate("y", "p", data=df).value["recall"]
    0.75
    """
    from .._tables import MAX_LABELS, count_columns

    if refits is not None:
        raise InvalidParameterError(
            "refits cannot come with data=: a refit's stability is per object, which a count table does not "
            "keep; evaluate the refits from arrays (evaluate(y_true, refits=R)), or one prediction column here"
        )
    y_true = check_column_name(y_true, "y_true")
    if y_pred is None:
        raise InvalidParameterError('with data=, give y_pred, the column of predicted labels (y_pred="pred")')
    y_pred = check_column_name(y_pred, "y_pred")
    groups = check_column_name(groups, "groups", optional=True)
    check_target_model(options)

    columns = {"y_true": y_true, "y_pred": y_pred} | ({"groups": groups} if groups is not None else {})
    limits = {"y_true": MAX_LABELS, "y_pred": MAX_LABELS} | ({"groups": MAX_GROUPS} if groups is not None else {})
    table = count_columns(data, columns, limits=limits)  # scores or a row id as labels: refused before counting
    table.refuse_missing(columns)
    m = int(table.n.sum())
    if m < 2:
        raise InvalidParameterError(f"y_true needs at least 2 objects, got {m}")
    t_vals = label_array(table.values["y_true"])
    p_vals = label_array(table.values["y_pred"])
    check_labels_not_scores(t_vals, "y_true")
    check_labels_not_scores(p_vals, "y_pred")
    check_simplex_fits(options, m)
    classes = _classes(t_vals, [p_vals])
    classes, positive_index, chosen = positive_and_metrics(classes, positive, options, 1)
    k = len(classes)

    lookup = {c: i for i, c in enumerate(classes)}
    t_codes = np.array([lookup[v] for v in table.values["y_true"]], dtype=np.int64)
    p_codes = np.array([lookup[v] for v in table.values["y_pred"]], dtype=np.int64)
    if groups is None:
        group_names: list[Any] = [ALL]
        g_codes = np.zeros(t_codes.size, dtype=np.int64)
        n_real = 1
    else:
        g = label_array(table.values["groups"])
        names, g_codes = code_groups(g)
        if len(names) > MAX_GROUPS:
            raise InvalidParameterError(
                f"groups has {len(names):,} distinct values, more than {MAX_GROUPS:,}; is it continuous?"
            )
        sizes = np.bincount(g_codes, weights=table.n, minlength=len(names))
        single = [names[i] for i in np.flatnonzero(sizes < 2)]
        if single:
            raise InvalidParameterError(
                f"groups: {len(single)} group(s) have a single row ({', '.join(map(repr, single[:5]))}); "
                "a group needs at least two objects — merge or drop them"
            )
        group_names = [*names, ALL]
        n_real = len(names)
    tables = np.zeros((n_real, k, k), dtype=np.int64)
    np.add.at(tables, (g_codes, t_codes, p_codes), table.n)
    if groups is not None:
        tables = np.concatenate([tables, tables.sum(axis=0, keepdims=True)])
    evaluation = Evaluation(
        classes=classes,
        positive_index=positive_index,
        group_names=group_names,
        record_tables=tables,
        run_tables=None,
        runs=None,
        t_codes=np.zeros(0, dtype=np.int64),
        group_codes=None,
        metrics=chosen,
        **options.evaluation_arguments(),
    )
    if options.method == "exact":  # the whole test set's lattice is the largest: refuse it now, as evaluate does
        evaluation._check_exact()
    return evaluation
