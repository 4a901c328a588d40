"""Bias reports: all 21 of Clarify's metrics, each with its uncertainty.

:func:`report` computes the one group-by count table (:mod:`.counts`, through
the engine modules of :mod:`confusionlab._tables`) where the data lives, evaluates every
count-based metric on it (:mod:`.evaluator`), FT on the rows of the numeric
features, and returns a :class:`~.results.BiasReport`, a read-only mapping
from abbreviation to :class:`~.results.BiasMetric`. A metric that cannot be
computed (an empty facet, no shared label value, …) has ``value=None`` and its
``error`` text, exactly where smclarify's report has a null; the rest of the
report is intact.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np

from .._deprecation import renamed_arguments
from .._tables import check_columns, to_narwhals
from .._validation import (
    DEFAULT_TOLERANCE,
    InvalidParameterError,
    check_choice,
    check_flag,
    check_instance,
    check_progress,
    check_tolerance,
)
from ..models import resolve_prior
from . import prediction_metrics as pm
from ._checks import check_column_names
from ._request import BiasRequest
from ._rows import distinct_values, facet_max, feature_rows
from .counts import CountTable, count_table
from .evaluator import Evaluator, facet_error, root_seed
from .results import DESCRIPTIONS, POSTTRAINING, PRETRAINING, BiasMetric, BiasReport
from .selection import facet_selection, label_selection
from .uncertainty import DEFAULT_N_DRAWS, TARGETS, _check_draws

__all__ = [
    "DESCRIPTIONS",
    "POSTTRAINING",
    "PRETRAINING",
    "BiasMetric",
    "BiasReport",
    "posttraining",
    "pretraining",
    "report",
    "report_each_value",
    "report_from_counts",
]


#: Largest prior the bias metrics take: beyond it a facet's posterior is narrower than the
#: quadrature's tables can resolve (≈ 1e-9 around ½), and the counts no longer matter.
MAX_BIAS_PRIOR = 1e12


def _options(
    stage: Any = "all",
    kl_labels: Any = "binary",
    prior: Any = "uniform",
    n_draws: Any = DEFAULT_N_DRAWS,
    random_state: Any = 0,
    tolerance: Any = DEFAULT_TOLERANCE,
    target: Any = "true_value",
    progress: Any = None,
) -> dict[str, Any]:
    """Validate the options of :func:`report` (what :func:`report_from_counts` and :func:`~.auditing.audit` share)."""
    stage = check_choice(stage, "stage", ("all", "pre", "post"))
    target = check_choice(target, "target", TARGETS)
    check_progress(progress)
    kl_labels = check_choice(kl_labels, "kl_labels", ("binary", "values"))
    if resolve_prior(prior) > MAX_BIAS_PRIOR:
        raise InvalidParameterError(
            f"prior must be at most {MAX_BIAS_PRIOR:g} pseudo-counts for the bias metrics, got {prior!r}: "
            "a prior that large makes every facet's rate ½ whatever its counts (use 'uniform' or 'jeffreys')"
        )
    return dict(
        stage=stage,
        kl_labels=kl_labels,
        prior=prior,
        n_draws=_check_draws(n_draws, minimum=100),
        random_state=root_seed(random_state),
        tolerance=check_tolerance(tolerance),
        target=target,
        progress=progress,
    )


def _threshold_label(frame: Any, request: BiasRequest) -> str:
    sel = request.facet
    mx = facet_max(frame, request)
    if isinstance(sel.threshold, int) and isinstance(mx, (int, np.integer)):  # pandas' integer interval
        return f"({sel.threshold}, {int(mx)}]"
    return f"({float(sel.threshold)}, {float(mx)}]"


def _flip_test(frame: Any, request: BiasRequest, features: Sequence[str]) -> float:
    x, f, p = feature_rows(frame, request, features)
    err = facet_error(np.array([int((~f).sum()), int(f.sum())]), request.facet.text())
    if err:
        raise ValueError(err)  # the data, not an argument: FT's error text in the report
    return pm.flip_test(x[~f], p[~f], x[f], p[f])


@renamed_arguments(n_samples="n_draws")
def report(
    data: Any,
    *,
    label: str,
    facet: str | Sequence[str],
    positive_values: Sequence[Any] | None = None,
    label_threshold: float | None = None,
    facet_values: Sequence[Any] | None = None,
    facet_threshold: float | None = None,
    predicted: str | None = None,
    group: str | None = None,
    features: Sequence[str] | None = None,
    dropna: bool = False,
    stage: Literal["all", "pre", "post"] = "all",
    kl_labels: Literal["binary", "values"] = "binary",
    prior: str | float = "uniform",
    n_draws: int = DEFAULT_N_DRAWS,
    random_state: Any = 0,
    tolerance: float = DEFAULT_TOLERANCE,
    target: str = "true_value",
    progress: bool | None = None,
) -> BiasReport:
    r"""Clarify's bias metrics, with their uncertainty (the true value's or a new sample's).

    The rows are assumed independent (one draw each): with several rows per patient, passage or speaker
    the intervals are too narrow (for clustered rows see ``cluster=`` of :func:`~confusionlab.evaluate`,
    :func:`~confusionlab.compare_paired` and :func:`~confusionlab.roc_curve`).

    Parameters
    ----------
    data : DataFrame-like
        pandas or polars DataFrame, pyarrow Table, DuckDB relation, Dask or
        PySpark DataFrame. Counting happens in that engine, in one group-by
        (:func:`confusionlab.bias._request.count_cells`).
    label : str
        Label column.
    facet : str or list of str
        Facet column; several columns make an intersectional facet.
    positive_values : list, optional
        Label values that count as positive (exactly one of this and
        ``label_threshold``). Predictions are binarised the same way.
    label_threshold : float, optional
        Positive label = ``label > label_threshold`` (numeric labels).
    facet_values : list, optional
        Sensitive values: facet d = rows with these values, a = the rest. With
        several facet columns, a list of tuples (one entry per column).
    facet_threshold : float, optional
        Facet d = ``facet > facet_threshold`` (one numeric facet column).
    predicted : str, optional
        Predicted-label column (binary decisions with the label's values);
        post-training metrics are computed when given.
    group : str, optional
        Subgroup column for CDDL and CDDPL (they fail without it, as in Clarify).
    features : list of str, optional
        Numeric or boolean feature columns for FT (FT fails without them).
    dropna : bool, default False
        Missing values (None, NaN, pandas ``<NA>``) in the label, facet,
        predicted or group column are never a category: they are refused,
        naming the argument, the column and the count, unless ``dropna=True``,
        which leaves those rows out (in the engine) for every metric.
    stage : {"all", "pre", "post"}
        Which metrics to compute.
    kl_labels : {"binary", "values"}
        KL, JS, LP, TVD and KS on the binarised label (smclarify's
        ``bias_report``) or on every label value (its metric functions).
    prior : "uniform", "jeffreys" or float
        Beta/Dirichlet prior α for the uncertainty.
    n_draws : int, default 20,000
        Monte Carlo draws where the uncertainty is not exact (at least 100;
        refused before allocating when the draws would exceed the memory limit).
        (Formerly ``n_samples``, still accepted with a FutureWarning.)
    random_state : None, int, SeedSequence or Generator, default 0
        Where the Monte Carlo draws come from (every metric's draws start from it).
    tolerance : float, default 1e-12
        Probability mass each exact beta-binomial marginal may drop from its
        tails (at most half of it per tail), as everywhere in ConfusionLab.
    target : {"true_value", "next_test_set"}, default "true_value"
        The question each metric's :meth:`~BiasMetric.interval` answers by default:
        ``"true_value"``, the true disparity in the population (the posterior of the
        facets' true rates; the default, as :func:`~confusionlab.bias.audit`'s);
        ``"next_test_set"``, the metric on a new sample with the same facet sizes
        (posterior predictive, about √2 wider; the default of 0.1.0).
        ``BiasMetric.interval(confidence, target=...)`` gives the other one too, and
        every summary and page names the question it answers.
    progress : bool or None, default None
        A progress bar for long Monte Carlo work (tqdm's; None: only in an
        interactive session).

    Returns
    -------
    BiasReport

    Raises
    ------
    InvalidParameterError
        Arguments of the wrong type or value (a ValueError and a TypeError):
        missing columns, contradictory or out-of-range arguments, a data
        object no engine wraps.
    ValueError
        Missing values in the label/facet/predicted/group columns (without
        ``dropna=True``), data without rows, predictions that are not label
        values.

    See Also
    --------
    audit : every group of every facet at once, with a verdict per metric.
    plan_group_size : how many rows a group needs for an interval of a given width.
    report_from_counts : the same report from published confusion counts.

    Notes
    -----
    Values, signs and edge cases follow smclarify 0.5: the same numbers, the
    same sign conventions (a positive DPL/DPPL means facet *d* is
    disadvantaged) and the same errors where smclarify's report has a null
    (an empty facet, no shared label value, …). Everything but FT is computed
    from one (group × facet × label × prediction) count table; FT reads the
    feature columns. Uncertainties are computed on first use of
    ``interval``/``distribution`` (see :mod:`.uncertainty`).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"y": [1, 0, 1, 1, 0, 0, 1, 0], "p": [1, 0, 1, 0, 0, 0, 1, 0],
    ...                    "sex": list("MMMMFFFF")})
    >>> r = report(df, label="y", positive_values=[1], facet="sex", facet_values=["F"],
    ...            predicted="p")
    >>> r["CI"].value, r["DPL"].value, r["DPPL"].value
    (0.0, 0.5, 0.25)
    >>> lo, hi = r["DPPL"].interval(0.95); bool(lo < 0 < hi)
    True

    A missing label is refused, or its row left out with ``dropna=True``:

    >>> df.loc[7, "y"] = None
    >>> report(df, label="y", positive_values=[1], facet="sex", facet_values=["F"])
    Traceback (most recent call last):
    ...
    ValueError: label: column 'y' has 1 missing value (None/NaN/<NA>); ...
    >>> r = report(df, label="y", positive_values=[1], facet="sex", facet_values=["F"], dropna=True)
    >>> round(r["CI"].value, 4)    # (4 - 3) / 7
    0.1429
    """
    opts = _options(stage, kl_labels, prior, n_draws, random_state, tolerance, target, progress)
    stage = opts.pop("stage")
    if features is not None:
        if isinstance(features, str):  # one name would be read as a list of its letters elsewhere: refuse it
            check_instance(features, "features", (list, tuple), "a list of column names")
        features = check_column_names(features, "features", allow_empty=True)
    if stage == "post" and predicted is None:
        raise InvalidParameterError("stage='post' needs predicted=<column of predicted labels>")
    fsel = facet_selection(facet, facet_values, facet_threshold)
    lsel = label_selection(positive_values, label_threshold)
    roles = {"label": label, "predicted": predicted, "group": group}
    clash = [f"{role} ({col!r})" for role, col in roles.items() if isinstance(col, str) and col in fsel.columns]
    if clash:  # a facet that is the label (or the prediction) makes every metric say the label predicts itself
        raise InvalidParameterError(
            f"facet {list(fsel.columns)!r} must not include the {' or the '.join(clash)} column: a facet is a column "
            "of who the examples are (e.g. sex), distinct from the outcome"
        )
    frame = to_narwhals(data)
    check_columns(frame, features=features)
    table = count_table(frame, label=label, labels=lsel, facet=fsel, predicted=predicted, group=group, dropna=dropna)
    request = BiasRequest(label, lsel, fsel, predicted, group, bool(dropna))
    vot = _threshold_label(frame, request) if fsel.threshold is not None else fsel.describe()
    ev = Evaluator(table, **opts, facet_text=fsel.text())
    metrics: dict[str, BiasMetric] = {}
    if stage in ("all", "pre"):
        metrics.update(ev.pre(group is not None))
    if stage in ("all", "post") and predicted is not None:
        metrics.update(ev.post(group is not None))
        if features is None:
            metrics["FT"] = ev.metric(
                "FT",
                lambda: math.nan,
                "features were not given: FT needs numeric feature columns (features=[...])",
                None,
            )
        else:
            metrics["FT"] = ev.metric("FT", lambda: _flip_test(frame, request, list(features)), None, None)
    return BiasReport(metrics, table, vot, target=opts["target"])


def pretraining(data: Any, **kwargs: Any) -> BiasReport:
    """The pre-training half of :func:`report` (CI, DPL, KL, JS, LP, TVD, KS, CDDL).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"y": ["+", "-", "+", "-", "-"], "s": list("aabbb")})
    >>> list(pretraining(df, label="y", positive_values=["+"], facet="s", facet_values=["b"]))
    ['CDDL', 'CI', 'DPL', 'JS', 'KL', 'KS', 'LP', 'TVD']
    """
    kwargs.pop("predicted", None)
    kwargs.pop("features", None)
    return report(data, stage="pre", **kwargs)


def posttraining(data: Any, **kwargs: Any) -> BiasReport:
    """The post-training half of :func:`report` (needs ``predicted=``).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"y": [1, 0, 1, 0], "p": [1, 0, 0, 0], "s": list("aabb")})
    >>> r = posttraining(df, label="y", positive_values=[1], facet="s", facet_values=["b"],
    ...                  predicted="p")
    >>> r["DPPL"].value, r["FT"].error is not None
    (0.5, True)
    """
    return report(data, stage="post", **kwargs)


def report_each_value(data: Any, *, facet: str, dropna: bool = False, **kwargs: Any) -> dict[Any, BiasReport]:
    """One report per value of a categorical facet, that value against the rest.

    What smclarify's ``bias_report`` does when no facet values are given.
    Keyword arguments are those of :func:`report` (without ``facet_values``
    and ``facet_threshold``). Each report is one group-by on the engine. A
    missing facet value is never a category: it is refused unless
    ``dropna=True`` (then its rows are left out of every report).

    Returns
    -------
    dict
        Facet value → :class:`BiasReport`, values in sorted order.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"y": [1, 0, 1, 0, 1, 1], "race": list("aabbcc")})
    >>> rs = report_each_value(df, label="y", positive_values=[1], facet="race", stage="pre")
    >>> {k: round(r["DPL"].value, 3) for k, r in rs.items()}
    {'a': 0.25, 'b': 0.25, 'c': -0.5}
    """
    for arg in ("facet_values", "facet_threshold"):
        if kwargs.get(arg) is not None:
            raise InvalidParameterError(f"report_each_value takes no {arg}, got {kwargs[arg]!r}")
        kwargs.pop(arg, None)  # None: not given (each value is its own facet_values)
    check_instance(facet, "facet", str, "one column name")
    dropna = check_flag(dropna, "dropna")
    frame = to_narwhals(data)
    check_columns(frame, facet=facet)
    found, missing = distinct_values(frame, facet)
    if missing and not dropna:
        raise ValueError(
            f"facet: column {facet!r} has {missing} missing value{'s' if missing != 1 else ''} (None/NaN/<NA>); "
            "missing values are never a category: drop or fill them first, or pass dropna=True to leave those "
            "rows out"
        )
    if not found:
        raise ValueError("data has no rows" + (" left after dropna=True" if missing else ""))
    return {
        v: report(data, facet=facet, facet_values=[v], dropna=dropna, **kwargs)
        for v in sorted(found, key=lambda v: (type(v).__name__, v))
    }


@renamed_arguments(n_samples="n_draws")
def report_from_counts(counts: CountTable, *, value_or_threshold: str = "d", **options: Any) -> BiasReport:
    """A report from a ready count table (e.g. published confusion matrices); no FT.

    Parameters
    ----------
    counts : CountTable
        E.g. :meth:`CountTable.from_confusion` with per-facet ``(tp, fn, fp, tn)``.
    value_or_threshold : str
        The facet's description in :meth:`BiasReport.to_clarify_json`.
    **options
        ``stage``, ``kl_labels``, ``prior``, ``n_draws``, ``random_state``,
        ``tolerance``, ``target``, ``progress``: as in :func:`report`, with the same defaults.

    See Also
    --------
    report : the same report from the rows of a dataframe.

    Examples
    --------
    >>> t = CountTable.from_confusion(a=(2718, 3678, 84, 13900), d=(433, 679, 10, 8660))
    >>> r = report_from_counts(t)
    >>> round(r["DPPL"].value, 4), round(r["TE"].value, 4)
    (0.0922, 24.1143)
    """
    check_instance(counts, "counts", CountTable, "a CountTable")
    check_instance(value_or_threshold, "value_or_threshold", str, "a string")
    opts = _options(**options)
    stage = opts.pop("stage")
    ev = Evaluator(counts, **opts)
    group_given = counts.groups is not None
    metrics: dict[str, BiasMetric] = {}
    if stage in ("all", "pre"):
        metrics.update(ev.pre(group_given))
    if stage in ("all", "post") and counts.has_predictions:
        metrics.update(ev.post(group_given))
    return BiasReport(metrics, counts, value_or_threshold, target=opts["target"])
