"""compare_paired: is B really better than A, on the same test set?"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from .._deprecation import renamed_arguments, renamed_attribute
from .._result import Result, new_figure
from .._validation import (
    DEFAULT_TOLERANCE,
    TooLargeError,
    check_confidence,
    check_int,
    check_margin,
    check_memory,
    check_random_state,
    memory_limit,
)
from ..distribution import MetricDistribution, metric_distribution
from ..metrics import Metric, metric_value
from ..palette import NEUTRAL, PAIR_COLOURS, THEME
from ._checks import check_observed_class, check_test_set_size
from ._counts import PairedCounts
from ._engine import ExactEngine, MonteCarloEngine, TrueValueEngine
from ._model import box_points_estimate, cell_windows, count_joint, joint_bytes, single_model, table_shape
from ._options import Options, check_options

__all__ = [
    "EXACT_WORK_LIMIT",
    "MAX_BOX_POINTS",
    "PairedComparison",
    "PairedJoint",
    "compare_paired",
    "compare_paired_cells",
]

#: ``method="auto"`` enumerates exactly while one sweep costs at most this many elementary
#: operations (about a second); above it, Monte Carlo with ``n_draws`` draws.
EXACT_WORK_LIMIT = 5e8
#: ``method="auto"`` enumerates exactly while each class's three-cell box has at most this many points.
MAX_BOX_POINTS = 2e7
#: A box estimated from the moments (:func:`box_points_estimate`) this many times larger than
#: MAX_BOX_POINTS is not located exactly: it cannot fit whatever the moments missed.
BOX_ESTIMATE_MARGIN = 1e3
#: The distribution of A − B visits every point of the four-dimensional support up to this
#: many points (grouped on exact rank pairs); beyond, it is binned (``DIFFERENCE_BINS``).
MAX_DIFFERENCE_POINTS = 2e7
DIFFERENCE_BINS = 401
#: A difference within this (relative) distance of a margin counts as equal to it: a margin
#: such as 0.05 is often itself a difference of lattice values, computed in floats.
MARGIN_SLACK = 1e-12
VERDICTS = ("A better", "B better", "practically equivalent", "insufficient evidence")
#: :meth:`PairedComparison.plot` draws one stick per difference up to this many; beyond, a histogram.
MAX_PLOT_STICKS = 600


@dataclass(frozen=True)
class PairedJoint:
    """Mass of (metric A in ``edges_a[i]…edges_a[i+1]``, metric B in ``edges_b[j]…``): ``mass[i, j]``."""

    edges_a: np.ndarray
    edges_b: np.ndarray
    mass: np.ndarray


class PairedComparison(Result):
    """How classifier A's metric relates to B's: on a new test set of the same examples, or in
    their true values under ``target="true_value"``.

    The result of :func:`compare_paired` and :func:`compare_paired_cells`; it speaks the
    library's result protocol (:attr:`value`, :meth:`interval`, :meth:`to_frame`,
    :meth:`~confusionlab._result.Result.to_html`, :meth:`plot`, :meth:`view`).

    Attributes
    ----------
    value : float
        The observed difference metric_A − metric_B on the test set (A's metric minus
        B's; ``undefined`` where one is 0/0). :meth:`interval` is the interval of the
        same difference on a new test set (of the true values under ``target="true_value"``).
    prob_greater, prob_equal, prob_less : float
        P(metric_A > metric_B), P(=), P(<), of the retained mass normalised to 1. Ties
        are decided on exact values (exact ranks), never on floats.
    counts : PairedCounts
        The observed 2 × 4 table.
    metric, model, method : str
        ``model`` is one of :data:`confusionlab.models.PAIRED_MODELS`; ``method`` is
        ``"exact"`` or ``"monte-carlo"``.
    future_size : (int, int)
        Positives and negatives of the predicted test set.
    pruned_mass : float
        Mass left out of the exact enumeration (≤ 2·tolerance; 0 for Monte Carlo).
    mc_error : float
        Standard error of ``prob_greater`` (and, at most, of every probability):
        √(P(1 − P)/n_draws) for Monte Carlo, 0.0 when exact.
    n_draws : int or None
        Monte Carlo draws (None when exact). ``draws`` is its old name (it still works,
        with a FutureWarning).

    Examples
    --------
    >>> r = compare_paired_cells([[50, 3, 1, 6], [2, 4, 1, 33]], "accuracy")
    >>> round(r.value, 2)  # A: 87 of 100 right, B: 88
    -0.01
    >>> r.interval(0.9) == r.difference.interval(0.9)
    True
    >>> r.to_frame().index.tolist()
    ['A', 'B', 'A − B']
    """

    title = "Paired comparison"

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
        target: str = "next_test_set",
    ) -> None:
        self._engine = engine
        self.target = target
        self.metric = metric.name
        self._metric = metric
        self.model = model
        self.counts = counts
        self.future_size = future_size
        self.tolerance = tolerance
        self.undefined = undefined
        self.pruned_mass = pruned_mass
        self.method = "exact" if isinstance(engine, ExactEngine) else "monte-carlo"
        self.n_draws = None if isinstance(engine, ExactEngine) else engine.n_draws
        greater, at_most_a = engine.below([None, None], [True, False]).tolist()  # B < A, B ≤ A
        self.prob_greater = float(greater)
        self.prob_equal = float(max(0.0, at_most_a - greater))
        self.prob_less = float(max(0.0, 1.0 - at_most_a))
        self.mc_error = (
            0.0 if self.n_draws is None else math.sqrt(self.prob_greater * (1 - self.prob_greater) / self.n_draws)
        )
        self._value = metric_value(counts.matrix_a, metric, undefined=undefined) - metric_value(
            counts.matrix_b, metric, undefined=undefined
        )

    @property
    def value(self) -> float:
        """The observed difference metric_A − metric_B on the test set (``undefined`` where a metric is 0/0)."""
        return self._value

    draws = renamed_attribute("n_draws")

    # -- the marginals -------------------------------------------------------------------
    def _marginal(self, cm: Any, side: str) -> MetricDistribution:
        if self.target == "true_value":  # Dirichlet(½ each) aggregates to each classifier's Beta(·+1, ·+1)
            return metric_distribution(
                cm, self._metric, "beta-binomial", prior=1.0, undefined=self.undefined, target=self.target
            )
        try:
            return metric_distribution(
                cm,
                self._metric,
                single_model(self.model),
                future_size=self.future_size,
                tolerance=self.tolerance,
                undefined=self.undefined,
            )
        except TooLargeError:
            if not isinstance(self._engine, MonteCarloEngine):
                raise
        # beyond the exact lattice: the Monte Carlo draws of the comparison itself (same model)
        engine = self._engine
        ranks = engine.rank_a if side == "A" else engine.rank_b
        used, counts = np.unique(ranks, return_counts=True)
        return MetricDistribution(
            engine.values[used],
            counts / engine.n_draws,
            counts,
            metric=self.metric,
            model=single_model(self.model),
            strategy=f"monte-carlo({engine.n_draws})",
            check_total=True,
        )

    @cached_property
    def distribution_a(self) -> MetricDistribution:
        """A's metric alone: exactly ``metric_distribution(A's matrix, metric, "beta-binomial")``
        (``"binomial"`` under ``"paired-binomial"``: the paired model's name without the prefix);
        where that lattice exceeds the memory limit and the comparison is Monte Carlo, the
        distribution of A's values in its draws (``strategy="monte-carlo(n_draws)"``)."""
        return self._marginal(self.counts.matrix_a, "A")

    @cached_property
    def distribution_b(self) -> MetricDistribution:
        """B's metric alone (see :attr:`distribution_a`)."""
        return self._marginal(self.counts.matrix_b, "B")

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
            strategy = "pairs" if isinstance(engine, ExactEngine) else f"monte-carlo({engine.n_draws})"
        return MetricDistribution(
            values,
            masses,
            counts,
            metric=f"{self.metric} difference",
            model=self.model,
            pruned_mass=self.pruned_mass,
            undefined_mass=undefined_mass,
            undefined_excluded=True,
            strategy=strategy,
            check_total=True,
            target=self.target,
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
        """Central ``confidence`` interval of the difference A − B (:attr:`difference`): on a new test
        set, or of the true values under ``target="true_value"``."""
        return self.difference.interval(check_confidence(confidence))

    # -- decisions -----------------------------------------------------------------------

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
        m = check_margin(margin)
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
        m = check_margin(margin)
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

    # -- the result protocol -------------------------------------------------------------
    def to_frame(self, confidence: float = 0.95) -> Any:
        """A pandas DataFrame: rows ``A``, ``B`` and ``A − B``; columns ``observed`` (on the
        test set), ``mean`` and ``std`` (on a new test set, or of the true values under
        ``target="true_value"``) and the central ``confidence``
        interval ``lower``, ``upper`` (the level is in ``frame.attrs["confidence"]``), and
        ``target``, the question the interval answers (:attr:`target`).

        The rows ``A`` and ``B`` are :attr:`distribution_a` and :attr:`distribution_b`, the
        row ``A − B`` is :attr:`difference` (whose interval is :meth:`interval`).
        """
        import pandas as pd

        c = check_confidence(confidence)
        rows = {}
        observed = (
            metric_value(self.counts.matrix_a, self._metric, undefined=self.undefined),
            metric_value(self.counts.matrix_b, self._metric, undefined=self.undefined),
            self.value,
        )
        for name, obs, dist in zip(
            ("A", "B", "A − B"), observed, (self.distribution_a, self.distribution_b, self.difference), strict=True
        ):
            lo, hi = dist.interval(c)
            rows[name] = {
                "observed": obs,
                "mean": dist.mean(),
                "std": dist.std(),
                "lower": lo,
                "upper": hi,
                "target": self.target,
            }
        frame = pd.DataFrame.from_dict(rows, orient="index")
        frame.index.name = self.metric
        frame.attrs["confidence"] = c
        return frame

    def plot(self, ax: Any = None) -> Any:
        """The PMF of the difference A − B on a new test set (matplotlib; into ``ax`` when given).

        Differences in A's favour are drawn in A's colour, those in B's favour in B's
        (:data:`confusionlab.palette.PAIR_COLOURS`), a difference of exactly 0 in the
        neutral colour; the band is the central 95 % interval. Up to ``MAX_PLOT_STICKS``
        distinct differences one stick each, beyond that a histogram. Returns the Figure.
        """
        fig, ax = new_figure(ax)
        d = self.difference
        finite = np.isfinite(d.values)
        values, probs = d.values[finite], d.probabilities[finite]
        if values.size > MAX_PLOT_STICKS:  # bins of width h centred on multiples of h: 0 stays in the middle of one
            half = max(float(np.abs(values).max()), 1e-12)
            h = 2 * half / (MAX_PLOT_STICKS // 2)
            index = np.rint(values / h).astype(np.int64)
            index, inverse = np.unique(index, return_inverse=True)
            values, probs = index * h, np.bincount(inverse.reshape(-1), weights=probs)
        colours = np.where(values > 0, PAIR_COLOURS["A"], np.where(values < 0, PAIR_COLOURS["B"], NEUTRAL))
        if values.size:
            lo, hi = np.clip(d.interval(0.95), values.min(), values.max())  # an infinite end: to the drawn range
            ax.axvspan(lo, hi, color=THEME["grid"], alpha=0.6, lw=0, label="95 % interval")
            ax.vlines(values, 0, probs, colors=colours.tolist(), lw=1.5)
            ax.axvline(0, color=NEUTRAL, lw=0.8)
            ax.axvline(self.value, color=NEUTRAL, lw=1, ls="--", label=f"observed {self.value:.3g}")
            for side in ("A", "B"):
                ax.plot([], [], color=PAIR_COLOURS[side], lw=1.5, label=f"{side} better")
            shown = np.clip(d.interval(1 - 1e-6), values.min(), values.max())  # all but a millionth of the mass
            lo, hi = min(shown[0], 0.0, self.value), max(shown[1], 0.0, self.value)
            pad = 0.04 * (hi - lo) or 0.05
            ax.set_xlim(lo - pad, hi + pad)
            ax.legend(fontsize="small", frameon=False)
        else:
            ax.text(0.5, 0.5, "no finite difference", ha="center", va="center", transform=ax.transAxes)
        label = self._metric.label
        where = "true values" if self.target == "true_value" else "new test set"
        ax.set_xlabel(f"{label} of A − {label} of B ({where})")
        ax.set_ylabel("probability" if values.size <= MAX_PLOT_STICKS else "probability (binned)")
        ax.set_title(f"P(A > B) = {self.prob_greater:.3g}, P(A = B) = {self.prob_equal:.3g}", fontsize="medium")
        return fig

    def view(self, **traits: Any) -> Any:
        """The comparison drawn: a :class:`~confusionlab.widgets.paired_view.PairedView`
        (``traits`` such as ``margin``, ``name_a``, ``name_b`` are passed on)."""
        return super().view(**traits)

    def summary(self, confidence: float = 0.95, *, margin: float = 0.0) -> str:
        """The verdict in words: P(A > B), the interval of A − B and :meth:`verdict` at ``margin``.

        >>> r = compare_paired_cells([[50, 3, 1, 6], [2, 4, 1, 33]], "accuracy")
        >>> print(r.summary(margin=0.05))
        Accuracy: A exceeds B on a new test set with probability 0.368 (equal 0.0929, below 0.539); A − B is
        -0.01 on this test set, 95% interval [-0.1, 0.08]: insufficient evidence at margin 0.05.
        """
        c = check_confidence(confidence)
        m = check_margin(margin)
        lo, hi = self.interval(c)
        label = self._metric.label
        err = f" (Monte Carlo, standard error {self.mc_error:.2g})" if self.mc_error else ""
        question = "in its true value" if self.target == "true_value" else "on a new test set"
        return (
            f"{label}: A exceeds B {question} with probability {self.prob_greater:.3g} (equal "
            f"{self.prob_equal:.3g}, below {self.prob_less:.3g}){err}; A − B is {self.value:.3g} on this test set, "
            f"{c:.0%} interval [{lo:.3g}, {hi:.3g}]: {self.verdict(m, c)} at margin {m:g}."
        )

    def __repr__(self) -> str:
        err = f" ± {self.mc_error:.2g}" if self.mc_error else ""
        return (
            f"PairedComparison(metric={self.metric!r}, model={self.model!r}, method={self.method!r}, "
            f"value={self.value:.4g}, prob_greater={self.prob_greater:.4g}{err}, prob_equal={self.prob_equal:.4g}, "
            f"prob_less={self.prob_less:.4g})"
        )


@renamed_arguments(draws="n_draws")
def compare_paired_cells(
    cells: Any,
    metric: str | Metric,
    *,
    model: str = "paired-beta-binomial",
    tolerance: float = DEFAULT_TOLERANCE,
    future_size: int | tuple[int, int] | None = None,
    undefined: float = 0.0,
    method: str = "auto",
    n_draws: int = 100_000,
    random_state: Any = 0,
    target: str = "next_test_set",
) -> PairedComparison:
    """:func:`compare_paired` from the 2 × 4 cell counts (or a :class:`PairedCounts`).

    ``cells[0]`` are the true positives, ``cells[1]`` the true negatives; the columns
    are (both predict positive, only A, only B, neither). Every other argument is as in
    :func:`compare_paired`.

    See Also
    --------
    compare_paired : The same from true and predicted labels.
    rank_models : k ≥ 2 classifiers on one test set.

    Examples
    --------
    >>> r = compare_paired_cells([[50, 3, 1, 6], [2, 4, 1, 33]], "accuracy")
    >>> round(r.prob_greater, 4), round(r.prob_equal, 4), round(r.prob_less, 4)
    (0.3684, 0.0929, 0.5387)

    A total ``future_size`` is split in the observed proportions (60 positives and 40
    negatives here):

    >>> compare_paired_cells([[50, 3, 1, 6], [2, 4, 1, 33]], "accuracy", future_size=1000).future_size
    (600, 400)
    """
    counts = PairedCounts.from_cells(cells)
    options = check_options(
        metric=metric,
        model=model,
        tolerance=tolerance,
        future_size=future_size,
        undefined=undefined,
        method=method,
        n_draws=n_draws,
        random_state=random_state,
        target=target,
        stacklevel=3,
    )
    return from_cells(counts, options)


def from_cells(counts: PairedCounts, options: Options) -> PairedComparison:
    """The paired comparison of the agreement cells ``counts`` under the checked ``options``: what
    :func:`compare_paired_cells`, :func:`compare_paired` (both paths) and each pair of a ranking compute.

    >>> from confusionlab.paired._options import check_options
    >>> o = check_options(metric="accuracy", model="paired-beta-binomial", tolerance=1e-12, future_size=None,
    ...                   undefined=0.0, method="auto", n_draws=1000, random_state=0, target="next_test_set",
    ...                   stacklevel=1)
    >>> round(from_cells(PairedCounts.from_cells([[50, 3, 1, 6], [2, 4, 1, 33]]), o).prob_greater, 4)
    0.3684
    """
    m, model, tolerance, undefined_value = options.metric, options.model, options.tolerance, options.undefined
    future_size, method, n_draws, target = options.future_size, options.method, options.n_draws, options.target
    if target == "true_value":
        rng = check_random_state(options.random_state)
        positives, negatives = counts.as_array()
        engine = TrueValueEngine(m, model, counts.p, counts.n, positives, negatives, n_draws, rng, undefined_value)
        return PairedComparison(
            engine,
            metric=m,
            model=model,
            counts=counts,
            future_size=(counts.p, counts.n),
            tolerance=tolerance,
            undefined=undefined_value,
            pruned_mass=0.0,
            target=target,
        )
    p, n = check_test_set_size(future_size, counts.p, counts.n)
    if model == "paired-binomial":
        check_observed_class(counts.p, p, "positives", model)
        check_observed_class(counts.n, n, "negatives", model)
    exact = None
    if method != "monte-carlo":
        exact = _exact_engine(m, model, counts, p, n, tolerance, undefined_value, refuse=method == "exact")
    if exact is not None:
        engine, pruned = exact
    else:
        rng = check_random_state(options.random_state)
        positives, negatives = counts.as_array()
        engine = MonteCarloEngine(m, model, p, n, positives, negatives, n_draws, rng, undefined_value)
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


def exact_points(m: Metric, model: str, counts: PairedCounts, p: int, n: int, tolerance: float) -> float | None:
    """Points of the boxes and tables an exact enumeration would fill, or None when it does not
    fit (:data:`MAX_BOX_POINTS`, the memory limit, exact keys beyond 64 bits) — known before
    anything is allocated (the cell windows are located analytically)."""
    if m.magnitude(p + n) >= 2**62:
        return None
    total = 0.0
    for name, cells, future in (("positives", counts.positives, p), ("negatives", counts.negatives, n)):
        if future == 0:
            continue
        if box_points_estimate(model, cells, future, tolerance) > BOX_ESTIMATE_MARGIN * MAX_BOX_POINTS:
            return None
        try:
            windows, _ = cell_windows(model, cells, future, tolerance, name)
        except TooLargeError:
            return None
        box = float(math.prod(hi - lo + 1 for lo, hi in windows))
        rows, cols = table_shape(windows)
        if box > MAX_BOX_POINTS or float(rows) * cols > MAX_BOX_POINTS or joint_bytes(windows) > memory_limit():
            return None
        total += box + float(rows) * cols
    return total


def _exact_engine(
    m: Metric,
    model: str,
    counts: PairedCounts,
    p: int,
    n: int,
    tolerance: float,
    undefined: float,
    *,
    refuse: bool,
) -> tuple[ExactEngine, float] | None:
    if not refuse and exact_points(m, model, counts, p, n, tolerance) is None:
        return None
    pos = count_joint(model, counts.positives, p, tolerance, "positives")
    neg = count_joint(model, counts.negatives, n, tolerance, "negatives")
    if ExactEngine.work(pos, neg) > EXACT_WORK_LIMIT and not refuse:
        return None
    try:
        engine = ExactEngine(m, p, n, pos, neg, undefined)
    except ValueError:
        if refuse:
            raise
        return None
    pruned = pos.dropped + neg.dropped - pos.dropped * neg.dropped
    return engine, pruned


@renamed_arguments(draws="n_draws")
def compare_paired(
    y_true: Any,
    pred_a: Any,
    pred_b: Any,
    metric: str | Metric,
    *,
    model: str = "paired-beta-binomial",
    tolerance: float = DEFAULT_TOLERANCE,
    future_size: int | tuple[int, int] | None = None,
    positive: Any = None,
    undefined: float = 0.0,
    method: str = "auto",
    n_draws: int = 100_000,
    random_state: Any = 0,
    target: str = "next_test_set",
    data: Any = None,
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
    model : {"paired-beta-binomial", "paired-binomial"}
        Per true class the four agreement cells (both positive, only A, only B,
        neither) of a new test set are

        * ``"paired-beta-binomial"`` (default): Dirichlet-multinomial with prior ½ per
          cell. Each classifier alone is then exactly the core's ``"beta-binomial"``
          model (the paper's, uniform prior): :attr:`PairedComparison.distribution_a`
          is ``metric_distribution(A's matrix, metric, "beta-binomial")``.
        * ``"paired-binomial"``: multinomial with the observed shares. Each classifier
          alone is exactly the core's ``"binomial"`` model.

        The models of :data:`confusionlab.models.PAIRED_MODELS`. The names until 0.1
        (``"dirichlet-multinomial"``, ``"multinomial"``) still work with a FutureWarning;
        the one-classifier models (``"beta-binomial"``, ``"binomial"``) are refused:
        they ignore that A and B are scored on the same examples.
    tolerance : float, default 1e-12
        Mass each class's joint table may drop (``pruned_mass`` ≤ 2·tolerance).
    future_size : int or (p, n), optional
        Size of the predicted test set: a pair (positives, negatives), or a total N
        split in the observed proportions, p′ = ⌊N·p/(p + n) + ½⌋ (as everywhere in the
        library). Default: as observed.
    positive : label, optional
        The positive class.
    undefined : float, default 0.0
        The value of the metric where it is 0/0 (the paper's convention); it ties
        with the defined points of exactly that value.
    method : {"auto", "exact", "monte-carlo"}
        ``"auto"`` enumerates exactly unless a class's three-cell box exceeds
        :data:`MAX_BOX_POINTS` points or a sweep :data:`EXACT_WORK_LIMIT` operations
        (p = n = 1000 is well inside: about 10⁸), then uses Monte Carlo.
    n_draws : int, default 100,000
        Monte Carlo draws (``mc_error`` ≈ 0.0016 at P = ½). ``draws`` is its old name
        (it still works, with a FutureWarning).
    random_state : None, int, SeedSequence or Generator, default 0
        For the Monte Carlo draws.
    target : {"next_test_set", "true_value"}, default "next_test_set"
        The question. ``"next_test_set"``: which classifier wins on a new test set of
        ``future_size`` (exact, or Monte Carlo). ``"true_value"``: which has the better
        *true* metric — the posterior of each class's agreement shares,
        Dirichlet(cells + ½), the prevalence fixed at the observed one, estimated from
        ``n_draws`` draws (``mc_error``); about 1/√2 as wide, so sharper. Needs the
        paired beta-binomial model and no ``future_size``.

    data : DataFrame, optional
        pandas, polars, pyarrow, DuckDB, Dask or PySpark: then ``y_true``, ``pred_a`` and
        ``pred_b`` are column names and the agreement cells are counted by the engine
        (``paired/_data.py``; the same numbers).

    Returns
    -------
    PairedComparison
        Its :attr:`~PairedComparison.value` is the observed difference A − B,
        :meth:`~PairedComparison.interval` that difference's interval on a new test set (of the
        true values under ``target="true_value"``).

    See Also
    --------
    compare_paired_cells : The same from the 2 × 4 table of agreement cells.
    rank_models : k ≥ 2 classifiers on one test set.
    confusionlab.compare : Two classifiers on independent test sets.
    confusionlab.metric_distribution : One classifier's metric on a new test set.
    confusionlab.evaluate : One classifier (or its refits) per group, from labels.
    confusionlab.plan_test_size : How large a test set must be for a given half-width.

    Notes
    -----
    Exact: the joint tables of (TP_A, TP_B) and of (FP_A, FP_B) are enumerated on their
    pruned support and every probability is a sum over the product of the two, with
    values compared by exact rank (see :mod:`confusionlab.paired._engine`).
    Every cell has the same Dirichlet prior ½ whatever its count: predictions that agree
    on every example are still two classifiers (their discordant cells, observed 0, keep
    the prior), so ``prob_equal`` is then below 1 and one differing example more moves the
    answer only a little.
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
    options = check_options(
        metric=metric,
        model=model,
        tolerance=tolerance,
        future_size=future_size,
        positive=positive,
        undefined=undefined,
        method=method,
        n_draws=n_draws,
        random_state=random_state,
        target=target,
        stacklevel=3,
    )
    if data is not None:  # data= with column names: the cells counted by the data's own engine
        from ._data import COMPARE_DOOR, compare_from_counts

        return compare_from_counts(COMPARE_DOOR(data, options, y_true=y_true, pred_a=pred_a, pred_b=pred_b), options)
    return from_cells(PairedCounts.from_predictions(y_true, pred_a, pred_b, positive=positive), options)
