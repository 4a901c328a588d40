"""Dirichlet-multinomial draws as they were before the one ``Generator.multinomial`` call (issue 21).

Kept only as ``benchmarks/bench_bias_cdd.py --draws``'s in-run baseline: K − 1 conditional binomials drawn
in a numpy loop over the cells.
"""

from __future__ import annotations

import numpy as np


def _draw(rng: np.random.Generator, flat: np.ndarray, n: np.ndarray, size: int, al: float) -> np.ndarray:
    """``size`` DirMult draws of every row of ``flat`` (shape (rows, K)) at its total ``n``.

    The Dirichlet probabilities are normalised gamma variates; the multinomial is
    drawn as K − 1 conditional binomials, vectorised over draws and rows (exact,
    and an order of magnitude faster than numpy's per-row multinomial). Rows with
    no rows to share (``n = 0``, e.g. an empty subgroup × facet) and cells a
    binomial need not draw (the last cell, conditional probabilities 0 or 1) cost
    nothing: the binomials are drawn only where the outcome is random, which is
    most of the work saved when many subgroups are small or empty.
    """
    rows, k = flat.shape
    g = rng.gamma(flat[None, :, :] + al, size=(size, rows, k))
    out = np.zeros(g.shape, dtype=np.int64)
    live = np.flatnonzero(n > 0)
    if live.size == 0:
        return out
    g_live = g[:, live]
    left_n = np.broadcast_to(n[live], g_live.shape[:-1]).astype(np.int64)
    left_mass = g_live[..., ::-1].cumsum(axis=-1)[..., ::-1]  # mass of cells k … K−1, for each k
    sub = np.empty(g_live.shape, dtype=np.int64)
    for c in range(k - 1):
        with np.errstate(invalid="ignore", divide="ignore"):
            q = np.where(left_mass[..., c] > 0, g_live[..., c] / left_mass[..., c], 0.0)
        sub[..., c] = rng.binomial(left_n, np.clip(q, 0.0, 1.0))
        left_n = left_n - sub[..., c]
    sub[..., -1] = left_n
    out[:, live] = sub
    return out
