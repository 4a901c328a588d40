"""``choose_threshold(y_true, y_score)``: the checks at the boundary, then the candidates and the choice."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import InvalidParameterError, as_labels, check_memory, check_same_length
from ..labels import code_groups, distinct_labels, labels_equal, positive_label, same_label
from ..scores import check_scores
from ._candidates import BYTES_PER_SCORE, Candidates, candidates_from_blocks, tie_blocks
from ._choice_result import ThresholdChoice
from ._constraint import meets
from ._grouped_choice import GroupedThresholdChoice
from ._objective import best_index
from ._options import ChoiceOptions, check_choice_options

__all__ = ["choice_from_blocks", "choice_from_candidates", "choose_threshold", "grouped_choice", "positive_rows"]


def choose_threshold(
    y_true: Any,
    y_score: Any,
    *,
    cost: tuple[float, float] | None = None,
    maximize: str | None = None,
    subject_to: dict[str, float] | None = None,
    positive: Any = None,
    groups: Any = None,
    confidence: float = 0.95,
    prior: Any = None,
    data: Any = None,
) -> ThresholdChoice | GroupedThresholdChoice:
    """The best threshold for a classifier's scores on a test set, and how sure that choice is.

    The rows are assumed independent (one draw each): with several rows per patient, passage or speaker
    the intervals are too narrow (for clustered rows see ``cluster=`` of :func:`~confusionlab.evaluate`,
    :func:`~confusionlab.compare_paired` and :func:`~confusionlab.roc_curve`).

    Parameters
    ----------
    y_true : array-like of labels
        Two labels of any type (numbers, strings, booleans); missing values are refused.
    y_score : array-like of real numbers
        The scores, higher = more positive. An example is positive when its score is at least the
        threshold (scikit-learn's and dcurves' rule).
    cost : (cost_fp, cost_fn), optional
        Minimise the expected cost per example ``(cost_fp·FP + cost_fn·FN)/N`` (finite, ≥ 0, not both 0).
    maximize : str, optional
        Or maximise a metric: accuracy, balanced_accuracy, informedness, recall, tnr (specificity),
        precision, npv, jaccard, g_mean, fowlkes_mallows, f1 or any ``f<beta>``. Exactly one of
        ``cost`` and ``maximize``.
    subject_to : dict, optional
        ``{rate: lowest value}`` for precision, recall, specificity (``tnr``) or NPV, e.g.
        ``{"precision": 0.9}``: the choice is the best among the thresholds whose *empirical* rates
        meet every bound (refused when none does).
    positive : label, optional
        The positive label. Default ``1`` (or ``True``) for labels 0/1, False/True or −1/1; with
        more than two labels it is required and the others count as negative.
    groups : array-like of labels, optional
        A threshold per group: a :class:`GroupedThresholdChoice` whose statements hold for all
        groups at once (Šidák over the groups, which hold disjoint examples).
    confidence : float, default 0.95
        The level of :attr:`~ThresholdChoice.plausible_thresholds`.
    prior : {"uniform", "jeffreys"} or float, optional
        The symmetric prior α of the posteriors (the pointwise interval, ``prob_constraint``).
        Default Jeffreys' ½, the true value's prior of the one defaults table.
    data : DataFrame, optional
        pandas, polars, pyarrow, DuckDB, Dask or PySpark: ``y_true``, ``y_score`` and ``groups`` are
        then column names, (group, true label, score) counted by the engine: the same result.

    Returns
    -------
    ThresholdChoice or GroupedThresholdChoice
        ``.threshold``, ``.confusion_matrix``, ``.value``, ``.interval(confidence, kind=...)``,
        ``.plausible_thresholds``, ``.prob_constraint``, ``.to_frame()`` (every candidate).

    Raises
    ------
    InvalidParameterError
        NaN or infinite scores, one class only, a bad ``cost`` (negative, NaN, infinite), both or
        neither of ``cost`` and ``maximize``, an unknown or non-monotone metric, a bound outside
        [0, 1], no threshold meeting ``subject_to``.

    Notes
    -----
    The candidates are every distinct score and ``inf`` ("none positive"); the chosen one is the
    best, of tied values (up to rounding) the lowest threshold, as scikit-learn's
    ``TunedThresholdClassifierCV`` takes the first of its ascending thresholds.

    ``interval()`` (``kind="after_selection"``) is valid although the threshold was chosen on these
    data: it comes from a band that holds at every threshold at once (Kolmogorov–Smirnov distances
    of each class's rates, as Campbell's ROC band, and the Clopper–Pearson interval of the
    prevalence, Bonferroni over the three), so its level holds at every sample size, at the price of
    width. ``kind="pointwise"`` is the posterior interval as if the threshold had been fixed in
    advance. Coverage measured by simulation (``benchmarks/coverage_threshold.py``, 200 test sets
    per setting: binormal and Beta(2, 4)/Beta(4, 2) scores, N = 100, 500, 5,000, prevalence 0.05,
    0.2, 0.5, cost ratios 1 and 9; 95 % nominal): the after-selection interval held the chosen
    threshold's true cost in 99.5–100 % of the test sets of every setting (7,199 of 7,200), and the
    plausible set held the truly best threshold in 100 %; the pointwise interval at the chosen
    threshold held it in 86.0–96.5 % (91.3 % on average, down to 9 points short), being 2.6–5.3
    times narrower. The band is conservative: its level holds at every size, not just on average.

    Examples
    --------
    >>> import numpy as np
    >>> import confusionlab as cl
    >>> rng = np.random.default_rng(0)
    >>> y = rng.uniform(size=1000) < 0.3
    >>> s = rng.normal(loc=1.5 * y)
    >>> choice = cl.choose_threshold(y, s, cost=(1, 4))
    >>> round(choice.threshold, 3), choice.confusion_matrix
    (0.224, ConfusionMatrix(tp=253, fn=24, fp=300, tn=423))
    >>> round(choice.value, 4), [round(v, 3) for v in choice.interval()]
    (0.396, [0.246, 0.548])
    >>> [round(v, 3) for v in choice.interval(kind="pointwise")]
    [0.355, 0.445]
    """
    options = check_choice_options(
        cost=cost, maximize=maximize, subject_to=subject_to, positive=positive, confidence=confidence, prior=prior
    )
    if data is not None:  # data= with column names: the table counted by the data's own engine
        from ._data import CHOICE_DOOR, choice_from_counts

        return choice_from_counts(CHOICE_DOOR(data, options, y_true=y_true, y_score=y_score, groups=groups), options)
    t = as_labels(y_true, "y_true")
    check_memory(BYTES_PER_SCORE * t.shape[0], f"{t.shape[0]:,} scores", "use a sample of the rows")
    g = None if groups is None else as_labels(groups, "groups")
    length = check_same_length({"y_true": t, **({} if g is None else {"groups": g})}, "a threshold choice")
    scores = check_scores(y_score, "y_score", length)
    is_pos, label = positive_rows(t, options.positive)
    if g is None:
        return choice_from_blocks(*tie_blocks(scores, is_pos), label, options)
    names, codes = code_groups(g)
    blocks = {name: tie_blocks(scores[codes == k], is_pos[codes == k]) for k, name in enumerate(names)}
    return grouped_choice(blocks, label, options)


def positive_rows(t: np.ndarray, positive: Any) -> tuple[np.ndarray, Any]:
    """Which examples are positive, and the positive label (the library's rule); one class refused.

    >>> rows, label = positive_rows(np.array(["a", "b", "a"], dtype=object), "b")
    >>> rows.tolist(), label
    ([False, True, False], 'b')
    """
    labels = distinct_labels(t)
    if positive is None and len(labels) > 2:
        shown = ", ".join(map(repr, labels[:6])) + (" …" if len(labels) > 6 else "")
        raise InvalidParameterError(
            f"y_true holds {len(labels)} labels ({shown}); pass positive=<label> to choose a threshold for that "
            "class against the others"
        )
    if positive is not None and not any(same_label(v, positive) for v in labels):
        raise InvalidParameterError(f"positive={positive!r} does not occur in y_true (labels: {labels!r})")
    if len(labels) < 2:
        raise InvalidParameterError(
            f"y_true holds one class only ({', '.join(map(repr, labels))}); choosing a threshold needs positive "
            "and negative examples"
        )
    label = positive_label(labels, positive)
    return labels_equal(t, label), label


def choice_from_blocks(
    values: np.ndarray, pos: np.ndarray, neg: np.ndarray, label: Any, options: ChoiceOptions, *, group: Any = None
) -> ThresholdChoice:
    """The choice among the candidates of the tie blocks (``values`` ascending; positives and negatives at each).

    >>> from confusionlab.decision._options import check_choice_options
    >>> o = check_choice_options(cost=(1, 1), maximize=None, subject_to=None, positive=None, confidence=0.95,
    ...                          prior=None)
    >>> c = choice_from_blocks(np.array([0.1, 0.4, 0.8]), np.array([0, 1, 1]), np.array([2, 1, 0]), 1, o)
    >>> c.threshold, c.confusion_matrix, c.value
    (0.4, ConfusionMatrix(tp=2, fn=0, fp=1, tn=2), 0.2)
    """
    where = "" if group is None else f" in group {group!r}"
    p, n = int(pos.sum()), int(neg.sum())
    if p == 0 or n == 0:
        raise InvalidParameterError(
            f"y_true holds {'no positive' if p == 0 else 'no negative'} example{where}; choosing a threshold "
            "needs both classes"
        )
    return choice_from_candidates(candidates_from_blocks(values, pos, neg), label, options, where=where)


def choice_from_candidates(c: Candidates, label: Any, options: ChoiceOptions, *, where: str = "") -> ThresholdChoice:
    """The choice among the candidates ``c`` (both classes present); ``where`` ends the refusal's message."""
    objective = options.objective
    values_k = objective.values(c.tp, c.fn, c.fp, c.tn)
    feasible = meets({"tp": c.tp, "fn": c.fn, "fp": c.fp, "tn": c.tn}, options.subject_to)
    eligible = feasible & ~np.isnan(values_k)
    if not eligible.any():
        asked = ", ".join(f"{k} ≥ {v:g}" for k, v in options.subject_to.items()) or "a defined value"
        raise InvalidParameterError(f"subject_to: no threshold meets {asked} on these data{where}; loosen the bounds")
    index = best_index(values_k, eligible, objective.minimize)
    return ThresholdChoice(
        c,
        objective,
        options.subject_to,
        values_k,
        feasible,
        index,
        positive=label,
        prior=options.alpha,
        confidence=options.confidence,
    )


def grouped_choice(
    blocks: dict[Any, tuple[np.ndarray, np.ndarray, np.ndarray]], label: Any, options: ChoiceOptions
) -> GroupedThresholdChoice:
    """One choice per group (its tie blocks), the plausible sets simultaneous over the groups."""
    if len(blocks) < 2:
        raise InvalidParameterError(
            f"groups holds one group only ({', '.join(map(repr, blocks))}); pass groups=None for one threshold"
        )
    members = {name: choice_from_blocks(*b, label, options, group=name) for name, b in blocks.items()}
    overall = choice_from_blocks(*pooled_blocks(blocks), label, options)
    return GroupedThresholdChoice(members, options.confidence, overall=overall)


def pooled_blocks(
    blocks: dict[Any, tuple[np.ndarray, np.ndarray, np.ndarray]],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The groups' tie blocks merged into the whole test set's (equal scores of different groups add up).

    >>> v, pos, neg = pooled_blocks({"a": (np.array([0.1, 0.5]), np.array([0, 2]), np.array([3, 1])),
    ...                              "b": (np.array([0.5, 0.9]), np.array([1, 4]), np.array([2, 0]))})
    >>> v.tolist(), pos.tolist(), neg.tolist()
    ([0.1, 0.5, 0.9], [0, 3, 4], [3, 3, 0])
    """
    values, codes = np.unique(np.concatenate([b[0] for b in blocks.values()]), return_inverse=True)
    pos = np.zeros(values.size, dtype=np.int64)
    neg = np.zeros(values.size, dtype=np.int64)
    np.add.at(pos, codes, np.concatenate([b[1] for b in blocks.values()]).astype(np.int64))
    np.add.at(neg, codes, np.concatenate([b[2] for b in blocks.values()]).astype(np.int64))
    return values, pos, neg
