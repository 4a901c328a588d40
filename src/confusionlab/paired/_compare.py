"""compare_paired: is B really better than A, on the same test set? (SPEC E5)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from .._validation import (
    DEFAULT_TOLERANCE,
    TooLargeError,
    check_choice,
    check_confidence,
    check_count,
    check_int,
    check_memory,
    check_random_state,
    check_tolerance,
    check_undefined,
)
from ..distribution import MetricDistribution, metric_distribution
from ..metrics import Metric, get_metric, metric_value
from ._counts import PairedCounts
from ._engine import ExactEngine, MonteCarloEngine
from ._model import MODELS, cell_windows, count_joint

__all__ = [
    "EXACT_WORK_LIMIT",
    "MAX_BOX_POINTS",
    "PairedComparison",
    "PairedJoint",
    "compare_paired",
    "compare_paired_cells",
]

#: ``method="auto"`` enumerates exactly while one sweep costs at most this many elementary
#: operations (about a second); above it, Monte Carlo with ``draws`` draws.
EXACT_WORK_LIMIT = 5e8
#: ``method="auto"`` enumerates exactly while each class's three-cell box has at most this many points.
MAX_BOX_POINTS = 2e7
#: The distribution of A − B visits every point of the four-dimensional support up to this
#: many points (grouped on exact rank pairs); beyond, it is binned (``DIFFERENCE_BINS``).
MAX_DIFFERENCE_POINTS = 2e7
DIFFERENCE_BINS = 401
#: A difference within this (relative) distance of a margin counts as equal to it: a margin
#: such as 0.05 is often itself a difference of lattice values, computed in floats.
MARGIN_SLACK = 1e-12
VERDICTS = ("A better", "B better", "practically equivalent", "insufficient evidence")


@dataclass(frozen=True)
class PairedJoint:
    """Mass of (metric A in ``edges_a[i]…edges_a[i+1]``, metric B in ``edges_b[j]…``): ``mass[i, j]``."""

    edges_a: np.ndarray
    edges_b: np.ndarray
    mass: np.ndarray


class PairedComparison:
    """How classifier A's metric relates to B's on a new test set of the same examples.

    Attributes
    ----------
    prob_greater, prob_equal, prob_less : float
        P(metric_A > metric_B), P(=), P(<), of the retained mass normalised to 1. Ties
        are decided on exact values (exact ranks), never on floats.
    value : float
        The observed difference metric_A − metric_B.
    counts : PairedCounts
        The observed 2 × 4 table.
    metric, model, method : str
        ``method`` is ``"exact"`` or ``"monte-carlo"``.
    future_size : (int, int)
        Positives and negatives of the predicted test set.
    pruned_mass : float
        Mass left out of the exact enumeration (≤ 2·tolerance; 0 for Monte Carlo).
    mc_error : float
        Standard error of ``prob_greater`` (and, at most, of every probability):
        √(P(1 − P)/draws) for Monte Carlo, 0.0 when exact.
    draws : int or None
        Monte Carlo draws (None when exact).
    """

    def __init__(
        self,
        engine: ExactEngine | MonteCarloEngine,
        *,
        metric: Metric,
        model: str,
        counts: PairedCounts,
        future_size: tuple[int, int],
        tolerance: float,
        undefined: float,
        pruned_mass: float,
    ) -> None:
        self._engine = engine
        self.metric = metric.name
        self._metric = metric
        self.model = model
        self.counts = counts
        self.future_size = future_size
        self.tolerance = tolerance
        self.undefined = undefined
        self.pruned_mass = pruned_mass
        self.method = "exact" if isinstance(engine, ExactEngine) else "monte-carlo"
        self.draws = None if isinstance(engine, ExactEngine) else engine.draws
        greater, at_most_a = engine.below([None, None], [True, False]).tolist()  # B < A, B ≤ A
        self.prob_greater = float(greater)
        self.prob_equal = float(max(0.0, at_most_a - greater))
        self.prob_less = float(max(0.0, 1.0 - at_most_a))
        self.mc_error = (
            0.0 if self.draws is None else math.sqrt(self.prob_greater * (1 - self.prob_greater) / self.draws)
        )
        self.value = metric_value(counts.matrix_a, metric, undefined=undefined) - metric_value(
            counts.matrix_b, metric, undefined=undefined
        )

    # -- the marginals -------------------------------------------------------------------
    def _marginal(self, cm: Any) -> MetricDistribution:
        model = "beta-binomial" if self.model == "dirichlet-multinomial" else "binomial"
        return metric_distribution(
            cm, self._metric, model, future_size=self.future_size, tolerance=self.tolerance, undefined=self.undefined
        )

    @cached_property
    def distribution_a(self) -> MetricDistribution:
        """A's metric alone: exactly ``metric_distribution(A's matrix, metric, "beta-binomial")``
        (``"binomial"`` under the multinomial model)."""
        return self._marginal(self.counts.matrix_a)

    @cached_property
    def distribution_b(self) -> MetricDistribution:
        """B's metric alone (see :attr:`distribution_a`)."""
        return self._marginal(self.counts.matrix_b)

    # -- the difference ------------------------------------------------------------------
    @cached_property
    def difference(self) -> MetricDistribution:
        """Distribution of metric_A − metric_B.

        Up to ``MAX_DIFFERENCE_POINTS`` points every point of the support is visited
        (differences grouped on 12 decimals, as :func:`confusionlab.compare` does; a pair
        of exactly equal values is exactly 0); beyond, both values are binned on a
        common grid of ``DIFFERENCE_BINS`` bins of width h and each difference is placed
        within h of its true value (``strategy`` says which). ``prob_greater``,
        ``prob_equal`` and ``prob_less`` are exact either way. A pair of infinite values
        of the same sign is undefined (``undefined_mass``, excluded).
        """
        engine = self._engine
        retained = 1.0 - self.pruned_mass
        if isinstance(engine, ExactEngine) and engine.points > MAX_DIFFERENCE_POINTS:
            values, masses, counts = self._binned_difference(engine)
            strategy = f"binned({DIFFERENCE_BINS})"
            undefined_mass = 0.0
        else:
            if isinstance(engine, ExactEngine):
                check_memory(float(engine.points) * 40.0, f"the {engine.points:,} pairs of the difference", "")
            ra, rb, mass = engine.pair_masses
            va, vb = engine.values[ra], engine.values[rb]
            with np.errstate(invalid="ignore"):
                raw = va - vb
                # group as compare() does (12 decimals), but never merge a non-zero difference into 0
                rounded = np.round(raw, 12)
                diff = np.where(ra == rb, 0.0, np.where(rounded == 0, raw, rounded))
            undefined = np.isnan(diff)
            undefined_mass = float(mass[undefined].sum()) * retained
            values, inverse = np.unique(diff[~undefined], return_inverse=True)
            masses = np.bincount(inverse.reshape(-1), weights=mass[~undefined]) * retained
            counts = np.bincount(inverse.reshape(-1))
            strategy = "pairs" if isinstance(engine, ExactEngine) else f"monte-carlo({engine.draws})"
        return MetricDistribution(
            values,
            masses,
            counts,
            metric=f"{self.metric} difference",
            model=f"paired {self.model}",
            pruned_mass=self.pruned_mass,
            undefined_mass=undefined_mass,
            undefined_excluded=True,
            strategy=strategy,
            check_total=True,
        )

    def _binned_difference(self, engine: ExactEngine) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        finite = engine.values[np.isfinite(engine.values)]
        lo, hi = float(finite.min()), float(finite.max())
        width = (hi - lo) / (DIFFERENCE_BINS - 1) or 1.0
        edges = lo - width / 2 + width * np.arange(DIFFERENCE_BINS + 1)
        joint = engine.binned_joint(edges, edges)
        k = np.subtract.outer(np.arange(DIFFERENCE_BINS), np.arange(DIFFERENCE_BINS)).reshape(-1)
        masses = np.bincount(k + DIFFERENCE_BINS - 1, weights=joint.reshape(-1))
        values = (np.arange(masses.size) - (DIFFERENCE_BINS - 1)) * width
        keep = masses > 0
        return values[keep], masses[keep] * (1.0 - self.pruned_mass), np.ones(int(keep.sum()), dtype=np.int64)

    def interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """Central ``confidence`` interval of the difference A − B."""
        return self.difference.interval(confidence)

    # -- decisions -----------------------------------------------------------------------
    def _check_margin(self, margin: Any) -> float:
        if isinstance(margin, (bool, np.bool_)) or not isinstance(margin, (int, float, np.integer, np.floating)):
            raise TypeError(f"margin must be a non-negative number, got {margin!r}")
        m = float(margin)
        if not (math.isfinite(m) and m >= 0):
            raise ValueError(f"margin must be a finite non-negative number, got {margin!r}")
        return m

    def _tails(self, m: float) -> tuple[float, float]:
        """(P(A − B ≤ m), P(A − B < −m)); exact ranks when m = 0."""
        if m == 0:
            return 1.0 - self.prob_greater, self.prob_less
        slack = MARGIN_SLACK * max(1.0, m)  # a difference within 1e-12 of the margin is on it
        gt_m, ge_neg = self._engine.below([m + slack, -m - slack], [True, False]).tolist()
        return 1.0 - gt_m, 1.0 - ge_neg

    def prob_equivalent(self, margin: float) -> float:
        """P(|metric_A − metric_B| ≤ margin); at ``margin=0`` this is :attr:`prob_equal`.

        Differences within 1e-12 of the margin count as equal to it (a margin such as
        0.05 is often exactly a difference of two lattice values, which floats may miss
        by an ulp); at 0 the ties are exact.
        """
        m = self._check_margin(margin)
        at_most, below = self._tails(m)
        return float(min(1.0, max(0.0, at_most - below)))

    def verdict(self, margin: float, confidence: float = 0.95) -> str:
        """ "A better", "B better", "practically equivalent" or "insufficient evidence".

        With I the central ``confidence`` interval of A − B (:meth:`interval`): I entirely
        above ``margin`` → "A better"; entirely below −``margin`` → "B better"; inside
        [−margin, margin] → "practically equivalent"; otherwise "insufficient evidence"
        (the rule of :meth:`confusionlab.bias.BiasMetric.verdict`). Decided from the two
        exact tail masses P(A − B ≤ margin) and P(A − B < −margin), so no binning enters.
        """
        m = self._check_margin(margin)
        c = check_confidence(confidence)
        lo_q, hi_q = (1 - c) / 2, (1 + c) / 2
        at_most, below = self._tails(m)
        if at_most < lo_q:
            return "A better"
        if below >= hi_q:
            return "B better"
        if below < lo_q and at_most >= hi_q:
            return "practically equivalent"
        return "insufficient evidence"

    def joint(self, bins: int = 64) -> PairedJoint:
        """The joint PMF of (metric_A, metric_B) on a ``bins`` × ``bins`` grid over their common range."""
        bins = check_int(bins, "bins", minimum=1, maximum=2000)
        values = self._engine.values
        finite = values[np.isfinite(values)]
        lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
        if hi <= lo:
            lo, hi = lo - 0.5, hi + 0.5
        edges = np.linspace(lo, hi, bins + 1)
        return PairedJoint(edges, edges.copy(), self._engine.binned_joint(edges, edges))

    def __repr__(self) -> str:
        err = f" ± {self.mc_error:.2g}" if self.mc_error else ""
        return (
            f"PairedComparison(metric={self.metric!r}, model={self.model!r}, method={self.method!r}, "
            f"value={self.value:.4g}, prob_greater={self.prob_greater:.4g}{err}, prob_equal={self.prob_equal:.4g}, "
            f"prob_less={self.prob_less:.4g})"
        )


def _future(future_size: Any, counts: PairedCounts) -> tuple[int, int]:
    if future_size is None:
        return counts.p, counts.n
    if isinstance(future_size, (str, bytes)) or not hasattr(future_size, "__len__") or len(future_size) != 2:
        raise TypeError(f"future_size must be a pair (positives, negatives), got {future_size!r}")
    p = check_count(future_size[0], "future_size[0] (positives)")
    n = check_count(future_size[1], "future_size[1] (negatives)")
    if p + n == 0:
        raise ValueError("future_size must hold at least one example, got (0, 0)")
    return p, n


def compare_paired_cells(
    cells: Any,
    metric: str | Metric,
    *,
    model: str = "dirichlet-multinomial",
    tolerance: float = DEFAULT_TOLERANCE,
    future_size: tuple[int, int] | None = None,
    undefined: float = 0.0,
    method: str = "auto",
    draws: int = 100_000,
    random_state: Any = 0,
) -> PairedComparison:
    """:func:`compare_paired` from the 2 × 4 cell counts (or a :class:`PairedCounts`).

    ``cells[0]`` are the true positives, ``cells[1]`` the true negatives; the columns
    are (both predict positive, only A, only B, neither).

    Examples
    --------
    >>> r = compare_paired_cells([[50, 3, 1, 6], [2, 4, 1, 33]], "accuracy")
    >>> round(r.prob_greater, 4), round(r.prob_equal, 4), round(r.prob_less, 4)
    (0.3684, 0.0929, 0.5387)
    """
    counts = PairedCounts.from_cells(cells)
    m = get_metric(metric)
    model = check_choice(model, "model", MODELS)
    tolerance = check_tolerance(tolerance)
    undefined_value = check_undefined(undefined, allow_exclude=False)
    assert undefined_value is not None
    method = check_choice(method, "method", ("auto", "exact", "monte-carlo"))
    draws = check_int(draws, "draws", minimum=1)
    p, n = _future(future_size, counts)
    for name, cells_of, future in (("positives", counts.positives, p), ("negatives", counts.negatives, n)):
        if model == "multinomial" and future > 0 and sum(cells_of) == 0:
            raise ValueError(
                f"the multinomial model needs observed {name} to estimate the cell shares; use the "
                "dirichlet-multinomial model, whose prior covers an empty class"
            )
    identical = counts.discordant_cells == 0
    exact = None
    if method != "monte-carlo":
        exact = _exact_engine(m, model, counts, p, n, tolerance, undefined_value, identical, refuse=method == "exact")
    if exact is not None:
        engine, pruned = exact
    else:
        rng = check_random_state(random_state)
        positives, negatives = counts.as_array()
        engine = MonteCarloEngine(m, model, p, n, positives, negatives, draws, rng, undefined_value, identical)
        pruned = 0.0
    return PairedComparison(
        engine,
        metric=m,
        model=model,
        counts=counts,
        future_size=(p, n),
        tolerance=tolerance,
        undefined=undefined_value,
        pruned_mass=pruned,
    )


def _exact_engine(
    m: Metric,
    model: str,
    counts: PairedCounts,
    p: int,
    n: int,
    tolerance: float,
    undefined: float,
    identical: bool,
    *,
    refuse: bool,
) -> tuple[ExactEngine, float] | None:
    for name, cells, future in (("positives", counts.positives, p), ("negatives", counts.negatives, n)):
        if future == 0:
            continue
        try:
            windows, _ = cell_windows(model, cells, future, tolerance, name, identical)
        except TooLargeError:
            if refuse:
                raise
            return None
        box = math.prod(hi - lo + 1 for lo, hi in windows)
        if box > MAX_BOX_POINTS and not refuse:
            return None
    pos = count_joint(model, counts.positives, p, tolerance, "positives", identical)
    neg = count_joint(model, counts.negatives, n, tolerance, "negatives", identical)
    if ExactEngine.work(pos, neg) > EXACT_WORK_LIMIT and not refuse:
        return None
    if m.magnitude(p + n) >= 2**62 and not refuse:
        return None
    try:
        engine = ExactEngine(m, p, n, pos, neg, undefined)
    except ValueError:
        if refuse:
            raise
        return None
    pruned = pos.dropped + neg.dropped - pos.dropped * neg.dropped
    return engine, pruned


def compare_paired(
    y_true: Any,
    pred_a: Any,
    pred_b: Any,
    metric: str | Metric,
    *,
    model: str = "dirichlet-multinomial",
    tolerance: float = DEFAULT_TOLERANCE,
    future_size: tuple[int, int] | None = None,
    positive: Any = None,
    undefined: float = 0.0,
    method: str = "auto",
    draws: int = 100_000,
    random_state: Any = 0,
) -> PairedComparison:
    """Is classifier A better than B on the metric, given both were scored on the same test set?

    Parameters
    ----------
    y_true, pred_a, pred_b : array-like of labels
        True labels and the two classifiers' predicted labels, example by example
        (same length, binary; see :meth:`ConfusionMatrix.from_predictions
        <confusionlab.ConfusionMatrix.from_predictions>` for ``positive``).
    metric : str or Metric
        Any metric of :data:`confusionlab.METRICS`.
    model : {"dirichlet-multinomial", "multinomial"}
        Per true class the four agreement cells (both positive, only A, only B,
        neither) of a new test set with the same p and n are Dirichlet-multinomial
        with prior ½ per cell (each classifier alone is then exactly the paper's
        beta-binomial with a uniform prior), or multinomial with the observed shares.
    tolerance : float, default 1e-12
        Mass each class's joint table may drop (``pruned_mass`` ≤ 2·tolerance).
    future_size : (p, n), optional
        Positives and negatives of the predicted test set (default: as observed).
    positive : label, optional
        The positive class.
    undefined : float, default 0.0
        The value of the metric where it is 0/0 (the paper's convention); it ties
        with the defined points of exactly that value.
    method : {"auto", "exact", "monte-carlo"}
        ``"auto"`` enumerates exactly unless a class's three-cell box exceeds
        :data:`MAX_BOX_POINTS` points or a sweep :data:`EXACT_WORK_LIMIT` operations
        (p = n = 1000 is well inside: about 10⁸), then uses Monte Carlo.
    draws : int, default 100,000
        Monte Carlo draws (``mc_error`` ≈ 0.0016 at P = ½).
    random_state : None, int, SeedSequence or Generator, default 0
        For the Monte Carlo draws.

    Returns
    -------
    PairedComparison

    Notes
    -----
    Exact: the joint tables of (TP_A, TP_B) and (FP_A, FP_B) are enumerated on their
    pruned support and every probability is a sum over the product of the two, with
    values compared by exact rank (see :mod:`confusionlab.paired._engine`).
    Predictions that agree on every example are taken to come from the same classifier
    (the discordant cells are structural zeros), so ``prob_equal`` is then 1.
    Independence of A and B (:func:`confusionlab.compare`) is the wrong model here: two
    classifiers scored on the same examples err on the same hard ones, and the paired
    answer is usually much sharper.

    Examples
    --------
    >>> y = [1] * 10 + [0] * 10
    >>> a = [1] * 9 + [0] + [0] * 9 + [1]
    >>> b = [1] * 7 + [0] * 3 + [0] * 8 + [1] * 2
    >>> r = compare_paired(y, a, b, "balanced_accuracy")
    >>> r.method, round(r.value, 3), round(r.prob_greater, 3)
    ('exact', 0.15, 0.793)
    >>> r.verdict(margin=0.02)
    'insufficient evidence'
    """
    counts = PairedCounts.from_predictions(y_true, pred_a, pred_b, positive=positive)
    return compare_paired_cells(
        counts,
        metric,
        model=model,
        tolerance=tolerance,
        future_size=future_size,
        undefined=undefined,
        method=method,
        draws=draws,
        random_state=random_state,
    )
