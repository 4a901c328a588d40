"""Monte Carlo draws of the uncertainty models: one sampler per model, and one seeding rule.

The confusion matrix's models:

* :func:`slice_draws`: a new test set of ``(p, n)`` examples under a slice model — each
  class's rate from its Beta posterior (the binomial model: the observed rate), then the
  new TP and TN from binomials.
* :func:`rate_draws`: the true value under the beta-binomial model — the rates' Beta
  posteriors, given as expected counts at the observed ``p`` and ``n``.
* :func:`dirichlet_shares`: the row-wise Dirichlet(row + α) shares of a table (normalised
  gamma variates), which the next two complete: :func:`dirichlet_multinomial_rows` (new count
  vectors, every row in one multinomial call: the whole matrix for :func:`simplex_draws`,
  facets or subgroups for the bias metrics) and :func:`multinomial_rows` (new count vectors
  one row at a time: the rows of a K × K table for :func:`~confusionlab.evaluate`'s macro
  averages).
* :func:`dirichlet_rows`: the true cell probabilities of each row, Dirichlet(row + α), as
  expected counts at the row's size.

The paired models' draws (the cells of agreement of k classifiers) are in
:mod:`~confusionlab.models.paired_draws`.

Each takes a :class:`numpy.random.Generator` and consumes its stream in one fixed order
(said in its docstring), so that every caller gets the same numbers from the same
``random_state``; draws taken in chunks consume it as one call would. The two orders of
the Dirichlet-multinomial rows (one call over draws × rows, or row by row) and the two
Dirichlet algorithms (normalised gammas here, numpy's ``dirichlet`` for the paired cells)
are kept because each is the stream of published answers. A generator comes from
``random_state`` by :func:`~confusionlab._validation.check_random_state`; a stream keyed by
what it draws (so that it does not depend on the order of the questions) by
:func:`keyed_stream`; one root seed for many metrics' draws by :func:`root_seed`.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from typing import Any

import numpy as np

from .._validation import InvalidParameterError, check_random_state
from ..confusion import ConfusionMatrix

__all__ = [
    "dirichlet_multinomial_rows",
    "dirichlet_rows",
    "dirichlet_shares",
    "keyed_stream",
    "multinomial_rows",
    "rate_draws",
    "root_seed",
    "seedable",
    "simplex_draws",
    "slice_draws",
]


def slice_draws(
    cm: ConfusionMatrix, model: str, prior: float, size: tuple[int, int], n_draws: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``n_draws`` new test sets of ``size = (p, n)`` examples under a slice model.

    Parameters
    ----------
    cm : ConfusionMatrix
        The observed matrix.
    model : {"binomial", "beta-binomial"}
        The slice model.
    prior : float
        The symmetric prior α of the beta-binomial model's rates.
    size : (int, int)
        The new test set's positives and negatives.
    n_draws : int
        The number of draws.
    rng : numpy.random.Generator
        The random stream: TPR's draws (beta-binomial), the TP counts, then TNR's and TN's.

    Returns
    -------
    tp, fn, fp, tn : ndarray of float64
        The counts of each draw.

    Examples
    --------
    >>> tp, fn, fp, tn = slice_draws(ConfusionMatrix(tp=8, fn=2, fp=3, tn=7), "beta-binomial", 1.0, (10, 10),
    ...                              3, np.random.default_rng(0))
    >>> (tp + fn).tolist(), (fp + tn).tolist()
    ([10.0, 10.0, 10.0], [10.0, 10.0, 10.0])
    """
    p_new, n_new = size
    out = []
    for successes, trials, future, what in (
        (cm.tp, cm.p, p_new, "positives (TP)"),
        (cm.tn, cm.n, n_new, "negatives (TN)"),
    ):
        if model == "binomial":
            if trials == 0 and future > 0:
                raise InvalidParameterError(
                    f"the binomial model needs observed {what} to estimate a rate; use the "
                    "beta-binomial model, whose prior covers an empty class"
                )
            rate = np.full(n_draws, successes / trials if trials else 0.0)
        else:
            rate = rng.beta(successes + prior, trials - successes + prior, size=n_draws)
        out.append(rng.binomial(future, rate).astype(np.float64))
    tp, tn = out
    return tp, p_new - tp, n_new - tn, tn


def rate_draws(
    cm: ConfusionMatrix, prior: float, n_draws: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``n_draws`` draws of the true rates, TPR ~ Beta(TP + α, FN + α) and TNR ~ Beta(TN + α, FP + α).

    Parameters
    ----------
    cm : ConfusionMatrix
        The observed matrix.
    prior : float
        The symmetric prior α.
    n_draws : int
        The number of draws.
    rng : numpy.random.Generator
        The random stream: every TPR, then every TNR.

    Returns
    -------
    tp, fn, fp, tn : ndarray of float64
        ``(p·TPR, p·(1 − TPR), n·(1 − TNR), n·TNR)``: the rates as expected counts at the
        observed ``p`` and ``n`` (the prevalence fixed).

    Examples
    --------
    >>> tp, fn, fp, tn = rate_draws(ConfusionMatrix(tp=8, fn=2, fp=3, tn=7), 0.5, 2, np.random.default_rng(0))
    >>> bool(np.allclose(tp + fn, 10.0))
    True
    """
    p, n = float(cm.p), float(cm.n)
    tpr = rng.beta(cm.tp + prior, cm.fn + prior, size=n_draws)
    tnr = rng.beta(cm.tn + prior, cm.fp + prior, size=n_draws)
    return p * tpr, p * (1.0 - tpr), n * (1.0 - tnr), n * tnr


def dirichlet_multinomial_rows(
    rng: np.random.Generator, cells: np.ndarray, totals: np.ndarray, n_draws: int, prior: float
) -> np.ndarray:
    """``n_draws`` DirMult draws of every row of ``cells`` (shape (rows, K)) at its total.

    Parameters
    ----------
    rng : numpy.random.Generator
        The random stream: the gamma variates of every draw, row and cell (C order), then
        one multinomial call over the (draws × rows) array of probabilities.
    cells : ndarray of int, shape (rows, K)
        The observed counts of each row.
    totals : ndarray of int, shape (rows,)
        The size of each row's new count vector.
    n_draws : int
        The number of draws.
    prior : float
        The Dirichlet concentration α added to every cell.

    Returns
    -------
    ndarray of int64, shape (n_draws, rows, K)

    Notes
    -----
    The Dirichlet probabilities are normalised gamma variates; numpy draws each vector's
    K − 1 conditional binomials in its own loop, with none of the temporaries a loop over the
    cells in numpy makes. Rows of total 0 (e.g. an empty subgroup × facet) are not drawn.
    Where every gamma variate of a vector underflows to 0 (a prior of 1e-300 on empty cells)
    its probabilities are taken as all in the last cell.

    Examples
    --------
    >>> x = dirichlet_multinomial_rows(np.random.default_rng(1), np.array([[3, 1], [0, 4]]), np.array([4, 4]), 5, 1.0)
    >>> x.shape, x.sum(axis=-1).tolist()[0]
    ((5, 2, 2), [4, 4])
    """
    out = np.zeros((n_draws, *cells.shape), dtype=np.int64)
    live = np.flatnonzero(totals > 0)
    shares = dirichlet_shares(rng, cells, n_draws, prior)
    if live.size == 0:
        return out
    shares = shares[:, live]
    out[:, live] = rng.multinomial(np.broadcast_to(totals[live], shares.shape[:-1]), shares)
    return out


def dirichlet_shares(
    rng: np.random.Generator,
    cells: np.ndarray,
    n_draws: int,
    prior: float,
    *,
    chunk: int | None = None,
    advance: Callable[[int], None] | None = None,
) -> np.ndarray:
    """``n_draws`` draws of every row's shares, Dirichlet(row + α): normalised gamma variates.

    Parameters
    ----------
    rng : numpy.random.Generator
        The random stream: the gamma variates of every draw, row and cell (C order).
    cells : ndarray of int, shape (rows, K)
        The observed counts of each row.
    n_draws : int
        The number of draws.
    prior : float
        The Dirichlet concentration α added to every cell.
    chunk : int, optional
        Draw the gamma variates ``chunk`` draws at a time (the same variates as one call).
    advance : callable, optional
        Called with the number of draws after each chunk (a progress bar).

    Returns
    -------
    ndarray of float64, shape (n_draws, rows, K)
        Each row's shares (summing to 1). Where every gamma variate of a vector underflows to
        0 (a prior of 1e-300 on empty cells) its shares are taken as all in the last cell.

    Examples
    --------
    >>> x = dirichlet_shares(np.random.default_rng(1), np.array([[3, 1], [0, 4]]), 5, 1.0)
    >>> x.shape, bool(np.allclose(x.sum(axis=-1), 1.0))
    ((5, 2, 2), True)
    """
    shape = cells[None, :, :] + prior
    g = np.empty((n_draws, *cells.shape))
    step = max(1, chunk or n_draws)
    for a in range(0, n_draws, step):
        b = min(a + step, n_draws)
        g[a:b] = rng.gamma(shape, size=(b - a, *cells.shape))
        if advance is not None:
            advance(b - a)
    total = g.sum(axis=-1, keepdims=True)
    empty = total[..., 0] <= 0
    with np.errstate(invalid="ignore", divide="ignore"):
        g /= total
    if empty.any():
        g[empty] = 0.0
        g[empty, -1] = 1.0
    return g


def multinomial_rows(
    rng: np.random.Generator, totals: np.ndarray, shares: np.ndarray, advance: Callable[[int], None] | None = None
) -> np.ndarray:
    """New count vectors of every row, one row at a time: Multinomial(totals[i], shares[:, i]).

    Parameters
    ----------
    rng : numpy.random.Generator
        The random stream: row 0's draws, then row 1's, …; a row of total 0 draws nothing.
    totals : ndarray of int, shape (rows,)
        The size of each row's new count vector.
    shares : ndarray of float, shape (n_draws, rows, K)
        The shares of each draw and row (:func:`dirichlet_shares`).
    advance : callable, optional
        Called with the row's index after each row (a progress bar).

    Returns
    -------
    ndarray of float64, shape (n_draws, rows, K)

    Examples
    --------
    >>> rng = np.random.default_rng(1)
    >>> x = multinomial_rows(rng, np.array([4, 0]), dirichlet_shares(rng, np.array([[3, 1], [0, 4]]), 5, 1.0))
    >>> x.sum(axis=-1)[0].tolist()
    [4.0, 0.0]
    """
    out = np.empty_like(shares)
    for i in range(shares.shape[1]):
        out[:, i, :] = rng.multinomial(int(totals[i]), shares[:, i, :]) if totals[i] else 0.0
        if advance is not None:
            advance(i)
    return out


def dirichlet_rows(
    rng: np.random.Generator, cells: np.ndarray, totals: np.ndarray, n_draws: int, prior: float
) -> np.ndarray:
    """``n_draws`` draws of every row's true cell probabilities, Dirichlet(row + α), times its total.

    Parameters
    ----------
    rng : numpy.random.Generator
        The random stream: the gamma variates of every draw, row and cell (C order).
    cells : ndarray of int, shape (rows, K)
        The observed counts of each row.
    totals : ndarray, shape (rows,)
        The size each row's probabilities are given at.
    n_draws : int
        The number of draws.
    prior : float
        The Dirichlet concentration α added to every cell.

    Returns
    -------
    ndarray of float64, shape (n_draws, rows, K)
        Expected counts: every ratio of counts is a ratio of the true probabilities, and sums
        over rows keep their observed weights. A row of total 0 stays 0.

    Examples
    --------
    >>> x = dirichlet_rows(np.random.default_rng(1), np.array([[3, 1], [0, 4]]), np.array([4, 4]), 5, 1.0)
    >>> bool(np.allclose(x.sum(axis=-1), 4.0))
    True
    """
    g = rng.gamma(cells[None, :, :] + prior, size=(n_draws, *cells.shape))
    total = g.sum(axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        g *= np.where(total > 0, totals[:, None] / total, 0.0)
    return g


def simplex_draws(
    cm: ConfusionMatrix, prior: float, size: int, n_draws: int, rng: np.random.Generator
) -> tuple[np.ndarray, ...]:
    """``n_draws`` new test sets of ``size`` examples under the dirichlet-multinomial model.

    The cells' shares from Dirichlet(counts + α), then a multinomial of ``size``: the one row
    of :func:`dirichlet_multinomial_rows`.

    Parameters
    ----------
    cm : ConfusionMatrix
        The observed matrix.
    prior : float
        The Dirichlet concentration α added to every cell.
    size : int
        The new test set's total ``N``.
    n_draws : int
        The number of draws.
    rng : numpy.random.Generator
        The random stream.

    Returns
    -------
    tp, fn, fp, tn : ndarray of float64
        The counts of each draw.

    Examples
    --------
    >>> tp, fn, fp, tn = simplex_draws(ConfusionMatrix(tp=8, fn=2, fp=3, tn=7), 1.0, 30, 4, np.random.default_rng(0))
    >>> (tp + fn + fp + tn).tolist()
    [30.0, 30.0, 30.0, 30.0]
    """
    cells = np.array([cm.as_tuple()], dtype=np.int64)
    counts = dirichlet_multinomial_rows(rng, cells, np.array([int(size)]), n_draws, prior)[:, 0, :]
    counts = counts.astype(np.float64)
    return tuple(counts[:, j] for j in range(4))


def seedable(rng: np.random.Generator) -> np.random.Generator:
    """``rng`` itself when it was made from a :class:`numpy.random.SeedSequence`, otherwise a
    new generator seeded by one draw of it: the root of :func:`keyed_stream`.

    >>> rng = np.random.default_rng(0)
    >>> seedable(rng) is rng
    True
    """
    if isinstance(getattr(rng.bit_generator, "seed_seq", None), np.random.SeedSequence):
        return rng
    return np.random.default_rng(np.random.SeedSequence(int(rng.integers(2**63))))


def keyed_stream(rng: np.random.Generator, key: tuple[int, ...]) -> np.random.Generator:
    """The stream of the draws named by ``key`` (e.g. a matrix's four counts), from a
    :func:`seedable` root: the same whatever was drawn from the root or its other keys before.

    Parameters
    ----------
    rng : numpy.random.Generator
        The root (:func:`seedable`); its stream is not consumed.
    key : tuple of int
        What the stream draws for.

    Returns
    -------
    numpy.random.Generator
        Seeded by the root's entropy and spawn key, then ``0x5EED`` and ``key``.

    Examples
    --------
    >>> root = np.random.default_rng(0)
    >>> a = keyed_stream(root, (8, 2, 3, 7)).random()
    >>> _ = root.random(), keyed_stream(root, (1, 1, 1, 1)).random()
    >>> a == keyed_stream(root, (8, 2, 3, 7)).random()
    True
    """
    seq = rng.bit_generator.seed_seq
    return np.random.default_rng(np.random.SeedSequence(seq.entropy, spawn_key=(*seq.spawn_key, 0x5EED, *key)))


def root_seed(random_state: Any) -> int | np.random.SeedSequence:
    """A seed every metric's Monte Carlo draws start from, validated (the bias metrics' root).

    An integer or a SeedSequence is kept (each metric's draws then start from
    it, so a metric's interval does not depend on which metrics were looked at
    before); a Generator (or None) gives one integer drawn from it.

    Examples
    --------
    >>> root_seed(7)
    7
    >>> root_seed("7")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: random_state must be None, a non-negative integer seed, ... got '7'
    """
    rng = check_random_state(random_state)
    if isinstance(random_state, numbers.Integral):
        return int(random_state)
    if isinstance(random_state, np.random.SeedSequence):
        return random_state
    return int(rng.integers(2**63))
