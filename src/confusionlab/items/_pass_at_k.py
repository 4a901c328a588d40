"""``pass_at_k``: the chance that at least one of k samples is correct, estimated without bias.

Chen et al. (2021, "Evaluating large language models trained on code") estimate pass@k from
``n ≥ k`` samples of an item with ``c`` correct by ``1 − C(n − c, k)/C(n, k)``, unbiased for
``1 − (1 − p)^k``; the benchmark's pass@k is its mean over items. Here also: each item's exact
variance and its unbiased estimate, the interval of the mean, and the Bayesian pass@k of each
item under the Beta posterior of its ``p``.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import numpy as np
from scipy import special, stats

from .._deps import require
from .._errors import InvalidParameterError
from .._result import Result, new_figure
from .._tables import Door, label_array
from .._validation import check_confidence, check_int
from ..models import default_alpha, resolve_prior
from ._checks import check_ids, check_scores
from ._table import item_table

__all__ = ["PassAtK", "estimator_variance", "pass_at_k", "unbiased_pass_at_k"]


def _ratio(n: np.ndarray, c: np.ndarray, k: int) -> np.ndarray:
    """C(n − c, k)/C(n, k) = ∏_{j<k} (n − c − j)/(n − j) per item (0 where n − c < k)."""
    out = np.ones(n.shape)
    fails, total = (n - c).astype(np.float64), n.astype(np.float64)
    for j in range(k):
        out *= np.maximum(fails - j, 0.0) / np.maximum(total - j, 1.0)
    return out


def unbiased_pass_at_k(n: np.ndarray, c: np.ndarray, k: int) -> np.ndarray:
    """Chen et al.'s estimator ``1 − C(n − c, k)/C(n, k)`` per item (n ≥ k samples, c correct).

    >>> unbiased_pass_at_k(np.array([5, 5]), np.array([1, 0]), 2).round(12).tolist()  # 1 − C(4,2)/C(5,2) = 0.4
    [0.4, 0.0]
    """
    return 1.0 - _ratio(n, c, k)


def estimator_variance(n: int, k: int, p: float) -> float:
    """The exact variance of :func:`unbiased_pass_at_k` for an item of success rate ``p`` sampled n times.

    ``Σ_c Binom(c; n, p)·(C(n − c, k)/C(n, k))² − (1 − p)^{2k}``.

    >>> round(estimator_variance(5, 1, 0.3), 12)  # k = 1: the variance of c/n, p(1 − p)/n
    0.042
    """
    c = np.arange(n + 1)
    q = _ratio(np.full(n + 1, n), c, k)
    return float(np.dot(stats.binom.pmf(c, n, p), q * q) - (1.0 - p) ** (2 * k))


#: pass_at_k's ``data=`` door: the correctness and item columns, counted (no bound: every item counts).
_DOOR = Door()


class PassAtK(Result):
    """pass@k over items: Chen et al.'s unbiased estimate, its interval, and each item's Bayesian pass@k.

    Built by :func:`~confusionlab.pass_at_k`. ``.value`` is the mean over items of the unbiased
    per-item estimates, ``.std_error`` its standard error over the items (a sample of items),
    ``.sampling_std_error`` the error for these items fixed (from the per-item variances),
    ``.interval()`` the t interval clipped to [0, 1], ``.per_item`` a frame of every item.
    """

    title: ClassVar[str] = "pass@k"
    target: ClassVar[str] = "true_value"

    def __init__(self, frame: Any, *, k: int, alpha: float, confidence: float) -> None:
        self._frame = frame
        self.k = k
        self.alpha = alpha
        self.confidence = confidence

    @property
    def per_item(self) -> Any:
        """Per item: ``n`` samples, ``c`` correct, ``estimate`` (Chen's), ``variance`` (its unbiased
        estimate, NaN when n < 2k), ``bayes_mean`` and ``bayes_sd`` (pass@k under the Beta posterior)."""
        return self._frame.copy()

    @property
    def value(self) -> float:
        """The mean over items of Chen et al.'s unbiased estimates."""
        return float(self._frame["estimate"].mean())

    @property
    def std_error(self) -> float:
        """sd/√m of the items' estimates: the error of the mean when the items are a sample."""
        est = self._frame["estimate"].to_numpy()
        return float(np.std(est, ddof=1) / math.sqrt(est.size))

    @property
    def sampling_std_error(self) -> float:
        """√(Σ_i Var_i)/m from the unbiased per-item variances: the error for these items only
        (what more samples per item would remove); NaN when an item has fewer than 2k samples."""
        v = self._frame["variance"].to_numpy()
        return float(math.sqrt(max(float(v.sum()), 0.0)) / v.size)

    @property
    def bayesian_value(self) -> float:
        """The mean over items of each item's posterior mean pass@k."""
        return float(self._frame["bayes_mean"].mean())

    def interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """``value ± t_{m−1}·std_error`` over the m items, clipped to [0, 1].

        The items are assumed independent (their samples are grouped by ``item``).
        """
        confidence = check_confidence(confidence)
        half = float(stats.t.ppf(0.5 + confidence / 2.0, len(self._frame) - 1)) * self.std_error
        return (max(self.value - half, 0.0), min(self.value + half, 1.0))

    def to_frame(self) -> Any:
        """One row: k, the value, both errors, the Bayesian value, the interval, then ``target``."""
        pd = require("pandas", "notebooks", "to_frame()")

        lo, hi = self.interval(self.confidence)
        row = {
            "k": self.k,
            "value": self.value,
            "std_error": self.std_error,
            "sampling_std_error": self.sampling_std_error,
            "bayesian_value": self.bayesian_value,
            "n_items": len(self._frame),
            "confidence": self.confidence,
            "lower": lo,
            "upper": hi,
            "target": self.target,
        }
        return pd.DataFrame([row])

    def plot(self, ax: Any = None) -> Any:
        """Each item's unbiased estimate against its posterior mean pass@k."""
        fig, ax = new_figure(ax, figsize=(4.2, 4.0))
        ax.plot([0, 1], [0, 1], color="0.7", linewidth=1)
        ax.plot(self._frame["estimate"], self._frame["bayes_mean"], "o", color="C0", alpha=0.7)
        ax.set_xlabel(f"unbiased pass@{self.k} per item")
        ax.set_ylabel(f"posterior mean pass@{self.k} (prior α = {self.alpha:g})")
        ax.set_title(f"pass@{self.k} = {self.value:.3g}")
        return fig

    def summary(self, confidence: float = 0.95) -> str:
        confidence = check_confidence(confidence)
        lo, hi = self.interval(confidence)
        return (
            f"pass@{self.k} = {self.value:.4g} over {len(self._frame):,} items, {confidence:.0%} interval "
            f"[{lo:.4g}, {hi:.4g}] (items as a sample); Bayesian {self.bayesian_value:.4g}."
        )


def pass_at_k(
    correct: Any,
    *,
    item: Any,
    k: int,
    prior: str | float | None = None,
    data: Any = None,
    confidence: float = 0.95,
) -> PassAtK:
    """pass@k: the chance that at least one of k samples of an item is correct, averaged over items.

    The items are assumed independent (the samples of one item are what ``item`` groups): items that share
    a passage or a source make the interval too narrow (see :func:`~confusionlab.evaluate_items`'
    ``cluster=``).

    Parameters
    ----------
    correct : array-like of bool or 0/1
        One entry per sample (row): whether it was correct.
    item : array-like
        The item of each row (required: pass@k needs n ≥ k samples per item).
    k : int
        Samples allowed per item (1 ≤ k ≤ the fewest samples of any item).
    prior : {"uniform", "jeffreys"} or float, optional
        The Beta(α, α) prior of each item's success rate for the Bayesian pass@k; default Jeffreys'
        α = ½ (the library's prior for a true value).
    data : DataFrame, optional
        Any supported frame: ``correct`` and ``item`` are then column names, (item, correct) counted
        by the engine.
    confidence : float, default 0.95
        The level of the interval the summary and ``to_frame()`` state.

    Returns
    -------
    PassAtK
        ``.value``, ``.std_error``, ``.sampling_std_error``, ``.interval()``, ``.bayesian_value`` and
        ``.per_item`` (n, c, estimate, variance, bayes_mean, bayes_sd).

    Raises
    ------
    InvalidParameterError
        ``correct`` not 0/1, an item with fewer than k samples, fewer than two items, a bad ``k``,
        ``prior`` or ``confidence``.

    Notes
    -----
    Per item, ``1 − C(n − c, k)/C(n, k)`` is unbiased for ``1 − (1 − p)^k`` (Chen et al. 2021).
    Its variance is ``E[q²] − (1 − p)^{2k}`` with ``q = C(n − c, k)/C(n, k)``; since ``q²`` is
    unbiased for ``E[q²]`` and ``C(n − c, 2k)/C(n, 2k)`` for ``(1 − p)^{2k}``, their difference is
    an unbiased estimate of the variance (n ≥ 2k). Under ``p ~ Beta(a, b)`` (a = α + c,
    b = α + n − c), ``E[(1 − p)^k] = B(a, b + k)/B(a, b)``, so the posterior mean pass@k is
    ``1 − B(a, b + k)/B(a, b)`` and its variance follows from ``E[(1 − p)^{2k}]`` alike.

    Examples
    --------
    >>> import confusionlab as cl
    >>> r = cl.pass_at_k([1, 0, 0, 0, 1, 1, 0, 0], item=[1, 1, 1, 1, 2, 2, 2, 2], k=2)
    >>> r.per_item["estimate"].round(4).tolist(), r.value  # 1 − C(3,2)/C(4,2), 1 − C(2,2)/C(4,2)
    ([0.5, 0.8333], 0.6666666666666667)
    """
    k = check_int(k, "k", minimum=1)
    confidence = check_confidence(confidence)
    alpha = default_alpha("pass_at_k", "true_value") if prior is None else resolve_prior(prior)
    weights = None
    if data is not None:
        counted = _DOOR(data, None, correct=correct, item=item)
        correct, item, weights = counted.values["correct"], label_array(counted.values["item"]), counted.n
        correct = np.asarray(correct, dtype=object)
    y = check_scores(correct, "correct")
    if not bool(np.all((y == 0.0) | (y == 1.0))):
        bad = float(y[(y != 0.0) & (y != 1.0)][0])
        raise InvalidParameterError(f"correct must hold 0/1 or booleans (one per sample), got {bad!r}")
    if item is None:
        raise InvalidParameterError("item is required: pass@k needs several samples of each item")
    ids = item if weights is not None else check_ids(item, "item", y.size)
    table = item_table([y], ids, None, weights)
    n = table.rows
    c = np.round(table.sums[0]).astype(np.int64)
    short = np.flatnonzero(n < k)
    if short.size:
        raise InvalidParameterError(
            f"k={k} needs at least {k} samples of every item; item {table.items[int(short[0])]!r} has "
            f"{int(n[short[0]])} ({short.size:,} item(s) short): lower k or sample more"
        )
    estimate = unbiased_pass_at_k(n, c, k)
    q = 1.0 - estimate
    variance = np.where(n >= 2 * k, q * q - _ratio(n, c, 2 * k), np.nan)
    a, b = alpha + c, alpha + (n - c)
    first = np.exp(special.betaln(a, b + k) - special.betaln(a, b))
    second = np.exp(special.betaln(a, b + 2 * k) - special.betaln(a, b))
    pd = require("pandas", "logs", "pass_at_k()")

    frame = pd.DataFrame(
        {
            "item": table.items,
            "n": n,
            "c": c,
            "estimate": estimate,
            "variance": variance,
            "bayes_mean": 1.0 - first,
            "bayes_sd": np.sqrt(np.maximum(second - first * first, 0.0)),
        }
    )
    return PassAtK(frame, k=k, alpha=alpha, confidence=confidence)
