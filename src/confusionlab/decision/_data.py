"""``decision_curve(data=...)``: (group, true label, risk of each model) counted by the engine.

The table is counted where the data lives (:data:`CURVE_DOOR`, the input layer's
:class:`~confusionlab._tables.Door`: one aggregation in Spark or Dask). A decision curve needs no
more: each model's tie blocks (every distinct risk and how many positives and negatives have it)
give its counts at every threshold (``_counts.counts_from_blocks``), so every number equals the
array path's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from .._tables import (
    MAX_DISTINCT_SCORES,
    MAX_GROUPS,
    MAX_LABELS,
    Door,
    Table,
    argument_key,
    check_distinct,
    count_columns,
    distinct_at_most,
    is_remote,
    label_array,
)
from .._validation import InvalidParameterError
from ..labels import code_groups, distinct_labels, labels_equal, positive_label
from ._checks import check_risks
from ._counts import counts_from_blocks
from ._curve import _refuse_one_class, from_counts_by_model
from ._options import CurveOptions

__all__ = ["CURVE_DOOR", "from_counts"]

#: Most cells (label × risks × group combinations) a Spark or Dask table brings here.
MAX_CURVE_CELLS = 2 * MAX_DISTINCT_SCORES


def _columns(options: CurveOptions, *, y_true: Any, y_score: Any, groups: Any = None) -> dict[str, Any]:
    if isinstance(y_score, Mapping):
        if not y_score:
            raise InvalidParameterError("y_score is an empty dict; give {name: column} for at least one model")
        scores = {f"y_score[{k!r}]": c for k, c in y_score.items()}
    else:
        scores = {"y_score": y_score}
    return {"y_true": y_true, **scores, "groups": groups}


def _count(data: Any, columns: dict[str, str], limits: dict[str, int], options: CurveOptions) -> Table:
    if is_remote(data):
        for arg, column in columns.items():
            if arg.startswith("y_score") and distinct_at_most(data, column, MAX_DISTINCT_SCORES) > MAX_DISTINCT_SCORES:
                raise InvalidParameterError(
                    f"{arg}: column {column!r} has more than {MAX_DISTINCT_SCORES:,} distinct risks, more than a "
                    "count table holds; round the risks (e.g. to 4 decimals) in the engine first"
                )
    check_distinct(data, columns, limits)
    return count_columns(data, columns, max_cells=MAX_CURVE_CELLS)


#: decision_curve's ``data=`` door: a label column, one risk column per model, groups if given.
CURVE_DOOR = Door(
    limits={"y_true": MAX_LABELS, "groups": MAX_GROUPS}, optional=("groups",), columns=_columns, count=_count
)


def from_counts(table: Table, options: CurveOptions, prior_given: bool) -> Any:
    """:func:`~confusionlab.decision_curve` of a counted (``y_true``, risks …, ``groups``) table.

    >>> import pandas as pd
    >>> from confusionlab import decision_curve
    >>> df = pd.DataFrame({"y": [0, 1, 0, 1, 1, 0], "r": [0.1, 0.8, 0.3, 0.6, 0.9, 0.2]})
    >>> dc = decision_curve("y", "r", data=df, thresholds=[0.25, 0.5])
    >>> dc.net_benefit["model"].round(4).tolist()  # 3/6 − ⅓·1/6, then 3/6
    [0.4444, 0.5]
    """
    if int(table.n.sum()) == 0:
        raise InvalidParameterError("data has no rows: a decision curve needs positive and negative examples")
    t = label_array(table.values["y_true"])
    labels = distinct_labels(t)
    if len(labels) > 2 and options.positive is None:
        raise InvalidParameterError(
            f"y_true holds {len(labels)} distinct labels; pass positive=<label> for the outcome the risks predict"
        )
    label = positive_label(labels, options.positive)
    is_pos = labels_equal(t, label)
    args = [a for a in table.columns if a.startswith("y_score")]
    names = ["model" if a == "y_score" else argument_key(a) for a in args]
    risks = {
        name: check_risks(np.asarray(table.values[a], dtype=object), f"{a} (column {table.columns[a]!r})")
        for name, a in zip(names, args, strict=True)
    }
    n = table.n
    if "groups" in table.values:
        group_names, codes = code_groups(label_array(table.values["groups"]))
        masks = {g: codes == k for k, g in enumerate(group_names)}
    else:
        masks = {None: np.ones(n.shape, dtype=bool)}
    by_group = {}
    for g, mask in masks.items():
        pos = int(n[mask & is_pos].sum())
        total = int(n[mask].sum())
        if g is None and (pos == 0 or pos == total):
            raise InvalidParameterError("y_true must hold positive and negative examples")
        if g is not None:
            _refuse_one_class(g, pos, total)
        by_group[g] = {name: _blocks(r[mask], is_pos[mask], n[mask], options) for name, r in risks.items()}
    return from_counts_by_model(by_group, names, options, prior_given, label)


def _blocks(v: np.ndarray, is_pos: np.ndarray, n: np.ndarray, options: CurveOptions):
    uniq, inv = np.unique(v, return_inverse=True)
    pos = np.bincount(inv, weights=np.where(is_pos, n, 0), minlength=uniq.size).astype(np.int64)
    neg = np.bincount(inv, weights=np.where(is_pos, 0, n), minlength=uniq.size).astype(np.int64)
    return counts_from_blocks(uniq, pos, neg, options.thresholds)
