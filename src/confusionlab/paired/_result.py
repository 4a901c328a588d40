"""``PairedComparison``: how classifier A's metric relates to B's on the same test set, the
answer of :func:`~confusionlab.compare_paired` and :func:`~confusionlab.compare_paired_cells`."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from .._deprecation import renamed_attribute
from .._deps import require
from .._result import Result
from .._validation import TooLargeError, check_confidence, check_int, check_margin
from ..distribution import MetricDistribution, metric_distribution
from ..metrics import Metric, metric_value
from ._cluster import ClusteredComparison, clustered_rows, clustered_verdict
from ._counts import PairedCounts
from ._difference import difference_distribution, exact_quantiles
from ._engine import ExactEngine, MonteCarloEngine
from ._figure import difference_figure
from ._model import single_model

__all__ = ["PairedComparison", "PairedJoint"]

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


class PairedComparison(ClusteredComparison, Result):
    """How classifier A's metric relates to B's: on a new test set of the same examples, or in
    their true values under ``target="true_value"``.

    The result of :func:`~confusionlab.compare_paired` and
    :func:`~confusionlab.compare_paired_cells`; it speaks the library's result protocol
    (:attr:`value`, :meth:`interval`, :meth:`to_frame`,
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
        √(P̃(1 − P̃)/n_draws) for Monte Carlo with P̃ = (n_draws·P + ½)/(n_draws + 1), so
        that a few draws that all agree never claim an error of 0; 0.0 when exact.
    n_draws : int or None
        Monte Carlo draws (None when exact). ``draws`` is its old name (it still works,
        with a FutureWarning).

    With ``cluster=`` (:func:`~confusionlab.compare_paired`), :meth:`interval`, the ``lower``
    and ``upper`` of :meth:`to_frame` and :meth:`verdict` are cluster-robust
    (:attr:`interval_method`), :meth:`p_value` is the cluster-level test, and :attr:`icc`,
    :attr:`design_effect`, :attr:`effective_size` say what the clustering costs; the
    probabilities (``prob_greater``, …) and the distributions stay those of independent rows.

    Examples
    --------
    >>> from confusionlab import compare_paired_cells
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
        self.mc_error = 0.0 if self.n_draws is None else _proportion_error(self.prob_greater, self.n_draws)
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
        return difference_distribution(
            self._engine, metric=self.metric, model=self.model, pruned_mass=self.pruned_mass, target=self.target
        )

    def interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """Central ``confidence`` interval of the difference A − B (:attr:`difference`): of its true value
        (``target="true_value"``) or on a new test set (``"next_test_set"``), as :attr:`target` says.
        With ``cluster=``: the cluster-robust delta-method interval of the true difference.

        Without ``cluster=`` the rows are assumed independent (with it, the clustered interval).

        Where the exact :attr:`difference` is binned (too many pairs to visit), the ends are
        found from exact tail masses instead, to within 1e-12 of the support's values."""
        c = check_confidence(confidence)
        if self._cluster is not None:
            return tuple(self._cluster.difference(0, 1, c))  # type: ignore[return-value]
        if isinstance(self._engine, ExactEngine) and self.difference.strategy.startswith("binned"):
            lo, hi = exact_quantiles(self._engine, [(1 - c) / 2, (1 + c) / 2])
            return lo, hi
        return self.difference.interval(c)

    # -- decisions -----------------------------------------------------------------------

    def _tails(self, m: float) -> tuple[float, float]:
        """(P(A − B ≤ m), P(A − B < −m)); exact ranks when m = 0."""
        if m == 0:
            return 1.0 - self.prob_greater, self.prob_less
        slack = MARGIN_SLACK * max(1.0, m)  # a difference within 1e-12 of the margin is on it
        gt_m, ge_neg = self._engine.below([m + slack, -m - slack], [True, False]).tolist()
        return 1.0 - gt_m, 1.0 - ge_neg

    def prob_equivalent(self, margin: float) -> float:
        """``P(|metric_A − metric_B| ≤ margin)``; at ``margin=0`` this is :attr:`prob_equal`.

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
        if self._cluster is not None:
            return clustered_verdict(self.interval(c), m)
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
        pd = require("pandas", "notebooks", "to_frame()")

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
            lo, hi = self.interval(c) if name == "A − B" else dist.interval(c)
            rows[name] = {
                "observed": obs,
                "mean": dist.mean(),
                "std": dist.std(),
                "lower": lo,
                "upper": hi,
                "target": self.target,
            }
        frame = pd.DataFrame.from_dict(rows, orient="index")
        if self._cluster is not None:
            frame = clustered_rows(frame, self._cluster, c)
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
        return difference_figure(self, ax)

    def view(self, **traits: Any) -> Any:
        """The comparison drawn: a :class:`~confusionlab.widgets.paired_view.PairedView`
        (``traits`` such as ``margin``, ``name_a``, ``name_b`` are passed on)."""
        return super().view(**traits)

    def summary(self, confidence: float = 0.95, *, margin: float = 0.0) -> str:
        """The verdict in words: P(A > B), the interval of A − B and :meth:`verdict` at ``margin``.

        >>> from confusionlab import compare_paired_cells
        >>> r = compare_paired_cells([[50, 3, 1, 6], [2, 4, 1, 33]], "accuracy", target="next_test_set")
        >>> print(r.summary(margin=0.05))
        Accuracy: A exceeds B on a new test set with probability 0.368 (equal 0.0929, below 0.539); A − B is
        -0.01 on this test set, 95% interval on a new test set [-0.1, 0.08]: insufficient evidence at margin 0.05.
        """
        c = check_confidence(confidence)
        m = check_margin(margin)
        lo, hi = self.interval(c)
        label = self._metric.label
        err = f" (Monte Carlo, standard error {self.mc_error:.2g})" if self.mc_error else ""
        question = "in its true value" if self.target == "true_value" else "on a new test set"
        where = "of the true difference" if self.target == "true_value" else "on a new test set"
        if self._cluster is not None:
            where = f"of the true difference ({self.interval_method}, {self._cluster.n_clusters} clusters)"
        return (
            f"{label}: A exceeds B {question} with probability {self.prob_greater:.3g} (equal "
            f"{self.prob_equal:.3g}, below {self.prob_less:.3g}){err}; A − B is {self.value:.3g} on this test set, "
            f"{c:.0%} interval {where} [{lo:.3g}, {hi:.3g}]: {self.verdict(m, c)} at margin {m:g}."
        )

    def __repr__(self) -> str:
        err = f" ± {self.mc_error:.2g}" if self.mc_error else ""
        return (
            f"PairedComparison(metric={self.metric!r}, model={self.model!r}, method={self.method!r}, "
            f"value={self.value:.4g}, prob_greater={self.prob_greater:.4g}{err}, prob_equal={self.prob_equal:.4g}, "
            f"prob_less={self.prob_less:.4g})"
        )


def _proportion_error(p: float, n_draws: int) -> float:
    """Standard error of a proportion ``p`` of ``n_draws`` draws, half a draw added each side.

    >>> _proportion_error(1.0, 1), _proportion_error(0.5, 10_000)
    (0.4330127018922193, 0.005)
    """
    shrunk = (n_draws * p + 0.5) / (n_draws + 1)
    return math.sqrt(shrunk * (1 - shrunk) / n_draws)
