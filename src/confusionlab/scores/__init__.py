"""Scores: ROC and precision–recall curves, the AUC with its uncertainty, the threshold as a
confusion matrix.

All score functions take ``(y_true, y_score, *, positive=None)``: labels of any type as in
:meth:`ConfusionMatrix.from_predictions <confusionlab.ConfusionMatrix.from_predictions>`
and real scores (higher = more positive; NaN and ±inf refused by name). Ties in scores are
exact: a tied block is one (diagonal) step of the curve and counts ½ in the AUC.

====================  ==========================================================================
module                idea
====================  ==========================================================================
``_input``            labels and scores checked, split by class and sorted once
``_curves``           the ROC and precision–recall staircases (scikit-learn's, ties exact)
``_delong``           DeLong's variance by sorting (Sun & Xu) and the logit interval
``_bootstrap``        the stratified bootstrap, vectorised over resamples
``_null``             the exact null distribution of the AUC given the ties
``_band``             Campbell's simultaneous band, the pointwise band, the PR band, AP's interval
``_results``          :class:`RocCurve`, :class:`PrecisionRecallCurve`
``_compare``          :func:`compare_auc` → :class:`AucComparison` (paired DeLong, Holm)
``_multiclass``       :class:`MulticlassRocCurve`: one-vs-rest macro AUC, Hand & Till's M
``_groups``           :class:`GroupedCurves`, :class:`GroupedAucComparison` (``groups=``): simultaneous
                      intervals, the largest gap
====================  ==========================================================================
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._band import PrecisionRecallBand, RocBand
from ._checks import check_multi_class, check_omitted, check_scores
from ._cluster import clustered_auc
from ._compare import AucComparison, compare_auc
from ._data import CURVE_DOOR, pr_from_counts, roc_from_counts
from ._groups import GroupedAucComparison, GroupedCurves, grouped_curves
from ._input import binary_scores, truth
from ._multiclass import MulticlassRocCurve, multiclass_roc
from ._null import EXACT_WORK_LIMIT, AucNullDistribution, PValue
from ._options import check_options
from ._results import PrecisionRecallCurve, RocCurve

__all__ = [
    "EXACT_WORK_LIMIT",
    "AucComparison",
    "AucNullDistribution",
    "GroupedAucComparison",
    "GroupedCurves",
    "MulticlassRocCurve",
    "PValue",
    "PrecisionRecallBand",
    "PrecisionRecallCurve",
    "RocBand",
    "RocCurve",
    "compare_auc",
    "precision_recall_curve",
    "roc_curve",
]


def roc_curve(
    y_true: Any,
    y_score: Any,
    *,
    positive: Any = None,
    multi_class: str | None = None,
    data: Any = None,
    groups: Any = None,
    score_bins: int | None = None,
    cluster: Any = None,
) -> RocCurve | MulticlassRocCurve | GroupedCurves:
    """The ROC curve of one classifier's scores, with its AUC and the AUC's uncertainty.

    Parameters
    ----------
    y_true : array-like of labels
        Strings, numbers or booleans (lists, numpy, pandas or polars); missing labels refused.
    y_score : array-like of real numbers
        The classifier's scores, higher = more positive (``predict_proba[:, 1]``, a margin, …).
    positive : label, optional
        The positive class. Default ``1`` (or ``True``) for labels 0/1, False/True or −1/1;
        otherwise required. With more than two labels, that class against the rest.
    multi_class : {"ovr", "hand-till"}, optional
        With more than two classes and a (samples × classes) ``y_score`` (columns in the sorted
        order of the classes, as scikit-learn's): one-vs-rest curves and the macro AUC with its
        DeLong interval, or Hand & Till's M with a bootstrap interval (a :class:`MulticlassRocCurve`).
    groups : array-like of labels, optional
        One group per example (at least two groups, each with positives and negatives): one curve
        per group in a :class:`GroupedCurves` — each group's AUC with intervals simultaneous over
        the groups, and the largest AUC gap between two groups with its interval.
    data, groups, score_bins : optional
        ``data``: pandas, polars, pyarrow, DuckDB, Dask or PySpark; ``y_true``, ``y_score`` and
        ``groups`` are then column names and (group, true label, score) is counted by the engine
        (``scores/_data.py``; the same numbers; with ``groups`` a :class:`GroupedCurves`). More than
        10⁶ distinct scores need ``score_bins`` (quantile bins computed by the engine;
        ``.max_auc_error`` the largest possible difference from the unbinned AUC).
    cluster : array-like or column name, optional
        A cluster id per example (the lesions of one patient, the sentences of one speaker).
        **Without ``cluster=`` the examples are assumed independent**, and with clustered examples
        DeLong's interval is too narrow. With it, ``.interval()`` uses Obuchowski's (1997)
        clustered variance of the AUC (placements summed by cluster, on the logit scale;
        ``.interval_method`` says so), and ``.design_effect`` (Obuchowski's variance over
        DeLong's) and ``.effective_size`` say what the clustering costs; at least two clusters.
        With ``data=`` a column name (the cluster one more key of the count table: the same
        numbers as the arrays). With ``groups=`` each group's curve (and ``.overall``) carries
        its clustered variance; the clusters must be nested in the groups (a cluster with rows
        in two groups is refused, naming ``cluster``: the groups' simultaneous intervals and the
        gap between groups assume independent groups), each group with at least two clusters.
        Not with ``multi_class=``. Coverage of the 95 % clustered interval (simulation,
        ``benchmarks/coverage_roc_cluster.py``; see :meth:`RocCurve.interval`'s Notes).

    Returns
    -------
    RocCurve
        ``.fpr``, ``.tpr``, ``.thresholds`` (scikit-learn's ``roc_curve(drop_intermediate=False)``),
        ``.value`` the AUC (scikit-learn's ``roc_auc_score``), ``.interval()`` (DeLong, logit
        scale; or bootstrap), ``.p_value()`` and ``.null_distribution()`` (exact given ties),
        ``.band()`` (Campbell's simultaneous band), ``.at_threshold(t)`` (a ConfusionMatrix).

    See Also
    --------
    precision_recall_curve : the precision–recall curve and average precision.
    compare_auc : the AUCs of classifiers scored on the same examples.
    metric_distribution : the exact uncertainty of the confusion matrix at a threshold.

    Examples
    --------
    >>> import confusionlab as cl
    >>> curve = cl.roc_curve([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    >>> round(curve.value, 4), curve.p, curve.n
    (0.8889, 3, 3)
    >>> [round(v, 3) for v in curve.interval(0.95)]
    [0.38, 0.987]
    >>> curve.at_threshold(0.35)
    ConfusionMatrix(tp=3, fn=0, fp=1, tn=2)
    >>> round(curve.p_value(), 3)
    0.1
    """
    options = check_options(positive=positive, score_bins=score_bins, multi_class=multi_class)
    if data is not None:  # data= with column names: the table counted by the data's own engine
        table = CURVE_DOOR(data, options, y_true=y_true, y_score=y_score, groups=groups, cluster=cluster)
        return roc_from_counts(table, options)
    if cluster is not None:
        check_omitted(multi_class, "multi_class", "cluster= is given (the clustered AUC of one classifier's scores)")
    options.refuse_bins()
    multi_class = check_multi_class(multi_class, np.ndim(y_score))
    if groups is not None:
        check_omitted(
            multi_class, "multi_class", "groups= is given (one score each; for classes call roc_curve per group)"
        )
        return _grouped(y_true, y_score, positive, groups, "roc", cluster)
    if multi_class is not None:
        check_omitted(positive, "positive", "multi_class scores every class")
        return multiclass_roc(y_true, y_score, multi_class)
    curve = RocCurve(binary_scores(y_true, y_score, positive=positive))
    if cluster is not None:
        curve._cluster = clustered_auc(y_true, y_score, positive, cluster, curve.variance)
    return curve


def precision_recall_curve(
    y_true: Any,
    y_score: Any,
    *,
    positive: Any = None,
    data: Any = None,
    groups: Any = None,
    score_bins: int | None = None,
) -> PrecisionRecallCurve | GroupedCurves:
    """The precision–recall curve of one classifier's scores and its average precision.

    The rows are assumed independent (one draw each): with several rows per patient, passage or speaker
    the intervals are too narrow (for clustered rows see ``cluster=`` of :func:`~confusionlab.evaluate`,
    :func:`~confusionlab.compare_paired` and :func:`~confusionlab.roc_curve`).

    Parameters are those of :func:`roc_curve` (``groups=``: one curve per group, the largest AP
    gap; ``data`` and ``score_bins`` too).

    Returns
    -------
    PrecisionRecallCurve
        ``.precision``, ``.recall``, ``.thresholds`` (scikit-learn's ``precision_recall_curve``),
        ``.value`` the average precision (``average_precision_score``), ``.interval()`` (Boyd,
        Eng & Page's logit interval, or bootstrap), ``.band()`` (the ROC band mapped to precision).

    See Also
    --------
    roc_curve : the ROC curve and AUC.

    Examples
    --------
    >>> import confusionlab as cl
    >>> pr = cl.precision_recall_curve(["no", "no", "yes", "yes"], [0.1, 0.4, 0.35, 0.8], positive="yes")
    >>> round(pr.value, 4), pr.precision.tolist()
    (0.8333, [0.5, 0.6666666666666666, 0.5, 1.0, 1.0])
    """
    options = check_options(positive=positive, score_bins=score_bins)
    if data is not None:  # data= with column names: the table counted by the data's own engine
        return pr_from_counts(CURVE_DOOR(data, options, y_true=y_true, y_score=y_score, groups=groups), options)
    options.refuse_bins()
    if groups is not None:
        return _grouped(y_true, y_score, positive, groups, "pr")
    return PrecisionRecallCurve(binary_scores(y_true, y_score, positive=positive))


def _grouped(y_true: Any, y_score: Any, positive: Any, groups: Any, kind: str, cluster: Any = None) -> GroupedCurves:
    is_pos, label = truth(y_true, positive)
    scores = check_scores(y_score, "y_score", is_pos.shape[0])
    return grouped_curves(is_pos, scores, label, groups, kind, cluster)
