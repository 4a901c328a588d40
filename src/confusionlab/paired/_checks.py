"""The arguments only the paired comparison and the ranking take: matrices of paired counts,
models, future test sets and classes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._validation import InvalidParameterError, check_choice, check_future_size, join_and

__all__ = [
    "check_binary_labels",
    "check_cluster_question",
    "check_member",
    "check_nonempty",
    "check_observed_class",
    "check_paired_model",
    "check_shape",
    "check_test_set_size",
]


def check_shape(value: Any, name: str, shape: tuple[int, ...], what: str) -> np.ndarray:
    """``value`` as an object array of exactly ``shape`` (its entries are checked by the caller).

    >>> check_shape([[1, 2], [3, 4]], "cells", (2, 2), "a 2 × 2 table").shape
    (2, 2)
    >>> check_shape("abcd", "row", (4,), "four counts")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: row must be four counts, got 'abcd' (shape ())
    """
    try:
        arr = np.asarray(value, dtype=object)
    except (ValueError, TypeError):
        arr = np.empty(0, dtype=object)
    if isinstance(value, (str, bytes)) or arr.shape != shape:
        raise InvalidParameterError(f"{name} must be {what}, got {value!r:.80} (shape {arr.shape})")
    return arr


def check_binary_labels(labels: Sequence[Any], positive: Any, names: Sequence[str], what: str) -> None:
    """Refuse more than two distinct labels unless ``positive`` says which one is the positive class.

    >>> check_binary_labels([0, 1], None, ["y_true", "pred_a"], "a paired comparison")
    >>> check_binary_labels([0.2, 0.7, 1], None, ["y_true", "pred_a"], "a paired comparison")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: y_true and pred_a hold 3 distinct labels (0.2, 0.7, 1); a paired ...
    """
    if len(labels) > 2 and positive is None:
        shown = ", ".join(map(repr, labels[:6])) + (" …" if len(labels) > 6 else "")
        raise InvalidParameterError(
            f"{join_and(list(names))} hold {len(labels)} distinct labels ({shown}); {what} needs binary predicted "
            "labels (threshold scores first), or positive=<label> to count that class against all the others"
        )


def check_test_set_size(value: Any, p: int, n: int, name: str = "future_size") -> tuple[int, int]:
    """``(positives, negatives)`` of the predicted test set: :func:`check_future_size`, with ``None``
    the observed ``(p, n)``, and a test set of no example refused.

    >>> check_test_set_size(None, 20, 40), check_test_set_size(90, 20, 40), check_test_set_size((5, 0), 20, 40)
    ((20, 40), (30, 60), (5, 0))
    >>> check_test_set_size(0, 20, 40)
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: future_size must hold at least one example, got 0
    """
    size = check_future_size(value, p, n, name)
    if size is None:
        return p, n
    if size[0] + size[1] == 0:
        raise InvalidParameterError(f"{name} must hold at least one example, got {value!r}")
    return size


def check_paired_model(value: Any, choices: Sequence[str], name: str = "model") -> str:
    """One of the paired models ``choices``; a one-classifier model's name is refused with its paired form.

    >>> check_paired_model("paired-binomial", ("paired-beta-binomial", "paired-binomial"))
    'paired-binomial'
    >>> check_paired_model("binomial", ("paired-beta-binomial", "paired-binomial"))
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: model='binomial' is a model of one classifier; two classifiers ...
    """
    try:
        return check_choice(value, name, tuple(choices))
    except InvalidParameterError:
        if isinstance(value, str) and f"paired-{value.strip().lower().replace('_', '-')}" in choices:
            paired = f"paired-{value.strip().lower().replace('_', '-')}"
            raise InvalidParameterError(
                f"{name}={value!r} is a model of one classifier; two classifiers scored on the same test set "
                f"take a paired model, one of {sorted(choices)}: {name}={paired!r} is the one under which each "
                f"classifier alone is exactly {value!r}"
            ) from None
        raise


def check_observed_class(observed: int, future: int, what: str, model: str) -> None:
    """A plug-in model estimates a class's cell shares from its observed examples: refuse to predict
    examples of a class that was never observed.

    >>> check_observed_class(0, 3, "negatives", "paired-binomial")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: the paired-binomial model needs observed negatives to estimate ...
    """
    if future > 0 and observed == 0:
        raise InvalidParameterError(
            f"the {model} model needs observed {what} to estimate the cell shares, and future_size asks for "
            f"{future:,}; use model='paired-beta-binomial', whose prior covers an empty class"
        )


def check_member(value: Any, name: str, members: Sequence[str]) -> str:
    """``value`` if it is exactly one of ``members`` (names such as a ranking's classifiers; case counts).

    >>> check_member("b", "a", ["a", "b"])
    'b'
    >>> check_member("B", "a", ["a", "b"])
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: a must be one of ['a', 'b'], got 'B'
    """
    if not isinstance(value, str) or value not in members:
        raise InvalidParameterError(f"{name} must be one of {list(members)}, got {value!r}")
    return value


def check_nonempty(total: int, name: str, what: str) -> int:
    """``total`` (a number of examples) if it is at least one.

    >>> check_nonempty(0, "the paired counts", "a comparison")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: the paired counts hold no example; a comparison needs at least one
    """
    if total < 1:
        raise InvalidParameterError(f"{name} hold no example; {what} needs at least one")
    return total


def check_cluster_question(cluster: Any, target: str, what: str) -> None:
    """``cluster=`` answers the true value only: a next test set of clustered examples would need its
    clusters' sizes. ``what`` names the intervals (``"the interval of the true difference"``).

    >>> check_cluster_question([1, 1, 2], "next_test_set", "intervals of the true metrics")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: cluster= gives intervals of the true metrics (target='true_value'); ...
    """
    if cluster is not None and target != "true_value":
        raise InvalidParameterError(
            f"cluster= gives {what} (target='true_value'); a next test set of clustered examples would need "
            "its clusters' sizes"
        )
