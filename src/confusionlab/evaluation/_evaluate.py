"""evaluate: from predictions, groups and refits to an :class:`Evaluation` (validated once)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._deprecation import renamed_arguments
from .._validation import (
    DEFAULT_TOLERANCE,
    InvalidParameterError,
    as_labels,
    check_labels_not_scores,
)
from ..models import TABLE_PRIOR, TRUE_VALUE_PRIOR
from ._clustered import check_clusterable, clustered_counts
from ._data import DOOR, from_counts
from ._labels import _as_refits, _classes, _codes, _counter, _group_codes
from ._options import (
    MAX_DRAWS,
    check_options,
    check_simplex_fits,
    check_target_model,
    positive_and_metrics,
)
from ._result import Evaluation

__all__ = ["MAX_DRAWS", "TABLE_PRIOR", "TRUE_VALUE_PRIOR", "evaluate"]


@renamed_arguments(n_samples="n_draws")
def evaluate(
    y_true: Any,
    y_pred: Any = None,
    *,
    groups: Any = None,
    refits: Any = None,
    positive: Any = None,
    model: str = "beta-binomial",
    method: str = "auto",
    metrics: Sequence[str] | None = None,
    target: str = "true_value",
    tolerance: float = DEFAULT_TOLERANCE,
    prior: Any = None,
    n_draws: int = 20_000,
    random_state: Any = 0,
    min_class_size: int = 10,
    progress: bool | None = None,
    data: Any = None,
    cluster: Any = None,
) -> Evaluation:
    """Evaluate a classifier's predictions: how sure, for whom, would a refit agree?

    Without ``cluster=`` the rows are assumed independent (one draw each): with several rows per patient,
    passage or speaker, pass ``cluster=`` or the intervals are too narrow.

    Parameters
    ----------
    y_true : array-like of labels
        True labels of the test objects (lists, numpy, pandas or polars; no missing values).
    y_pred : array-like of labels, optional
        The model's predictions. At least one of ``y_pred`` and ``refits`` is needed.
    groups : array-like, optional
        A group label per object (e.g. ``df.sex``); every group needs at least two rows.
    refits : array-like of shape (refits, objects), optional
        Predictions of R ≥ 2 refitted models (other seeds) on the same test set.
    positive : label, optional
        The positive class of binary metrics (default 1/True for 0/1 labels). With more
        than two classes, binary metrics need it (one class against the rest).
    model : {"beta-binomial", "binomial", "dirichlet-multinomial"}
        The uncertainty model of :func:`~confusionlab.metric_distribution`.
    method : {"auto", "exact", "monte-carlo"}, default "auto"
        How the binary metrics' distributions are computed. ``"auto"``: exactly wherever
        the lattice fits in :func:`confusionlab.memory_limit` (for refits, their union
        lattice also of at most :data:`~confusionlab.distribution.EXACT_MIXTURE_POINTS` points:
        about a second a metric; for the refits' true values, their quadratures pooled up to
        2·10⁶ atoms, about 12 refits, beyond ``n_draws / R`` draws of each), else by
        ``n_draws`` Monte Carlo draws of the same model (any size). ``"exact"``: exactly or
        refused (at the call, for the whole test set). ``"monte-carlo"``: draws everywhere. Each
        distribution's ``.method`` and the ``method`` column of :meth:`Evaluation.to_frame`
        say which answered, ``mc_error`` and ``cdf_error`` how far it may be from exact
        (Notes of :func:`~confusionlab.metric_distribution`). The macro averages are Monte
        Carlo under every method.
    metrics : str or sequence of str, optional
        Metrics (one name, or several) reported by :attr:`Evaluation.value`, :meth:`Evaluation.to_frame`, the
        view and the page (validated here). Default ``f1, recall, precision,
        balanced_accuracy``, or the macro averages for more than two classes.
        ``"macro_<metric>"`` is the mean of the classes' one-vs-rest metric (so
        ``"macro_mcc"`` is the mean of one-vs-rest MCCs); ``"multiclass_mcc"`` is the
        multi-class MCC (Gorodkin's R_K, scikit-learn's ``matthews_corrcoef``), a
        different number.
    target : {"true_value", "next_test_set"}, default "true_value"
        The question: where the metric's true value lies (default), or what a new test
        set of the same size will show (see :data:`QUESTIONS`).
    tolerance : float
        Tail mass each marginal may drop (:func:`~confusionlab.metric_distribution`).
    prior : {"uniform", "jeffreys"} or float, optional
        The prior of every posterior formed: α of the rates' Beta(· + α, · + α) (binary
        metrics, both questions) and of each row's Dirichlet(row + α) (macro averages and
        the multi-class MCC); "uniform" is α = 1, "jeffreys" α = ½. By default (None) it
        is chosen by how often the 95 % interval covers the true value in simulation
        (Notes): α = ½ for the binary metrics' true value, α = 1 for their next test set
        (the beta-binomial of :func:`~confusionlab.metric_distribution`), and α = 0.1
        for the table metrics, under both questions.
    n_draws : int, default 20,000
        Monte Carlo draws of each macro average (split evenly over the refits), and of each
        binary distribution that is sampled (``method``), at most :data:`MAX_DRAWS`.
        ``n_samples=`` is its old name.
    random_state : None, int or Generator, default 0
        Seed of the Monte Carlo draws.
    min_class_size : int, default 10
        A group with fewer positives or negatives (for macro averages: fewer objects
        in some class) is flagged ``too_small``: its intervals say little.
    progress : bool or None, default None
        A progress bar (tqdm's: a widget in Jupyter, text in a terminal) while the Monte
        Carlo draws of a table metric run, shown only when they take more than half a
        second. None: only when someone is watching (Jupyter or a terminal, never when the
        output is captured); False: never. The draws are the same either way.
    data : DataFrame, optional
        pandas, polars, pyarrow, DuckDB, Dask or PySpark: then ``y_true``, ``y_pred`` and
        ``groups`` are column names, and the count table is computed by the engine
        (``evaluation/_data.py``; the same numbers; no ``refits``).
    cluster : array-like, optional
        A cluster id per object (a column name with ``data=``): objects of one cluster (one
        patient's scans, one passage's questions) are not independent. Without it the objects
        are assumed independent, and with clustered objects every interval is too narrow.
        With it, :meth:`Evaluation.interval`, :meth:`~Evaluation.interval_of` and the
        ``lower``/``upper`` of :meth:`~Evaluation.to_frame` are the cluster-robust delta-method
        intervals (:attr:`Evaluation.interval_method`; Notes), and the evaluation reports
        :attr:`~Evaluation.icc`, :attr:`~Evaluation.design_effect` and
        :attr:`~Evaluation.effective_size`; :meth:`~Evaluation.distribution` stays the
        independent-rows posterior. Binary metrics of one ``y_pred`` (no refits, no macro averages).

    Returns
    -------
    Evaluation

    Raises
    ------
    confusionlab.InvalidParameterError
        Lengths that differ, a ``refits`` matrix of the wrong shape, a group of one row,
        a binary metric asked of more than two classes without ``positive``, a
        ``positive`` that is not a label, missing values, scores (non-integer numbers)
        where labels are expected, ``target="true_value"`` with another model than the
        beta-binomial, the simplex model on a test set too large for it; each names the
        argument, and nothing is computed.
    TooLargeError
        Monte Carlo draws (``n_draws``) of the table metrics that would need more memory
        than :func:`confusionlab.memory_limit` allows, also before anything is computed.

    See Also
    --------
    confusionlab.metric_distribution : the exact distribution of one confusion matrix.
    confusionlab.compare_paired : two classifiers scored on the same test set.
    confusionlab.plan_test_size : how large a test set must be for an interval of ± h.

    Notes
    -----
    Every distribution comes from the core. One prediction vector: exactly
    ``metric_distribution(ConfusionMatrix.from_predictions(...), metric, model=model)``,
    overall and per group. Refits: the equal-weight mixture of the refits' exact
    distributions ("a new refit scored on a new test set") and the law-of-total-variance
    split of its variance into a test-set part (the mean of the refits' variances) and a
    refit part (the variance, ddof = 0, of their means). More than two classes: exact
    one-vs-rest distributions per class, and macro averages by Monte Carlo under the
    row-wise Dirichlet-multinomial model, with their Monte Carlo error
    (:meth:`Evaluation.mc_error`).

    The default priors come from a coverage study (``benchmarks/bench_coverage.py``:
    N = 30 to 1,000, rates 0.95 and 0.7, prevalence 0.5 and 0.1, three classes balanced
    or 0.45/0.45/0.1; the table is in ``benchmarks/RESULTS.md``). Each row's
    Dirichlet(row + 1) adds K − 1 pseudo-counts of error to every class and pulls an
    accurate classifier toward chance: with three classes at 95 % accuracy the 95 %
    true-value interval of macro-F1 under α = 1 covered the true value in 0 % of test
    sets at N = 30, about 50 % at N = 100, 72 % at N = 300 and 87 % at N = 1,000; Jeffreys'
    α = ½ 53–66 % at N = 30; α = 0.1 covered 89–99 % throughout (at N = 90 and 90 %
    accuracy: 94 % against 71 % for α = 1). For the binary rates, Beta(· + 1, · + 1)
    covered 81–85 % at N = 30 with rates 0.95, Jeffreys' α = ½ 93–94 %, and α = 0.1 too
    little (77 %: the all-correct test set's posterior piles up at 1). The next-test-set
    distribution of a binary metric keeps α = 1, the paper's beta-binomial. The interval
    is a Bayesian one and still under-covers for an inaccurate three-class classifier
    (rates 0.7, balanced classes) at N = 30 to 100: 77–90 % under every prior studied,
    89–90 % under the default. Read it as a posterior, not a guarantee.

    With ``cluster=``, the interval of each metric f(TP, FN, FP, TN) is
    f ± t·SE with Student's t of C − 1 degrees of freedom (C clusters), SE² = C/(C − 1)·Σ_c u_c²
    and u_c = ∇f·t_c the cluster's linearised contribution from its counts t_c (the delta
    method; for accuracy it equals statsmodels' cluster-robust CR1 error of the mean), clipped
    to the metric's range. It is a frequentist interval for the true value — the metric in the
    population of clusters the test clusters came from — and assumes independent clusters,
    not independent rows; its width follows the effective size (N / design effect), not N.
    Its coverage was measured by simulation (beta-binomial clusters, ``benchmarks/coverage_cluster.py``,
    table in ``benchmarks/RESULTS.md``; ICC 0 to 0.7, 10 to 200 clusters): the 95 % clustered
    interval of accuracy, F1 and MCC covered 90–99 % from 50 clusters on, 90–97 % with 10 clusters
    up to ICC 0.3 and 82–88 % with 10 clusters at ICC 0.7; the default interval of independent
    rows covered 72–91 % at ICC 0.1, 57–72 % at ICC 0.3 and 40–55 % at ICC 0.7.

    Examples
    --------
    >>> ev = evaluate([1, 1, 0, 0, 1, 0, 1, 0], [1, 0, 0, 0, 1, 1, 1, 0])
    >>> ev.value["recall"]
    0.75
    >>> d = ev.distribution("recall")
    >>> d.target, round(d.mean(), 3)
    ('true_value', 0.7)
    >>> ev = evaluate([1, 1, 0, 0, 1, 0, 1, 0], [1, 0, 0, 0, 1, 1, 1, 0], target="next_test_set")
    >>> round(ev.distribution("recall").mean(), 3)
    0.667
    >>> ev = evaluate([1, 1, 0, 0, 1, 0, 1, 0], [1, 0, 0, 0, 1, 1, 1, 0], cluster=[1, 1, 2, 2, 3, 3, 4, 4])
    >>> ev.interval_method, round(ev.icc, 3), round(ev.design_effect, 3)
    ('cluster-robust delta method (t, C - 1 df)', -0.2, 1.0)
    """
    opts = check_options(
        model=model,
        method=method,
        metrics=metrics,
        target=target,
        tolerance=tolerance,
        prior=prior,
        n_draws=n_draws,
        random_state=random_state,
        min_class_size=min_class_size,
        progress=progress,
        positive=positive,
    )
    if data is not None:  # data= with column names: the table counted by the data's own engine
        return from_counts(
            DOOR(data, opts, y_true=y_true, y_pred=y_pred, groups=groups, refits=refits, cluster=cluster), opts
        )
    t = as_labels(y_true, "y_true")
    m = t.shape[0]
    if m < 2:
        raise InvalidParameterError(f"y_true needs at least 2 objects, got {m}")
    if y_pred is None and refits is None:
        raise InvalidParameterError(
            "give y_pred (one prediction per object) or refits (a refits × objects matrix), or both"
        )
    check_labels_not_scores(t, "y_true")
    check_target_model(opts)
    check_simplex_fits(opts, m)
    record = None
    if y_pred is not None:
        record = check_labels_not_scores(as_labels(y_pred, "y_pred"), "y_pred")
        if record.shape[0] != m:
            raise InvalidParameterError(f"y_true and y_pred must have the same length, got {m} and {record.shape[0]}")
    runs = _as_refits(refits, m) if refits is not None else None
    if runs is not None:
        check_labels_not_scores(runs.reshape(-1), "refits")
    group_codes, group_names = _group_codes(groups, m)

    # classes of every label vector, and integer codes
    pred_arrays = [a for a in (record, runs) if a is not None]
    classes = _classes(t, pred_arrays)
    classes, positive_index, chosen = positive_and_metrics(
        classes, positive, opts, runs.shape[0] if runs is not None else 1
    )

    # one bincount per prediction vector over (group, true class, predicted class)
    t_codes = _codes(t, classes).astype(np.int64, copy=False)
    n_vectors = (runs.shape[0] if runs is not None else 0) + (record is not None)
    count = _counter(t_codes, group_codes, group_names, classes, n_vectors)
    record_tables = count(record) if record is not None else None
    run_tables = np.stack([count(runs[r]) for r in range(runs.shape[0])]) if runs is not None else None
    clustered = None
    if cluster is not None:
        check_clusterable(positive_index, chosen, runs is not None)
        p_codes = _codes(record, classes).astype(np.int64, copy=False)  # type: ignore[arg-type]
        clustered = clustered_counts(cluster, t_codes, p_codes, positive_index, group_codes, len(group_names) - 1)  # type: ignore[arg-type]
    evaluation = Evaluation(
        classes=classes,
        positive_index=positive_index,
        group_names=group_names,
        record_tables=record_tables,
        run_tables=run_tables,
        runs=runs,
        t_codes=t_codes,
        group_codes=group_codes,
        metrics=chosen,
        clustered=clustered,
        **opts.evaluation_arguments(),
    )
    if opts.method == "exact":  # the whole test set's lattice is the largest: refuse it now, not at .to_frame()
        evaluation._check_exact()
    return evaluation
