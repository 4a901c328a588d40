"""``evaluate_items(data=...)`` and ``compare_items(data=...)``: (item, cluster, score) cells counted
by the engine, then the item table.

An item job needs, per item, its rows and the sums of its scores; per cluster, its items. Those
are functions of the count table of (item, cluster, score) — (item, cluster, score A, score B) for
a comparison — so the table is counted where the data lives (:class:`~confusionlab._tables.Door`:
one aggregation in Spark or Dask) and :func:`from_counts` builds the same item table the arrays
give. Without ``item``, each row is its own item: the cells are expanded into their rows (memory
checked first).
"""

from __future__ import annotations

import numpy as np

from .._tables import Door, Table, label_array
from .._validation import check_memory
from ._checks import BYTES_PER_ROW, check_scores
from ._items import from_table
from ._options import Options
from ._result import ItemComparison, ItemEvaluation
from ._table import item_table

__all__ = ["COMPARE_DOOR", "EVALUATE_DOOR", "from_counts"]

#: evaluate_items' door: a score column, item and cluster columns if given (none bounded: every
#: item and every cluster counts).
EVALUATE_DOOR = Door(optional=("item", "cluster"))
#: compare_items' door: two score columns on the same rows.
COMPARE_DOOR = Door(optional=("item", "cluster"))


def from_counts(table: Table, options: Options) -> ItemEvaluation | ItemComparison:
    """The item result of a counted (scores…, item, cluster) table.

    Examples
    --------
    >>> import pandas as pd
    >>> from confusionlab import evaluate_items
    >>> df = pd.DataFrame({"s": [1, 0, 1, 1], "q": ["a", "a", "b", "b"], "p": [1, 1, 2, 2]})
    >>> r = evaluate_items("s", item="q", cluster="p", data=df)
    >>> r.value, r.n_items, r.n_rows
    (0.75, 2, 4)
    """
    names = [arg for arg in ("scores", "scores_a", "scores_b") if arg in table.values]
    columns = [check_scores(np.asarray(table.values[arg], dtype=object), arg) for arg in names]
    item = label_array(table.values["item"]) if "item" in table.values else None
    cluster = label_array(table.values["cluster"]) if "cluster" in table.values else None
    weights: np.ndarray | None = table.n
    if item is None:  # each row is its own item: the cells become rows again
        rows = int(table.n.sum())
        check_memory(BYTES_PER_ROW * rows, f"{rows:,} rows expanded from their cells", "pass item= (a column)")
        index = np.repeat(np.arange(table.n.size), table.n)
        columns = [c[index] for c in columns]
        cluster = None if cluster is None else cluster[index]
        weights = None
    return from_table(item_table(columns, item, cluster, weights), options)
