"""``roc_curve``, ``precision_recall_curve`` and ``compare_auc`` with ``data=``: (group, true label,
score) counted by the engine.

The table is counted where the data lives (:func:`confusionlab._tables.count_columns`:
one aggregation in Spark or Dask, only the table leaves the cluster). A curve needs no more:
its tie blocks (every distinct score and how many positives and negatives have it) are the
table, so :class:`CountedScores` hands the curves, DeLong's variance and the exact null
distribution the same blocks the array path sorts out of its arrays, and every number is the
array path's. Paired DeLong (:func:`compare_auc_data`) weighs each (true label, score A,
score B) cell's placements by its count: the cells are the tie blocks of the score pairs, so
the paired covariance is exact from the table. With ``groups=`` the table is (group, true
label, score A, score B, …), one aggregation, and each group's comparison comes from its own
cells (the array path's :class:`~confusionlab.scores.GroupedAucComparison`); the table holds
at most as many cells as there are distinct (group, label, scores) tuples, which binning the
scores (``score_bins=``) bounds.

More distinct scores than :data:`MAX_DISTINCT_SCORES` are refused unless ``score_bins=`` asks
for quantile bins (their edges computed by the engine): the binned score of a row is the lower
edge of its bin, so the curve's points are points of the unbinned curve at those thresholds,
the AUC is exact for the binned scores, and ``max_auc_error`` on the result is the largest
possible difference from the unbinned AUC: half the share of positive–negative pairs that
share a bin (a pair in one bin counts ½ binned, 0, ½ or 1 unbinned).
"""

from __future__ import annotations

from dataclasses import replace
from functools import cached_property
from typing import Any

import numpy as np

from .._tables import MAX_DISTINCT_SCORES, MAX_GROUPS, MAX_LABELS, Door, Table, argument_key, label_array
from .._validation import InvalidParameterError, check_memory
from ..labels import distinct_labels, labels_equal, positive_label
from ._checks import check_score_classes
from ._input import Scores
from ._options import Options

__all__ = [
    "AUC_DOOR",
    "CURVE_DOOR",
    "MAX_SCORE_CELLS",
    "CountedScores",
    "auc_from_counts",
    "pr_from_counts",
    "roc_from_counts",
]

#: Most cells (distinct combinations of label, scores and group) a Spark or Dask count table of
#: scores brings to this process: a binary label at each of :data:`MAX_DISTINCT_SCORES` scores.
MAX_SCORE_CELLS = 2 * MAX_DISTINCT_SCORES


class CountedScores(Scores):
    """:class:`Scores` from their tie blocks (a count table): the sorted arrays only when asked for.

    >>> s = CountedScores(np.array([0.1, 0.5, 0.9]), np.array([0, 1, 2]), np.array([1, 1, 0]), 1)
    >>> s.p, s.n, s.positives.tolist(), s.negatives.tolist()
    (3, 2, [0.5, 0.9, 0.9], [0.1, 0.5])
    """

    def __init__(self, values: np.ndarray, pos: np.ndarray, neg: np.ndarray, positive_label: Any) -> None:
        self.__dict__["blocks"] = (values, pos.astype(np.int64), neg.astype(np.int64))
        self.positive_label = positive_label
        self._p, self._n = int(pos.sum()), int(neg.sum())
        self._keys = None  # no class-tagged keys: the blocks are the data (Scores.block_counts)

    @property
    def p(self) -> int:
        return self._p

    @property
    def n(self) -> int:
        return self._n

    def _expand(self, counts: np.ndarray) -> np.ndarray:
        total = int(counts.sum())
        check_memory(8.0 * total, f"{total:,} sorted scores", "ask for the curve's points instead")
        return np.repeat(self.blocks[0], counts)

    @cached_property
    def positives(self) -> np.ndarray:  # type: ignore[override]
        return self._expand(self.blocks[1])

    @cached_property
    def negatives(self) -> np.ndarray:  # type: ignore[override]
        return self._expand(self.blocks[2])


def _too_many(name: str, column: str, count: int) -> InvalidParameterError:
    more = "more than" if count > MAX_DISTINCT_SCORES else ""
    return InvalidParameterError(
        f"{name}: column {column!r} has {more} {MAX_DISTINCT_SCORES:,} distinct scores, more than a count table "
        f"holds (MAX_DISTINCT_SCORES); pass score_bins=10_000 (quantile bins computed by the engine; the result "
        "states the largest possible AUC difference, max_auc_error), or round the scores"
    )


def _infinite(name: str, column: str, rows: int) -> InvalidParameterError:
    return InvalidParameterError(
        f"{name}: column {column!r} has {rows:,} infinite value(s); drop those rows or fill them first"
    )


def _count(frame: Any, columns: dict[str, str], plans: dict[str, Any]) -> Any:
    from .._tables import Knots, TooManyCells, count_columns

    bins = {a: (p if isinstance(p, Knots) else p[1:]) for a, p in plans.items()}
    try:
        return count_columns(frame, columns, bins=bins or None, max_cells=MAX_SCORE_CELLS)
    except TooManyCells:  # Spark or Dask: several score columns (and groups) make many combinations
        advice = "pass fewer score_bins" if plans else "pass score_bins=10_000 (quantile bins computed by the engine)"
        raise InvalidParameterError(
            f"the count table of columns {', '.join(map(repr, dict.fromkeys(columns.values())))} has more than "
            f"{MAX_SCORE_CELLS:,} cells (distinct combinations of label, scores, group and cluster), more than is "
            f"brought from the cluster (MAX_SCORE_CELLS); {advice}, round the scores, or compare fewer classifiers "
            "at once"
        ) from None


#: A bin of :class:`~confusionlab._tables.Knots` holding more than this many times its
#: share (1/bins) of the rows, with at least :data:`LOPSIDED_ROWS` rows per bin on average, means
#: the knots' sample (the first rows) was unlike the rest: the knots are drawn again from all rows.
LOPSIDED_SHARE = 4.0
LOPSIDED_ROWS = 20


def _lopsided(table: Any, plans: dict[str, Any], bins: int) -> bool:
    from .._tables import Knots

    rows = int(table.n.sum())
    if rows < LOPSIDED_ROWS * bins:
        return False
    for arg, plan in plans.items():
        if isinstance(plan, Knots):
            b = np.asarray(table.values[arg], dtype=np.int64)
            keep = b >= 0
            per_bin = np.bincount(b[keep], weights=table.n[keep], minlength=bins)
            if per_bin.max(initial=0) > LOPSIDED_SHARE * rows / bins:
                return True
    return False


def _score_arguments(columns: dict[str, str]) -> list[str]:
    return [arg for arg in columns if arg not in ("y_true", "groups", "cluster")]


def count_scores(data: Any, columns: dict[str, str], limits: dict[str, int], options: Options) -> Table:
    """The (true label, scores …, group) count table of ``data``, each score column counted by its value or,
    with ``options.score_bins``, by its quantile bin (the bins in the table's ``bins``); labels and groups
    bounded by ``limits`` and too many distinct scores refused before the table is brought here."""
    from .._tables import Knots, check_columns, check_distinct, distinct_at_most, is_remote, score_binning, to_narwhals
    from .._tables.table import HEAD_ROWS, KNOT_SAMPLE, glance

    bins = options.score_bins
    scores = _score_arguments(columns)
    frame = to_narwhals(data)
    check_columns(frame, **columns)
    schema = frame.collect_schema()
    for arg in scores:
        dtype = schema[columns[arg]]
        if not dtype.is_numeric():
            raise InvalidParameterError(
                f"{arg}: column {columns[arg]!r} must hold real numbers (scores, higher = more positive), got {dtype}"
            )
    # Spark, binned: one glance at the first rows serves the label check and the knots' sample
    head = None if bins is None else glance(frame, list(columns.values()), max(KNOT_SAMPLE, HEAD_ROWS))
    check_distinct(frame, columns, limits, head=head)
    plans: dict[str, Any] = {}
    if bins is None:
        if is_remote(frame):  # counted there before any table is brought here
            for arg in scores:
                count = distinct_at_most(frame, columns[arg], MAX_DISTINCT_SCORES)
                if count > MAX_DISTINCT_SCORES:
                    raise _too_many(arg, columns[arg], count)
    else:
        plans = {arg: score_binning(frame, columns[arg], bins, head=head) for arg in scores}
    table = _count(frame, columns, plans)
    if bins is not None and any(isinstance(p, Knots) for p in plans.values()) and _lopsided(table, plans, bins):
        # the first rows (the knots' sample) were unlike the rest, e.g. sorted by score: knots from all rows
        plans = {arg: score_binning(frame, columns[arg], bins, spread=True) for arg in scores}
        table = _count(frame, columns, plans)
    return replace(table, bins=plans)


def _curve_columns(
    options: Options, *, y_true: Any, y_score: Any, groups: Any = None, cluster: Any = None
) -> dict[str, Any]:
    if options.multi_class is not None:
        raise InvalidParameterError("multi_class cannot come with data= yet; pass the score matrix as an array")
    return {"y_true": y_true, "y_score": y_score, "groups": groups, "cluster": cluster}


def _auc_columns(options: Options, *, y_true: Any, score_a: Any, score_b: Any = None, groups: Any = None) -> dict:
    if isinstance(score_a, dict):
        if score_b is not None:
            raise InvalidParameterError("score_b must be omitted when score_a is a dict of classifiers")
        if len(score_a) < 2:
            raise InvalidParameterError(f"score_a needs at least two classifiers, got {len(score_a)}")
        scores = {f"score_a[{k!r}]": c for k, c in score_a.items()}
    else:
        scores = {"score_a": score_a, "score_b": score_b}
    return {"y_true": y_true, **scores, "groups": groups}


_LIMITS = {"y_true": MAX_LABELS, "groups": MAX_GROUPS}
#: The curves' ``data=`` door: (true label, score, group, cluster), the scores binned if asked; the
#: cluster (ROC only) is one more key of the table, the cells of a cluster are its examples' tie blocks.
CURVE_DOOR = Door(limits=_LIMITS, optional=("groups", "cluster"), columns=_curve_columns, count=count_scores)
#: compare_auc's ``data=`` door: (true label, score A, score B or more, group).
AUC_DOOR = Door(limits=_LIMITS, optional=("groups",), columns=_auc_columns, count=count_scores)


def _cells(
    table: Table, options: Options
) -> tuple[np.ndarray, dict[str, np.ndarray], np.ndarray | None, Any, dict[str, np.ndarray]]:
    """Per cell of a counted score table: whether the label is positive, each score (binned: its bin's
    lower edge), the group; the positive label; the bins' edges per score argument."""
    from .._tables import Knots

    if int(table.n.sum()) == 0:
        raise InvalidParameterError("data has no rows: a curve needs positive and negative examples")
    columns, plans = table.columns, table.bins
    t = label_array(table.values["y_true"])
    labels = distinct_labels(t)
    check_score_classes(labels, options.positive)
    label = positive_label(labels, options.positive)
    is_pos = labels_equal(t, label)
    values: dict[str, np.ndarray] = {}
    edges: dict[str, np.ndarray] = {}
    for arg in _score_arguments(columns):
        v = np.asarray(table.values[arg], dtype=np.float64)
        if arg in plans:
            b = v.astype(np.int64)
            if (b < 0).any():
                raise _infinite(arg, columns[arg], int(table.n[b < 0].sum()))
            if isinstance(plans[arg], Knots):  # each bin's lower edge: its smallest score, as Spark found it
                uniq, inv = np.unique(b, return_inverse=True)
                low = np.full(uniq.size, np.inf)
                np.minimum.at(low, inv, table.lows[arg])
                edges[arg], v = low, low[inv]
            else:
                edges[arg] = plans[arg]
                v = edges[arg][b] if edges[arg].size else np.zeros_like(v)
        else:
            bad = ~np.isfinite(v)
            if bad.any():
                raise _infinite(arg, columns[arg], int(table.n[bad].sum()))
            distinct = np.unique(v).size
            if distinct > MAX_DISTINCT_SCORES:
                raise _too_many(arg, columns[arg], distinct)
        values[arg] = v + 0.0  # −0.0 becomes +0.0, as the array path's
    g = None
    if "groups" in table.values:
        g = label_array(table.values["groups"])  # the labels as they are, as the array path takes them
    return is_pos, values, g, label, edges


def _blocks(v: np.ndarray, is_pos: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    uniq, inv = np.unique(v, return_inverse=True)
    pos = np.bincount(inv, weights=np.where(is_pos, n, 0), minlength=uniq.size).astype(np.int64)
    neg = np.bincount(inv, weights=np.where(is_pos, 0, n), minlength=uniq.size).astype(np.int64)
    return uniq, pos, neg


def _max_auc_error(s: CountedScores) -> float:
    _, pos, neg = s.blocks
    return float(np.dot(pos.astype(np.float64), neg) / (2.0 * s.p * s.n))


def _annotate(result: Any, s: CountedScores, edges: np.ndarray | None, bins: int | None) -> Any:
    result.score_bins = bins
    result.score_edges = edges
    result.max_auc_error = 0.0 if edges is None else _max_auc_error(s)
    return result


def _curves(table: Table, options: Options, cls: Any, kind: str) -> Any:
    """The curve ``cls`` of a counted (true label, score, group, cluster) table; with groups a
    ``GroupedCurves``; with a cluster column each curve carries Obuchowski's variance from the cells
    (the clusters nested in the groups, as the array path asks)."""
    from ..models.cluster import cluster_codes
    from ._cluster import check_nested, summarise
    from ._groups import GroupedCurves, group_names

    is_pos, values, g, label, edges = _cells(table, options)
    v, n = values["y_score"], table.n
    edge = edges.get("y_score")
    clusters = None
    if "cluster" in table.values:
        clusters = cluster_codes(label_array(table.values["cluster"]), v.shape[0])

    def one(mask: np.ndarray, where: str = "") -> Any:
        s = CountedScores(*_blocks(v[mask], is_pos[mask], n[mask]), label)
        if s.p == 0 or s.n == 0:
            raise InvalidParameterError("y_true must hold positive and negative examples (in every group)")
        curve = _annotate(cls(s), s, edge, options.score_bins)
        if clusters is not None:
            names, codes = clusters
            curve._cluster = summarise(is_pos[mask], v[mask], codes[mask], names, curve.variance, n[mask], where)
        return curve

    everything = np.ones(v.shape, dtype=bool)
    if g is None:
        return one(everything)
    names, codes = group_names(g, "one curve")  # two or more groups, as the array path asks
    if clusters is not None:
        check_nested(clusters[1], clusters[0], codes, names)
    keys = [name.item() if isinstance(name, np.generic) else name for name in names]
    members = {key: one(codes == k, f" in group {key!r}") for k, key in enumerate(keys)}
    return GroupedCurves(members, kind, overall=one(everything))


def roc_from_counts(table: Table, options: Options) -> Any:
    """:func:`~confusionlab.roc_curve` of a counted (true label, score, group) table (two or more groups:
    a ``GroupedCurves``).

    Examples
    --------
    >>> import pandas as pd
    >>> from confusionlab import roc_curve
    >>> df = pd.DataFrame({"y": [0, 0, 1, 1, 0, 1], "s": [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]})
    >>> c = roc_curve("y", "s", data=df)
    >>> round(c.value, 4), c.p, c.n, c.max_auc_error
    (0.8889, 3, 3, 0.0)
    """
    from ._results import RocCurve

    return _curves(table, options, RocCurve, "roc")


def pr_from_counts(table: Table, options: Options) -> Any:
    """:func:`~confusionlab.precision_recall_curve` of a counted (true label, score, group) table.

    >>> import pandas as pd
    >>> from confusionlab import precision_recall_curve
    >>> df = pd.DataFrame({"y": ["no", "no", "yes", "yes"], "s": [0.1, 0.4, 0.35, 0.8]})
    >>> round(precision_recall_curve("y", "s", positive="yes", data=df).value, 4)
    0.8333
    """
    from ._results import PrecisionRecallCurve

    return _curves(table, options, PrecisionRecallCurve, "pr")


def auc_from_counts(table: Table, options: Options) -> Any:
    """:func:`~confusionlab.compare_auc` of a counted (true label, score A, score B …, group) table.

    Paired DeLong from the cells: each cell's placements weighted by its count, covariance with
    ddof = 1 over the examples (as ``np.cov`` of the array path). With groups each group's
    comparison comes from its own cells, a :class:`~confusionlab.scores.GroupedAucComparison` as the
    array path's.

    Examples
    --------
    >>> import pandas as pd
    >>> from confusionlab import compare_auc
    >>> df = pd.DataFrame({"y": [0, 0, 0, 1, 1, 1, 0, 1], "a": [0.1, 0.3, 0.2, 0.8, 0.7, 0.9, 0.6, 0.4],
    ...                    "b": [0.2, 0.1, 0.5, 0.6, 0.3, 0.7, 0.4, 0.8], "g": ["u", "v"] * 4})
    >>> c = compare_auc("y", "a", "b", data=df)
    >>> round(c.value, 4), round(c.p_value(), 3)
    (0.0625, 0.712)
    >>> per = compare_auc("y", "a", "b", groups="g", data=df)
    >>> per.names, {k: round(v, 4) for k, v in per.by_group.items()}
    (['u', 'v'], {'u': 0.6667, 'v': 0.0})
    """
    is_pos, values, g, label, edges = _cells(table, options)
    scores = list(values)
    names = ["A", "B"] if scores == ["score_a", "score_b"] else [argument_key(arg) for arg in scores]
    n, bins = table.n, options.score_bins
    if g is None:
        return _counted_comparison(names, [values[arg] for arg in scores], is_pos, n, label, edges, bins)
    from ._groups import GroupedAucComparison, group_names, refuse_one_class

    group_list, codes = group_names(g, "one comparison")
    members = {}
    for k, name in enumerate(group_list):
        rows = codes == k
        pos = int(n[rows & is_pos].sum())
        refuse_one_class(name, pos, int(n[rows].sum()) - pos)
        members[name] = _counted_comparison(
            names, [values[arg][rows] for arg in scores], is_pos[rows], n[rows], label, edges, bins
        )
    overall = _counted_comparison(names, [values[arg] for arg in scores], is_pos, n, label, edges, bins)
    return GroupedAucComparison(members, overall=overall)


def _counted_comparison(
    names: list[str],
    values: list[np.ndarray],
    is_pos: np.ndarray,
    n: np.ndarray,
    label: Any,
    edges: dict[str, np.ndarray],
    bins: int | None,
) -> Any:
    """DeLong's paired comparison from the cells ``values`` (one array per classifier), ``is_pos``
    and their counts ``n``."""
    from ._compare import AucComparison

    p, m = int(n[is_pos].sum()), int(n[~is_pos].sum())
    v10, v01, aucs, errors = [], [], [], []
    for v in values:
        s = CountedScores(*_blocks(v, is_pos, n), label)
        uniq, pos, neg = s.blocks
        idx = np.searchsorted(uniq, v)
        neg_below = np.concatenate([[0], np.cumsum(neg)[:-1]])
        pos_above = p - np.cumsum(pos)
        v10.append(((neg_below + 0.5 * neg) / m)[idx][is_pos])
        v01.append(((pos_above + 0.5 * pos) / p)[idx][~is_pos])
        aucs.append(float(np.dot(pos, 2 * neg_below + neg) / (2.0 * p * m)))
        errors.append(_max_auc_error(s) if edges else 0.0)
    w_pos, w_neg = n[is_pos].astype(np.float64), n[~is_pos].astype(np.float64)
    k = len(names)
    s10 = _weighted_cov(np.array(v10), w_pos) if p > 1 else np.zeros((k, k))
    s01 = _weighted_cov(np.array(v01), w_neg) if m > 1 else np.zeros((k, k))
    result = AucComparison(names, np.array(aucs), s10 / p + s01 / m, p, m)
    result.score_bins = bins
    result.max_auc_error = dict(zip(names, errors, strict=True))
    return result


def _weighted_cov(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """``np.cov(ddof=1)`` of the rows of ``x`` repeated ``w`` times each."""
    total = w.sum()
    mean = (x * w).sum(axis=1, keepdims=True) / total
    d = x - mean
    return (d * w) @ d.T / (total - 1)
