"""Test items that are not independent: clusters, repeated samples, evaluation logs.

Many test sets are not independent draws: several questions about one passage, several scans of
one patient, several sentences of one speaker; language-model benchmarks sample each question K
times. :func:`evaluate_items` gives the mean score over items with a cluster-robust standard
error (Inspect's ``stderr(cluster=)``), the intraclass correlation, the design effect, the
effective size and, for repeated items, the items' and the samples' share of the variance;
:func:`compare_items` the paired difference of two systems with an exact sign-flip test over the
clusters; :func:`pass_at_k` Chen et al.'s unbiased pass@k with its variance and the Bayesian
pass@k per item. :func:`read_inspect_log` and :func:`read_lm_eval_samples` read the logs of
Inspect and lm-evaluation-harness into a frame these functions take (``data=``).

Without ``cluster=`` every function assumes the items independent.

One module per idea: ``_cluster_stats`` (clustered error, ICC, design effect, effective size),
``_table`` (the item table both paths build), ``_sign_flip`` (the exact test), ``_items`` (the
two functions), ``_result`` (their results), ``_pass_at_k``, ``_data`` (``data=``), ``_checks``,
``_options``, ``_log_files`` (safe reading), ``_inspect_log`` and ``_lm_eval`` (the readers).
"""

from ._inspect_log import read_inspect_log
from ._items import compare_items, evaluate_items
from ._lm_eval import read_lm_eval_samples
from ._pass_at_k import PassAtK, pass_at_k
from ._result import ItemComparison, ItemEvaluation
from ._sign_flip import SignFlipTest

__all__ = [
    "ItemComparison",
    "ItemEvaluation",
    "PassAtK",
    "SignFlipTest",
    "compare_items",
    "evaluate_items",
    "pass_at_k",
    "read_inspect_log",
    "read_lm_eval_samples",
]
