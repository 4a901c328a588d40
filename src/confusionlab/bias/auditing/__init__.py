"""Fairness audits that hold up: every group, every metric, one defensible verdict each.

:func:`audit` answers, for every value of every facet column (and, with
``intersections=True``, every combination of two facet columns), and for every
count-based bias metric: is there bias beyond a stated margin, no material
bias, or too little evidence to say?

How it is computed
------------------
1. **One group-by** over all facet columns, the label and the prediction, in the
   engine that holds the data, through the counting call every report uses
   (:func:`confusionlab.bias._request.count_cells`: pandas, numpy codes and one ``bincount``; Dask,
   that on every partition; polars, pyarrow, DuckDB, one narwhals group-by;
   Spark, one ``groupBy(...).count()``). Only that small table of facet
   combinations comes back; every group below is a sum of its rows.
2. Each audit row compares facet *d* (the group) with facet *a* (the rest of
   the data, Clarify's one-vs-rest, or a chosen ``reference`` group, fairlearn's
   habit) through the same :class:`~confusionlab.bias.CountTable` and
   :class:`~confusionlab.bias.evaluator.Evaluator` as :func:`~confusionlab.bias.report`, so a row's value
   and interval are the report's for that facet value.
3. **Simultaneous intervals** (Bonferroni): with m rows, each row's interval is
   the central interval at level ``1 − (1 − confidence)/m``; all m intervals
   then cover their metrics together with probability at least ``confidence``.
4. The **verdict** of each row is :func:`~confusionlab.bias.results.verdict_of` of that interval
   against ``no_bias ± margin`` (:meth:`~confusionlab.bias.BiasMetric.verdict`), kept only
   when a group of that size could have shown either verdict: else
   "insufficient evidence".

The intervals are most of the work (the count is one group-by). Within a group,
metrics built on the same counts share their posterior: DPL and the KL family one
beta-binomial lattice (or one set of draws) of the label counts, DPPL and DI one of
the prediction counts, DCA … TE one set of Dirichlet-multinomial draws of the
confusion counts (:meth:`~confusionlab.bias.evaluator.Evaluator.share_posteriors`); each metric's
distribution is still exactly the report's. Groups are independent and are judged
on a few threads; the result does not depend on their number.

Rows that cannot be compared (an intersection whose rest is empty, a metric
undefined for the counts) are "insufficient evidence" with a note; combinations
of two facet values that never occur are skipped and listed in the notes.

The modules, one idea each:

=====================  ================================================================
``_options``           the arguments that do not depend on the data, checked once
``_cells``             the one group-by: a dense table of the facets' combinations
``_groups``            the groups judged: one-vs-rest, against a reference, intersections
``_size``              the work and memory an audit may take, refused up front
``_evaluate``          each group as a report's comparison, and its metrics' values
``_multiplicity``      the Bonferroni level of each interval, and the draws it needs
``_verdicts``          each row's verdict, kept only when the counts could contradict it
``_judge``             the groups judged in blocks, on a few threads
``_result``            :class:`Audit`, the result (``_frame``: its DataFrame uses)
``_page``              the auditor's page
``_audit``             :func:`audit`, the entry point
=====================  ================================================================
"""

from ._audit import audit
from ._cells import MAX_COMBINATIONS as MAX_COMBINATIONS
from ._frame import COLUMNS, FRAME_METHODS
from ._options import AUDIT_METRICS, DEFAULT_METRICS
from ._result import Audit
from ._size import FAST_ROWS as FAST_ROWS
from ._size import MAX_AUDIT_ROWS as MAX_AUDIT_ROWS
from ._size import SLOW_ROW_WEIGHT as SLOW_ROW_WEIGHT

# MAX_COMBINATIONS, MAX_AUDIT_ROWS, FAST_ROWS and SLOW_ROW_WEIGHT: the limits, named in refusals
__all__ = ["AUDIT_METRICS", "COLUMNS", "DEFAULT_METRICS", "FRAME_METHODS", "Audit", "audit"]
