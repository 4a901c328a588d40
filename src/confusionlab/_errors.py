"""The library's two errors (a bad argument, a request too large for memory) and how a message shows a value.

Both errors are importable from :mod:`confusionlab` (and from :mod:`confusionlab._validation`).
"""

from __future__ import annotations

from typing import Any

__all__ = ["InvalidParameterError", "TooLargeError", "join_and", "short_repr"]


class InvalidParameterError(ValueError, TypeError):
    """An argument has the wrong type or value.

    The one error for bad arguments in the whole library. It is both a
    :class:`ValueError` and a :class:`TypeError` (as scikit-learn's own
    ``InvalidParameterError``), so code written against either keeps working. The
    message names the argument and the offending value.

    Examples
    --------
    >>> from confusionlab._validation import check_confidence
    >>> try:
    ...     check_confidence(1.5)
    ... except InvalidParameterError as error:
    ...     print(error)
    confidence must lie strictly between 0 and 1, got 1.5
    """


InvalidParameterError.__module__ = "confusionlab"


class TooLargeError(ValueError):
    """A request would allocate more memory than :func:`~confusionlab.memory_limit` allows.

    A :class:`ValueError`, raised *before* anything is allocated; the message says
    how to get an answer with less memory.
    """


TooLargeError.__module__ = "confusionlab"


def short_repr(value: Any, limit: int = 80) -> str:
    """``repr(value)``, cut to ``limit`` characters (a message never prints a whole array).

    >>> short_repr("abc"), short_repr(list(range(100)), limit=12)
    ("'abc'", '[0, 1, 2, 3…')
    """
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def join_and(items: list[str]) -> str:
    """The items as a sentence lists them.

    >>> join_and(["a"]), join_and(["a", "b"]), join_and(["a", "b", "c"])
    ('a', 'a and b', 'a, b and c')
    """
    return ", ".join(items) if len(items) < 2 else ", ".join(items[:-1]) + " and " + items[-1]
