"""Label coding: from label vectors (any types) to integer codes and count tables.

Every label vector of an evaluation (the true labels, the predictions, each refit's)
is coded once against the classes they hold together; the groups are coded the same
way. One ``bincount`` per prediction vector over (group, true class, predicted class)
then gives every group's confusion table, and the whole test set's is their sum.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .._tables import MAX_GROUPS
from .._validation import InvalidParameterError, as_labels, check_memory, missing_mask
from ..labels import code_groups, distinct_labels

__all__ = ["ALL", "MAX_GROUPS", "whole_test_set_name"]

#: Name of the whole test set among the groups.
ALL = "all"
#: Bytes per (refit, group, cell) count.
_COUNT_BYTES = 8


def _as_refits(refits: Any, objects: int) -> np.ndarray:
    """A (refits, objects) array with no missing value, or an InvalidParameterError naming ``refits``."""
    to_numpy = getattr(refits, "to_numpy", None)
    arr = np.asarray(to_numpy() if callable(to_numpy) else refits)
    if arr.ndim != 2:
        raise InvalidParameterError(f"refits must be a 2-D (refits × objects) array, got shape {arr.shape}")
    if arr.shape[1] != objects:
        hint = " (it looks transposed: pass refits.T)" if arr.shape[0] == objects else ""
        raise InvalidParameterError(
            f"refits must have one column per test object: shape (refits, {objects}), got {arr.shape}{hint}"
        )
    if arr.shape[0] < 2:
        raise InvalidParameterError(f"refits needs at least 2 refitted models (rows), got {arr.shape[0]}")
    if arr.dtype.kind in "fcOUmM":
        missing = missing_mask(arr)
        if missing.any():
            r, c = np.argwhere(missing)[0]
            raise InvalidParameterError(
                f"refits has {int(missing.sum())} missing value(s) (None/NaN/<NA>), the first at row {r}, "
                f"column {c}; every refit must predict every object"
            )
    return arr


def _group_codes(groups: Any, objects: int) -> tuple[np.ndarray | None, list[Any]]:
    """``(codes, names)`` of the groups, ``names`` ending with :data:`ALL`; ``(None, [ALL])`` without groups."""
    if groups is None:
        return None, [ALL]
    g = as_labels(groups, "groups")
    if g.shape[0] != objects:
        raise InvalidParameterError(
            f"groups must have one label per object: length {objects} (as y_true), got {g.shape[0]}"
        )
    names, codes = code_groups(g)
    if len(names) > MAX_GROUPS:
        raise InvalidParameterError(
            f"groups has {len(names):,} distinct values, more than {MAX_GROUPS:,}; is it continuous?"
        )
    sizes = np.bincount(codes, minlength=len(names))
    single = [names[i] for i in np.flatnonzero(sizes < 2)]
    if single:
        raise InvalidParameterError(
            f"groups: {len(single)} group(s) have a single row ({', '.join(map(repr, single[:5]))}); "
            "a group needs at least two objects — merge or drop them"
        )
    return codes, [*names, whole_test_set_name(names)]


def whole_test_set_name(names: list[Any]) -> str:
    """The name of the whole test set among the groups: :data:`ALL`, unless a group is
    already called that (then ``"all (whole test set)"``, starred until it is unique): a
    group named "all" must not shadow the whole test set.

    >>> whole_test_set_name(["a", "b"]), whole_test_set_name(["all", "b"])
    ('all', 'all (whole test set)')
    """
    taken = {str(n) for n in names}
    name = ALL if ALL not in taken else f"{ALL} (whole test set)"
    while name in taken:
        name += "*"
    return name


def _classes(t: np.ndarray, predictions: list[np.ndarray]) -> list[Any]:
    """The classes of the true labels and every prediction array, in the order of the count tables."""
    classes = None
    if all(a.dtype.kind in "biu" for a in predictions):
        lo_hi = [(a.min(), a.max()) for a in predictions]
        span = np.array([v for pair in lo_hi for v in pair], dtype=t.dtype if t.dtype.kind in "biu" else np.int64)
        classes = _fast_classes(t, span)
    if classes is None:
        classes = distinct_labels(t, *(a.reshape(-1) for a in predictions))
    return classes


def _codes(arr: np.ndarray, classes: list[Any]) -> np.ndarray:
    """Integer codes of ``arr``'s labels in ``classes`` (which hold every label of ``arr``)."""
    if arr.dtype.kind in "biu" and all(isinstance(c, int | np.integer | bool) for c in classes):
        values = [int(c) for c in classes]
        if values == list(range(len(values))):
            return arr  # labels 0..K-1 (or booleans) are their own codes
    if arr.dtype != object:
        try:
            keys = np.asarray(classes, dtype=arr.dtype)
            order = np.argsort(keys, kind="stable")
            idx = np.searchsorted(keys[order], arr)
            idx = np.minimum(idx, len(classes) - 1)
            if np.array_equal(keys[order][idx], arr):
                return order[idx]
        except (TypeError, ValueError):
            pass
    lookup = {c: i for i, c in enumerate(classes)}
    flat = np.fromiter((lookup[v] for v in arr.reshape(-1).tolist()), dtype=np.int64, count=arr.size)
    return flat.reshape(arr.shape)


def _fast_classes(t: np.ndarray, preds: np.ndarray) -> list[Any] | None:
    """Classes without sorting the predictions, when they are integer codes 0..K-1 of y_true."""
    if t.dtype.kind not in "biu" or preds.dtype.kind not in "biu":
        return None
    ut = np.unique(t)
    k = int(ut.size)
    if ut[0] != 0 or int(ut[-1]) != k - 1 or preds.size == 0:
        return None
    lo, hi = int(preds.min()), int(preds.max())
    if lo < 0 or hi > max(k - 1, 1):
        return None
    k = max(k, hi + 1)
    if t.dtype.kind == "b" and preds.dtype.kind == "b":
        return [False, True][:k] if k <= 2 else None
    return list(range(k))


def _counter(
    t_codes: np.ndarray, group_codes: np.ndarray | None, group_names: list[Any], classes: list[Any], vectors: int
) -> Callable[[np.ndarray], np.ndarray]:
    """A function from one prediction vector to its count tables, shape (groups, classes, classes)
    (rows true, columns predicted; the last group is the whole test set), memory checked for
    ``vectors`` of them."""
    k, n_groups = len(classes), len(group_names)
    check_memory(
        float(vectors) * n_groups * k * k * _COUNT_BYTES + 16.0 * t_codes.size,
        f"count tables of {vectors} prediction vectors × {n_groups} groups × {k}² cells",
        "use fewer groups or refits",
    )
    cells = k * k
    base = t_codes * k if group_codes is None else group_codes.astype(np.int64) * cells + t_codes * k
    n_real = n_groups - 1 if group_codes is not None else 1

    def count(pred: np.ndarray) -> np.ndarray:
        c = np.bincount(base + _codes(pred, classes), minlength=n_real * cells).reshape(n_real, k, k)
        if group_codes is None:
            return c
        return np.concatenate([c, c.sum(axis=0, keepdims=True)])

    return count
