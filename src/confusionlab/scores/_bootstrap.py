"""The stratified bootstrap of the AUC and the average precision, vectorised over resamples.

A stratified resample draws ``p`` positives and ``n`` negatives with replacement, each
class from its own examples, so the class sizes are those observed. Only how many
resampled examples fall in each tie block matters, and those counts are multinomial:
``P*_k ~ Multinomial(p, pos_k / p)`` and ``N*_k ~ Multinomial(n, neg_k / n)`` over the
blocks ``k`` (in increasing score order). Then, for every resample at once,

    AUC* = Σ_k P*_k · (Σ_{l<k} N*_l + ½ N*_k) / (p·n),
    AP*  = Σ_k P*_k · TP*_k / (TP*_k + FP*_k) / p,   TP*_k = Σ_{l≥k} P*_l, FP*_k = Σ_{l≥k} N*_l,

one (resamples × blocks) array each: O(n_resamples · blocks) work and no per-resample
Python loop, in chunks of resamples whose arrays stay within :data:`CHUNK_BYTES` (at 10⁶
distinct scores a chunk is one resample: memory bounded, not ``n_resamples`` × 40 MB).

The interval is the percentile interval. For ``target="next_test_set"`` (the value on a new
test set of the same size, whose spread adds a second sample's) the deviations from the
observed value are scaled by √2: ``Â + √2·(q − Â)``.
"""

from __future__ import annotations

import math

import numpy as np

from .._validation import TooLargeError, check_memory, check_n_resamples, check_random_state
from ._input import Scores
from ._null import tie_blocks

__all__ = ["bootstrap", "percentile_interval"]

_STATISTICS = ("auc", "average_precision")
#: Most bytes of block counts and their sums held at once (the resamples are drawn in chunks of this).
CHUNK_BYTES = 64 * 2**20
#: Most block counts drawn in all (``n_resamples × blocks``; 2,000 resamples of 10⁶ distinct scores fit).
MAX_WORK = 4e9


def _draws(rng: np.random.Generator, size: int, counts: np.ndarray, resamples: int) -> np.ndarray:
    """Multinomial block counts of ``resamples`` resamples of ``size`` examples (zero blocks kept at 0)."""
    out = np.zeros((resamples, counts.shape[0]), dtype=np.float64)
    used = np.flatnonzero(counts)
    out[:, used] = rng.multinomial(size, counts[used] / size, size=resamples)
    return out


def bootstrap(s: Scores, statistic: str, n_resamples: int, random_state) -> np.ndarray:
    """``n_resamples`` stratified bootstrap values of ``statistic`` (``"auc"`` or ``"average_precision"``).

    The resamples are drawn in chunks of at most :data:`CHUNK_BYTES` of block counts, so
    the memory stays bounded whatever ``n_resamples`` (one chunk: the same draws as all at once).

    >>> from ._input import binary_scores
    >>> s = binary_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> values = bootstrap(s, "auc", 1000, 0)
    >>> values.shape, bool(values.min() >= 0 and values.max() <= 1)
    ((1000,), True)
    """
    sizes, pos = tie_blocks(s)
    blocks = int(sizes.shape[0])
    per_resample = 8.0 * 5 * blocks
    n_resamples = check_n_resamples(n_resamples, bytes_per_resample=16.0)  # the values and their sorted copy
    if float(n_resamples) * blocks > MAX_WORK:
        raise TooLargeError(
            f"n_resamples={n_resamples:,} resamples of {blocks:,} distinct scores would draw "
            f"{float(n_resamples) * blocks:.3g} block counts, more than {MAX_WORK:.3g} (minutes); lower n_resamples"
        )
    check_memory(per_resample, f"one bootstrap resample of {s.p + s.n:,} scores", "score a sample of the rows")
    rng = check_random_state(random_state)
    rows = max(1, int(CHUNK_BYTES // per_resample))
    out = np.empty(n_resamples)
    for first in range(0, n_resamples, rows):
        count = min(rows, n_resamples - first)
        out[first : first + count] = _resampled(s, statistic, sizes, pos, count, rng)
    return out


def _resampled(s: Scores, statistic: str, sizes: np.ndarray, pos: np.ndarray, count: int, rng) -> np.ndarray:
    """``count`` resampled values of ``statistic`` from one (count × blocks) draw of each class."""
    positives = _draws(rng, s.p, pos, count)
    negatives = _draws(rng, s.n, sizes - pos, count)
    if statistic == "auc":
        below = np.cumsum(negatives, axis=1)
        below -= 0.5 * negatives
        return np.einsum("ij,ij->i", positives, below) / (s.p * s.n)
    tp = np.cumsum(positives[:, ::-1], axis=1)[:, ::-1]
    fp = np.cumsum(negatives[:, ::-1], axis=1)[:, ::-1]
    fp += tp
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = np.where(positives > 0, tp / fp, 0.0)
    return np.einsum("ij,ij->i", positives, precision) / s.p


def percentile_interval(values: np.ndarray, observed: float, confidence: float, target: str) -> tuple[float, float]:
    """The percentile interval of bootstrap ``values`` (deviations scaled by √2 for a next test set),
    clipped to [0, 1]."""
    lo, hi = np.quantile(values, [(1 - confidence) / 2, (1 + confidence) / 2])
    if target == "next_test_set":
        scale = math.sqrt(2.0)
        lo, hi = observed + scale * (lo - observed), observed + scale * (hi - observed)
    return float(min(max(lo, 0.0), 1.0)), float(min(max(hi, 0.0), 1.0))
