"""rank_models: k ≥ 2 classifiers scored on one test set."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import (
    DEFAULT_TOLERANCE,
    as_labels,
    check_choice,
    check_count,
    check_int,
    check_memory,
    check_random_state,
    check_tolerance,
    check_undefined,
)
from ..confusion import _distinct, _equals, _positive_label
from ..metrics import Metric, get_metric
from ._compare import _future, compare_paired_cells
from ._counts import PairedCounts
from ._model import MODELS
from ._ranks import exact_ranks

__all__ = ["MAX_MODELS", "Ranking", "rank_models"]

#: Largest number of classifiers (2**k agreement cells per class).
MAX_MODELS = 12


@dataclass(frozen=True)
class Ranking:
    """Result of :func:`rank_models`.

    Attributes
    ----------
    names : list of str
    prob_best : dict
        P(each classifier has the best metric on a new test set); a tie for the best is
        shared equally, so the probabilities add up to 1.
    expected_rank : dict
        Expected rank, 1 = best; tied classifiers share the mean of their ranks.
    pairwise : ndarray, shape (k, k)
        ``pairwise[i, j]`` = P(metric of i > metric of j), exact (:func:`compare_paired`
        on each pair; the diagonal is 0).
    method : str
        ``"exact"`` (k = 2) or ``"monte-carlo"``.
    mc_error : float
        Largest standard error of ``prob_best`` (0.0 when exact).
    draws : int or None
    """

    names: list[str]
    prob_best: dict[str, float]
    expected_rank: dict[str, float]
    pairwise: np.ndarray
    method: str
    mc_error: float
    draws: int | None
    metric: str
    model: str

    @property
    def value(self) -> str:
        """The classifier most likely to be best."""
        return max(self.names, key=self.prob_best.__getitem__)

    def to_frame(self) -> Any:
        """A pandas DataFrame: one row per classifier (prob_best, expected_rank), best first."""
        import pandas as pd

        frame = pd.DataFrame(
            {"prob_best": self.prob_best, "expected_rank": self.expected_rank}, index=pd.Index(self.names, name="model")
        )
        return frame.sort_values("expected_rank")


def rank_models(
    y_true: Any,
    predictions: dict[str, Any],
    metric: str | Metric,
    *,
    model: str = "dirichlet-multinomial",
    tolerance: float = DEFAULT_TOLERANCE,
    future_size: tuple[int, int] | None = None,
    positive: Any = None,
    undefined: float = 0.0,
    draws: int = 100_000,
    random_state: Any = 0,
) -> Ranking:
    """Rank k ≥ 2 classifiers scored on the same test set.

    Parameters
    ----------
    y_true : array-like of labels
    predictions : dict
        Classifier name → its predicted labels on the same examples.
    metric, model, tolerance, future_size, positive, undefined
        As in :func:`compare_paired`.
    draws : int, default 100,000
        Monte Carlo draws for P(best) and expected ranks when k > 2.
    random_state : default 0

    Notes
    -----
    The model generalises :func:`compare_paired`'s: per true class the 2**k cells of
    agreement are Dirichlet-multinomial with prior 2**(1 − k) per cell, so every pair
    of classifiers has exactly the paired model (prior ½ per cell of the pair) and each
    classifier alone the paper's uniform beta-binomial. P(best) and expected ranks come
    from exact comparisons when k = 2 and from Monte Carlo (values ranked exactly,
    ``mc_error``) when k > 2; the pairwise matrix is exact.

    Examples
    --------
    >>> y = [1] * 10 + [0] * 10
    >>> preds = {"a": [1] * 9 + [0] + [0] * 10, "b": [1] * 7 + [0] * 3 + [0] * 8 + [1] * 2}
    >>> r = rank_models(y, preds, "accuracy")
    >>> r.value, r.method, round(r.prob_best["a"] + r.prob_best["b"], 12)
    ('a', 'exact', 1.0)
    """
    if not isinstance(predictions, dict):
        raise TypeError(f"predictions must be a dict name -> predicted labels, got {type(predictions).__name__}")
    names = [str(k) for k in predictions]
    if len(names) < 2:
        raise ValueError(f"predictions must hold at least two classifiers, got {len(names)}")
    if len(names) > MAX_MODELS:
        raise ValueError(f"predictions may hold at most {MAX_MODELS} classifiers (2**k cells), got {len(names)}")
    if len(set(names)) != len(names):
        raise ValueError(f"classifier names must be distinct as strings, got {names!r}")
    m = get_metric(metric)
    model = check_choice(model, "model", MODELS)
    tolerance = check_tolerance(tolerance)
    undefined_value = check_undefined(undefined, allow_exclude=False)
    draws = check_int(draws, "draws", minimum=1)
    t = as_labels(y_true, "y_true")
    preds = [as_labels(v, f"predictions[{k!r}]") for k, v in predictions.items()]
    for name, arr in zip(names, preds, strict=True):
        if arr.shape[0] != t.shape[0]:
            raise ValueError(
                f"predictions[{name!r}] has {arr.shape[0]} labels but y_true has {t.shape[0]}; they must match"
            )
    if t.shape[0] == 0:
        raise ValueError("y_true is empty: a ranking needs at least one example")
    labels = _distinct(t, *preds)
    if len(labels) > 2 and positive is None:
        raise ValueError(
            f"y_true and the predictions hold {len(labels)} distinct labels; a ranking needs binary predicted "
            "labels (threshold scores first), or positive=<label>"
        )
    positive = _positive_label(labels, positive)
    truth = _equals(t, positive)
    bits = np.stack([_equals(a, positive) for a in preds])  # (k, N)
    k = len(names)
    pattern = (bits.astype(np.int64) << np.arange(k)[:, None]).sum(axis=0)
    cells_pos = np.bincount(pattern[truth], minlength=2**k)
    cells_neg = np.bincount(pattern[~truth], minlength=2**k)

    pairwise = np.zeros((k, k))
    for i in range(k):
        for j in range(i + 1, k):
            pc = PairedCounts(_pair_cells(cells_pos, i, j), _pair_cells(cells_neg, i, j))
            r = compare_paired_cells(
                pc, m, model=model, tolerance=tolerance, future_size=future_size, undefined=undefined_value,
                draws=draws, random_state=random_state,
            )  # fmt: skip
            pairwise[i, j], pairwise[j, i] = r.prob_greater, r.prob_less
    if k == 2:
        tie = 1.0 - pairwise[0, 1] - pairwise[1, 0]
        best = [float(pairwise[0, 1] + tie / 2), float(pairwise[1, 0] + tie / 2)]
        ranks = [float(1 + pairwise[1, 0] + tie / 2), float(1 + pairwise[0, 1] + tie / 2)]
        return Ranking(names, dict(zip(names, best, strict=True)), dict(zip(names, ranks, strict=True)), pairwise,
                       "exact", 0.0, None, m.name, model)  # fmt: skip

    counts = PairedCounts((int(cells_pos.sum()), 0, 0, 0), (int(cells_neg.sum()), 0, 0, 0))
    p, n = _future(future_size, counts)
    if model == "multinomial" and ((p and not cells_pos.sum()) or (n and not cells_neg.sum())):
        raise ValueError("the multinomial model needs observed examples of each class; use dirichlet-multinomial")
    rng = check_random_state(random_state)
    check_memory(float(draws) * (2**k * 16 + k * 48), f"draws={draws:,} draws of {2**k} cells", "use fewer draws")
    prior = 2.0 ** (1 - k)
    bitmat = ((np.arange(2**k)[:, None] >> np.arange(k)[None, :]) & 1).astype(np.int64)  # (cells, k)
    tp = _draw_counts(model, cells_pos, p, draws, rng, prior) @ bitmat  # (draws, k)
    fp = _draw_counts(model, cells_neg, n, draws, rng, prior) @ bitmat
    span = n + 1
    uniq, inv = np.unique((tp * span + fp).reshape(-1), return_inverse=True)
    ranked = exact_ranks(m, uniq // span, uniq % span, p, n, undefined_value)
    rank = ranked.ranks[inv.reshape(-1)].reshape(draws, k)
    top = rank.max(axis=1, keepdims=True)
    at_top = rank == top
    share = at_top / at_top.sum(axis=1, keepdims=True)
    prob_best = share.mean(axis=0)
    se = share.std(axis=0) / math.sqrt(draws)
    greater = (rank[:, None, :] > rank[:, :, None]).sum(axis=2)  # others better than me
    equal = (rank[:, None, :] == rank[:, :, None]).sum(axis=2) - 1
    expected = (1 + greater + equal / 2).mean(axis=0)
    return Ranking(
        names,
        dict(zip(names, prob_best.tolist(), strict=True)),
        dict(zip(names, expected.tolist(), strict=True)),
        pairwise,
        "monte-carlo",
        float(se.max()),
        draws,
        m.name,
        model,
    )


def _pair_cells(cells: np.ndarray, i: int, j: int) -> tuple[int, int, int, int]:
    idx = np.arange(cells.size)
    a, b = (idx >> i) & 1, (idx >> j) & 1
    return tuple(int(cells[(a == x) & (b == y)].sum()) for x, y in ((1, 1), (1, 0), (0, 1), (0, 0)))  # type: ignore[return-value]


def _draw_counts(
    model: str, cells: np.ndarray, future: int, draws: int, rng: np.random.Generator, prior: float
) -> np.ndarray:
    future = check_count(future, "future size")
    cells = np.asarray(cells, dtype=np.float64)
    if future == 0:
        return np.zeros((draws, cells.size), dtype=np.int64)
    if model == "dirichlet-multinomial":
        shares = rng.dirichlet(cells + prior, size=draws)
    else:
        shares = np.broadcast_to(cells / cells.sum(), (draws, cells.size))
    return rng.multinomial(future, shares)
