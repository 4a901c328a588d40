"""Posterior (predictive) draws of count vectors, reduced to a metric's values in bounded memory.

Each vector of counts along the last axis (a facet, a subgroup × facet, …) gets its own
Dirichlet-multinomial ``DirMult(n, cells + α)`` at its observed total ``n`` (a new sample of the
same size), or its Dirichlet ``Dirichlet(cells + α)`` given as expected counts at that size (the
true cell probabilities): the samplers of :mod:`confusionlab.models`. The draws are made in chunks
of at most :data:`CHUNK_BYTES` and each chunk is reduced to the metrics' values before the next is
drawn, so memory does not grow with ``n_draws × cells``; a request that would still exceed
:func:`~confusionlab._validation.memory_limit` is refused before allocating.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from .._deprecation import renamed_arguments
from .._validation import (
    InvalidParameterError,
    check_choice,
    check_memory,
    check_n_draws,
    check_progress,
    check_random_state,
)
from ..models import TARGETS, dirichlet_multinomial_rows, dirichlet_rows, resolve_prior
from .posterior import PROGRESS_DELAY

__all__ = [
    "BYTES_PER_DRAW",
    "CHUNK_BYTES",
    "DEFAULT_N_DRAWS",
    "as_count_cells",
    "check_draws",
    "dirichlet_multinomial_draws",
    "sampled_metric",
    "sampled_metrics",
]

#: Monte Carlo draws where an uncertainty is not exact (interval ends within about ±0.002 of their level).
DEFAULT_N_DRAWS = 20_000
#: Working memory of one chunk of Monte Carlo draws (gamma variates, probabilities, counts).
CHUNK_BYTES = 64 * 1024**2
#: Bytes kept per Monte Carlo draw once reduced to a metric value (value, sort, atoms, weights).
BYTES_PER_DRAW = 64
#: Bytes per drawn cell while a chunk is drawn (gamma float64, normalised copy, int64 counts, temporaries).
_BYTES_PER_CELL = 40


def check_draws(n_draws: Any, name: str = "n_draws", *, minimum: int = 1, cells: int = 1) -> int:
    """A number of Monte Carlo draws, refused before allocating the stored draws (``cells`` count cells each).

    >>> check_draws(20_000)
    20000
    >>> check_draws(10**9)
    Traceback (most recent call last):
    ...
    confusionlab.TooLargeError: n_draws=1,000,000,000 Monte Carlo draws would need about ...
    """
    return check_n_draws(n_draws, name, minimum=minimum, bytes_per_draw=BYTES_PER_DRAW + 8.0 * cells)


def as_count_cells(cells: Any, name: str) -> np.ndarray:
    """``cells`` as non-negative int64 counts with at least one cell along the last axis (integral floats accepted)."""
    c = np.asarray(cells)
    if c.dtype.kind not in "iu":
        if c.dtype.kind == "f" and np.isfinite(c).all() and (c == np.round(c)).all():
            if c.size and np.abs(c).max() >= 2.0**62:
                raise InvalidParameterError(
                    f"{name} holds a count of {np.abs(c).max():g}, beyond 64-bit integer counts"
                )
            c = c.astype(np.int64)
        else:
            raise InvalidParameterError(f"{name} must be an array of integer counts, got dtype {c.dtype}")
    if c.ndim == 0 or c.shape[-1] == 0:
        raise InvalidParameterError(f"{name} must have at least one cell along its last axis, got shape {c.shape}")
    if c.size and c.min() < 0:
        raise InvalidParameterError(f"{name} must be non-negative counts, got a minimum of {int(c.min())}")
    return c.astype(np.int64, copy=False)


def _chunk_size(n_cells: int) -> int:
    per_draw = float(n_cells) * _BYTES_PER_CELL
    check_memory(
        per_draw,
        f"one Monte Carlo draw of {n_cells:,} count cells",
        "use fewer subgroups or label values (e.g. group them), or raise the memory limit",
    )
    return max(1, int(CHUNK_BYTES // per_draw))


@renamed_arguments(n_samples="n_draws")
def dirichlet_multinomial_draws(
    cells: np.ndarray,
    n_draws: int = DEFAULT_N_DRAWS,
    random_state: Any = 0,
    prior: str | float = "uniform",
) -> np.ndarray:
    """Posterior predictive draws of count vectors at the observed sizes.

    Parameters
    ----------
    cells : array_like of int, shape (..., K)
        Observed counts; each vector along the last axis (a facet, a subgroup ×
        facet, …) gets its own ``DirMult(n, cells + α)`` with its observed total n.
    n_draws : int
        Number of draws; all of them are returned, so the request is refused
        (:class:`~confusionlab.TooLargeError`) when they would not
        fit in :func:`~confusionlab._validation.memory_limit`. To reduce draws to
        a metric in bounded memory, use :func:`sampled_metric`.
    random_state : None, int, SeedSequence or Generator
    prior : "uniform", "jeffreys" or float

    Returns
    -------
    ndarray of int64, shape (n_draws, ..., K)

    Examples
    --------
    >>> x = dirichlet_multinomial_draws(np.array([[3, 1], [0, 4]]), n_draws=5, random_state=1)
    >>> x.shape, x.sum(axis=-1).tolist()[0]
    ((5, 2, 2), [4, 4])
    """
    al = resolve_prior(prior)
    c = as_count_cells(cells, "cells")
    n_draws = check_draws(n_draws, cells=c.size)
    rng = check_random_state(random_state)
    k = c.shape[-1]
    flat = c.reshape(-1, k)
    n = flat.sum(axis=-1)
    chunk = _chunk_size(flat.size)
    out = np.empty((n_draws, *flat.shape), dtype=np.int64)
    for start in range(0, n_draws, chunk):
        stop = min(n_draws, start + chunk)
        out[start:stop] = dirichlet_multinomial_rows(rng, flat, n, stop - start, al)
    return out.reshape(n_draws, *c.shape)


@renamed_arguments(n_samples="n_draws")
def sampled_metric(fn: Callable[[np.ndarray], np.ndarray], cells: np.ndarray, **options: Any) -> np.ndarray:
    """``fn`` of Dirichlet-multinomial posterior predictive draws, in bounded memory.

    The draws of :func:`dirichlet_multinomial_draws` are made in chunks of at
    most :data:`CHUNK_BYTES` and each chunk is reduced to ``fn``'s values
    before the next is drawn, so the working memory does not grow with
    ``n_draws × cells`` (a CDDL over 5,000 subgroups needs tens of MB, not
    10 GB). The draws are those of :func:`dirichlet_multinomial_draws` with the
    same ``random_state``.

    Parameters
    ----------
    fn : callable
        Maps counts of shape (S, ...cells.shape) to values of shape (S,).
    cells : array_like of int, shape (..., K)
    **options
        ``n_draws``, ``random_state``, ``prior``: as in :func:`sampled_metrics`,
        whose single-function form this is.

    Returns
    -------
    ndarray of float64, shape (n_draws,)

    Examples
    --------
    >>> cells = np.array([[30, 10], [20, 20]])
    >>> share = lambda x: x[..., 1, 1] / x[..., 1].sum(axis=-1)
    >>> v = sampled_metric(share, cells, n_draws=1000, random_state=0)
    >>> bool(np.all(v == share(dirichlet_multinomial_draws(cells, 1000, random_state=0))))
    True
    """
    return sampled_metrics({"": fn}, cells, **options)[""]


@renamed_arguments(n_samples="n_draws")
def sampled_metrics(
    fns: Mapping[str, Callable[[np.ndarray], np.ndarray]],
    cells: np.ndarray,
    *,
    n_draws: int = DEFAULT_N_DRAWS,
    random_state: Any = 0,
    prior: str | float = "uniform",
    target: str = "next_test_set",
    progress: bool | None = False,
) -> dict[str, np.ndarray]:
    """:func:`sampled_metric` of several functions on the same draws (drawn once, chunk by chunk).

    Each chunk of draws is reduced by every function of ``fns`` (name →
    function) before the next is drawn; ``result[name]`` is exactly
    ``sampled_metric(fns[name], cells, …)`` with the same arguments.

    Parameters
    ----------
    fns : mapping
        Name → function of counts of shape (S, ...cells.shape) to values of shape (S,).
    cells : array_like of int, shape (..., K)
    n_draws : int
        Number of draws (the values of every function are kept: refused
        before allocating above the memory limit).
    random_state : None, int, SeedSequence or Generator
    prior : "uniform", "jeffreys" or float
    target : {"next_test_set", "true_value"}
        ``"next_test_set"``: Dirichlet-multinomial counts at the observed sizes
        (posterior predictive). ``"true_value"``: the true cell probabilities,
        Dirichlet(cells + α), given to the functions as expected counts at the
        observed sizes (floats), so each function reads the true rates.
    progress : bool or None, default False
        A progress bar over the chunks (tqdm's: a widget in Jupyter); None shows
        it only in an interactive session. The draws are the same either way.

    Examples
    --------
    >>> cells = np.array([[30, 10], [20, 20]])
    >>> fns = {"d": lambda x: x[..., 1, 1] / 40.0, "a": lambda x: x[..., 0, 1] / 40.0}
    >>> v = sampled_metrics(fns, cells, n_draws=1000, random_state=0)
    >>> bool(np.all(v["a"] == sampled_metric(fns["a"], cells, n_draws=1000, random_state=0)))
    True
    """
    al = resolve_prior(prior)
    c = as_count_cells(cells, "cells")
    n_draws = check_n_draws(n_draws, bytes_per_draw=BYTES_PER_DRAW * max(len(fns), 1))
    rng = check_random_state(random_state)
    k = c.shape[-1]
    flat = c.reshape(-1, k)
    n = flat.sum(axis=-1)
    draw = dirichlet_rows if check_choice(target, "target", TARGETS) == "true_value" else dirichlet_multinomial_rows
    show = check_progress(progress)
    chunk = _chunk_size(flat.size)
    out = {name: np.empty(n_draws, dtype=np.float64) for name in fns}
    from tqdm.auto import tqdm

    with tqdm(total=n_draws, desc="draws", delay=PROGRESS_DELAY, disable=not show, leave=False) as bar:
        for start in range(0, n_draws, chunk):
            stop = min(n_draws, start + chunk)
            draws = draw(rng, flat, n, stop - start, al).reshape(stop - start, *c.shape)
            for name, fn in fns.items():
                out[name][start:stop] = np.asarray(fn(draws), dtype=np.float64).reshape(stop - start)
            bar.update(stop - start)
    return out
