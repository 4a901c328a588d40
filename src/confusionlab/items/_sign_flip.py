"""The sign-flip randomization test of a paired difference, exact by integer convolution.

Under the null hypothesis that A and B are exchangeable within each cluster, each cluster's summed
difference ``s_c`` is as likely to be ``+s_c`` as ``−s_c``, independently of the others; the test
statistic ``T = Σ_c s_c`` is then one of the ``2^C`` sums ``Σ_c ε_c·s_c`` (ε = ±1), each of
probability ``2^−C``. When the scores lie on a grid (0/1, or partial credit in multiples of
1/2, 1/3, …) and each item has K rows, the ``s_c`` times a common scale are integers and the
null distribution is built by convolving the clusters' two-point distributions one after the
other: ``C`` passes over an array of at most ``2·Σ|s_c| + 1`` probabilities, exact (a probability
``k/2^C`` is a double exactly while ``C ≤ 53``; beyond that, to rounding). The work is estimated
first; beyond :data:`EXACT_WORK`, up to :data:`ENUMERATION_CLUSTERS` clusters are enumerated,
and beyond that the p-value is a Monte Carlo estimate with its standard error, labelled so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

__all__ = [
    "ALTERNATIVES",
    "ENUMERATION_CLUSTERS",
    "EXACT_WORK",
    "MAX_GRID",
    "SignFlipTest",
    "integer_sums",
    "score_grid",
    "sign_flip_test",
]

#: The alternatives: A ≠ B, A > B (A's scores higher), A < B.
ALTERNATIVES = ("two-sided", "greater", "less")
#: Most element operations of the exact convolution (about a second on one core).
EXACT_WORK = 3e8
#: Most clusters whose 2^C sign patterns are enumerated when the convolution does not apply.
ENUMERATION_CLUSTERS = 20
#: Largest common denominator of the scores, and of the scale, tried for the integer convolution.
MAX_GRID = 10**6
#: Most probabilities the convolution holds (80 MB).
MAX_REACH = 10**7
#: Signs drawn per chunk of the Monte Carlo test (bounds its memory: 32 MB as doubles).
_CHUNK = 2**22


@dataclass(frozen=True)
class SignFlipTest:
    """The sign-flip test's details.

    Attributes
    ----------
    p_value : float
        P(a statistic at least as extreme as the observed one) under the null.
    alternative : str
        ``"two-sided"``, ``"greater"`` (A > B) or ``"less"``.
    method : str
        ``"exact"`` (integer convolution, or every sign pattern enumerated) or
        ``"monte-carlo"`` (random sign patterns).
    how : str
        ``"convolution"``, ``"enumeration"`` or ``"random signs"``.
    statistic : float
        The observed sum of the clusters' summed differences, ``Σ_c s_c = n · mean difference``.
    units : int
        Clusters (or items) whose summed difference is not zero (the others do not move the
        statistic).
    scale : int or None
        The integer the differences were multiplied by for the convolution (None otherwise).
    work : float
        The estimated element operations of the exact convolution (inf off a grid).
    n_draws : int or None
        Monte Carlo sign patterns (None when exact).
    mc_error : float
        The Monte Carlo standard error of the p-value (0 when exact).
    """

    p_value: float
    alternative: str
    method: str
    how: str
    statistic: float
    units: int
    scale: int | None
    work: float
    n_draws: int | None
    mc_error: float


def score_grid(values: np.ndarray) -> int | None:
    """The smallest integer ``g`` ≤ :data:`MAX_GRID` making every score times ``g`` an integer, or None.

    >>> score_grid(np.array([0.0, 0.5, 1.0])), score_grid(np.array([0.0, 1 / 3])), score_grid(np.array([0.1234567]))
    (2, 3, None)
    """
    if values.size > 10_000:
        return None
    grid = 1
    for v in values.tolist():
        den = Fraction(v).limit_denominator(1000).denominator
        grid = grid * den // math.gcd(grid, den)
        if grid > MAX_GRID:
            return None
    scaled = values * grid
    return grid if bool(np.all(np.abs(scaled - np.round(scaled)) <= 1e-9 * np.maximum(1.0, np.abs(scaled)))) else None


def integer_sums(
    differences: np.ndarray, rows: np.ndarray, clusters: np.ndarray, grid: int | None
) -> tuple[np.ndarray, int] | None:
    """The clusters' summed item differences times an integer scale, as integers, with the scale.

    ``differences`` are the items' summed row differences (Σ a − Σ b over each item's rows),
    ``rows`` each item's rows, so an item's mean difference is ``differences / rows``. With scores
    on a ``grid``, ``differences·grid`` are integers and the scale is ``grid · lcm(rows)``. None
    when no grid or the scale or the integers are too large to convolve.

    >>> s, scale = integer_sums(np.array([1.0, -1.0, 0.5]), np.array([2, 2, 1]), np.array([0, 0, 1]), 2)
    >>> s.tolist(), scale
    ([0, 2], 4)
    """
    if grid is None:
        return None
    lcm = 1
    for k in np.unique(rows).tolist():
        lcm = lcm * k // math.gcd(lcm, k)
        if lcm * grid > MAX_GRID:
            return None
    scale = lcm * grid
    per_item = np.round(differences * grid) * (lcm // rows)  # integers: Σ(a − b)·grid times lcm/K
    if float(np.abs(per_item).sum()) > 2.0**52:
        return None
    sums = np.bincount(clusters, weights=per_item, minlength=int(clusters.max()) + 1)
    return np.round(sums).astype(np.int64), scale


def convolution_work(sums: np.ndarray) -> float:
    """The element operations of convolving the two-point distributions of ``sums`` (sorted by size).

    >>> convolution_work(np.array([1, 2]))  # windows of 3, then 7 entries, three passes each
    30.0
    """
    steps = np.sort(np.abs(sums[sums != 0])).astype(np.float64)
    return float(3.0 * np.sum(2.0 * np.cumsum(steps) + 1.0))


def _null_distribution(sums: np.ndarray) -> np.ndarray:
    """P(Σ ε_c s_c = t) for t = −R … R (R = Σ|s_c|) with ε_c = ±1 equally likely, by convolution."""
    steps = np.sort(np.abs(sums[sums != 0]))
    reach = int(steps.sum())
    dist = np.zeros(2 * reach + 1)
    dist[reach] = 1.0
    lo = hi = reach
    for s in steps.tolist():
        half = dist[lo : hi + 1] * 0.5
        dist[lo : hi + 1] = 0.0
        dist[lo - s : hi + 1 - s] += half
        dist[lo + s : hi + 1 + s] += half
        lo, hi = lo - s, hi + s
    return dist


def sign_flip_test(
    sums: np.ndarray,
    alternative: str,
    *,
    integers: tuple[np.ndarray, int] | None,
    n_draws: int,
    rng: np.random.Generator,
) -> SignFlipTest:
    """The sign-flip test of the clusters' summed differences ``sums`` (floats).

    ``integers`` are the same sums times an integer scale (:func:`integer_sums`), when the scores
    lie on a grid; the convolution is used when its estimated work is at most :data:`EXACT_WORK`.

    >>> import numpy as np
    >>> t = sign_flip_test(np.array([1.0, 2.0, 3.0]), "greater", integers=(np.array([1, 2, 3]), 1),
    ...                    n_draws=10, rng=np.random.default_rng(0))
    >>> t.p_value, t.method, t.how  # of the 8 sign patterns only (+, +, +) reaches 6
    (0.125, 'exact', 'convolution')
    """
    statistic = float(sums.sum())
    nonzero = sums[sums != 0]
    units = int(nonzero.size)
    work = convolution_work(integers[0]) if integers is not None else math.inf
    atol = 1e-9 * max(1.0, float(np.abs(sums).sum()))
    if integers is not None and work <= EXACT_WORK and 2 * int(np.abs(integers[0]).sum()) + 1 <= MAX_REACH:
        ints, scale = integers
        dist = _null_distribution(ints)
        reach = (dist.size - 1) // 2
        t = np.arange(-reach, reach + 1)
        observed = int(ints.sum())
        p = _p_from_weights(t, dist, observed, alternative, 0.5)
        return SignFlipTest(p, alternative, "exact", "convolution", statistic, units, scale, work, None, 0.0)
    if units <= ENUMERATION_CLUSTERS:
        totals = np.zeros(1)
        for s in nonzero.tolist():
            totals = np.concatenate([totals + s, totals - s])
        weights = np.full(totals.size, 1.0 / totals.size)
        p = _p_from_weights(totals, weights, statistic, alternative, atol)
        return SignFlipTest(p, alternative, "exact", "enumeration", statistic, units, None, work, None, 0.0)
    hits = 0
    done = 0
    while done < n_draws:
        size = min(max(1, _CHUNK // units), n_draws - done)
        signs = rng.integers(0, 2, size=(size, units), dtype=np.int8) * 2 - 1
        totals = signs @ nonzero
        hits += int(_extreme(totals, statistic, alternative, atol).sum())
        done += size
    p = (1 + hits) / (1 + n_draws)
    error = math.sqrt(p * (1.0 - p) / n_draws)
    return SignFlipTest(p, alternative, "monte-carlo", "random signs", statistic, units, None, work, n_draws, error)


def _extreme(totals: np.ndarray, observed: float, alternative: str, atol: float) -> np.ndarray:
    """Which null sums are at least as extreme as ``observed`` (ties, within ``atol``, count)."""
    if alternative == "greater":
        return totals >= observed - atol
    if alternative == "less":
        return totals <= observed + atol
    return np.abs(totals) >= abs(observed) - atol


def _p_from_weights(totals: np.ndarray, weights: np.ndarray, observed: float, alternative: str, atol: float) -> float:
    return float(min(1.0, weights[_extreme(totals, observed, alternative, atol)].sum()))
