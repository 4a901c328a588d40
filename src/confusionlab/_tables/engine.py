"""The engine module of a frame, picked once by the frame's type.

Every engine module (:mod:`.pandas`, :mod:`.narwhals`, :mod:`.dask`, :mod:`.spark`) has the same
functions, ``count_cells``, ``moment_cells``, ``distinct_at_most``, ``percentiles``, ``score_edges``,
``score_binning``, ``glance`` and ``head_distinct``, and the flag ``REMOTE`` (the rows are on a
cluster: columns are checked before a table is brought here). :func:`engine_of` is the one place that looks at which
engine holds a frame; everything else asks the module it returns.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from . import dask, narwhals, pandas, spark
from .frames import to_narwhals
from .request import Cells, CountRequest, Moments

__all__ = ["count_cells", "engine_of", "moment_cells"]


def engine_of(frame: Any) -> ModuleType:
    """The engine module for a narwhals-wrapped ``frame`` (or anything :func:`~.frames.to_narwhals` wraps).

    >>> import pandas as pd
    >>> engine_of(pd.DataFrame({"a": [1]})).__name__
    'confusionlab._tables.pandas'
    """
    impl = to_narwhals(frame).implementation
    if impl.is_pandas():
        return pandas
    if impl.is_dask():
        return dask
    if impl.is_pyspark() or impl.is_pyspark_connect():
        return spark
    return narwhals


def count_cells(data: Any, request: CountRequest) -> Cells:
    """The count table of ``request`` on whatever engine holds ``data``: the one counting call.

    Parameters
    ----------
    data : DataFrame-like
        A narwhals frame, or anything :func:`~.frames.to_narwhals` wraps (pandas, polars,
        pyarrow, DuckDB, Dask, PySpark).
    request : CountRequest

    Returns
    -------
    Cells
        The same cells, whichever engine counted them (their order may differ).

    Examples
    --------
    >>> import pandas as pd
    >>> from confusionlab._tables.request import Above, Values
    >>> df = pd.DataFrame({"y": [1, 0, None], "s": ["F", "M", "M"]}).astype({"y": "Int64"})
    >>> c = count_cells(df, CountRequest({"s": Values("s"), "y": Above("y", 0)}))
    >>> sorted(zip(c.keys["s"], c.keys["y"], c.n)), c.missing, c.dropped
    ([('F', True, 1), ('M', False, 1)], {'y': 1}, 1)
    """
    frame = to_narwhals(data)
    return engine_of(frame).count_cells(frame, request)


def moment_cells(data: Any, request: CountRequest, moments: Moments) -> Cells:
    """The cells of ``request`` on whatever engine holds ``data``, each also with the smallest and the
    largest value of ``moments.column`` and the sums of its powers over the cell's rows
    (:attr:`Cells.moments`), in the same one aggregation.

    >>> import pandas as pd
    >>> from confusionlab._tables.request import Bins, Values
    >>> df = pd.DataFrame({"y": [1, 0, 1], "q": [0.2, 0.4, 0.8]})
    >>> c = moment_cells(df, CountRequest({"y": Values("y"), "b": Bins("q", (0.5,))}), Moments("q", 1))
    >>> sorted(zip(c.keys["y"], c.keys["b"], c.n, c.moments["sum1"]))
    [(0, 0, 1, 0.4), (1, 0, 1, 0.2), (1, 1, 1, 0.8)]
    """
    frame = to_narwhals(data)
    return engine_of(frame).moment_cells(frame, request, moments)
