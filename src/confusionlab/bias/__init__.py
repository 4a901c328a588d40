"""Bias metrics as in Amazon SageMaker Clarify, with their uncertainty.

All 21 of Clarify's metrics with smclarify 0.5's numbers, signs and edge cases
(SPEC Part B), from any dataframe engine narwhals wraps (pandas, polars,
pyarrow, DuckDB, Dask), computed from one group-by count; and, beyond Clarify,
the posterior predictive uncertainty of every count-based metric at the facet
sizes observed.

>>> from confusionlab import bias
>>> t = bias.CountTable.from_confusion(a=(2718, 84, 3678, 13900), d=(433, 10, 679, 8660))
>>> r = bias.report_from_counts(t)
>>> round(r["DI"].value, 4)
0.3294

Modules: :mod:`.counts` (the group-by), :mod:`.label_metrics` (pre-training),
:mod:`.prediction_metrics` (post-training), :mod:`.uncertainty`,
:mod:`.report`, :mod:`.datasets` (UCI Adult). Heavy engines (polars, DuckDB,
Dask, scikit-learn) are never imported here.
"""

from __future__ import annotations

from .counts import CountTable, count_table
from .datasets import load_adult
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
    "DESCRIPTIONS",
    "POSTTRAINING",
    "PRETRAINING",
    "BiasMetric",
    "BiasReport",
    "CountTable",
    "count_table",
    "load_adult",
    "posttraining",
    "pretraining",
    "report",
    "report_each_value",
    "report_from_counts",
]
