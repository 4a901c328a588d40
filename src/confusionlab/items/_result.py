"""The results of the item jobs: :class:`ItemEvaluation` (a mean score over items) and
:class:`ItemComparison` (the paired difference of two systems' scores on the same items)."""

from __future__ import annotations

import math
from typing import Any, ClassVar

import numpy as np
from scipy import stats

from .._deps import require
from .._errors import InvalidParameterError
from .._result import Result, new_figure
from .._validation import check_choice, check_confidence, check_n_draws, check_random_state
from ._sign_flip import ALTERNATIVES, SignFlipTest, sign_flip_test

__all__ = ["MAX_SIGNS", "ItemComparison", "ItemEvaluation"]

#: Most random signs a Monte Carlo sign-flip test may draw (n_draws × clusters; about a minute).
MAX_SIGNS = 2e10


class _ClusteredMean(Result, abstract=True):
    """A mean over items with its naive and its cluster-robust standard error."""

    #: Which question the intervals answer: the mean score over the population of items.
    target: ClassVar[str] = "true_value"
    _what: ClassVar[str] = "mean score"

    def __init__(self, summary: dict[str, Any], *, confidence: float) -> None:
        self._s = summary
        self.confidence = confidence

    @property
    def value(self) -> float:
        """The mean over items of each item's mean score."""
        return float(self._s["value"])

    @property
    def std_error(self) -> float:
        """The standard error of :attr:`value`: cluster-robust with ``cluster=``, else sd/√n over items."""
        return float(self._s["std_error"])

    @property
    def naive_std_error(self) -> float:
        """The standard error if the items were independent: sd/√n over the items' means."""
        return float(self._s["naive_std_error"])

    @property
    def n_items(self) -> int:
        return int(self._s["n_items"])

    @property
    def n_rows(self) -> int:
        return int(self._s["n_rows"])

    @property
    def n_clusters(self) -> int | None:
        """Clusters (None without ``cluster=``)."""
        return self._s["n_clusters"]

    @property
    def df(self) -> int:
        """Degrees of freedom of the t interval: clusters − 1 with ``cluster=``, else items − 1."""
        return int(self._s["df"])

    @property
    def icc(self) -> float:
        """The intraclass correlation of the items' means within clusters (one-way ANOVA; NaN without
        clusters; it may fall below 0 by chance)."""
        return float(self._s["icc"])

    @property
    def design_effect(self) -> float:
        """``1 + (Σ m_c²/n − 1)·max(ICC, 0)``: how many times clustering inflates the variance (1 without)."""
        return float(self._s["design_effect"])

    @property
    def effective_size(self) -> float:
        """Items / design effect: as many independent items would be worth as much."""
        return float(self._s["effective_size"])

    def _t_interval(self, se: float, df: int, confidence: float) -> tuple[float, float]:
        if not (math.isfinite(se) and df >= 1):
            return (math.nan, math.nan)
        half = float(stats.t.ppf(0.5 + confidence / 2.0, df)) * se
        return (self.value - half, self.value + half)

    def interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """The t interval ``value ± t_{df}·std_error`` (df = clusters − 1 with ``cluster=``, else
        items − 1), as Inspect's ``ci()``; not clipped to the scores' range.

        Without ``cluster=`` the items are assumed independent: for clustered items that interval
        is too narrow (pass ``cluster=``).
        """
        confidence = check_confidence(confidence)
        return self._t_interval(self.std_error, self.df, confidence)

    def naive_interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """The t interval that assumes independent items (``naive_std_error``, items − 1 df)."""
        confidence = check_confidence(confidence)
        return self._t_interval(self.naive_std_error, self.n_items - 1, confidence)

    def _row(self, confidence: float) -> dict[str, Any]:
        lo, hi = self.interval(confidence)
        return {
            "value": self.value,
            "std_error": self.std_error,
            "naive_std_error": self.naive_std_error,
            "n_items": self.n_items,
            "n_rows": self.n_rows,
            "n_clusters": self.n_clusters,
            "icc": self.icc,
            "design_effect": self.design_effect,
            "effective_size": self.effective_size,
            "confidence": confidence,
            "lower": lo,
            "upper": hi,
        }

    def to_frame(self) -> Any:
        """One row: the value, both standard errors, the cluster statistics and the interval at
        :attr:`confidence`, then ``target``."""
        pd = require("pandas", "notebooks", "to_frame()")

        return pd.DataFrame([{**self._row(self.confidence), "target": self.target}])

    def plot(self, ax: Any = None) -> Any:
        """The value with its naive and its clustered interval at :attr:`confidence`."""
        fig, ax = new_figure(ax, figsize=(6.0, 2.4))
        rows = [("independent items", self.naive_interval(self.confidence))]
        label = "clustered" if self.n_clusters is not None else "items (as given)"
        rows.append((label, self.interval(self.confidence)))
        for y, (_, (lo, hi)) in enumerate(rows):
            if math.isfinite(lo):
                ax.plot([lo, hi], [y, y], color="C0", linewidth=3)
            ax.plot([self.value], [y], "o", color="C1")
        ax.set_yticks(range(len(rows)), [r[0] for r in rows])
        ax.set_ylim(-0.7, len(rows) - 0.3)
        ax.set_xlabel(f"{self._what} ({self.confidence:.0%} interval)")
        ax.set_title(self.title)
        return fig

    def _scope(self) -> str:
        if self.n_clusters is None:
            return f"{self.n_items:,} items assumed independent"
        return (
            f"{self.n_items:,} items in {self.n_clusters:,} clusters (ICC {self.icc:.3g}, design effect "
            f"{self.design_effect:.3g}, worth {self.effective_size:.1f} independent items)"
        )


class ItemEvaluation(_ClusteredMean):
    """The mean score over test items, with a standard error that knows the items' clusters.

    Built by :func:`~confusionlab.evaluate_items`. ``.value`` is the mean of the items' means
    (each item's rows — samples or epochs — averaged first), ``.std_error`` its standard error,
    ``.interval()`` its t interval; ``.icc``, ``.design_effect``, ``.effective_size`` describe
    the clusters and :attr:`variance_split` the items' and the samples' share of the variance.
    """

    title: ClassVar[str] = "Mean score over items"

    @property
    def variance_split(self) -> dict[str, float] | None:
        """``std_error²`` split by the law of total variance into the part from which items were
        drawn and the part from sampling each item only K times (None unless every item has at
        least two rows).

        ``samples = Σ_i s_i²/K_i / n²`` (``s_i²`` the variance of item i's K_i rows): the variance
        that more samples per item would remove; ``items = std_error² − samples`` (at least 0): the
        variance that only more items remove.
        """
        samples = self._s["samples_variance"]
        if samples is None:
            return None
        total = self.std_error**2
        return {"total": total, "items": max(total - samples, 0.0), "samples": samples}

    def to_frame(self) -> Any:
        frame = super().to_frame()
        split = self.variance_split
        if split is not None:
            frame.insert(frame.columns.get_loc("confidence"), "samples_variance", split["samples"])
            frame.insert(frame.columns.get_loc("samples_variance"), "items_variance", split["items"])
        return frame

    def summary(self, confidence: float = 0.95) -> str:
        confidence = check_confidence(confidence)
        lo, hi = self.interval(confidence)
        return (
            f"Mean score {self.value:.4g} over {self._scope()}; {confidence:.0%} interval [{lo:.4g}, {hi:.4g}] "
            f"(standard error {self.std_error:.3g}, {self.naive_std_error:.3g} if the items were independent)."
        )


class ItemComparison(_ClusteredMean):
    """The paired difference A − B of two systems' mean scores on the same items.

    Built by :func:`~confusionlab.compare_items`. ``.value`` is the mean over items of the items'
    differences of means, ``.std_error`` its (cluster-robust) error, ``.interval()`` its t
    interval, ``.p_value()`` the sign-flip randomization test (exact while the work fits) and
    ``.test()`` its details.
    """

    title: ClassVar[str] = "Paired difference of mean scores (A − B)"
    _what: ClassVar[str] = "difference A − B"

    def __init__(
        self,
        summary: dict[str, Any],
        *,
        confidence: float,
        sums: np.ndarray,
        integers: tuple[np.ndarray, int] | None,
    ) -> None:
        super().__init__(summary, confidence=confidence)
        self._sums = sums
        self._integers = integers
        self._tests: dict[tuple[Any, ...], SignFlipTest] = {}

    @property
    def value_a(self) -> float:
        """A's mean score over items."""
        return float(self._s["value_a"])

    @property
    def value_b(self) -> float:
        """B's mean score over items."""
        return float(self._s["value_b"])

    def test(self, alternative: str = "two-sided", *, n_draws: int = 100_000, random_state: Any = 0) -> SignFlipTest:
        """The sign-flip randomization test of no difference, on the clusters' (or items') summed differences.

        Parameters
        ----------
        alternative : {"two-sided", "greater", "less"}, default "two-sided"
            ``"greater"``: A scores higher than B; ``"less"``: lower.
        n_draws : int, default 100 000
            Random sign patterns, used only when the exact answer would take too long (scores off
            a grid and more than 20 clusters, or a convolution beyond ~3·10⁸ operations).
        random_state : None, int, SeedSequence or Generator, default 0
            Seeds those draws.

        Returns
        -------
        SignFlipTest
            ``p_value``, ``method`` ("exact" or "monte-carlo"), ``how``, ``statistic``, ``units``,
            ``scale``, ``work``, ``n_draws``, ``mc_error``.
        """
        alternative = check_choice(alternative, "alternative", ALTERNATIVES)
        n_draws = check_n_draws(n_draws, bytes_per_draw=0.0)
        signs = float(n_draws) * max(int(np.count_nonzero(self._sums)), 1)
        if signs > MAX_SIGNS:
            raise InvalidParameterError(
                f"n_draws={n_draws:,} random sign patterns of {int(np.count_nonzero(self._sums)):,} clusters would "
                f"draw {signs:.3g} signs, more than {MAX_SIGNS:.0e} (minutes); lower n_draws (the Monte Carlo error "
                "of a p-value shrinks as 1/√n_draws)"
            )
        rng = check_random_state(random_state)
        if not isinstance(random_state, int):  # a generator or fresh entropy: a new answer each call
            return sign_flip_test(self._sums, alternative, integers=self._integers, n_draws=n_draws, rng=rng)
        key = (alternative, n_draws, random_state)
        if key not in self._tests:
            self._tests[key] = sign_flip_test(
                self._sums, alternative, integers=self._integers, n_draws=n_draws, rng=rng
            )
        return self._tests[key]

    def p_value(self, alternative: str = "two-sided", *, n_draws: int = 100_000, random_state: Any = 0) -> float:
        """The p-value of the sign-flip randomization test (:meth:`test` has the method and details)."""
        return self.test(alternative, n_draws=n_draws, random_state=random_state).p_value

    def to_frame(self) -> Any:
        frame = super().to_frame()
        test = self.test()
        frame.insert(0, "value_b", self.value_b)
        frame.insert(0, "value_a", self.value_a)
        frame.insert(frame.columns.get_loc("lower"), "p_value", test.p_value)
        frame.insert(frame.columns.get_loc("lower"), "method", test.method)
        return frame

    def summary(self, confidence: float = 0.95) -> str:
        confidence = check_confidence(confidence)
        lo, hi = self.interval(confidence)
        test = self.test()
        return (
            f"A − B = {self.value:.4g} ({self.value_a:.4g} vs {self.value_b:.4g}) over {self._scope()}; "
            f"{confidence:.0%} interval [{lo:.4g}, {hi:.4g}]; sign-flip p = {test.p_value:.4g} ({test.method})."
        )
