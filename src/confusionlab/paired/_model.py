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

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import special

from .._deprecation import renamed_value
from .._validation import check_memory
from ..models import PAIRED_MODEL_RENAMES, PAIRED_MODELS, default_alpha, marginal
from ._checks import check_observed_class, check_paired_model

__all__ = [
    "CountJoint",
    "cell_prior",
    "cell_priors",
    "cell_windows",
    "check_model",
    "count_joint",
    "joint_bytes",
    "single_model",
]

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


def cell_prior(target: str, k: int = 2, entry: str = "compare_paired") -> float:
    """Dirichlet prior per cell of k classifiers' 2**k cells of agreement: the α per rate of
    ``entry`` for the question ``target`` (:func:`confusionlab.models.default_alpha`, 1 for
    both questions) split over the 2**(k − 1) cells that make up each classifier's rate, so
    that each classifier alone has the Beta(α, α) prior.

    >>> cell_prior("true_value"), cell_prior("next_test_set", 3, "rank_models")
    (0.5, 0.25)
    """
    return default_alpha(entry, target) / 2 ** (k - 1)


def cell_priors(target: str = "next_test_set") -> tuple[float, float, float, float]:
    """Dirichlet prior per cell of a pair (:func:`cell_prior`): ½ each, whatever the counts.

    Two prediction vectors that agree on every example are still two classifiers: their
    discordant cells have observed count 0 and keep the prior ½ (no structural zeros), so
    the answer is continuous in the data (one differing example more moves it a little).
    The same prior per cell is what :func:`~confusionlab.paired.rank_models`' k-classifier
    prior 2**(1 − k) per cell gives each pair (2**(k − 2) cells of the k merge into each).
    """
    return (cell_prior(target),) * 4


def _cell_log_weights(model: str, cell: int, observed: int, lo: int, hi: int, prior: float) -> tuple[float, np.ndarray]:
    """log of the cell's factor in the cells' PMF (Dirichlet-multinomial or multinomial), for counts
    lo…hi, as ``(start, relative)``: the value at ``lo`` and the values minus it.

    ``relative`` cumulates the log-ratios of neighbours (log((c + a)/(c + 1)) by ``log1p``): precise
    at any count, where differences of ``gammaln`` near 10⁸ and beyond lose the digits that matter
    (and adding the large ``start`` to each value would too). ``start`` is a constant of the window.
    """
    k = np.arange(lo, hi, dtype=np.int64).astype(np.float64)  # steps c → c + 1 for c = lo … hi − 1
    if model == "paired-beta-binomial":
        a = cell + prior
        start = float(special.gammaln(lo + a) - special.gammaln(a) - special.gammaln(lo + 1.0))
        steps = np.log1p((a - 1.0) / (k + 1.0))
    else:
        share = cell / observed if observed else 0.0
        if share == 0:
            out = np.full(hi - lo + 1, -np.inf)
            out[0] = 0.0
            return (0.0 if lo == 0 else -np.inf), out
        start = float(lo * np.log(share) - special.gammaln(lo + 1.0))
        steps = np.log(share) - np.log(k + 1.0)
    return start, np.concatenate(([0.0], np.cumsum(steps)))


#: Counts up to which the PMF's constant (differences of ``gammaln``) is precise enough to
#: check that the box holds its mass to 1e-6; beyond, the table is normalised to the mass
#: its windows are proven to hold (1 − their tails).
PRECISE_CONSTANT = 10**7
#: Bytes per entry of a class's two-dimensional table (the table, the pruning's order and sums).
BYTES_PER_TABLE_ENTRY = 40


def table_shape(windows: list[tuple[int, int]]) -> tuple[int, int]:
    """Shape of the (count of A, count of B) table the cell windows span."""
    (l0, h0), (l1, h1), (l2, h2) = windows
    return (h0 + h1 - l0 - l1 + 1, h0 + h2 - l0 - l2 + 1)


def joint_bytes(windows: list[tuple[int, int]]) -> float:
    """Peak bytes of :func:`count_joint` on these windows: the three-cell box and the table it fills."""
    sizes = [hi - lo + 1 for lo, hi in windows]
    rows, cols = table_shape(windows)
    return float(sizes[0]) * sizes[1] * sizes[2] * BYTES_PER_BOX_POINT + float(rows) * cols * BYTES_PER_TABLE_ENTRY


def cell_marginal(model: str, cells: tuple[int, int, int, int], k: int) -> tuple[int, float]:
    """``(trials, prior)`` such that cell ``k``'s count among new examples is :func:`~confusionlab.models.marginal`'s
    BetaBin(future, cell + prior, trials − cell + prior) (or Bin(future, cell/trials) under the binomial).

    A cell of DirMult(α) is BetaBin(future, α_k, α_0 − α_k), so trials = total + Σprior − 2·prior.

    >>> cell_marginal("paired-beta-binomial", (3, 1, 0, 4), 0), cell_marginal("paired-binomial", (3, 1, 0, 4), 0)
    ((9, 0.5), (8, 0.0))
    """
    total = sum(cells)
    if model != "paired-beta-binomial":
        return total, 0.0
    priors = cell_priors()
    return total + round(sum(priors) - 2 * priors[k]), priors[k]  # ½ each: trials = total + 1


def box_points_estimate(model: str, cells: tuple[int, int, int, int], future: int, tolerance: float) -> float:
    """Points of the three-cell box :func:`cell_windows` would locate, from the cells' moments alone.

    Each window is taken as mean ± z·sd of its marginal (z the normal quantile of the cell's
    share of ``tolerance``), at least one point and at most the whole support: O(1) work where
    :func:`cell_windows` evaluates the PMF across every window (seconds at cells of 2**40).
    Only a guide to decide early that an exact box cannot fit: callers allow it a wide margin.

    >>> box_points_estimate("paired-beta-binomial", (2**40, 3, 5, 2**40), 2**41, 1e-6) > 1e9
    True
    """
    z = float(special.ndtri(1 - tolerance / 6)) if tolerance > 0 else math.inf
    points = 1.0
    for k in range(3):
        trials, prior = cell_marginal(model, cells, k)
        if prior > 0:
            a, b = cells[k] + prior, trials - cells[k] + prior
            var = future * a * b * (a + b + future) / ((a + b) ** 2 * (a + b + 1))
        else:
            share = cells[k] / trials if trials else 0.0
            var = future * share * (1 - share)
        width = 2 * z * math.sqrt(var) if var > 0 else 1.0
        points *= min(future + 1.0, max(1.0, width))
    return points


def cell_windows(
    model: str, cells: tuple[int, int, int, int], future: int, tolerance: float, what: str
) -> tuple[list[tuple[int, int]], float]:
    """Windows (lo, hi) of the first three cells' counts, and the bound on the mass outside the box."""
    windows = []
    dropped = 0.0
    for k, name in enumerate(("both", "only A", "only B")):
        trials, prior = cell_marginal(model, cells, k)
        m = marginal(single_model(model), cells[k], trials, future, prior, tolerance / 3, f"{what} ({name})")
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
    rows, cols = table_shape(windows)
    check_memory(
        joint_bytes(windows),
        f"the {what} cell box of {sizes[0]:,} × {sizes[1]:,} × {sizes[2]:,} points and its table of "
        f"{rows:,} × {cols:,} (count of A, count of B)",
        "raise tolerance, use a smaller future_size or method='monte-carlo' (or method='auto')",
    )
    (l0, h0), (l1, h1), (l2, h2) = windows
    parts = [_cell_log_weights(model, cells[k], total, *windows[k], priors[k]) for k in range(3)]
    rest_lo, rest_hi = max(0, future - h0 - h1 - h2), future - l0 - l1 - l2
    if rest_hi < 0:
        raise ArithmeticError("empty cell box")  # cannot happen: every window contains its mean
    start3, w3 = _cell_log_weights(model, cells[3], total, rest_lo, rest_hi, priors[3])
    w = [rel for _, rel in parts]
    if model == "paired-beta-binomial":
        a0 = total + sum(priors)
        const = special.gammaln(future + 1) + special.gammaln(a0) - special.gammaln(future + a0)
    else:
        const = special.gammaln(future + 1)
    const = float(const) + sum(start for start, _ in parts) + start3  # one constant, added last
    c0 = np.arange(l0, h0 + 1)[:, None, None]
    c1 = np.arange(l1, h1 + 1)[None, :, None]
    c2 = np.arange(l2, h2 + 1)[None, None, :]
    rest = future - c0 - c1 - c2
    ok = rest >= rest_lo
    logs = w[0][:, None, None] + w[1][None, :, None] + w[2][None, None, :]
    logs = np.where(ok, logs + w3[np.clip(rest - rest_lo, 0, rest_hi - rest_lo)], -np.inf)
    precise = max(future, total) <= PRECISE_CONSTANT
    shift = float(np.max(logs))
    mass = np.exp(logs - shift)
    a = c0 + c1  # count of A: both + only A
    b = c0 + c2
    a_lo, b_lo = l0 + l1, l0 + l2
    shape = (h0 + h1 - a_lo + 1, h0 + h2 - b_lo + 1)
    index = np.broadcast_to((a - a_lo) * shape[1] + (b - b_lo), mass.shape).reshape(-1)
    pmf = np.bincount(index, weights=mass.reshape(-1), minlength=shape[0] * shape[1]).reshape(shape)
    kept = float(pmf.sum()) * (float(np.exp(const + shift)) if precise else 1.0)
    if not (np.isfinite(kept) and kept > 0):
        raise ArithmeticError(
            f"the paired {what} joint lost precision (kept {kept!r}); "
            "please report this with the counts that produced it"
        )
    if precise:
        if not abs(kept + dropped - 1.0) <= 1e-6 + dropped:
            raise ArithmeticError(
                f"the paired {what} joint lost precision (kept {kept!r}, dropped at most {dropped!r}); "
                "please report this with the counts that produced it"
            )
        dropped = min(dropped, max(0.0, 1.0 - kept))  # the box's loss, measured (≤ its bound)
    pmf *= (1.0 - dropped) / float(pmf.sum())
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
