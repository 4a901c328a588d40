"""The refits behind :func:`~confusionlab.stability.stability_curve`: their seeds, one refit, its references.

Seeds come from ``numpy.random.SeedSequence(random_state).spawn``: one independent child
per (grid point, repeat), assigned before any work starts, so results do not depend on
the backend, ``n_jobs`` or the order in which refits finish. A refit fits one model, times
it, predicts the test objects and collects a psi reference: out-of-bag predictions when the
fitted ensemble has them, out-of-fold predictions of K-fold cross-validation otherwise.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from .._deps import require
from .._validation import check_random_state

__all__ = ["kfold_reference", "oob_reference", "refit", "refit_seeds"]


def oob_reference(model: Any) -> np.ndarray | None:
    """Out-of-bag predictions of a fitted scikit-learn ensemble, or None."""
    dec = getattr(model, "oob_decision_function_", None)
    if dec is not None:
        dec = np.asarray(dec, dtype=np.float64)
        if dec.ndim != 2:  # multi-output classifiers are not supported as references
            return None
        ok = ~np.isnan(dec).any(axis=1)
        return np.asarray(model.classes_)[np.argmax(dec[ok], axis=1)]
    pred = getattr(model, "oob_prediction_", None)
    if pred is not None:
        pred = np.asarray(pred, dtype=np.float64).reshape(-1)
        return pred[~np.isnan(pred)]
    return None


def take_rows(data: Any, index: np.ndarray) -> Any:
    """Rows ``index`` of an array or a pandas object."""
    iloc = getattr(data, "iloc", None)
    return iloc[index] if iloc is not None else np.asarray(data)[index]


def kfold_reference(
    make_model: Callable[[int, int], Any], n: int, seed: int, X: Any, y: Any, n_folds: int
) -> np.ndarray:
    """Out-of-fold predictions for every training object (K-fold cross-validation).

    The split and the fold models get their own children of ``SeedSequence(seed)``.
    """
    KFold = require("sklearn.model_selection", "stability", "the k-fold reference").KFold

    split_seed, *fold_seeds = (
        int(c.generate_state(1, dtype=np.uint32)[0]) for c in np.random.SeedSequence(seed).spawn(n_folds + 1)
    )
    out = []
    folds = KFold(n_splits=n_folds, shuffle=True, random_state=split_seed).split(np.zeros(len(y)))
    for (train, held), fold_seed in zip(folds, fold_seeds, strict=True):
        m = make_model(n, fold_seed)
        m.fit(take_rows(X, train), take_rows(y, train))
        out.append(np.asarray(m.predict(take_rows(X, held))))
    return np.concatenate(out)


def refit(
    g: int,
    r: int,
    make_model: Callable[[int, int], Any],
    n: int,
    seed: int,
    X: Any,
    y: Any,
    X_test: Any,
    reference: str,
    n_folds: int,
) -> tuple[int, int, np.ndarray, np.ndarray | None, float, bool]:
    """One refit: fit, time it, predict the test objects, collect a reference sample."""
    model = make_model(n, seed)
    t0 = time.perf_counter()
    model.fit(X, y)
    seconds = time.perf_counter() - t0
    pred = np.asarray(model.predict(X_test))
    ref = None
    if reference in ("oob-if-available", "oob", "oob-else-kfold"):
        ref = oob_reference(model)
    if ref is None and reference == "oob":
        raise ValueError(
            "reference='oob' but the fitted model has no oob_decision_function_ or "
            "oob_prediction_; construct it with oob_score=True or use reference='kfold'"
        )
    if reference == "kfold" or (ref is None and reference == "oob-else-kfold"):
        ref = kfold_reference(make_model, n, seed, X, y, n_folds)
    return g, r, pred, ref, seconds, hasattr(model, "classes_")


def refit_seeds(random_state: Any, count: int) -> list[int]:
    """``count`` independent integer seeds from ``SeedSequence(random_state).spawn``.

    A Generator contributes fresh entropy drawn from it (and advances); None, an integer
    seed or a SeedSequence are used as the root directly.
    """
    check_random_state(random_state)  # the library's one check of the type
    if isinstance(random_state, np.random.SeedSequence):
        ss = random_state
    elif isinstance(random_state, np.random.Generator):
        ss = np.random.SeedSequence(random_state.integers(0, 2**63, size=4).tolist())
    else:
        ss = np.random.SeedSequence(None if random_state is None else int(random_state))
    return [int(c.generate_state(1, dtype=np.uint32)[0]) for c in ss.spawn(count)]
