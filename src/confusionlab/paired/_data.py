"""``compare_paired(data=...)`` and ``rank_models(data=...)``: the agreement cells counted by the engine.

The (true label, A's prediction, B's prediction) table — for a ranking (true label, each
classifier's prediction) — is counted where the data lives (:data:`COMPARE_DOOR`,
:data:`RANK_DOOR`: the input layer's :class:`~confusionlab._tables.Door`, one aggregation in
Spark or Dask); the labels are checked and the positive class chosen as the array path does,
and the 2 × 4 agreement cells (a ranking's 2**k patterns per class) go to the computation the
array path ends in, so the numbers are the array path's.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from .._arrays import check_classifiers
from .._tables import MAX_LABELS, Door, Table, argument_key, label_array
from .._validation import InvalidParameterError
from ..labels import distinct_labels, labels_equal, positive_label
from ._checks import check_binary_labels
from ._cluster import clustered_classifiers
from ._compare import PairedComparison, from_cells
from ._counts import PairedCounts
from ._options import Options
from ._ranking import MAX_CLASSIFIERS, Ranking, rank_cells

__all__ = ["COMPARE_DOOR", "RANK_DOOR", "compare_from_counts", "rank_from_counts"]

#: compare_paired's ``data=`` door: three label columns of at most :data:`MAX_LABELS` values each.
COMPARE_DOOR = Door(limits=dict.fromkeys(("y_true", "pred_a", "pred_b"), MAX_LABELS), optional=("cluster",))


def _predictions(options: Options, *, y_true: Any, predictions: Any, cluster: Any = None) -> dict[str, Any]:
    """rank_models' column arguments: ``y_true`` and ``predictions[name]`` per classifier (a list: each
    column its own name)."""
    if isinstance(predictions, (list, tuple)):
        predictions = {c: c for c in predictions}
    if not isinstance(predictions, dict) or not predictions:
        raise InvalidParameterError(
            "with data=, predictions maps each classifier's name to its column ({'A': 'pred_a', 'B': 'pred_b'}) "
            f"or lists the columns; got {type(predictions).__name__}"
        )
    check_classifiers(predictions, MAX_CLASSIFIERS)
    return {"y_true": y_true, "cluster": cluster} | {f"predictions[{k!r}]": v for k, v in predictions.items()}


#: rank_models' ``data=`` door: ``y_true`` and one label column per classifier.
RANK_DOOR = Door(limits={"y_true": MAX_LABELS, "predictions": MAX_LABELS}, optional=("cluster",), columns=_predictions)


def _positive_bits(table: Table, options: Options, what: str) -> dict[str, np.ndarray]:
    """Per cell: whether each column's label is the positive class."""
    if int(table.n.sum()) == 0:
        raise InvalidParameterError(f"data has no rows: {what} needs at least one example")
    arrays = {arg: label_array(values) for arg, values in table.values.items()}
    labels = distinct_labels(*arrays.values())
    check_binary_labels(labels, options.positive, tuple(table.values), what)
    positive = positive_label(labels, options.positive)
    return {arg: labels_equal(a, positive) for arg, a in arrays.items()}


def compare_from_counts(table: Table, options: Options) -> PairedComparison:
    """:func:`~confusionlab.compare_paired` of a (``y_true``, ``pred_a``, ``pred_b``) count table.

    Examples
    --------
    >>> import pandas as pd
    >>> from confusionlab import compare_paired
    >>> df = pd.DataFrame({"y": [1] * 10 + [0] * 10, "a": [1] * 9 + [0] + [0] * 9 + [1],
    ...                    "b": [1] * 7 + [0] * 3 + [0] * 8 + [1] * 2})
    >>> r = compare_paired("y", "a", "b", "balanced_accuracy", data=df, target="next_test_set")
    >>> r.method, round(r.value, 3), round(r.prob_greater, 3)
    ('exact', 0.15, 0.793)
    """
    ids = table.values.get("cluster")
    labels = replace(table, values={k: v for k, v in table.values.items() if k != "cluster"})
    bits = _positive_bits(labels, options, "a paired comparison")
    t, a, b = bits["y_true"], bits["pred_a"], bits["pred_b"]
    column = np.select([a & b, a & ~b, ~a & b], [0, 1, 2], 3)
    cells = np.zeros((2, 4), dtype=np.int64)
    np.add.at(cells, (np.where(t, 0, 1), column), table.n)
    result = from_cells(PairedCounts.from_cells(cells), options)
    if ids is not None:
        cluster = label_array(ids)
        result._cluster = clustered_classifiers(options.metric.name, ["A", "B"], t, [a, b], cluster, table.n)
    return result


def rank_from_counts(table: Table, options: Options) -> Ranking:
    """:func:`~confusionlab.rank_models` of a (``y_true``, ``predictions[name]`` …) count table: the
    2**k agreement patterns per class weighted by their counts (no row is expanded).

    Examples
    --------
    >>> import pandas as pd
    >>> from confusionlab import rank_models
    >>> df = pd.DataFrame({"y": [1] * 10 + [0] * 10, "a": [1] * 9 + [0] + [0] * 10,
    ...                    "b": [1] * 7 + [0] * 3 + [0] * 8 + [1] * 2})
    >>> r = rank_models("y", {"a": "a", "b": "b"}, "accuracy", data=df, target="next_test_set")
    >>> r.best, r.method
    ('a', 'exact')
    """
    ids = table.values.get("cluster")
    bits = _positive_bits(
        replace(table, values={k: v for k, v in table.values.items() if k != "cluster"}), options, "a ranking"
    )
    truth = bits.pop("y_true")
    names = [str(argument_key(arg)) for arg in bits]
    k = len(names)
    pattern = (np.stack(list(bits.values())).astype(np.int64) << np.arange(k)[:, None]).sum(axis=0)
    cells_pos = np.bincount(pattern[truth], weights=table.n[truth], minlength=2**k).astype(np.int64)
    cells_neg = np.bincount(pattern[~truth], weights=table.n[~truth], minlength=2**k).astype(np.int64)
    ranking = rank_cells(names, cells_pos, cells_neg, replace(options, positive=True))
    if ids is None:
        return ranking
    said = list(bits.values())
    clustered = clustered_classifiers(options.metric.name, names, truth, said, label_array(ids), table.n)
    return replace(ranking, _cluster=clustered)
