"""What to count and what comes back: the request every engine reads, the cells it returns.

A :class:`CountRequest` names its keys, each one of four kinds: a column's own values
(:class:`Values`), a column's bin (:class:`Bins`), or a boolean flag, a column above a
threshold (:class:`Above`) or a row among listed values (:class:`OneOf`). An engine
builds each key in its own language through :meth:`CountRequest.key_columns` and counts
the rows per combination of keys; the :class:`Cells` it returns hold one entry per
combination, and, per column read, the rows whose value was missing (those rows are
never in a cell).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

__all__ = ["Above", "Bins", "Cells", "CountRequest", "Key", "Moments", "OneOf", "TooManyCells", "Values"]


@dataclass(frozen=True)
class Values:
    """Key: the values of ``column``."""

    column: str

    @property
    def columns(self) -> tuple[str, ...]:
        """The columns this key reads."""
        return (self.column,)

    def build(self, engine: KeyBuilder) -> Any:
        """This key in ``engine``'s language."""
        return engine.values(self.column)


@dataclass(frozen=True)
class Bins:
    """Key: the bin of ``column``'s value.

    ``edges`` are increasing edges (a value ``x`` is in bin ``searchsorted(edges, x, "right")``,
    0 … len(edges)) or a :class:`~confusionlab._tables.knots.Knots` map (then the cells also
    carry each cell's smallest value, :attr:`Cells.lows`). An infinite value is in bin −1.
    """

    column: str
    edges: Any

    @property
    def columns(self) -> tuple[str, ...]:
        """The columns this key reads."""
        return (self.column,)

    def build(self, engine: KeyBuilder) -> Any:
        """This key in ``engine``'s language."""
        return engine.bins(self.column, self.edges)


@dataclass(frozen=True)
class Above:
    """Boolean key: ``column > threshold``."""

    column: str
    threshold: float

    @property
    def columns(self) -> tuple[str, ...]:
        """The columns this key reads."""
        return (self.column,)

    def build(self, engine: KeyBuilder) -> Any:
        """This key in ``engine``'s language."""
        return engine.above(self.column, self.threshold)


@dataclass(frozen=True)
class OneOf:
    """Boolean key: the row's value is one of ``values``.

    With one column, ``values`` are values of it; with several, each entry of ``values`` is
    a tuple with one value per column, and a row matches when its combination is listed.
    """

    columns: tuple[str, ...]
    values: tuple[Any, ...]

    def build(self, engine: KeyBuilder) -> Any:
        """This key in ``engine``'s language."""
        return engine.one_of(self.columns, self.values)


Key = Values | Bins | Above | OneOf


class KeyBuilder(Protocol):
    """The four kinds of key in one engine's language (a column, a bin index, two boolean flags)."""

    def values(self, column: str) -> Any: ...

    def bins(self, column: str, edges: Any) -> Any: ...

    def above(self, column: str, threshold: float) -> Any: ...

    def one_of(self, columns: tuple[str, ...], values: tuple[Any, ...]) -> Any: ...


@dataclass(frozen=True)
class CountRequest:
    """What to count: rows per combination of the values of ``keys``.

    Attributes
    ----------
    keys : mapping of str to Key
        Key name → what it holds (:class:`Values`, :class:`Bins`, :class:`Above`, :class:`OneOf`).
    columnar : bool
        A large table (the cells of scores, where moving rows costs more than counting): Spark
        hands it over as Arrow instead of ``collect``ed rows, Dask sums the partitions' tables
        on the workers in a tree instead of on the client.
    max_cells : int, optional
        Spark and Dask raise :class:`TooManyCells` instead of bringing a larger table to the
        client (Spark collects at most ``max_cells + 1`` rows; Dask refuses on the workers).

    Examples
    --------
    >>> req = CountRequest({"y": Above("score", 0.5), "g": Values("group"), "s": Values("score")})
    >>> req.names, req.columns
    (['y', 'g', 's'], ['score', 'group'])
    """

    keys: Mapping[str, Key]
    columnar: bool = False
    max_cells: int | None = None

    @property
    def names(self) -> list[str]:
        """The key names, in order."""
        return list(self.keys)

    @property
    def columns(self) -> list[str]:
        """Every column the keys read, each once, in the order of the keys: their missing values are counted."""
        return list(dict.fromkeys(c for key in self.keys.values() for c in key.columns))

    @property
    def bins(self) -> dict[str, Bins]:
        """The keys that bin a column, by name."""
        return {name: key for name, key in self.keys.items() if isinstance(key, Bins)}

    def key_columns(self, engine: KeyBuilder) -> dict[str, Any]:
        """Every key in ``engine``'s language, so that each engine builds the same keys.

        >>> class Text:
        ...     def values(self, c): return c.upper()
        ...     def bins(self, c, e): return f"bin({c})"
        ...     def above(self, c, t): return f"{c} > {t}"
        ...     def one_of(self, cs, vs): return f"{cs} in {vs}"
        >>> CountRequest({"l": Above("y", 0.5), "k": Values("sex")}).key_columns(Text())
        {'l': 'y > 0.5', 'k': 'SEX'}
        """
        return {name: key.build(engine) for name, key in self.keys.items()}


@dataclass(frozen=True)
class Moments:
    """What :func:`~confusionlab._tables.engine.moment_cells` adds to each cell: of one numeric
    ``column``, the smallest and the largest value and the sums of its powers 1 … ``powers``
    (as float64), under the names :attr:`names`.

    >>> Moments("q", 2).names
    ['min', 'max', 'sum1', 'sum2']
    """

    column: str
    powers: int = 4

    @property
    def names(self) -> list[str]:
        """The aggregates, in order: ``min``, ``max``, ``sum1`` … ``sum<powers>``."""
        return ["min", "max", *(f"sum{j}" for j in range(1, self.powers + 1))]


class TooManyCells(Exception):
    """A count table larger than :attr:`CountRequest.max_cells` (raised by the Spark and Dask engines)."""


@dataclass
class Cells:
    """A sparse count table as an engine returns it.

    Attributes
    ----------
    keys : dict of list
        Key name → the key's value in each cell (a boolean for a flag, the bin index for
        :class:`Bins`).
    n : list of int
        Rows in each cell (rows with a missing value in a column read are never in a cell).
    missing : dict
        Column → number of rows whose value in it is missing (None, NaN, ``<NA>``).
    dropped : int
        Rows left out because of a missing value (in any column).
    lows : dict of list
        For a key binned by :class:`~confusionlab._tables.knots.Knots`: each cell's smallest
        value of the column (so the bins' lower edges are observed values).
    moments : dict of list
        From :func:`~confusionlab._tables.engine.moment_cells`: each :attr:`Moments.names` → its
        value in each cell.
    """

    keys: dict[str, list[Any]]
    n: list[int]
    missing: dict[str, int] = field(default_factory=dict)
    dropped: int = 0
    lows: dict[str, list[float]] = field(default_factory=dict)
    moments: dict[str, list[float]] = field(default_factory=dict)

    @classmethod
    def from_rows(
        cls,
        rows: Iterable[Any],
        keys: Sequence[str],
        columns: Sequence[str],
        *,
        count: str,
        lows: Sequence[str] = (),
        moments: Sequence[str] = (),
    ) -> Cells:
        """Cells from grouped rows (indexable by name): the key values, the row count under
        ``count``, one missing flag ``_m<i>`` per column of ``columns`` and, for each name of
        ``lows``, the cell's smallest value under ``_lo_<name>``, and for each name of ``moments``
        (:attr:`Moments.names`) its value under ``_s_<name>``. Rows with a missing flag form no
        cell; they are counted per column and in ``dropped``.

        >>> rows = [{"k": 1, "_m0": False, "_n": 3}, {"k": None, "_m0": True, "_n": 2}]
        >>> c = Cells.from_rows(rows, ["k"], ["col"], count="_n")
        >>> c.keys, c.n, c.missing, c.dropped
        ({'k': [1]}, [3], {'col': 2}, 2)
        """
        out = cls({k: [] for k in keys}, [], lows={k: [] for k in lows}, moments={k: [] for k in moments})
        missing = [0] * len(columns)
        for row in rows:
            n = int(row[count])
            hit = [bool(row[f"_m{i}"]) for i in range(len(columns))]
            if any(hit):
                out.dropped += n
                for i, h in enumerate(hit):
                    missing[i] += n * h
                continue
            for k in keys:
                out.keys[k].append(row[k])
            for k in lows:
                out.lows[k].append(row[f"_lo_{k}"])
            for k in moments:
                out.moments[k].append(float(row[f"_s_{k}"]))
            out.n.append(n)
        out.missing = {col: m for col, m in zip(columns, missing, strict=True) if m}
        return out
