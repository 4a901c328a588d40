"""The decision job's ``data=``: the (group, true label, score) table counted by the engine, then the
tie blocks the array path finds.

The count table of a score column *is* its tie blocks: every distinct score with how many
positives and negatives have it, so the candidates, their counts and every statement of a
:class:`~confusionlab.decision.ThresholdChoice` are the array path's exactly. The decision curve
counts (true label, each model's risk, group) in one aggregation (:data:`CURVE_DOOR`) and each
model's tie blocks give its counts at every threshold (``_counts.counts_from_blocks``), so every
number of a :class:`~confusionlab.decision.DecisionCurve` equals the array path's too.
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
from ._choice import choice_from_blocks, grouped_choice, positive_rows
from ._choice_result import ThresholdChoice
from ._counts import counts_from_blocks
from ._curve import _refuse_one_class, from_counts_by_model
from ._grouped_choice import GroupedThresholdChoice
from ._options import ChoiceOptions, CurveOptions

__all__ = ["CHOICE_DOOR", "CURVE_DOOR", "choice_from_counts", "curve_from_counts"]


# -- threshold choice --------------------------------------------------------------------------
def _count_scores(data: Any, columns: dict[str, str], limits: dict[str, int], options: ChoiceOptions) -> Table:
    """The (true label, score, group) table: more than :data:`MAX_DISTINCT_SCORES` scores refused before a
    cluster's table is brought here; labels and groups bounded by ``limits``."""
    if is_remote(data):
        count = distinct_at_most(data, columns["y_score"], MAX_DISTINCT_SCORES)
        if count > MAX_DISTINCT_SCORES:
            raise InvalidParameterError(
                f"y_score: column {columns['y_score']!r} has more than {MAX_DISTINCT_SCORES:,} distinct scores, "
                "more than a count table holds; round the scores (e.g. to 4 decimals) in the engine first"
            )
    check_distinct(data, columns, limits)
    return count_columns(data, columns)


#: choose_threshold's ``data=`` door: a label column, a score column, groups if given.
CHOICE_DOOR = Door(limits={"y_true": MAX_LABELS, "groups": MAX_GROUPS}, optional=("groups",), count=_count_scores)


def _scores(values: Any, column: str) -> np.ndarray:
    """The counted scores as finite floats; text or infinite values refused by name.

    >>> _scores(np.array(["a"]), "s")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: y_score: column 's' must hold real numbers (scores), got dtype <U1
    """
    raw = np.asarray(values)
    if raw.dtype.kind == "O":  # numbers held as objects (an engine's decimals, ints mixed with floats)
        try:
            raw = raw.astype(np.float64)
        except (TypeError, ValueError):
            raw = raw.astype(str)
    if raw.dtype.kind not in "iuf":
        raise InvalidParameterError(
            f"y_score: column {column!r} must hold real numbers (scores), got dtype {raw.dtype}"
        )
    v = raw.astype(np.float64) + 0.0
    if not np.isfinite(v).all():
        raise InvalidParameterError(f"y_score: column {column!r} has infinite values; drop or fill those rows first")
    return v


def _blocks(v: np.ndarray, is_pos: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    uniq, inv = np.unique(v, return_inverse=True)
    pos = np.bincount(inv, weights=np.where(is_pos, n, 0), minlength=uniq.size).astype(np.int64)
    neg = np.bincount(inv, weights=np.where(is_pos, 0, n), minlength=uniq.size).astype(np.int64)
    return uniq, pos, neg


def choice_from_counts(table: Table, options: ChoiceOptions) -> ThresholdChoice | GroupedThresholdChoice:
    """:func:`~confusionlab.choose_threshold` of a counted (``y_true``, ``y_score``, ``groups``) table.

    Examples
    --------
    >>> import pandas as pd
    >>> from confusionlab import choose_threshold
    >>> df = pd.DataFrame({"y": [0, 0, 1, 1, 0, 1], "s": [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]})
    >>> c = choose_threshold("y", "s", cost=(1, 1), data=df)
    >>> c.threshold, c.confusion_matrix
    (0.35, ConfusionMatrix(tp=3, fn=0, fp=1, tn=2))
    """
    if int(table.n.sum()) == 0:
        raise InvalidParameterError("data has no rows: choosing a threshold needs positive and negative examples")
    is_pos, label = positive_rows(label_array(table.values["y_true"]), options.positive)
    v = _scores(table.values["y_score"], table.columns["y_score"])
    n = table.n
    if "groups" not in table.values:
        return choice_from_blocks(*_blocks(v, is_pos, n), label, options)
    names, codes = code_groups(label_array(table.values["groups"]))
    blocks = {name: _blocks(v[codes == k], is_pos[codes == k], n[codes == k]) for k, name in enumerate(names)}
    return grouped_choice(blocks, label, options)


# -- decision curve ----------------------------------------------------------------------------
#: Most cells (label × risks × group combinations) a Spark or Dask table brings here.
MAX_CURVE_CELLS = 2 * MAX_DISTINCT_SCORES


def _curve_columns(options: CurveOptions, *, y_true: Any, y_score: Any, groups: Any = None) -> dict[str, Any]:
    if isinstance(y_score, Mapping):
        if not y_score:
            raise InvalidParameterError("y_score is an empty dict; give {name: column} for at least one model")
        scores = {f"y_score[{k!r}]": c for k, c in y_score.items()}
    else:
        scores = {"y_score": y_score}
    return {"y_true": y_true, **scores, "groups": groups}


def _count_risks(data: Any, columns: dict[str, str], limits: dict[str, int], options: CurveOptions) -> Table:
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
    limits={"y_true": MAX_LABELS, "groups": MAX_GROUPS},
    optional=("groups",),
    columns=_curve_columns,
    count=_count_risks,
)


def curve_from_counts(table: Table, options: CurveOptions, prior_given: bool) -> Any:
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
        by_group[g] = {
            name: counts_from_blocks(*_blocks(r[mask], is_pos[mask], n[mask]), options.thresholds)
            for name, r in risks.items()
        }
    return from_counts_by_model(by_group, names, options, prior_given, label)
