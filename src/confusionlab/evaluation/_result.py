"""The :class:`Evaluation`: values, distributions, groups, refits and classes of one :func:`evaluate`."""

from __future__ import annotations

import inspect
import math
import warnings
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from .._deps import require
from .._result import Result, page_path
from .._validation import InvalidParameterError, check_confidence, check_int
from ..confusion import ConfusionMatrix
from ..distribution import MetricDistribution
from ._budget import KeptDistributions
from ._clustered import ClusteredCounts, ClusterSummary, clustered_columns
from ._distributions import Distributions
from ._metrics import _REFIT_WORDS, QUESTIONS, _is_macro, metric_label, metric_name, table_values

__all__ = ["Evaluation"]

_INTERVAL = inspect.Signature(
    [
        inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD),
        inspect.Parameter("confidence", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=0.95, annotation="float"),
    ]
)
_OLD_INTERVAL = inspect.Signature(
    [
        inspect.Parameter("metric", inspect.Parameter.POSITIONAL_OR_KEYWORD),
        inspect.Parameter("confidence", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=0.95),
        inspect.Parameter("group", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None),
    ]
)


def _legacy(method: str, new: str) -> None:
    warnings.warn(
        f"Evaluation.{method} is now {new}; the old form will stop working in the next release",
        FutureWarning,
        stacklevel=3,
    )


class MetricValues(dict):
    """:attr:`Evaluation.value`: a dict, metric → observed value on the whole test set.

    Its keys are the evaluation's :attr:`~Evaluation.metrics`; a key may be written as
    any spelling of the metric (``"F1"``). For one release it is also callable as the
    old method ``value(metric, group=None)``, with a FutureWarning: write
    ``ev.value[metric]`` or :meth:`Evaluation.value_of` (any metric, any group).
    """

    def __init__(self, evaluation: Evaluation, items: dict[str, float]) -> None:
        super().__init__(items)
        self._evaluation = evaluation

    def __missing__(self, key: Any) -> float:
        try:
            name = metric_name(key, "metric")
        except InvalidParameterError:
            raise KeyError(key) from None
        if name in self:
            return self[name]
        raise KeyError(
            f"{key!r} is not one of the evaluation's metrics {list(self)}; Evaluation.value_of({key!r}) computes it"
        )

    def __call__(self, metric: str, group: Any = None) -> float:
        _legacy("value(metric, group)", "value_of(metric, group) (ev.value is a mapping: ev.value[metric])")
        return self._evaluation.value_of(metric, group)


class Evaluation(Distributions, ClusterSummary, Result):
    """The result of :func:`evaluate`: values, distributions, groups, refits and classes.

    Attributes
    ----------
    classes : list
        Labels in the order of the count tables.
    groups : list
        Group names, then ``"all"`` (the whole test set).
    metrics : list of str
        Metrics reported by :attr:`value`, :meth:`interval`, :meth:`to_frame`,
        :meth:`plot`, :meth:`to_html` and the view.
    target : str
        The question: ``"next_test_set"`` or ``"true_value"`` (see :data:`QUESTIONS`).
    prior : float
        α of the binary metrics' Beta posteriors of the rates.
    table_prior : float
        α of each row's Dirichlet(row + α) for the table metrics (macro averages, the
        multi-class MCC).
    n_refits : int
        Number of refits (0 for one prediction vector).
    n_draws : int
        Monte Carlo draws of each macro average (``n_samples`` is its old name) and of
        each sampled binary distribution.
    method : str
        What was asked (``"auto"``, ``"exact"`` or ``"monte-carlo"``); each distribution's
        own ``.method`` (and the ``method`` column of :meth:`to_frame`) says what answered.
    counts : ndarray
        Count tables, shape (runs, groups, classes, classes) (rows true, columns
        predicted); runs are the refits, or the single ``y_pred``.

    Notes
    -----
    The result protocol: :attr:`value` maps each of :attr:`metrics` to its observed
    value on the whole test set, :meth:`interval` to its central interval there;
    :meth:`value_of`, :meth:`interval_of` and :meth:`distribution` answer for any metric
    and any group. :meth:`to_frame` has one row per (group, metric), :meth:`plot` draws
    the distributions per group, :meth:`view` is an
    :class:`~confusionlab.EvaluationView`, :meth:`to_html` a self-contained page.

    Distributions are computed when first asked for and kept (:class:`._distributions.Distributions`).

    With ``cluster=`` (:func:`evaluate`), :meth:`interval`, :meth:`interval_of` and the
    ``lower``/``upper`` of :meth:`to_frame` are cluster-robust delta-method intervals
    (:attr:`interval_method`), and :attr:`icc`, :attr:`design_effect` and
    :attr:`effective_size` say how much the clustering costs; without it the rows are assumed
    independent. :meth:`distribution`, :meth:`plot`, the view and the page's figure still show the
    independent-rows distributions (the page's table has the clustered intervals).

    Examples
    --------
    >>> from confusionlab import evaluate
    >>> ev = evaluate([1, 1, 0, 0, 1, 0, 1, 0], [1, 0, 0, 0, 1, 1, 1, 0], metrics=["recall", "precision"])
    >>> ev.value
    {'recall': 0.75, 'precision': 0.75}
    >>> lo, hi = ev.interval(0.9)["recall"]
    >>> lo <= ev.value["recall"] <= hi
    True
    """

    title = "ConfusionLab evaluation"

    def __init__(
        self,
        *,
        classes: list[Any],
        positive_index: int | None,
        group_names: list[Any],
        record_tables: np.ndarray | None,
        run_tables: np.ndarray | None,
        runs: np.ndarray | None,
        t_codes: np.ndarray,
        group_codes: np.ndarray | None,
        model: str,
        target: str,
        tolerance: float,
        metrics: list[str],
        prior: float = 1.0,
        table_prior: float | None = None,
        n_draws: int,
        rng: np.random.Generator,
        min_class_size: int,
        progress: bool = False,
        method: str = "auto",
        clustered: ClusteredCounts | None = None,
    ) -> None:
        self.classes = classes
        self.positive_index = positive_index
        self.groups = group_names
        self._record = record_tables
        self.counts = run_tables if run_tables is not None else record_tables[None]  # type: ignore[index]
        self._runs = runs
        self._t_codes = t_codes
        self._group_codes = group_codes
        self.model = model
        self.target = target
        self.tolerance = tolerance
        self.prior = prior
        self.table_prior = prior if table_prior is None else table_prior
        self.metrics = metrics
        self.n_draws = n_draws
        self._rng = rng
        self.min_class_size = min_class_size
        self.progress = progress
        self.method = method
        self.n_refits = 0 if run_tables is None else int(run_tables.shape[0])
        self._cache: dict[tuple[Any, ...], Any] = {}
        self._kept = KeptDistributions(self._cache)
        self._clustered = clustered

    @property
    def n_samples(self) -> int:
        """Old name of :attr:`n_draws`."""
        warnings.warn(
            "Evaluation.n_samples is renamed n_draws; the old name will stop working in the next release",
            FutureWarning,
            stacklevel=2,
        )
        return self.n_draws

    # ------------------------------------------------------------------ helpers
    def _group_index(self, group: Any) -> int:
        if group is None:
            return len(self.groups) - 1
        for i, name in enumerate(self.groups):
            if name == group or str(name) == str(group):
                return i
        raise InvalidParameterError(f"group {group!r} is not one of {self.groups!r}")

    def refit_means(self, metric: str, group: Any = None) -> np.ndarray:
        """The metric's mean under each refit's distribution (one value per refit)."""
        metric = metric_name(metric, "metric")
        self._require_refits("refit_means")
        return self._mixed(metric, self._group_index(group))[2]

    # ------------------------------------------------------------------ values
    @property
    def value(self) -> MetricValues:
        """Metric → observed value on the whole test set, for each of :attr:`metrics` (a dict).

        The observed value is of ``y_pred``, or the mean over the refits when only refits
        were given (:meth:`value_of`). For one release the mapping is also callable as the
        old method ``value(metric, group)`` (with a FutureWarning).
        """
        return MetricValues(self, {name: self.value_of(name) for name in self.metrics})

    def value_of(self, metric: str, group: Any = None) -> float:
        """The observed value of any ``metric`` on ``group`` (default: the whole test set).

        Of ``y_pred``, or the mean over the refits when only refits were given. Macro
        averages are scikit-learn's ``average="macro"`` over the labels present in
        ``y_true`` or the predictions (0 where a class's metric is 0/0): ``macro_mcc``
        is the mean of the one-vs-rest MCCs. ``multiclass_mcc`` is Gorodkin's R_K,
        scikit-learn's ``matthews_corrcoef`` on the labels (:func:`multiclass_mcc`).

        Examples
        --------
        >>> from confusionlab import evaluate
        >>> evaluate([1, 1, 0, 0], [1, 0, 0, 1], groups=list("aabb")).value_of("recall", "a")
        0.5
        """
        metric = metric_name(metric, "metric")
        g = self._group_index(group)
        tables = [self._record[g]] if self._record is not None else [t[g] for t in self.counts]
        vals = []
        for table in tables:
            if _is_macro(metric):
                present = np.flatnonzero(table.sum(axis=0) + table.sum(axis=1))
                vals.append(float(table_values(metric, table[np.ix_(present, present)])))
            else:
                vals.append(self._binary(metric)(self._one_vs_rest(table, self.positive_index)))  # type: ignore[arg-type]
        return float(np.mean(vals))

    def confusion_matrix(self, group: Any = None, run: int | None = None) -> ConfusionMatrix:
        """The binary (positive vs rest) confusion matrix of ``y_pred`` (or of refit ``run``;
        with refits only, the first refit's by default).

        Examples
        --------
        >>> from confusionlab import evaluate
        >>> evaluate([1, 1, 0, 0], [1, 0, 0, 1]).confusion_matrix()
        ConfusionMatrix(tp=1, fn=1, fp=1, tn=1)
        """
        if self.positive_index is None:
            raise ValueError(
                f"confusion_matrix needs a binary evaluation and there are {len(self.classes)} classes; "
                "pass positive=<label> to evaluate()"
            )
        if run is not None:
            run = check_int(run, "run", minimum=0, maximum=len(self.counts) - 1)
        g = self._group_index(group)
        table = self._record[g] if run is None and self._record is not None else self.counts[run or 0][g]
        return self._one_vs_rest(table, self.positive_index)  # type: ignore[arg-type]

    # ------------------------------------------------------------------ distributions
    def distribution(self, metric: str, group: Any = None) -> MetricDistribution:
        """The metric's distribution (overall, or for ``group``).

        One prediction vector: exactly ``metric_distribution(from_predictions(...), metric,
        model=model, target=target)``. Refits: the equal-weight mixture of the refits'
        distributions. Macro averages: Monte Carlo (their error: :meth:`mc_error`).
        """
        metric = metric_name(metric, "metric")
        return self._mixed(metric, self._group_index(group))[0]

    def by_group(self, metric: str) -> dict[Any, MetricDistribution]:
        """{group: distribution} for every group (``"all"`` excluded)."""
        metric = metric_name(metric, "metric")
        self._prefetch(metric, range(len(self.groups) - 1))
        return {name: self.distribution(metric, name) for name in self.groups[:-1]}

    def interval(self, *args: Any, **kwargs: Any) -> dict[str, tuple[float, float]]:
        """Metric → central ``confidence`` interval on the whole test set, for each of :attr:`metrics`.

        Without ``cluster=`` the rows are assumed independent (with it, the clustered interval).

        Parameters
        ----------
        confidence : float, default 0.95
            Level of the intervals, in (0, 1).

        Returns
        -------
        dict
            Keyed like :attr:`value`: ``{metric: (lower, upper)}`` of :meth:`distribution`.

        Notes
        -----
        The old call ``interval(metric, confidence=0.95, group=None)`` — told apart by a
        metric name as first argument, or ``metric=`` / ``group=`` — still works for one
        release, with a FutureWarning: it is now :meth:`interval_of`.
        """
        if (args and isinstance(args[0], str)) or "metric" in kwargs or "group" in kwargs:
            bound = _OLD_INTERVAL.bind(*args, **kwargs)
            _legacy("interval(metric, confidence, group)", "interval_of(metric, confidence, group)")
            return self.interval_of(**bound.arguments)  # type: ignore[return-value]
        bound = _INTERVAL.bind(self, *args, **kwargs)
        confidence = check_confidence(bound.arguments.get("confidence", 0.95))
        return {name: self.interval_of(name, confidence) for name in self.metrics}

    interval.__signature__ = _INTERVAL  # type: ignore[attr-defined]

    def interval_of(self, metric: str, confidence: float = 0.95, group: Any = None) -> tuple[float, float]:
        """Central ``confidence`` interval of :meth:`distribution` of any ``metric`` on ``group``
        (with ``cluster=``: its cluster-robust interval, :attr:`interval_method`)."""
        if self._clustered is not None:
            name = self._binary(metric_name(metric, "metric")).name
            return self._clustered.interval(name, check_confidence(confidence), self._group_index(group))
        return self.distribution(metric, group).interval(check_confidence(confidence))

    def decompose(self, metric: str, group: Any = None, *, by_group: bool = False) -> dict[Any, Any]:
        """Law-of-total-variance split of the metric's spread.

        Returns ``{"test_set_sd", "refit_sd", "total_sd"}``: test_set_sd² is the mean of the
        refits' variances, refit_sd² the variance (ddof = 0) of their means, total_sd² their
        sum (the mixture's variance); :func:`confusionlab.distribution.decompose` says how
        infinite moments are reported. With ``by_group=True``: {group: that dict}.

        Examples
        --------
        >>> from confusionlab import evaluate
        >>> ev = evaluate([1, 1, 0, 0, 1, 0], refits=[[1, 0, 0, 0, 1, 1], [1, 1, 0, 0, 1, 0]])
        >>> d = ev.decompose("recall")
        >>> abs(d["total_sd"] ** 2 - d["test_set_sd"] ** 2 - d["refit_sd"] ** 2) < 1e-12
        True
        """
        metric = metric_name(metric, "metric")
        if by_group:
            self._prefetch(metric, range(len(self.groups) - 1))
            return {name: self._mixed(metric, i)[1] for i, name in enumerate(self.groups[:-1])}
        return self._mixed(metric, self._group_index(group))[1]

    def per_class(self, metric: str, group: Any = None) -> dict[Any, MetricDistribution]:
        """{class: exact one-vs-rest distribution of ``metric``} (mixture over refits)."""
        name = metric_name(metric, "metric")
        if _is_macro(name):
            raise InvalidParameterError(
                f"metric {metric!r} is a macro average; per_class takes a binary metric such as 'f1'"
            )
        g = self._group_index(group)
        return {c: self._mixed(name, g, i)[0] for i, c in enumerate(self.classes)}

    def mc_error(self, metric: str, group: Any = None) -> float:
        """Monte Carlo standard error of the distribution's mean (0 for exact distributions):
        of a macro average, or of a binary metric sampled by ``method``.

        For R refits it is that of the mixture's mean, √(Σ e_r²)/R, the e_r of each
        refit's draws (sd / √draws).
        """
        name = metric_name(metric, "metric")
        if not _is_macro(name):
            return self.distribution(name, group).mc_error
        errors = self._macro(name, self._group_index(group))[1]
        return math.sqrt(sum(e * e for e in errors)) / len(errors)

    def question(self, metric: str) -> str:
        """The question the distributions answer, in words."""
        refit = _REFIT_WORDS[self.target] if self.n_refits else ""
        return QUESTIONS[self.target].format(metric=metric_label(metric_name(metric, "metric")), refit=refit)

    # ------------------------------------------------------------------ stability
    @cached_property
    def stability(self) -> Any:
        """Per-object psi of the refits (reference: their pooled test-set predictions, which
        are out-of-sample predictions of the model), from :func:`confusionlab.stability.psi`."""
        from ..stability import psi

        runs = self._require_refits("stability")
        return psi(runs, runs.reshape(-1), "nominal")

    @cached_property
    def phi(self) -> Any:
        """Per-object phi of the refits with the test set's true labels as reference sample
        (:func:`confusionlab.stability.phi`)."""
        from ..stability import phi

        runs = self._require_refits("phi")
        return phi(runs, np.asarray(self.classes, dtype=object)[self._t_codes], "nominal")

    def _require_refits(self, what: str) -> np.ndarray:
        if self._runs is None:
            raise ValueError(f"{what} needs refits: pass refits=<refits × objects predictions> to evaluate()")
        return self._runs

    def least_stable(self, k: int = 10, group: Any = None) -> np.ndarray:
        """Indices of the ``k`` objects whose predictions change most across refits (lowest psi)."""
        k = check_int(k, "k", minimum=0)
        s = self.stability.per_object
        idx = np.arange(s.size)
        if group is not None:
            g = self._group_index(group)
            if g < len(self.groups) - 1 and self._group_codes is not None:
                idx = idx[self._group_codes == g]
        order = np.argsort(np.where(np.isnan(s[idx]), np.inf, s[idx]), kind="stable")
        return idx[order[:k]]

    # ------------------------------------------------------------------ reports
    def sizes(self, group: Any = None) -> dict[str, int]:
        """Objects, positives, negatives and the smallest class of a group."""
        table = self.counts[0][self._group_index(group)]
        rows = table.sum(axis=1)
        out = {"objects": int(rows.sum()), "smallest_class": int(rows[rows > 0].min()) if rows.any() else 0}
        if self.positive_index is not None:
            out["positives"] = int(rows[self.positive_index])
            out["negatives"] = out["objects"] - out["positives"]
        return out

    def too_small(self, metric: str, group: Any = None) -> bool:
        """Whether the group has fewer than ``min_class_size`` positives or negatives (the
        smallest class for macro averages): too small to say anything."""
        s = self.sizes(group)
        name = metric_name(metric, "metric")
        if _is_macro(name) or self.positive_index is None:
            return s["smallest_class"] < self.min_class_size
        return min(s["positives"], s["negatives"]) < self.min_class_size

    def to_frame(self, metrics: Sequence[str] | None = None, confidence: float = 0.95) -> Any:
        """A pandas DataFrame, one row per (group, metric): value, mean, interval, the
        decomposition, sizes, the ``too_small`` flag and ``target``, the question the interval
        answers (``"next_test_set"`` or ``"true_value"``, :attr:`target`).

        Parameters
        ----------
        metrics : sequence of str, optional
            Default :attr:`metrics`.
        confidence : float, default 0.95
            Level of the ``lower``/``upper`` interval.
        """
        pd = require("pandas", "notebooks", "to_frame()")

        confidence = check_confidence(confidence)
        if isinstance(metrics, str):
            metrics = [metrics]
        sizes = self._all_sizes()
        every = range(len(self.groups))
        levels = np.array([(1 - confidence) / 2, (1 + confidence) / 2])  # interval(): ppf at both ends
        names = [metric_name(m, "metrics") for m in (metrics or self.metrics)]
        columns: dict[str, list[Any]] = {key: [] for key in ("value", "mean", "lower", "upper", "method")}
        columns |= {key: [] for key in ("mc_error", "cdf_error", "test_set_sd", "refit_sd", "total_sd")}
        small = []
        for metric in names:
            if not _is_macro(metric):
                self._binary(metric, "metrics")
        self._prefetch(names, every)  # the small groups of every metric batched, the others on threads
        for metric in names:
            columns["value"].extend(self._all_values(metric).tolist())
            for g in every:
                d, parts, _ = self._mixed(metric, g)
                lo, hi = d.ppf(levels).tolist()
                for key, item in (("mean", d.mean()), ("lower", lo), ("upper", hi), ("method", d.method)):
                    columns[key].append(item)
                columns["mc_error"].append(d.mc_error)
                columns["cdf_error"].append(d.cdf_error)
                for key, item in parts.items():
                    columns[key].append(item)
            macro = _is_macro(metric) or self.positive_index is None
            fewest = sizes["smallest_class"] if macro else np.minimum(sizes["positives"], sizes["negatives"])
            small.append(fewest < self.min_class_size)
        k = len(names)
        frame = {"group": list(self.groups) * k, "metric": np.repeat(np.array(names, dtype=object), len(self.groups))}
        frame |= columns | {key: np.tile(column.astype(np.int64), k) for key, column in sizes.items()}
        frame["too_small"] = np.concatenate(small) if small else np.zeros(0, dtype=bool)
        frame["target"] = [self.target] * len(frame["too_small"])
        if self._clustered is not None:
            return clustered_columns(pd.DataFrame(frame), self._clustered, self.groups, confidence)
        return pd.DataFrame(frame)

    def table(self, metrics: Sequence[str] | None = None, confidence: float = 0.95) -> Any:
        """Old name of :meth:`to_frame` (FutureWarning)."""
        _legacy("table()", "to_frame() (the same DataFrame)")
        return self.to_frame(metrics, confidence)

    def plot(
        self,
        ax: Any = None,
        *legacy: Any,
        metric: str | None = None,
        confidence: float = 0.95,
        max_groups: int = 12,
    ) -> Any:
        """A matplotlib figure of ``metric`` (default: the first of :attr:`metrics`) per group.

        Parameters
        ----------
        ax : matplotlib Axes, optional
            Without it: a new figure with, per group, the metric's PMF, its interval and
            the refits' means, and the decomposition of its spread (for slides and PNGs).
            With it: the groups' intervals and observed values drawn into ``ax``.
        metric : str, optional
            Keyword only (the old positional form ``plot(metric)`` warns).
        confidence : float, default 0.95
        max_groups : int, default 12
            Most groups drawn (the last ones, the whole test set included).

        Returns
        -------
        matplotlib.figure.Figure
        """
        from ._figure import draw_intervals, evaluation_figure

        if isinstance(ax, str) or legacy:  # the old plot(metric=None, confidence=0.95, max_groups=12)
            old = (ax, *legacy)
            if not (ax is None or isinstance(ax, str)) or len(old) > 3:
                raise InvalidParameterError(
                    "plot(ax=None, *, metric=None, confidence=0.95, max_groups=12) takes its options as keywords"
                )
            _legacy("plot(metric, confidence, max_groups)", "plot(ax=None, *, metric=..., confidence=...)")
            metric, confidence, max_groups = (*old, *(metric, confidence, max_groups)[len(old) :])
            ax = None
        name = metric_name(metric or self.metrics[0], "metric")
        confidence = check_confidence(confidence)
        max_groups = check_int(max_groups, "max_groups", minimum=1)
        if ax is None:
            return evaluation_figure(self, name, confidence, max_groups)
        draw_intervals(self, ax, name, confidence, max_groups)
        return ax.figure

    def to_html(
        self, path: str | Path | None = None, *legacy: Any, metric: str | None = None, confidence: float = 0.95
    ) -> str:
        """A self-contained page (no server, no internet): the question in words, the figure
        of :meth:`plot` as an embedded PNG and the table of :meth:`to_frame`.

        Parameters
        ----------
        path : str or Path, optional
            Where to write the page (UTF-8). The page is returned either way.
        metric : str, optional
            The metric of the figure (default: the first of :attr:`metrics`).
        confidence : float, default 0.95

        Returns
        -------
        str
            The page. (Until this release the page was only written, and the path returned.)
        """
        from ._page import evaluation_page

        if legacy:  # the old to_html(path, metric=None, confidence=0.95)
            if len(legacy) > 2:
                raise InvalidParameterError("to_html(path=None, *, metric=None, confidence=0.95) takes 1 positional")
            _legacy("to_html(path, metric, confidence)", "to_html(path, metric=..., confidence=...)")
            metric, confidence = (*legacy, *(metric, confidence)[len(legacy) :])
        name, path = metric_name(metric or self.metrics[0], "metric"), page_path(path)
        page = evaluation_page(self, name, check_confidence(confidence))
        if path is not None:
            path.write_text(page, encoding="utf-8")
        return page

    def summary(self, confidence: float = 0.95) -> str:
        """The first metric's observed value and interval, in words."""
        confidence = check_confidence(confidence)
        name = self.metrics[0]
        lo, hi = self.interval_of(name, confidence)
        refits = f" (the mean over {self.n_refits} refits)" if self.n_refits and self._record is None else ""
        answer = (
            "a new test set of the same size would show" if self.target == "next_test_set" else "its true value lies"
        )
        scored = _REFIT_WORDS[self.target] if self.n_refits else ""
        d = self.distribution(name)
        how = "" if d.method == "exact" else f", {d.method}: cdf within {d.cdf_error:.2g} of the exact one"
        basis = f"{self.model} model{how}"
        if self._clustered is not None:
            basis = f"{self.interval_method}, effective size {self.effective_size:,.0f}"
        return (
            f"{metric_label(name)} = {self.value_of(name):.3g}{refits} on {self.sizes()['objects']:,} test objects; "
            f"{answer}{scored} between {lo:.3g} and {hi:.3g} ({confidence:.0%} interval, {basis})."
        )

    def __repr__(self) -> str:
        return (
            f"Evaluation(objects={self.sizes()['objects']}, classes={len(self.classes)}, "
            f"groups={len(self.groups) - 1}, refits={self.n_refits}, target={self.target!r})"
        )
