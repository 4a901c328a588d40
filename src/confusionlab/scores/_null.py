"""The exact permutation distribution of the AUC under no discrimination, given the ties.

Under the null hypothesis the scores do not depend on the class: given the observed
scores (with their ties), every way of choosing which ``p`` of the ``N = p + n`` examples
are the positives is equally likely. The AUC is ``U / (p·n)`` with ``U`` the
Mann–Whitney statistic of the midranks (a positive beating a negative counts 1, a tie
½), so ``2U`` is an integer in ``[0, 2pn]`` and the distribution is a count of subsets.

Counting over tie blocks (in the spirit of Streitberg & Röhmel's shift algorithm)
-------------------------------------------------------------------------------
Walk the tie blocks in increasing score order. Let ``s = min(p, n)`` be the smaller
class (the one counted; ``o`` the other) and ``f[c][u]`` the number of ways to place ``c``
of the ``s`` examples among the blocks seen so far with ``2U = u`` so far. A block of
``t`` tied examples after ``i`` examples, ``a = i − c`` of them from the other class,
takes ``j`` of the counted class in ``C(t, j)`` ways; each of those ``j`` beats the ``a``
others below (2 each in ``2U``) and ties with the ``t − j`` others in the block (1 each):

    f[c + j][u + 2ja + j(t − j)] += C(t, j) · f[c][u].

Rows are updated from the highest ``c`` down, so each row is read before it is
written; row ``c`` is nonzero only on ``u ≤ 2c(i − c)`` and rows that can no longer
reach ``s`` are skipped. Every count is a sum of positive terms, so each probability
(and each tail sum of the distribution) carries a relative rounding error below ``2N·2⁻⁵³`` — the
distribution is exact up to that rounding, tails included. Rows keep their own
scale (a logarithm) so that ``C(N, s)`` beyond the range of a double never overflows.

The cost is about the number of cells visited, ``Σ_blocks Σ_c min(t, s − c)·2c(i − c)``
(≈ 7.2·10⁸ at 200 + 200 with 50 tie blocks, ≈ 0.35 s; each (row, block share) is one BLAS
``daxpy``). With ``p = n`` the distribution is symmetric about ``2U = pn`` (swapping the classes
maps one choice of positives to another and ``2U`` to ``2pn − 2U``), so only ``2U ≤ pn`` is
counted (the cut rows of :func:`_count_rows`, 4.2·10⁸ cells there) and mirrored. The distribution
is computed exactly when that estimate is at most :data:`EXACT_WORK_LIMIT`; beyond,
:meth:`p_value <confusionlab.RocCurve.p_value>` uses the tie-corrected normal
approximation of ``U`` (mean ``pn/2``, variance ``pn/12·[(N + 1) − Σ(t³ − t)/(N(N − 1))]``,
with continuity correction ½ as scipy's ``mannwhitneyu(method="asymptotic")``) and says so.

The p-value counts only its tail
--------------------------------
:func:`exact_p_value` needs ``P(2U ≤ L)`` (the other tail is the same count with the blocks
in reverse order). A cell ``(c, u)`` after ``i`` examples ends between ``u + 2(s − c)(i − c)``
and ``u + 2(s − c)·o``; cells that can no longer reach ``≤ L`` are dropped, cells sure to
end there are added at once with their ``C(N − i, s − c)`` completions (:func:`_tail_windowed`).
Each row then lives in a fixed window (stored from the window's start, and only up to
``u ≤ c·L/s``, the most a row ever holds under both bounds) and the count visits about a sixth of
the whole distribution's cells (1.25·10⁸ of 7.2·10⁸ at 200 + 200 with 50 tie blocks, the
observed U central), still a sum of positive terms. Each (row, block share) is one in-place BLAS
``daxpy`` (``y += C(t, j)·x``, one pass, no temporary) on the one buffer that holds every window.
Nothing but the counts depends on the walk, so every (block, row, share) is planned at once as
arrays (:class:`_BlockPlan`: one list of daxpy arguments consumed block by block, ≈ 25,000 calls
driven by ``map``; BLAS limited to one thread: OpenBLAS's threads make so many short calls slow).
The sure cells of a block are summed in one pass (their rows' prefixes gathered, one
``add.reduceat``, planned weights summed from the top: no subtraction), their completions by one
``cumprod`` per block (relative error below ``2s·2⁻⁵³``, so a tail's error stays below
``3N·2⁻⁵³``). Two-sided, the second tail is counted only when the first is at least ½ (the two
tails sum to at least 1).

How fast (the goal: 0.3× scipy's exact Mann–Whitney without ties)
-----------------------------------------------------------------
At 200 + 200 with ties (one decimal, 50 blocks; ``benchmarks/RESULTS.md``, its Scores sections
at the end) the p-value took 0.41× scipy's exact Mann–Whitney without ties before its sure cells
were summed in one pass, their completions taken by ``cumprod``, the rows stored only up to
``c·L/s`` and the calls driven by ``map``; 0.32–0.35× after; with the updates and the sure cells
planned as arrays (≈ 0.88× of the time before in the same process) 0.29–0.30× at load 2.5–3 (CPU
clock). The whole distribution takes ≈ 1.25× with ``p = n`` and ≈ 2.5× with ``p ≠ n``: it does
not reach the goal. Of the p-value, ≈ two thirds are the BLAS calls' 1.25·10⁸ multiply-adds and
the entries into the 25,000 calls.
scipy uses the product formula of the Gaussian binomial coefficient (a recursion over ``U``
alone, about ``(pn/2)²/2 ≈ 2·10⁸`` multiply-adds in BLAS dot products, with subtractions). With
ties no product formula exists: the generating function ``[y^s] ∏_blocks (1 + y·x^{2·midrank})^t``
keeps the class count ``c`` as a second dimension, and every exact method that adds only positive
terms (this one, Streitberg–Röhmel's shift algorithm) visits (c, U) cells block by block.

Measured and not kept (the first two reproducible with ``benchmarks/bench_null_split.py``, the
others recorded in ``benchmarks/RESULTS.md``):

* **Meet in the middle** (split at a block boundary near the middle, count each half into full
  (c, U) tables, combine ``Σ A[c1][u1]·cumB[s − c1][L − u1 − 2(s − c1)(i1 − c1)]``, all positive):
  exact but 2.4·10⁸ cells, more than the window (the whole distribution's count already drops rows
  that cannot reach ``c = s``, so its second half shrinks instead of growing like ``i⁴``, and the
  window drops what the split would save); with windows on both halves 1.4·10⁸, 8 % fewer than the
  window alone. The pmf would need a full convolution of the two halves' rows for each ``c1``
  (≈ 8·10¹⁰ multiply-adds directly; FFT would subtract).
* **Rank-sum coordinates on a 2-D grid** (``--grid``): with ``2W = 2U + c(c + 1)`` an example at
  doubled midrank ``K`` adds ``K`` whatever the row, so each block's ``(1 + y·x^K)^t`` is ``t``
  shifted adds of all live rows at once: 400 BLAS calls instead of ≈ 38,000, exact, but each call
  covers the rows' whole width (the per-row support ``u ≤ 2c(i − c)`` and the cut are lost) —
  4.8·10⁹ cells, 4.7 s against 0.39 s, and the grid no longer fits in cache.
* **Destination rows outermost** (each row summing its ``t`` sources, for cache reuse): exact,
  10–40 % slower. **One BLAS ``dger`` per source row** (all ``t`` shares as a rank-1 update of a
  strided view, through ``ctypes``): ≈ 2 µs per call, more than the row calls it would replace.
  A tighter allocation of the whole distribution's cut rows (``u ≤ c·L/s`` there too) and one
  ``add.reduceat`` per row for the sure cells instead of one gathered pass: within the noise.
* FFT or roots of unity over ``y`` and ``x``, Newton's identities, ``float32``: they subtract or
  round, and lose the relative precision of small tails that this module promises.
"""

from __future__ import annotations

import math
from collections import deque
from itertools import islice, pairwise, repeat
from typing import Any

import numpy as np
from scipy.linalg.blas import daxpy
from scipy.stats import norm
from threadpoolctl import ThreadpoolController

from .._validation import check_memory
from ._checks import check_alternative
from ._input import Scores

__all__ = [
    "EXACT_WORK_LIMIT",
    "AucNullDistribution",
    "PValue",
    "exact_p_value",
    "normal_p_value",
    "null_distribution",
]

#: Most cells the exact counting may visit (≈ 1.5 s); larger problems use the normal approximation.
EXACT_WORK_LIMIT = 1.2e9


class PValue(float):
    """A p-value (a float) that says how it was computed: ``.method`` is ``"exact"`` or ``"normal"``."""

    method: str

    def __new__(cls, value: float, method: str) -> PValue:
        out = super().__new__(cls, min(1.0, max(0.0, float(value))))
        out.method = method
        return out

    def __repr__(self) -> str:
        return f"PValue({float(self)!r}, method={self.method!r})"


_CONTROLLER: list[ThreadpoolController] = []


def _one_blas_thread() -> Any:
    """A context limiting BLAS to one thread for the counting's daxpy calls: on a busy machine
    OpenBLAS's threads turn ≈ 25,000 row updates of ≈ 0.1 s into seconds (4.8 s measured at load 5
    on 2 cores). The controller is built once (each ``threadpool_limits`` re-reads the libraries)."""
    if not _CONTROLLER:
        _CONTROLLER.append(ThreadpoolController())
    return _CONTROLLER[0].limit(limits=1, user_api="blas")


def tie_blocks(s: Scores) -> tuple[np.ndarray, np.ndarray]:
    """``(sizes, positives)`` of the tie blocks in increasing score order."""
    pos, neg = s.block_counts
    return pos + neg, pos


def observed_twice_u(s: Scores) -> int:
    """``2U`` of the observed scores (exact integer arithmetic over the tie blocks)."""
    pos, neg = s.block_counts
    below = np.cumsum(neg) - neg
    return int(np.dot(pos, 2 * below + neg))


def counting_work(sizes: np.ndarray, small: int) -> float:
    """The cells the counting visits (its cost), from the block sizes; inf when clearly too many."""
    total = int(sizes.sum())
    other = total - small
    if float(total) * small * small * other > 50 * EXACT_WORK_LIMIT:
        return math.inf
    before = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.float64)
    c = np.arange(small + 1, dtype=np.float64)
    work = 0.0
    step = max(1, 2**20 // (small + 1))  # blocks × rows at once, a few MB
    for b in range(0, sizes.size, step):
        i, t = before[b : b + step, None], sizes[b : b + step, None]
        alive = (c <= i) & (c >= small - (total - i)) & (c >= i - other)
        work += float(np.sum(np.minimum(t, small - c) * (2 * c * (i - c) + 1), where=alive))
    return work


def _count(sizes: np.ndarray, small: int, limit: int | None = None) -> tuple[np.ndarray, float]:
    """The counts of ``2U`` of the counted class (see :func:`_count_rows`), BLAS on one thread."""
    with _one_blas_thread():
        return _count_rows(sizes, small, limit)


def _count_rows(sizes: np.ndarray, small: int, limit: int | None = None) -> tuple[np.ndarray, float]:
    """The counts of ``2U`` of the counted class (index = 2U) as ``(scaled, log_scale)``: the true
    count is ``scaled · exp(log_scale)``.

    With ``limit``, only the cells that can still end at ``2U ≤ limit`` are counted, and the
    result is the counts of ``2U = 0 … limit`` (each exact as without it). A cell ``(c, u)``
    after ``i`` examples can end no lower than ``u + 2(s − c)(i − c)`` (each counted example
    still to come beats the ``i − c`` others already below it), so the rows are cut there: the
    tail of a p-value costs a fraction of the whole distribution.
    """
    total = int(sizes.sum())
    other = total - small
    width = 2 * small * other + 1 if limit is None else min(2 * small * other, max(limit, -1)) + 1
    check_memory(
        8.0 * (small + 1) * width,
        f"the exact null distribution at {small} + {other} examples",
        "use the normal approximation (p_value(method='normal'))",
    )
    cap = math.inf if limit is None else limit

    def room(c: int, i: int) -> float:
        """How many cells of row ``c`` after ``i`` examples can still end at ``2U ≤ limit``."""
        return cap - 2 * (small - c) * (i - c) + 1

    rows = [np.zeros(min(2 * c * other + 1, width)) for c in range(small + 1)]
    if width > 0:
        rows[0][0] = 1.0
    log_scale = [0.0] * (small + 1)  # the true count of row c is rows[c] · exp(log_scale[c])
    i = 0
    for t in sizes.tolist():
        # C(t, j) exactly (rounded once to a double: integer counts stay exact below 2^53); log-space
        # only for a block too large for a double
        binom = [float(math.comb(t, j)) for j in range(t + 1)] if t <= 1000 else None
        log_binom = (
            None
            if binom
            else [math.lgamma(t + 1.0) - math.lgamma(j + 1.0) - math.lgamma(t - j + 1.0) for j in range(t + 1)]
        )
        for c in range(min(i, small), max(0, small - (total - i), i - other) - 1, -1):
            src = rows[c]
            a = i - c  # examples of the other class below the block
            length = int(min(2 * c * a + 1, room(c, i)))
            if length <= 0:
                continue
            view = src[:length]
            for j in range(max(1, t - (other - a)), min(t, small - c) + 1):
                dst = rows[c + j]
                shift = 2 * j * a + j * (t - j)
                size = int(min(length, room(c + j, i + t) - shift))
                if size <= 0:
                    continue
                rescale = log_scale[c] - log_scale[c + j]
                if binom is not None:
                    w = binom[j] if rescale == 0.0 else binom[j] * math.exp(rescale)
                else:
                    w = math.exp(log_binom[j] + rescale)
                daxpy(view, dst, n=size, a=w, offy=shift)  # dst[shift:shift + size] += w · view[:size]
        i += t
        for c in range(max(0, small - (total - i), i - other), min(i, small) + 1):
            # a row may hold at most C(i, c) counts: rescale before a double could overflow
            bound = math.lgamma(i + 1.0) - math.lgamma(c + 1.0) - math.lgamma(i - c + 1.0) - log_scale[c]
            if bound > 600.0 and rows[c].size:
                top = float(rows[c].max())
                if top > 0:
                    rows[c] /= top
                    log_scale[c] += math.log(top)
    return rows[small], log_scale[small]


def _tail_windowed(sizes: np.ndarray, small: int, limit: int) -> float:
    """P(2U ≤ limit) of the counted class (see :func:`_tail_rows`), BLAS on one thread."""
    with _one_blas_thread():
        return _tail_rows(sizes, small, limit)


def _tail_rows(sizes: np.ndarray, small: int, limit: int) -> float:
    """P(2U ≤ limit) of the counted class, each row of the counting kept to a window.

    Besides the cut of :func:`_count` (cells that can no longer end at ``2U ≤ limit``), a cell
    ``(c, u)`` with ``u ≤ limit − 2(s − c)·o`` is *sure* to end there whatever follows (each of the
    ``s − c`` counted examples still to come beats at most the ``o`` others), so it is not carried
    on: its count times its ``C(N − i, s − c)`` completions is added to the tail at once (a prefix
    sum of the row, from the window's start: no subtraction). Row ``c`` then lives in the fixed
    window ``(limit − 2(s − c)o, limit − 2(s − c)(i − c)]`` — about a third of the cells of the
    whole distribution's counting in all. Every term is positive; counts are exact integers in
    doubles up to ``2^53`` and rounded once beyond, so the tail keeps its relative precision.
    Needs ``C(N, s) < 2^1000`` (no row rescaling).
    """
    total = int(sizes.sum())
    other = total - small
    if limit < 0:
        return 0.0
    if limit >= 2 * small * other:
        return 1.0
    width = limit + 1
    check_memory(
        8.0 * (small + 1) * width,
        f"the exact p-value at {small} + {other} examples",
        "use the normal approximation (p_value(method='normal'))",
    )
    lo = np.maximum(0, limit - 2 * (small - np.arange(small + 1)) * other + 1)  # below: sure
    # row c holds only its window: rows[c][k] is the count of 2U = lo[c] + k. A cell of row c after
    # i examples has u ≤ 2c(i − c) (its support) and u ≤ limit − 2(s − c)(i − c) (the cut): u ≤ c·limit/s
    c = np.arange(small + 1)
    top = np.minimum(np.minimum(2 * c * other, limit), c * limit // small)
    ends = np.cumsum(np.maximum(0, top - lo + 1)).tolist()
    flat = np.zeros(ends[-1])  # one allocation (its pages are zeroed when first touched)
    offsets = [0, *ends[:-1]]
    rows = [flat[b:e] for b, e in zip(offsets, ends, strict=True)]
    at = np.asarray(offsets)  # each row's window start in flat
    rows[0][0] = 1.0  # lo[0] = 0: limit < 2s·o
    before = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64)
    # each block's source rows c (descending from hi) and shares j = 1 … min(t, s)
    hi = np.minimum(before, small)
    rows_per_block = np.maximum(0, hi - np.maximum.reduce([0 * before, small - (total - before), before - other]) + 1)
    shares = np.minimum(sizes, small).astype(np.int64)
    triples = rows_per_block * shares
    sure = 0.0
    first_block = 0
    while first_block < sizes.size:  # plan a few hundred thousand (block, row, share) at a time
        last = int(np.searchsorted(np.cumsum(triples[first_block:]), _PLAN_TRIPLES, "right")) + first_block
        last = max(last, first_block + 1)
        blocks = slice(first_block, last)
        plan = _BlockPlan(
            before[blocks], sizes[blocks], hi[blocks], rows_per_block[blocks], shares[blocks], lo, at, limit, other
        )
        calls = map(daxpy, repeat(flat), repeat(flat), *plan.calls)  # flat[y_at:][:m] += w·flat[x_at:][:m]
        for count, slices, index, after in zip(
            plan.counts, plan.sure_slices, plan.sure_index, plan.sure_after, strict=True
        ):
            if slices:  # sure cells first (from the rows as they were before this block)
                gathered = np.concatenate([flat[a:e] for a, e in slices])
                sure += float(np.add.reduceat(gathered, index) @ after)
            # then the block's row updates, in place, rows c descending: each row is read before a
            # lower one adds into it (the calls driven by map: no bytecode per call)
            deque(islice(calls, count), maxlen=0)
        first_block = last
    # row s's window is empty (lo[s] = limit + 1): every way of ending at 2U ≤ limit was counted as sure
    return sure / float(math.comb(total, small))


#: (block, source row, share) triples planned at once by :func:`_tail_rows` (a few MB of arrays).
_PLAN_TRIPLES = 2**18


class _BlockPlan:
    """Every (row, share) update of a run of tie blocks of :func:`_tail_rows`, computed as arrays at
    once (nothing here depends on the counts, only on the block sizes and the windows).

    For block ``b`` (``i`` examples before it, ``t`` in it) the source rows are ``c = hi[b], hi[b] − 1,
    …`` (``rows[b]`` of them) and the shares ``j = 1 … shares[b]``, in that order (rows descending,
    shares ascending): the triples of block ``b`` form a ``(rows, shares)`` array. ``calls`` are the
    daxpy arguments after ``(x, y)`` of the updates with cells to carry, ``counts[b]`` how many of
    them are block ``b``'s; the sums of its sure cells are planned by :meth:`_plan_sure`.
    """

    def __init__(
        self,
        before: np.ndarray,
        sizes: np.ndarray,
        hi: np.ndarray,
        rows: np.ndarray,
        shares: np.ndarray,
        lo: np.ndarray,
        at: np.ndarray,
        limit: int,
        other: int,
    ) -> None:
        small = lo.size - 1
        per_block = rows * shares
        self.starts = np.concatenate(([0], np.cumsum(per_block)))
        self.rows, self.shares, self.small, self.at = rows, shares, small, at
        self.left = (small + other - before - sizes).tolist()  # examples after each block
        blk = np.repeat(np.arange(before.size), per_block)
        q = np.arange(int(self.starts[-1])) - self.starts[blk]
        width = shares[blk]
        c = hi[blk] - q // width
        j = q % width + 1
        i, t = before[blk], sizes[blk].astype(np.int64)
        a = i - c  # others below the block
        start = lo[c]
        length = np.minimum(2 * c * a + 1, limit - 2 * (small - c) * a + 1)
        d = c + j
        valid = (j >= t - (other - a)) & (d <= small) & (length > start)
        shift = 2 * j * a + j * (t - j)
        lo_d = lo[np.minimum(d, small)]
        sure_below = lo_d - shift  # source cells below this index surely end ≤ limit
        first = np.maximum(start, sure_below)
        end = np.minimum(length, limit - 2 * (small - d) * (i + t - d) + 1 - shift)
        # C(t, j) exactly (rounded once to a double; j ≤ s keeps it below C(N, s) < 2^1000)
        binom_at = np.concatenate(([0], np.cumsum(shares)))
        binom = np.array(
            [float(math.comb(int(tb), k)) for tb, m in zip(sizes, shares, strict=True) for k in range(1, m + 1)]
        )
        weight = binom[binom_at[blk] + j - 1] if binom.size else np.zeros(0)
        call = valid & (end > first)
        self.counts = np.bincount(blk[call], minlength=before.size).tolist()
        n = int(call.sum())
        src = at[c[call]] + (first - start)[call]
        dst = at[d[call]] + (first + shift - lo_d)[call]
        self.calls = (
            (end - first)[call].tolist(),
            weight[call].tolist(),
            src.tolist(),
            repeat(1, n),
            dst.tolist(),
            repeat(1, n),
        )
        self._plan_sure(blk, c, d, valid & (sure_below > start), np.minimum(sure_below, length) - start, weight)

    def _plan_sure(
        self, blk: np.ndarray, c: np.ndarray, d: np.ndarray, sure: np.ndarray, ends: np.ndarray, weight: np.ndarray
    ) -> None:
        """The sums of the sure cells, block by block: ``sure_slices[b]`` the rows' prefixes to gather
        (``(start, stop)`` in ``flat``), ``sure_index[b]`` the starts of their segments in the
        gathered array (one ``add.reduceat``) and ``sure_after[b]`` each segment's weight.

        For source row ``c`` and share ``j`` the sure cells are the row's first ``E_j`` cells (from its
        window's start), weighted ``w_j = C(t, j)·C(left, s − c − j)`` (``left`` examples after the
        block). A row's sure shares are the last of its valid shares (``E_j`` grows with ``j``), so
        ``Σ_j w_j·Σ_{k < E_j} x_k = Σ_j W_j·Σ_{E_{j−1} ≤ k < E_j} x_k`` with ``W_j = Σ_{j' ≥ j} w_j'``
        (``E`` of the share before the first sure one is 0): every term positive, no subtraction.
        ``W`` is a suffix sum within each row's shares, by doubling (log₂ of the shares' count steps).
        """
        small = self.small
        ends = np.where(sure, ends, 0)
        # C(left, s − d) for the blocks with sure cells (one cumprod each: relative error ≤ 2s·2⁻⁵³)
        w = np.zeros(weight.size)
        blocks = np.flatnonzero(np.bincount(blk[sure], minlength=self.rows.size))
        for b in blocks.tolist():
            part = slice(int(self.starts[b]), int(self.starts[b + 1]))
            rest = _completions(self.left[b], small)[::-1]  # rest[d] = C(left, s − d)
            w[part] = np.where(sure[part], weight[part] * rest[np.minimum(d[part], small)], 0.0)
        group = np.repeat(np.arange(int(self.rows.sum())), np.repeat(self.shares, self.rows))  # (block, row)
        after = w.copy()
        step = 1
        while step < int(self.shares.max(initial=1)):
            same = group[step:] == group[:-step]
            after[:-step] += np.where(same, after[step:], 0.0)
            step *= 2
        prev = np.zeros_like(ends)
        prev[1:] = np.where(group[1:] == group[:-1], ends[:-1], 0)
        segment = ends > prev
        # each row's prefix to gather: its largest sure end (the shares' ends grow), rows in order
        group_start = np.flatnonzero(np.r_[True, group[1:] != group[:-1]]) if group.size else group
        width = np.maximum.reduceat(ends, group_start) if group.size else ends
        row_block = blk[group_start]
        used = width > 0
        offset = np.zeros(width.size, dtype=np.int64)  # each used row's start in its block's gathered array
        cum = np.cumsum(np.where(used, width, 0))
        block_first = np.searchsorted(row_block, np.arange(self.rows.size))  # first row of each block
        base = np.r_[0, cum][block_first]
        offset[:] = np.r_[0, cum[:-1]] - base[row_block]
        index = offset[group] + prev
        cuts = np.searchsorted(blk[segment], np.arange(self.rows.size + 1))
        index_s, after_s = index[segment], after[segment]
        self.sure_index = [index_s[x:y] for x, y in pairwise(cuts.tolist())]
        self.sure_after = [after_s[x:y] for x, y in pairwise(cuts.tolist())]
        row_cut = np.searchsorted(row_block[used], np.arange(self.rows.size + 1))
        starts = self.at[c[group_start][used]]
        starts, stops = starts.tolist(), (starts + width[used]).tolist()
        self.sure_slices = [list(zip(starts[x:y], stops[x:y], strict=True)) for x, y in pairwise(row_cut.tolist())]


def _completions(left: int, small: int) -> np.ndarray:
    """``C(left, m)`` for ``m = 0 … small`` as doubles, by the product ``Π (left − k + 1)/k`` (one
    ``cumprod``): relative error below ``2m·2⁻⁵³``, zero beyond ``m = left``."""
    m = np.arange(1, small + 1, dtype=np.float64)
    return np.concatenate(([1.0], np.cumprod((left - m + 1.0) / m)))


def _tail(sizes: np.ndarray, small: int, limit: int) -> float:
    """P(2U ≤ limit) of the counted class: the counted cells over ``C(N, s)``, a sum of positive
    terms (exact up to rounding, however far in the tail)."""
    if limit < 0:
        return 0.0
    total = math.comb(int(sizes.sum()), small)
    if total < 2**1000:
        return _tail_windowed(sizes, small, limit)
    counts, log_scale = _count(sizes, small, limit)
    mass = float(counts.sum())
    if mass == 0.0:
        return 0.0
    return math.exp(math.log(mass) + log_scale - math.log(total))


def exact_p_value(s: Scores, alternative: str) -> PValue:
    """The exact p-value of the observed AUC, counting only the tail(s) it needs (see :func:`_count`):
    the same number as :meth:`AucNullDistribution.p_value_at` of the whole distribution."""
    alternative = check_alternative(alternative)
    sizes, _ = tie_blocks(s)
    small, other = min(s.p, s.n), max(s.p, s.n)
    observed = observed_twice_u(s)  # the positives'
    top = 2 * small * other
    counted = observed if s.p <= s.n else top - observed  # the counted class's 2U
    # P(counted ≤ x) directly; P(counted ≥ x) = P(mirrored ≤ top − x), the blocks in reverse order
    at_most = lambda: _tail(sizes, small, counted)  # noqa: E731
    at_least = lambda: _tail(sizes[::-1], small, top - counted)  # noqa: E731
    less, greater = (at_most, at_least) if s.p <= s.n else (at_least, at_most)
    if alternative == "less":
        return PValue(less(), "exact")
    if alternative == "greater":
        return PValue(greater(), "exact")
    # two-sided: P(≤ x) + P(≥ x) ≥ 1, so a tail below ½ is the smaller one; start with the tail on
    # the observed side of the mean (2U's mean is s·o) and count the other only when needed
    first, second = (at_most, at_least) if counted <= small * other else (at_least, at_most)
    one = first()
    return PValue(2 * (one if one < 0.5 else min(one, second())), "exact")


class AucNullDistribution:
    """The exact null distribution of the AUC given the ties, in scipy's vocabulary.

    ``values`` (the AUCs that can occur, increasing) and ``probabilities``; ``pmf``,
    ``cdf`` (P(AUC ≤ x)), ``sf`` (P(AUC > x), as scipy), ``mean``, ``std``.
    """

    def __init__(self, twice_u: np.ndarray, probabilities: np.ndarray, p: int, n: int) -> None:
        self.twice_u = twice_u
        self.values = twice_u / (2.0 * p * n)
        self.probabilities = probabilities
        self.p, self.n = p, n
        self._cdf = np.cumsum(probabilities)
        # P(AUC ≥ values[k]) summed from the top (every term positive: relative error bounded)
        self._upper = np.cumsum(probabilities[::-1])[::-1]

    def __repr__(self) -> str:
        return f"AucNullDistribution(p={self.p}, n={self.n}, support={self.values.size})"

    def _index(self, x: float, side: str) -> int:
        return int(np.searchsorted(self.values, x, side=side))

    def pmf(self, x: float) -> float:
        k = self._index(x, "left")
        return float(self.probabilities[k]) if k < self.values.size and self.values[k] == x else 0.0

    def cdf(self, x: float) -> float:
        k = self._index(x, "right")
        return float(self._cdf[k - 1]) if k else 0.0

    def sf(self, x: float) -> float:
        k = self._index(x, "right")
        return float(self._upper[k]) if k < self.values.size else 0.0

    def mean(self) -> float:
        return float(np.dot(self.values, self.probabilities))

    def std(self) -> float:
        return float(math.sqrt(max(0.0, np.dot((self.values - self.mean()) ** 2, self.probabilities))))

    def p_value_at(self, twice_u: int, alternative: str) -> PValue:
        """The exact p-value of an observed ``2U``."""
        alternative = check_alternative(alternative)
        k_hi = int(np.searchsorted(self.twice_u, twice_u, "left"))
        k_lo = int(np.searchsorted(self.twice_u, twice_u, "right"))
        greater = float(self._upper[k_hi]) if k_hi < self.values.size else 0.0
        less = float(self._cdf[k_lo - 1]) if k_lo else 0.0
        value = {"greater": greater, "less": less, "two-sided": 2 * min(greater, less)}[alternative]
        return PValue(value, "exact")


def null_distribution(s: Scores) -> AucNullDistribution:
    """The exact null distribution of the AUC of ``s`` (any size the memory allows)."""
    sizes, _ = tie_blocks(s)
    small = min(s.p, s.n)
    if s.p == s.n:  # symmetric about 2U = pn: count the lower half (the cut rows) and mirror it
        half, _ = _count(sizes, small, small * small)
        counts = np.concatenate([half, half[-2::-1]])
    else:
        counts, _ = _count(sizes, small)
    dist = counts / counts.sum()
    support = np.flatnonzero(dist)
    probs = dist[support]
    if s.n < s.p:  # the negatives were counted: their 2U is 2pn minus the positives'
        support = 2 * s.p * s.n - support[::-1]
        probs = probs[::-1]
    return AucNullDistribution(support.astype(np.int64), probs, s.p, s.n)


def normal_p_value(s: Scores, alternative: str) -> PValue:
    """The tie-corrected normal approximation of U with continuity correction ½."""
    alternative = check_alternative(alternative)
    sizes, _ = tie_blocks(s)
    p, n = s.p, s.n
    total = p + n
    u = observed_twice_u(s) / 2.0
    ties = float(np.sum(sizes.astype(np.float64) ** 3 - sizes))
    var = p * n / 12.0 * ((total + 1) - ties / (total * (total - 1)))
    if var <= 0:
        return PValue(1.0, "normal")
    sd = math.sqrt(var)
    mean = p * n / 2.0
    greater = float(norm.sf((u - mean - 0.5) / sd))
    less = float(norm.cdf((u - mean + 0.5) / sd))
    value = {"greater": greater, "less": less, "two-sided": 2 * min(greater, less)}[alternative]
    return PValue(value, "normal")
