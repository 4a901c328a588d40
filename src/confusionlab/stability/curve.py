"""Stability against the number of learners, measured by refitting a model.

:func:`stability_curve` refits ``make_model(n_learners, random_state)`` ``repeats`` times
for every number of learners in a grid, predicts the test objects, and keeps the
predictions so that any measure (phi, psi or a comparator) can be computed afterwards.

Refits run through :mod:`joblib`, so a cluster is used by wrapping the call in the
backend's context, e.g. for Dask::

    from dask.distributed import Client, LocalCluster
    import joblib
    with Client(LocalCluster()) as client, joblib.parallel_backend("dask"):
        curve = st.stability_curve(make_model, X, y, X_test, n_learners=[...])

Seeds come from ``numpy.random.SeedSequence(random_state).spawn``: one independent child
per (grid point, repeat), assigned before any work starts, so results do not depend on
the backend, ``n_jobs`` or the order in which refits finish.

scikit-learn, joblib and tqdm are imported only when a curve is computed. The result,
:class:`StabilityCurve` (importable from here too), lives in ``_curve_result.py``; the refits
and their seeds in ``_refits.py``.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .._validation import InvalidParameterError, check_int, check_memory
from ._checks import check_learner_counts
from ._curve_result import MEASURES, StabilityCurve
from ._input import check_scale
from ._refits import refit, refit_seeds
from .twopl import MAX_LEARNERS

__all__ = ["DEFAULT_N_LEARNERS", "MAX_REFITS", "MEASURES", "StabilityCurve", "stability_curve"]

#: Default grid of learner counts: six log-spaced sizes, 935 learners per repeat in all
#: (optRF's 250, 500, 750, 1000, 2000 fits 4,500 and starts where many forests have
#: already saturated). Pass optRF's grid explicitly to reproduce it; a recommendation far
#: beyond the grid comes with an ExtrapolationWarning.
DEFAULT_N_LEARNERS: tuple[int, ...] = (10, 25, 50, 100, 250, 500)
#: Most refits (grid points × repeats) one :func:`stability_curve` call accepts.
MAX_REFITS = 100_000


def stability_curve(
    make_model: Callable[[int, int], Any],
    X: Any,
    y: Any,
    X_test: Any,
    n_learners: Sequence[int] = DEFAULT_N_LEARNERS,
    repeats: int = 10,
    measure: str = "phi",
    *,
    scale: str | None = None,
    categories: Any = None,
    reference: str = "auto",
    n_folds: int = 5,
    n_jobs: int | None = 1,
    random_state: int | np.random.SeedSequence | np.random.Generator | None = 0,
    progress: bool = True,
) -> StabilityCurve:
    """Refit a model over a grid of learner counts and measure predictive stability.

    Parameters
    ----------
    make_model : callable
        ``make_model(n_learners, random_state)`` returns an *unfitted* scikit-learn-like
        estimator (``fit``/``predict``), e.g.
        ``lambda n, seed: RandomForestClassifier(n, random_state=seed, oob_score=True)``.
        With Dask or process-based backends it must be picklable (a module-level function).
    X, y : array_like
        Training data.
    X_test : array_like
        Test objects whose predictions are compared across refits.
    n_learners : sequence of int
        Grid of learner counts, default :data:`DEFAULT_N_LEARNERS` (10, 25, 50, 100, 250,
        500; optRF's is 250, 500, 750, 1000, 2000). At least 4 values are needed to fit
        the 2PL curve afterwards.
    repeats : int
        Refits per grid point (R ≥ 2; optRF uses 10); grid points × repeats at most
        :data:`MAX_REFITS`.
    measure : {"phi", "psi", "fleiss_kappa", "gwet_ac1", "krippendorff_alpha", "icc"}
        Default measure of the returned curve.
    scale : {"nominal", "ordinal", "metric"}, optional
        Default: ``"nominal"`` if the fitted model has ``classes_`` (a classifier), else
        ``"metric"``.
    categories : sequence, optional
        Category list for nominal/ordinal scales.
    reference : {"auto", "oob", "kfold", "none"}
        psi reference: ``"auto"`` uses out-of-bag predictions (``oob_decision_function_`` /
        ``oob_prediction_``) when the model has them and K-fold predictions otherwise
        (only when ``measure="psi"``); the reference is pooled over the repeats of each
        grid point.
    n_folds : int
        Folds for K-fold references (2 to the number of training objects).
    n_jobs : int or None
        joblib ``n_jobs``; default 1 (no worker start-up, and a forest that is itself
        parallel keeps the cores); -1 uses all cores of the active backend.
    random_state : None, int, SeedSequence or Generator
        Root seed; every refit gets its own child of ``SeedSequence(random_state)`` (a
        Generator supplies that root's entropy).
    progress : bool
        Show a tqdm progress bar (``tqdm.auto``: a widget in notebooks, text in terminals).

    Returns
    -------
    StabilityCurve

    See Also
    --------
    phi, psi : the per-object stability measured at each grid point.
    fleiss_kappa, gwet_ac1, krippendorff_alpha, icc : the comparators (``measure=``).
    fit_2pl : the 2PL model of stability against the number of learners
        (:meth:`StabilityCurve.fit_2pl`, :meth:`StabilityCurve.learners_for`).

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.ensemble import RandomForestClassifier
    >>> from confusionlab import stability as st
    >>> X, y = make_classification(n_samples=120, random_state=0)
    >>> def make_model(n, seed):
    ...     return RandomForestClassifier(n, max_depth=3, random_state=seed)
    >>> curve = st.stability_curve(make_model, X[:100], y[:100], X[100:], n_learners=[1, 2, 4, 8],
    ...                            repeats=3, n_jobs=1, progress=False)
    >>> curve.stability().shape
    (4,)
    """
    if not callable(make_model):
        raise InvalidParameterError(f"make_model must be callable; got {type(make_model).__name__}")
    grid = check_learner_counts(n_learners, "n_learners", maximum=MAX_LEARNERS)
    repeats = check_int(repeats, "repeats", minimum=2, maximum=MAX_REFITS)
    if grid.size * repeats > MAX_REFITS:
        raise InvalidParameterError(
            f"{grid.size} grid points × repeats={repeats} = {grid.size * repeats:,} refits, more than "
            f"MAX_REFITS = {MAX_REFITS:,}; use fewer grid points or repeats"
        )
    if measure not in MEASURES:
        raise InvalidParameterError(f"measure must be one of {MEASURES}; got {measure!r}")
    if reference not in ("auto", "oob", "kfold", "none"):
        raise InvalidParameterError(f"reference must be 'auto', 'oob', 'kfold' or 'none'; got {reference!r}")
    if scale is not None:
        check_scale(scale)
    try:
        n_train = len(y)
        n_test = len(X_test)
    except TypeError:
        raise InvalidParameterError(
            "y and X_test must be sized array-likes (numpy arrays, lists, pandas objects)"
        ) from None
    n_folds = check_int(n_folds, "n_folds", minimum=2, maximum=max(2, n_train))
    if n_jobs is not None and not isinstance(n_jobs, numbers.Integral):
        raise InvalidParameterError(f"n_jobs must be an integer or None; got {n_jobs!r}")
    if not isinstance(progress, (bool, np.bool_)):
        raise InvalidParameterError(f"progress must be True or False; got {progress!r}")
    # predictions (G × repeats × test objects) and pooled references (≤ training objects
    # per refit), float64 or object pointers
    check_memory(
        8.0 * grid.size * repeats * (n_test + n_train),
        f"the predictions and references of {grid.size * repeats:,} refits of {n_test:,} test and "
        f"{n_train:,} training objects",
        "use fewer grid points, repeats or test objects",
    )
    if reference == "auto":
        mode = "oob-else-kfold" if measure == "psi" else "oob-if-available"
    else:
        mode = reference
    from joblib import Parallel, delayed
    from tqdm.auto import tqdm

    seeds = refit_seeds(random_state, grid.size * repeats)
    tasks = [
        delayed(refit)(g, r, make_model, int(n), seeds[g * repeats + r], X, y, X_test, mode, n_folds)
        for g, n in enumerate(grid)
        for r in range(repeats)
    ]
    preds: dict[tuple[int, int], np.ndarray] = {}
    refs: dict[tuple[int, int], np.ndarray | None] = {}
    seconds = np.zeros((grid.size, repeats))
    classifier = False
    with tqdm(total=len(tasks), desc="refits", disable=not progress) as bar:
        for g, r, pred, ref, sec, is_clf in Parallel(n_jobs=n_jobs, return_as="generator_unordered")(tasks):
            if pred.shape != (n_test,):
                raise InvalidParameterError(
                    f"make_model's estimator predicted shape {pred.shape} for X_test's {n_test:,} objects (refit "
                    f"{r} at n_learners={int(grid[g])}); predict must return one prediction per test object"
                )
            preds[g, r], refs[g, r], seconds[g, r] = pred, ref, sec
            classifier = classifier or is_clf
            bar.update(1)
    predictions = np.stack([np.stack([preds[g, r] for r in range(repeats)]) for g in range(grid.size)])
    reference_per_grid: list[np.ndarray | None] = []
    for g in range(grid.size):
        parts = [refs[g, r] for r in range(repeats)]
        reference_per_grid.append(None if any(p is None for p in parts) else np.concatenate(parts))
    return StabilityCurve(
        n_learners=grid,
        predictions=predictions,
        train_y=np.asarray(y).reshape(-1),
        reference=reference_per_grid,
        fit_seconds=seconds,
        measure=measure,
        scale=scale or ("nominal" if classifier else "metric"),
        categories=categories,
    )
