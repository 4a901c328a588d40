"""Class labels and group labels: which label is positive, and how groups become codes.

One rule for the whole library. Labels may be numbers, booleans, strings or any other
objects, as lists, numpy arrays or pandas/polars Series read by
:func:`~confusionlab._validation.as_labels`.

- Two labels are the same when they are equal numbers (``1``, ``1.0`` and ``True`` are
  one label), equal strings, or equal objects of one type (``1`` and ``"1"`` are two).
- The positive class is the one given; without one, it is ``1`` (or ``True``) when the
  labels are 0/1, ``False``/``True`` or −1/1, and refused otherwise.
- Groups are coded by their sorted distinct values: numbers by value, then every other
  label by its text; two groups that read the same (``1`` and ``"1"``) are refused, since
  no table, figure or page could tell them apart.

Examples
--------
>>> import numpy as np
>>> t = np.array(["cat", "dog", "dog"], dtype=object)
>>> distinct_labels(t)
['cat', 'dog']
>>> positive_label(["cat", "dog"], "dog")
'dog'
>>> labels_equal(t, "dog").tolist()
[False, True, True]
>>> code_groups(np.array(["b", "a", "b"]))
(['a', 'b'], array([1, 0, 1]))
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from ._validation import InvalidParameterError

__all__ = ["code_groups", "distinct_labels", "labels_equal", "positive_label", "same_label"]

#: The types whose labels compare as numbers (``1 == 1.0 == True``).
_NUMBER = (bool, int, float, np.number, np.bool_)


def distinct_labels(*arrays: np.ndarray) -> list[Any]:
    """The distinct labels of one or more label arrays, sorted (by their text where types do not compare).

    Parameters
    ----------
    *arrays : numpy.ndarray
        One-dimensional label arrays with no missing value.

    Returns
    -------
    list
        The labels as Python scalars, each once.

    Examples
    --------
    >>> distinct_labels(np.array([1, 0, 1]), np.array([0, 0, 2]))
    [0, 1, 2]
    >>> distinct_labels(np.array([1, "a"], dtype=object))
    ['a', 1]
    """
    seen: dict[Any, None] = {}
    for arr in arrays:
        for v in np.unique(arr).tolist() if arr.dtype != object else set(arr.tolist()):
            seen.setdefault(v, None)
    try:
        return sorted(seen)
    except TypeError:
        return sorted(seen, key=repr)


def same_label(a: Any, b: Any) -> bool:
    """Whether two labels are one: equal numbers (booleans included), equal strings, or equal objects of one type.

    Examples
    --------
    >>> same_label(1, 1.0), same_label(True, 1), same_label(1, "1"), same_label("a", "a")
    (True, True, False, True)
    """
    if isinstance(a, _NUMBER) and isinstance(b, _NUMBER):
        return bool(a == b)
    if isinstance(a, str) and isinstance(b, str):
        return a == b
    return type(a) is type(b) and bool(a == b)


def positive_label(labels: list[Any], positive: Any) -> Any:
    """The positive class among ``labels``: ``positive`` if given, else 1/True for 0/1, False/True or −1/1 labels.

    Parameters
    ----------
    labels : list
        The distinct labels (as :func:`distinct_labels` gives them).
    positive : label or None
        The positive class asked for, or None for the default.

    Returns
    -------
    label
        ``positive`` itself when given; ``True`` for boolean labels; ``1`` otherwise.

    Raises
    ------
    InvalidParameterError
        ``positive`` is none of ``labels``, or it is None and the labels have no default.

    Examples
    --------
    >>> positive_label([0, 1], None), positive_label([False, True], None), positive_label([-1, 1], None)
    (1, True, 1)
    >>> positive_label(["a", "b"], None)
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: cannot tell which label is positive among ['a', 'b']; ...
    """
    if positive is not None:
        if not any(same_label(v, positive) for v in labels):
            raise InvalidParameterError(
                f"positive={positive!r} occurs in neither y_true nor y_pred (labels: {labels!r}); "
                "check its spelling and type"
            )
        return positive
    numeric = all(isinstance(v, _NUMBER) for v in labels)
    if numeric and (set(labels) <= {0, 1} or set(labels) <= {-1, 1}):
        return True if all(isinstance(v, bool | np.bool_) for v in labels) else 1
    raise InvalidParameterError(
        f"cannot tell which label is positive among {labels!r}; pass positive=<label> "
        "(the default is 1/True for labels 0/1, False/True or -1/1)"
    )


def labels_equal(arr: np.ndarray, label: Any) -> np.ndarray:
    """Booleans: which entries of the label array ``arr`` are the label ``label`` (by :func:`same_label`).

    Examples
    --------
    >>> labels_equal(np.array([1, 0, 1]), 1).tolist()
    [True, False, True]
    >>> labels_equal(np.array([1, 0, 1]), "1").tolist()
    [False, False, False]
    >>> labels_equal(np.array([1, "1"], dtype=object), 1.0).tolist()
    [True, False]
    """
    if arr.dtype == object:
        return np.fromiter((same_label(v, label) for v in arr), dtype=bool, count=arr.shape[0])
    if arr.dtype.kind in "biuf" and not isinstance(label, _NUMBER):
        return np.zeros(arr.shape, dtype=bool)
    if arr.dtype.kind == "U" and not isinstance(label, str):
        return np.zeros(arr.shape, dtype=bool)
    return np.asarray(arr == label, dtype=bool)


def code_groups(groups: np.ndarray) -> tuple[list[Any], np.ndarray]:
    """The sorted distinct groups of a label array and each entry's integer code among them.

    Parameters
    ----------
    groups : numpy.ndarray
        A one-dimensional array of group labels with no missing value (as
        :func:`~confusionlab._validation.as_labels` reads them).

    Returns
    -------
    names : list
        The distinct groups: numbers by value first, then every other label by its text
        (for one type of label, simply sorted).
    codes : numpy.ndarray of int
        ``names[codes[i]]`` is the group of entry ``i``.

    Raises
    ------
    InvalidParameterError
        Two distinct groups read the same (such as ``1`` and ``"1"``).

    Examples
    --------
    >>> names, codes = code_groups(np.array([3, 1, 3, 2]))
    >>> names, codes.tolist()
    ([1, 2, 3], [2, 0, 2, 1])
    >>> names, codes = code_groups(np.array(["b", 2, 1.5, "a"], dtype=object))
    >>> names, codes.tolist()
    ([1.5, 2, 'a', 'b'], [3, 1, 0, 2])
    >>> code_groups(np.array([1, "1"], dtype=object))
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: groups holds 1 (int) and '1' (str), two groups that read the same; ...
    """
    if groups.dtype != object:
        uniq, codes = np.unique(groups, return_inverse=True)
        return uniq.tolist(), codes.reshape(-1)
    lookup: dict[Any, int] = {}
    first = np.fromiter((lookup.setdefault(v, len(lookup)) for v in groups.tolist()), dtype=np.int64, count=groups.size)
    labels = list(lookup)
    texts: dict[str, Any] = {}
    for v in labels:
        other = texts.setdefault(str(v), v)
        if other is not v:
            raise InvalidParameterError(
                f"groups holds {other!r} ({type(other).__name__}) and {v!r} ({type(v).__name__}), two groups "
                "that read the same; convert the column to one type (e.g. groups.astype(str)) or rename one"
            )

    def key(v: Any) -> tuple[int, Any, str]:
        is_number = isinstance(v, numbers.Real) and not isinstance(v, bool | np.bool_)
        return (0, float(v), "") if is_number else (1, 0.0, str(v))

    order = sorted(range(len(labels)), key=lambda i: key(labels[i]))
    rank = np.empty(len(labels), dtype=np.int64)
    rank[order] = np.arange(len(labels))
    return [labels[i] for i in order], rank[first]
