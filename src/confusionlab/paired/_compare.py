"""compare_paired: is B really better than A, on the same test set?

The entry points :func:`compare_paired` (labels, or ``data=`` with column names) and
:func:`compare_paired_cells` (the 2 × 4 agreement cells), their checks and the choice between the
exact enumeration and Monte Carlo; the answer, :class:`~confusionlab.PairedComparison`, is ``_result.py``'s.
"""

from __future__ import annotations

import math
from typing import Any

from .._deprecation import renamed_arguments
from .._validation import (
    DEFAULT_TOLERANCE,
    TooLargeError,
    check_random_state,
    memory_limit,
)
from ..metrics import Metric
from ._checks import check_cluster_question, check_observed_class, check_test_set_size
from ._cluster import clustered_classifiers, paired_cells, positive_bits
from ._counts import PairedCounts
from ._engine import ExactEngine, MonteCarloEngine, TrueValueEngine
from ._model import box_points_estimate, cell_windows, count_joint, joint_bytes, table_shape
from ._options import Options, check_options
from ._result import PairedComparison, PairedJoint

# PairedComparison and PairedJoint are re-exported: they were defined here, and their old import path keeps working
__all__ = [
    "EXACT_WORK_LIMIT",
    "MAX_BOX_POINTS",
    "PairedComparison",
    "PairedJoint",
    "compare_paired",
    "compare_paired_cells",
]

#: ``method="auto"`` enumerates exactly while one sweep costs at most this many elementary
#: operations (about a second); above it, Monte Carlo with ``n_draws`` draws.
EXACT_WORK_LIMIT = 5e8
#: ``method="auto"`` enumerates exactly while each class's three-cell box has at most this many points.
MAX_BOX_POINTS = 2e7
#: A box estimated from the moments (:func:`box_points_estimate`) this many times larger than
#: MAX_BOX_POINTS is not located exactly: it cannot fit whatever the moments missed.
BOX_ESTIMATE_MARGIN = 1e3


@renamed_arguments(draws="n_draws")
def compare_paired_cells(
    cells: Any,
    metric: str | Metric,
    *,
    model: str = "paired-beta-binomial",
    tolerance: float = DEFAULT_TOLERANCE,
    future_size: int | tuple[int, int] | None = None,
    undefined: float = 0.0,
    method: str = "auto",
    n_draws: int = 100_000,
    random_state: Any = 0,
    target: str = "true_value",
) -> PairedComparison:
    """:func:`compare_paired` from the 2 × 4 cell counts (or a :class:`PairedCounts`).

    The rows are assumed independent (one draw each): with several rows per patient, passage or speaker
    the intervals are too narrow (for clustered rows see ``cluster=`` of :func:`~confusionlab.evaluate`,
    :func:`~confusionlab.compare_paired` and :func:`~confusionlab.roc_curve`).

    ``cells[0]`` are the true positives, ``cells[1]`` the true negatives; the columns
    are (both predict positive, only A, only B, neither). Every other argument is as in
    :func:`compare_paired`.

    See Also
    --------
    compare_paired : The same from true and predicted labels.
    rank_models : k ≥ 2 classifiers on one test set.

    Examples
    --------
    >>> r = compare_paired_cells([[50, 3, 1, 6], [2, 4, 1, 33]], "accuracy", target="next_test_set")
    >>> round(r.prob_greater, 4), round(r.prob_equal, 4), round(r.prob_less, 4)
    (0.3684, 0.0929, 0.5387)

    A total ``future_size`` is split in the observed proportions (60 positives and 40
    negatives here):

    >>> cells = [[50, 3, 1, 6], [2, 4, 1, 33]]
    >>> compare_paired_cells(cells, "accuracy", future_size=1000, target="next_test_set").future_size
    (600, 400)
    """
    counts = PairedCounts.from_cells(cells)
    options = check_options(
        metric=metric,
        model=model,
        tolerance=tolerance,
        future_size=future_size,
        undefined=undefined,
        method=method,
        n_draws=n_draws,
        random_state=random_state,
        target=target,
        stacklevel=3,
    )
    return from_cells(counts, options)


def from_cells(counts: PairedCounts, options: Options) -> PairedComparison:
    """The paired comparison of the agreement cells ``counts`` under the checked ``options``: what
    :func:`compare_paired_cells`, :func:`compare_paired` (both paths) and each pair of a ranking compute.

    >>> from confusionlab.paired._options import check_options
    >>> o = check_options(metric="accuracy", model="paired-beta-binomial", tolerance=1e-12, future_size=None,
    ...                   undefined=0.0, method="auto", n_draws=1000, random_state=0, target="next_test_set",
    ...                   stacklevel=1)
    >>> round(from_cells(PairedCounts.from_cells([[50, 3, 1, 6], [2, 4, 1, 33]]), o).prob_greater, 4)
    0.3684
    """
    m, model, tolerance, undefined_value = options.metric, options.model, options.tolerance, options.undefined
    future_size, method, n_draws, target = options.future_size, options.method, options.n_draws, options.target
    if target == "true_value":
        rng = check_random_state(options.random_state)
        positives, negatives = counts.as_array()
        engine = TrueValueEngine(m, model, counts.p, counts.n, positives, negatives, n_draws, rng, undefined_value)
        return PairedComparison(
            engine,
            metric=m,
            model=model,
            counts=counts,
            future_size=(counts.p, counts.n),
            tolerance=tolerance,
            undefined=undefined_value,
            pruned_mass=0.0,
            target=target,
        )
    p, n = check_test_set_size(future_size, counts.p, counts.n)
    if model == "paired-binomial":
        check_observed_class(counts.p, p, "positives", model)
        check_observed_class(counts.n, n, "negatives", model)
    exact = None
    if method != "monte-carlo":
        exact = _exact_engine(m, model, counts, p, n, tolerance, undefined_value, refuse=method == "exact")
    if exact is not None:
        engine, pruned = exact
    else:
        rng = check_random_state(options.random_state)
        positives, negatives = counts.as_array()
        engine = MonteCarloEngine(m, model, p, n, positives, negatives, n_draws, rng, undefined_value)
        pruned = 0.0
    return PairedComparison(
        engine,
        metric=m,
        model=model,
        counts=counts,
        future_size=(p, n),
        tolerance=tolerance,
        undefined=undefined_value,
        pruned_mass=pruned,
    )


def exact_points(m: Metric, model: str, counts: PairedCounts, p: int, n: int, tolerance: float) -> float | None:
    """Points of the boxes and tables an exact enumeration would fill, or None when it does not
    fit (:data:`MAX_BOX_POINTS`, the memory limit, exact keys beyond 64 bits) — known before
    anything is allocated (the cell windows are located analytically)."""
    if m.magnitude(p + n) >= 2**62:
        return None
    total = 0.0
    for name, cells, future in (("positives", counts.positives, p), ("negatives", counts.negatives, n)):
        if future == 0:
            continue
        if box_points_estimate(model, cells, future, tolerance) > BOX_ESTIMATE_MARGIN * MAX_BOX_POINTS:
            return None
        try:
            windows, _ = cell_windows(model, cells, future, tolerance, name)
        except TooLargeError:
            return None
        box = float(math.prod(hi - lo + 1 for lo, hi in windows))
        rows, cols = table_shape(windows)
        if box > MAX_BOX_POINTS or float(rows) * cols > MAX_BOX_POINTS or joint_bytes(windows) > memory_limit():
            return None
        total += box + float(rows) * cols
    return total


def _exact_engine(
    m: Metric,
    model: str,
    counts: PairedCounts,
    p: int,
    n: int,
    tolerance: float,
    undefined: float,
    *,
    refuse: bool,
) -> tuple[ExactEngine, float] | None:
    if not refuse and exact_points(m, model, counts, p, n, tolerance) is None:
        return None
    pos = count_joint(model, counts.positives, p, tolerance, "positives")
    neg = count_joint(model, counts.negatives, n, tolerance, "negatives")
    if ExactEngine.work(pos, neg) > EXACT_WORK_LIMIT and not refuse:
        return None
    try:
        engine = ExactEngine(m, p, n, pos, neg, undefined)
    except ValueError:
        if refuse:
            raise
        return None
    pruned = pos.dropped + neg.dropped - pos.dropped * neg.dropped
    return engine, pruned


@renamed_arguments(draws="n_draws")
def compare_paired(
    y_true: Any,
    pred_a: Any,
    pred_b: Any,
    metric: str | Metric,
    *,
    model: str = "paired-beta-binomial",
    tolerance: float = DEFAULT_TOLERANCE,
    future_size: int | tuple[int, int] | None = None,
    positive: Any = None,
    undefined: float = 0.0,
    method: str = "auto",
    n_draws: int = 100_000,
    random_state: Any = 0,
    target: str = "true_value",
    data: Any = None,
    cluster: Any = None,
) -> PairedComparison:
    """Is classifier A better than B on the metric, given both were scored on the same test set?

    Without ``cluster=`` the rows are assumed independent (one draw each): with several rows per patient,
    passage or speaker, pass ``cluster=`` or the intervals are too narrow.

    Parameters
    ----------
    y_true, pred_a, pred_b : array-like of labels
        True labels and the two classifiers' predicted labels, example by example
        (same length, binary; see :meth:`ConfusionMatrix.from_predictions
        <confusionlab.ConfusionMatrix.from_predictions>` for ``positive``).
    metric : str or Metric
        Any metric of :data:`confusionlab.METRICS`.
    model : {"paired-beta-binomial", "paired-binomial"}
        Per true class the four agreement cells (both positive, only A, only B,
        neither) of a new test set are

        * ``"paired-beta-binomial"`` (default): Dirichlet-multinomial with prior ½ per
          cell. Each classifier alone is then exactly the core's ``"beta-binomial"``
          model (the paper's, uniform prior): :attr:`PairedComparison.distribution_a`
          is ``metric_distribution(A's matrix, metric, "beta-binomial")``.
        * ``"paired-binomial"``: multinomial with the observed shares. Each classifier
          alone is exactly the core's ``"binomial"`` model.

        The models of :data:`confusionlab.models.PAIRED_MODELS`. The names until 0.1
        (``"dirichlet-multinomial"``, ``"multinomial"``) still work with a FutureWarning;
        the one-classifier models (``"beta-binomial"``, ``"binomial"``) are refused:
        they ignore that A and B are scored on the same examples.
    tolerance : float, default 1e-12
        Mass each class's joint table may drop (``pruned_mass`` ≤ 2·tolerance).
    future_size : int or (p, n), optional
        Size of the predicted test set: a pair (positives, negatives), or a total N
        split in the observed proportions, p′ = ⌊N·p/(p + n) + ½⌋ (as everywhere in the
        library). Default: as observed.
    positive : label, optional
        The positive class.
    undefined : float, default 0.0
        The value of the metric where it is 0/0 (the paper's convention); it ties
        with the defined points of exactly that value.
    method : {"auto", "exact", "monte-carlo"}
        ``"auto"`` enumerates exactly unless a class's three-cell box exceeds
        :data:`MAX_BOX_POINTS` points or a sweep :data:`EXACT_WORK_LIMIT` operations
        (p = n = 1000 is well inside: about 10⁸), then uses Monte Carlo.
    n_draws : int, default 100,000
        Monte Carlo draws (``mc_error`` ≈ 0.0016 at P = ½). ``draws`` is its old name
        (it still works, with a FutureWarning).
    random_state : None, int, SeedSequence or Generator, default 0
        For the Monte Carlo draws.
    target : {"true_value", "next_test_set"}, default "true_value"
        The question. ``"true_value"`` (default): which has the better *true* metric —
        the posterior of each class's agreement shares, Dirichlet(cells + ½), the
        prevalence fixed at the observed one, estimated from ``n_draws`` draws
        (``mc_error``); about 1/√2 as wide, so sharper. Needs the paired beta-binomial
        model and no ``future_size``. ``"next_test_set"``: which classifier wins on a new
        test set of ``future_size`` (exact, or Monte Carlo); give it for ``future_size``,
        ``method="exact"`` or ``model="paired-binomial"``.

    data : DataFrame, optional
        pandas, polars, pyarrow, DuckDB, Dask or PySpark: then ``y_true``, ``pred_a`` and
        ``pred_b`` are column names and the agreement cells are counted by the engine
        (``paired/_data.py``; the same numbers).
    cluster : array-like, optional
        A cluster id per example (a column name with ``data=``): examples of one cluster (one
        patient, one passage) are not independent. Without it the examples are assumed
        independent, and with clustered examples the interval is too narrow and a difference
        is declared too often. With it, :meth:`~PairedComparison.interval` (and
        :meth:`~PairedComparison.verdict`, the ``lower``/``upper`` of
        :meth:`~PairedComparison.to_frame`) is the cluster-robust delta-method interval of the
        true difference — u_c = ∇f(T_A)·t_{A,c} − ∇f(T_B)·t_{B,c} per cluster, SE² =
        C/(C − 1)·Σ u_c², Student's t with C − 1 degrees of freedom — and
        :meth:`~PairedComparison.p_value` the cluster-level t-test of no difference; the
        result reports :attr:`~PairedComparison.icc`, :attr:`~PairedComparison.design_effect`
        and :attr:`~PairedComparison.effective_size`. ``target="true_value"`` only. Measured
        (``benchmarks/coverage_cluster.py``, beta-binomial clusters, equal true metrics): the
        test's size was 0.034–0.068 at α = 0.05 over ICC 0 to 0.7 and 10 to 200 clusters, where
        the default interval of independent rows declared a difference in 16–20 % of the test sets
        at ICC 0.1, 24–34 % at 0.3 and 44–57 % at 0.7.

    Returns
    -------
    PairedComparison
        Its :attr:`~PairedComparison.value` is the observed difference A − B,
        :meth:`~PairedComparison.interval` that difference's interval for the question
        asked (its true value by default).

    See Also
    --------
    compare_paired_cells : The same from the 2 × 4 table of agreement cells.
    rank_models : k ≥ 2 classifiers on one test set.
    confusionlab.compare : Two classifiers on independent test sets.
    confusionlab.metric_distribution : One classifier's metric on a new test set.
    confusionlab.evaluate : One classifier (or its refits) per group, from labels.
    confusionlab.plan_test_size : How large a test set must be for a given half-width.

    Notes
    -----
    Exact: the joint tables of (TP_A, TP_B) and of (FP_A, FP_B) are enumerated on their
    pruned support and every probability is a sum over the product of the two, with
    values compared by exact rank (see :mod:`confusionlab.paired._engine`).
    Every cell has the same Dirichlet prior ½ whatever its count: predictions that agree
    on every example are still two classifiers (their discordant cells, observed 0, keep
    the prior), so ``prob_equal`` is then below 1 and one differing example more moves the
    answer only a little.
    Independence of A and B (:func:`confusionlab.compare`) is the wrong model here: two
    classifiers scored on the same examples err on the same hard ones, and the paired
    answer is usually much sharper.

    Examples
    --------
    >>> y = [1] * 10 + [0] * 10
    >>> a = [1] * 9 + [0] + [0] * 9 + [1]
    >>> b = [1] * 7 + [0] * 3 + [0] * 8 + [1] * 2
    >>> compare_paired(y, a, b, "balanced_accuracy").target
    'true_value'
    >>> r = compare_paired(y, a, b, "balanced_accuracy", target="next_test_set")
    >>> r.method, round(r.value, 3), round(r.prob_greater, 3)
    ('exact', 0.15, 0.793)
    >>> r.verdict(margin=0.02)
    'insufficient evidence'
    """
    options = check_options(
        metric=metric,
        model=model,
        tolerance=tolerance,
        future_size=future_size,
        positive=positive,
        undefined=undefined,
        method=method,
        n_draws=n_draws,
        random_state=random_state,
        target=target,
        stacklevel=3,
    )
    check_cluster_question(cluster, options.target, "the interval of the true difference")
    if data is not None:  # data= with column names: the cells counted by the data's own engine
        from ._data import COMPARE_DOOR, compare_from_counts

        table = COMPARE_DOOR(data, options, y_true=y_true, pred_a=pred_a, pred_b=pred_b, cluster=cluster)
        return compare_from_counts(table, options)
    if cluster is None:
        return from_cells(PairedCounts.from_predictions(y_true, pred_a, pred_b, positive=positive), options)
    truth, said = positive_bits(y_true, {"pred_a": pred_a, "pred_b": pred_b}, positive)
    clustered = clustered_classifiers(options.metric.name, ["A", "B"], truth, said, cluster)
    result = from_cells(PairedCounts.from_cells(paired_cells(clustered)), options)
    result._cluster = clustered
    return result
