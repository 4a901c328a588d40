"""Monte Carlo draws of the uncertainty models: one sampler per model.

* :func:`slice_draws`: a new test set of ``(p, n)`` examples under a slice model — each
  class's rate from its Beta posterior (the binomial model: the observed rate), then the
  new TP and TN from binomials.
* :func:`rate_draws`: the true value under the beta-binomial model — the rates' Beta
  posteriors, given as expected counts at the observed ``p`` and ``n``.
* :func:`dirichlet_multinomial_rows`: new count vectors under the dirichlet-multinomial model,
  one vector per row of a table (the whole matrix for :func:`simplex_draws`, facets or
  subgroups for the bias metrics).
* :func:`dirichlet_rows`: the true cell probabilities of each row, Dirichlet(row + α), as
  expected counts at the row's size.

Each takes a :class:`numpy.random.Generator` and consumes its stream in one fixed order, so
that every caller gets the same numbers from the same ``random_state``.
"""

from __future__ import annotations

import numpy as np

from .._validation import InvalidParameterError
from ..confusion import ConfusionMatrix

__all__ = ["dirichlet_multinomial_rows", "dirichlet_rows", "rate_draws", "simplex_draws", "slice_draws"]


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
    rows, k = cells.shape
    g = rng.gamma(cells[None, :, :] + prior, size=(n_draws, rows, k))
    out = np.zeros(g.shape, dtype=np.int64)
    live = np.flatnonzero(totals > 0)
    if live.size == 0:
        return out
    g_live = g[:, live]
    total = g_live.sum(axis=-1, keepdims=True)
    empty = total[..., 0] <= 0
    with np.errstate(invalid="ignore", divide="ignore"):
        g_live /= total
    if empty.any():
        g_live[empty] = 0.0
        g_live[empty, -1] = 1.0
    out[:, live] = rng.multinomial(np.broadcast_to(totals[live], g_live.shape[:-1]), g_live)
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
