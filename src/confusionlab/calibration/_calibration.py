"""``calibration(y_true, y_prob)``: the checks at the boundary, then the bins."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import (
    InvalidParameterError,
    as_labels,
    check_choice,
    check_random_state,
    check_same_length,
)
from ..labels import code_groups, distinct_labels, labels_equal, positive_label, same_label
from ._bins import bin_forecasts
from ._checks import check_forecast_size, check_forecasts
from ._multi import CalibrationSet
from ._options import MAX_BINS, Options, check_options
from ._result import Calibration

__all__ = ["MAX_BINS", "MULTI_CLASS", "calibration"]

#: The ways of calibrating more than two classes.
MULTI_CLASS = ("classwise", "top-label")

#: Peak bytes per forecast of building a calibration (copies, bin ids, order, sorted copies).
BYTES_PER_FORECAST = 80.0


def calibration(
    y_true: Any,
    y_prob: Any,
    *,
    bins: int = 10,
    strategy: str = "quantile",
    positive: Any = None,
    n_resamples: int = 2000,
    n_draws: int = 10_000,
    random_state: Any = 0,
    multi_class: str | None = None,
    classes: Any = None,
    groups: Any = None,
    data: Any = None,
) -> Calibration | CalibrationSet:
    """The reliability diagram of forecast probabilities, with its uncertainty.

    The rows are assumed independent (one draw each): with several rows per patient, passage or speaker
    the intervals are too narrow (for clustered rows see ``cluster=`` of :func:`~confusionlab.evaluate`,
    :func:`~confusionlab.compare_paired` and :func:`~confusionlab.roc_curve`).

    Parameters
    ----------
    y_true : array-like of labels
        The outcomes: two labels of any type (numbers, strings, booleans); missing values are refused.
    y_prob : array-like of float
        The forecast probability of the positive label, each in [0, 1].
    bins : int, default 10
        Number of bins (bins left empty are dropped, as scikit-learn does).
    strategy : {"quantile", "uniform"}, default "quantile"
        ``"quantile"``: edges at the forecasts' percentiles (bins of about equal counts);
        ``"uniform"``: equal widths over [0, 1].
    positive : label, optional
        The positive label. Default ``1`` (or ``True``) for labels 0/1, False/True or −1/1.
        With more than two labels it is required, and the others count as negative.
    n_resamples : int, default 2000
        Bootstrap resamples of the Brier score's interval (the ECE's interval needs none).
    n_draws : int, default 10 000
        Monte Carlo draws of :meth:`Calibration.p_value` (standard error ≤ 0.005).
    random_state : None, int, SeedSequence or Generator, default 0
        Seeds the bootstrap and the Monte Carlo test (None: fresh entropy).
    multi_class : {"classwise", "top-label"}, optional
        For a (samples × classes) matrix ``y_prob`` (columns in the order of ``classes``):
        ``"classwise"`` calibrates each column one-vs-rest (a :class:`CalibrationSet` over
        the classes); ``"top-label"`` calibrates the largest probability of each row against
        whether its class is the true label (a :class:`Calibration` whose positive outcome
        is ``True``, "the top label is right").
    classes : sequence of labels, optional
        The classes of ``y_prob``'s columns (default: the sorted distinct labels of
        ``y_true``, scikit-learn's ``classes_`` order). Only with ``multi_class``.
    groups : array-like of labels, optional
        One calibration per group (a :class:`CalibrationSet`), bands simultaneous across
        groups and bins. With ``multi_class="top-label"`` too; not yet with ``"classwise"``.
    data : DataFrame, optional
        pandas, polars, pyarrow, DuckDB, Dask or PySpark: ``y_true``, ``y_prob`` and ``groups``
        are then column names, (group, true label, forecast) counted by the engine
        (``calibration/_data.py``): the array path's answer. With more than 10⁶ distinct
        forecasts the engine bins them itself (see Notes).

    Returns
    -------
    Calibration or CalibrationSet
        Per bin the mean forecast, the observed frequency and the count; ``.value`` is the
        ECE, ``.interval(confidence)`` its interval, ``.band(confidence)`` the exact
        consistency band, ``.p_value()`` the test of calibration, ``.brier`` and
        ``.brier_interval(confidence)`` the Brier score. With ``groups=`` or
        ``multi_class="classwise"``, a :class:`CalibrationSet` of such members.

    Raises
    ------
    InvalidParameterError
        Probabilities outside [0, 1] or NaN, labels missing or of more than two kinds
        without ``positive``, different lengths, a bad ``bins``, ``strategy``,
        ``n_resamples``, ``n_draws`` or ``random_state``.
    TooLargeError
        More forecasts than the memory limit holds, refused before anything is allocated.

    Notes
    -----
    ``ECE = Σ_b (k_b/N)·|ō_b − q̄_b|`` over the non-empty bins (``k_b`` forecasts, observed
    frequency ``ō_b``, mean forecast ``q̄_b``). The bins are scikit-learn's
    (``calibration_curve``): the same mean forecasts and observed frequencies.

    With ``data=`` and more than 10⁶ distinct forecasts, the engine bins the forecasts and
    returns per (true label, bin, group) the count, the sums of the forecasts' powers 1-4 and
    their extremes. The bins, the ECE, its interval and the Brier score are then exact (the
    array path's with the same edges); the consistency band and the p-value treat each bin's
    forecasts as their mean (a binomial instead of the Poisson-binomial, so the band is never
    narrower), the Brier interval draws every bin by the normal approximation (bound:
    ``bootstrap_error``), and the result says so (``Calibration.approximation``, ``summary()``,
    the ``band_method`` column of ``to_frame()``). ``strategy="uniform"`` edges are fixed;
    quantile edges are the forecasts' exact percentiles on pandas, polars, pyarrow and DuckDB,
    those of a sample on Spark and Dask's approximate quantiles (the bins exact for those
    edges), and with ``groups=`` the groups share the whole column's edges.

    ``cl.calibration`` is this function; its subpackage is reached as
    ``from confusionlab.calibration import Calibration`` (the function's name shadows the
    subpackage's as an attribute of ``confusionlab``, as ``cl.calibration(...)`` reads).

    See Also
    --------
    Calibration.band : the exact consistency band.
    Calibration.p_value : the p-value of the Monte Carlo test of calibration (``.test()``: the test).

    Examples
    --------
    >>> import numpy as np
    >>> import confusionlab as cl
    >>> rng = np.random.default_rng(0)
    >>> q = rng.uniform(size=2000)
    >>> y = rng.uniform(size=2000) < q
    >>> cal = cl.calibration(y, q, bins=10, random_state=0)
    >>> round(cal.value, 3), cal.counts.tolist()[:3]
    (0.029, [200, 200, 200])
    >>> int(cal.band().outside.sum()), cal.p_value() > 0.05
    (0, True)
    """
    options = check_options(
        bins=bins,
        strategy=strategy,
        positive=positive,
        n_resamples=n_resamples,
        n_draws=n_draws,
        random_state=random_state,
        multi_class=multi_class,
        classes=classes,
    )
    if data is not None:  # data= with column names: the table counted by the data's own engine
        from ._data import DOOR, from_counts

        return from_counts(DOOR(data, options, y_true=y_true, y_prob=y_prob, groups=groups), options)
    return from_arrays(y_true, y_prob, groups, options)


def from_arrays(y_true: Any, y_prob: Any, groups: Any, options: Options) -> Calibration | CalibrationSet:
    """:func:`calibration` of arrays under the checked ``options`` (what ``data=`` ends in too, on the
    rows of its cells).

    >>> from confusionlab.calibration._options import check_options
    >>> o = check_options(bins=2, strategy="quantile", positive=None, n_resamples=100, n_draws=100,
    ...                   random_state=0, multi_class=None, classes=None)
    >>> round(from_arrays([0, 1, 0, 1], [0.1, 0.6, 0.3, 0.9], None, o).value, 4)  # ½·|0 − 0.2| + ½·|1 − 0.75|
    0.225
    """
    check_forecast_size(
        y_prob, "y_prob", bytes_per_forecast=BYTES_PER_FORECAST, advice="evaluate a sample of the forecasts"
    )
    check_forecast_size(y_true, "y_true", bytes_per_forecast=16.0, advice="evaluate a sample of the forecasts")
    bins, strategy, positive, n_draws = options.bins, options.strategy, options.positive, options.n_draws
    random_state, multi_class, classes = options.random_state, options.multi_class, options.classes
    arguments = options.calibration_arguments()
    if multi_class is None:
        if classes is not None:
            raise InvalidParameterError("classes= names the columns of a (samples × classes) y_prob: pass multi_class")
        q = check_forecasts(y_prob, "y_prob")
        t = as_labels(y_true, "y_true")
        g = None if groups is None else as_labels(groups, "groups")
        check_same_length({"y_true": t, "y_prob": q, **({} if g is None else {"groups": g})}, "a calibration")
        y, positive = _outcomes(t, positive)
    else:
        multi_class = check_choice(multi_class, "multi_class", MULTI_CLASS)
        if positive is not None:
            raise InvalidParameterError(
                f"positive={positive!r} does not apply with multi_class={multi_class!r} (every class is used)"
            )
        t = as_labels(y_true, "y_true")
        g = None if groups is None else as_labels(groups, "groups")
        matrix, labels = _forecast_matrix(y_prob, t, classes)
        check_same_length({"y_true": t, "y_prob": matrix, **({} if g is None else {"groups": g})}, "a calibration")
        if multi_class == "classwise":
            if g is not None:
                raise InvalidParameterError(
                    "groups= with multi_class='classwise' is not supported yet; calibrate each group's rows"
                )
            seeds = check_random_state(random_state).spawn(len(labels))
            members = {
                label: Calibration(
                    bin_forecasts(matrix[:, k], labels_equal(t, label), bins, strategy),
                    positive=label,
                    random_state=seeds[k],
                    **arguments,
                )
                for k, label in enumerate(labels)
            }
            return CalibrationSet(members, "classwise", n_draws=n_draws, random_state=random_state)
        top = np.argmax(matrix, axis=1)
        q = matrix[np.arange(matrix.shape[0]), top]
        y = np.zeros(q.size, dtype=bool)
        for k, label in enumerate(labels):
            y |= (top == k) & labels_equal(t, label)
        positive = True
    if g is None:
        return Calibration(
            bin_forecasts(q, y, bins, strategy), positive=positive, random_state=random_state, **arguments
        )
    names, codes = code_groups(g)
    seeds = check_random_state(random_state).spawn(len(names))
    members = {}
    for k, name in enumerate(names):
        rows = codes == k
        members[name] = Calibration(
            bin_forecasts(q[rows], y[rows], bins, strategy), positive=positive, random_state=seeds[k], **arguments
        )
    # the whole test set's, as without groups= (made after the members: a Generator's spawns keep their order)
    overall = Calibration(
        bin_forecasts(q, y, bins, strategy), positive=positive, random_state=random_state, **arguments
    )
    return CalibrationSet(members, "groups", n_draws=n_draws, random_state=random_state, overall=overall)


def _forecast_matrix(y_prob: Any, t: np.ndarray, classes: Any) -> tuple[np.ndarray, list[Any]]:
    """A validated (samples × classes) matrix of probabilities and the classes of its columns."""
    try:
        arr = np.asarray(y_prob)
    except (TypeError, ValueError):
        raise InvalidParameterError("y_prob must be a (samples × classes) matrix of probabilities") from None
    if arr.ndim != 2 or arr.shape[1] < 2:
        raise InvalidParameterError(
            f"with multi_class, y_prob must be a (samples × classes) matrix with at least two columns, "
            f"got shape {arr.shape}"
        )
    matrix = np.column_stack([check_forecasts(arr[:, k], f"y_prob[:, {k}]") for k in range(arr.shape[1])])
    labels = distinct_labels(t) if classes is None else list(as_labels(classes, "classes").tolist())
    if len(labels) != matrix.shape[1] or len(set(map(repr, labels))) != len(labels):
        raise InvalidParameterError(
            f"y_prob has {matrix.shape[1]} columns and there are {len(labels)} distinct classes {labels!r}; "
            "pass classes=<the labels of the columns, in order> (a model's classes_)"
        )
    return matrix, labels


def _outcomes(t: np.ndarray, positive: Any) -> tuple[np.ndarray, Any]:
    """Booleans ``t == positive`` and the positive label (the library's rule for which it is)."""
    labels = distinct_labels(t)
    if len(labels) > 2 and positive is None:
        shown = ", ".join(map(repr, labels[:6])) + (" …" if len(labels) > 6 else "")
        raise InvalidParameterError(
            f"y_true holds {len(labels)} distinct labels ({shown}); a calibration of y_prob needs two, or "
            "positive=<label> for the class whose probability y_prob is (one-vs-rest)"
        )
    if positive is None:
        positive = positive_label(labels, None)
    elif not any(same_label(v, positive) for v in labels) and not _is_default(labels, positive):
        raise InvalidParameterError(
            f"positive={positive!r} does not occur in y_true (labels: {labels!r}); check its spelling and type"
        )
    return labels_equal(t, positive), positive


def _is_default(labels: list[Any], positive: Any) -> bool:
    """Whether ``positive`` is the default positive label of ``labels`` (1 for labels that are all 0)."""
    try:
        return same_label(positive_label(labels, None), positive)
    except InvalidParameterError:
        return False
