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

from functools import cached_property
from typing import Any

import numpy as np

from .._validation import InvalidParameterError, check_int, check_memory
from ..labels import distinct_labels, labels_equal, positive_label
from ._checks import check_score_classes
from ._input import Scores

__all__ = ["MAX_DISTINCT_SCORES", "MAX_SCORE_CELLS", "CountedScores", "compare_auc_data", "curve_data", "needs_data"]

#: Most distinct scores a count table holds without ``score_bins=``.
MAX_DISTINCT_SCORES = 10**6
#: Most score bins.
MAX_SCORE_BINS = 10**6
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


def needs_data(data: Any, **options: Any) -> None:
    """Refuse ``score_bins`` without ``data`` (and ``multi_class`` with it)."""
    if data is None:
        given = [k for k, v in options.items() if v is not None and k != "multi_class"]
        raise InvalidParameterError(
            f"{given[0]}= needs data= (a DataFrame whose columns y_true and y_score name); with arrays, "
            "bin the scores yourself (groups= works with arrays too)"
        )
    if options.get("multi_class") is not None:
        raise InvalidParameterError("multi_class cannot come with data= yet; pass the score matrix as an array")


def _check_bins(score_bins: Any) -> int | None:
    if score_bins is None:
        return None
    return check_int(score_bins, "score_bins", minimum=2, maximum=MAX_SCORE_BINS)


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
            f"{MAX_SCORE_CELLS:,} cells (distinct combinations of label, scores and group), more than is brought "
            f"from the cluster (MAX_SCORE_CELLS); {advice}, round the scores, or compare fewer classifiers at once"
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


def count_scores(
    data: Any, y_true: Any, scores: dict[str, Any], groups: Any, positive: Any, score_bins: Any
) -> tuple[dict[str, Any], dict[str, np.ndarray], np.ndarray, np.ndarray | None, Any, dict[str, np.ndarray]]:
    """The counted table: per cell whether the label is positive, each score (binned: its bin's lower
    edge), the group and the count; the positive label; the bins' edges per score argument."""
    from .._tables import Knots, distinct_at_most, is_remote, score_binning
    from ..evaluation._data import check_column_name, label_array

    bins = _check_bins(score_bins)
    columns = {"y_true": check_column_name(y_true, "y_true")}
    columns |= {arg: check_column_name(col, arg) for arg, col in scores.items()}
    if groups is not None:
        columns["groups"] = check_column_name(groups, "groups")
    from .._tables import check_columns, to_narwhals

    frame = to_narwhals(data)
    check_columns(frame, **columns)
    schema = frame.collect_schema()
    for arg in scores:
        dtype = schema[columns[arg]]
        if not dtype.is_numeric():
            raise InvalidParameterError(
                f"{arg}: column {columns[arg]!r} must hold real numbers (scores, higher = more positive), got {dtype}"
            )
    from .._tables.table import HEAD_ROWS, KNOT_SAMPLE, MAX_LABELS, check_distinct, glance
    from ..evaluation._labels import MAX_GROUPS

    # Spark, binned: one glance at the first rows serves the label check and the knots' sample
    head = None if bins is None else glance(frame, list(columns.values()), max(KNOT_SAMPLE, HEAD_ROWS))
    limits = {"y_true": MAX_LABELS} | ({"groups": MAX_GROUPS} if groups is not None else {})
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
    table.refuse_missing(columns)
    if int(table.n.sum()) == 0:
        raise InvalidParameterError("data has no rows: a curve needs positive and negative examples")
    t = label_array(table.values["y_true"])
    labels = distinct_labels(t)
    check_score_classes(labels, positive)
    label = positive_label(labels, positive)
    is_pos = labels_equal(t, label)
    values: dict[str, np.ndarray] = {}
    edges: dict[str, np.ndarray] = {}
    for arg in scores:
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
    if groups is not None:
        g = label_array(table.values["groups"])  # the labels as they are, as the array path takes them
    return {"is_pos": is_pos}, values, table.n, g, label, edges


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


def curve_data(
    kind: str, data: Any, y_true: Any, y_score: Any, *, positive: Any = None, groups: Any = None, score_bins: Any = None
) -> Any:
    """:func:`~confusionlab.roc_curve` (``kind="roc"``) or :func:`~confusionlab.precision_recall_curve`
    (``"pr"``) of columns of ``data``; with ``groups`` a ``GroupedCurves`` (two or more groups).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"y": [0, 0, 1, 1, 0, 1], "s": [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]})
    >>> c = curve_data("roc", df, "y", "s")
    >>> round(c.value, 4), c.p, c.n, c.max_auc_error
    (0.8889, 3, 3, 0.0)
    """
    from ._groups import GroupedCurves, group_names
    from ._results import PrecisionRecallCurve, RocCurve

    cls = RocCurve if kind == "roc" else PrecisionRecallCurve
    flags, values, n, g, label, edges = count_scores(data, y_true, {"y_score": y_score}, groups, positive, score_bins)
    is_pos, v = flags["is_pos"], values["y_score"]
    bins = None if score_bins is None else int(score_bins)
    edge = edges.get("y_score")

    def one(mask: np.ndarray) -> Any:
        s = CountedScores(*_blocks(v[mask], is_pos[mask], n[mask]), label)
        if s.p == 0 or s.n == 0:
            raise InvalidParameterError("y_true must hold positive and negative examples (in every group)")
        return _annotate(cls(s), s, edge, bins)

    if g is None:
        return one(np.ones(v.shape, dtype=bool))
    names, _ = group_names(g, "one curve")  # two or more groups, as the array path asks
    members = {name.item() if isinstance(name, np.generic) else name: one(g == name) for name in names}
    return GroupedCurves(members, kind)


def compare_auc_data(
    data: Any,
    y_true: Any,
    score_a: Any,
    score_b: Any = None,
    *,
    positive: Any = None,
    score_bins: Any = None,
    groups: Any = None,
) -> Any:
    """:func:`~confusionlab.compare_auc` of columns of ``data`` (``score_a`` a dict name → column for more).

    Paired DeLong from the (true label, score A, score B, …) cells: each cell's placements
    weighted by its count, covariance with ddof = 1 over the examples (as ``np.cov`` of the
    array path). With ``groups`` (a column) the cells are (group, true label, score A, …):
    one aggregation, then each group's comparison from its own cells, a
    :class:`~confusionlab.scores.GroupedAucComparison` as the array path's.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"y": [0, 0, 0, 1, 1, 1, 0, 1], "a": [0.1, 0.3, 0.2, 0.8, 0.7, 0.9, 0.6, 0.4],
    ...                    "b": [0.2, 0.1, 0.5, 0.6, 0.3, 0.7, 0.4, 0.8], "g": ["u", "v"] * 4})
    >>> c = compare_auc_data(df, "y", "a", "b")
    >>> round(c.value, 4), round(c.p_value(), 3)
    (0.0625, 0.712)
    >>> per = compare_auc_data(df, "y", "a", "b", groups="g")
    >>> per.names, {k: round(v, 4) for k, v in per.by_group.items()}
    (['u', 'v'], {'u': 0.6667, 'v': 0.0})
    """
    if isinstance(score_a, dict):
        if score_b is not None:
            raise InvalidParameterError("score_b must be omitted when score_a is a dict of classifiers")
        names = list(score_a)
        if len(names) < 2:
            raise InvalidParameterError(f"score_a needs at least two classifiers, got {len(names)}")
        scores = {f"score_a[{k!r}]": c for k, c in score_a.items()}
    else:
        names, scores = ["A", "B"], {"score_a": score_a, "score_b": score_b}
    flags, values, n, g, label, edges = count_scores(data, y_true, scores, groups, positive, score_bins)
    is_pos = flags["is_pos"]
    bins = None if score_bins is None else int(score_bins)
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
    return GroupedAucComparison(members)


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
