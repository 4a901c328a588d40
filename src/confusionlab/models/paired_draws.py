"""Monte Carlo draws of the paired models: per true class, the 2**k cells of agreement of k classifiers.

* :func:`agreement_shares`: the cells' shares from numpy's Dirichlet(cells + α) (the true
  value, and the first step of a new test set);
* :func:`agreement_counts`: the cells of a new test set (``"paired-beta-binomial"``:
  Dirichlet shares then a multinomial; ``"paired-binomial"``: the observed shares);
* :func:`classifier_counts`: each classifier's count only, in time linear in the cells
  that matter (below), with :func:`multinomial` by binary search for a few items per cell.

Each consumes its :class:`numpy.random.Generator` in the fixed order its docstring says;
draws taken in chunks consume it as one call would. (The one-matrix models' draws are in
:mod:`~confusionlab.models.draws`.)

Per true class the k classifiers' predictions fall in 2**k agreement cells; under
``"paired-beta-binomial"`` the cells of a new test set of ``future`` examples are
Dirichlet-multinomial with ``cells + prior`` (prior 2**(1 − k) per cell), and only each
classifier's count (the sum of its cells, ``counts @ bits``) is needed.

With 12 classifiers that is 4,096 cells per class, almost all of them empty: drawing a
Gamma for every cell of every draw (what :func:`numpy.random.Generator.dirichlet` does)
costs minutes at 100,000 draws. Here the observed cells are drawn as usual, and of the
empty cells only those that can matter:

a Gamma(α) variable is ``Y · exp(−E/α)`` with Y ~ Gamma(1 + α) and E ~ Exp(1)
independent. An empty cell is *included* when E ≤ τ = T · α, which happens independently
with probability q = 1 − e^−τ (the included cells are found by geometric gaps; E given
inclusion is the truncated exponential). A cell left out has a Gamma below Y · e^−T, and
T = ln(future · 2**k · 50) + :data:`TAIL_EXPONENT` is chosen so that, with the observed
cells' Gammas of order 1 and Y ≤ 50 (but with probability e⁻⁴⁹), the cells left out draw an
example with probability below e^−TAIL_EXPONENT ≈ 10⁻¹² per draw: a draw is then one of the
full model but with that probability, far beneath any Monte Carlo error. When the cells so
held are not fewer than a quarter of all (up to about 9 classifiers) every cell is drawn.

Under ``"paired-binomial"`` the shares are the observed ones, and empty cells never count.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

__all__ = [
    "CHUNK_ENTRIES",
    "TAIL_EXPONENT",
    "agreement_counts",
    "agreement_shares",
    "classifier_counts",
    "multinomial",
]


def agreement_shares(rng: np.random.Generator, alpha: np.ndarray, n_draws: int) -> np.ndarray:
    """``n_draws`` draws of the cells' shares from Dirichlet(``alpha``) (numpy's ``dirichlet``).

    Parameters
    ----------
    rng : numpy.random.Generator
        The random stream: one draw after the other, so that draws taken in chunks are the
        same as one call's.
    alpha : ndarray of float, shape (cells,)
        The cells' counts plus their prior.
    n_draws : int
        The number of draws.

    Returns
    -------
    ndarray of float64, shape (n_draws, cells)

    Examples
    --------
    >>> x = agreement_shares(np.random.default_rng(0), np.array([5.5, 0.5, 0.5, 5.5]), 3)
    >>> x.shape, bool(np.allclose(x.sum(axis=1), 1.0))
    ((3, 4), True)
    """
    return rng.dirichlet(alpha, size=n_draws)


def agreement_counts(
    model: str, cells: np.ndarray, future: int, n_draws: int, rng: np.random.Generator, prior: np.ndarray | float
) -> np.ndarray:
    """Monte Carlo draws of a class's cell counts among ``future`` new examples: shape (n_draws, cells).

    Any number of cells: the four of a pair, or the 2**k of k classifiers, every cell with
    the same ``prior``. The random stream: every draw's shares (the cells ordered by count,
    the largest last), then one multinomial call.

    Examples
    --------
    >>> x = agreement_counts("paired-beta-binomial", np.array([5, 0, 1, 4]), 20, 3, np.random.default_rng(0), 0.5)
    >>> x.sum(axis=1).tolist()
    [20, 20, 20]
    """
    cells = np.asarray(cells, dtype=np.float64)
    if future == 0:
        return np.zeros((n_draws, cells.size), dtype=np.int64)
    # numpy draws cell j as Binomial(rest, share_j / shares not yet drawn): the largest cell last, or
    # at 10¹⁵ examples 1 − (a share near 1) loses the small cells' shares
    order = np.argsort(cells, kind="stable")
    if model == "paired-beta-binomial":
        shares = agreement_shares(rng, cells[order] + np.broadcast_to(prior, cells.shape)[order], n_draws)
    else:
        shares = np.broadcast_to(cells[order] / cells.sum(), (n_draws, cells.size))
    out = np.empty((n_draws, cells.size), dtype=np.int64)
    out[:, order] = rng.multinomial(future, shares)
    return out


#: The cells left out draw an example with probability below e^−TAIL_EXPONENT per draw.
TAIL_EXPONENT = 27.7
#: The sparse draw is used when the cells it holds are fewer than this share of all cells.
SPARSE_SHARE = 0.25
#: Shares (draws × cells) held at once while drawing.
CHUNK_ENTRIES = 4_000_000
#: Rows placed on one line of cumulated shares by :func:`multinomial` (its resolution is
#: then 2**-52 · ROWS_PER_SEARCH ≈ 10⁻¹³ of a share).
ROWS_PER_SEARCH = 512


def multinomial(future: int, shares: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One multinomial draw of ``future`` items per row of ``shares`` (rows sum to 1): counts (rows, cells).

    For a few items per cell each item's cell is looked up in the cumulated shares (one
    binary search per item, vectorised); otherwise :meth:`numpy.random.Generator.multinomial`
    (one binomial per cell, each of the share over the shares not yet drawn: put the largest
    last, or 1 − (a share near 1) loses the small ones at 10¹⁵ items). The same distribution
    either way, up to the rounding of the cumulated shares (about 10⁻¹³ of a share).

    >>> multinomial(5, np.array([[0.5, 0.5, 0.0]]), np.random.default_rng(0)).sum(axis=1).tolist()
    [5]
    """
    rows, width = shares.shape
    if future > 4 * width:
        return rng.multinomial(future, shares)
    cum = np.cumsum(shares, axis=1)
    cum /= cum[:, -1:]
    out = np.empty((rows, width), dtype=np.int64)
    for s in range(0, rows, ROWS_PER_SEARCH):
        r = min(ROWS_PER_SEARCH, rows - s)
        offset = np.arange(r, dtype=np.float64)[:, None]
        line = (cum[s : s + r] + offset).reshape(-1)
        line[width - 1 :: width] = offset[:, 0] + 1.0  # each row ends exactly at its next integer
        u = rng.random((r, future)) + offset
        flat = np.searchsorted(line, u.reshape(-1), side="right")
        row = np.repeat(np.arange(r), future)
        cell = np.clip(flat - row * width, 0, width - 1)
        out[s : s + r] = np.bincount(row * width + cell, minlength=r * width).reshape(r, width)
    return out


def classifier_counts(
    model: str,
    cells: np.ndarray,
    bits: np.ndarray,
    future: int,
    n_draws: int,
    rng: np.random.Generator,
    prior: float,
    advance: Callable[[int], None] | None = None,
) -> np.ndarray:
    """Each classifier's count among ``future`` new examples of one class: shape (n_draws, k).

    ``cells`` are the observed counts of the 2**k cells, ``bits[c, j]`` whether classifier
    j predicts positive in cell c. ``advance(m)`` is called after each chunk of m draws.

    Examples
    --------
    >>> bits = ((np.arange(4)[:, None] >> np.arange(2)[None, :]) & 1)
    >>> out = classifier_counts("paired-beta-binomial", np.array([5, 0, 0, 5]), bits, 10, 3,
    ...                         np.random.default_rng(0), 0.5)
    >>> out.shape, bool((out >= 0).all() and (out <= 10).all())
    ((3, 2), True)
    """
    cells = np.asarray(cells, dtype=np.int64)
    bits = np.asarray(bits, dtype=np.int64)
    k = bits.shape[1]
    out = np.zeros((n_draws, k), dtype=np.int64)
    if future == 0 or n_draws == 0:
        return out
    active = np.flatnonzero(cells)
    active = active[np.argsort(cells[active], kind="stable")]  # the largest last: see multinomial()
    if model == "paired-binomial":
        shares = cells[active] / cells.sum()
        step = max(1, CHUNK_ENTRIES // max(1, active.size))
        for s in range(0, n_draws, step):
            m = min(step, n_draws - s)
            out[s : s + m] = multinomial(future, np.broadcast_to(shares, (m, shares.size)), rng) @ bits[active]
            if advance is not None:
                advance(m)
        return out
    empty = np.flatnonzero(cells == 0)
    tau = (np.log(float(future) * cells.size * 50.0) + TAIL_EXPONENT) * prior
    q = -float(np.expm1(-tau))
    # the sparse draw pays off when it holds a small part of the cells (12 classifiers: ≈ 5 %)
    sparse = empty.size > 0 and active.size > 0 and active.size + empty.size * q < SPARSE_SHARE * cells.size
    if not sparse:  # every cell, the largest last
        order = np.concatenate((empty, active))
        alpha = cells[order] + prior
        width = order.size
    else:
        alpha = cells[active] + prior
        expected = empty.size * q
        cap = int(np.ceil(expected + 8 * np.sqrt(expected) + 8))
        width = active.size + cap
    step = max(1, CHUNK_ENTRIES // width)
    for s in range(0, n_draws, step):
        m = min(step, n_draws - s)
        if not sparse:
            counts = rng.multinomial(future, agreement_shares(rng, alpha, m))
            out[s : s + m] = counts @ bits[order]
        else:
            out[s : s + m] = _sparse_chunk(cells, bits, active, empty, alpha, prior, tau, q, cap, future, m, rng)
        if advance is not None:
            advance(m)
    return out


def _sparse_chunk(
    cells: np.ndarray,
    bits: np.ndarray,
    active: np.ndarray,
    empty: np.ndarray,
    alpha: np.ndarray,
    prior: float,
    tau: float,
    q: float,
    cap: int,
    future: int,
    m: int,
    rng: np.random.Generator,
) -> np.ndarray:
    """m draws: the observed cells and the included empty cells (see the module docstring)."""
    e_size = empty.size
    pos = np.cumsum(rng.geometric(q, size=(m, cap)), axis=1) - 1  # included empty cells, by position
    while (pos[:, -1] < e_size - 1).any():  # a row may hold more included cells than cap (rare)
        more = pos[:, -1:] + np.cumsum(rng.geometric(q, size=(m, cap)), axis=1)
        pos = np.concatenate((pos, more), axis=1)
    valid = pos < e_size
    width = int(valid.sum(axis=1).max(initial=0))
    pos, valid = pos[:, :width], valid[:, :width]
    log_active = np.log(rng.standard_gamma(alpha, size=(m, alpha.size)))  # counts ≥ 1: no underflow
    exp_given = -np.log1p(-rng.random((m, width)) * q)  # E given E ≤ τ
    log_empty = np.log(rng.standard_gamma(1.0 + prior, size=(m, width))) - exp_given / prior
    logs = np.concatenate((np.where(valid, log_empty, -np.inf), log_active), axis=1)  # the largest last
    logs -= logs.max(axis=1, keepdims=True)
    shares = np.exp(logs)
    shares /= shares.sum(axis=1, keepdims=True)
    counts = multinomial(future, shares, rng)
    out = counts[:, width:] @ bits[active]
    if width:  # the few included empty cells that drew an example
        rows, cols = np.nonzero(counts[:, :width])
        hit = counts[:, :width][rows, cols]
        np.add.at(out, rows, hit[:, None] * bits[empty[pos[rows, cols]]])
    return out
