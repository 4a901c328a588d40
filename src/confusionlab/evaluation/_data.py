"""``evaluate(data=...)``: the (group, true label, prediction) table counted by the engine, then an Evaluation.

The table is counted where the data lives (:data:`DOOR`, the input layer's
:class:`~confusionlab._tables.Door`: one aggregation in Spark or Dask, only the table leaves the
cluster); :func:`from_counts` then builds the classes, the groups and the per-group confusion
tables from it exactly as :func:`~confusionlab.evaluate` builds them from arrays (the same sort of
the classes and the group names, the same int64 tables), so every number is the array path's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._tables import MAX_GROUPS, MAX_LABELS, Door, Table, label_array
from .._validation import InvalidParameterError, check_labels_not_scores
from ..labels import code_groups
from ._clustered import check_clusterable, clustered_counts
from ._labels import ALL, _classes
from ._options import Options, check_simplex_fits, check_target_model, positive_and_metrics
from ._result import Evaluation

__all__ = ["DOOR", "evaluate_data", "from_counts"]


def _columns(
    options: Options, *, y_true: Any, y_pred: Any = None, groups: Any = None, refits: Any = None, cluster: Any = None
) -> dict:
    """evaluate's column arguments; ``refits`` (per object) and a missing ``y_pred`` refused."""
    if refits is not None:
        raise InvalidParameterError(
            "refits cannot come with data=: a refit's stability is per object, which a count table does not "
            "keep; evaluate the refits from arrays (evaluate(y_true, refits=R)), or one prediction column here"
        )
    if y_pred is None:
        raise InvalidParameterError('with data=, give y_pred, the column of predicted labels (y_pred="pred")')
    check_target_model(options)
    return {"y_true": y_true, "y_pred": y_pred, "groups": groups, "cluster": cluster}


#: evaluate's ``data=`` door: labels of at most :data:`MAX_LABELS` values (scores or a row id
#: refused before counting), at most :data:`MAX_GROUPS` groups.
DOOR = Door(
    limits={"y_true": MAX_LABELS, "y_pred": MAX_LABELS, "groups": MAX_GROUPS},
    optional=("groups", "cluster"),
    columns=_columns,
)


def from_counts(table: Table, options: Options) -> Evaluation:
    """:func:`~confusionlab.evaluate` of a (``y_true``, ``y_pred``, ``groups``) count table.

    Examples
    --------
    >>> import pandas as pd
    >>> from confusionlab import evaluate
    >>> df = pd.DataFrame({"y": [1, 1, 0, 0, 1, 0, 1, 0], "p": [1, 0, 0, 0, 1, 1, 1, 0]})
    >>> evaluate("y", "p", data=df).value["recall"]
    0.75
    """
    grouped = "groups" in table.values
    m = int(table.n.sum())
    if m < 2:
        raise InvalidParameterError(f"y_true needs at least 2 objects, got {m}")
    t_vals = label_array(table.values["y_true"])
    p_vals = label_array(table.values["y_pred"])
    check_labels_not_scores(t_vals, "y_true")
    check_labels_not_scores(p_vals, "y_pred")
    check_simplex_fits(options, m)
    classes = _classes(t_vals, [p_vals])
    classes, positive_index, chosen = positive_and_metrics(classes, options.positive, options, 1)
    k = len(classes)

    lookup = {c: i for i, c in enumerate(classes)}
    t_codes = np.array([lookup[v] for v in table.values["y_true"]], dtype=np.int64)
    p_codes = np.array([lookup[v] for v in table.values["y_pred"]], dtype=np.int64)
    if not grouped:
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
    clustered = None
    if "cluster" in table.values:
        check_clusterable(positive_index, chosen, refits=False)
        ids = label_array(table.values["cluster"])
        g_rows = g_codes if grouped else None
        clustered = clustered_counts(ids, t_codes, p_codes, positive_index, g_rows, n_real, weights=table.n)  # type: ignore[arg-type]
    tables = np.zeros((n_real, k, k), dtype=np.int64)
    np.add.at(tables, (g_codes, t_codes, p_codes), table.n)
    if grouped:
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
        clustered=clustered,
        **options.evaluation_arguments(),
    )
    if options.method == "exact":  # the whole test set's lattice is the largest: refuse it now, as evaluate does
        evaluation._check_exact()
    return evaluation


def evaluate_data(
    data: Any, y_true: Any, y_pred: Any = None, *, groups: Any = None, refits: Any = None, options: Options
) -> Evaluation:
    """:func:`~confusionlab.evaluate` of the columns ``y_true``, ``y_pred``, ``groups`` of ``data``, with
    ``options`` checked by :func:`~confusionlab.evaluation._options.check_options`: the door, then
    :func:`from_counts` (what ``evaluate(data=...)`` does).

    Examples
    --------
    >>> import pandas as pd
    >>> from confusionlab.evaluation._options import check_options
    >>> df = pd.DataFrame({"y": [1, 1, 0, 0, 1, 0, 1, 0], "p": [1, 0, 0, 0, 1, 1, 1, 0]})
    >>> options = check_options(model="beta-binomial", method="auto", metrics=None, target="next_test_set",
    ...                         tolerance=1e-12, prior=None, n_draws=100, random_state=0, min_class_size=10,
    ...                         progress=False)
    >>> evaluate_data(df, "y", "p", options=options).value["recall"]
    0.75
    """
    return from_counts(DOOR(data, options, y_true=y_true, y_pred=y_pred, groups=groups, refits=refits), options)
