"""Bias metrics as in Amazon SageMaker Clarify, with their uncertainty.

All 21 of Clarify's metrics with smclarify 0.5's numbers, signs and edge cases
(so that a Clarify user gets the same report), from any dataframe engine
narwhals wraps (pandas, polars, pyarrow, DuckDB, Dask) or PySpark, computed
from one group-by count through one counting call; and, beyond
Clarify, the posterior predictive uncertainty of every count-based metric at the
facet sizes observed, verdicts (``BiasMetric.verdict``) and audits (:func:`audit`:
every group and intersection, Bonferroni-simultaneous intervals).

>>> from confusionlab import bias
>>> t = bias.CountTable.from_confusion(a=(2718, 3678, 84, 13900),   # (tp, fn, fp, tn)
...                                    d=(433, 679, 10, 8660))
>>> r = bias.report_from_counts(t)
>>> round(r["DI"].value, 4)
0.3294

Confusion counts are ordered ``(tp, fn, fp, tn)``, as everywhere in ConfusionLab.
Missing values in the label, facet, predicted or group column are never a
category: they are refused unless ``dropna=True``.

Modules: :mod:`.selection` (facet and label arguments), :mod:`._request` (those
compiled into the input layer's count request, :mod:`confusionlab._tables`: one small
module per dataframe engine behind one ``count_cells`` interface),
:mod:`.counts` (the count table), :mod:`.label_metrics` (pre-training),
:mod:`.prediction_metrics` (post-training), :mod:`.uncertainty`,
:mod:`.evaluator` (metrics and posteriors from a count table),
:mod:`.results` (:class:`BiasMetric`, :class:`BiasReport`), :mod:`.report`
(the entry points), :mod:`.auditing` (fairness audits, a package of one module
per step, imported on first use: they need pandas), :mod:`.figures` (their
matplotlib figures), :mod:`.planning` (group sizes). UCI Adult is a dataset:
:func:`confusionlab.datasets.load_adult`. Heavy engines (polars, DuckDB, Dask,
pandas, scikit-learn) are never imported here.

:class:`BiasMetric`, :class:`BiasReport` and :class:`Audit` are results of the
library's one protocol: ``value``, ``interval(confidence)``, ``to_frame()``,
``to_html(path)``, ``plot(ax)``, ``view()``.
"""

from __future__ import annotations

from typing import Any

from .. import datasets as _datasets
from .._deprecation import moved_names
from .counts import CountTable, count_table
from .planning import GroupSizePlan, plan_group_size
from .report import (
    DESCRIPTIONS,
    POSTTRAINING,
    PRETRAINING,
    BiasMetric,
    BiasReport,
    posttraining,
    pretraining,
    report,
    report_each_value,
    report_from_counts,
)

__all__ = [
    "AUDIT_METRICS",
    "DESCRIPTIONS",
    "POSTTRAINING",
    "PRETRAINING",
    "Audit",
    "BiasMetric",
    "BiasReport",
    "CountTable",
    "GroupSizePlan",
    "audit",
    "count_table",
    "plan_group_size",
    "posttraining",
    "pretraining",
    "report",
    "report_each_value",
    "report_from_counts",
]


_LAZY = {"AUDIT_METRICS", "Audit", "audit"}  # bias.auditing needs pandas: imported on first use
_moved = moved_names(__name__, _datasets, ["load_adult"])


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from . import auditing

        return getattr(auditing, name)
    return _moved(name)
