"""``decision_curve(y_true, y_score)``: the checks at the boundary, then the counts at the thresholds."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import InvalidParameterError, as_labels, check_memory
from ..labels import code_groups
from ..scores import truth
from ._checks import check_curve_size, check_harm, check_models, check_risks
from ._counts import Counts, counts_from_sorted
from ._groups import GroupedDecisionCurve
from ._options import CurveOptions, check_curve_options
from ._result import DecisionCurve

__all__ = ["decision_curve", "from_arrays", "from_counts_by_model"]

#: Peak bytes per risk of building a curve (the risks, the class mask, two sorted copies).
BYTES_PER_RISK = 40.0


def decision_curve(
    y_true: Any,
    y_score: Any,
    *,
    thresholds: Any = None,
    prevalence: float | None = None,
    harm: Any = 0.0,
    positive: Any = None,
    groups: Any = None,
    data: Any = None,
    confidence: float = 0.95,
    prior: Any = None,
) -> DecisionCurve | GroupedDecisionCurve:
    """Decision curve analysis (Vickers & Elkin 2006): net benefit over threshold probabilities, with
    its uncertainty.

    The rows are assumed independent (one draw each): with several rows per patient, passage or speaker
    the intervals are too narrow (for clustered rows see ``cluster=`` of :func:`~confusionlab.evaluate`,
    :func:`~confusionlab.compare_paired` and :func:`~confusionlab.roc_curve`).

    Parameters
    ----------
    y_true : array-like of labels
        The outcomes: two labels of any type; missing labels refused.
    y_score : array-like of float, or dict of name to array-like
        Each model's predicted risk of the positive outcome, in [0, 1] (one array: a model named
        ``"model"``). Scores that are not risks are refused: turn them into risks first.
    thresholds : array-like of float, optional
        Threshold probabilities in [0, 1), increasing. Default dcurves' 0.00, 0.01, …, 0.99.
    prevalence : float, optional
        The population's prevalence for a case-control sample (dcurves' ``prevalence``): then
        NB = π·TPR − w·(1 − π)·FPR − harm. Default: the observed P/N (a cohort).
    harm : float or dict of name to float, default 0.0
        Subtracted from a model's net benefit (the harm of the test itself); a dict gives it per
        model (others 0), as dcurves' ``harm``.
    positive : label, optional
        The positive outcome. Default ``1`` (or ``True``) for labels 0/1, False/True or −1/1.
    groups : array-like of labels, optional
        One curve per group (a :class:`GroupedDecisionCurve`).
    data : DataFrame, optional
        pandas, polars, pyarrow, DuckDB, Dask or PySpark: ``y_true``, ``y_score`` (a column name, or
        a dict of names to columns) and ``groups`` are column names, counted by the engine.
    confidence : float, default 0.95
        The level of the intervals :meth:`~DecisionCurve.to_frame` and the plot show.
    prior : {"uniform", "jeffreys"} or float, optional
        α of the Dirichlet posterior of the four cells; default Jeffreys' ½ for the true value
        (the defaults table, ``confusionlab.models.DEFAULTS["decision_curve"]``).

    Returns
    -------
    DecisionCurve or GroupedDecisionCurve
        ``.net_benefit`` and ``.net_intervention_avoided`` (as dcurves), ``.prob_useful``,
        ``.prob_better_than_all``, ``.prob_best``, ``.evpi``, ``.interval(confidence)``,
        ``.band(confidence)``, ``.to_frame()``.

    Raises
    ------
    InvalidParameterError
        Risks outside [0, 1] or NaN, labels missing or of one class, a bad threshold, harm,
        prevalence, prior or confidence; more than 5,000 thresholds × models (each point's P(best),
        EVPI and interval take milliseconds of quadrature).

    Notes
    -----
    At threshold probability ``p_t`` a risk is positive when it is ≥ ``p_t``; as in dcurves, a
    risk of exactly 0 is below every threshold (so at ``p_t = 0`` too) and 1 above every one.
    NB = TP/N − FP/N · p_t/(1 − p_t) − harm; "all" is π − (1 − π)·p_t/(1 − p_t); "none" is 0.
    These numbers equal ``dcurves.dca`` (1.1.7) on its example data to 1e-12 (tested).

    The counts at all thresholds come from each class's sorted risks by one binary search, so the
    curve of 3 models × 99 thresholds at 10⁶ risks, with its intervals and P(useful), took 0.75× the
    time of scikit-learn's ``roc_curve`` of the three and 1/27 of ``dcurves.dca``'s point net benefits
    (``benchmarks/bench_decision.py``).

    The posterior is the Dirichlet of the four cells at each threshold (α from ``prior``);
    ``prob_best`` and ``evpi`` compare each model with treating all and treating none (the three
    strategies of decision curve analysis), one model at a time. The band's coverage of the whole
    true curve was 98–100 % at 95 % in simulation, and 42–56 % when the prevalence's uncertainty is
    left out (``benchmarks/bench_decision_band.py``; module ``_band``).

    Examples
    --------
    >>> import numpy as np
    >>> import confusionlab as cl
    >>> rng = np.random.default_rng(0)
    >>> y = rng.uniform(size=500) < 0.2
    >>> risk = np.clip(0.2 + 0.3 * (y - 0.2) + rng.normal(0, 0.1, 500), 0, 1)
    >>> dc = cl.decision_curve(y, risk)
    >>> i = 10  # p_t = 0.10
    >>> round(float(dc.net_benefit["model"][i]), 4), round(float(dc.net_benefit["all"][i]), 4)
    (0.134, 0.1022)
    >>> round(float(dc.prob_useful["model"][i]), 3)
    1.0
    """
    options = check_curve_options(
        thresholds=thresholds,
        prevalence=prevalence,
        harm=harm,
        positive=positive,
        confidence=confidence,
        prior=prior,
    )
    prior_given = prior is not None
    if data is not None:
        from ._data import CURVE_DOOR, curve_from_counts

        return curve_from_counts(
            CURVE_DOOR(data, options, y_true=y_true, y_score=y_score, groups=groups), options, prior_given
        )
    return from_arrays(y_true, y_score, groups, options, prior_given)


def from_arrays(
    y_true: Any, y_score: Any, groups: Any, options: CurveOptions, prior_given: bool
) -> DecisionCurve | GroupedDecisionCurve:
    """:func:`decision_curve` of arrays under the checked ``options``."""
    models = check_models(y_score)
    check_curve_size(options.thresholds.size, len(models))
    harm = check_harm(options.harm, list(models))
    length = _length(y_true)
    if length is not None:
        check_memory(
            BYTES_PER_RISK * length * len(models), f"{length:,} risks of {len(models)} model(s)", "use a sample"
        )
    is_pos, label = truth(y_true, options.positive)
    risks = {
        name: check_risks(
            v,
            "y_score"
            if len(models) == 1 and name == "model" and not isinstance(y_score, dict)
            else f"y_score[{name!r}]",
            is_pos.shape[0],
        )
        for name, v in models.items()
    }
    if groups is None:
        return _curve(
            {m: _sorted_counts(r, is_pos, options) for m, r in risks.items()}, harm, options, prior_given, label
        )
    g = as_labels(groups, "groups")
    if g.shape[0] != is_pos.shape[0]:
        raise InvalidParameterError(
            f"groups must have one label per example: length {is_pos.shape[0]}, got {g.shape[0]}"
        )
    names, codes = code_groups(g)
    members = {}
    for k, name in enumerate(names):
        rows = codes == k
        _refuse_one_class(name, int(is_pos[rows].sum()), int(rows.sum()))
        counts = {m: _sorted_counts(r[rows], is_pos[rows], options) for m, r in risks.items()}
        members[name] = _curve(counts, harm, options, prior_given, label)
    pooled = {m: _sorted_counts(r, is_pos, options) for m, r in risks.items()}
    return GroupedDecisionCurve(members, _curve(pooled, harm, options, prior_given, label))


def _length(values: Any) -> int | None:
    try:
        return len(values)
    except TypeError:
        return None


def _refuse_one_class(name: Any, positives: int, rows: int) -> None:
    if positives == 0 or positives == rows:
        raise InvalidParameterError(
            f"groups: group {name!r} holds only one class ({rows} examples, {positives} positive); a decision "
            "curve needs both outcomes in every group"
        )


def _sorted_counts(risk: np.ndarray, is_pos: np.ndarray, options: CurveOptions) -> Counts:
    return counts_from_sorted(np.sort(risk[is_pos]), np.sort(risk[~is_pos]), options.thresholds)


def _curve(counts: dict, harm: dict, options: CurveOptions, prior_given: bool, label: Any) -> DecisionCurve:
    return DecisionCurve(
        counts,
        options.thresholds,
        prevalence=options.prevalence,
        harm=harm,
        prior=options.alpha,
        prior_given=prior_given,
        confidence=options.confidence,
        positive=label,
    )


def from_counts_by_model(
    counts_by_group: dict[Any, dict[Any, Counts]],
    harm_names: list,
    options: CurveOptions,
    prior_given: bool,
    label: Any,
) -> DecisionCurve | GroupedDecisionCurve:
    """The curve (or the grouped curves, keyed by group) of counts already made per model."""
    check_curve_size(options.thresholds.size, len(harm_names))
    harm = check_harm(options.harm, harm_names)
    if list(counts_by_group) == [None]:
        return _curve(counts_by_group[None], harm, options, prior_given, label)
    pooled = {  # counts at a threshold add up over the groups
        m: Counts(
            sum(c[m].tp for c in counts_by_group.values()),
            sum(c[m].fp for c in counts_by_group.values()),
            sum(c[m].p for c in counts_by_group.values()),
            sum(c[m].n for c in counts_by_group.values()),
        )
        for m in harm_names
    }
    members = {g: _curve(c, harm, options, prior_given, label) for g, c in counts_by_group.items()}
    return GroupedDecisionCurve(members, _curve(pooled, harm, options, prior_given, label))
