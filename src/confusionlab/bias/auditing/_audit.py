"""The entry point :func:`audit`: check the arguments, count, form the groups, judge them, hold the rows."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..._deprecation import renamed_arguments
from ..._deps import require
from ..._validation import DEFAULT_TOLERANCE
from ..report import _options
from ..uncertainty import DEFAULT_N_DRAWS
from ._cells import count_combinations
from ._evaluate import Evaluated, evaluate_groups
from ._frame import COLUMNS
from ._groups import audit_groups
from ._judge import judge_groups
from ._multiplicity import _audit_draws, row_level
from ._options import audit_arguments
from ._result import Audit
from ._size import _check_size

pd = require("pandas", "bias", "the bias audit")

__all__ = ["audit"]


@renamed_arguments(n_samples="n_draws")
def audit(
    data: Any,
    *,
    label: str,
    positive_values: Sequence[Any] | None = None,
    label_threshold: float | None = None,
    facets: str | Sequence[str],
    predicted: str | None = None,
    dropna: bool = False,
    intersections: bool = False,
    metrics: Sequence[str] | None = None,
    margin: float | Mapping[str, float],
    confidence: float = 0.95,
    reference: Mapping[str, Any] | None = None,
    simultaneous: bool = True,
    prior: str | float = "uniform",
    n_draws: int | None = None,
    random_state: Any = 0,
    tolerance: float = DEFAULT_TOLERANCE,
    target: str = "true_value",
    progress: bool | None = None,
) -> Audit:
    r"""Audit every group of every facet for bias beyond ``margin``, with simultaneous intervals.

    The rows are assumed independent (one draw each): with several rows per patient, passage or speaker
    the intervals are too narrow (for clustered rows see ``cluster=`` of :func:`~confusionlab.evaluate`,
    :func:`~confusionlab.compare_paired` and :func:`~confusionlab.roc_curve`).

    Parameters
    ----------
    data : DataFrame-like
        pandas or polars DataFrame, pyarrow Table, DuckDB relation, Dask or
        PySpark DataFrame. Counting happens in that engine, in one group-by.
    label : str
        Label column.
    positive_values : list, optional
        Label values that count as positive (exactly one of this and
        ``label_threshold``); predictions are binarised the same way.
    label_threshold : float, optional
        Positive label = ``label > label_threshold`` (numeric labels).
    facets : str or list of str
        Facet columns. Every value of each is audited against the rest.
    predicted : str, optional
        Predicted-label column; needed for the post-training metrics.
    dropna : bool, default False
        As in :func:`confusionlab.bias.report`: rows with a missing label,
        facet or prediction are refused unless ``dropna=True`` leaves them out.
    intersections : bool, default False
        Also audit every combination of two facet columns (facet
        ``"sex & race"``, group ``"Female & Black"``). Combinations that never
        occur are skipped and listed in ``notes``.
    metrics : list of str, optional
        Metrics to judge (any of :data:`AUDIT_METRICS`). Default
        :data:`DEFAULT_METRICS`: how the groups are treated — with ``predicted``,
        DPPL, RD, SD and AD; without, DPL. CI is left out by default: it measures
        a group's share of the data, so nearly every group is "bias" on it.
    margin : float or dict
        Half-width of the band of immaterial values around each metric's
        no-bias value (1 for DI, 0 otherwise); finite and ≥ 0 (0 asks whether
        a metric is exactly its no-bias value). One number for every metric or
        a dict metric → margin.
    confidence : float, default 0.95
        Joint coverage of all the intervals of the audit.
    reference : dict, optional
        Facet column → reference value: each other value of that facet is
        compared with the reference group instead of the rest (the reference
        group gets no row). An intersection of two facets with references is
        compared with the combination of both references; facets without a
        reference stay one-vs-rest.
    simultaneous : bool, default True
        Bonferroni-simultaneous intervals (the audit's intervals hold together
        with probability ``confidence``). ``False`` gives every row its own
        ``confidence`` interval, which is only useful to show what the
        correction changes: with m rows, about ``m·(1 − confidence)`` of those
        intervals miss.
    prior, random_state, tolerance
        As in :func:`confusionlab.bias.report`.
    n_draws : int, optional
        Monte Carlo draws per group where an interval is not exact (``n_samples``
        is its old name, still accepted with a FutureWarning). Default: about 100
        draws beyond each interval end at the Bonferroni level (20,000 to
        100,000, at most 4,000,000 over all groups), so the ends move little with
        ``random_state``; :meth:`Audit.mc_error` and the page state how little.
    target : {"true_value", "next_test_set"}, default "true_value"
        The question. ``"true_value"``: is the true disparity in the population
        beyond the margin? Each interval is the posterior of the metric's true
        value (each facet's true rates, Beta/Dirichlet of its counts + prior).
        ``"next_test_set"``: would a new sample of the same group sizes show it?
        (the posterior predictive interval of earlier releases, about √2 wider).
    progress : bool or None, default None
        A progress bar over the groups (tqdm's; None: only in an interactive session).

    Returns
    -------
    Audit
        One row per (group, metric) with columns ``facet, group, metric, value,
        lower, upper, verdict, target`` (group as text; :meth:`Audit.to_frame` gives
        them as a DataFrame); ``value`` and the interval are NaN where the
        metric is undefined.

    Raises
    ------
    InvalidParameterError
        Arguments of the wrong type or value (a ValueError and a TypeError): a
        facet (or label, predicted) column missing; ``margin`` negative or not
        finite; a metric that cannot be audited; a reference value that does
        not occur; more than :data:`MAX_AUDIT_ROWS` rows of work (groups × metrics, a row of
        a metric outside :data:`FAST_ROWS` or for the next test set counting
        :data:`SLOW_ROW_WEIGHT`), refused before any interval is computed.
    TooLargeError
        The audit's memory estimate is above :func:`confusionlab.set_memory_limit`'s limit.
    ValueError
        Missing values without ``dropna=True``; data without rows.

    See Also
    --------
    report : one facet, every metric, with each metric's own interval.
    plan_group_size : how many rows a group needs before an audit can call it fair.

    Notes
    -----
    With m rows judged (rows whose metric has a value; an undefined metric makes
    no claim), row i's interval :math:`I_i` is the report's central
    interval at level :math:`1 - (1 - c)/m`; by Bonferroni's inequality
    :math:`P(\text{every } I_i \ni \theta_i) \ge 1 - \sum_i (1-c)/m = c`, so the
    verdicts hold jointly. The verdict is "bias" when :math:`I_i` lies
    entirely outside :math:`[v_0 - \text{margin}, v_0 + \text{margin}]`, "no
    material bias" when entirely inside, "insufficient evidence" otherwise —
    a small group (wide interval) is never called fair.

    A verdict must be one the counts could have contradicted: the metric is also
    evaluated on the tables a group of the same size could hold against the same
    rest (its rows all in one cell, for each cell, and in the rest's proportions),
    and when those values all fall on one side of the band the verdict is
    "insufficient evidence" (with a note). A group of one row has a KS near 0.5
    and a smoothed JS below 0.1 whichever its row, so it gets no verdict on
    either; CI, which judges the group's size itself, keeps its verdict.

    Where a metric's uncertainty is a Monte Carlo sample (``n_draws`` draws,
    see :mod:`confusionlab.bias.uncertainty`), an interval end at a tail level below about
    ``1/n_draws`` is an extreme draw: raise ``n_draws`` for very many rows.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({
    ...     "y":   [1, 0] * 300 + [1, 0, 0] * 100 + [1, 1, 0],
    ...     "p":   [1, 0] * 300 + [0, 0, 0] * 100 + [1, 1, 0],
    ...     "sex": ["M"] * 600 + ["F"] * 303,
    ...     "age": ["young"] * 300 + ["old"] * 600 + ["young"] * 3})
    >>> a = audit(df, label="y", positive_values=[1], predicted="p", facets=["sex", "age"],
    ...           metrics=["DPPL", "RD"], margin=0.1)
    >>> a[["facet", "group", "metric", "verdict"]].head(4)
      facet group metric    verdict
    0   sex     F   DPPL       bias
    1   sex     F     RD       bias
    2   sex     M   DPPL       bias
    3   sex     M     RD       bias
    >>> round(a.level, 4)       # 8 rows: each interval at 1 - 0.05/8
    0.9938
    >>> a.counts()
    {'bias': 8, 'no material bias': 0, 'insufficient evidence': 0}
    """
    opts = _options(
        prior=prior,
        n_draws=DEFAULT_N_DRAWS if n_draws is None else n_draws,
        random_state=random_state,
        tolerance=tolerance,
        target=target,
        progress=progress,
    )
    opts.pop("stage")
    args = audit_arguments(
        label=label,
        positive_values=positive_values,
        label_threshold=label_threshold,
        facets=facets,
        predicted=predicted,
        dropna=dropna,
        intersections=intersections,
        metrics=metrics,
        margin=margin,
        confidence=confidence,
        reference=reference,
        simultaneous=simultaneous,
    )
    combos = count_combinations(data, args)
    groups, notes = audit_groups(combos, args)
    _check_size(args.columns, combos.values_of, len(groups), args.metrics, opts["target"])
    evaluated = evaluate_groups(groups, combos, args.predicted is not None, opts, args.metrics)
    m = _n_judged(evaluated, args.metrics)
    level = row_level(args.confidence, m, args.simultaneous)
    if n_draws is None:
        _set_draws(evaluated, opts, _audit_draws(level, len(groups)))
    judged = judge_groups(evaluated, args.metrics, opts, level, args.margins, progress)
    frame = pd.DataFrame(judged.rows, columns=list(COLUMNS))
    frame["target"] = opts["target"]
    return Audit(
        frame,
        confidence=args.confidence,
        level=level,
        margin=args.margins,
        no_bias={name: (1.0 if name == "DI" else 0.0) for name in args.metrics},
        sizes=pd.DataFrame(judged.sizes, columns=["facet", "group", "n", "n_compared"]),
        notes=notes + judged.notes,
        simultaneous=args.simultaneous,
        n_verdicts=m,
        metrics=judged.kept,
        target=opts["target"],
        reference=args.reference,
        mc_errors=judged.mc_errors,
        n_draws=opts["n_draws"],
    )


def _n_judged(evaluated: list[Evaluated], names: list[str]) -> int:
    """The rows judged, the Bonferroni m: those whose metric has a value (an undefined metric makes no claim)."""
    return sum(item.found[name].value is not None for item in evaluated for name in names)


def _set_draws(evaluated: list[Evaluated], opts: dict[str, Any], n_draws: int) -> None:
    """Every group's Monte Carlo draws set to ``n_draws`` (chosen once the level of the intervals is known)."""
    opts["n_draws"] = n_draws
    for item in evaluated:
        item.evaluator.n_draws = n_draws
