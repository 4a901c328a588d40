"""The one ``data=`` door: a call's column names → the job's count table.

Every job that takes ``data=`` (``evaluate``, ``compare_paired``, ``rank_models``, the curves,
``compare_auc``, ``calibration``) does the same two things at its top::

    options = check_options(...)                     # the job's frozen options, both paths
    if data is not None:
        return from_counts(DOOR(data, options, y_true=y_true, ...), options)

A job's :class:`Door` says which of its arguments are columns, which may be left out, how many
distinct values each may hold and how they are counted; calling it checks the names (a string
each, refused by argument), counts the table where the data lives (:func:`~.table.count_columns`
unless the job counts its own way, e.g. binned scores), refuses missing values by argument and
hands back the :class:`~.table.Table`. The job's ``from_counts(table, options)`` computes the
result from the table alone. The bounds every job shares are here, defined once.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._validation import InvalidParameterError
from .table import MAX_LABELS, Table, count_columns

__all__ = [
    "MAX_DISTINCT_SCORES",
    "MAX_GROUPS",
    "MAX_LABELS",
    "Door",
    "argument_key",
    "check_column_name",
    "label_array",
]

#: Most groups a job accepts (more is almost certainly a continuous column).
MAX_GROUPS = 10_000
#: Most distinct scores (or forecasts) a count table holds unbinned.
MAX_DISTINCT_SCORES = 10**6


def check_column_name(value: Any, name: str, *, optional: bool = False) -> str | None:
    """A column name of ``data=`` (a string), or an InvalidParameterError naming the argument.

    >>> check_column_name("y", "y_true"), check_column_name(None, "groups", optional=True)
    ('y', None)
    >>> check_column_name([0, 1], "y_true")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: with data=, y_true is a column name (a string), got list; \
e.g. y_true="y_true" — or pass the arrays without data=
    """
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise InvalidParameterError(
            f"with data=, {name} is a column name (a string), got {type(value).__name__}; e.g. "
            f'{name}="{name}" — or pass the arrays without data='
        )
    return value


def label_array(values: list[Any]) -> np.ndarray:
    """The distinct labels of a table column as the array path reads such a column (object for text).

    >>> label_array(["a", "b"]).dtype, label_array([0, 1]).dtype
    (dtype('O'), dtype('int64'))
    """
    arr = np.asarray(values)
    if arr.dtype.kind in "USO":
        arr = np.asarray(values, dtype=object)
    return arr


def argument_key(argument: str) -> Any:
    """The key of one of several columns, ``name[key]`` (an argument such as ``predictions['a']``): the
    key as given (its repr when that is no literal).

    >>> argument_key("predictions['a']"), argument_key("score_a[3]")
    ('a', 3)
    """
    inner = argument[argument.index("[") + 1 : -1]
    try:
        return ast.literal_eval(inner)
    except (ValueError, SyntaxError):
        return inner


#: How a job counts its columns: ``(data, {argument: column}, limits, options) → Table``.
Counter = Callable[[Any, dict[str, str], dict[str, int], Any], Table]


def _count_labels(data: Any, columns: dict[str, str], limits: dict[str, int], options: Any) -> Table:
    """The default count: every column by its values, each bounded by its limit (refused before counting)."""
    return count_columns(data, columns, limits=limits)


@dataclass(frozen=True)
class Door:
    """A job's ``data=`` door: which arguments are columns and how they are counted.

    Attributes
    ----------
    limits : mapping
        Column argument → most distinct values it may hold (:data:`MAX_LABELS` for labels,
        :data:`MAX_GROUPS` for groups). An argument ``name[key]`` (one of several classifiers)
        takes the limit of ``name``; an argument with no limit is not bounded (scores).
    optional : tuple of str
        Column arguments that may be None (left out of the table).
    columns : callable, optional
        ``columns(options, **given) → {argument: column}``: the job's own shape of its column
        arguments (a dict of classifiers, an argument refused with ``data=``), checked before
        anything is counted. Default: the arguments as given.
    count : callable, optional
        ``count(data, columns, limits, options) → Table``: how the job counts (binned scores,
        its own bounds). Default: :func:`~.table.count_columns` with the limits.

    Examples
    --------
    >>> import pandas as pd
    >>> door = Door(limits={"y_true": MAX_LABELS, "groups": MAX_GROUPS}, optional=("groups",))
    >>> t = door(pd.DataFrame({"y": [1, 0, 1]}), None, y_true="y", groups=None)
    >>> sorted(zip(t.values["y_true"], t.n.tolist())), t.columns
    ([(0, 1), (1, 2)], {'y_true': 'y'})
    >>> door(pd.DataFrame({"y": [1, None]}), None, y_true="y")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: y_true: column 'y' has 1 missing value(s) (None/NaN/<NA>); missing \
values are never a class or a score — drop or fill those rows first (e.g. data.dropna(subset=[...]))
    """

    limits: Mapping[str, int] = field(default_factory=dict)
    optional: tuple[str, ...] = ()
    columns: Callable[..., Mapping[str, Any]] | None = None
    count: Counter | None = None

    def __call__(self, data: Any, options: Any, **given: Any) -> Table:
        """The count table of the columns ``given`` names in ``data`` (missing values refused by argument)."""
        raw = self.columns(options, **given) if self.columns is not None else given
        checked = {arg: check_column_name(v, arg, optional=arg in self.optional) for arg, v in raw.items()}
        columns = {arg: c for arg, c in checked.items() if c is not None}
        limits = {arg: self.limits[base] for arg in columns for base in [arg.split("[", 1)[0]] if base in self.limits}
        table = (self.count or _count_labels)(data, columns, limits, options)
        table.refuse_missing(columns)
        return table
