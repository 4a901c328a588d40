"""``evaluate(data=...)``: the (group, true label, prediction) table counted by the engine, then an Evaluation.

The table is counted where the data lives (:func:`confusionlab.bias.engines.table.count_columns`:
one aggregation in Spark or Dask, only the table leaves the cluster); the classes, the
groups and the per-group confusion tables are then built from it exactly as
:func:`~confusionlab.evaluate` builds them from arrays (the same sort of the classes and the
group names, the same int64 tables), so every number is the array path's.
"""

from __future__ import annotations

from math import comb
from typing import Any

import numpy as np

from .._validation import (
    InvalidParameterError,
    check_choice,
    check_int,
    check_labels_not_scores,
    check_progress,
    check_random_state,
    check_tolerance,
)
from ..confusion import _positive_label
from ..distribution import METHODS, TARGETS
from ..lattice import MAX_SIMPLEX_POINTS
from ..models import MODELS, SIMPLEX_MODELS, resolve_prior
from ._labels import ALL, MAX_GROUPS, _classes
from ._metrics import DEFAULT_METRICS, DEFAULT_MULTICLASS_METRICS, _is_macro, _metric_name
from ._result import Evaluation
from ._sampling import check_macro_memory

__all__ = ["check_column_name", "evaluate_data", "label_array"]


def check_column_name(value: Any, name: str, *, optional: bool = False) -> str | None:
    """A column name of ``data=`` (a string), or an InvalidParameterError naming the argument."""
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise InvalidParameterError(
            f"with data=, {name} is a column name (a string), got {type(value).__name__}; e.g. "
            f'{name}="{name}" — or pass the arrays without data='
        )
    return value


def label_array(values: list[Any]) -> np.ndarray:
    """The distinct labels of a table column as the array path reads such a column (object for text)."""
    arr = np.asarray(values)
    if arr.dtype.kind in "USO":
        arr = np.asarray(values, dtype=object)
    return arr


def evaluate_data(
    data: Any,
    y_true: Any,
    y_pred: Any = None,
    *,
    groups: Any = None,
    refits: Any = None,
    positive: Any = None,
    model: str = "beta-binomial",
    method: str = "auto",
    metrics: Any = None,
    target: str = "next_test_set",
    tolerance: float = 1e-12,
    prior: Any = None,
    n_draws: int = 20_000,
    random_state: Any = 0,
    min_class_size: int = 10,
    progress: bool | None = None,
) -> Evaluation:
    """:func:`~confusionlab.evaluate` of the columns ``y_true``, ``y_pred``, ``groups`` of ``data``.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"y": [1, 1, 0, 0, 1, 0, 1, 0], "p": [1, 0, 0, 0, 1, 1, 1, 0]})
    >>> evaluate_data(df, "y", "p").value["recall"]
    0.75
    """
    from ..bias.engines.table import count_columns
    from ._evaluate import MAX_DRAWS, TABLE_PRIOR, TRUE_VALUE_PRIOR

    if refits is not None:
        raise InvalidParameterError(
            "refits cannot come with data=: a refit's stability is per object, which a count table does not "
            "keep; evaluate the refits from arrays (evaluate(y_true, refits=R)), or one prediction column here"
        )
    y_true = check_column_name(y_true, "y_true")
    if y_pred is None:
        raise InvalidParameterError('with data=, give y_pred, the column of predicted labels (y_pred="pred")')
    y_pred = check_column_name(y_pred, "y_pred")
    groups = check_column_name(groups, "groups", optional=True)
    model = check_choice(model, "model", MODELS)
    method = check_choice(method, "method", METHODS)
    if isinstance(metrics, str):  # one metric name, not its characters
        metrics = [metrics]
    target = check_choice(target, "target", TARGETS)
    tolerance = check_tolerance(tolerance)
    alpha = (TRUE_VALUE_PRIOR if target == "true_value" else 1.0) if prior is None else resolve_prior(prior)
    n_draws = check_int(n_draws, "n_draws", minimum=1, maximum=MAX_DRAWS)
    min_class_size = check_int(min_class_size, "min_class_size", minimum=0)
    rng = check_random_state(random_state)
    show = check_progress(progress)
    if target == "true_value" and model != "beta-binomial":
        raise InvalidParameterError(
            f"target='true_value' is the posterior of the metric under the Beta posteriors of the rates, the limit "
            f"of the beta-binomial model; got model={model!r}. Use model='beta-binomial' (the default), or "
            "target='next_test_set'"
        )

    columns = {"y_true": y_true, "y_pred": y_pred} | ({"groups": groups} if groups is not None else {})
    table = count_columns(data, columns)
    table.refuse_missing(columns)
    m = int(table.n.sum())
    if m < 2:
        raise InvalidParameterError(f"y_true needs at least 2 objects, got {m}")
    t_vals = label_array(table.values["y_true"])
    p_vals = label_array(table.values["y_pred"])
    check_labels_not_scores(t_vals, "y_true")
    check_labels_not_scores(p_vals, "y_pred")
    if method == "exact" and model in SIMPLEX_MODELS and comb(m + 3, 3) > MAX_SIMPLEX_POINTS:
        raise InvalidParameterError(
            f"model={model!r} spreads each distribution over the simplex of C(N + 3, 3) matrices, "
            f"{comb(m + 3, 3):,} for N = {m:,} test objects, more than the {MAX_SIMPLEX_POINTS:,} it builds; use "
            "method='auto' (Monte Carlo of the same model where exact does not fit), model='beta-binomial' (exact "
            "at any size; the prevalence fixed), or a test set of at most 492 objects"
        )
    classes = _classes(t_vals, [p_vals])
    k = len(classes)
    if k > 2 and positive is None:
        asked = [name for name in (metrics or ()) if not _is_macro(_metric_name(name, "metrics"))]
        if asked:
            raise InvalidParameterError(
                f"metrics {asked!r} are binary but y_true and the predictions hold {k} classes; pass "
                "positive=<label> (one class against the rest), or use macro averages ('macro_f1') and per_class()"
            )
    positive_index = None
    if k <= 2 or positive is not None:
        positive_label = _positive_label(classes, positive)
        positive_index = next(i for i, c in enumerate(classes) if c == positive_label)
    chosen = list(metrics) if metrics is not None else list(DEFAULT_METRICS if k <= 2 else DEFAULT_MULTICLASS_METRICS)
    if not chosen:
        raise InvalidParameterError("metrics is empty; give at least one metric name")
    chosen = [_metric_name(name, "metrics") for name in chosen]
    if any(_is_macro(name) for name in chosen):
        check_macro_memory(n_draws, n_draws, k)

    lookup = {c: i for i, c in enumerate(classes)}
    t_codes = np.array([lookup[v] for v in table.values["y_true"]], dtype=np.int64)
    p_codes = np.array([lookup[v] for v in table.values["y_pred"]], dtype=np.int64)
    if groups is None:
        group_names: list[Any] = [ALL]
        g_codes = np.zeros(t_codes.size, dtype=np.int64)
        n_real = 1
    else:
        g = label_array(table.values["groups"])
        names, g_codes = np.unique(g.astype(str) if g.dtype == object else g, return_inverse=True)
        if names.size > MAX_GROUPS:
            raise InvalidParameterError(
                f"groups has {names.size:,} distinct values, more than {MAX_GROUPS:,}; is it continuous?"
            )
        sizes = np.bincount(g_codes, weights=table.n, minlength=names.size)
        single = names[sizes < 2]
        if single.size:
            raise InvalidParameterError(
                f"groups: {single.size} group(s) have a single row ({', '.join(map(repr, single[:5].tolist()))}); "
                "a group needs at least two objects — merge or drop them"
            )
        group_names = [*names.tolist(), ALL]
        n_real = names.size
    tables = np.zeros((n_real, k, k), dtype=np.int64)
    np.add.at(tables, (g_codes, t_codes, p_codes), table.n)
    if groups is not None:
        tables = np.concatenate([tables, tables.sum(axis=0, keepdims=True)])
    evaluation = Evaluation(
        classes=classes,
        positive_index=positive_index,
        group_names=group_names,
        record_tables=tables,
        run_tables=None,
        runs=None,
        t_codes=np.zeros(0, dtype=np.int64),
        group_codes=None,
        model=model,
        target=target,
        tolerance=tolerance,
        metrics=chosen,
        prior=alpha,
        table_prior=TABLE_PRIOR if prior is None else alpha,
        n_draws=n_draws,
        rng=rng,
        min_class_size=min_class_size,
        progress=show,
        method=method,
    )
    if method == "exact":  # the whole test set's lattice is the largest: refuse it now, as evaluate does
        evaluation._check_exact()
    return evaluation
