"""Count cells on a Dask DataFrame: the pandas counter on each partition, summed here.

A tree of small tables instead of a shuffling group-by: each partition returns
at most a few dozen rows (its cells, and one row per column with missing
values), and nothing else leaves the workers. With ``dropna=True`` each
partition leaves out its own rows with missing values.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import Cells, CountRequest

__all__ = ["count_cells"]

_KIND = "_kind"  # "cell", "missing" (of the column in _COL) or "dropped"
_COL = "_col"


def count_cells(frame: Any, request: CountRequest) -> Cells:
    """The count table of ``request`` on a narwhals-wrapped Dask frame.

    Examples
    --------
    >>> import dask.dataframe as dd, pandas as pd
    >>> from confusionlab.bias.engines import to_narwhals
    >>> from confusionlab.bias.selection import facet_selection, label_selection
    >>> df = pd.DataFrame({"y": [1, 0, None, 1], "s": ["F", "M", "M", "F"]})
    >>> req = CountRequest("y", label_selection([1.0]), facet_selection("s", ["F"]), dropna=True)
    >>> c = count_cells(to_narwhals(dd.from_pandas(df, npartitions=2)), req)
    >>> sum(c.n), c.missing, c.dropped     # cells of each partition; the caller adds them up
    (3, {'y': 1}, 1)
    """
    import narwhals as nw
    import pandas as pd

    from .pandas import count_native

    ddf = nw.to_native(frame)
    names = [*request.keys, _KIND, _COL, "_n"]
    meta = pd.DataFrame({c: pd.Series(dtype=object if c != "_n" else np.int64) for c in names})

    def partial(pdf: Any) -> Any:
        cells = count_native(pdf, request)
        dropped = [cells.dropped] if cells.dropped else []  # only rows that carry information
        extra = len(cells.missing) + len(dropped)
        rows: dict[str, list[Any]] = {k: list(v) + [None] * extra for k, v in cells.keys.items()}
        rows[_KIND] = ["cell"] * len(cells.n) + ["missing"] * len(cells.missing) + ["dropped"] * len(dropped)
        rows[_COL] = [None] * (len(cells.n) + extra)
        rows[_COL][len(cells.n) : len(cells.n) + len(cells.missing)] = list(cells.missing)
        rows["_n"] = list(cells.n) + list(cells.missing.values()) + dropped
        return pd.DataFrame({c: pd.Series(rows[c], dtype=meta[c].dtype) for c in names})

    columns = list(dict.fromkeys(col for _, col in request.checked))
    parts = ddf[columns].map_partitions(partial, meta=meta).compute()
    out = Cells({k: [] for k in request.keys}, [])
    cols = {k: parts[k].tolist() for k in [*request.keys, _KIND, _COL, "_n"]}
    for i, kind in enumerate(cols[_KIND]):
        n = int(cols["_n"][i])
        if kind == "cell":
            for k in request.keys:
                out.keys[k].append(cols[k][i])
            out.n.append(n)
        elif kind == "missing":
            out.missing[cols[_COL][i]] = out.missing.get(cols[_COL][i], 0) + n
        else:
            out.dropped += n
    return out
