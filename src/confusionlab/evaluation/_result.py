"""From a model's predictions to "how sure, for whom, would a refit agree?" (SPEC E3).

:func:`evaluate` takes the true labels, the predictions (one vector, or a refits × objects
matrix of refitted models on the same test set) and optional group labels, counts every
(refit, group) confusion table in one pass per refit, and returns an :class:`Evaluation`
whose distributions all come from the core:

* one prediction vector: exactly ``metric_distribution(ConfusionMatrix.from_predictions(...),
  metric, model=model)``, overall and per group;
* refits: the equal-weight **mixture** of the refits' exact distributions ("a new refit scored
  on a new test set") and the law-of-total-variance split of its variance into a test-set part
  (mean of the refits' variances) and a refit part (variance, ddof = 0, of their means);
* more than two classes: exact one-vs-rest distributions per class, and macro averages by
  Monte Carlo under the row-wise Dirichlet-multinomial model with a stated Monte Carlo error;
* the per-object stability of the refits from :mod:`confusionlab.stability` (psi and phi).

Every answer names its question (:data:`QUESTIONS`): ``target="next_test_set"`` (default)
is what a new test set of the same size will show; ``target="true_value"`` is where the
metric's true value lies (about 1/√2 as wide).
"""

from __future__ import annotations

import base64
import html
import io
import math
import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

from ._validation import (
    DEFAULT_TOLERANCE,
    as_labels,
    check_choice,
    check_confidence,
    check_int,
    check_memory,
    check_random_state,
    check_tolerance,
    missing_mask,
)
from .confusion import ConfusionMatrix, _distinct, _positive_label
from .distribution import TARGETS, MetricDistribution, metric_distribution
from .metrics import Metric, get_metric
from .mixture import slice_mixture
from .models import MODELS

__all__ = ["DEFAULT_METRICS", "MACRO_PREFIX", "QUESTIONS", "Evaluation", "evaluate", "mixture"]

#: Metrics an evaluation reports when ``metrics`` is not given (binary / more classes).
DEFAULT_METRICS = ("f1", "recall", "precision", "balanced_accuracy")
DEFAULT_MULTICLASS_METRICS = ("macro_f1", "macro_recall", "macro_precision")
#: Prefix of the macro averages over one-vs-rest classes ("macro_f1", "macro_recall", …).
MACRO_PREFIX = "macro_"
#: The question each ``target`` answers, in words (every view and page shows it).
QUESTIONS = {
    "next_test_set": "What will {metric} be on a new test set of the same size{refit}?",
    "true_value": "Where does the true {metric} lie{refit}, given this test set?",
}
_REFIT_WORDS = {"next_test_set": ", scored by a new refit of the model", "true_value": " for a new refit of the model"}
#: Bytes per (refit, group, cell) count and per Monte Carlo matrix cell.
_COUNT_BYTES = 8
_MC_BYTES_PER_CELL = 40
#: Most groups an evaluation accepts (more is almost certainly a continuous column).
MAX_GROUPS = 10_000
#: Name of the whole test set among the groups.
ALL = "all"


# ----------------------------------------------------------------------------- labels
def _as_refits(refits: Any, objects: int) -> np.ndarray:
    """A (refits, objects) array with no missing value, or a ValueError naming ``refits``."""
    to_numpy = getattr(refits, "to_numpy", None)
    arr = np.asarray(to_numpy() if callable(to_numpy) else refits)
    if arr.ndim != 2:
        raise ValueError(f"refits must be a 2-D (refits × objects) array, got shape {arr.shape}")
    if arr.shape[1] != objects:
        hint = " (it looks transposed: pass refits.T)" if arr.shape[0] == objects else ""
        raise ValueError(
            f"refits must have one column per test object: shape (refits, {objects}), got {arr.shape}{hint}"
        )
    if arr.shape[0] < 2:
        raise ValueError(f"refits needs at least 2 refitted models (rows), got {arr.shape[0]}")
    if arr.dtype.kind in "fcOUmM":
        missing = missing_mask(arr)
        if missing.any():
            r, c = np.argwhere(missing)[0]
            raise ValueError(
                f"refits has {int(missing.sum())} missing value(s) (None/NaN/<NA>), the first at row {r}, "
                f"column {c}; every refit must predict every object"
            )
    return arr


def _codes(arr: np.ndarray, classes: list[Any]) -> np.ndarray:
    """Integer codes of ``arr``'s labels in ``classes`` (which hold every label of ``arr``)."""
    if arr.dtype.kind in "biu" and all(isinstance(c, int | np.integer | bool) for c in classes):
        values = [int(c) for c in classes]
        if values == list(range(len(values))):
            return arr  # labels 0..K-1 (or booleans) are their own codes
    if arr.dtype != object:
        try:
            keys = np.asarray(classes, dtype=arr.dtype)
            order = np.argsort(keys, kind="stable")
            idx = np.searchsorted(keys[order], arr)
            idx = np.minimum(idx, len(classes) - 1)
            if np.array_equal(keys[order][idx], arr):
                return order[idx]
        except (TypeError, ValueError):
            pass
    lookup = {c: i for i, c in enumerate(classes)}
    flat = np.fromiter((lookup[v] for v in arr.reshape(-1).tolist()), dtype=np.int64, count=arr.size)
    return flat.reshape(arr.shape)


def _fast_classes(t: np.ndarray, preds: np.ndarray) -> list[Any] | None:
    """Classes without sorting the predictions, when they are integer codes 0..K-1 of y_true."""
    if t.dtype.kind not in "biu" or preds.dtype.kind not in "biu":
        return None
    ut = np.unique(t)
    k = int(ut.size)
    if ut[0] != 0 or int(ut[-1]) != k - 1 or preds.size == 0:
        return None
    lo, hi = int(preds.min()), int(preds.max())
    if lo < 0 or hi > max(k - 1, 1):
        return None
    k = max(k, hi + 1)
    if t.dtype.kind == "b" and preds.dtype.kind == "b":
        return [False, True][:k] if k <= 2 else None
    return list(range(k))


# ----------------------------------------------------------------------------- mixtures
def mixture(distributions: Sequence[MetricDistribution], *, model: str | None = None) -> MetricDistribution:
    """The equal-weight mixture of distributions of one metric (values pooled exactly).

    Parameters
    ----------
    distributions : sequence of MetricDistribution
        Of the same metric (e.g. one per refit).
    model : str, optional
        Name recorded in the result (default: ``"<model> mixture of R"``).

    Returns
    -------
    MetricDistribution
        Probabilities averaged, pruned and undefined masses averaged, multiplicities summed.

    Examples
    --------
    >>> from confusionlab import ConfusionMatrix, metric_distribution
    >>> a = metric_distribution(ConfusionMatrix(tp=8, fn=2, fp=3, tn=7), "recall")
    >>> b = metric_distribution(ConfusionMatrix(tp=5, fn=5, fp=3, tn=7), "recall")
    >>> m = mixture([a, b])
    >>> round(m.mean(), 6) == round((a.mean() + b.mean()) / 2, 6)
    True
    """
    if not distributions:
        raise ValueError("distributions is empty: a mixture needs at least one distribution")
    first = distributions[0]
    if len(distributions) == 1:
        return first
    r = float(len(distributions))
    values = np.concatenate([d.values for d in distributions])
    uniq, inverse = np.unique(values, return_inverse=True)
    probs = np.bincount(inverse, weights=np.concatenate([d.probabilities for d in distributions]) / r)
    mult = np.bincount(inverse, weights=np.concatenate([d.multiplicities for d in distributions]))
    out = MetricDistribution(
        uniq,
        probs,
        np.rint(mult).astype(np.int64),
        metric=first.metric,
        model=model or f"{first.model} mixture of {len(distributions)}",
        undefined_mass=sum(d.undefined_mass for d in distributions) / r,
        undefined_points=sum(d.undefined_points for d in distributions),
        pruned_mass=sum(d.pruned_mass for d in distributions) / r,
        lattice_points=sum(d.lattice_points for d in distributions),
        strategy="mixture",
        undefined_excluded=first.undefined_excluded,
        check_total=True,
    )
    out.target = first.target
    out.cdf_error = max(d.cdf_error for d in distributions)
    errors = [getattr(d, "mc_error", None) for d in distributions]
    if all(e is not None for e in errors):
        out.mc_error = math.sqrt(sum(e * e for e in errors)) / r  # type: ignore[attr-defined]
    return out


def _decomposition(dists: Sequence[MetricDistribution]) -> dict[str, float]:
    means = np.array([d.mean() for d in dists])
    variances = np.array([d.var() for d in dists])
    test = float(np.mean(variances))
    refit = float(np.var(means)) if means.size > 1 else 0.0
    return {"test_set_sd": math.sqrt(test), "refit_sd": math.sqrt(refit), "total_sd": math.sqrt(test + refit)}


# ----------------------------------------------------------------------------- evaluate
def evaluate(
    y_true: Any,
    y_pred: Any = None,
    *,
    groups: Any = None,
    refits: Any = None,
    positive: Any = None,
    model: str = "beta-binomial",
    metrics: Sequence[str] | None = None,
    target: str = "next_test_set",
    tolerance: float = DEFAULT_TOLERANCE,
    n_samples: int = 20_000,
    random_state: Any = 0,
    min_class_size: int = 10,
) -> Evaluation:
    """Evaluate a classifier's predictions: how sure, for whom, would a refit agree?

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
    metrics : sequence of str, optional
        Metrics reported by :meth:`Evaluation.table`, the view and the page (validated
        here). Default ``f1, recall, precision, balanced_accuracy``, or the macro
        averages for more than two classes.
    target : {"next_test_set", "true_value"}
        The question: what a new test set of the same size will show (default), or
        where the metric's true value lies (see :data:`QUESTIONS`).
    tolerance : float
        Tail mass each marginal may drop (:func:`~confusionlab.metric_distribution`).
    n_samples : int, default 20,000
        Monte Carlo draws of each macro average (split evenly over the refits).
    random_state : None, int or Generator, default 0
        Seed of the Monte Carlo draws.
    min_class_size : int, default 10
        A group with fewer positives or negatives (for macro averages: fewer objects
        in some class) is flagged ``too_small``: its intervals say little.

    Returns
    -------
    Evaluation

    Raises
    ------
    ValueError
        Lengths that differ, a ``refits`` matrix of the wrong shape, a group of one row,
        a binary metric asked of more than two classes without ``positive``, missing
        values; each names the argument, and nothing is computed.

    Examples
    --------
    >>> ev = evaluate([1, 1, 0, 0, 1, 0, 1, 0], [1, 0, 0, 0, 1, 1, 1, 0])
    >>> ev.value("recall")
    0.75
    >>> d = ev.distribution("recall")
    >>> d.target, round(d.mean(), 3)
    ('next_test_set', 0.667)
    """
    model = check_choice(model, "model", MODELS)
    target = check_choice(target, "target", TARGETS)
    tolerance = check_tolerance(tolerance)
    n_samples = check_int(n_samples, "n_samples", minimum=1, maximum=10**8)
    min_class_size = check_int(min_class_size, "min_class_size", minimum=0)
    rng = check_random_state(random_state)
    t = as_labels(y_true, "y_true")
    m = t.shape[0]
    if m < 2:
        raise ValueError(f"y_true needs at least 2 objects, got {m}")
    if y_pred is None and refits is None:
        raise ValueError("give y_pred (one prediction per object) or refits (a refits × objects matrix), or both")
    record = None
    if y_pred is not None:
        record = as_labels(y_pred, "y_pred")
        if record.shape[0] != m:
            raise ValueError(f"y_true and y_pred must have the same length, got {m} and {record.shape[0]}")
    runs = _as_refits(refits, m) if refits is not None else None
    group_codes, group_names = None, [ALL]
    if groups is not None:
        g = as_labels(groups, "groups")
        if g.shape[0] != m:
            raise ValueError(f"groups must have one label per object: length {m} (as y_true), got {g.shape[0]}")
        names, group_codes = np.unique(g.astype(str) if g.dtype == object else g, return_inverse=True)
        if names.size > MAX_GROUPS:
            raise ValueError(f"groups has {names.size:,} distinct values, more than {MAX_GROUPS:,}; is it continuous?")
        sizes = np.bincount(group_codes, minlength=names.size)
        single = names[sizes < 2]
        if single.size:
            raise ValueError(
                f"groups: {single.size} group(s) have a single row ({', '.join(map(repr, single[:5].tolist()))}); "
                "a group needs at least two objects — merge or drop them"
            )
        group_names = [*names.tolist(), ALL]

    # classes of every label vector, and integer codes
    pred_arrays = [a for a in (record, runs) if a is not None]
    classes = None
    if all(a.dtype.kind in "biu" for a in pred_arrays):
        lo_hi = [(a.min(), a.max()) for a in pred_arrays]
        span = np.array([v for pair in lo_hi for v in pair], dtype=t.dtype if t.dtype.kind in "biu" else np.int64)
        classes = _fast_classes(t, span)
    if classes is None:
        classes = _distinct(t, *(a.reshape(-1) for a in pred_arrays))
    k = len(classes)
    if k > 2 and positive is None:
        asked = [name for name in (metrics or ()) if not str(name).lower().startswith(MACRO_PREFIX)]
        if asked:
            raise ValueError(
                f"metrics {asked!r} are binary but y_true and the predictions hold {k} classes; pass "
                "positive=<label> (one class against the rest), or use macro averages ('macro_f1') and per_class()"
            )
    positive_index = None
    if k <= 2 or positive is not None:
        positive_label = _positive_label(classes, positive)
        positive_index = next(i for i, c in enumerate(classes) if c == positive_label)
    chosen = list(metrics) if metrics is not None else list(DEFAULT_METRICS if k <= 2 else DEFAULT_MULTICLASS_METRICS)
    if not chosen:
        raise ValueError("metrics is empty; give at least one metric name")
    chosen = [_metric_name(name, "metrics") for name in chosen]

    n_groups = len(group_names)
    n_runs = (runs.shape[0] if runs is not None else 0) + (record is not None)
    check_memory(
        float(n_runs) * n_groups * k * k * _COUNT_BYTES + 16.0 * m,
        f"count tables of {n_runs} prediction vectors × {n_groups} groups × {k}² cells",
        "use fewer groups or refits",
    )
    # one bincount per prediction vector over (group, true class, predicted class)
    t_codes = _codes(t, classes).astype(np.int64, copy=False)
    cells = k * k
    base = t_codes * k if group_codes is None else group_codes.astype(np.int64) * cells + t_codes * k
    n_real = n_groups - 1 if group_codes is not None else 1

    def count(pred: np.ndarray) -> np.ndarray:
        c = np.bincount(base + _codes(pred, classes), minlength=n_real * cells).reshape(n_real, k, k)
        if group_codes is None:
            return c
        return np.concatenate([c, c.sum(axis=0, keepdims=True)])

    record_tables = count(record) if record is not None else None
    run_tables = np.stack([count(runs[r]) for r in range(runs.shape[0])]) if runs is not None else None
    return Evaluation(
        classes=classes,
        positive_index=positive_index,
        group_names=group_names,
        record_tables=record_tables,
        run_tables=run_tables,
        runs=runs,
        t_codes=t_codes,
        group_codes=group_codes,
        model=model,
        target=target,
        tolerance=tolerance,
        metrics=chosen,
        n_samples=n_samples,
        rng=rng,
        min_class_size=min_class_size,
    )


def _metric_name(name: Any, argument: str) -> str:
    if not isinstance(name, str):
        raise TypeError(f"{argument} must hold metric names, got {name!r}")
    key = name.strip().lower()
    if key.startswith(MACRO_PREFIX):
        try:
            return MACRO_PREFIX + get_metric(key[len(MACRO_PREFIX) :]).name
        except (TypeError, ValueError) as err:
            raise ValueError(f"{argument}: unknown macro average {name!r} ({err})") from None
    try:
        return get_metric(key).name
    except (TypeError, ValueError) as err:
        raise ValueError(f"{argument}: {err}") from None


class Evaluation:
    """The result of :func:`evaluate`: values, distributions, groups, refits and classes.

    Attributes
    ----------
    classes : list
        Labels in the order of the count tables.
    groups : list
        Group names, then ``"all"`` (the whole test set).
    metrics : list of str
        Metrics reported by :meth:`table`, :meth:`plot`, :meth:`to_html` and the view.
    target : str
        ``"next_test_set"`` or ``"true_value"`` (see :data:`QUESTIONS`).
    n_refits : int
        Number of refits (0 for one prediction vector).
    counts : ndarray
        Count tables, shape (runs, groups, classes, classes) (rows true, columns
        predicted); runs are the refits, or the single ``y_pred``.

    Notes
    -----
    Distributions are computed when first asked for and kept.
    """

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
        n_samples: int,
        rng: np.random.Generator,
        min_class_size: int,
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
        self.metrics = metrics
        self.n_samples = n_samples
        self._rng = rng
        self.min_class_size = min_class_size
        self.n_refits = 0 if run_tables is None else int(run_tables.shape[0])
        self._cache: dict[tuple[Any, ...], MetricDistribution] = {}

    # ------------------------------------------------------------------ helpers
    def _group_index(self, group: Any) -> int:
        if group is None:
            return len(self.groups) - 1
        for i, name in enumerate(self.groups):
            if name == group or str(name) == str(group):
                return i
        raise ValueError(f"group {group!r} is not one of {self.groups!r}")

    def _binary(self, metric: str) -> Metric:
        if self.positive_index is None:
            raise ValueError(
                f"metric {metric!r} is binary but there are {len(self.classes)} classes; pass positive=<label> to "
                "evaluate(), use per_class(metric), or a macro average such as 'macro_f1'"
            )
        return get_metric(metric)

    @staticmethod
    def _one_vs_rest(table: np.ndarray, c: int) -> ConfusionMatrix:
        tp = int(table[c, c])
        fn = int(table[c].sum()) - tp
        fp = int(table[:, c].sum()) - tp
        return ConfusionMatrix(tp=tp, fn=fn, fp=fp, tn=int(table.sum()) - tp - fn - fp)

    def _exact(self, cm: ConfusionMatrix, metric: str) -> MetricDistribution:
        key = ("exact", metric, cm.as_tuple())
        if key not in self._cache:
            self._cache[key] = metric_distribution(cm, metric, self.model, tolerance=self.tolerance, target=self.target)
        return self._cache[key]

    def _mixed(
        self, metric: str, g: int, c: int | None = None
    ) -> tuple[MetricDistribution, dict[str, float], np.ndarray]:
        """The refits' mixture, its decomposition and the refits' means for group ``g``
        (class ``c`` against the rest).

        Binary metrics of a new test set under a slice model share one slice across the
        refits (the true labels are fixed), so :func:`~confusionlab.mixture.slice_mixture`
        gives all three from one exact grouping; otherwise the refits' distributions are
        pooled.
        """
        key = ("mixed", metric, g, c)
        if key not in self._cache:
            if not self._one_slice(metric):
                dists = self._run_dists(metric, g, c)
                means = np.array([d.mean() for d in dists])
                self._cache[key] = (mixture(dists), _decomposition(dists), means)
            else:
                if c is None:
                    self._binary(metric)
                    c = self.positive_index
                cms = [self._one_vs_rest(tables[g], c) for tables in self.counts]  # type: ignore[arg-type]
                mix = slice_mixture(cms, metric, self.model, tolerance=self.tolerance)
                self._cache[key] = (mix.distribution, mix.decompose(), mix.means)
        return self._cache[key]

    def _one_slice(self, metric: str) -> bool:
        """Whether the refits' distributions of ``metric`` share one slice (see :meth:`_mixed`)."""
        return not (
            metric.startswith(MACRO_PREFIX) or self.target != "next_test_set" or self.model == "dirichlet-multinomial"
        )

    def _prefetch(self, metric: str, groups: Sequence[int]) -> None:
        """Compute the groups' exact mixtures on up to 4 threads (numpy's sorts release the GIL).

        Only the exact slice mixtures run in parallel: they involve no random numbers, so the
        results do not depend on the order in which threads finish.
        """
        todo = [g for g in groups if ("mixed", metric, g, None) not in self._cache]
        if len(todo) < 2 or not self._one_slice(metric):
            return
        self._binary(metric)
        workers = min(4, os.cpu_count() or 1, len(todo))
        with threadpool_limits(limits=1, user_api="blas"), ThreadPoolExecutor(workers) as pool:
            list(pool.map(lambda g: self._mixed(metric, g), todo))

    def refit_means(self, metric: str, group: Any = None) -> np.ndarray:
        """The metric's mean under each refit's distribution (one value per refit)."""
        metric = _metric_name(metric, "metric")
        self._require_refits("refit_means")
        return self._mixed(metric, self._group_index(group))[2]

    def _run_dists(self, metric: str, g: int, c: int | None = None) -> list[MetricDistribution]:
        """One distribution per run (refit) of group ``g``: exact, or Monte Carlo for macro."""
        if metric.startswith(MACRO_PREFIX):
            return self._macro(metric, g)
        if c is None:
            self._binary(metric)
            c = self.positive_index
        return [self._exact(self._one_vs_rest(tables[g], c), metric) for tables in self.counts]  # type: ignore[arg-type]

    # ------------------------------------------------------------------ values
    def value(self, metric: str, group: Any = None) -> float:
        """The observed value: of ``y_pred``, or the mean over the refits when only refits were given.

        Macro averages are scikit-learn's ``average="macro"`` over the labels present in
        ``y_true`` or the predictions (0 where a class's metric is 0/0).
        """
        metric = _metric_name(metric, "metric")
        g = self._group_index(group)
        tables = [self._record[g]] if self._record is not None else [t[g] for t in self.counts]
        vals = []
        for table in tables:
            if metric.startswith(MACRO_PREFIX):
                m = get_metric(metric[len(MACRO_PREFIX) :])
                present = np.flatnonzero(table.sum(axis=0) + table.sum(axis=1))
                vals.append(float(np.mean([m(self._one_vs_rest(table, c)) for c in present])))
            else:
                vals.append(self._binary(metric)(self._one_vs_rest(table, self.positive_index)))  # type: ignore[arg-type]
        return float(np.mean(vals))

    def confusion_matrix(self, group: Any = None, run: int | None = None) -> ConfusionMatrix:
        """The binary (positive vs rest) confusion matrix of ``y_pred`` (or of refit ``run``;
        with refits only, the first refit's by default).

        Examples
        --------
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
        distributions. Macro averages: Monte Carlo (``mc_error`` attribute).
        """
        metric = _metric_name(metric, "metric")
        return self._mixed(metric, self._group_index(group))[0]

    def by_group(self, metric: str) -> dict[Any, MetricDistribution]:
        """{group: distribution} for every group (``"all"`` excluded)."""
        metric = _metric_name(metric, "metric")
        self._prefetch(metric, range(len(self.groups) - 1))
        return {name: self.distribution(metric, name) for name in self.groups[:-1]}

    def interval(self, metric: str, confidence: float = 0.95, group: Any = None) -> tuple[float, float]:
        """Central ``confidence`` interval of :meth:`distribution`."""
        return self.distribution(metric, group).interval(check_confidence(confidence))

    def decompose(self, metric: str, group: Any = None, *, by_group: bool = False) -> dict[Any, Any]:
        """Law-of-total-variance split of the metric's spread.

        Returns ``{"test_set_sd", "refit_sd", "total_sd"}``: test_set_sd² is the mean of the
        refits' variances, refit_sd² the variance (ddof = 0) of their means, total_sd² their
        sum (the mixture's variance). With ``by_group=True``: {group: that dict}.

        Examples
        --------
        >>> ev = evaluate([1, 1, 0, 0, 1, 0], refits=[[1, 0, 0, 0, 1, 1], [1, 1, 0, 0, 1, 0]])
        >>> d = ev.decompose("recall")
        >>> abs(d["total_sd"] ** 2 - d["test_set_sd"] ** 2 - d["refit_sd"] ** 2) < 1e-12
        True
        """
        metric = _metric_name(metric, "metric")
        if by_group:
            self._prefetch(metric, range(len(self.groups) - 1))
            return {name: self._mixed(metric, i)[1] for i, name in enumerate(self.groups[:-1])}
        return self._mixed(metric, self._group_index(group))[1]

    def per_class(self, metric: str, group: Any = None) -> dict[Any, MetricDistribution]:
        """{class: exact one-vs-rest distribution of ``metric``} (mixture over refits)."""
        name = _metric_name(metric, "metric")
        if name.startswith(MACRO_PREFIX):
            raise ValueError(f"metric {metric!r} is a macro average; per_class takes a binary metric such as 'f1'")
        g = self._group_index(group)
        return {c: self._mixed(name, g, i)[0] for i, c in enumerate(self.classes)}

    def mc_error(self, metric: str, group: Any = None) -> float:
        """Monte Carlo standard error of the mean of a macro average (0 for exact distributions)."""
        return float(getattr(self.distribution(metric, group), "mc_error", 0.0))

    def question(self, metric: str) -> str:
        """The question the distributions answer, in words."""
        name = _metric_name(metric, "metric")
        label = name if name.startswith(MACRO_PREFIX) else get_metric(name).label
        refit = _REFIT_WORDS[self.target] if self.n_refits else ""
        return QUESTIONS[self.target].format(metric=label, refit=refit)

    # ------------------------------------------------------------------ macro averages
    def _macro(self, metric: str, g: int) -> list[MetricDistribution]:
        key = ("macro", metric, g)
        if key in self._cache:
            return self._cache[key]  # type: ignore[return-value]
        m = get_metric(metric[len(MACRO_PREFIX) :])
        runs = self.counts
        per_run = max(1, self.n_samples // runs.shape[0])
        k = runs.shape[-1]
        check_memory(
            float(per_run) * k * k * _MC_BYTES_PER_CELL,
            f"n_samples={self.n_samples:,} Monte Carlo draws of {k} × {k} matrices",
            "use a smaller n_samples",
        )
        dists = []
        for table in runs[:, g]:
            present = np.flatnonzero(table.sum(axis=0) + table.sum(axis=1))
            sample = _macro_samples(table[np.ix_(present, present)], m, per_run, self._rng, self.target)
            values, counts = np.unique(sample, return_counts=True)
            d = MetricDistribution(
                values,
                counts / float(per_run),
                counts,
                metric=metric,
                model="dirichlet-multinomial rows (Monte Carlo)",
                strategy=f"monte-carlo({per_run})",
                check_total=True,
            )
            d.target = self.target
            d.mc_error = float(np.std(sample) / math.sqrt(per_run))  # type: ignore[attr-defined]
            dists.append(d)
        self._cache[key] = dists  # type: ignore[assignment]
        return dists

    # ------------------------------------------------------------------ stability
    @cached_property
    def stability(self) -> Any:
        """Per-object psi of the refits (reference: their pooled test-set predictions, which
        are out-of-sample predictions of the model), from :func:`confusionlab.stability.psi`."""
        from .stability import psi

        runs = self._require_refits("stability")
        return psi(runs, runs.reshape(-1), "nominal")

    @cached_property
    def phi(self) -> Any:
        """Per-object phi of the refits with the test set's true labels as reference sample
        (:func:`confusionlab.stability.phi`)."""
        from .stability import phi

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
        name = _metric_name(metric, "metric")
        if name.startswith(MACRO_PREFIX) or self.positive_index is None:
            return s["smallest_class"] < self.min_class_size
        return min(s["positives"], s["negatives"]) < self.min_class_size

    def table(self, metrics: Sequence[str] | None = None, confidence: float = 0.95) -> Any:
        """A pandas DataFrame, one row per (group, metric): value, mean, interval, the
        decomposition, sizes and the ``too_small`` flag."""
        import pandas as pd

        confidence = check_confidence(confidence)
        rows = []
        for metric in [_metric_name(m, "metrics") for m in (metrics or self.metrics)]:
            for name in self.groups:
                d = self.distribution(metric, name)
                lo, hi = d.interval(confidence)
                sizes = self.sizes(name)
                rows.append(
                    {
                        "group": name,
                        "metric": metric,
                        "value": self.value(metric, name),
                        "mean": d.mean(),
                        "lower": lo,
                        "upper": hi,
                        **self.decompose(metric, name),
                        **sizes,
                        "too_small": self.too_small(metric, name),
                    }
                )
        return pd.DataFrame(rows)

    def plot(self, metric: str | None = None, confidence: float = 0.95, max_groups: int = 12) -> Any:
        """A matplotlib figure: per group, the metric's PMF with the refits' means, and the
        decomposition of its spread (for slides and PNGs)."""
        import matplotlib

        matplotlib.use(matplotlib.get_backend())
        from matplotlib.figure import Figure

        metric = _metric_name(metric or self.metrics[0], "metric")
        confidence = check_confidence(confidence)
        names = self.groups[-max_groups:] if len(self.groups) > max_groups else self.groups
        fig = Figure(figsize=(9, 1.6 * len(names) + 0.8), layout="constrained")
        axes = fig.subplots(len(names), 2, squeeze=False, width_ratios=[3, 1])
        fig.suptitle(self.question(metric), fontsize=10)
        for row, name in enumerate(names):
            d = self.distribution(metric, name)
            ax, bar = axes[row]
            finite = np.isfinite(d.values)
            ax.vlines(d.values[finite], 0, d._p[finite], color="#1976d2", linewidth=1)
            lo, hi = d.interval(confidence)
            ax.axvspan(lo, hi, color="#1976d2", alpha=0.08)
            g = self._group_index(name)
            if self.n_refits:
                means = self._mixed(metric, g)[2]
                ax.plot(means, np.full(len(means), d._p.max() * 1.05), "|", color="#d84315", markersize=10)
            flag = "  (too small to say)" if self.too_small(metric, name) else ""
            ax.set_title(f"{name}: {self.value(metric, name):.3f} [{lo:.3f}, {hi:.3f}]{flag}", fontsize=9, loc="left")
            ax.set_yticks([])
            dec = self.decompose(metric, name)
            total = dec["total_sd"] ** 2 or 1.0
            share = dec["test_set_sd"] ** 2 / total
            bar.barh([0], [share], color="#1976d2", label="test set")
            bar.barh([0], [1 - share], left=[share], color="#d84315", label="refit")
            bar.set_xlim(0, 1)
            bar.set_yticks([])
            bar.set_title(f"sd {dec['total_sd']:.3f}", fontsize=9)
        axes[-1][0].set_xlabel(metric)
        axes[-1][1].set_xlabel("share of variance")
        if self.n_refits:
            axes[0][1].legend(fontsize=7, loc="lower right")
        return fig

    def to_html(self, path: str | Path, metric: str | None = None, confidence: float = 0.95) -> Path:
        """Write a self-contained page (no server, no internet): the question in words,
        the figure of :meth:`plot` as an embedded PNG and the table of :meth:`table`."""
        path = Path(path)
        metric = _metric_name(metric or self.metrics[0], "metric")
        fig = self.plot(metric, confidence)
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=110)
        png = base64.b64encode(buf.getvalue()).decode("ascii")
        frame = self.table(confidence=confidence)
        refits = f"{self.n_refits} refits" if self.n_refits else "one model"
        text = (
            "<!DOCTYPE html><html><head><meta charset='utf-8'><title>ConfusionLab evaluation</title>"
            "<style>body{font-family:system-ui,sans-serif;margin:2em;max-width:1100px}"
            "table{border-collapse:collapse;font-size:13px}td,th{padding:3px 8px;border-bottom:1px solid #ddd}"
            ".question{font-size:1.15em;color:#1976d2}</style></head><body class='confusionlab-evaluation-page'>"
            f"<h1>Evaluation of {html.escape(refits)} on {self.sizes()['objects']:,} test objects</h1>"
            f"<p class='question'>{html.escape(self.question(metric))}</p>"
            f"<p>Intervals hold {confidence:.0%} of each distribution (model: {html.escape(self.model)}). "
            "Groups flagged <em>too_small</em> have fewer than "
            f"{self.min_class_size} positives or negatives: their numbers say little.</p>"
            f"<img alt='distribution of {html.escape(metric)} per group' src='data:image/png;base64,{png}'>"
            f"{frame.to_html(index=False, float_format=lambda v: f'{v:.4g}')}"
            "</body></html>"
        )
        path.write_text(text, encoding="utf-8")
        return path

    def __repr__(self) -> str:
        return (
            f"Evaluation(objects={self.sizes()['objects']}, classes={len(self.classes)}, "
            f"groups={len(self.groups) - 1}, refits={self.n_refits}, target={self.target!r})"
        )


def _macro_samples(table: np.ndarray, metric: Metric, draws: int, rng: np.random.Generator, target: str) -> np.ndarray:
    """Macro average of ``metric`` over classes for ``draws`` matrices: each row i of the K × K
    table gets θ_i ~ Dirichlet(row + 1); the new row is Multinomial(n_i, θ_i) (next test set) or
    n_i·θ_i (true value)."""
    k = table.shape[0]
    n_rows = table.sum(axis=1)
    theta = rng.gamma(table[None, :, :] + 1.0, size=(draws, k, k))
    theta /= theta.sum(axis=2, keepdims=True)
    if target == "true_value":
        mats = theta * n_rows[None, :, None]
    else:
        mats = np.empty_like(theta)
        for i in range(k):
            mats[:, i, :] = rng.multinomial(int(n_rows[i]), theta[:, i, :]) if n_rows[i] else 0.0
    diag = np.einsum("sii->si", mats)
    rows, cols = mats.sum(axis=2), mats.sum(axis=1)
    total = float(n_rows.sum())
    fn, fp = rows - diag, cols - diag
    values = metric.values(diag, fn, fp, total - diag - fn - fp)
    return values.mean(axis=1)
