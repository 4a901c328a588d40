"""Meet in the middle for the exact tail P(2U ≤ L) of the AUC null with ties — measured, not shipped.

Issue 22's idea: split the tie blocks (in score order, at a block boundary near the middle) into a
first part of ``i1`` examples and a second part; count each part by the block DP into full tables
``A[c1][u1]`` and ``B[c2][u2]`` (``c`` of the counted class, ``u`` the doubled U of pairs inside the
part). No tie crosses the split, and a counted example of the second part beats every other of the
first part, so ``2U = u1 + u2 + 2·c2·(i1 − c1)`` and, with ``c1 + c2 = s``,

    #{2U ≤ L} = Σ_c1 Σ_u1 A[c1][u1] · cumB[s − c1][L − u1 − 2(s − c1)(i1 − c1)]

(a dot product per c1 with a prefix sum of B: every term positive). This script checks that
identity against the whole distribution (``_count``) on random tie patterns, then counts the cells
each method visits and times the split against the shipped windowed tail
(``_null._tail_windowed``, what ``RocCurve.p_value`` runs) and scipy's exact Mann–Whitney, all in
one run, at 200 + 200 with one-decimal ties (the ``pvalue`` case of ``bench_scores.py``).

Why it does not pay: the whole distribution's DP never carries rows that can no longer reach
``c = s``, so its second half is not "cells ∝ i⁴" but shrinks again, and the windowed tail already
drops what the split would save. Cells at 200 + 200 (50 blocks, L at the centre): whole ≈ 7.5·10⁸,
split ≈ 2.4·10⁸, windowed ≈ 1.5·10⁸ (estimate; 1.3·10⁸ counted), split with windows on both parts
≈ 1.4·10⁸.

Usage::

    PYTHONPATH=src python benchmarks/bench_null_split.py [--repeat 7]
    PYTHONPATH=src python benchmarks/bench_null_split.py --grid --repeat 3  # the rank-sum 2-D grid
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import time

import numpy as np
from scipy.linalg.blas import daxpy
from scipy.stats import _mannwhitneyu, mannwhitneyu
from threadpoolctl import threadpool_limits

from confusionlab.scores._null import _count, _tail_windowed


def tables(sizes: np.ndarray, c_hi: int) -> list[np.ndarray]:
    """Every row ``c ≤ c_hi`` of the block DP over ``sizes`` (row c: the counts of 2U inside)."""
    total = int(sizes.sum())
    c_hi = min(c_hi, total)
    rows = [np.zeros(2 * c * (total - c) + 1) for c in range(c_hi + 1)]
    rows[0][0] = 1.0
    i = 0
    for t in sizes.tolist():
        binom = [float(math.comb(t, j)) for j in range(t + 1)]
        for c in range(min(i, c_hi), -1, -1):  # read each row before a lower one adds into it
            a = i - c
            length = 2 * c * a + 1
            src = rows[c]
            for j in range(1, min(t, c_hi - c) + 1):
                daxpy(src, rows[c + j], length, binom[j], 0, 1, 2 * j * a + j * (t - j), 1)
        i += t
    return rows


def split_tail(sizes: np.ndarray, small: int, limit: int) -> float:
    """P(2U ≤ limit) of the counted class by meet in the middle."""
    total = int(sizes.sum())
    other = total - small
    ends = np.cumsum(sizes)
    k = int(np.argmin(np.abs(ends - total / 2))) + 1  # the block boundary nearest the middle
    i1 = int(ends[k - 1])
    second = total - i1
    first_rows = tables(sizes[:k], small)
    second_rows = tables(sizes[k:], small)
    count = 0.0
    for c1 in range(max(0, small - second, i1 - other), min(small, i1) + 1):
        c2 = small - c1
        if second - c2 > other:
            continue
        a = first_rows[c1]
        cum = np.cumsum(second_rows[c2])
        at = limit - 2 * c2 * (i1 - c1) - np.arange(a.size)  # the second part's 2U may be at most this
        keep = at >= 0
        count += float(np.dot(a[keep], cum[np.minimum(at[keep], cum.size - 1)]))
    return count / float(math.comb(total, small))


def cells(sizes: np.ndarray, small: int, limit: int, parts: str) -> float:
    """Cells the block DP visits (Σ over blocks and rows of min(t, s − c) × the row's length)."""
    total = int(sizes.sum())
    other = total - small
    c = np.arange(small + 1)

    def walk(blocks: np.ndarray, window: int | None, tail_total: int) -> float:
        work, i = 0.0, 0
        for t in blocks.tolist():
            alive = (c <= i) & (c >= small - (tail_total - i)) & (c >= i - other)
            hi = 2 * c * (i - c)
            lo = np.zeros_like(c)
            if window is not None:
                hi = np.minimum(hi, window - 2 * (small - c) * (i - c))
                lo = np.maximum(0, window - 2 * (small - c) * other + 1)
            work += float(np.sum((np.minimum(t, small - c) * np.clip(hi - lo + 1, 0, None))[alive]))
            i += t
        return work

    k = int(np.argmin(np.abs(np.cumsum(sizes) - total / 2))) + 1
    if parts == "whole":
        return walk(sizes, None, total)
    if parts == "windowed":
        return walk(sizes, limit, total)
    if parts == "split":  # two free tables (rows up to s, none dropped)
        return sum(walk(part, None, 10**9) for part in (sizes[:k], sizes[k:]))
    # split with windows: the first part forward, the second reversed for the mirrored tail
    return walk(sizes[:k], limit, total) + walk(sizes[::-1][: sizes.size - k], 2 * small * other - limit, total)


def grid_count(sizes: np.ndarray, small: int) -> tuple[np.ndarray, int, int]:
    """The whole distribution's counts of 2U in rank-sum coordinates on a 2-D grid (issue 22's
    other idea): ``2W = 2U + c(c + 1)``, and one example of a block at doubled midrank
    ``K = 2i + t + 1`` adds ``K`` to ``2W`` whatever the row ``c``, so with rows of stride ``R``
    the block's factor ``(1 + y·x^K)^t`` is ``t`` shifted adds ``F[k + R + K] += F[k]`` of the live
    rows at once (one BLAS daxpy each, traversed downwards so each cell is read before it is
    written): ≈ ``N`` large calls instead of ≈ 38,000 row calls, but every call covers the live
    rows' whole width (no per-row support or cut). Returns (counts, calls, cells)."""
    total = int(sizes.sum())
    other = total - small
    stride = small * (small + 1) + 2 * small * other + 2 * total + 2
    grid = np.zeros((small + 1) * stride)
    grid[0] = 1.0
    i, calls, visited = 0, 0, 0
    for t in sizes.tolist():
        shift = stride + 2 * i + t + 1
        for k in range(t):
            seen = i + k  # examples placed so far (the block's first k already)
            c_hi, c_lo = min(seen, small - 1), max(0, small - (total - seen), seen - other)
            if c_hi < c_lo:
                continue
            width = min(stride - shift + stride - 1, c_hi * (2 * (i + t) + 1)) + 1  # 2W of row c_hi at most
            n = (c_hi - c_lo) * stride + width
            daxpy(grid, grid, n, 1.0, c_lo * stride, -1, c_lo * stride + shift, -1)
            calls, visited = calls + 1, visited + n
        i += t
    base = small * stride + small * (small + 1)
    return grid[base : base + 2 * small * other + 1], calls, visited


def grid_main(repeat: int) -> None:
    """The grid against the shipped whole distribution (``_count``): equal counts, then cells and CPU time."""
    rng = np.random.default_rng(7)
    limits = threadpool_limits(1)  # in place and overlapping: BLAS threads would race
    for _ in range(20):
        total = int(rng.integers(2, 40))
        small = int(rng.integers(1, total // 2 + 1))
        blocks = np.bincount(rng.integers(0, int(rng.integers(1, total + 1)), total))
        blocks = blocks[blocks > 0]
        ours, _ = _count(blocks, small)
        grid, _, _ = grid_count(blocks, small)
        np.testing.assert_allclose(grid, ours, rtol=1e-13, atol=0)
    y = np.r_[np.ones(200, int), np.zeros(200, int)]
    _, inverse = np.unique(np.round(np.random.default_rng(0).normal(0.3 * y, 1.0), 1), return_inverse=True)
    sizes = np.bincount(inverse)
    with limits:
        times: dict[str, list[float]] = {"rows (shipped _count)": [], "grid (rank-sum, 2-D)": []}
        for _ in range(repeat):
            start = time.process_time()
            ours, _ = _count(sizes, 200)
            times["rows (shipped _count)"].append(time.process_time() - start)
            start = time.process_time()
            grid, calls, visited = grid_count(sizes, 200)
            times["grid (rank-sum, 2-D)"].append(time.process_time() - start)
    np.testing.assert_allclose(grid / grid.sum(), ours / ours.sum(), rtol=1e-12, atol=0)
    print(f"whole distribution at 200 + 200, {sizes.size} tie blocks; load {os.getloadavg()[0]:.1f}, CPU clock")
    print(f"  grid: {calls} daxpy calls, {visited:.3g} cells (rows: ≈ 38,000 calls, 7.2e8 cells)")
    for name, values in times.items():
        print(f"  {name:>22s}: {statistics.median(values):.3f} s CPU")


def check(seeds: int) -> None:
    """The split equals the whole distribution's cdf (relative 1e-12) on random tie patterns."""
    rng = np.random.default_rng(2022)
    for _ in range(seeds):
        total = int(rng.integers(2, 70))
        small = int(rng.integers(1, total // 2 + 1))
        sizes, left = [], total
        while left:
            t = int(min(left, rng.choice([1, 1, 1, 2, 3, int(rng.integers(4, 13))])))
            sizes.append(t)
            left -= t
        blocks = np.array(sizes)
        full, _ = _count(blocks, small)
        cdf = np.cumsum(full / full.sum())
        top = 2 * small * (total - small)
        for limit in {0, 1, top // 3, top // 2, top - 1, top, int(rng.integers(0, top + 1))}:
            got = split_tail(blocks, small, limit)
            assert abs(got - cdf[limit]) <= 1e-12 * cdf[limit] + 1e-300, (sizes, small, limit, got, cdf[limit])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--grid", action="store_true", help="the rank-sum 2-D grid for the whole distribution instead")
    args = parser.parse_args()
    if args.grid:
        grid_main(args.repeat)
        return
    check(60)
    rng = np.random.default_rng(0)
    y = np.r_[np.ones(200, int), np.zeros(200, int)]
    tied = np.round(rng.normal(0.0, 1.0, 400), 1)
    free = rng.normal(0.0, 1.0, 400)
    _, inverse = np.unique(tied, return_inverse=True)
    sizes = np.bincount(inverse)
    limit = 200 * 200  # 2U at the centre (U = pn/2): the bench_scores pvalue case
    print(f"checked against the whole distribution; load {os.getloadavg()[0]:.1f}, BLAS one thread, CPU clock")
    print(f"{sizes.size} tie blocks at 200 + 200, P(2U ≤ {limit}) (the centre)")
    for parts in ("whole", "windowed", "split", "split+windows"):
        print(f"  cells {parts:>14s}: {cells(sizes, 200, limit, parts):.3g}")
    assert abs(split_tail(sizes, 200, limit) - _tail_windowed(sizes, 200, limit)) <= 1e-12

    def scipy_exact() -> None:
        if hasattr(_mannwhitneyu._mwu_state, "s"):
            del _mannwhitneyu._mwu_state.s
        mannwhitneyu(free[y == 1], free[y == 0], method="exact")

    runs = {"windowed (shipped)": [], "split": [], "scipy exact MWU": []}
    funcs = {
        "windowed (shipped)": lambda: _tail_windowed(sizes, 200, limit),
        "split": lambda: split_tail(sizes, 200, limit),
        "scipy exact MWU": scipy_exact,
    }
    with threadpool_limits(1):
        for _ in range(args.repeat):
            for name, func in funcs.items():
                start = time.process_time()
                func()
                runs[name].append(time.process_time() - start)
    base = statistics.median(runs["scipy exact MWU"])
    for name, times in runs.items():
        print(
            f"  {name:>18s}: {statistics.median(times):.3f} s CPU, ratio to scipy {statistics.median(times) / base:.2f}"
        )
    print(f"load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
