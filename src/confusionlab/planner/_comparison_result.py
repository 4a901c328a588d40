"""``ComparisonSizePlan``: the smallest paired test set meeting a half-width for the accuracy
difference, the answer of :func:`~confusionlab.plan_comparison_size`."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validation import check_confidence
from ..distribution import MetricDistribution
from ._paired_cells import CELL_NAMES, difference_quantiles
from ._size_plan import SizePlan

__all__ = ["ComparisonSizePlan"]


@dataclass(frozen=True, repr=False)
class ComparisonSizePlan(SizePlan):
    """The smallest paired test set whose interval of the accuracy difference A − B is at most the
    requested half-width (:func:`~confusionlab.plan_comparison_size`).

    Attributes
    ----------
    N : int
        Planned number of items, each scored by both classifiers.
    cells : (int, int, int, int)
        The planned agreement cells at N: both right, only A right, only B right, both wrong.
    half_width : float
        The half-width at N (at most ``requested_half_width``).
    requested_half_width : float
        The half-width asked for.
    curve : dict
        N → half-width for every size the search evaluated (ascending).
    confidence : float
    accuracy_a, accuracy_b, correlation : float
        The planning assumptions: the accuracies and the correlation of the two classifiers' errors.
    prior : float
        The Dirichlet prior on each cell (½, :func:`~confusionlab.compare_paired_cells`'s).
    target : str
        ``"true_value"``: the interval of the true difference.
    icc, cluster_size : float or None
        With clustered items: the intraclass correlation of the per-item differences and the
        mean cluster size; None for independent items.
    design_effect : float
        1 + (cluster_size − 1)·icc (1 for independent items).
    N_clustered, n_clusters : int or None
        The clustered plan: ⌈design_effect·N⌉ items (rounded up to whole clusters) in
        ``n_clusters`` clusters; None for independent items.

    Notes
    -----
    :attr:`value` is the accuracy difference at the planned cells, :meth:`interval` the central
    interval of the true difference there (the posterior the plan reads), :meth:`distribution` the
    difference as :func:`~confusionlab.compare_paired_cells` reports it (from its draws),
    :meth:`to_frame` the curve, :meth:`plot` the curve drawn.

    Examples
    --------
    >>> from confusionlab import plan_comparison_size
    >>> plan = plan_comparison_size((0.85, 0.80), correlation=0.5, half_width=0.02)
    >>> round(plan.value, 4), plan.to_frame().query("planned")["N"].tolist()
    (0.0495, [1394])
    """

    __test__ = False  # not a pytest test class
    title = "How many items tell two classifiers apart?"

    N: int
    cells: tuple[int, int, int, int]
    half_width: float
    requested_half_width: float
    curve: dict[int, float]
    confidence: float
    accuracy_a: float
    accuracy_b: float
    correlation: float
    prior: float = 0.5
    target: str = "true_value"
    icc: float | None = None
    cluster_size: float | None = None
    design_effect: float = 1.0
    N_clustered: int | None = None
    n_clusters: int | None = None

    @property
    def value(self) -> float:
        """The accuracy difference A − B at the planned cells."""
        return (self.cells[1] - self.cells[2]) / self.N

    def interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """The central ``confidence`` interval of the true accuracy difference at the planned cells
        (Dirichlet(cells + ½), by quadrature); the planned items are assumed independent."""
        confidence = check_confidence(confidence)
        lo, hi = difference_quantiles(np.array(self.cells), self.prior, (0.5 - confidence / 2, 0.5 + confidence / 2))
        return lo, hi

    def distribution(self) -> MetricDistribution:
        """The distribution of the difference that :func:`~confusionlab.compare_paired_cells` reports at the
        planned cells (all items one class; its draws, default ``n_draws`` and seed)."""
        from ..paired import compare_paired_cells

        return compare_paired_cells([list(self.cells), [0, 0, 0, 0]], "accuracy").difference

    def summary(self, confidence: float = 0.95) -> str:
        """The plan in one sentence, with the ``confidence`` interval at the planned size."""
        lo, hi = self.interval(check_confidence(confidence))
        cells = ", ".join(f"{name} {count:,}" for name, count in zip(CELL_NAMES, self.cells, strict=True))
        clustered = (
            ""
            if self.N_clustered is None
            else f" With clusters of {self.cluster_size:g} items and ICC {self.icc:g} of the differences (design "
            f"effect {self.design_effect:.3g}) plan {self.N_clustered:,} items in {self.n_clusters:,} clusters."
        )
        return (
            f"Accuracy A − B: N = {self.N:,} items scored by both ({cells}) is the smallest paired test set whose "
            f"{self.confidence:.0%} interval for the true difference (Dirichlet posterior, prior {self.prior:g} "
            f"per cell) is at most ± {self.requested_half_width:g} (± {self.half_width:.4g} at N), for accuracies "
            f"{self.accuracy_a:g} and {self.accuracy_b:g} with error correlation {self.correlation:g}; there the "
            f"{confidence:.0%} interval around {self.value:.3g} is [{lo:.3g}, {hi:.3g}].{clustered}"
        )

    def __repr__(self) -> str:
        return (
            f"ComparisonSizePlan(N={self.N}, cells={self.cells}, half_width={self.half_width:.4g} <= "
            f"{self.requested_half_width:g}, correlation={self.correlation:g})"
        )
