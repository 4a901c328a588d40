"""The arguments only the bias reports and audits take: column names, value lists, thresholds."""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._validation import InvalidParameterError, check_real, missing_mask

__all__ = ["check_column_names", "check_exactly_one", "check_threshold", "check_value_list"]


def check_column_names(value: Any, name: str, *, allow_empty: bool = False) -> list[str]:
    """A column name or a list of distinct column names, as a list.

    >>> check_column_names("sex", "facets"), check_column_names(("sex", "race"), "facets")
    (['sex'], ['sex', 'race'])
    >>> check_column_names(["sex", "sex"], "facets")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: facets lists a column twice: ['sex', 'sex']
    """
    names = [value] if isinstance(value, str) else value
    if (
        not isinstance(names, Sequence)
        or isinstance(names, bytes)
        or (not names and not allow_empty)
        or not all(isinstance(c, str) for c in names)
    ):
        what = "a list of column names" if allow_empty else "a column name or a non-empty list of column names"
        raise InvalidParameterError(f"{name} must be {what}, got {value!r:.80}")
    if len(set(names)) != len(names):
        raise InvalidParameterError(f"{name} lists a column twice: {value!r:.80}")
    return list(names)


def check_value_list(value: Any, name: str) -> tuple[Any, ...] | None:
    """A non-empty list of hashable values without a missing one (``None`` passes through).

    Used for the values that select rows (``facet_values``, ``positive_values``): a
    missing value is never a category, so it cannot select anything. Tuples count as
    one value each (a combination of several columns).

    >>> check_value_list(["F", ("F", "B")], "facet_values")
    ('F', ('F', 'B'))
    >>> check_value_list([None], "facet_values")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: facet_values must not contain missing values (None/NaN/<NA>), got [None]: ...
    """
    if value is None:
        return None
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise InvalidParameterError(f"{name} must be a list of values, got {value!r:.80}")
    if len(value) == 0:
        raise InvalidParameterError(f"{name} must not be empty, got {value!r}")
    flat = np.empty(sum(len(v) if isinstance(v, tuple) else 1 for v in value), dtype=object)
    flat[:] = [x for v in value for x in (v if isinstance(v, tuple) else (v,))]
    if missing_mask(flat).any():
        raise InvalidParameterError(
            f"{name} must not contain missing values (None/NaN/<NA>), got {value!r:.80}: missing values are "
            "never a category (pass dropna=True to drop the rows that have them)"
        )
    try:
        hash(tuple(value))
    except TypeError:
        raise InvalidParameterError(
            f"{name} must hold hashable values (str, numbers, tuples), got {value!r:.80}"
        ) from None
    return tuple(value)


def check_threshold(value: Any, name: str) -> int | float:
    """A finite number that splits a numeric column (an integer stays an ``int``).

    >>> check_threshold(40, "facet_threshold"), check_threshold(0.5, "label_threshold")
    (40, 0.5)
    """
    fvalue = check_real(value, name, "a number")
    if not math.isfinite(fvalue):
        raise InvalidParameterError(f"{name} must be a finite number, got {value!r}")
    return int(value) if isinstance(value, numbers.Integral) else fvalue


def check_exactly_one(**named: Any) -> str:
    """The name of the one argument of ``named`` that is not None; refuses none or several.

    >>> check_exactly_one(positive_values=[1], label_threshold=None)
    'positive_values'
    >>> check_exactly_one(facet_values=None, facet_threshold=None)
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: give exactly one of facet_values and facet_threshold, got ...
    """
    given = [k for k, v in named.items() if v is not None]
    if len(given) != 1:
        shown = ", ".join(f"{k}={v!r:.60}" for k, v in named.items())
        raise InvalidParameterError(f"give exactly one of {' and '.join(named)}, got {shown}")
    return given[0]
