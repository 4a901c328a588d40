"""The paired models: per class, four cells of agreement, and their joint PMFs.

Within the examples of one true class (p positives, or n negatives) each example
falls in one of four cells by what the two classifiers predict: both positive, only
A positive, only B positive, neither. The counts of a new test set with p′ examples
of that class are

* ``"paired-beta-binomial"`` (default): DirMult(p′, cells + ½) — the posterior
  predictive under a Dirichlet(½, ½, ½, ½) prior. By the aggregation property of the
  Dirichlet, A's positive count (both + only A) is then BetaBin(p′, TP_A + 1,
  FN_A + 1): each classifier alone is exactly the core's ``"beta-binomial"`` model
  (the paper's, with a uniform prior).
* ``"paired-binomial"``: Mult(p′, cells / p) — the observed shares plugged in (each
  classifier alone is exactly the core's ``"binomial"`` model).

(The names until 0.1, ``"dirichlet-multinomial"`` and ``"multinomial"``, still work with
a FutureWarning: the first is also the name of another model of the core, one
confusion matrix over the whole simplex.)

Positives and negatives are independent. TP_A = both + only A and TP_B = both +
only B among the positives; FP_A and FP_B likewise among the negatives.

The joint PMF of (TP_A, TP_B) is the push-forward of the cells' PMF, enumerated on
a box of windows of three cells (the fourth is the rest): each window is the cell's
marginal (a beta-binomial or binomial, :func:`confusionlab.models.marginal`) with
tails of at most ``tolerance/3`` dropped, so the box loses at most ``tolerance``
(union bound). The two-dimensional table is then pruned of its lightest entries
while the total loss stays below ``tolerance``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import special

from .._deprecation import renamed_value
from .._validation import check_memory, check_observed_class, check_paired_model
from ..models import PAIRED_MODEL_RENAMES, PAIRED_MODELS, marginal

__all__ = [
    "CountJoint",
    "cell_priors",
    "cell_windows",
    "check_model",
    "count_joint",
    "draw_counts",
    "single_model",
]

#: Dirichlet prior per cell (so that each classifier alone has the uniform Beta(1, 1)).
CELL_PRIOR = 0.5
#: Bytes per point of the three-cell box while it is enumerated.
BYTES_PER_BOX_POINT = 56


@dataclass(frozen=True)
class CountJoint:
    """Joint PMF of (count of A, count of B) in one class: ``pmf[i, j]`` is the mass of
    ``(a_lo + i, b_lo + j)``; ``dropped`` bounds the mass left out."""

    a_lo: int
    b_lo: int
    pmf: np.ndarray
    dropped: float


def check_model(model: Any, *, stacklevel: int) -> str:
    """The paired model ``model`` names, one of :data:`confusionlab.models.PAIRED_MODELS`.

    An old name (:data:`~confusionlab.models.PAIRED_MODEL_RENAMES`) gives a FutureWarning
    (``stacklevel`` as the caller's own :func:`warnings.warn` would take it); a one-classifier
    model's name (``"beta-binomial"``) is refused with a pointer to its paired form.
    """
    model = renamed_value(model, "model", PAIRED_MODEL_RENAMES, stacklevel=stacklevel + 2)
    return check_paired_model(model, PAIRED_MODELS)


def single_model(model: str) -> str:
    """The core model of each classifier alone under the paired ``model``: the name without the prefix.

    >>> single_model("paired-beta-binomial"), single_model("paired-binomial")
    ('beta-binomial', 'binomial')
    """
    return model.removeprefix("paired-")


def cell_priors() -> tuple[float, float, float, float]:
    """Dirichlet prior per cell: ½ each, whatever the counts.

    Two prediction vectors that agree on every example are still two classifiers: their
    discordant cells have observed count 0 and keep the prior ½ (no structural zeros), so
    the answer is continuous in the data (one differing example more moves it a little).
    The same prior per cell is what :func:`~confusionlab.paired.rank_models`' k-classifier
    prior 2**(1 − k) per cell gives each pair (2**(k − 2) cells of the k merge into each).
    """
    return (CELL_PRIOR,) * 4


def _cell_log_weights(model: str, cell: int, observed: int, lo: int, hi: int, prior: float) -> np.ndarray:
    """log of the cell's factor in the cells' PMF (Dirichlet-multinomial or multinomial), for counts lo…hi."""
    c = np.arange(lo, hi + 1, dtype=np.float64)
    if model == "paired-beta-binomial":
        a = cell + prior
        return special.gammaln(c + a) - special.gammaln(a) - special.gammaln(c + 1)
    share = cell / observed if observed else 0.0
    if share == 0:
        return np.where(c == 0, 0.0, -np.inf)
    return c * np.log(share) - special.gammaln(c + 1)


def cell_windows(
    model: str, cells: tuple[int, int, int, int], future: int, tolerance: float, what: str
) -> tuple[list[tuple[int, int]], float]:
    """Windows (lo, hi) of the first three cells' counts, and the bound on the mass outside the box."""
    total = sum(cells)
    priors = cell_priors()
    beta = model == "paired-beta-binomial"
    windows = []
    dropped = 0.0
    for k, name in enumerate(("both", "only A", "only B")):
        # a cell of DirMult(α) is BetaBin(future, α_k, α_0 − α_k); marginal() gives
        # BetaBin(future, cell + prior, trials − cell + prior), so trials = total + Σprior − 2·prior
        extra = round(sum(priors) - 2 * priors[k]) if beta else 0  # ½ each: 1
        prior = priors[k] if beta else 0.0
        m = marginal(single_model(model), cells[k], total + extra, future, prior, tolerance / 3, f"{what} ({name})")
        windows.append((m.lo, m.lo + m.pmf.size - 1))
        dropped += m.dropped
    return windows, dropped


def count_joint(model: str, cells: tuple[int, int, int, int], future: int, tolerance: float, what: str) -> CountJoint:
    """Joint PMF of (both + only A, both + only B) among ``future`` new examples of one class.

    ``cells`` = observed (both, only A, only B, neither) of that class.

    Examples
    --------
    >>> j = count_joint("paired-beta-binomial", (1, 1, 0, 0), 2, 0.0, "positives")
    >>> j.pmf.round(4).tolist()
    [[0.0375, 0.025, 0.0375], [0.075, 0.15, 0.075], [0.1875, 0.225, 0.1875]]
    """
    total = sum(cells)
    if future == 0:
        return CountJoint(0, 0, np.ones((1, 1)), 0.0)
    if model == "paired-binomial":
        check_observed_class(total, future, what, model)
    windows, dropped = cell_windows(model, cells, future, tolerance, what)
    priors = cell_priors()
    sizes = [hi - lo + 1 for lo, hi in windows]
    box = float(sizes[0]) * sizes[1] * sizes[2]
    check_memory(
        box * BYTES_PER_BOX_POINT,
        f"the {what} cell box of {sizes[0]:,} × {sizes[1]:,} × {sizes[2]:,} points",
        "raise tolerance, use a smaller future_size or method='monte-carlo'",
    )
    (l0, h0), (l1, h1), (l2, h2) = windows
    w = [_cell_log_weights(model, cells[k], total, *windows[k], priors[k]) for k in range(3)]
    rest_lo, rest_hi = max(0, future - h0 - h1 - h2), future - l0 - l1 - l2
    if rest_hi < 0:
        raise ArithmeticError("empty cell box")  # cannot happen: every window contains its mean
    w3 = _cell_log_weights(model, cells[3], total, rest_lo, rest_hi, priors[3])
    if model == "paired-beta-binomial":
        a0 = total + sum(priors)
        const = special.gammaln(future + 1) + special.gammaln(a0) - special.gammaln(future + a0)
    else:
        const = special.gammaln(future + 1)
    c0 = np.arange(l0, h0 + 1)[:, None, None]
    c1 = np.arange(l1, h1 + 1)[None, :, None]
    c2 = np.arange(l2, h2 + 1)[None, None, :]
    rest = future - c0 - c1 - c2
    ok = rest >= rest_lo
    logs = const + w[0][:, None, None] + w[1][None, :, None] + w[2][None, None, :]
    logs = np.where(ok, logs + w3[np.clip(rest - rest_lo, 0, rest_hi - rest_lo)], -np.inf)
    mass = np.exp(logs)
    a = c0 + c1  # count of A: both + only A
    b = c0 + c2
    a_lo, b_lo = l0 + l1, l0 + l2
    shape = (h0 + h1 - a_lo + 1, h0 + h2 - b_lo + 1)
    index = np.broadcast_to((a - a_lo) * shape[1] + (b - b_lo), mass.shape).reshape(-1)
    pmf = np.bincount(index, weights=mass.reshape(-1), minlength=shape[0] * shape[1]).reshape(shape)
    kept = float(pmf.sum())
    if not abs(kept + dropped - 1.0) <= 1e-6 + dropped:
        raise ArithmeticError(
            f"the paired {what} joint lost precision (kept {kept!r}, dropped at most {dropped!r}); "
            "please report this with the counts that produced it"
        )
    dropped = min(dropped, max(0.0, 1.0 - kept))  # the box's loss, measured (≤ its bound)
    pmf *= (1.0 - dropped) / kept
    if tolerance > 0:
        flat = pmf.reshape(-1)
        order = np.argsort(flat, kind="stable")
        light = np.cumsum(flat[order]) <= tolerance - dropped
        if light.any():
            dropped += float(flat[order[light]].sum())
            flat[order[light]] = 0.0
    rows, cols = np.flatnonzero(pmf.any(axis=1)), np.flatnonzero(pmf.any(axis=0))
    pmf = pmf[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1]
    a_lo, b_lo = a_lo + int(rows[0]), b_lo + int(cols[0])
    return CountJoint(a_lo, b_lo, np.ascontiguousarray(pmf), dropped)


def draw_counts(
    model: str, cells: np.ndarray, future: int, n_draws: int, rng: np.random.Generator, prior: np.ndarray | float
) -> np.ndarray:
    """Monte Carlo draws of a class's cell counts among ``future`` new examples: shape (n_draws, cells).

    Any number of cells: the four of a pair, or the 2**k of k classifiers
    (:func:`~confusionlab.paired.rank_models`), every cell with the same ``prior``."""
    cells = np.asarray(cells, dtype=np.float64)
    if future == 0:
        return np.zeros((n_draws, cells.size), dtype=np.int64)
    if model == "paired-beta-binomial":
        shares = rng.dirichlet(cells + prior, size=n_draws)
    else:
        shares = np.broadcast_to(cells / cells.sum(), (n_draws, cells.size))
    return rng.multinomial(future, shares)
